"""The project's own rules reference, ``docs/rules/<setup>.md``, served as the
"Regolamento" page of each setup, and the links from every rule tag (``[WWW-R57]``) in
traces, refusals and option help to its paragraph.

A rule is defined where its number first stands in bold (``**WWW-R41**``); that place
becomes its anchor, and every other mention links to it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import nh3
from django.conf import settings
from django.urls import reverse
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from markdown_it import MarkdownIt

from games.engine import available_setups, setup_dir

DOCS = Path(settings.BASE_DIR) / "docs" / "rules"
# a rule (R), a DECISION (D), an interaction (I), a base-game rule a referee assumes (B)
TAG = re.compile(r"\b([A-Z]{2,4})-([RDIB])(\d+)\b")
DEFINED = re.compile(r"\*\*([A-Z]{2,4})-[RDIB]\d+\b")
SETTING_ROW = re.compile(r"^\| `([a-z0-9_.]+)` \|[^\n]*?\| ([A-Z]{2,4}-D\d+)[^|\n]*\|\s*$", re.M)
_HTML_PART = re.compile(r"(<[^>]+>)")
ORIGINAL = "testo-originale"  # the anchor of the Italian original, at the end of each file
# the Italian original numbered as the specification: ``docs/rules/<slug>.numbers`` holds
# one line per rule, ``RIB-R3<TAB>the words of the original where that rule begins``
NUMBERS_SUFFIX = ".numbers"
_MARK = re.compile("\ue000([A-Z]{2,4}-[RDIB]\\d+)\ue001")


@dataclass(frozen=True)
class Rulebook:
    slug: str  # the setup key, and the file's name
    prefix: str  # WWW, INQ, ...
    title: str
    html: SafeString
    anchors: frozenset[str]
    settings: dict[str, str]  # option -> the DECISION that sets it


def rule_files() -> dict[str, Path]:
    """Slug -> its rules file: ``docs/rules/<setup>.md``, and the ``rules.md`` a setup
    package ships beside its setup.yaml (a setup is one package)."""
    files = {path.stem: path for path in sorted(DOCS.glob("*.md"))}
    for key in available_setups():
        beside = setup_dir(key) / "rules.md"
        if key not in files and beside.is_file():
            files[key] = beside
    return files


@cache
def rulebooks() -> dict[str, str]:
    """Rule prefix -> the slug of the rulebook defining its rules (the one defining most of
    them: a rulebook may also define a few of another prefix, as the Rebel!'s does the
    base game's BANG-Bn it assumes). Its own prefix first."""
    counts = {slug: Counter(DEFINED.findall(path.read_text(encoding="utf-8")))
              for slug, path in rule_files().items()}  # fmt: skip
    found = {c.most_common(1)[0][0]: slug for slug, c in counts.items() if c}
    for prefix in sorted(set().union(*counts.values()) - found.keys()):
        found[prefix] = max(counts, key=lambda slug: counts[slug][prefix])
    return found


def original_first(html: str) -> tuple[SafeString, SafeString]:
    """A rendered rulebook as (the Italian original, the numbered specification): an
    Italian reader meets the Italian text first, an English one the English (issue 30).
    A rulebook without an original is all specification."""
    marker = f'<h2 id="{ORIGINAL}">'
    spec, found, original = str(html).partition(marker)
    return mark_safe(found + original), mark_safe(spec)


def rulebook_url(slug: str, tag: str = "") -> str:
    return reverse("rulebook", args=[slug]) + (f"#{tag}" if tag else "")


@cache
def rulebook(slug: str) -> Rulebook | None:
    """The rendered rulebook of ``slug`` (sanitized HTML), None when there is none."""
    if slug not in rulebooks().values():
        return None
    text = _number_original(rule_files()[slug].read_text(encoding="utf-8"), original_numbers(slug))
    prefix = next(p for p, s in rulebooks().items() if s == slug)
    title = text.splitlines()[0].lstrip("# ").strip()
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    html = nh3.clean(markdown.render(text))  # raw HTML is escaped, and sanitized all the same
    body, anchors = _anchor(html, slug)
    body = _MARK.sub(_original_mark, body)
    for tag in anchors & set(original_numbers(slug)):
        definition = f'<a id="{tag}" href="#{tag}" class="rule-anchor">{tag}</a>'
        to_original = f' <a href="#it-{tag}" class="to-original" hreflang="it" lang="it">IT</a>'
        body = body.replace(definition, definition + to_original, 1)
    body = body.replace("<h2>Testo originale</h2>", f'<h2 id="{ORIGINAL}">Testo originale</h2>', 1)
    options = dict(SETTING_ROW.findall(text.split("Settings summary", 1)[-1]))
    return Rulebook(slug, prefix, title, mark_safe(body), frozenset(anchors), options)


@cache
def original_numbers(slug: str) -> dict[str, str]:
    """Rule tag -> the words of the Italian original where it begins, from the rulebook's
    ``.numbers`` file (none: the original is shown unnumbered). Read once: every rule tag
    a page links asks it (``_link``)."""
    numbers = rule_files()[slug].with_suffix(NUMBERS_SUFFIX)
    if not numbers.is_file():
        return {}
    found = {}
    for line in numbers.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            tag, _, words = line.partition("\t")
            found[tag.strip()] = words.strip()
    return found


def original_words(words: str) -> re.Pattern[str]:
    """The words as the original may wrap them (any run of spaces or line breaks)."""
    return re.compile(r"\s+".join(re.escape(word) for word in words.split()))


def _number_original(text: str, numbers: dict[str, str]) -> str:
    """``text`` with a mark before the words where each rule begins in its Italian original
    (after the "Testo originale" heading); the mark becomes a numbered anchor once rendered."""
    head, heading, original = text.partition("\n## Testo originale\n")
    if not heading:
        return text
    places: list[tuple[int, int, str]] = []
    for tag, words in numbers.items():
        match, number = original_words(words).search(original), TAG.fullmatch(tag)
        if match is not None and number is not None:
            places.append((match.start(), int(number[3]), tag))  # two at one place: in order
    for start, _number, tag in sorted(places, reverse=True):
        original = f"{original[:start]}\ue000{tag}\ue001{original[start:]}"
    return head + heading + original


def _original_mark(match: re.Match[str]) -> str:
    tag = match.group(1)
    return f'<a id="it-{tag}" href="#{tag}" class="rule-original">[{tag}]</a> '


def _anchor(html: str, slug: str) -> tuple[str, set[str]]:
    """Give each rule's defining mention its anchor and link every other mention."""
    anchors: set[str] = set()
    out = []
    inside = {"a": 0, "pre": 0}
    after_strong = False
    for part in _HTML_PART.split(html):
        if part.startswith("<"):
            name = part.strip("</>").split()[0].lower() if part.strip("</>") else ""
            if name in inside:
                inside[name] += -1 if part.startswith("</") else 1
            after_strong = part == "<strong>"
            out.append(part)
            continue
        if any(inside.values()):
            out.append(part)
            continue
        defining = after_strong

        def link(match: re.Match[str], defining: bool = defining) -> str:
            tag = match.group(0)
            if defining and match.start() == 0 and tag not in anchors:
                anchors.add(tag)
                return f'<a id="{tag}" href="#{tag}" class="rule-anchor">{tag}</a>'
            return _link(match, here=slug)

        out.append(TAG.sub(link, part))
        after_strong = False
    return "".join(out), anchors


def _link(match: re.Match[str], here: str | None = None, new_tab: bool = False) -> str:
    tag = match.group(0)
    slug = rulebooks().get(match.group(1))
    if slug is None:
        return tag
    if slug == here:
        href = f"#{tag}"
    elif (get_language() or "")[:2] == "it" and tag in original_numbers(slug):
        href = rulebook_url(slug, f"it-{tag}")  # an Italian reader lands in the original
    else:
        href = rulebook_url(slug, tag)
    target = ' target="_blank" rel="noopener"' if new_tab else ""
    return f'<a href="{escape(href)}" class="rule"{target}>{tag}</a>'


def link_rules(text: object, new_tab: bool = False) -> SafeString:
    """``text`` escaped, with each rule tag linked to its paragraph of the rulebook; in a
    form being filled (``new_tab``), the rule opens in another tab and the form stays."""
    return mark_safe(TAG.sub(lambda m: _link(m, new_tab=new_tab), str(conditional_escape(text))))


def option_rule(slug: str, option: str) -> str:
    """The DECISION that documents ``option`` (``www.will_word_limit`` -> ``WWW-D22``)."""
    book = rulebook(slug)
    return book.settings.get(option, "") if book else ""


def for_game(book: Rulebook, options: dict[str, object], defaults: dict[str, object]) -> SafeString:
    """The rulebook as one game plays it: in the DECISION documenting each option the game
    sets away from its default, the default's mentions read the game's value (WWW-D22 says
    the will limit the GM chose, not 150), marked."""
    html = str(book.html)
    for option, value in options.items():
        default = defaults.get(option)
        rule = book.settings.get(option)
        if rule is None or value == default or isinstance(value, bool) or default is None:
            continue
        start = html.find(f'id="{rule}"')
        if start < 0:
            continue
        end = min(
            i for i in (html.find("</li>", start), html.find("</p>", start), len(html)) if i >= 0
        )
        shown = f'<mark title="{escape(option)}">{escape(value)}</mark>'
        span = _HTML_PART.split(html[start:end])
        number = re.compile(rf"(?<![\w.-]){re.escape(str(default))}(?![\w])")
        for i, part in enumerate(span):
            if not part.startswith("<"):
                span[i] = number.sub(shown, part)
        html = html[:start] + "".join(span) + html[end:]
    return mark_safe(html)
