"""Names the site shows that other rooms give in Italian or as keys, in the reader's
language: the forum's private groups (each setup's rules name them as the Italian forum
does), the thread readers' formats (games/forum has no Django) and a game's setup."""

from __future__ import annotations

from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engine import Channel, available_setups, load_setup
from games.forum import PARSERS
from games.registry import desk_name, desk_setups

# by the channel's key (roles/engine/channels.py, roles/*/rules.py)
GROUPS = {
    "indiani": pgettext_lazy("gruppo del forum", "Indiani"),
    "cimitero": pgettext_lazy("gruppo del forum", "Cimitero"),
    "guardie": pgettext_lazy("gruppo del forum", "Guardie Gemelle"),
    "branco": pgettext_lazy("gruppo del forum", "Branco"),
}
# the Italian words of the readers' labels ("phpBB (pagina salvata)")
FORMAT_WORDS = (
    ("Autore — gg/mm/aaaa hh:mm", gettext_lazy("Autore — gg/mm/aaaa hh:mm")),
    ("pagina salvata", gettext_lazy("pagina salvata")),
    ("pagina del browser", gettext_lazy("pagina del browser")),
)


def group_name(channel: Channel) -> str:
    """A private group's name in the reader's language (a setup's own group as it says it)."""
    name = GROUPS.get(channel.key)
    return str(name) if name is not None else channel.name


def forum_formats() -> list[tuple[str, str]]:
    """Each thread reader's key and its name in the reader's language."""
    formats = []
    for key, parser in PARSERS.items():
        label = parser.label
        for italian, words in FORMAT_WORDS:
            label = label.replace(italian, str(words))
        formats.append((key, label))
    return formats


def setup_title(setup: str, default: str = "") -> str:
    """A game's setup by its name (a desk's title in the reader's language), ``default``
    (the key itself when not given) for a key that is neither a setup nor a desk."""
    if setup in desk_setups():
        return desk_name(setup)
    if setup in available_setups():
        return load_setup(setup).name
    return default or setup
