"""The GM's own text above and below a phase's generated forum post (issue 13 §2):
narration is half of a forum game. It is kept on the phase and joined to the post in
every format the posts page offers."""

from __future__ import annotations

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.forms.validators import validate_text
from games.models import Phase
from games.services.game import audit

MAX_NARRATION = 20000


class NarrationForm(forms.Form):
    post_before = forms.CharField(
        label=_("Testo prima dell'annuncio"), required=False, max_length=MAX_NARRATION,
        validators=[validate_text],
        widget=forms.Textarea(attrs={"rows": 3}),
    )  # fmt: skip
    post_after = forms.CharField(
        label=_("Testo dopo l'annuncio"), required=False, max_length=MAX_NARRATION,
        validators=[validate_text],
        widget=forms.Textarea(attrs={"rows": 3}),
    )  # fmt: skip


@transaction.atomic
def phase_narration_set(*, phase: Phase, before: str, after: str, user: AbstractBaseUser) -> Phase:
    """Store the GM's text around ``phase``'s post (logged when it changes)."""
    locked = Phase.objects.select_for_update().get(pk=phase.pk)
    before, after = before.strip(), after.strip()
    if (locked.post_before, locked.post_after) != (before, after):
        locked.post_before, locked.post_after = before, after
        locked.save(update_fields=["post_before", "post_after"])
        audit(locked.game, "narration_set", user=user, phase=locked.label)
    return locked


def narrated_posts(phase: Phase) -> dict[str, str]:
    """The phase's posts by format, the GM's text above and below each."""
    return {
        fmt: "\n\n".join(part for part in (phase.post_before, text, phase.post_after) if part)
        for fmt, text in (phase.outcome.get("posts") or {}).items()
    }
