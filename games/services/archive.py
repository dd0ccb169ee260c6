"""A spare or duplicate game off the GM's desk (issue 31 major 3): archived (hidden from the
dashboard, kept whole, restorable) or deleted for good. Deleting asks for the game's name
typed again and is allowed only for a game nothing has been played in yet (a Werewolf
game with no phase resolved and nothing sent; a desk game with an empty log) or one
archived first. Archive and restore are in the game's audit log; a deletion takes the log
with the game, so it goes to the site's log."""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, Phase, Submission
from games.services.game import audit

log = logging.getLogger(__name__)


def _locked(game: Game) -> Game:
    return Game.objects.select_for_update().get(pk=game.pk)


def game_played(game: Game) -> bool:
    """Whether anything has happened in ``game`` beyond the deal: a phase resolved, a
    submission (even one later taken back), or a line in a desk's log."""
    return (
        Phase.objects.filter(game=game, status=Phase.Status.COMMITTED).exists()
        or Submission.every.filter(phase__game=game).exists()
        or game.table_events.exists()
    )


def game_deletable(game: Game) -> bool:
    """A game may go for good before anything is played in it, or once archived."""
    return game.archived_at is not None or not game_played(game)


@transaction.atomic
def game_archive(*, game: Game, user: AbstractBaseUser) -> Game:
    """Hide the game from its GM's dashboard; everything is kept (a second click does
    nothing more)."""
    locked = _locked(game)
    if locked.archived_at is None:
        locked.archived_at = timezone.now()
        locked.save(update_fields=["archived_at"])
        audit(locked, "game_archived", user=user)
    return locked


@transaction.atomic
def game_restore(*, game: Game, user: AbstractBaseUser) -> Game:
    """Bring an archived game back to the dashboard, as it was."""
    locked = _locked(game)
    if locked.archived_at is not None:
        locked.archived_at = None
        locked.save(update_fields=["archived_at"])
        audit(locked, "game_restored", user=user)
    return locked


@transaction.atomic
def game_delete(*, game: Game, user: AbstractBaseUser, typed_name: str) -> str:
    """Delete the game and everything in it, for good, when its GM typed its name again
    (ignoring the spaces around it) and it may go (``game_deletable``). Returns its name."""
    locked = _locked(game)
    if typed_name.strip() != locked.name.strip():
        raise ValidationError(
            _("Il nome scritto non è «%(name)s»: la partita non è stata eliminata.")
            % {"name": locked.name}
        )
    if not game_deletable(locked):
        raise ValidationError(
            _("Questa partita è già iniziata: archiviala prima, poi potrai eliminarla.")
        )
    name, pk = locked.name, locked.pk
    locked.delete()
    log.info("game %s (%s) deleted by user %s", pk, name, user.pk)
    return name
