"""A setup is one package: its role keys, its result kinds and its name appear nowhere in
the generic engine or in the site, which ask the ruleset for everything (forms, labels,
limits, votes, the sentence of each result)."""

from __future__ import annotations

import re

import pytest

from roles.engine.messages import RESULTS as GENERIC_RESULTS
from roles.engine.registry import ruleset_for
from roles.engine.setups import SetupError, available_setups, load_setup
from tests.conftest import ROOT

# The referee desks' own pages (BANG! con Il Ribelle!, the Time Car: other games than the
# Werewolf rulesets, with their own role names) are kept in games/ for now, not generic.
DESK_PAGES = ("games/ribelle_", "games/adt_", "templates/games/ribelle/", "templates/games/adt/")
GENERIC = [
    *ROOT.glob("roles/engine/*.py"), ROOT / "roles" / "replay.py",
    *ROOT.glob("roles/management/**/*.py"), *ROOT.glob("gm/**/*.py"),
    *(p for p in ROOT.glob("games/**/*.py") if "migrations" not in p.parts),
    *ROOT.glob("templates/**/*.html"), *ROOT.glob("static/**/*.js"),
]  # fmt: skip
# Words of shared/spec/scenarios.md's own vocabulary that happen to equal a role key or a
# result kind: the seen-as value `indiano`, the scenario's `wills` input and an action's
# `vision` field are the spec's, not a setup's.
SPEC_WORDS = {"rinnegato", "indiano", "wills", "vision"}
# The balance lab's informed players read the spec's revealing result kinds by name
# (`investigation`, `vision`, `knows`: shared/spec/scenarios.md's vocabulary, not a setup's).
LAB = ("roles/balance/informed.py",)


def setup_words() -> dict[str, str]:
    words = {}
    for key in available_setups():
        words[key] = key
        for role in load_setup(key).cards:
            words[role] = key
        try:
            kinds = ruleset_for(key).result_kinds
        except SetupError:  # a setup of data alone (a referee desk)
            continue
        words.update({kind: key for kind in kinds if kind not in GENERIC_RESULTS})
    return words


def test_no_role_key_or_setup_name_outside_its_package():
    words = {w: k for w, k in setup_words().items() if w not in SPEC_WORDS}
    alternatives = "|".join(map(re.escape, words))
    pattern = re.compile(rf"""["']({alternatives})["']""")
    found = []
    for path in GENERIC:
        if str(path.relative_to(ROOT)).startswith((*DESK_PAGES, *LAB)):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{number}: {m}" for m in pattern.findall(line)]
    assert found == []


def test_a_test_package_is_a_setup_like_the_shipped_ones():
    assert {"wild-west-wolf", "inquisizione", "classic-village"} <= set(available_setups())
    rules = ruleset_for("classic-village")
    assert rules.night_order == ("guardia", "lupi", "veggente")
    assert rules.setup.options["cv.reveal_all_at_end"] is True  # the common defaults


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (("guardia", "lupi", "veggente", "strega"), "night step 'strega' has no function"),
        (("guardia", "lupi"), "night_order must name each step once"),
    ],
)
def test_the_contract_is_checked_with_clear_messages(order, message):
    rules = type(ruleset_for("classic-village"))
    with pytest.raises(SetupError, match=message):
        rules(night_order=order)
