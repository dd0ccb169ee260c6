"""The public posts, in Italian (default) or English.

Only what the rules make public: names of the dead (no roles, no causes unless a
DECISION option says so), the public votes at face value (never the Boia's secret
vote or weights, INQ-D7), the bounty hunter's reveal (WWW-R82), and at the end the
winners and every role (WWW-D28, INQ-D24).
"""

from __future__ import annotations

from roles.engine.model import GameState, PhaseOutcome
from roles.engine.registry import ruleset_for
from roles.engine.setups import load_setup
from roles.engine.votes import public_tally

TEXT = {
    "it": {
        "start": "Inizia la partita: {setup}, {n} giocatori. Cala la Notte 0.",
        "dawn": "Alba del Giorno {day}.",
        "died": "Stanotte sono morti: {names}.",
        "died_one": "Stanotte è morto {names}.",
        "nobody_died": "Stanotte non è morto nessuno.",
        "tally": "Votazione del Giorno {day}:",
        "not_voting": "Non votano: {names}.",
        "executed": "Viene giustiziato {name}.",
        "no_execution": "Nessuna esecuzione.",
        "also_died": "Muore anche {names}.",
        "left": "{name} era il Cacciatore di taglie: riscuote la taglia e lascia il villaggio.",
        "night_falls": "Cala la Notte {night}.",
        "end": "Fine della partita. Vince: {factions}.",
        "winners": "Vincitori: {names}.",
        "roles": "I ruoli:",
        "nobody": "nessuno",
        "totals": "Totali pesati: {totals}.",
        "causes": {
            "executed": "giustiziato",
            "pack": "ucciso nella notte",
            "pistolero": "colpito da uno sparo",
            "recruit_backfire": "colpito sul posto",
            "guilt": "morto di rimorso",
            "templare": "colpito dal Templare",
        },
    },
    "en": {
        "start": "The game begins: {setup}, {n} players. Night 0 falls.",
        "dawn": "Dawn of Day {day}.",
        "died": "Tonight these players died: {names}.",
        "died_one": "Tonight {names} died.",
        "nobody_died": "Nobody died tonight.",
        "tally": "Vote count of Day {day}:",
        "not_voting": "Not voting: {names}.",
        "executed": "{name} is executed.",
        "no_execution": "No execution.",
        "also_died": "{names} also died.",
        "left": "{name} was the Bounty Hunter: he collects the bounty and leaves the village.",
        "night_falls": "Night {night} falls.",
        "end": "The game is over. Winning side: {factions}.",
        "winners": "Winners: {names}.",
        "roles": "The roles:",
        "nobody": "nobody",
        "totals": "Weighted totals: {totals}.",
        "causes": {
            "executed": "executed",
            "pack": "killed in the night",
            "pistolero": "shot",
            "recruit_backfire": "shot on the spot",
            "guilt": "died of guilt",
            "templare": "struck by the Templar",
        },
    },
}
FACTIONS = {
    "legge": "Legge", "fuorilegge": "Fuorilegge", "indiani": "Indiani",
    "eresia": "Eresia", "inquisizione": "Inquisizione", "branco": "Branco",
}  # fmt: skip


def role_name(key: str, setup_key: str) -> str:
    """The card's title: 'capo_indiano' -> 'Capo indiano'."""
    card = load_setup(setup_key).cards.get(key)
    return card.name if card else key.replace("_", " ").capitalize()


def _names(names: list[str]) -> str:
    return ", ".join(names)


def announce(state: GameState, outcome: PhaseOutcome, lang: str = "it") -> str:
    """The public post for ``outcome`` (the phase just resolved), as plain text."""
    t = TEXT.get(lang, TEXT["it"])
    lines: list[str] = []
    label = outcome.phase
    rules = ruleset_for(state.setup)
    reveal = rules.opt(state, "reveal_role_on_death")
    with_cause = rules.opt(state, "announce_cause_of_death")
    causes = {d.player: d.cause for d in outcome.deaths}
    setup = load_setup(state.setup)

    def shown(name: str) -> str:
        notes = [role_name(state.by_name[name].role, state.setup)] if reveal else []
        if with_cause and name in causes:
            notes.append(t["causes"][causes[name]])
        return f"{name} ({', '.join(notes)})" if notes else name

    if label == "setup":
        lines.append(t["start"].format(setup=setup.name, n=len(state.players)))
    elif label.startswith("N"):
        night = int(label[1:])
        dead = [shown(d.player) for d in outcome.deaths]
        lines.append(t["dawn"].format(day=night + 1))
        if not dead:
            lines.append(t["nobody_died"])
        else:
            lines.append(
                (t["died_one"] if len(dead) == 1 else t["died"]).format(names=_names(dead))
            )
    else:
        day = int(label[1:])
        lines.append(t["tally"].format(day=day))
        tally = public_tally(outcome.public_votes)
        for target, ballots in sorted(tally.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            lines.append(f"{target} ({len(ballots)}): {_names([b.voter for b in ballots])}")
        voters = {b.voter for ballots in tally.values() for b in ballots}
        died_today = {d.player for d in outcome.deaths}
        silent = [
            p.name
            for p in state.players
            if p.name not in voters and (p.alive or p.name in died_today)
        ]
        if silent:
            lines.append(t["not_voting"].format(names=_names(silent)))
        if state.options.get(f"{rules.prefix}publish_weighted_tally") and outcome.execution:
            totals = ", ".join(f"{n} {v}" for n, v in outcome.execution.totals.items())
            lines.append(t["totals"].format(totals=totals or t["nobody"]))
        executed = outcome.execution.executed if outcome.execution else None
        lines.append(t["executed"].format(name=shown(executed)) if executed else t["no_execution"])
        others = [
            shown(d.player) for d in outcome.deaths if d.player != executed and d.cause != "left"
        ]
        if others:
            lines.append(t["also_died"].format(names=_names(others)))
        for name in outcome.departed:
            lines.append(t["left"].format(name=name))
    if state.winning_factions is not None and label != "setup":
        lines.append("")
        factions = _names([FACTIONS.get(f, f) for f in state.winning_factions])
        lines.append(t["end"].format(factions=factions))
        lines.append(t["winners"].format(names=_names(state.winners or []) or t["nobody"]))
        if rules.opt(state, "reveal_all_at_end"):
            lines.append(t["roles"])
            for p in state.players:
                role = role_name(p.role, state.setup)
                if p.role != p.dealt_role:
                    role = f"{role_name(p.dealt_role, state.setup)} → {role}"
                lines.append(f"{p.name}: {role}")
    elif label.startswith("D") and outcome.execution is not None:
        lines.append(t["night_falls"].format(night=int(label[1:])))
    return "\n".join(lines)
