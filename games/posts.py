"""The public posts the GM pastes into the forum thread: BBCode (the forums' default) and
Markdown, in the game's language. Only what the rules make public (roles/engine/announce)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.utils import formats, translation
from django.utils.translation import gettext as _

from games.board import TallyLine
from roles.engine.announce import TEXT, Post

FORMATS = ("bbcode", "markdown")


def _bold(text: str, fmt: str) -> str:
    return f"[b]{text}[/b]" if fmt == "bbcode" else f"**{text}**"


def _struck(text: str, fmt: str) -> str:
    return f"[s]{text}[/s]" if fmt == "bbcode" else f"~~{text}~~"


def _items(lines: list[str], fmt: str) -> list[str]:
    if fmt == "bbcode":
        return ["[list]", *(f"[*]{line}" for line in lines), "[/list]"]
    return [f"- {line}" for line in lines]


def render(
    post: Post,
    fmt: str,
    *,
    lang: str,
    time_zone: str,
    tally: list[TallyLine] | None = None,
    next_deadline: tuple[str, dt.datetime] | None = None,
) -> str:
    """``post`` in ``fmt``; a day's count with each voter's time and the struck changes
    when the site's ``tally`` is given; the next deadline at the bottom."""
    t = TEXT.get(lang, TEXT["it"])
    zone = ZoneInfo(time_zone)
    lines = [_bold(post.title, fmt)]
    if tally is not None:
        for line in tally:
            voters = []
            for ballot in line.ballots:
                entry = f"{ballot.voter.name} ({ballot.at.astimezone(zone):%H:%M})"
                voters.append(_struck(entry, fmt) if ballot.struck else entry)
            lines.append(f"{line.target.name} ({line.count}): {', '.join(voters)}")
    else:
        lines += [f"{target} ({len(voters)}): {', '.join(voters)}" for target, voters in post.tally]
    if post.not_voting:
        lines.append(t["not_voting"].format(names=", ".join(post.not_voting)))
    if post.tally or tally:
        lines.append("")
    lines += [_bold(line, fmt) for line in post.lines]
    if post.closing:
        lines.append(post.closing)
    if next_deadline is not None:
        what, when = next_deadline
        with translation.override(lang):
            stamp = formats.date_format(when.astimezone(zone), "l j F, H:i")
            lines += ["", _("%(what)s entro %(when)s.") % {"what": what, "when": stamp}]
    if post.end:
        lines += ["", _bold(post.end[0], fmt), *post.end[1:]]
        if post.roles:
            lines += [t["roles"], *_items([f"{n}: {r}" for n, r in post.roles], fmt)]
    return "\n".join(lines)
