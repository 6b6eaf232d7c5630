"""Harkonnen and Tleilax main-leader and House powers (issue 10 items 2 and 4): HARKONNEN-M3 (Vladimir's minions),
TLEILAX-M1 (Waff's pistol) and KARAMA-37, TLEILAX-M2 (regenerations) and KARAMA-38, HARKONNEN-P4 (capture) and
KARAMA-47, HARKONNEN-M2 (buy-off) and KARAMA-49, HARKONNEN-M1 (a new traitor) and KARAMA-48, TLEILAX-P5; and the
battle-case facts they need (``dead``, ``blocked``, ``regenerations``, ``captured``)."""

from __future__ import annotations

import copy
import dataclasses
from fractions import Fraction

import pytest
from helpers_game import (
    decisions,
    events_of,
    force,
    held_by_harkonnen,
    outcome_map,
    pass_unable,
    play_battle,
    settle_powers,
    skip_pre_battle,
)
from test_rules_battle_phase import plan, position

from dunenb.actions import Pass
from dunenb.analysis.battle_odds import plan_matrix
from dunenb.battle.case import case_json, parse_case
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.powers import leader_values
from dunenb.battle.resolve import resolve_battle, resolve_with_rolls
from dunenb.battle.wheel import Dial, Tokens
from dunenb.engine import apply_action
from dunenb.errors import InputError
from dunenb.invariants import check_leaders
from dunenb.rules.alliances import EndWindow
from dunenb.rules.battle_phase import CallTraitor, SubmitPlan, begin_phase, eliminate
from dunenb.rules.battle_powers import (
    BuyOff,
    Captive,
    CaptureDraw,
    DiscardSlip,
    KeepNewTraitor,
    regenerations_left,
)
from dunenb.rules.karama_window import UseKarama
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
    """Vladimir (10) and 2 tokens without spice (1) against Stilgar (7) and 3 Fedaykin-worth tokens (3,
    FREMEN-L01-b): 11 beats 10; with Iakin Nefud and Iliako dead Vladimir counts 5 and loses, 6 against 10 (the
    case field ``dead``)."""
    base = case(side("harkonnen", "vladimir", 2), side("fremen", "stilgar", 3))
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
    # GAP-137: a side's 'blocked' takes the uses that block that side's own battle powers; the error says why
    # a use is refused and lists the allowed ones
    why = {"KARAMA-49": "against HARKONNEN-M2 \\(a harkonnen power\\), which does not act in the battle resolution",
           "KARAMA-99": "is not a Karama use",
           "KARAMA-38": "which does not act in the battle resolution"}
    for use, reason in why.items():
        with pytest.raises(InputError, match=rf'blocked\[0\]: "{use}" .*{reason}; allowed: KARAMA-21, .*KARAMA-37'):
            parse_case(waff_case(blocked=[use]))


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


# --- in games -------------------------------------------------------------------------------------------------
# Positions from the battle-phase tests (test_rules_battle_phase.position): a quiet setup, only these forces on the
# map, storm at 10 so that storm order follows the table (the first House defends).

TWO = ["atreides", "harkonnen"]


def harkonnen_win(hands=None):
    """Duncan (6) alone against Feyd (6) and 5 tokens (2.5): the Harkonnen win in Arsunt."""
    state = position(TWO, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 5)], hands=hands)
    state = plan(state, "duncan-idaho")
    return plan(state, "feyd-rautha", 5)


def test_harkonnen_p4_the_winner_captures_a_random_leader_of_the_loser_and_keeps_him():
    state = harkonnen_win()
    assert state.pending.kind == "capture-draw"
    pool = {action.leader for action in outcome_map(state)}
    assert "duncan-idaho" in pool and "paul" not in pool  # FAQ 16: this battle's leader; L1243: not the main
    assert all(p == Fraction(1, len(pool)) for p in outcome_map(state).values())
    state = force(state, CaptureDraw("harkonnen", "atreides", "gurney"))
    assert [a.choice for a in decisions(state)] == ["keep", "kill"]
    state = apply_action(state, Captive("harkonnen", "atreides", "gurney", "keep"))
    assert "atreides:gurney" in state.houses["harkonnen"].leaders
    assert "gurney" not in state.houses["atreides"].leaders and state.captured == (("atreides", "gurney"),)
    check_leaders(state)
    assert events_of(state, "captive-kept")[0].data["powers"] == ("HARKONNEN-P4",)


def test_harkonnen_p4_kill_the_captive_for_2_spice_from_the_bank():
    state = force(harkonnen_win(), CaptureDraw("harkonnen", "atreides", "gurney"))
    before = state.houses["harkonnen"].spice
    state = apply_action(state, Captive("harkonnen", "atreides", "gurney", "kill"))
    assert state.houses["harkonnen"].spice == before + 2 and "gurney" in state.houses["atreides"].leader_tanks
    assert state.total_spice() == 0 and not state.captured


def test_harkonnen_p4_the_main_leader_only_when_alone_and_never_killed():
    state = position(TWO, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 5)])
    alone = dataclasses.replace(state.houses["atreides"], leaders=("paul", "duncan-idaho"))
    state = dataclasses.replace(state, houses=state.houses.set("atreides", alone))
    state = plan(plan(state, "duncan-idaho"), "feyd-rautha", 5)
    state = force(state, CaptureDraw("harkonnen", "atreides", "duncan-idaho"))
    state = settle_powers(state)
    assert state.captured == (("atreides", "duncan-idaho"),)
    state = position(TWO, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 5)])
    alone = dataclasses.replace(state.houses["atreides"], leaders=("paul",))
    state = dataclasses.replace(state, houses=state.houses.set("atreides", alone))
    state = plan(plan(state, "paul"), "feyd-rautha", 5, spice=5)
    assert {a.leader for a in outcome_map(state)} == {"paul"}
    state = force(state, CaptureDraw("harkonnen", "atreides", "paul"))
    assert [a.choice for a in decisions(state)] == ["keep"]  # DESIGN: a main leader may not be killed


def test_karama_47_stops_the_capture():
    state = harkonnen_win(hands={"atreides": ("karama",)})
    assert state.pending.kind == "karama-window" and state.pending.actor == "atreides"
    state = apply_action(state, UseKarama("atreides", "KARAMA-47", "karama"))
    assert events_of(state, "capture-blocked") and not state.captured
    assert state.pending is None or state.pending.kind != "capture-draw"


def captive_battle(traitors=None):
    """The Harkonnen hold Gurney, captured; they lead him against the Atreides."""
    state = position(TWO, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)], traitors=traitors)
    state = held_by_harkonnen(state, "atreides", "gurney")
    return _plan_gurney(plan(state, "duncan-idaho", 3))


def _plan_gurney(state):
    state = apply_action(state, SubmitPlan("harkonnen", "atreides:gurney", 3, 0, 0))
    return pass_unable(state, ("leader-buy-off",))  # K-19 (GAP-111): Lingar could have led


def test_harkonnen_p4_faq_19_his_own_house_may_call_treachery_on_a_captive():
    state = captive_battle()
    assert state.pending.kind == "traitor-call" and state.pending.actor == "atreides"
    assert CallTraitor("atreides", "atreides:gurney") in decisions(state)
    state = settle_powers(apply_action(state, CallTraitor("atreides", "atreides:gurney")))
    state = settle_powers(play_battle(state, through=(), calls={}))  # the calls passed
    assert events_of(state, "battle-outcome")[0].data["winner"] == "atreides"
    # he survived his one battle for the Harkonnen: he goes home (L1167)
    assert "gurney" in state.houses["atreides"].leaders and not state.captured
    check_leaders(state)


def test_harkonnen_p4_traitor_13_a_harkonnen_traitor_is_safe_against_his_house():
    state = captive_battle(traitors={"harkonnen": (("atreides", "gurney"),)})
    assert CallTraitor("atreides", "atreides:gurney") not in decisions(state)


def test_harkonnen_p4_a_captive_killed_in_a_harkonnen_battle_goes_to_his_own_tanks():
    state = position(TWO, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)],
                     hands={"atreides": ("lasgun",)})
    state = held_by_harkonnen(state, "atreides", "gurney")
    state = plan(state, "duncan-idaho", 3, weapon="lasgun")
    state = settle_powers(_plan_gurney(state))
    state = settle_powers(play_battle(state, through=(), calls={}))  # the calls passed
    assert "gurney" in state.houses["atreides"].leader_tanks and not state.captured
    assert "atreides:gurney" not in state.houses["harkonnen"].leader_tanks
    assert events_of(state, "bounty")[0].data["house"] == "atreides"
    check_leaders(state)


def test_harkonnen_p4_faq_21_an_eliminated_captor_sends_every_captive_home():
    state = position(TWO, [("atreides", "arsunt", 5, 3)], begin=False)
    harkonnen = dataclasses.replace(state.houses["harkonnen"],
                                    leaders=state.houses["harkonnen"].leaders + ("atreides:gurney",))
    atreides = dataclasses.replace(state.houses["atreides"],
                                   leaders=tuple(x for x in state.houses["atreides"].leaders if x != "gurney"))
    state = dataclasses.replace(state, houses=state.houses.set("atreides", atreides).set("harkonnen", harkonnen),
                                captured=(("atreides", "gurney"),))
    state = eliminate(state, "harkonnen")
    assert "gurney" in state.houses["atreides"].leaders and not state.captured
    check_leaders(state)


# --- HARKONNEN-M2, KARAMA-49 ------------------------------------------------------------------------------------

def vladimir_battle(hands=None):
    """Vladimir (10 with his minions) and 1 token against Duncan (6) and 5 tokens with 5 spice: 10.5 against 11."""
    state = position(TWO, [("atreides", "arsunt", 5, 5), ("harkonnen", "arsunt", 5, 1)], hands=hands,
                     spice={"atreides": 5, "harkonnen": 20})
    state = plan(state, "duncan-idaho", 5, spice=5)
    return plan(state, "vladimir", 1)


def test_harkonnen_m2_vladimir_buys_off_a_battle_he_would_lose():
    state = vladimir_battle()
    assert state.pending.kind == "buy-off" and decisions(state) == [Pass("harkonnen"), BuyOff("harkonnen", 12)]
    lost = settle_powers(apply_action(state, Pass("harkonnen")))
    assert events_of(lost, "battle-outcome")[0].data["winner"] == "atreides"
    state = apply_action(state, BuyOff("harkonnen", 12))
    assert events_of(state, "battle-bought-off") and not events_of(state, "battle-outcome")
    assert state.houses["harkonnen"].spice == 8 and state.houses["atreides"].spice == 17
    assert events_of(state, "battle-bought-off")[0].data["area"] == "arsunt"  # at peace there for the turn
    assert state.forces[("harkonnen", "arsunt", 5)].total == 1 and state.forces[("atreides", "arsunt", 5)].total == 5


def test_karama_49_forces_vladimir_to_fight_and_nothing_is_paid():
    state = vladimir_battle(hands={"atreides": ("karama",)})
    state = apply_action(state, BuyOff("harkonnen", 12))
    assert state.pending.kind == "karama-window"
    state = settle_powers(apply_action(state, UseKarama("atreides", "KARAMA-49", "karama")))
    assert events_of(state, "buy-off-blocked")
    assert events_of(state, "battle-outcome")[0].data["winner"] == "atreides"
    assert state.houses["harkonnen"].spice == 20


def test_harkonnen_m2_not_offered_when_vladimir_does_not_lead():
    state = position(TWO, [("atreides", "arsunt", 5, 5), ("harkonnen", "arsunt", 5, 1)],
                     spice={"harkonnen": 20})
    state = plan(plan(state, "duncan-idaho", 5), "feyd-rautha", 1)
    assert state.pending is None or state.pending.kind != "buy-off"


# --- HARKONNEN-M1, KARAMA-48 ------------------------------------------------------------------------------------

def end_of_battles(hands=None):
    """No battle to fight: the battle step ends at once; the Harkonnen hold one slip, on Gurney."""
    return position(TWO, [("atreides", "arsunt", 5, 5)], hands=hands,
                    traitors={"harkonnen": (("atreides", "gurney"),)})


def test_harkonnen_m1_discard_a_slip_draw_two_keep_one():
    state = end_of_battles()
    assert state.pending.kind == "traitor-discard" and state.pending.actor == "harkonnen"
    state = apply_action(state, DiscardSlip("harkonnen", "atreides", "gurney"))
    assert state.pending.kind == "new-traitor-draw"
    drawn = {(a.leader_house, a.leader) for a in outcome_map(state)}
    assert ("atreides", "gurney") not in drawn and ("atreides", "paul") not in drawn  # GAP-76; G-7
    assert all(house != "harkonnen" for house, _ in drawn)
    state = force(state, next(a for a in outcome_map(state) if a.leader == "duncan-idaho"))
    state = force(state, next(a for a in outcome_map(state) if a.leader == "jessica"))
    assert {a.leader for a in decisions(state)} == {"duncan-idaho", "jessica"}
    state = apply_action(state, KeepNewTraitor("harkonnen", "atreides", "jessica"))
    assert state.houses["harkonnen"].traitors == (("atreides", "jessica"),)


def test_karama_48_stops_the_new_traitor_the_slip_stays():
    state = end_of_battles(hands={"atreides": ("karama",)})
    state = apply_action(state, DiscardSlip("harkonnen", "atreides", "gurney"))
    state = apply_action(state, UseKarama("atreides", "KARAMA-48", "karama"))
    assert events_of(state, "new-traitor-blocked")
    assert state.houses["harkonnen"].traitors == (("atreides", "gurney"),)


# --- TLEILAX-M1 / KARAMA-37 and TLEILAX-M2 / KARAMA-38 in games -----------------------------------------------------

TLEILAX = ["atreides", "bene-tleilax"]


def waff_battle(hands=None, weapon="none", defense="none"):
    """Duncan (6) and 3 tokens against Waff (5) and 3 tokens in Arsunt; the Atreides defend."""
    state = position(TLEILAX, [("atreides", "arsunt", 5, 3), ("bene-tleilax", "arsunt", 5, 3)], hands=hands)
    state = skip_pre_battle(settle_powers(state))  # the battle Karamas (KARAMA-37) are asked first
    state = plan(state, "duncan-idaho", 0, weapon=weapon, defense=defense)
    return plan(state, "tylwyth-waff", 0)


def test_tleilax_m1_waffs_pistol_kills_duncan_in_a_game():
    state = settle_powers(waff_battle())
    assert "duncan-idaho" in state.houses["atreides"].leader_tanks
    assert events_of(state, "battle-outcome")[0].data["winner"] == "bene-tleilax"


def test_karama_37_in_a_game_waff_has_no_pistol_for_the_battle():
    state = begin_phase(position(TLEILAX, [("atreides", "arsunt", 5, 3), ("bene-tleilax", "arsunt", 5, 3)],
                                 hands={"atreides": ("karama",)}, begin=False))
    assert state.pending.kind == "karama-window"  # the battle-start window of G-9 (GAP-81)
    state = skip_pre_battle(apply_action(state, UseKarama("atreides", "KARAMA-37", "karama")))
    state = plan(state, "duncan-idaho", 0)
    state = settle_powers(plan(state, "tylwyth-waff", 0))
    assert "duncan-idaho" not in state.houses["atreides"].leader_tanks
    assert events_of(state, "battle-outcome")[0].data["winner"] == "atreides"
    assert not any(s.power == "TLEILAX-M1" for s in state.suppressions)  # lasted the battle


def test_tleilax_m2_waff_dies_the_house_lives_and_he_comes_back_next_turn():
    state = settle_powers(waff_battle(hands={"atreides": ("poison-fast", "shield")}, weapon="poison-fast",
                                      defense="shield"))
    assert "bene-tleilax" not in state.eliminated and regenerations_left(state, "bene-tleilax") == 1
    assert "tylwyth-waff" in state.houses["bene-tleilax"].leader_tanks
    assert events_of(state, "main-leader-regenerates")
    assert state.main_returns == (("bene-tleilax", state.turn + 1),)
    turn = state.turn
    while state.turn == turn and state.pending is not None:  # on to the next turn's start
        state = apply_action(state, decisions(state)[0] if state.pending.actor != "chance" else
                             next(iter(outcome_map(state))))
    assert "tylwyth-waff" in state.houses["bene-tleilax"].leaders


def test_karama_38_destroys_one_more_regeneration_and_the_last_eliminates():
    state = waff_battle(hands={"atreides": ("poison-fast", "shield", "karama")}, weapon="poison-fast",
                        defense="shield")
    state = settle_powers(state, ("buy-off",))
    assert state.pending.kind == "karama-window"
    state = settle_powers(apply_action(state, UseKarama("atreides", "KARAMA-38", "karama")))
    assert "bene-tleilax" not in state.eliminated and regenerations_left(state, "bene-tleilax") == 0
    state = waff_battle(hands={"atreides": ("poison-fast", "shield", "karama")}, weapon="poison-fast",
                        defense="shield")
    state = dataclasses.replace(state, main_regenerations=(("bene-tleilax", 1),))
    state = settle_powers(apply_action(state, UseKarama("atreides", "KARAMA-38", "karama")))
    assert "bene-tleilax" in state.eliminated


# --- bots -------------------------------------------------------------------------------------------------------

def test_harkonnen_m2_the_heuristic_bot_buys_off_a_battle_it_would_lose_not_one_it_wins():
    from dunenb.bots.heuristic import HeuristicBot

    assert HeuristicBot().choose(vladimir_battle()) == BuyOff("harkonnen", 12)
    state = position(TWO, [("atreides", "arsunt", 5, 1), ("harkonnen", "arsunt", 5, 5)],
                     spice={"harkonnen": 20})
    state = plan(plan(state, "duncan-idaho", 1), "vladimir", 5, spice=5)
    assert state.pending.kind == "buy-off" and HeuristicBot().choose(state) == Pass("harkonnen")


def test_harkonnen_p4_and_m1_the_heuristic_bot_kills_a_weak_captive_and_keeps_a_strong_slip():
    from dunenb.bots.heuristic import HeuristicBot

    state = force(harkonnen_win(), CaptureDraw("harkonnen", "atreides", "ghanima"))
    assert HeuristicBot().choose(state).choice == "kill"
    state = end_of_battles()
    assert HeuristicBot().choose(state) == Pass("harkonnen")  # Gurney lives: his slip is kept
    dead = dataclasses.replace(state.houses["atreides"], leader_tanks=("gurney",),
                               leaders=tuple(x for x in state.houses["atreides"].leaders if x != "gurney"))
    state = dataclasses.replace(state, houses=state.houses.set("atreides", dead))
    assert HeuristicBot().choose(state) == DiscardSlip("harkonnen", "atreides", "gurney")


def test_the_random_bot_plays_the_new_power_actions():
    from dunenb.bots.random_bot import RandomBot

    state = vladimir_battle()
    picks = {RandomBot(seed=s).choose(state).kind for s in range(20)}
    assert {"pass", "buy-off"} <= picks  # among the actions any menu ends with (GAP-57)


# --- TLEILAX-P5 ---------------------------------------------------------------------------------------------------

def tleilax_window():
    """An alliance window with the Atreides (5 dead tokens and Gurney in their tanks) and the Tleilax."""
    from test_rules_alliances import window, with_spice

    from dunenb.state import Tokens as Forces

    state = with_spice(window(houses=["atreides", "bene-tleilax", "emperor"]), "atreides", 10)
    hs = state.houses["atreides"]
    dead = dataclasses.replace(hs, reserve=hs.reserve - Forces(5), tanks=hs.tanks + Forces(5),
                               leaders=tuple(x for x in hs.leaders if x != "gurney"), leader_tanks=("gurney",))
    state = dataclasses.replace(state, houses=state.houses.set("atreides", dead))
    while state.pending.actor != "bene-tleilax":
        state = apply_action(state, EndWindow(state.pending.actor))
    return state


def test_tleilax_p5_the_tleilax_revive_another_houses_dead_by_a_deal_beyond_3_a_turn():
    from dunenb.rules.alliances import AcceptOffer, Offer

    state = tleilax_window()
    menu = [a for a in decisions(state) if getattr(a, "what", "") == "revival"]
    assert Offer("bene-tleilax", "atreides", "revival", "regular", 4, 8) in menu  # L1919: 4 a turn, 2 spice each
    state = apply_action(state, Offer("bene-tleilax", "atreides", "revival", "regular", 5, 6))
    state = apply_action(state, AcceptOffer("atreides"))
    atreides = state.houses["atreides"]
    assert atreides.tanks.total == 0 and atreides.revived_this_turn == 0  # REVIVAL-1's limit does not apply
    assert state.houses["bene-tleilax"].spice == 10 + 6 and events_of(state, "revived-by-deal")
    state = apply_action(state, Offer("bene-tleilax", "atreides", "revival", "gurney", 1, 3))
    state = apply_action(state, AcceptOffer("atreides"))
    assert "gurney" in state.houses["atreides"].leaders and not state.houses["atreides"].leader_tanks
    check_leaders(state)


def test_tleilax_p5_only_the_holder_revives_others_and_at_the_deal():
    from dunenb.engine import check_action
    from dunenb.rules.alliances import Offer

    state = tleilax_window()
    assert check_action(state, Offer("bene-tleilax", "atreides", "revival", "regular", 2, 2, 1)).code == \
        "alliance/delay"
    assert check_action(state, Offer("bene-tleilax", "atreides", "revival", "regular", 6)).code == "alliance/amount"
    assert check_action(state, Offer("bene-tleilax", "atreides", "revival", "jessica", 1)).code == \
        "alliance/not-owned"
    state = apply_action(state, EndWindow("bene-tleilax"))
    if state.pending is not None and state.pending.kind == "alliance" and state.pending.actor == "emperor":
        assert check_action(state, Offer("emperor", "atreides", "revival", "regular", 2)).code == "alliance/power"


# --- case facts: regenerations and captured ---------------------------------------------------------------------

def test_tleilax_m2_case_regenerations_decide_whether_waffs_death_eliminates():
    raw = case(side("bene-tleilax", "tylwyth-waff", 3), side("fremen", "stilgar", 4, weapon="lasgun"),
               defender="fremen")
    assert case_json(parse_case(raw))["outcomes"][0]["eliminated"] == ["bene-tleilax"]
    raw["sides"][0]["regenerations"] = 1
    assert case_json(parse_case(raw))["outcomes"][0]["eliminated"] == []
    raw["sides"][0]["regenerations"] = 3
    with pytest.raises(InputError, match=r"regenerations.*0 to 2"):
        parse_case(raw)
    raw["sides"][0]["regenerations"] = 1
    raw["sides"][1]["regenerations"] = 1
    with pytest.raises(InputError, match="fremen main leader has no regenerations"):
        parse_case(raw)


def test_harkonnen_p4_case_captured_leader_may_be_called_by_his_own_house():
    raw = case(side("harkonnen", "fremen:otheym", 6, captured=True), side("fremen", "stilgar", 1),
               defender="harkonnen")  # 5 + 3 against 7 + 1 (FREMEN-L01-b): the defender wins the tie
    result = case_json(parse_case(raw))["outcomes"][0]
    assert result["traitor_called_by"] == ["fremen"] and result["winner"] == "fremen"  # FAQ 19
    raw["sides"][0]["traitors"] = ["fremen:otheym"]  # TRAITOR-13 (2): a Harkonnen traitor is safe
    result = case_json(parse_case(raw))["outcomes"][0]
    assert result["traitor_called_by"] == [] and result["winner"] == "harkonnen"
    bad = case(side("fremen", "harkonnen:piter", 5, captured=True), side("harkonnen", "feyd-rautha", 1))
    with pytest.raises(InputError, match=r"fremen hold no capture power; only harkonnen \(HARKONNEN-P4\)"):
        parse_case(bad)
    bad = case(side("harkonnen", "piter", 5, captured=True), side("fremen", "stilgar", 1))
    with pytest.raises(InputError, match="captured leader is a roster leader of another House"):
        parse_case(bad)


def test_harkonnen_p4_a_captured_main_leader_killed_eliminates_his_own_house():
    houses = ["atreides", "harkonnen", "emperor"]
    state = position(houses, [("harkonnen", "arsunt", 5, 3), ("emperor", "arsunt", 5, 3)],
                     hands={"emperor": ("lasgun",)})
    state = held_by_harkonnen(state, "atreides", "paul")
    state = apply_action(state, SubmitPlan("harkonnen", "atreides:paul", 3, 0, 0))
    state = settle_powers(plan(state, "burseg", 3, weapon="lasgun"))
    state = settle_powers(play_battle(state, through=(), calls={}))  # the calls passed
    assert "atreides" in state.eliminated and "harkonnen" not in state.eliminated  # VICTORY-2
    assert "paul" in state.houses["atreides"].leader_tanks and not state.captured
    check_leaders(state)
