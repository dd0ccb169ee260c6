"""The spoiler as a forum post: BBCode with one ``[spoiler=…]`` block per section, or
Markdown with ``<details>`` blocks (the spoiler of Discourse and GitHub), in the game's
language or another one. Everything a person typed (names, reasons, wills) is escaped, so a
name like ``[b]Ugo`` or ``*Ada*`` reads as written."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import escape, ruleset_for
from games.text.words import cause, factions, say

FORMATS = ("bbcode", "markdown")


def escape_bbcode(text: str) -> str:
    """A zero-width space after each ``[``: no tag opens, the text reads the same."""
    return escape(text, "bbcode")  # the one escaping of every post (issue 27 §7)


def escape_markdown(text: str) -> str:
    """Markdown's markup characters backslash-escaped (CommonMark reads them as is)."""
    return escape(text, "markdown")


class _Writer:
    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.lines: list[str] = []

    def esc(self, text: object) -> str:
        raw = "" if text is None else str(text)
        return escape_bbcode(raw) if self.fmt == "bbcode" else escape_markdown(raw)

    def bold(self, text: str) -> str:
        return f"[b]{text}[/b]" if self.fmt == "bbcode" else f"**{text}**"

    def struck(self, text: str) -> str:
        return f"[s]{text}[/s]" if self.fmt == "bbcode" else f"~~{text}~~"

    def open(self, title: str) -> None:
        if self.fmt == "bbcode":
            self.lines.append(f"[spoiler={title}]")
        else:
            self.lines += [f"<details><summary>{title}</summary>", ""]

    def close(self) -> None:
        self.lines.append("[/spoiler]" if self.fmt == "bbcode" else "\n</details>\n")

    def quote(self, lines: list[str]) -> None:
        """A will's text, line by line as its author wrote it."""
        if self.fmt == "bbcode":
            self.lines += ["[quote]", *lines, "[/quote]"]
        else:  # two trailing spaces: a line break inside the quote
            self.lines += ["", *(f"> {line}  " for line in lines), ""]

    def items(self, heading: str, entries: list[str]) -> None:
        if not entries:
            return
        self.lines.append(self.bold(heading))
        if self.fmt == "bbcode":
            self.lines += ["[list]", *(f"[*]{e}" for e in entries), "[/list]"]
        else:
            self.lines += ["", *(f"- {e}" for e in entries), ""]


def _action_line(w: _Writer, a: dict[str, Any]) -> str:
    what = a["ability_label"]
    if a["target"] or a["fake_role_name"]:
        what += f": {w.esc(a['target'] or a['fake_role_name'])}"
    if a["during_name"]:
        what += " " + _("(durante: %(role)s)") % {"role": w.esc(a["during_name"])}
    if a["vision"]:
        what += " " + _("(visione)")
    line = f"{a['time']} {w.esc(a['actor'])} ({w.esc(a['role_name'])}): {what}"
    line += _by_gm(w, a)
    return w.struck(line) if a["superseded"] else line


def _by_gm(w: _Writer, entry: dict[str, Any]) -> str:
    if not entry["by_gm"]:
        return ""
    reason = f": {w.esc(entry['reason'])}" if entry["reason"] else ""
    return " — " + _("inserito dal master") + reason


def _vote_line(w: _Writer, v: dict[str, Any]) -> str:
    target = w.esc(v["target"]) if v["target"] else ""
    text = {
        "vote": lambda: _("vota %(name)s") % {"name": target},
        "change": lambda: _("cambia voto: %(name)s") % {"name": target},
        "repeat": lambda: _("conferma %(name)s") % {"name": target},
        "withdraw": lambda: _("ritira il suo voto"),
        "abstain": lambda: _("si astiene"),
        "none": lambda: _("nessun voto"),
    }[v["change"]]()
    line = f"{v['time']} {w.esc(v['voter'])}: {text}{_by_gm(w, v)}"
    return line if v["standing"] or v["change"] in ("withdraw", "abstain") else w.struck(line)


def _outcome(w: _Writer, phase: dict[str, Any], setup: str) -> list[str]:
    lines = []
    execution = phase["execution"]
    if execution is not None:
        totals = ", ".join(f"{w.esc(n)} {t}" for n, t in execution.get("totals", {}).items())
        if execution.get("executed"):
            lines.append(_("Giustiziato: %(name)s") % {"name": w.esc(execution["executed"])}
                         + (f" ({totals})" if totals else ""))  # fmt: skip
        else:
            lines.append(_("Nessun giustiziato") + (f" ({totals})" if totals else ""))
    for death in phase["deaths"]:
        name, why = w.esc(death["player"]), cause(death["cause"], setup)
        lines.append(_("Muore %(name)s: %(cause)s") % {"name": name, "cause": why})
    if not lines:
        lines.append(_("Nessun morto"))
    return lines


def step_name(setup: str, step: str) -> str:
    """A step where a GM's correction acted, in words (the setup names its steps)."""
    return say(ruleset_for(setup).step_message(step), setup)


def _phase(w: _Writer, phase: dict[str, Any], setup: str) -> None:
    w.open(phase["title"])
    w.items(_("Azioni"), [_action_line(w, a) for a in phase["actions"]])
    w.items(_("Voti"), [_vote_line(w, v) for v in phase["votes"]])
    w.items(_("Voto segreto"), [_vote_line(w, v) for v in phase["secret_votes"]])
    kinds = {"kill": _("uccide"), "spare": _("salva")}
    w.items(_("Correzioni del master"), [
        f"{kinds.get(o['kind'], o['kind'])} {w.esc(o['player'])}"
        + (" " + _("(durante %(step)s)") % {"step": step_name(setup, o["step"])}
           if o.get("step") else "")
        + f": {w.esc(o['reason'])}"
        for o in phase["overrides"]
    ])  # fmt: skip
    w.items(_("Esito"), _outcome(w, phase, setup))
    w.items(_("Informazioni private"),
            [f"{w.esc(r['to'])}: {w.esc(r['text'])}" for r in phase["results"]])  # fmt: skip
    w.close()


def _wills(w: _Writer, wills: list[dict[str, Any]]) -> None:
    if not wills:
        return
    w.open(_("Testamenti"))
    for will in wills:
        w.lines.append(w.bold(w.esc(will["author"])))
        w.quote([w.esc(line) for line in will["text"].splitlines()] or ["—"])
        if will["cut"]:
            w.lines.append(_("Consegnato tagliato: %(dropped)s parole non riportate.")
                           % {"dropped": will["dropped"]})  # fmt: skip
            w.lines.append("")
        delivered = ", ".join(f"{w.esc(d['to'])} ({d['phase']})" for d in will["delivered_to"])
        w.lines += [_("Consegnato dal Notaio a") + ": " + (delivered or _("nessuno")), ""]
    w.close()


def spoiler_post(data: dict[str, Any], fmt: str) -> str:
    """The spoiler ``data`` (games.selectors.spoiler, built in the active language) as a
    forum post in ``fmt``."""
    w = _Writer(fmt)
    w.lines += [w.bold(f"Spoiler — {w.esc(data['game'])}"), ""]
    winners = ", ".join(w.esc(n) for n in data["winners"] or []) or "—"
    sides = factions(data["setup"], data["winning_factions"])
    w.lines += [_("Vincitori") + f": {winners}" + (f" ({sides})" if sides else ""), ""]
    w.open(_("Ruoli"))
    w.items(_("Ruoli"), [
        f"{w.esc(p['name'])}"
        + (f" ({_('prima')}: {w.esc(', '.join(p['previous_names']))})"
           if p["previous_names"] else "")
        + f": {w.esc(p['role_name'])}"
        for p in data["players"]
    ])  # fmt: skip
    w.items(_("Sa all'inizio"), [f"{w.esc(r['to'])}: {w.esc(r['text'])}"
                                 for r in data["start_told"]])  # fmt: skip
    w.close()
    for phase in data["story"]:
        _phase(w, phase, data["setup"])
    _wills(w, data["wills"])
    return "\n".join(w.lines).strip() + "\n"
