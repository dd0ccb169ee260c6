"""Edit notices, as each engine writes them under (or over) an edited post:

* phpBB (``viewtopic_body.html``, ``EDITED_TIMES_TOTAL``): "Ultima modifica di Sam il
  mer 12 mar 2025, 22:05, modificato 1 volta in totale." / "Last edited by Sam on …";
* ForumFree / ForumCommunity (``div.edit``): "Modificato da Sam - 12/3/2025, 22:05";
* Invision Community (``commentEditLine``, ``date_edited``): "Modificato 12 marzo 2025
  da Sam" / "Edited March 12 by Sam";
* Discourse (the edits button's title): "post modificato l'ultima volta il 12 marzo
  2025 22:05".

A vote edited at or after the deadline is not a vote in time: the site shows it apart."""

from __future__ import annotations

import datetime as dt

from games.forum.base import Clock, compile_, fold
from games.forum.dates import parse_when

NOTICES = [
    compile_(r"^ *(?:ultima modifica di|last edited by) +(?P<who>.{1,80}?) +(?:il|on) +"
             r"(?P<when>.{1,80}?)(?:, *(?:modificato|edited) +\d+ +(?:volt|time).*)?$"),
    compile_(r"^ *(?:modificato da|edited by) +(?P<who>.{1,80}?) +[-–—] +(?P<when>.{1,80})$"),
    compile_(r"^ *(?:post )?(?:modificato|edited)(?: l'ultima volta)? +(?:il +|on +|alle +)?"
             r"(?P<when>[0-9a-z].{0,80}?)(?: +(?:da|by) +(?P<who>.{1,80}?))? *\.?$"),
]  # fmt: skip
MAX_NOTICE = 200
_STARTS = ("ultima", "last", "modif", "edit", "post modif")


def edit_notice(line: str, clock: Clock) -> tuple[dt.datetime | None, str] | None:
    """(the edit's time or None if unreadable, the notice) when ``line`` is an edit
    notice; None when it is not one."""
    text = " ".join(fold(line[: MAX_NOTICE + 1]).split())
    if not text.startswith(_STARTS) or len(text) > MAX_NOTICE:
        return None
    for notice in NOTICES:
        if match := notice.match(text):
            when = parse_when(match["when"], clock)
            return (when[0] if when else None), line.strip()
    return None


def take_edit_notice(lines: list[str], clock: Clock) -> tuple[list[str], dt.datetime | None, str]:
    """``lines`` without their edit notices, the latest edit's time and its notice. A
    notice under the text (phpBB's ``div.notice``, ForumFree's ``div.edit``; Invision
    writes it above) is followed only by the author's signature: dropped too."""
    kept: list[str] = []
    latest: dt.datetime | None = None
    notice_text = ""
    for line in lines:
        found = edit_notice(line, clock)
        if found is None:
            kept.append(line)
            continue
        when, text = found
        if not notice_text or (when is not None and (latest is None or when > latest)):
            latest, notice_text = when, text
        if any(k.strip() for k in kept):  # under the text: the rest is the signature
            break
    return kept, latest, notice_text
