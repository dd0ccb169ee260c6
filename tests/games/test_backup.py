"""Backup and restore (issue 13, section 4): a game exported as one JSON file and imported
gives the same game: the same pages, the same posts, the same rebuilt engine state."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from desks.models import TableEvent
from desks.ribelle.desk import ribelle_game_create, ribelle_log
from games.engine import rebuild
from games.models import AuditEvent, Game, Phase, Player, Submission, Will
from games.services.backup import (
    FORMAT_VERSION,
    _Encoder,
    game_export,
    game_export_json,
    game_import,
    owned_models,
    parse_backup,
)
from games.services.game import player_link_issue
from games.services.phases import current_phase
from tests.hostile import HYPOTHESIS, hostile_any, hostile_text
from tests.played import played_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("before_noon")]


def normalized(html: str, game: Game, *, options: bool = True) -> str:
    """A page with the game's and players' database keys replaced by the seats, and the
    CSRF token removed: what differs between two copies of one game by construction."""
    seats = {str(p.pk): f"seat{p.seat}" for p in game.players.all()}
    labels = {str(p.pk): p.label for p in game.phases.all()}
    html = re.sub(r"/partite/\d+/", "/partite/G/", html)
    html = re.sub(r"(giocatori/|player-)(\d+)", lambda m: m[1] + seats.get(m[2], m[2]), html)
    html = re.sub(r"(post-|phase-|annunci/|name=\"phase\" value=\")(\d+)",
                  lambda m: m[1] + labels.get(m[2], m[2]), html)  # fmt: skip
    if options:  # the phase page's choices of a player are by key
        html = re.sub(r"(<option value=\")(\d+)", lambda m: m[1] + seats.get(m[2], m[2]), html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    html = re.sub(r"part=board&amp;v=[0-9a-f]+", "part=board", html)  # the refresh's fingerprint
    html = re.sub(r'<span class="who">[^<]*</span>', "", html)  # the GM who is reading
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


def gm_pages(client, game: Game) -> dict[str, str]:
    urls = {
        "spoiler": reverse("games:spoiler", args=[game.pk]),
        "spoiler_bbcode": reverse("games:spoiler", args=[game.pk]) + "?format=bbcode",
        "spoiler_en": reverse("games:spoiler", args=[game.pk]) + "?format=markdown&lang=en",
        "posts": reverse("games:posts", args=[game.pk]),
        "phase": reverse("games:phase", args=[game.pk]),
        "wills": reverse("games:wills", args=[game.pk]),
    }
    pages = {}
    for key, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, key
        pages[key] = normalized(response.content.decode(), game)
    json_page = client.get(reverse("games:spoiler", args=[game.pk]) + "?format=json").json()
    pages["spoiler_json"] = json.dumps(json_page, sort_keys=True)
    return pages


def player_pages(client, game: Game) -> dict[int, str]:
    pages = {}
    for player in game.players.all():
        client.get(reverse("player_enter", args=[player_link_issue(player=player)]))
        pages[player.seat] = normalized(client.get(reverse("player_home")).content.decode(), game)
    return pages


def engine_record(game: Game) -> dict:
    """The engine's state rebuilt from the stored inputs, and every phase's stored record."""
    built = rebuild(game)
    state = dataclasses.asdict(built.state)
    phases = [(p.label, p.status, p.inputs, p.overrides, p.outcome, p.opened_at, p.closes_at,
               p.committed_at, p.opened_by.index if p.opened_by else None)
              for p in game.phases.order_by("index")]  # fmt: skip
    subs = [(s.phase.label, s.player.seat, s.kind, s.slot, s.target.seat if s.target else None,
             s.at, s.entered_by_id is not None, s.reason)
            for s in Submission.objects.filter(phase__game=game).order_by("at", "pk")]  # fmt: skip
    wills = [(w.player.seat, w.text, w.updated_at, w.handed_in_at)
             for w in Will.objects.filter(player__game=game).order_by("player__seat")]  # fmt: skip
    players = list(game.players.values_list("seat", "name", "role", "previous_names"))
    return {"state": state, "phases": phases, "submissions": subs, "wills": wills,
            "players": players, "draws": game.draws, "seed": game.seed,
            "status": game.status}  # fmt: skip


def test_a_whole_played_game_round_trips_into_a_fresh_gm(client, gm_user, django_user_model):
    """Export, import for another GM: the same pages, posts, spoiler and engine state."""
    game = played_game(gm_user)
    assert game.status == Game.Status.FINISHED
    text = game_export_json(game)
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    copy = game_import(parse_backup(text), gm=other)
    assert copy.pk != game.pk
    assert copy.gm == other
    assert engine_record(copy) == engine_record(game)
    assert [p.outcome["posts"] for p in copy.phases.order_by("index") if p.outcome] == [
        p.outcome["posts"] for p in game.phases.order_by("index") if p.outcome
    ]
    before = game.audit.count()
    assert copy.audit.count() == before + 1  # the whole log, and the import itself
    assert copy.audit.filter(kind="game_imported").count() == 1
    client.force_login(gm_user)
    original = gm_pages(client, game)
    client.force_login(other)
    imported = gm_pages(client, copy)
    assert imported == original
    assert "[spoiler=Giorno 1]" in imported["spoiler_bbcode"]
    assert player_pages(client, copy) == player_pages(client, game)


def test_delete_then_restore_gives_the_same_running_game(client, gm_user):
    """A running game (its phase page with the board and the preview) exported, deleted and
    imported again reads the same; its open phases keep their deadlines."""
    game = played_game(gm_user, finish=False)
    assert current_phase(game).label == "D3"
    client.force_login(gm_user)
    pages = gm_pages_running(client, game)
    players = player_pages(client, game)
    record = engine_record(game)
    text = game_export_json(game)
    game.delete()
    copy = game_import(parse_backup(text), gm=gm_user)
    assert engine_record(copy) == record
    assert gm_pages_running(client, copy) == pages
    assert player_pages(client, copy) == players
    assert copy.phases.filter(status=Phase.Status.OPEN).count() == 2  # D3 and N3


def gm_pages_running(client, game: Game) -> dict[str, str]:
    pages = {}
    for name in ("phase", "posts", "wills", "detail"):
        html = client.get(reverse(f"games:{name}", args=[game.pk])).content.decode()
        pages[name] = normalized(html, game)
    pages["detail"] = re.sub(r"<p class=\"muted\">Nessun link valido[^<]*</p>", "",
                             pages["detail"])  # fmt: skip
    # a working link is replaced once confirmed, a missing one at once (issue 31 minor)
    pages["detail"] = re.sub(r'<div class="rotate-link">.*?</div>', "", pages["detail"],
                             flags=re.S)  # fmt: skip
    return pages


def test_private_links_do_not_travel_unless_the_gm_asks(client, gm_user):
    """By default the imported game has no valid link: an old link opens nothing, and the
    game page tells the GM to issue new ones; exported with the links, they work."""
    game = played_game(gm_user)
    player = game.players.get(seat=1)
    token = player_link_issue(player=player)
    plain = game_export(game)
    assert all(r["fields"]["token_hash"] is None for r in plain["rows"]["games.player"])
    assert token_hash_of(player) not in json.dumps(plain, default=str)
    with_links = game_export_json(game, keep_links=True)
    with pytest.raises(ValidationError, match="già in uso"):
        game_import(parse_backup(with_links), gm=gm_user, name="Copia con i link")
    game.delete()
    copy = game_import(parse_backup(game_export_json_from(plain)), gm=gm_user)
    assert not copy.players.filter(token_hash__isnull=False).exists()
    assert client.get(reverse("player_enter", args=[token])).status_code in (302, 403, 404)
    assert client.get(reverse("player_home")).status_code != 200
    client.force_login(gm_user)
    html = client.get(reverse("games:detail", args=[copy.pk])).content.decode()
    assert html.count("Nessun link valido") == 16
    copy.delete()
    restored = game_import(parse_backup(with_links), gm=gm_user)
    client.logout()
    client.get(reverse("player_enter", args=[token]))
    assert client.get(reverse("player_home")).context["page"].player.game == restored


def token_hash_of(player: Player) -> str:
    player.refresh_from_db()
    return player.token_hash


def game_export_json_from(document: dict) -> str:
    return json.dumps(document, cls=_Encoder)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: "not json", "non è un JSON valido"),
        (lambda d: json.dumps({"format": "altro"}), "non è un backup"),
        (lambda d: json.dumps({**d, "version": FORMAT_VERSION + 1}), "Versione del backup"),
        (lambda d: json.dumps({**d, "rows": {}}), "esattamente una partita"),
        (lambda d: swap_setup(d, "lupus-ignotus"), "Setup sconosciuto: lupus-ignotus"),
        (lambda d: with_rows(d, "games.tavolo", []), r"non conosce \(games.tavolo\)"),
        (
            lambda d: with_field(d, "games.phase", "color", "red"),
            r"games\.phase\[\d+\]\.color: campo sconosciuto",
        ),
        (lambda d: broken_reference(d), "rimanda a una riga che non contiene"),
    ],
)
def test_a_wrong_file_is_refused_with_a_clear_error_and_nothing_is_kept(
    gm_user, django_user_model, change, message
):
    game = played_game(gm_user, finish=False)
    document = json.loads(game_export_json(game))
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    counts = (Game.objects.count(), Player.objects.count(), Submission.objects.count(),
              AuditEvent.objects.count())  # fmt: skip
    with pytest.raises(ValidationError, match=message):
        game_import(parse_backup(change(document)), gm=other)
    assert counts == (Game.objects.count(), Player.objects.count(),
                      Submission.objects.count(), AuditEvent.objects.count())  # fmt: skip


def swap_setup(document: dict, setup: str) -> str:
    document["rows"]["games.game"][0]["fields"]["setup"] = setup
    return json.dumps(document)


def with_rows(document: dict, label: str, rows: list) -> str:
    document["rows"][label] = rows
    return json.dumps(document)


def with_field(document: dict, label: str, name: str, value: object) -> str:
    document["rows"][label][-1]["fields"][name] = value
    return json.dumps(document)


def broken_reference(document: dict) -> str:
    """The last submission names a phase the file does not hold (found after most rows
    are written: the import is rolled back whole)."""
    document["rows"]["games.submission"][-1]["fields"]["phase"] = 999999
    return json.dumps(document)


def test_a_name_clash_asks_for_another_name(gm_user):
    game = played_game(gm_user, finish=False)
    text = game_export_json(game)
    with pytest.raises(ValidationError, match="Hai già una partita che si chiama «Partita»"):
        game_import(parse_backup(text), gm=gm_user)
    copy = game_import(parse_backup(text), gm=gm_user, name="Partita (copia)")
    assert copy.name == "Partita (copia)"


def test_every_row_and_field_of_the_game_is_in_the_file(gm_user):
    """Generic over the models: every model tied to a game (directly or through a player
    or a phase) is exported, each row with every field."""
    game = played_game(gm_user)
    document = game_export(game)
    labels = {o.model._meta.label_lower for o in owned_models()}
    assert labels >= {"games.game", "games.player", "games.phase", "games.submission",
                      "games.will", "games.result", "games.auditevent"}  # fmt: skip
    assert set(document["rows"]) == labels
    for label in ("games.player", "games.phase", "games.submission", "games.will",
                  "games.result", "games.auditevent"):  # fmt: skip
        assert document["rows"][label], label
    for owned in owned_models():
        rows = document["rows"][owned.model._meta.label_lower]
        assert len(rows) == owned.rows(game).count()
        # every field Django serializes: not the key, nor a new-game form's token
        fields = {f.name for f in owned.model._meta.concrete_fields if f.serialize}
        assert all(set(row["fields"]) == fields for row in rows)


def test_the_commands_export_and_import(tmp_path, gm_user, django_user_model, capsys):
    game = played_game(gm_user)
    path = tmp_path / "partita.json"
    call_command("export_game", str(game.pk), "-o", str(path))
    assert json.loads(path.read_text())["format"] == "tabula.game"
    django_user_model.objects.create_user(username="nuovo", password="pw-nuovo-1")
    call_command("import_game", str(path), "--gm", "nuovo")
    out = capsys.readouterr().out
    copy = Game.objects.get(gm__username="nuovo")
    assert f"imported as game {copy.pk}" in out
    assert "16 players have no valid private link" in out
    with pytest.raises(CommandError, match="Hai già una partita"):
        call_command("import_game", str(path), "--gm", "nuovo")
    with pytest.raises(CommandError, match="no game with id"):
        call_command("export_game", "999999")


def test_the_gm_downloads_the_backup_and_another_gm_imports_it(client, gm_user,
                                                               django_user_model):  # fmt: skip
    game = played_game(gm_user)
    client.force_login(gm_user)
    detail = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert reverse("games:backup", args=[game.pk]) in detail
    response = client.get(reverse("games:backup", args=[game.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="tabula-partita-backup.json"'
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    client.force_login(other)
    assert client.get(reverse("games:backup", args=[game.pk])).status_code == 404
    upload = SimpleUploadedFile("b.json", response.content, content_type="application/json")
    page = client.post(reverse("games:import"), {"file": upload, "name": ""}, follow=True)
    copy = Game.objects.get(gm=other)
    assert page.redirect_chain[-1][0] == f"{copy.get_absolute_url()}?link=nuovi"
    assert "ecco i nuovi link di tutti i giocatori" in page.content.decode()
    bad = SimpleUploadedFile("b.json", b"{}", content_type="application/json")
    page = client.post(reverse("games:import"), {"file": bad})
    assert "non è un backup di una partita di Tabula" in page.content.decode()
    assert Game.objects.filter(gm=other).count() == 1


def test_a_referee_desk_game_round_trips_with_its_event_log(client, gm_user, django_user_model):
    """A BANG! con Il Ribelle! game (its TableEvent log, found from the relations, no code
    of the backup naming it): the same desk page and the same player page after import."""
    names = ["Sam", "Vic", "Olga", "Otto", "Rina", "Reb"]
    game = ribelle_game_create(gm=gm_user, name="Saloon", player_names=names, seed=1)
    ribelle_log(game=game, kind="turn", players=[game.players.get(seat=1).name])
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    copy = game_import(parse_backup(game_export_json(game)), gm=other)
    events = [(e.seq, e.kind, e.data, e.at, e.sealed) for e in TableEvent.objects.filter(
        game=game).order_by("seq")]  # fmt: skip
    assert events
    assert [(e.seq, e.kind, e.data, e.at, e.sealed) for e in TableEvent.objects.filter(
        game=copy).order_by("seq")] == events  # fmt: skip
    client.force_login(gm_user)
    desk = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert reverse("games:backup", args=[game.pk]) in desk
    client.force_login(other)
    copy_desk = client.get(reverse("games:detail", args=[copy.pk])).content.decode()
    assert normalized(copy_desk, copy, options=False) == normalized(desk, game, options=False)
    assert player_pages(client, copy) == player_pages(client, game)


def test_a_model_another_branch_added_travels_without_naming_it(gm_user, django_user_model):
    """The thread settings (issue 12) were added after the backup was written: found from
    their relation to the game, they travel with every field."""
    model = next(o.model for o in owned_models() if o.model._meta.model_name == "topicsettings")
    game = played_game(gm_user, finish=False)
    model.objects.create(game=game, votes_from_topic=True, vote_lines=["[b]Voto: Nome[/b]"],
                         aliases={"Capoo": 12}, gm_names=["Master"])  # fmt: skip
    other = django_user_model.objects.create_user(username="altro", password="pw-altro-1")
    copy = game_import(parse_backup(game_export_json(game)), gm=other)
    fields = ("votes_from_topic", "vote_lines", "withdraw_lines", "aliases", "gm_names")
    assert model.objects.filter(game=copy).values(*fields).get() == model.objects.filter(
        game=game).values(*fields).get()  # fmt: skip


def hostile_documents():
    """Files a GM might upload by mistake, or an attacker on purpose: bytes, JSON of the
    wrong shape, a backup with its rows mangled."""
    scalar = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20), hostile_any)
    shaped = st.fixed_dictionaries({
        "format": st.sampled_from(["tabula.game", "altro"]),
        "version": st.one_of(st.just(FORMAT_VERSION), scalar),
        "rows": st.one_of(scalar, st.dictionaries(
            st.sampled_from(["games.game", "games.player", "games.phase", "x"]),
            st.lists(st.one_of(scalar, st.fixed_dictionaries({
                "pk": scalar, "fields": st.dictionaries(st.text(max_size=12), scalar,
                                                         max_size=4)})), max_size=3),
            max_size=3)),
    })  # fmt: skip
    return st.one_of(
        st.binary(max_size=200),
        shaped.map(lambda d: json.dumps(d, default=str).encode()),
    )


def test_hostile_uploads_never_error_and_store_nothing(client, gm_user):
    """Issue 9's rule for every POST form: never a server error, nothing stored."""
    client.force_login(gm_user)

    @HYPOTHESIS
    @given(raw=hostile_documents(), name=st.one_of(st.just(""), hostile_text))
    def upload(raw, name):
        before = (Game.objects.count(), Player.objects.count(), AuditEvent.objects.count())
        file = SimpleUploadedFile("backup.json", raw, content_type="application/json")
        response = client.post(reverse("games:import"), {"file": file, "name": name})
        assert response.status_code == 200, raw
        assert (Game.objects.count(), Player.objects.count(),
                AuditEvent.objects.count()) == before  # fmt: skip

    upload()
