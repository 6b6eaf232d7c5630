"""The leader roster as data (leaders.md section 2, houses.md main leaders)."""

from __future__ import annotations

import pytest

from dunenb.battle.roster import HOUSES, load_roster, roster_as_json
from dunenb.errors import InputError


def test_roster_has_96_secondary_and_8_main_leaders():
    roster = load_roster()
    assert len([leader for leader in roster.leaders if not leader.main]) == 96
    assert len([leader for leader in roster.leaders if leader.main]) == 8
    for house in HOUSES:
        assert len(roster.of_house(house)) == 13


@pytest.mark.parametrize(("house", "name", "strength", "sex"), [
    ("atreides", "Paul", 8, "M"), ("harkonnen", "Vladimir", 4, "M"), ("fremen", "Liet Kynes", 6, "M"),
    ("emperor", "Shaddam IV", 7, "M"), ("guild", "Grand Navigateur", 6, "M"), ("dispersion", "Dama", 8, "F"),
    ("bene-gesserit", "Gaïus Hélen Mohiam", 6, "F"), ("bene-tleilax", "Tylwyth Waff", 5, "M"),
])
def test_main_leaders_follow_houses_md(house, name, strength, sex):
    main = load_roster().main_leader(house)
    assert (main.name, main.strength, main.sex) == (name, strength, sex)


def test_leaders_md_samples_and_decisions():
    roster = load_roster()
    assert roster.find("duncan-idaho", house="atreides").strength == 6          # L1043
    assert roster.find("lucille").strength == 6                                  # D-3
    assert roster.find("murbella", house="bene-gesserit").strength == 10         # D-4
    assert roster.find("hellica").guess is not None                              # D-2
    assert roster.find("stilgar", house="fremen").guess == "guess"               # D-1
    assert roster.find("Léto II", house="atreides").id == "leto-ii"


def test_leader_powers_implemented_flags_the_leaders_whose_every_power_acts():
    """Issue 11: ``powers_implemented`` is true when every power of the leader is applied (the value kinds
    K-1..K-5, and the traits and specials of K-20..K-25 applied so far), e.g. Farok (FREMEN-L09-a/b/c) and
    Stilgar (S-1 too), Alma (S-3 "Alma as X" too, GAP-141); false for main leaders."""
    data = roster_as_json()
    first = data["leaders"][0]
    assert {"id", "name", "house", "strength", "sex", "main"} <= set(first)
    flags = {(leader["house"], leader["id"]): leader["powers_implemented"] for leader in data["leaders"]}
    assert flags[("fremen", "farok")] is True and flags[("fremen", "stilgar")] is True
    assert flags[("bene-gesserit", "alma")] is True  # S-3 is applied (GAP-141)
    assert all(leader["powers_implemented"] for leader in data["leaders"] if not leader["main"])  # issue 11
    assert not any(leader["powers_implemented"] for leader in data["leaders"] if leader["main"])
    powers = sum(len(leader["powers"]) for leader in data["leaders"] if not leader["main"])
    assert powers == 348  # leaders.md: "96 leaders with 348 power IDs"


def test_ambiguous_and_unknown_names_are_errors():
    with pytest.raises(InputError) as error:
        load_roster().find("gurney")
    assert error.value.code == "leader/ambiguous"
    with pytest.raises(InputError) as error:
        load_roster().find("nobody", house="atreides")
    assert "duncan-idaho" in str(error.value)


def test_k_21_on_call_effects_are_leader_data():
    """EMPEROR-L11-a is declared on Ziarenko E11 (data/leaders.json traitor_traits.on_call), not in code."""
    roster = load_roster()
    ziarenko = roster.find("ziarenko", house="emperor")
    assert ziarenko.always_traitor_of == ("harkonnen",)
    assert [(e.power, e.kind, e.spice) for e in ziarenko.on_traitor_call] == [("EMPEROR-L11-a", "bank_pays_owner", 10)]
    assert roster.find("ziarenko", house="harkonnen").on_traitor_call == ()
