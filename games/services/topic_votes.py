"""Votes read from the game's forum thread (issue 12 §1): the GM pastes a page of the
thread, sees what it would change (games/services/topic_preview.py), settles the doubtful
lines, and saves. Every vote is stored through ``vote_cast`` (the engine's own legality
check) with the forum time and "from the topic" as its source; a post is read once (its key
is kept), so pasting the same page again, or an overlapping later page, adds only what is
new."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Phase
from games.selectors.window import past_deadline
from games.services.game import audit
from games.services.phases import phase_commit
from games.services.submissions import vote_cast
from games.services.topic_preview import ImportPreview, topic_import_preview, topic_parse


@transaction.atomic
def topic_import_save(
    *,
    phase: Phase,
    text: str,
    fmt: str,
    decisions: Mapping[str, str],
    user: AbstractBaseUser,
    read_at: dt.datetime | None = None,
    resolve: bool = False,
) -> ImportPreview:
    """Store what the preview of the same paste and decisions shows as new, changed or
    withdrawn: each through ``vote_cast``, timed at its post, "from the topic".
    ``read_at``: the instant that preview read the paste at (its ``read_at``; None: now),
    so a relative time ("50 minuti fa") and the row's key, which the GM's decisions
    name, are the preview's even when the minute has turned since. ``resolve``: then
    commit the day, in one click ("Salva e risolvi", issue 28 class 6), once its deadline
    has passed."""
    read_at = read_at or timezone.now()
    # The page is read before the lock (a slow page never holds up a player's vote).
    parsed = topic_parse(phase=phase, text=text, fmt=fmt, now=read_at,
                         gm_username=user.get_username())  # fmt: skip
    # One save at a time per phase: a double click's second save then sees the first's
    # posts as already read instead of storing them twice.
    Phase.objects.select_for_update().filter(pk=phase.pk).first()
    if resolve and not past_deadline(phase, timezone.now()):
        raise ValidationError(_("La scadenza non è ancora passata: salva senza risolvere."))
    preview = topic_import_preview(phase=phase, text=text, fmt=fmt, decisions=decisions,
                                   now=read_at, gm_username=user.get_username(),
                                   parsed=parsed)  # fmt: skip
    topic_rows_store(phase=phase, preview=preview, user=user)
    audit(phase.game, "topic_import", user=user, phase=phase.label, posts=preview.posts,
          stored=len(preview.to_store))  # fmt: skip
    if resolve:
        phase_commit(phase=phase, user=user)
    return preview


def topic_rows_store(
    *, phase: Phase, preview: ImportPreview, user: AbstractBaseUser | None
) -> None:
    """Store the preview's new, changed and withdrawn votes, in time order, each through
    ``vote_cast`` timed at its post, "from the topic", keyed by its post (read once).
    The caller holds the phase's lock."""
    for row in sorted(preview.to_store, key=lambda r: r.at):
        submission = vote_cast(phase=phase, player=row.voter, target=row.target, at=row.at,
                               entered_by=user, reason=_("dal topic"))  # fmt: skip
        submission.source, submission.forum_post = "topic", row.key
        submission.save(update_fields=["source", "forum_post"])
