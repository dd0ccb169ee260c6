"""The count a page of the thread gives, as ``manage.py topic_count`` prints it (issue 32):
each vote counted (author, forum time, target), the standing count, and apart the posts
not counted (with why) and those after the deadline. Nothing is stored."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from games.forum.discourse import Discourse
from games.models import Phase
from games.services.follow_http import fetch, raw_next_page, readable_url
from games.services.topic_preview import ALREADY, LATE, SAME, STORED, ImportPreview
from games.services.topic_preview import topic_import_preview as preview_of

COUNTED = (*STORED, SAME, ALREADY)
RAW = Discourse()  # counts a raw page's post headers
RAW_PAGES_MAX = 50


@dataclass
class CountedVote:
    author: str
    at: dt.datetime
    target: str | None  # None: a withdrawal


@dataclass
class CountReport:
    phase: str
    fmt: str
    posts: int
    votes: list[CountedVote] = field(default_factory=list)
    count: dict[str, list[str]] = field(default_factory=dict)  # target -> voters standing
    ignored: list[tuple[str, dt.datetime | None, str, str]] = field(default_factory=list)
    late: list[tuple[str, dt.datetime | None, str]] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "phase": self.phase, "format": self.fmt, "posts": self.posts,
            "votes": [{"author": v.author, "time": v.at.isoformat(), "target": v.target}
                      for v in self.votes],
            "count": self.count,
            "ignored": [{"author": a, "time": t.isoformat() if t else None, "text": x,
                         "why": w} for a, t, x, w in self.ignored],
            "late": [{"author": a, "time": t.isoformat() if t else None, "text": x}
                     for a, t, x in self.late],
        }  # fmt: skip


def count_report(preview: ImportPreview) -> CountReport:
    report = CountReport(preview.phase.label, preview.fmt, preview.posts)
    standing: dict[str, str | None] = {}
    for row in sorted(preview.rows, key=lambda r: (r.at is None, r.at or dt.datetime.min)):
        author = row.voter.name if row.voter else row.post.author
        if row.status == LATE:
            report.late.append((author, row.at, row.said.text))
        elif row.status in COUNTED and row.voter is not None:
            target = None if row.withdraw or row.target is None else row.target.name
            report.votes.append(CountedVote(author, row.at, target))
            standing[author] = target
        else:
            report.ignored.append((author, row.at, row.said.text, row.note or row.status))
    for voter, target in standing.items():
        if target is not None:
            report.count.setdefault(target, []).append(voter)
    report.count = dict(sorted(report.count.items(), key=lambda kv: (-len(kv[1]), kv[0])))
    return report


def _fetched(address: str, form: str) -> str:
    """The page at ``address``; for Discourse's raw text, the whole topic: its pages of
    100 followed while full (at most RAW_PAGES_MAX: 5,000 posts)."""
    text = fetch(address).text
    if form != "discourse_raw":
        return text
    pages = [text]
    while len(pages) < RAW_PAGES_MAX and (address := raw_next_page(address, RAW.score(text))):
        text = fetch(address).text
        pages.append(text)
    return "".join(pages)


def topic_count(
    *,
    phase: Phase,
    text: str = "",
    url: str = "",
    form: str = "page",
    fmt: str = "",
    now: dt.datetime,
) -> CountReport:
    """The count of a page given as ``text``, or fetched from ``url`` (the same guarded
    fetch as a followed thread: public addresses only)."""
    if url:
        text = _fetched(readable_url(url, form), form)
    preview = preview_of(phase=phase, text=text, fmt=fmt, now=now,
                         gm_username=phase.game.gm.get_username())  # fmt: skip
    return count_report(preview)
