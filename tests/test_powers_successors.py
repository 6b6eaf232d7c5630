"""houses.md G-7: the successors of a main leader (Farad'N for Shaddam, EMPEROR-L12-c, SEED L449; Murbella for
Dama, DISPERSION-L01-c, SEED L617), in games, in battle cases and in the invariants; GAP-88 (a successor in his
main leader's place under HARKONNEN-P4, deals, and a main leader brought back)."""

from __future__ import annotations

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
from dunenb.battle.case import parse_case
from dunenb.battle.resolve import resolve_battle
from dunenb.engine import apply_action
from dunenb.errors import InputError
from dunenb.invariants import InvariantViolation, check_leaders, check_main_leaders
from dunenb.powers import acting_main_leader, holder
from dunenb.rules.battle_phase import SubmitPlan, available_leaders, begin_phase
from dunenb.rules.battle_powers import Captive, CaptureDraw, capture_pool
from dunenb.rules.bidding import hand_limit
from dunenb.rules.common import edit_house
from dunenb.rules.karama_window import UseKarama

EMPEROR = ["atreides", "emperor"]
DISPERSION = ["atreides", "dispersion"]


def dead(state, house, *leaders):
    """Move ``house``'s ``leaders`` to its tanks."""
    hs = state.houses[house]
    return edit_house(state, house, leaders=tuple(x for x in hs.leaders if x not in leaders),
                      leader_tanks=hs.leader_tanks + leaders)


def killed(houses, leader, hands=None, before=None):
    """The Atreides (Duncan with a fast poison) kill ``leader`` of the second House in Arsunt; ``before`` edits the
    position first."""
    other = houses[1]
    cards = {"atreides": ("poison-fast",), **(hands or {})}
    state = position(houses, [("atreides", "arsunt", 5, 3), (other, "arsunt", 5, 3)], hands=cards, begin=False)
    if before is not None:
        state = before(state)
    state = skip_pre_battle(begin_phase(state))
    state = plan(state, "duncan-idaho", 0, weapon="poison-fast")
    return settle_powers(plan(state, leader, 0))


def test_g_7_emperor_l12_c_farad_n_takes_shaddams_place_the_emperor_stays():
    state = killed(EMPEROR, "shaddam-iv")
    assert "shaddam-iv" in state.houses["emperor"].leader_tanks and "emperor" not in state.eliminated
    assert acting_main_leader(state, "emperor") == "farad-n"
    succeeded = events_of(state, "main-leader-succeeded")[0]
    assert succeeded.data["powers"] == ("EMPEROR-L12-c",) and succeeded.data["leader"] == "farad-n"
    assert holder(state, "EMPEROR-M1") is None and holder(state, "EMPEROR-P1") == "emperor"  # House powers go on
    check_leaders(state)


def test_g_7_emperor_m1_lapses_the_emperor_discards_down_to_4():
    cards = ("shield", "snooper", "lasgun", "karama", "poison-slow")
    state = killed(EMPEROR, "shaddam-iv", hands={"emperor": cards})
    assert hand_limit(state, "emperor") == 4
    while state.pending.kind == "battle-discard":  # the winner's TRAITOR-11 decision comes first
        state = apply_action(state, decisions(state)[0])
    assert state.pending.kind == "on-call-discard" and state.pending.actor == "emperor"
    state = apply_action(state, next(a for a in decisions(state) if a.card == "karama"))
    assert sorted(state.houses["emperor"].hand) == sorted(set(cards) - {"karama"})
    assert state.pending is None or state.pending.kind != "on-call-discard"


def test_g_7_without_a_living_successor_shaddams_death_eliminates_the_emperor():
    state = killed(EMPEROR, "shaddam-iv", before=lambda s: dead(s, "emperor", "farad-n"))
    assert "emperor" in state.eliminated and not events_of(state, "main-leader-succeeded")


def test_g_7_emperor_l12_c_the_successors_death_eliminates_the_emperor():
    state = killed(EMPEROR, "farad-n", before=lambda s: dead(s, "emperor", "shaddam-iv"))
    assert "emperor" in state.eliminated


def test_g_7_farad_n_is_a_secondary_leader_while_shaddam_lives():
    state = killed(EMPEROR, "farad-n")
    assert "emperor" not in state.eliminated and acting_main_leader(state, "emperor") == "shaddam-iv"


def test_g_7_dispersion_l01_c_murbella_takes_damas_place_without_her_powers():
    state = killed(DISPERSION, "dama")
    assert "dispersion" not in state.eliminated and acting_main_leader(state, "dispersion") == "murbella"
    assert events_of(state, "main-leader-succeeded")[0].data["powers"] == ("DISPERSION-L01-c",)
    assert all(holder(state, p) is None for p in ("DISPERSION-M1", "DISPERSION-M2", "DISPERSION-M3"))
    assert holder(state, "DISPERSION-P1") == "dispersion"
    state = killed(DISPERSION, "murbella", before=lambda s: dead(s, "dispersion", "dama"))
    assert "dispersion" in state.eliminated


def test_g_7_battle_16_the_successor_fights_in_several_territories():
    state = position(EMPEROR, [("atreides", "arsunt", 5, 3), ("emperor", "arsunt", 5, 3)], begin=False)
    elsewhere = (("emperor", "farad-n", "carthag"),)
    assert "farad-n" not in available_leaders(state, "emperor", "arsunt", elsewhere)  # BATTLE-15
    fallen = dead(state, "emperor", "shaddam-iv")
    assert "farad-n" in available_leaders(fallen, "emperor", "arsunt", elsewhere)  # BATTLE-16, G-7


def test_g_7_gap_88_a_main_leader_brought_back_takes_his_place_again():
    state = dead(position(EMPEROR, [], begin=False), "emperor", "shaddam-iv")
    assert acting_main_leader(state, "emperor") == "farad-n"
    hs = state.houses["emperor"]
    back = edit_house(state, "emperor", leaders=hs.leaders + ("shaddam-iv",), leader_tanks=())
    assert acting_main_leader(back, "emperor") == "shaddam-iv" and holder(back, "EMPEROR-M1") == "emperor"


# --- HARKONNEN-P4 and the successors (GAP-88) --------------------------------------------------------------------

HARKONNEN = ["emperor", "harkonnen"]


def test_g_7_harkonnen_p4_a_captured_successor_still_succeeds():
    three = ["atreides", "emperor", "harkonnen"]

    def before(state):
        return held_by_harkonnen(state, "emperor", "farad-n")

    state = position(three, [("atreides", "arsunt", 5, 3), ("emperor", "arsunt", 5, 3)], begin=False,
                     hands={"atreides": ("poison-fast",)})
    state = before(state)
    state = skip_pre_battle(pass_unable(begin_phase(state), ("karama-window",)))  # KARAMA-47 asked (GAP-87)
    state = plan(state, "duncan-idaho", 0, weapon="poison-fast")
    state = settle_powers(plan(state, "shaddam-iv", 0))
    assert "emperor" not in state.eliminated and acting_main_leader(state, "emperor") == "farad-n"
    assert ("emperor", "farad-n") in state.captured
    check_leaders(state)


def harkonnen_beat_the_emperor(before):
    """Feyd (6) and 5 tokens against an Emperor leader and 3 tokens in Arsunt; ``before`` edits the position."""
    state = position(HARKONNEN, [("emperor", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 5)], begin=False)
    state = before(state)
    state = skip_pre_battle(begin_phase(state))
    return state


def test_g_7_harkonnen_p4_gap_88_a_successor_in_place_is_drawn_only_alone_and_never_killed():
    state = dead(position(HARKONNEN, [("emperor", "arsunt", 5, 3)], begin=False), "emperor", "shaddam-iv")
    pool = capture_pool(state, "emperor", "arsunt", ())
    assert "farad-n" not in pool and pool  # GAP-88: counts as the main leader
    hs = state.houses["emperor"]
    alone = edit_house(state, "emperor", leaders=("farad-n",), leader_tanks=hs.leader_tanks)
    assert capture_pool(alone, "emperor", "arsunt", ()) == ("farad-n",)
    state = harkonnen_beat_the_emperor(lambda s: edit_house(dead(s, "emperor", "shaddam-iv"), "emperor",
                                                            leaders=("farad-n",)))
    state = plan(state, "farad-n")
    state = plan(state, "feyd-rautha", 5)
    assert state.pending.kind == "capture-draw"
    assert {a.leader for a in outcome_map(state)} == {"farad-n"}  # the only one left: drawn (L1243)
    state = force(state, CaptureDraw("harkonnen", "emperor", "farad-n"))
    assert [a.choice for a in decisions(state)] == ["keep"]
    state = apply_action(state, Captive("harkonnen", "emperor", "farad-n", "keep"))
    assert "emperor" not in state.eliminated and ("emperor", "farad-n") in state.captured
    check_leaders(state)


def test_g_7_harkonnen_p4_farad_n_may_be_killed_while_shaddam_lives():
    state = position(HARKONNEN, [("emperor", "arsunt", 5, 3)], begin=False)
    assert "farad-n" in capture_pool(state, "emperor", "arsunt", ())


# --- battle cases (dunenb battle, the analyzer) ------------------------------------------------------------------

def case(emperor_leader, dead_leaders):
    """Duncan with a fast poison against an Emperor leader without defence, in Carthag."""
    emperor = {"house": "emperor", "tokens": {"regular": 3}, "dial": {"regular": 0}, "leader": emperor_leader}
    if dead_leaders:
        emperor["dead"] = list(dead_leaders)
    atreides = {"house": "atreides", "tokens": {"regular": 3}, "dial": {"regular": 0}, "leader": "duncan-idaho",
                "weapon": "poison-fast"}
    return {"format": "dunenb.battle/1", "territory": "carthag", "defender": "atreides", "sides": [atreides, emperor]}


def _resolved(raw):
    (_p, outcome), = resolve_battle(parse_case(raw).battle)
    return outcome


def test_g_7_in_a_case_shaddams_death_spares_the_emperor_while_farad_n_lives():
    assert "emperor" not in _resolved(case("shaddam-iv", [])).eliminated
    assert "emperor" in _resolved(case("shaddam-iv", ["farad-n"])).eliminated
    assert "emperor" in _resolved(case("farad-n", ["shaddam-iv"])).eliminated


def test_g_7_case_dead_main_leader_needs_a_living_successor():
    with pytest.raises(InputError, match="every successor"):
        parse_case(case("mavrik", ["shaddam-iv", "farad-n"]))


# --- invariants ----------------------------------------------------------------------------------------------------

def test_g_7_invariant_a_house_in_play_has_a_main_leader_or_a_successor():
    state = position(EMPEROR, [], begin=False)
    check_main_leaders(dead(state, "emperor", "shaddam-iv"))
    with pytest.raises(InvariantViolation, match="leaders/main"):
        check_main_leaders(dead(state, "emperor", "shaddam-iv", "farad-n"))


# --- KARAMA-47, the later form (GAP-87) --------------------------------------------------------------------------

TWO = ["atreides", "harkonnen"]


def with_captives(*persons, hands=None, houses=TWO, forces=None):
    """A battle position where the Harkonnen hold ``persons`` (owner, id) captive, before the battle starts."""
    forces = forces or [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)]
    state = position(houses, forces, hands=hands, begin=False)
    for owner, leader in persons:
        state = held_by_harkonnen(state, owner, leader)
    return begin_phase(state)


def test_karama_47_later_a_karama_at_the_start_of_a_battle_sends_the_captive_home():
    state = with_captives(("atreides", "gurney"), hands={"atreides": ("karama",)})
    assert state.pending.kind == "karama-window" and state.pending.detail["data"]["leader"] == "gurney"
    assert UseKarama("atreides", "KARAMA-47", "karama") in decisions(state)
    state = apply_action(state, UseKarama("atreides", "KARAMA-47", "karama"))
    assert "gurney" in state.houses["atreides"].leaders and not state.captured
    assert "atreides:gurney" not in state.houses["harkonnen"].leaders
    assert not any(s.power == "HARKONNEN-P4" for s in state.suppressions)
    assert events_of(state, "captive-released")
    check_leaders(state)


def test_karama_47_later_gap_87_one_window_per_captive_the_karama_frees_that_one():
    state = with_captives(("atreides", "gurney"), ("atreides", "tufir"), hands={"atreides": ("karama",)})
    assert state.pending.detail["data"]["leader"] == "gurney"
    state = apply_action(state, Pass("atreides"))
    assert state.pending.kind == "karama-window" and state.pending.detail["data"]["leader"] == "tufir"
    state = apply_action(state, UseKarama("atreides", "KARAMA-47", "karama"))
    assert state.captured == (("atreides", "gurney"),) and "tufir" in state.houses["atreides"].leaders
    assert state.pending is None or state.pending.kind != "karama-window" or \
        state.pending.detail["data"].get("leader") is None
    check_leaders(state)


def test_karama_47_later_not_asked_in_a_battle_neither_the_captor_nor_the_captives_house_fights():
    houses = ["atreides", "emperor", "fremen", "harkonnen"]
    state = with_captives(("atreides", "gurney"), hands={"emperor": ("karama",)}, houses=houses,
                          forces=[("emperor", "arsunt", 5, 3), ("fremen", "arsunt", 5, 3)])
    assert state.pending is None or state.pending.kind != "karama-window" or \
        state.pending.detail["resume"] != "captive-release"
    assert state.captured == (("atreides", "gurney"),)


def test_g_7_harkonnen_p4_a_successor_in_place_killed_as_a_captive_eliminates_his_house():
    three = ["atreides", "emperor", "harkonnen"]
    state = position(three, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)], begin=False,
                     hands={"atreides": ("lasgun",)})
    state = held_by_harkonnen(dead(state, "emperor", "shaddam-iv"), "emperor", "farad-n")
    state = skip_pre_battle(pass_unable(begin_phase(state), ("karama-window",)))
    state = plan(state, "duncan-idaho", 3, weapon="lasgun")
    state = settle_powers(apply_action(state, SubmitPlan("harkonnen", "emperor:farad-n", 3, 0, 0)))
    state = settle_powers(play_battle(state, through=(), calls={}))  # the calls passed
    assert "farad-n" in state.houses["emperor"].leader_tanks and "emperor" in state.eliminated
