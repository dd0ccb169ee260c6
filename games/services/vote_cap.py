"""A rule of the house: a player changes his vote at most ``TABULA_VOTE_CHANGES_MAX``
times in one phase (30 unless set). A forum day sees a handful of changes a player; the
cap bounds what the GM's phase page reads on every load (the board and the preview are
worked out from every vote of the phase), whoever stores the vote: the player, the GM, or
the thread import."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games.models import Phase, Player, Submission


def vote_changes_check(phase: Phase, player: Player) -> None:
    """Refuse another vote event of ``player`` in ``phase`` (a vote, a change, a
    withdrawal) once he has voted and changed his vote as many times as the cap allows
    (the GM's removals and corrections do not count: only the standing rows)."""
    cap = settings.TABULA_VOTE_CHANGES_MAX
    votes = Submission.objects.filter(phase=phase, player=player)
    if votes.exclude(kind=Submission.Kind.ACTION).count() > cap:  # the first vote, cap changes
        message = _(
            "%(name)s ha già cambiato voto %(cap)s volte in %(phase)s: il limite è di "
            "%(cap)s cambi di voto per fase."
        )
        raise ValidationError(message % {"name": player.name, "cap": cap, "phase": phase.label})
