"""Reads of games and players, each in a fixed number of queries."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Exists, Min, OuterRef, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import (
    Channel,
    RoleCard,
    load_setup,
    rebuild,
    role_name,
    will_deadline_at,
)
from games.forms.player import AbilityForm, VoteForm, ability_forms, vote_forms
from games.models import Game, Phase, Player, Result, Submission, Will
from games.registry import desk_setups
from games.selectors.groups import PlayerNight, player_night
from games.selectors.sheet import SheetNow, sheet_now
from games.selectors.spoiler import story, story_results
from games.selectors.wills import Delivery, WillDesk, deliveries, spoiler_wills, will_desk
from games.selectors.window import votes_from_topic
from games.text.presentation import describe, names_in
from games.text.words import ability_label, say


def games_for_gm(
    *, user: AbstractBaseUser | AnonymousUser, archived: bool = False
) -> QuerySet[Game]:
    """The games ``user`` runs (those on the dashboard, or with ``archived`` those he
    archived: issue 31 major 3), newest first, with their player counts, the next deadline
    and, for a day waiting for its votes from the thread, its deadline (``waiting_since``:
    issue 28 class 6, games/selectors/window.py)."""
    open_deadline = Min("phases__closes_at", filter=Q(phases__status=Phase.Status.OPEN))
    waiting = Q(phases__status=Phase.Status.CLOSED, phases__label__startswith="D",
                topic__votes_from_topic=True)  # fmt: skip
    # ``played``: something happened beyond the deal (games/services/archive.game_played:
    # such a game is deleted only once archived)
    played = (
        Exists(Phase.objects.filter(game=OuterRef("pk"), status=Phase.Status.COMMITTED))
        | Exists(Submission.every.filter(phase__game=OuterRef("pk")))
        | Exists(Game.objects.filter(pk=OuterRef("pk"), table_events__isnull=False))
    )
    return Game.objects.filter(gm=user, archived_at__isnull=not archived).annotate(
        player_count=Count("players", distinct=True), next_deadline=open_deadline,
        waiting_since=Min("phases__closes_at", filter=waiting), played=played,
    )  # fmt: skip


def game_for_gm(
    *,
    user: AbstractBaseUser | AnonymousUser,
    pk: int,
    setup: str | None = None,
    werewolf: bool = False,
) -> Game:
    """One of ``user``'s games (404 for anyone else's, and for a game of another kind: a
    desk's URL with a Werewolf game's id when ``setup`` is given, a Werewolf page with a
    desk game's id when ``werewolf`` is set)."""
    if setup is not None:
        return get_object_or_404(Game, pk=pk, gm=user, setup=setup)
    if werewolf:
        return get_object_or_404(
            Game.objects.exclude(setup__in=list(desk_setups())), pk=pk, gm=user
        )
    return get_object_or_404(Game, pk=pk, gm=user)


def game_summary(*, game_id: int) -> dict[str, object]:
    """A JSON-friendly description of a game."""
    game = Game.objects.get(pk=game_id)
    return {
        "id": game.pk,
        "name": game.name,
        "setup": game.setup,
        "players": list(game.players.values_list("name", flat=True)),
    }


@dataclass
class SheetRow:
    player: Player
    card: RoleCard
    told: RoleCard | None  # the card he is told he holds, when it differs (Vicesceriffo)
    knowledge: list[str] = field(default_factory=list)


@dataclass
class RoleSheet:
    game: Game
    rows: list[SheetRow]
    channels: list[Channel]  # the private groups to create at the deal
    now: SheetNow | None = None  # who is alive or dead, the groups as they are now


def _results_by_player(game: Game, players: list[Player]) -> dict[int, list[Result]]:
    grouped: dict[int, list[Result]] = {p.pk: [] for p in players}
    for result in Result.objects.filter(game=game).select_related("about"):
        grouped[result.to_id].append(result)
    return grouped


def sentence(game: Game, result: Result, seats: dict[int, str]) -> str:
    about = result.about.name if result.about_id else None
    return describe(game.setup, result.kind, about, names_in(result.value, seats))


def _known_at_start(game: Game, result: Result, seats: dict[int, str]) -> str:
    """A start result in the GM's column «Sa all'inizio»: whom he knows as the names alone
    (the player's own "Conosci: ..." would say it twice), the rest as the player reads it."""
    if result.kind == "knows":
        return ", ".join(names_in(result.value, seats))
    return sentence(game, result, seats)


def _told_at_start(row: dict[str, Any]) -> dict[str, Any]:
    """The spoiler's «Sa all'inizio» as the GM's sheet says it: whom he knows, the names."""
    if row["kind"] == "knows" and isinstance(row["value"], list):
        return {**row, "text": ", ".join(row["value"])}
    return row


def role_sheet(game: Game) -> RoleSheet:
    """The GM's sheet: each player's role, what he was told at start, the private groups."""
    setup = load_setup(game.setup)
    players = list(game.players.all())
    seats = {p.seat: p.name for p in players}
    results = _results_by_player(game, players)
    rows = []
    for player in players:
        card = setup.cards[player.role]
        told = setup.cards[card.told_as] if card.told_as != player.role else None
        knowledge = [
            _known_at_start(game, r, seats)
            for r in results[player.pk]
            if r.phase == "setup" and r.kind != "role"
        ]
        rows.append(SheetRow(player, card, told, knowledge))
    now = sheet_now(game, players)
    return RoleSheet(game, rows, now.at_start, now)


@dataclass
class PlayerPage:
    player: Player
    game: Game
    card: RoleCard
    results: list[tuple[str, list[str]]]  # (phase, sentences), newest phase first
    channels: list[Channel]
    alive: bool = True
    phase: Phase | None = None  # the next phase to resolve
    phases: list[Phase] = field(default_factory=list)  # the ones taking submissions
    open: bool = False
    abilities: list[AbilityForm] = field(default_factory=list)
    votes: list[VoteForm] = field(default_factory=list)
    will: Will | None = None
    notice: str = ""  # the GM's last change to a deadline
    used: list[str] = field(default_factory=list)  # once-per-game powers already spent
    cemetery_from: dt.datetime | None = None  # a dead player's Cemetery access (WWW-R46)
    cemetery_open: bool = True
    will_desk: WillDesk | None = None  # None where the setup has no wills
    deliveries: list[Delivery] = field(default_factory=list)  # wills the Notaio handed him
    votes_in_topic: bool = False  # public votes are posted in the thread (issue 12)
    over: bool = False  # the game has ended: who won, and no forms (issue 12 §4)
    winners: list[str] = field(default_factory=list)
    night: PlayerNight = field(default_factory=PlayerNight)  # group choices, void choices


def latest_submissions(phases: list[Phase], player: Player) -> dict[int, dict[str, Submission]]:
    """The player's standing submission per phase and slot ("vote", "secret" for votes)."""
    latest: dict[int, dict[str, Submission]] = {p.pk: {} for p in phases}
    subs = (Submission.objects.filter(phase__in=phases, player=player)
            .select_related("target").order_by("at", "pk"))  # fmt: skip
    for sub in subs:  # oldest first: the newest of each slot stays
        key = sub.slot if sub.kind == Submission.Kind.ACTION else sub.kind
        latest[sub.phase_id][key] = sub
    return latest


def player_page(player: Player, *, forms_only: bool = False) -> PlayerPage:
    """What a player sees: the card he was told, what he knows, his results by phase, and
    the forms for exactly what the rules let him do now. ``forms_only``: what the forms
    partial shows after a submission (no results, no private groups)."""
    game = player.game
    setup = load_setup(game.setup)
    pending = (
        []
        if game.status == Game.Status.FINISHED
        else list(game.phases.exclude(status=Phase.Status.COMMITTED).order_by("index"))
    )  # current_phase and open_phases in one query
    current = pending[0] if pending else None
    # the phase's snapshot: no replay of the game
    built = rebuild(game)
    seats = {p.seat: p.name for p in built.players}
    card = setup.cards[setup.cards[player.role].told_as]
    phases: dict[str, list[str]] = {}
    mine = [] if forms_only else list(Result.objects.filter(to=player).select_related("about"))
    for result in mine:
        if result.kind != "role":
            phases.setdefault(result.phase, []).append(sentence(game, result, seats))
    rules, state = built.rules, built.state
    me = state.by_name[player.name]
    channels = [] if forms_only else [
        c for c in rules.channels(state) if player.name in c.members + c.readers
    ]  # fmt: skip
    page = PlayerPage(player, game, card, list(reversed(phases.items())), channels, me.alive)
    page.phase = current
    now = timezone.now()
    taking = [p for p in pending if p.status == Phase.Status.OPEN]
    page.phases = [p for p in taking if p.closes_at > now] if me.alive else []
    page.open = bool(page.phases)
    page.notice = deadline_notice(game, page.phases) if page.phases else ""
    latest = latest_submissions(page.phases, player)
    for phase in page.phases:  # by day: the day, then the coming night
        shown = tuple(form.ability.key for form in page.abilities)
        page.abilities += ability_forms(built, phase, player.name, latest[phase.pk], skip=shown)
        page.votes += vote_forms(built, phase, player.name, latest[phase.pk])
    if page.phases:  # his choices the rules no longer take, his groups' choices
        shared = {form.ability.key for form in page.abilities if form.ability.shared}
        page.night = player_night(built, page.phases, player.name, latest, shared)
    if page.votes and votes_from_topic(game.pk):  # the Boia's secret vote stays here
        page.votes_in_topic = any(not form.secret for form in page.votes)
        page.votes = [form for form in page.votes if form.secret]
    page.will = Will.objects.filter(player=player).first()
    page.will_desk = will_desk(game, rules, state, player, page.will)
    limit = rules.will_word_limit(state)
    page.deliveries = deliveries(game, rules, limit, seats, mine) if limit is not None else []
    page.used = [
        ability_label(rules, a.key) for a in rules.abilities_of(me)
        if a.once_rule and (me.name, a.key) in state.used
    ]  # fmt: skip
    if me.dead:
        _cemetery(page, game, rules, state, me.name)
    if state.over:  # issue 12 §4: the end and who won; nothing left to send
        page.over, page.winners = True, list(state.winners or ())
        page.phases, page.open, page.abilities, page.votes = [], False, [], []
        page.phase, page.will_desk = None, None
    return page


def _cemetery(page: PlayerPage, game: Game, rules: Any, state: Any, name: str) -> None:
    """WWW-R46, WWW-D23: a dead player enters the Cemetery once he hands in his will or
    its deadline passes (loners at once)."""
    page.cemetery_from = will_deadline_at(game, rules, state, name)
    if page.cemetery_from is None:
        return
    handed_in = page.will is not None and page.will.handed_in_at is not None
    page.cemetery_open = handed_in or timezone.now() >= page.cemetery_from


def spoiler(game: Game) -> dict[str, Any]:
    """The whole game, for after it: roles, start knowledge, each phase's input and outcome."""
    players = list(game.players.all())
    seats = {p.seat: p.name for p in players}
    results: dict[str, list[dict[str, Any]]] = {}
    for result in Result.objects.filter(game=game).select_related("to", "about"):
        results.setdefault(result.phase, []).append({
            "to": result.to.name, "kind": result.kind,
            "about": result.about.name if result.about_id else None,
            "value": names_in(result.value, seats),
        })  # fmt: skip
    phases = []
    for phase in game.phases.filter(status=Phase.Status.COMMITTED).order_by("index"):
        phases.append({
            "phase": phase.label, "status": phase.status,
            "deaths": phase.outcome.get("deaths", []),
            "execution": phase.outcome.get("execution"),
            "trace": [say(line, game.setup) for line in phase.outcome.get("trace", [])],
            "overrides": phase.overrides,
            "results": results.get(phase.label, []),
            "announcement": phase.outcome.get("announcement", ""),
        })  # fmt: skip
    last = game.phases.filter(status=Phase.Status.COMMITTED).order_by("-index").first()
    built = rebuild(game)
    told = story_results(game, "setup", players)
    return {
        "game": game.name, "setup": game.setup, "seed": game.seed, "options": game.options,
        "draws": game.draws,
        "players": [
            {"seat": p.seat, "name": p.name, "previous_names": p.previous_names, "role": p.role,
             "role_name": role_name(p.role, game.setup)}
            for p in players
        ],
        "start": results.get("setup", []),
        "start_told": [_told_at_start(r) for r in told if r["kind"] != "role"],
        "phases": phases,
        "story": story(game, players),
        "winners": last.outcome.get("winners") if last else None,
        "winning_factions": last.outcome.get("winning_factions") if last else None,
        "wills": spoiler_wills(game, built.rules, built.state),
    }  # fmt: skip


def deadline_notice(game: Game, phases: list[Phase]) -> str:
    """The last change the GM made to these phases' deadlines, as players are told it."""
    event = (
        game.audit.filter(
            kind__in=["deadline_moved", "deadline_paused", "deadline_resumed"],
            detail__phase__in=[p.label for p in phases],
        )
        .order_by("-at")
        .first()
    )
    if event is None:
        return ""
    if event.kind == "deadline_paused":
        return _("Il master ha sospeso la scadenza di %(phase)s: %(reason)s") % {
            "phase": event.detail["phase"], "reason": event.detail.get("reason", "")}  # fmt: skip
    reason = event.detail.get("reason")
    text = _("Il master ha spostato la scadenza di %(phase)s.") % {"phase": event.detail["phase"]}
    return f"{text} {reason}" if reason else text
