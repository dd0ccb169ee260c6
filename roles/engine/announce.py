"""The public posts, in Italian (default) or English (the engine's catalogue).

Only what the rules make public: names of the dead (no roles, no causes unless a
DECISION option says so), the public votes at face value (never the Boia's secret
vote or weights, INQ-D7), the bounty hunter's reveal (WWW-R82), and at the end the
winners and every role (WWW-D28, INQ-D24).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from roles.engine.messages import _, engine_catalogue
from roles.engine.model import GameState, PhaseOutcome
from roles.engine.registry import ruleset_for
from roles.engine.setups import label as in_language
from roles.engine.setups import load_setup
from roles.engine.votes import public_tally

# The posts' lines: the English template (the gettext msgid); the Italian is the engine's
# catalogue, roles/engine/locale/it/LC_MESSAGES/django.po, read without Django.
TEXT = {
    "start": _("The game begins: {setup}, {n} players. Night 0 falls."),
    "dawn": _("Dawn of Day {day}."),
    "died": _("Tonight these players died: {names}."),
    "died_one": _("Tonight {names} died."),
    "nobody_died": _("Nobody died tonight."),
    "tally": _("Vote count of Day {day}:"),
    "not_voting": _("Not voting: {names}."),
    "executed": _("{name} is executed."),
    "no_execution": _("No execution."),
    "also_died": _("{names} also died."),
    "night_falls": _("Night {night} falls."),
    "end": _("The game is over. Winning side: {factions}."),
    "winners": _("Winners: {names}."),
    "roles": _("The roles:"),
    "nobody": _("nobody"),
    "totals": _("Weighted totals: {totals}."),
}


@cache
def post_texts(lang: str = "it") -> dict[str, str]:
    """The posts' lines in ``lang`` (Italian for a language without its catalogue)."""
    words = engine_catalogue(lang)
    return {key: words.gettext(template) for key, template in TEXT.items()}


def role_name(key: str, setup_key: str, lang: str = "it") -> str:
    """The card's title in ``lang``, as the setup's YAML gives it."""
    card = load_setup(setup_key).cards.get(key)
    return card.title(lang) if card else key.replace("_", " ").capitalize()


def cause_label(setup_key: str, cause: str, lang: str = "it") -> str:
    """A cause of death in words (the setup's ``causes``, over the generic ones)."""
    labels = load_setup(setup_key).causes.get(cause)
    return in_language(labels, lang) if labels else cause


def _names(names: list[str]) -> str:
    return ", ".join(names)


@dataclass
class Post:
    """A public post in parts, so each medium can format it (plain, BBCode, Markdown)."""

    title: str
    tally: list[tuple[str, list[str]]] = field(default_factory=list)  # target, voters
    not_voting: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # the verdict: deaths, execution
    closing: str = ""  # "Night k falls."
    end: list[str] = field(default_factory=list)  # winners and roles, at the end
    roles: list[tuple[str, str]] = field(default_factory=list)  # name, role title


def post(state: GameState, outcome: PhaseOutcome, lang: str = "it") -> Post:
    """The public post for ``outcome`` (the phase just resolved)."""
    t = post_texts(lang)
    label = outcome.phase
    rules = ruleset_for(state.setup)
    reveal = rules.opt(state, "reveal_role_on_death")
    with_cause = rules.opt(state, "announce_cause_of_death")
    causes = {d.player: d.cause for d in outcome.deaths}
    setup = load_setup(state.setup)

    def shown(name: str) -> str:
        # a death reveals the role the player was told he has (the Vicesceriffo shows as a
        # Cowboy: WWW-R52, WWW-D34); the end of the game tells the truth (reveal_all_at_end)
        role = state.by_name[name].role
        card = setup.cards.get(role)
        notes = [role_name(card.told_as if card else role, state.setup, lang)] if reveal else []
        if with_cause and name in causes:
            notes.append(cause_label(state.setup, causes[name], lang))
        return f"{name} ({', '.join(notes)})" if notes else name

    if label == "setup":
        return Post(t["start"].format(setup=setup.name, n=len(state.players)))
    if label.startswith("N"):
        result = Post(t["dawn"].format(day=int(label[1:]) + 1))
        dead = [shown(d.player) for d in outcome.deaths]
        if not dead:
            result.lines.append(t["nobody_died"])
        else:
            died = t["died_one"] if len(dead) == 1 else t["died"]
            result.lines.append(died.format(names=_names(dead)))
    else:
        result = Post(t["tally"].format(day=int(label[1:])))
        tally = public_tally(outcome.public_votes)
        for target, ballots in sorted(tally.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            result.tally.append((target, [b.voter for b in ballots]))
        voters = {b.voter for ballots in tally.values() for b in ballots}
        died_today = {d.player for d in outcome.deaths}
        result.not_voting = [
            p.name
            for p in state.players
            if p.name not in voters and (p.alive or p.name in died_today)
        ]
        if state.options.get(f"{rules.prefix}publish_weighted_tally") and outcome.execution:
            totals = ", ".join(f"{n} {v}" for n, v in outcome.execution.totals.items())
            result.lines.append(t["totals"].format(totals=totals or t["nobody"]))
        executed = outcome.execution.executed if outcome.execution else None
        verdict = t["executed"].format(name=shown(executed)) if executed else t["no_execution"]
        result.lines.append(verdict)
        others = [
            shown(d.player) for d in outcome.deaths if d.player != executed and d.cause != "left"
        ]
        if others:
            result.lines.append(t["also_died"].format(names=_names(others)))
        result.lines.extend(
            in_language(setup.texts["left"], lang).format(name=name) for name in outcome.departed
        )
        if state.winning_factions is None:
            result.closing = t["night_falls"].format(night=int(label[1:]))
    if state.winning_factions is not None:
        factions = _names([setup.faction(f, lang) for f in state.winning_factions])
        result.end = [
            t["end"].format(factions=factions),
            t["winners"].format(names=_names(state.winners or []) or t["nobody"]),
        ]
        if rules.opt(state, "reveal_all_at_end"):
            for p in state.players:
                role = role_name(p.role, state.setup, lang)
                if p.role != p.dealt_role:
                    role = f"{role_name(p.dealt_role, state.setup, lang)} → {role}"
                result.roles.append((p.name, role))
    return result


def plain(post: Post, lang: str = "it") -> str:
    """The post as plain text (the replay's announcement)."""
    t = post_texts(lang)
    lines = [post.title]
    lines += [f"{target} ({len(voters)}): {_names(voters)}" for target, voters in post.tally]
    if post.not_voting:
        lines.append(t["not_voting"].format(names=_names(post.not_voting)))
    lines += post.lines
    if post.closing:
        lines.append(post.closing)
    if post.end:
        lines += ["", *post.end]
        if post.roles:
            lines.append(t["roles"])
            lines += [f"{name}: {role}" for name, role in post.roles]
    return "\n".join(lines)


def announce(state: GameState, outcome: PhaseOutcome, lang: str = "it") -> str:
    """The public post for ``outcome`` as plain text."""
    return plain(post(state, outcome, lang), lang)
