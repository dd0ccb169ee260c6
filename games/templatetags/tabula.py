"""Template filters of the GM's pages."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

from roles.engine.announce import cause_label

register = template.Library()


@register.filter
def cause(key: str, setup_key: str) -> str:
    """A death's cause in words, from the game's setup (the posts use the same words)."""
    return cause_label(setup_key, key, (get_language() or "it")[:2])
