"""What the rules remember between phases is typed state: delayed effects are statuses with
the phase they act in, standing facts are statuses without one, past targets and the deal's
draws are fields of the state (issue 11 §4). Each test also checks the rule it serves."""

from __future__ import annotations

import dataclasses

import pytest

from roles.engine.errors import RuleViolation
from roles.engine.mechanics import PACK_BLOCKED
from roles.engine.model import Correction, GameState, PastTargets, Status
from roles.engine.statuses import SharedStatus, StatusKind
from roles.inquisizione.statuses import LAST_WOLF, MAULED_FARMERS, InquisizioneStatus
from roles.wild_west_wolf.statuses import WildWestWolfStatus
from tests.roles.engine.helpers import inq, play, www


def test_the_state_has_no_untyped_memory():
    """Every fact a rule remembers has its own typed field (as
    the site's snapshot needs)."""
    assert "memory" not in GameState.__dataclass_fields__
    state = www()
    assert state.draws == {"bounty_target": "Carla"}  # WWW-R79


def test_a_status_and_a_correction_are_frozen_dataclasses():
    """Issue 33 §5: a status (with its value) and a GM's correction are small frozen
    dataclasses: a value, compared and hashed by its fields, never changed in place."""
    status = Status(MAULED_FARMERS, None, None, ("Rita",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        status.value = ("Carlo",)  # type: ignore[misc]
    assert status == Status(MAULED_FARMERS, value=("Rita",))
    assert hash(status) == hash(Status(MAULED_FARMERS, value=("Rita",)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        Correction("kill", "Ada").step = "lupi"  # type: ignore[misc]


def test_each_setup_files_its_statuses_under_its_own_enum():
    """Issue 33 §5: status kinds are an enum per setup (and one for the shared mechanics);
    what a game of each setup remembers is filed under those members."""
    assert issubclass(WildWestWolfStatus, StatusKind)
    assert issubclass(InquisizioneStatus, StatusKind)
    www_state = www()
    play(www_state, "N0", [{"actor": "Pia", "fake_role": "cowboy"}])  # WWW-R90
    play(www_state, "D1", votes=[{"voter": "Sam", "target": "Capo"}])  # WWW-R69, R35
    inq_state = inq()
    play(inq_state, "N0", [{"actor": "Tea", "target": "Paolo"}])  # INQ-R50
    play(inq_state, "D1")
    play(inq_state, "N1", [{"actor": "Luca", "target": "Mara"}])  # INQ-R61
    for state, kinds in ((www_state, WildWestWolfStatus), (inq_state, InquisizioneStatus)):
        assert state.statuses
        for kind, status in state.statuses.items():
            assert type(kind) in (kinds, SharedStatus), kind
            assert status.kind is kind
    assert set(www_state.statuses) == {
        WildWestWolfStatus.FAKE_ROLE_CHOSEN, WildWestWolfStatus.EXECUTED,
        WildWestWolfStatus.REVENGE,
    }  # fmt: skip
    assert set(inq_state.statuses) == {InquisizioneStatus.DESIGNATION, SharedStatus.PACK_BLOCKED}


def test_the_last_wolf_is_told_once_and_the_fact_stands():
    """INQ-R58: the Lupo Scorbutico is told once, as the last Lupo Mannaro dies; the fact
    is a standing status (no phase: it never expires)."""
    state = inq()
    play(state, "N0")
    told = []
    for day, wolf in (("D1", "Luca"), ("D2", "Lia"), ("D3", "Leo")):
        out = play(state, day, votes=[{"voter": "Carlo", "target": wolf}])
        told += [r for r in out.results if r.kind == "last_wolf"]
        out = play(state, f"N{day[1:]}")
        told += [r for r in out.results if r.kind == "last_wolf"]
    assert [(r.to, r.value) for r in told] == [("Zeno", True)]
    assert state.statuses[LAST_WOLF] == Status(LAST_WOLF, None, "Zeno")


def test_the_martire_block_is_a_status_for_the_next_night_only():
    """INQ-R61, R62: the mauled Martire blocks the maul on the next night, and only then."""
    state = inq()
    play(state, "N0")
    play(state, "D1")
    play(state, "N1", [{"actor": "Luca", "target": "Mara"}])
    assert state.statuses[PACK_BLOCKED] == Status(PACK_BLOCKED, 4, "Mara")  # N2 is phase 4
    play(state, "D2")
    with pytest.raises(RuleViolation, match="INQ-R61"):
        play(state, "N2", [{"actor": "Luca", "target": "Rita"}])
    play(state, "N2")
    play(state, "D3")
    out = play(state, "N3", [{"actor": "Luca", "target": "Rita"}])
    assert [(d.player, d.cause) for d in out.deaths] == [("Rita", "pack")]
    assert PACK_BLOCKED not in state.statuses  # expired once its night had passed


def test_past_targets_are_typed_per_user():
    """WWW-R37, R43: the Maestrina's last target and the Notaio's every recipient."""
    state = www()
    play(state, "N0")
    play(state, "D1")
    play(state, "N1", [{"actor": "Mia", "target": "Gino"}, {"actor": "Nora", "target": "Anna"}])
    assert state.targets[("accompany", "Mia")] == PastTargets(1, "Gino", ["Gino"])
    assert state.targets[("deliver", "Nora")] == PastTargets(1, "Anna", ["Anna"])
    play(state, "D2")
    with pytest.raises(RuleViolation, match="WWW-R37"):
        play(state, "N2", [{"actor": "Mia", "target": "Gino"}])
    play(state, "N2", [{"actor": "Mia", "target": "Anna"}, {"actor": "Nora", "target": "Gino"}])
    assert state.targets[("deliver", "Nora")] == PastTargets(2, "Gino", ["Anna", "Gino"])


def test_wills_delivered_since_the_last_delivery_are_a_field():
    """WWW-D22 (since_last): each will goes out once; the delivered authors are remembered."""
    state = www(notary_delivery="since_last")
    play(state, "N0")
    play(state, "D1", votes=[{"voter": "Sam", "target": "Gino"}], wills={"Gino": "addio"})
    out = play(state, "N1", [{"actor": "Nora", "target": "Anna"}])
    assert [(r.to, r.value) for r in out.results if r.kind == "wills"] == [("Anna", ["Gino"])]
    assert state.wills_delivered == {"Gino"}
    play(state, "D2")
    out = play(state, "N2", [{"actor": "Nora", "target": "Mar"}])
    assert [r for r in out.results if r.kind == "wills"] == []
