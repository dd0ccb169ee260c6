"""Template filters of the GM's pages."""

from __future__ import annotations

from django import template
from django.forms import BoundField
from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import get_current_timezone

from games.engine import RoleCard, role_name, ruleset_for
from games.models import Player
from games.selectors.board import TallyLine
from games.text import rulebook
from games.text.keys import correction as correction_label
from games.text.names import group_name, setup_title
from games.text.presentation import describe
from games.text.rulebook import link_rules
from games.text.words import ability_label, cause, factions, language, say, say_dropped

register = template.Library()


@register.filter
def ballots(line: TallyLine) -> SafeString:
    """A tally line's ballots as the board lists them, "name HH:MM" in the current time
    zone, the changed or withdrawn ones struck (written here, not with template tags: a
    flooded day lists a couple of hundred)."""
    shown, zone, names = [], get_current_timezone(), {}
    for ballot in line.shown:
        name = ballot.voter.name
        escaped = names.get(name)
        if escaped is None:
            escaped = names[name] = conditional_escape(name)
        at = ballot.at.astimezone(zone)
        text = f"{escaped} {at.hour:02d}:{at.minute:02d}"
        shown.append(f"<s>{text}</s>" if ballot.struck else text)
    return mark_safe(", ".join(shown))  # the names are escaped


@register.simple_tag
def player_options(players: list[Player]) -> SafeString:
    """A select's options, one per player (the page's four forms list the living: drawn
    once)."""
    return format_html_join("", '<option value="{}">{}</option>', ((p.pk, p.name) for p in players))


@register.filter
def rule_links(text: object, where: str = "") -> SafeString:
    """``text`` escaped, each rule tag (``[WWW-R57]``) linked to its paragraph of the
    setup's Regolamento page; ``|rule_links:"form"`` opens it in another tab (a label or
    an error of a form being filled)."""
    return link_rules(text, new_tab=where == "form")


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


@register.filter
def correction(kind: str) -> str:
    """A GM's correction kind in words ("sopravvive", "muore")."""
    return correction_label(kind)


@register.filter
def ability(key: str, setup_key: str) -> str:
    """An ability's key as the player forms name it (the setup's words)."""
    return ability_label(ruleset_for(setup_key), key) if key else ""


@register.filter
def card_title(card: RoleCard) -> str:
    """A role card's title in the reader's language."""
    return card.title(language())


@register.filter
def card_text(card: RoleCard) -> str:
    """A role card's text in the reader's language (the Italian original to an Italian)."""
    return card.rule(language())


register.filter("group_name", group_name)
register.filter("setup_name", setup_title)


@register.filter("factions")
def faction_names(keys: list[str] | None, setup_key: str) -> str:
    """The winning factions' keys by their names in the reader's language."""
    return factions(setup_key, keys)


@register.filter
def role(key: str, setup_key: str) -> str:
    """A role key as its card's name."""
    return role_name(key, setup_key) if key else ""


@register.filter
def result(result: object, setup_key: str) -> str:
    """An engine result (a preview's, names as they are) as its sentence."""
    return describe(setup_key, result.kind, result.about, result.value)  # type: ignore[attr-defined]


@register.filter
def step(key: str, setup_key: str) -> str:
    """A step of the night (or the day's vote) in words, where a GM correction acts."""
    return say(ruleset_for(setup_key).step_message(key), setup_key) if key else ""


register.filter("cause", cause)  # a death's cause in words (games/text/words.py)
