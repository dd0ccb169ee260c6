"""Template filters of the GM's pages."""

from __future__ import annotations

from django import template
from django.forms import BoundField
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games import rulebook
from games.rulebook import link_rules
from games.words import say, say_dropped
from roles.engine.announce import cause_label

register = template.Library()


@register.filter
def cause(key: str, setup_key: str) -> str:
    """A death's cause in words, from the game's setup (the posts use the same words)."""
    return cause_label(setup_key, key, (get_language() or "it")[:2])


@register.filter
def rule_links(text: object) -> SafeString:
    """``text`` escaped, each rule tag (``[WWW-R57]``) linked to its paragraph of the
    setup's Regolamento page."""
    return link_rules(text)


@register.filter
def rule_tag(rules: str) -> SafeString:
    """One or more rule numbers (``"WWW-R46, WWW-D23"``) as a linked tag: ``[WWW-R46, …]``."""
    return link_rules(f"[{rules}]") if rules else mark_safe("")


@register.filter
def option_rule(field: BoundField, setup_key: str) -> SafeString:
    """The DECISION documenting a game option's field, as a linked tag."""
    option = field.name.removeprefix("opt_").replace("__", ".")
    return rule_tag(rulebook.option_rule(setup_key, option))


@register.filter(name="say")
def say_filter(message: object, setup_key: str = "") -> SafeString:
    """An engine message (a trace line) in the active language, its rule tags linked."""
    return link_rules(say(message, setup_key))


@register.filter(name="say_dropped")
def say_dropped_filter(line: object, setup_key: str = "") -> SafeString:
    """A refused submission, as the phase stored it, in the active language."""
    return link_rules(say_dropped(line, setup_key))
