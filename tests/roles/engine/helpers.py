"""Small builders for engine tests that drive the rulesets directly."""

from __future__ import annotations

from roles.engine.model import Action, Correction, GameState, Vote
from roles.engine.registry import ruleset_for

WWW_TABLE = {
    "Sam": "sceriffo", "Mar": "maresciallo", "Pao": "pastore", "Mia": "maestrina",
    "Nora": "notaio", "Vito": "vicesceriffo", "Carla": "cowboy", "Gino": "cowboy",
    "Anna": "cowboy", "Bruno": "bandito", "Pietro": "pistolero", "Capo": "capo_indiano",
    "Sara": "sciamano", "Ivan": "indiano", "Cac": "cacciatore_di_taglie", "Pia": "pianista",
}  # fmt: skip
INQ_TABLE = {
    "Sara": "veggente", "Paolo": "postino", "Becco": "becchino", "Gina": "guardia_gemella",
    "Gianni": "guardia_gemella", "Carlo": "contadino", "Rita": "contadino", "Anna": "contadino",
    "Bruno": "contadino", "Marco": "contadino", "Ugo": "contadino", "Ivo": "inquisitore",
    "Bea": "boia", "Tea": "templare", "Luca": "lupo_mannaro", "Lia": "lupo_mannaro",
    "Leo": "lupo_mannaro", "Zeno": "lupo_scorbutico", "Mara": "martire",
}  # fmt: skip


def www(**options) -> GameState:
    state, _ = ruleset_for("wild-west-wolf").new_game(
        WWW_TABLE, options={f"www.{k}": v for k, v in options.items()},
        draws={"bounty_target": "Carla"},
    )  # fmt: skip
    return state


def inq(**options) -> GameState:
    state, _ = ruleset_for("inquisizione").new_game(
        INQ_TABLE, options={f"inq.{k}": v for k, v in options.items()}
    )
    return state


def play(state: GameState, label: str, actions=(), votes=(), wills=None, corrections=(),
         rules=None):  # fmt: skip
    """Play one phase; ``corrections`` are the GM's, as mappings (kind, player, step)."""
    rules = rules or ruleset_for(state.setup)
    return rules.play(
        state, label,
        actions=[Action(**a) for a in actions],
        votes=[Vote(at=i, **v) for i, v in enumerate(votes)],
        wills=wills,
        corrections=[Correction(reason="GM", **c) for c in corrections],
    )  # fmt: skip


def kill(state: GameState, *names: str) -> None:
    """Mark players dead without a phase, to test formulas on a crafted table."""
    for name in names:
        state.by_name[name].alive = False
