"""Creating a game once: the new-game forms carry a one-time token, issued with the page
and stored on the game it deals (``Game.creation_token``, unique). The same form sent
again (a reload of the answer, Back and submit, a double click) finds the game already
dealt instead of dealing a second one; a name the GM already uses is refused, as the
backup import refuses it. The first private links are issued on the page the deal
redirects to, once (:func:`first_links_issue`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from games.models import Game
from games.services.game import player_link_issue

TOKEN_BYTES = 24
MAX_TOKEN = 64


def creation_token_new() -> str:
    """A fresh token for one new-game form."""
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True)
class Created:
    game: Game
    new: bool  # False: the same form came back, this is the game it dealt before


def game_already_created(*, gm: AbstractBaseUser, token: str) -> Game | None:
    """The game this GM's form with ``token`` dealt already, if any."""
    if not token:
        return None
    return Game.objects.filter(gm=gm, creation_token=token).first()


def game_create_once(
    *, gm: AbstractBaseUser, name: str, token: str, create: Callable[[], Game]
) -> Created:
    """Deal with ``create()`` unless this form (its ``token``) dealt already. Under a lock
    on the GM's row, so two clicks of the same GM are served one after the other: the
    second finds the first's game. A token missing or not ours, or a name the GM already
    uses, is a ValidationError (nothing dealt)."""
    if not token or len(token) > MAX_TOKEN:
        raise ValidationError(
            _("Questo modulo è scaduto: controlla i dati e premi di nuovo il pulsante.")
        )
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=gm.pk).first()
        dealt = Game.objects.filter(creation_token=token).first()
        if dealt is not None:
            if dealt.gm_id != gm.pk:
                raise ValidationError(
                    _("Questo modulo è scaduto: controlla i dati e premi di nuovo il pulsante.")
                )
            return Created(dealt, new=False)
        if Game.objects.filter(gm=gm, name__iexact=name.strip()).exists():
            raise ValidationError(
                _("Hai già una partita che si chiama «%(name)s»: scegli un altro nome per "
                  "questa.") % {"name": name}
            )  # fmt: skip
        game = create()
        game.creation_token = token
        game.save(update_fields=["creation_token"])
        return Created(game, new=True)


@transaction.atomic
def first_links_issue(*, game: Game, user: AbstractBaseUser) -> dict[int, str]:
    """The private links of the players who have none yet (just after the deal), by
    player id; none on a second visit: a reload must not replace links already sent
    (the GM issues a player's new link on purpose, with «Nuovo link»)."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    return {
        player.pk: player_link_issue(player=player, user=user)
        for player in game.players.filter(token_hash__isnull=True).order_by("seat")
    }
