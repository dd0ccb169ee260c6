"""Issue 27 §3: a backup upload is hostile until the schema says otherwise. Bounded in
size and depth before it is parsed, every field typed and bounded, refused with a
message naming the first bad field; never a 500, never a stored row."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import AuditEvent, Game, Player
from games.services.backup import game_export_json
from games.services.backup_schema import MAX_BACKUP_BYTES, MAX_DEPTH, check_size_and_depth
from tests.played import played_game

pytestmark = pytest.mark.django_db


def stored() -> tuple:
    return (Game.objects.count(), Player.objects.count(), AuditEvent.objects.count())


@pytest.fixture
def exported(gm_user, before_noon):
    return json.loads(game_export_json(played_game(gm_user, finish=False)))


def upload(client, raw: bytes):
    file = SimpleUploadedFile("backup.json", raw, content_type="application/json")
    return client.post(reverse("games:import"), {"file": file, "name": "Copia"})


def mangled(document: dict, label: str, index: int, name: str, value: object) -> bytes:
    document["rows"][label][index]["fields"][name] = value
    return json.dumps(document).encode()


HOSTILE = [
    # (what, change to the exported document, the words of the refusal)
    ("long name", lambda d: mangled(d, "games.player", 3, "name", "x" * 81),
     "games.player[3].name: troppo lungo"),
    ("name as a number", lambda d: mangled(d, "games.player", 2, "name", 12),
     "games.player[2].name: tipo sbagliato"),
    ("seat as text", lambda d: mangled(d, "games.player", 0, "seat", "1"),
     "games.player[0].seat: tipo sbagliato"),
    ("seat out of range", lambda d: mangled(d, "games.player", 0, "seat", 10**12),
     "games.player[0].seat: fuori intervallo"),
    ("unknown status", lambda d: mangled(d, "games.phase", 0, "status", "boom"),
     "games.phase[0].status: valore non ammesso"),
    ("year 1", lambda d: mangled(d, "games.phase", 0, "closes_at", "0001-01-01T00:00:00+05:00"),
     "games.phase[0].closes_at: data o ora non valida"),
    ("bool as text", lambda d: mangled(d, "games.game", 0, "auto_commit_nights", "yes"),
     "games.game[0].auto_commit_nights: tipo sbagliato"),
    ("long post", lambda d: mangled(d, "games.phase", 1, "post_after", "p" * 20001),
     "games.phase[1].post_after: troppo lungo"),
    ("rows not a list", lambda d: json.dumps({**d, "rows": {**d["rows"], "games.player": 7}})
     .encode(), "mancano le righe"),
    ("fields not an object", lambda d: json.dumps({**d, "rows": {**d["rows"], "games.player": [
        {"pk": 1, "fields": [1, 2]}]}}).encode(), "games.player[0]"),
    ("deep nesting", lambda d: b'{"format": "tabula.game", "x": ' + b"[" * 100_000 + b"]" * 100_000
     + b"}", "annidato troppo"),
    ("deep nesting in a field", lambda d: mangled(d, "games.phase", 0, "inputs",
                                                  json.loads("[" * 40 + "]" * 40)), "annidato"),
    ("not json", lambda d: b"\xff\xfe{", "non è un JSON valido"),
    ("huge number", lambda d: b'{"format": "tabula.game", "version": ' + b"9" * 100_000 + b"}",
     "non è un JSON valido"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "change", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_backup_is_refused_naming_the_first_bad_field(
    client, gm_user, exported, what, change, words
):
    client.force_login(gm_user)
    before = stored()
    response = upload(client, change(exported))
    assert response.status_code == 200
    assert words in response.content.decode()
    assert stored() == before


def test_a_19_mb_file_is_refused_before_it_is_read(client, gm_user):
    client.force_login(gm_user)
    before = stored()
    raw = b'{"format": "tabula.game", "pad": "' + b"x" * (19 * 1024 * 1024) + b'"}'
    response = upload(client, raw)
    assert response.status_code == 200
    assert "troppo grande (massimo 5 MB)" in response.content.decode()
    assert stored() == before


def test_the_depth_scan_skips_strings_and_escapes():
    check_size_and_depth(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"[[[[[[[["}')
    with pytest.raises(Exception, match="annidato"):
        check_size_and_depth(b'{"a": "\\\\", "b": ' + b"[" * (MAX_DEPTH + 1) + b"]" * 40 + b"}")
    with pytest.raises(Exception, match="troppo grande"):
        check_size_and_depth(b" " * (MAX_BACKUP_BYTES + 1))


def test_a_real_backup_passes_the_schema_and_imports(client, gm_user, exported):
    client.force_login(gm_user)
    response = upload(client, json.dumps(exported).encode())
    assert response.status_code == 302
    assert Game.objects.filter(name="Copia").exists()


def test_backups_and_spoilers_are_never_cached(client, gm_user, before_noon):
    game = played_game(gm_user, finish=True)
    client.force_login(gm_user)
    for url in (reverse("games:backup", args=[game.pk]), reverse("games:spoiler", args=[game.pk])):
        response = client.get(url)
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"]
