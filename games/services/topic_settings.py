"""A game's thread settings (issue 12): whether votes are given in the thread, the vote
syntax, the GM's aliases and forum names."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from games.forum import fold
from games.forum.votes import DEFAULT_VOTES, DEFAULT_WITHDRAWALS
from games.models import Game, TopicSettings
from games.services.game import audit


def topic_settings(game: Game) -> TopicSettings:
    """The game's thread settings (the Italian defaults until the GM saves his own)."""
    found = TopicSettings.objects.filter(game=game).first()
    if found is None:
        found = TopicSettings(game=game, vote_lines=list(DEFAULT_VOTES),
                              withdraw_lines=list(DEFAULT_WITHDRAWALS))  # fmt: skip
    return found


@transaction.atomic
def topic_settings_update(
    *,
    game: Game,
    user: AbstractBaseUser,
    votes_from_topic: bool,
    vote_lines: list[str],
    withdraw_lines: list[str],
    aliases: str,
    gm_names: list[str],
    edited_late_counts: bool = False,
    min_posts_per_day: int | None = None,
) -> TopicSettings:
    """Save the game's thread settings. ``aliases``: one "written name = player" a line.
    ``edited_late_counts``: a vote edited at or after the deadline counts, with a warning
    (default: refused, the previous vote stands; issue 28)."""
    seats = {fold(p.name): p.seat for p in game.players.all()}
    parsed: dict[str, int] = {}
    for line in aliases.splitlines():
        if not line.strip():
            continue
        written, _sep, name = line.partition("=")
        seat = seats.get(fold(name).strip())
        if not written.strip() or seat is None:
            message = _("Alias non valido: «%(line)s» (scrivi: soprannome = giocatore).")
            raise ValidationError(message % {"line": line.strip()})
        parsed[written.strip()] = seat
    if not any("nome" in fold(line) for line in vote_lines):
        raise ValidationError(_("Ogni forma di voto deve contenere «Nome» al posto del giocatore."))
    settings = topic_settings(game)
    settings.votes_from_topic = votes_from_topic
    settings.vote_lines = [v.strip() for v in vote_lines if v.strip()]
    settings.withdraw_lines = [w.strip() for w in withdraw_lines if w.strip()]
    settings.aliases = parsed
    settings.gm_names = [n.strip() for n in gm_names if n.strip()]
    settings.edited_late_counts = edited_late_counts
    if min_posts_per_day is not None:  # the activity minimum (issue 32)
        settings.min_posts_per_day = min_posts_per_day
    settings.save()
    audit(game, "topic_settings", user=user, votes_from_topic=votes_from_topic)
    return settings
