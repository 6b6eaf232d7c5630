"""Harkonnen and Tleilax main-leader and House powers (issue 10 items 2 and 4): HARKONNEN-M3 (Vladimir's minions),
TLEILAX-M1 (Waff's pistol) and KARAMA-37, TLEILAX-M2 (regenerations) and KARAMA-38, HARKONNEN-P4 (capture) and
KARAMA-47, HARKONNEN-M2 (buy-off) and KARAMA-49, HARKONNEN-M1 (a new traitor) and KARAMA-48, TLEILAX-P5; and the
battle-case facts they need (``dead``, ``blocked``, ``regenerations``, ``captured``)."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from dunenb.analysis.battle_odds import plan_matrix
from dunenb.battle.case import case_json, parse_case
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.powers import leader_values
from dunenb.battle.resolve import resolve_battle, resolve_with_rolls
from dunenb.battle.wheel import Dial, Tokens
from dunenb.errors import InputError
from dunenb.rules.traitors import leader_of

VLADIMIR = leader_of("harkonnen", "vladimir")
STILGAR = leader_of("fremen", "stilgar")


def case(first: dict, second: dict, defender: str | None = None) -> dict:
    return {"format": "dunenb.battle/1", "territory": "carthag", "defender": defender or first["house"],
            "sides": [first, second]}


def side(house: str, leader, regular: int = 0, tokens: int = 10, **more) -> dict:
    return {"house": house, "tokens": {"regular": tokens}, "dial": {"regular": regular}, "leader": leader, **more}


# --- HARKONNEN-M3 ----------------------------------------------------------------------------------------------

def test_harkonnen_m3_vladimir_counts_4_plus_his_living_minions():
    houses = ("harkonnen", "fremen")
    assert leader_values(houses, (VLADIMIR, STILGAR), 0) == (10, 7)  # 4 + 3 + 2 + 1
    dead = (frozenset({"iakin-nefud"}), frozenset())
    assert leader_values(houses, (VLADIMIR, STILGAR), 0, dead=dead) == (7, 7)
    feyd = leader_of("harkonnen", "feyd-rautha")
    assert leader_values(houses, (feyd, STILGAR), 0)[0] == 6  # only in a battle Vladimir leads


def test_harkonnen_m3_dead_minions_change_the_case_outcome():
    """Vladimir (10) and 2 tokens without spice (1) against Stilgar (7) and 5 (2.5): 11 beats 9.5; with Iakin
    Nefud and Iliako dead Vladimir counts 5 and loses, 6 against 9.5 (the case field ``dead``)."""
    base = case(side("harkonnen", "vladimir", 2), side("fremen", "stilgar", 5))
    assert case_json(parse_case(base))["outcomes"][0]["winner"] == "harkonnen"
    fallen = copy.deepcopy(base)
    fallen["sides"][0]["dead"] = ["Iakin Néfud", "iliako"]
    result = case_json(parse_case(fallen))["outcomes"][0]
    assert result["winner"] == "fremen" and result["sides"]["harkonnen"]["total"] == 6
    # the analyzer applies the fact too: the same plans win less often with two minions dead
    assert plan_matrix(parse_case(fallen)).array("win_first").mean() < plan_matrix(parse_case(base)).array(
        "win_first").mean()


def test_case_dead_errors_name_the_field():
    for bad, words in ((["fremen:stilgar"], "fremen leader"), (["vladimir"], "main leader"),
                       (["nobody"], r"dead\[0\]")):
        raw = case(side("harkonnen", "feyd-rautha", 2, dead=bad), side("fremen", "stilgar", 5))
        with pytest.raises(InputError, match=words):
            parse_case(raw)
    raw = case(side("harkonnen", "feyd-rautha", 2, dead=["feyd-rautha"]), side("fremen", "stilgar", 5))
    with pytest.raises(InputError, match="dead and on the wheel"):
        parse_case(raw)


# --- TLEILAX-M1 and KARAMA-37 ------------------------------------------------------------------------------------

def waff_case(**waff) -> dict:
    return case(side("bene-tleilax", "tylwyth-waff", 3, weapon="poison-fast", **waff),
                side("fremen", "stilgar", 4, defense="snooper"), defender="fremen")


def test_tleilax_m1_waffs_pistol_kills_besides_his_poison():
    """The snooper stops Waff's poison, but his distance projectile kills Stilgar, who has no shield: the Tleilax
    win 5 + 1.5 against 2 (without the pistol: 7 + 2 beats 5 + 1.5)."""
    result = case_json(parse_case(waff_case()))["outcomes"]
    assert len(result) == 1 and result[0]["winner"] == "bene-tleilax"
    assert result[0]["sides"]["fremen"]["leader"] == "dead"


def test_tleilax_m1_a_shield_stops_the_pistol():
    raw = waff_case()
    raw["sides"][1]["defense"] = "shield"
    raw["sides"][0]["weapon"] = None
    result = case_json(parse_case(raw))["outcomes"]
    assert result[0]["sides"]["fremen"]["leader"] == "alive" and result[0]["winner"] == "fremen"


def test_karama_37_waff_without_his_pistol_for_the_battle():
    result = case_json(parse_case(waff_case(blocked=["KARAMA-37"])))["outcomes"]
    assert result[0]["sides"]["fremen"]["leader"] == "alive" and result[0]["winner"] == "fremen"


def test_case_blocked_errors_name_the_field():
    with pytest.raises(InputError, match=r"blocked\[0\].*harkonnen power"):
        parse_case(waff_case(blocked=["KARAMA-49"]))
    with pytest.raises(InputError, match=r"blocked\[0\].*not a Karama use"):
        parse_case(waff_case(blocked=["KARAMA-99"]))
    with pytest.raises(InputError, match=r"blocked\[0\].*does not act in the battle resolution"):
        parse_case(waff_case(blocked=["KARAMA-38"]))


def test_tleilax_m1_pistol_also_aims_at_a_traitor_only_from_the_caller():
    """GAP-35b: after a call only the caller's attacks are resolved; the victim's built-in pistol is not."""
    waff = BattleSide("bene-tleilax", Tokens(5), BattlePlan(Dial(2), leader_of("bene-tleilax", "tylwyth-waff")))
    stilgar = BattleSide("fremen", Tokens(5), BattlePlan(Dial(2), STILGAR), traitors=frozenset({"tylwyth-waff"}))
    outcome = resolve_with_rolls(Battle("carthag", "fremen", (stilgar, waff)), {})
    assert outcome.winner == "fremen" and outcome.side("fremen").leader_fate == "alive"
    caller = BattleSide("bene-tleilax", Tokens(5), BattlePlan(Dial(2), leader_of("bene-tleilax", "tylwyth-waff")),
                        traitors=frozenset({"stilgar"}))
    victim = BattleSide("fremen", Tokens(5), BattlePlan(Dial(2), STILGAR))
    outcome = resolve_with_rolls(Battle("carthag", "fremen", (victim, caller)), {})
    assert outcome.winner == "bene-tleilax" and outcome.side("fremen").leader_fate == "dead"
    assert resolve_battle(Battle("carthag", "fremen", (victim, caller)))[0][0] == Fraction(1)
