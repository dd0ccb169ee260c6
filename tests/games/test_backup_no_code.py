"""Issue 27 §1: a backup is data, never code. A phase's engine state used to travel as a
pickle and be unpickled on the next read: a crafted backup ran code on the server. The
state is now rebuilt from the stored inputs, and a backup carrying a pickle is refused."""

from __future__ import annotations

import base64
import json
import os
import pickle
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import Game, Phase
from games.services.backup import game_export_json
from tests.played import played_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("games", "gm", "roles", "bench", "manage.py", "dev.py")


class Payload:
    """Unpickled, it creates ``path``: proof that code from the file ran."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return (os.mkdir, (self.path,))


def hostile_backup(game: Game, marker: Path) -> bytes:
    document = json.loads(game_export_json(game))
    phases = document["rows"]["games.phase"]
    open_phase = next(r for r in phases if r["fields"]["status"] == Phase.Status.OPEN)
    blob = pickle.dumps(Payload(str(marker)))
    open_phase["fields"]["snapshot"] = base64.b64encode(blob).decode()
    open_phase["fields"]["snapshot_rules"] = "anything"
    return json.dumps(document).encode()


def test_a_backup_carrying_a_pickle_is_refused_and_runs_nothing(
    client, gm_user, tmp_path, before_noon
):
    game = played_game(gm_user, finish=False)
    marker = tmp_path / "ran"
    raw = hostile_backup(game, marker)
    client.force_login(gm_user)
    games = Game.objects.count()
    upload = SimpleUploadedFile("backup.json", raw, content_type="application/json")
    page = client.post(reverse("games:import"), {"file": upload, "name": "Copia"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "codice eseguibile" in text
    assert "games.phase.snapshot" in text
    assert Game.objects.count() == games  # nothing stored
    # and nothing runs on any later read of the game either
    for url in (reverse("games:detail", args=[game.pk]), reverse("games:phase", args=[game.pk])):
        assert client.get(url).status_code == 200
    assert not marker.exists()


def test_an_older_backup_with_empty_retired_fields_still_imports(gm_user, before_noon):
    from games.services.backup import game_import, parse_backup

    game = played_game(gm_user, finish=False)
    document = json.loads(game_export_json(game))
    for row in document["rows"]["games.phase"]:
        row["fields"]["snapshot"], row["fields"]["snapshot_rules"] = None, ""
    copy = game_import(parse_backup(json.dumps(document)), gm=gm_user, name="Vecchio backup")
    assert copy.phases.count() == game.phases.count()


def test_no_unsafe_deserializer_in_the_product():
    """No pickle, marshal, shelve or unsafe yaml.load anywhere in the product's code."""
    unsafe = re.compile(r"^\s*(import|from)\s+(pickle|marshal|shelve|dill|cloudpickle)\b"
                        r"|yaml\.load\(|yaml\.unsafe_load", re.M)  # fmt: skip
    found = []
    for top in PRODUCT:
        path = ROOT / top
        files = [path] if path.is_file() else path.rglob("*.py")
        found += [str(f.relative_to(ROOT)) for f in files if unsafe.search(f.read_text())]
    assert found == []
