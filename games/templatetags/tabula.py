"""Template filters of the GM's pages."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def cause(key: str) -> str:
    """A death's cause, as the GM reads it."""
    labels = {
        "executed": _("giustiziato"), "pack": _("attacco notturno del branco o degli Indiani"),
        "pistolero": _("colpito dal Pistolero"), "recruit_backfire": _("colpito sul posto"),
        "guilt": _("morto di rimorso"), "templare": _("colpito dal Templare"),
        "left": _("lascia il villaggio"), "gm": _("correzione del master"),
    }  # fmt: skip
    return labels.get(key, key)
