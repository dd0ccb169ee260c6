"""Counts on demand (issue 12 §2): the forum-style vote count at this moment, ready to
paste mid-day, and the one-line explanation of a tie for the execution post (with the
GM's fuller explanation: the tie, the decisive votes, the Boia's weighted vote). The
public texts use the public votes at face value only: never a secret vote or a weight
(INQ-D7)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import LATEST, PhaseOutcome, Post, TrueVotes, Vote, escape, true_votes
from games.models import Game, Submission
from games.selectors.board import Board, VoteEvent
from games.text.posts import FORMATS, _bold, _struck
from games.text.words import moment, phase_name


def clock_time(at: dt.datetime, zone: ZoneInfo) -> str:
    """HH:MM, with the seconds when the time has them (a forum that gives seconds)."""
    local = at.astimezone(zone)
    return f"{local:%H:%M:%S}" if local.second or local.microsecond else f"{local:%H:%M}"


def _time_left(closes_at: dt.datetime, now: dt.datetime, paused: bool) -> str:
    if paused:
        return _("La scadenza è sospesa.")
    minutes = max(0, int((closes_at - now).total_seconds() // 60))
    hours, minutes = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(ngettext("%(n)d ora", "%(n)d ore", hours) % {"n": hours})
    parts.append(ngettext("%(n)d minuto", "%(n)d minuti", minutes) % {"n": minutes})
    return _("Mancano %(left)s alla chiusura delle votazioni.") % {"left": " e ".join(parts)}


def count_now(game: Game, board: Board, now: dt.datetime) -> dict[str, str]:
    """The day's public count at ``now`` in every format: each candidate with his voters
    and their times, changed or withdrawn votes struck, who is not voting, the time left."""
    zone = ZoneInfo(game.time_zone)
    phase = board.phase
    texts = {}
    with translation.override(game.language):
        title = _("Conteggio voti di %(phase)s (%(when)s)") % {
            "phase": phase_name(phase.label),  # "Giorno 1", as everywhere (issue 31 minor)
            "when": moment(now, zone),
        }
        left = _time_left(phase.closes_at, now, phase.paused_at is not None)
        nobody = _("Nessun voto per ora.")
        not_voting = _("Non votano: %(names)s.")
        for fmt in FORMATS:
            lines = [_bold(title, fmt)]
            for line in board.tally:
                voters = []
                for ballot in line.ballots:
                    # names as they were typed, never markup (issue 27 §7)
                    entry = escape(f"{ballot.voter.name} ({clock_time(ballot.at, zone)})", fmt)
                    voters.append(_struck(entry, fmt) if ballot.struck else entry)
                target = escape(f"{line.target.name} ({line.count})", fmt)
                lines.append(f"{target}: {', '.join(voters)}")
            if not board.tally:
                lines.append(escape(nobody, fmt))
            if board.not_voting:
                names = ", ".join(p.name for p in board.not_voting)
                lines.append(escape(not_voting % {"names": names}, fmt))
            lines += ["", escape(left, fmt)]
            texts[fmt] = "\n".join(lines)
    return texts


@dataclass
class TieNote:
    public: str = ""  # the execution post's line ("" when there is nothing to say)
    gm: list[str] = field(default_factory=list)  # the GM's explanation


def engine_votes(submissions: list[Submission] | list[VoteEvent]) -> list[Vote]:
    """The vote events among ``submissions`` (in time order) as the engine counts them."""
    secret = Submission.Kind.SECRET_VOTE
    return [Vote(s.player.name, s.target.name if s.target else None, s.at, s.kind == secret,
                 s.abstain) for s in submissions if s.kind != Submission.Kind.ACTION]  # fmt: skip


def tie_note(
    game: Game, outcome: PhaseOutcome, submissions: list[Submission], rule: str = ""
) -> TieNote:
    """Who was executed and why, when the top was shared (WWW-R10, INQ-R7), and the
    weighted or secret vote behind a total (INQ-R45..R49), from the engine's tally of the
    vote events among ``submissions``."""
    return explain_tie(game, outcome, true_votes(engine_votes(submissions)), rule)


def explain_tie(
    game: Game,
    outcome: PhaseOutcome,
    tally: TrueVotes,
    rule: str = "",
    time: Callable[[Any], dt.datetime] | None = None,
) -> TieNote:
    """:func:`tie_note` of the engine's ``tally`` (``roles.engine.votes.true_votes``) of the
    day's votes; ``time`` makes a vote's time a date (when the votes carry another one)."""
    note = TieNote()
    execution = outcome.execution
    if execution is None or not execution.totals:
        return note
    zone = ZoneInfo(game.time_zone)
    secret, true = tally.secret, tally.true

    def when(key: tuple) -> str:
        if key == LATEST:
            return _("per ultimo (voto segreto)")
        return clock_time(time(key[1]) if time is not None else key[1], zone)

    def decisive(name: str) -> tuple[str, tuple]:
        return tally.decisive(name) or ("", LATEST)

    top = max(execution.totals.values())
    tied = sorted((c for c, t in execution.totals.items() if t == top),
                  key=lambda c: decisive(c)[1])  # fmt: skip
    if len(tied) > 1:
        note.gm.append(_("Parità a %(n)d tra %(names)s (totali veri).")
                       % {"n": top, "names": ", ".join(tied)})  # fmt: skip
        note.gm += [
            _("Voto decisivo su %(name)s: %(voter)s, %(when)s.")
            % {"name": c, "voter": decisive(c)[0], "when": when(decisive(c)[1])}
            for c in tied
        ]
        if execution.executed:
            why = _("Giustiziato %(name)s: il suo voto decisivo è arrivato per primo [%(rule)s].")
            note.gm.append(why % {"name": execution.executed, "rule": rule})
    for voter, (target, _key) in secret.items():
        note.gm.append(_("Voto segreto di %(voter)s: %(target)s (il suo voto pubblico non conta).")
                       % {"voter": voter, "target": target or _("astensione")})  # fmt: skip
    for candidate, voters in true.items():
        extra = execution.totals.get(candidate, 0) - len(voters)
        if extra > 0:
            weighted = [v for v, _k in voters if v in secret] or [v for v, _k in voters]
            note.gm.append(_("Su %(name)s il voto di %(voter)s vale %(weight)d.")
                           % {"name": candidate, "voter": ", ".join(weighted),
                              "weight": extra + 1})  # fmt: skip
    honest = not secret and tally.face() == execution.totals
    if len(tied) > 1 and honest and execution.executed:
        first, key = decisive(execution.executed)
        others = "; ".join(f"{c} {when(decisive(c)[1])}" for c in tied[1:])
        with translation.override(game.language):
            note.public = ngettext(
                "Parità a %(n)d voto tra %(names)s: è giustiziato %(name)s, che lo ha ricevuto "
                "per primo con il voto di %(voter)s alle %(when)s (%(others)s).",
                "Parità a %(n)d voti tra %(names)s: è giustiziato %(name)s, che li ha raggiunti "
                "per primo con il voto di %(voter)s alle %(when)s (%(others)s).",
                top,
            ) % {"n": top, "names": ", ".join(sorted(tied)), "name": execution.executed,
                 "voter": first, "when": when(key), "others": others}  # fmt: skip
    return note


def add_tie_line(parts: Post, line: str, executed: str | None) -> None:
    """Put the tie's line right after the verdict that names the executed player."""
    if not line:
        return
    at = next((i for i, text in enumerate(parts.lines) if executed and executed in text), None)
    parts.lines.insert(len(parts.lines) if at is None else at + 1, line)
