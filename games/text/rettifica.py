"""The "Rettifica" post (issue 31 major 4): after an undo, a "Correggi l'esito" or a
re-commit of a result already posted, what changed between the result the thread was
told and the new one, ready to paste in the game's language (BBCode and Markdown).

Both results are summed up the same way (``outcome_summary``), by seat so a rename in
between changes nothing: who died, who was executed, and each voter's standing public
vote. Only what a phase's post makes public goes in: no role, no cause of death, no night
action, no secret vote (the Boia's), no true totals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import escape
from games.text.words import phase_name

ABSTAIN = "abstain"  # a standing abstention, in a summary's votes


def outcome_summary(
    outcome: Mapping[str, Any], inputs: Mapping[str, Any], seats: Mapping[str, int]
) -> dict[str, Any]:
    """The public facts of a resolved phase, by seat: ``deaths`` (seats, in order),
    ``executed`` (a seat or None) and ``votes`` ({voter seat: his standing public vote:
    a seat, ``ABSTAIN``, or None when withdrawn}), from the phase's stored outcome and
    inputs; ``seats`` maps the names the outcome uses to seats."""
    deaths = [seats[d["player"]] for d in outcome.get("deaths") or [] if d.get("player") in seats]
    executed = (outcome.get("execution") or {}).get("executed")
    votes: dict[str, Any] = {}
    for vote in sorted(inputs.get("votes") or [], key=lambda v: v.get("at", 0)):
        if vote.get("secret"):
            continue  # the Boia's secret vote is never told
        target = ABSTAIN if vote.get("abstain") and vote.get("target") is None else vote["target"]
        votes[str(vote["voter"])] = target
    return {"deaths": deaths, "executed": seats.get(executed) if executed else None,
            "votes": votes}  # fmt: skip


def _names(seats: list[int], names: Mapping[int, str]) -> str:
    return ", ".join(names.get(seat, f"#{seat}") for seat in seats)


def _vote_words(target: Any, names: Mapping[int, str]) -> str:
    if target == ABSTAIN:
        return _("astensione")
    if target is None:
        return _("nessun voto")
    return names.get(int(target), f"#{target}")


def rettifica_lines(
    before: Mapping[str, Any], after: Mapping[str, Any], names: Mapping[int, str]
) -> tuple[list[str], list[str]]:
    """What changed, as sentences in the active language, and the vote changes ("Ada:
    Bruno → Carla"), voters in seat order; both empty when nothing public changed."""
    old_exec, new_exec = before.get("executed"), after.get("executed")
    old_dead, new_dead = before.get("deaths") or [], after.get("deaths") or []
    back = [s for s in old_dead if s not in new_dead and s != old_exec]
    gone = [s for s in new_dead if s not in old_dead and s != new_exec]
    lines = []
    if old_exec != new_exec:
        params = {"new": names.get(new_exec, ""), "old": names.get(old_exec, "")}
        if new_exec is None:
            lines.append(_("Esecuzione: nessuno, non %(old)s.") % params)
        elif old_exec is None:
            lines.append(_("Esecuzione: %(new)s (prima: nessuno).") % params)
        else:
            lines.append(_("Esecuzione: %(new)s, non %(old)s.") % params)
    if back:
        lines.append(ngettext("Resta in gioco: %(names)s.", "Restano in gioco: %(names)s.",
                              len(back)) % {"names": _names(back, names)})  # fmt: skip
    if gone:
        lines.append(ngettext("Esce dal gioco: %(names)s.", "Escono dal gioco: %(names)s.",
                              len(gone)) % {"names": _names(gone, names)})  # fmt: skip
    old_votes, new_votes = before.get("votes") or {}, after.get("votes") or {}
    moved = []
    for voter in sorted({*old_votes, *new_votes}, key=int):
        old, new = old_votes.get(voter), new_votes.get(voter)
        if old != new:
            moved.append(f"{names.get(int(voter), '#' + voter)}: {_vote_words(old, names)} → "
                         f"{_vote_words(new, names)}")  # fmt: skip
    return lines, moved


def rettifica_post(
    label: str,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    names: Mapping[int, str],
    *,
    lang: str,
    fmt: str,
) -> str | None:
    """The Rettifica post of phase ``label`` in ``fmt`` and the game's language ``lang``;
    None when nothing public changed (no post to make)."""
    with translation.override(lang):
        lines, moved = rettifica_lines(before, after, names)
        if not lines and not moved:
            return None
        title = _("Rettifica: %(phase)s") % {"phase": phase_name(label)}
        intro = _("L'annuncio precedente conteneva un errore. Ecco cosa cambia:")
        votes_title = _("Voti corretti:")
    bold = (lambda t: f"[b]{t}[/b]") if fmt == "bbcode" else (lambda t: f"**{t}**")
    out = [bold(escape(title, fmt)), escape(intro, fmt), ""]
    out += [escape(line, fmt) for line in lines]
    if moved:
        if lines:
            out.append("")
        out.append(escape(votes_title, fmt))
        if fmt == "bbcode":
            out += ["[list]", *(f"[*]{escape(m, fmt)}" for m in moved), "[/list]"]
        else:
            out += [f"- {escape(m, fmt)}" for m in moved]
    return "\n".join(out)
