"""The public posts the GM pastes into the forum thread: BBCode (the forums' default) and
Markdown, in the game's language. Only what the rules make public (roles/engine/announce).

Every text that comes from the engine or from a player (names above all) is escaped for
the format by the one escaping of every post (``roles.engine.markup.escape``), so a
sign-up name like ``[/b][url=…]`` or ``](javascript:…)`` prints as itself and never as
markup (issue 9, #10); the markup in a post is only the one written here.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from itertools import compress
from operator import not_
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import ForumBallot, Post, escape, post_texts
from games.text.words import moment

FORMATS = ("bbcode", "markdown")
MAX_CHANGES_SHOWN = 3  # per voter: the older changes are counted, not listed (issue 9, #9)

if TYPE_CHECKING:  # a type only: the board is a read, the posts only format it
    from games.selectors.board import TallyLine


def _bold(text: str, fmt: str) -> str:
    return f"[b]{escape(text, fmt)}[/b]" if fmt == "bbcode" else f"**{escape(text, fmt)}**"


def _struck(text: str, fmt: str) -> str:
    return f"[s]{text}[/s]" if fmt == "bbcode" else f"~~{text}~~"


def _items(lines: list[str], fmt: str) -> list[str]:
    lines = [escape(line, fmt) for line in lines]
    if fmt == "bbcode":
        return ["[list]", *(f"[*]{line}" for line in lines), "[/list]"]
    return [f"- {line}" for line in lines]


def _bounded(tally: list[TallyLine]) -> tuple[set[int], dict[int, int]]:
    """Which struck ballots a post lists, and where it says how many it leaves out: each
    voter's last ``MAX_CHANGES_SHOWN`` changes are listed, older ones only counted ("+37
    cambi") on his standing vote (or his latest change), so a post stays readable however
    many changes a voter makes. Returns the ids of the struck ballots listed (the
    engine's, ``line.votes``) and {ballot id: changes left out}."""
    struck: defaultdict[str, list[ForumBallot]] = defaultdict(list)
    latest: dict[str, ForumBallot] = {}
    for line in tally:
        for vote in compress(line.votes, line.struck):
            struck[vote.voter].append(vote)
        for vote in compress(line.votes, map(not_, line.struck)):
            latest[vote.voter] = vote
    listed: set[int] = set()
    counted: dict[int, int] = {}
    for voter, votes in struck.items():
        # his latest changes: the last ones of his struck ballots, line after line, sorted
        # (stably) by time
        times = [vote.at for vote in votes]
        last = [
            votes[i] for i in sorted(range(len(votes)), key=times.__getitem__)[-MAX_CHANGES_SHOWN:]
        ]
        listed.update(map(id, last))
        if len(votes) > MAX_CHANGES_SHOWN:
            counted[id(latest.get(voter, last[-1]))] = len(votes) - MAX_CHANGES_SHOWN
    return listed, counted


def _ballot_time(at: dt.datetime, zone: ZoneInfo, day: dt.date | None) -> str:
    """A vote's time in the count: "21:47" on the phase's ``day``, "2/12 23:10" on any
    other (issue 31 major 2: a list shows the date when it is not the phase's day)."""
    local = at.astimezone(zone)
    if day is None or local.date() == day:
        return f"{local:%H:%M}"
    return f"{local.day}/{local.month} {local:%H:%M}"


def _more_changes(count: int, lang: str) -> str:
    with translation.override(lang):
        return ngettext("(+%(n)d cambio)", "(+%(n)d cambi)", count) % {"n": count}


def render(
    post: Post,
    fmt: str,
    *,
    lang: str,
    time_zone: str,
    tally: list[TallyLine] | None = None,
    next_deadline: tuple[str, dt.datetime] | None = None,
    day: dt.date | None = None,
) -> str:
    """``post`` in ``fmt``; a day's count with each voter's time and the struck changes
    when the site's ``tally`` is given; the next deadline at the bottom."""
    t = post_texts(lang)
    zone = ZoneInfo(time_zone)
    lines = [_bold(post.title, fmt)]
    if tally is not None:
        listed, counted = _bounded(tally)
        for line in tally:
            voters = []
            for i, (vote, struck) in enumerate(zip(line.votes, line.struck, strict=True)):
                if struck and id(vote) not in listed:
                    continue
                ballot = line.ballot(i)
                entry = f"{escape(ballot.voter.name, fmt)} ({_ballot_time(ballot.at, zone, day)})"
                voters.append(_struck(entry, fmt) if ballot.struck else entry)
                if id(vote) in counted:
                    voters[-1] += " " + _more_changes(counted[id(vote)], lang)
            if voters:
                name = escape(line.target.name, fmt)
                lines.append(f"{name} ({line.count}): {', '.join(voters)}")
    else:
        lines += [
            f"{escape(target, fmt)} ({len(voters)}): {', '.join(escape(v, fmt) for v in voters)}"
            for target, voters in post.tally
        ]
    if post.not_voting:
        lines.append(escape(t["not_voting"].format(names=", ".join(post.not_voting)), fmt))
    if post.tally or tally:
        lines.append("")
    lines += [_bold(line, fmt) for line in post.lines]
    if post.closing:
        lines.append(escape(post.closing, fmt))
    if next_deadline is not None:
        what, when = next_deadline
        with translation.override(lang):
            stamp = moment(when, zone)
            deadline = _("%(what)s entro %(when)s.") % {"what": what, "when": stamp}
            lines += ["", escape(deadline, fmt)]
    if post.end:
        lines += ["", _bold(post.end[0], fmt), *(escape(line, fmt) for line in post.end[1:])]
        if post.roles:
            lines += [escape(t["roles"], fmt), *_items([f"{n}: {r}" for n, r in post.roles], fmt)]
    return "\n".join(lines)
