"""The start of the powers framework (DESIGN.md "Powers"): data/powers.json and dunenb.powers (who holds a power
now: the owner while in play, the borrower of a lend in force, nobody once the owner is eliminated)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from dunenb.engine import new_game
from dunenb.errors import RulesDataError
from dunenb.powers import holder, holds_power, is_in_play, lendable_powers, load_powers, owner
from dunenb.powers.registry import parse_powers
from dunenb.rules.lent_powers import LENDABLE_POWERS
from dunenb.state import LentPower

HOUSES_MD = Path("/work/shared/spec/houses.md")


def test_every_declared_power_is_a_houses_md_power_of_its_holder():
    if not HOUSES_MD.exists():
        pytest.skip("the spec is not on this machine")
    text = HOUSES_MD.read_text(encoding="utf-8")
    for power in load_powers().values():
        assert re.search(rf"\*\*{re.escape(power.id)} ", text), power.id
    assert owner("BG-P3") == "bene-gesserit" and owner("GUILD-P1") == "guild"


def test_the_lendable_powers_are_the_income_powers_and_lent_powers_reads_them_from_data():
    assert lendable_powers() == LENDABLE_POWERS == {"EMPEROR-P1": "emperor", "GUILD-P1": "guild",
                                                    "TLEILAX-P1": "bene-tleilax"}


def test_a_house_not_at_the_table_or_eliminated_is_not_in_play_and_holds_nothing():
    state = new_game(["fremen", "guild"], seed=1)
    assert is_in_play(state, "guild") and not is_in_play(state, "emperor")
    assert holder(state, "EMPEROR-P1") is None
    fallen = dataclasses.replace(state, eliminated=("fremen",))
    assert [holder(fallen, p) for p in ("FREMEN-P1", "FREMEN-P4", "FREMEN-P5")] == [None, None, None]


def test_alliance_12_a_lend_in_force_goes_to_its_borrower_unless_the_borrower_is_eliminated():
    state = new_game(["emperor", "atreides", "guild"], seed=1)
    lent = dataclasses.replace(state, lent_powers=(LentPower("GUILD-P1", "guild", "atreides", 1, 2, 0),))
    assert holder(lent, "GUILD-P1") == "atreides" and holds_power(lent, "atreides", "GUILD-P1")
    assert not holds_power(lent, "guild", "GUILD-P1")
    assert holder(dataclasses.replace(lent, turn=3), "GUILD-P1") == "guild"  # its turns are over
    assert holder(dataclasses.replace(lent, eliminated=("atreides",)), "GUILD-P1") == "guild"
    assert holder(dataclasses.replace(lent, eliminated=("guild",)), "GUILD-P1") is None


@pytest.mark.parametrize(("raw", "code"), [
    ({"format": "nope"}, "powers/format"),
    ({"format": "dunenb.powers/2", "powers": [{"id": "fremen p1", "holder": "fremen"}]}, "powers/id"),
    ({"format": "dunenb.powers/2", "powers": [{"id": "X-P1", "holder": "fremen"}] * 2}, "powers/duplicate"),
    ({"format": "dunenb.powers/2", "powers": [{"id": "X-P1", "holder": "nobody"}]}, "powers/holder"),
    ({"format": "dunenb.powers/2", "powers": [{"id": "X-P1", "holder": "guild", "lendable": "yes"}]},
     "powers/lendable"),
])
def test_bad_powers_data_is_refused_naming_the_entry(raw, code):
    with pytest.raises(RulesDataError) as info:
        parse_powers(raw)
    assert info.value.code == code


def test_an_undeclared_power_is_an_error_naming_the_declared_ones():
    with pytest.raises(RulesDataError) as info:
        owner("FREMEN-P9")
    assert info.value.code == "powers/unknown" and "FREMEN-P1" in info.value.message
