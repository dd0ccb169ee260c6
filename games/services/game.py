"""Writes: every change to a game goes through a function here (HackSoft style)."""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import (
    RuleViolation,
    SetupError,
    deal_roles,
    load_setup,
    phase_label,
    ruleset_for,
    start_state,
    stored_value,
)
from games.forms.signup import setup_deadlines
from games.forms.validators import validate_name
from games.models import AuditEvent, Game, Phase, Player, Result
from games.text.words import refusal_line

TOKEN_BYTES = 32  # 256 random bits


def audit(
    game: Game,
    kind: str,
    *,
    user: AbstractBaseUser | None = None,
    player: Player | None = None,
    **detail: Any,
) -> AuditEvent:
    event = audit_event(game, kind, user=user, player=player, **detail)
    event.save(force_insert=True)
    return event


def audit_event(
    game: Game,
    kind: str,
    *,
    user: AbstractBaseUser | None = None,
    player: Player | None = None,
    **detail: Any,
) -> AuditEvent:
    """The audit event ``audit`` stores, not saved yet (stored with another row)."""
    return AuditEvent(game=game, kind=kind, user=user, player=player, detail=detail)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def game_create(
    *,
    gm: AbstractBaseUser,
    name: str,
    setup_key: str,
    player_names: Sequence[str],
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    language: str = "it",
    deadlines: Mapping[str, Any] | None = None,
) -> Game:
    """Create a game, deal the setup's roles at random (seeded), make the secret draws and
    store what every player knows at start."""
    setup = load_setup(setup_key)
    try:
        setup.with_options(options)
    except SetupError as exc:
        raise ValidationError(str(exc)) from exc
    if seed is None:
        seed = secrets.randbits(48)
    roles = deal_roles(setup, player_names, random.Random(seed))
    game = Game.objects.create(
        gm=gm, name=name, setup=setup.key, seed=seed, options=dict(options or {}),
        language=language, **{**setup_deadlines(setup.key), **dict(deadlines or {})},
    )  # fmt: skip
    players = Player.objects.bulk_create(
        Player(game=game, name=player, seat=seat, role=roles[player])
        for seat, player in enumerate(player_names, start=1)
    )
    try:
        state, outcome = start_state(game, players)
    except RuleViolation as exc:  # an inconsistent setup file: nothing is kept
        raise ValidationError(refusal_line(exc, setup.key)) from exc
    by_name = {p.name: p for p in players}
    rules = ruleset_for(setup.key)
    game.draws = {  # stored by seat: a substitution renames them
        key: {"seat": by_name[name].seat} for key, name in rules.draws_made(state).items()
    }
    game.rules_version = rules.version
    game.save(update_fields=["draws", "rules_version"])
    Result.objects.bulk_create(
        Result(game=game, phase="setup", to=by_name[r.to], kind=r.kind, order=i,
               about=by_name.get(r.about) if r.about else None,
               value=stored_value(rules, r.kind, r.value, by_name))
        for i, r in enumerate(outcome.results)
    )  # fmt: skip
    phase_open(game, 0)
    audit(game, "game_created", user=gm, setup=setup.key, seed=seed, players=list(player_names))
    return game


def next_deadline(game: Game, at: dt.time, after: dt.datetime) -> dt.datetime:
    """The first ``at`` wall-clock time in the game's time zone after ``after`` (right
    across the daylight-saving changes: the time zone gives each date its own offset)."""
    zone = ZoneInfo(game.time_zone)
    local = after.astimezone(zone)
    candidate = dt.datetime.combine(local.date(), at, tzinfo=zone)
    if candidate <= local:
        candidate = dt.datetime.combine(local.date() + dt.timedelta(days=1), at, tzinfo=zone)
    return candidate


def phase_open(
    game: Game, index: int, *, now: dt.datetime | None = None, opened_by: Phase | None = None
) -> Phase:
    """Open phase ``index``: a night closes at the powers deadline, a day at the vote close,
    both the first after ``now``; a day ends (22:15) at the first day close after its vote
    close, so the two never fall on different evenings (issue 10, defect 7)."""
    now = now or timezone.now()
    label = phase_label(index)
    at = game.powers_close_time if label.startswith("N") else game.vote_close_time
    closes_at = next_deadline(game, at, now)
    day_ends = None
    if not label.startswith("N"):
        day_ends = next_deadline(game, game.day_close_time, closes_at - dt.timedelta.resolution)
    phase = Phase.objects.create(
        game=game, label=label, index=index, opened_at=min(now, timezone.now()),
        closes_at=closes_at, opened_by=opened_by, day_ends_at=day_ends,
    )  # fmt: skip
    return phase


@transaction.atomic
def player_link_issue(*, player: Player, user: AbstractBaseUser | None = None) -> str:
    """A new private link token for ``player``; any previous link stops working at once.
    Only its hash is stored: the token is shown to the GM now and never again."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    player.token_hash = _hash(token)
    player.token_issued_at = timezone.now()
    player.save(update_fields=["token_hash", "token_issued_at"])
    audit(player.game, "link_issued", user=user, player=player)
    return token


def player_for_token(token: str) -> Player | None:
    """The player whose current link is ``token`` (None for a wrong or rotated one)."""
    if not token or len(token) > 100:
        return None
    return Player.objects.select_related("game").filter(token_hash=_hash(token)).first()


def _checked_new_name(player: Player, new_name: str, empty: str) -> str:
    """A new forum name for ``player``'s seat, validated like a sign-up name and unique in
    the game (ignoring case)."""
    new_name = new_name.strip()
    if not new_name or len(new_name) > 80:
        raise ValidationError(empty)
    validate_name(new_name)
    clash = Player.objects.filter(game=player.game, name__iexact=new_name).exclude(pk=player.pk)
    if clash.exists():
        raise ValidationError(_("%(name)s è già in questa partita.") % {"name": new_name})
    return new_name


@transaction.atomic
def player_rename(*, player: Player, new_name: str, user: AbstractBaseUser) -> str:
    """Fix a typo in a player's name (issue 12 §3), at any time: the same seat, the same
    player and link (not a substitution); everything stored by seat reads the new name.
    Recorded in the audit log with the old name."""
    new_name = _checked_new_name(player, new_name, _("Scrivi il nome corretto (massimo 80 "
                                                     "caratteri)."))  # fmt: skip
    old = player.name
    if new_name == old:
        raise ValidationError(_("Il nome è già %(name)s.") % {"name": old})
    player.name = new_name
    player.save(update_fields=["name"])
    audit(player.game, "rename", user=user, player=player, old=old, new=new_name)
    return old


@transaction.atomic
def player_substitute(*, player: Player, new_name: str, user: AbstractBaseUser) -> str:
    """A new forum user takes over the seat: new name, new private link (the old link and
    any session opened with it stop working at once); the seat's history is kept."""
    new_name = _checked_new_name(
        player, new_name, _("Scrivi il nome sul forum del sostituto (massimo 80 caratteri).")
    )
    old = player.name
    player.previous_names = [*player.previous_names, old]
    player.name = new_name
    player.save(update_fields=["name", "previous_names"])
    audit(player.game, "substitution", user=user, player=player, old=old, new=new_name)
    return player_link_issue(player=player, user=user)
