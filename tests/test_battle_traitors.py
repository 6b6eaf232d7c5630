"""Traitors at setup and on call (TRAITOR-1 to TRAITOR-13, GAP-35)."""

from __future__ import annotations

import numpy as np
import pytest

from dunenb.battle.case import load_example_case
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.roster import load_roster
from dunenb.battle.traitors import (
    can_be_traitor_of,
    draw_traitor_candidates,
    harkonnen_traitors,
    may_call_treachery,
    pick_traitor,
    safe_leaders,
    traitor_draw_count,
    traitor_pool,
)
from dunenb.errors import IllegalActionError, InputError

FOUR = ["atreides", "harkonnen", "dispersion", "bene-gesserit"]


def test_TRAITOR_1_main_leaders_are_left_out_of_the_draw():
    pool = traitor_pool(load_roster(), FOUR)
    # leaders.md: 8 copies are out of the game in this line-up (A11, H09, H10, D09, D11, B05, B06, B12)
    assert len(pool) == 4 * 12 - 8 and not any(leader.main for leader in pool)
    out = {("atreides", "idaho-ghola"), ("harkonnen", "yueh"), ("harkonnen", "wanna"), ("dispersion", "miles-teg"),
           ("dispersion", "feyd-rautha"), ("bene-gesserit", "jessica"), ("bene-gesserit", "alia"),
           ("bene-gesserit", "murbella")}
    assert not out & {(leader.house, leader.id) for leader in pool}


@pytest.mark.parametrize(("players", "count"), [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6), (8, 7)])
def test_TRAITOR_2_draw_count_is_players_minus_one(players, count):
    assert traitor_draw_count(players) == count


def test_TRAITOR_2_table_covers_2_to_8_players():
    with pytest.raises(InputError):
        traitor_draw_count(1)


def test_TRAITOR_3_harkonnen_draw_double_and_keep_all_but_their_own():
    assert traitor_draw_count(4, house="harkonnen") == 6
    roster = load_roster()
    drawn = [roster.find("piter"), roster.find("duncan-idaho", house="atreides"), roster.find("goose"),
             roster.find("lucille")]
    kept = harkonnen_traitors(drawn)
    assert [leader.id for leader in kept] == ["duncan-idaho", "lucille"]  # own leader and never_traitor are safe


def test_TRAITOR_3_draw_is_reproducible_with_a_generator_and_disjoint():
    pool = traitor_pool(load_roster(), FOUR)
    first = draw_traitor_candidates(pool, FOUR, np.random.default_rng(42))
    second = draw_traitor_candidates(pool, FOUR, np.random.default_rng(42))
    assert first == second
    assert {house: len(leaders) for house, leaders in first.items()} == {
        "atreides": 3, "harkonnen": 6, "dispersion": 3, "bene-gesserit": 3}
    keys = [leader.key for leaders in first.values() for leader in leaders]
    assert len(keys) == len(set(keys))


def test_TRAITOR_4_and_5_seed_traitor_example():
    # L1321: the Dispersion drew Duncan Idaho (6), Lucille and Murbella, and picks Duncan.
    roster = load_roster()
    drawn = {"dispersion": (roster.find("duncan-idaho", house="atreides"), roster.find("lucille"),
                            roster.find("murbella", house="dispersion"))}
    chosen = pick_traitor("dispersion", drawn["dispersion"], "Duncan Idaho")
    assert chosen.strength == 6
    safe = safe_leaders(drawn, {"dispersion": [chosen]})
    assert {leader.id for leader in safe} == {"lucille", "murbella"}  # drawn but not picked: safe leaders
    with pytest.raises(IllegalActionError):
        pick_traitor("dispersion", drawn["dispersion"], "Gurney")
    with pytest.raises(IllegalActionError):
        pick_traitor("harkonnen", drawn["dispersion"], "Lucille")


def test_TRAITOR_6_restrictions_never_traitor():
    roster = load_roster()
    assert not can_be_traitor_of(roster.find("goose"), "atreides")
    assert not can_be_traitor_of(roster.find("staban"), "harkonnen")
    assert can_be_traitor_of(roster.find("staban"), "atreides")


def test_TRAITOR_7_a_traitor_stays_a_traitor():
    case = load_example_case("traitor_idaho")
    first = resolve_battle(case.battle)
    second = resolve_battle(case.battle)  # the same slip works again in a later battle
    assert first[0][1].traitor_called_by == second[0][1].traitor_called_by == ("dispersion",)


def test_TRAITOR_8_and_9_call_needs_the_opposing_leader_on_a_slip():
    case = load_example_case("traitor_idaho")
    (probability, outcome), = resolve_battle(case.battle)
    assert probability == 1 and outcome.winner == "dispersion"


def test_TRAITOR_10_and_11_seed_traitor_case():
    (_, outcome), = resolve_battle(load_example_case("traitor_idaho").battle)
    caller, victim = outcome.side("dispersion"), outcome.side("atreides")
    assert caller.bounty == 6 and caller.tokens_lost.total == 0 and caller.spice_lost == 0
    assert victim.leader_fate == "dead" and victim.tokens_left.total == 0


def test_TRAITOR_12_traitor_against_traitor_example_case():
    (_, outcome), = resolve_battle(load_example_case("traitor_against_traitor").battle)
    assert outcome.leaders_swapped and outcome.winner == "harkonnen"


def test_TRAITOR_13_captured_leaders_GAP_35c():
    duncan = load_roster().find("duncan-idaho", house="atreides")
    # case 1: nobody's traitor, played by the Harkonnen: the Atreides may call
    assert may_call_treachery("atreides", duncan, {}, playing_house="harkonnen")
    # case 2: a Harkonnen traitor is safe even against the Atreides
    assert not may_call_treachery("atreides", duncan, {"harkonnen": ["duncan-idaho"]}, playing_house="harkonnen")
    # case 3: the Guild's traitor: the Guild may call (FAQ 20), and so may the Atreides (GAP-35c)
    slips = {"guild": ["duncan-idaho"]}
    assert may_call_treachery("guild", duncan, slips, playing_house="harkonnen")
    assert may_call_treachery("atreides", duncan, slips, playing_house="harkonnen")
    assert not may_call_treachery("fremen", duncan, slips, playing_house="harkonnen")
    # not captured: only a slip allows a call
    assert not may_call_treachery("harkonnen", duncan, {}, playing_house="atreides")
    assert may_call_treachery("harkonnen", duncan, {"harkonnen": ["duncan-idaho"]}, playing_house="atreides")
