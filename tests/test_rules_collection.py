"""Harvest declarations, harvests, taxes and victory: HARVEST-1 to HARVEST-13, TAX-1/2, VICTORY-1 to VICTORY-4,
GAP-17, GAP-21, GAP-23, GAP-36, GAP-39, GAP-47, BG-P3, BG-P6; and dunenb.analysis.game_stats.

Positions are built from a quiet setup (storm on sector 1, starts 1, 4, 7: storm order atreides, harkonnen,
emperor) with the map cleared, then steps f) and j) are begun directly so that no other phase interferes.
"""

from __future__ import annotations

import dataclasses
import doctest

import numpy as np
import pytest
from helpers_game import (
    assert_conserved,
    clear_map,
    commit_harvester,
    decisions,
    dial,
    events_of,
    pass_karama,
    place,
    put_spice,
    quiet_setup,
)

from dunenb.actions import action_from_dict, parse_action
from dunenb.analysis import game_stats
from dunenb.engine import apply_action, check_action, make_config
from dunenb.errors import IllegalActionError, RulesDataError
from dunenb.record import GameRecord
from dunenb.rules import collection, flow, movement
from dunenb.rules.collection import (
    CommitHarvester,
    DoneHarvesting,
    begin_collection,
    begin_declarations,
    check_declaration,
    owner_of,
    parse_victory_rules,
    suggested_target,
    victory_target,
)
from dunenb.rules.common import destroy_in_sector
from dunenb.rules.movement import EndSlot, Move
from dunenb.rules.ornithopters import has_ornithopters_now
from dunenb.rules.spice import devour
from dunenb.ruleset import load_ruleset
from dunenb.state import FrozenDict, Tokens

THREE = ["atreides", "harkonnen", "emperor"]
WITH_BG = ["atreides", "harkonnen", "bene-gesserit"]


def position(houses=THREE, **options):
    """Turn 2, map empty (tokens back in reserve, no deposit), storm on sector 1; nothing committed.

    Whatever the setup left pending (turn 1's auction ...) is dropped: the tests begin steps f) and j) directly.
    """
    state = clear_map(quiet_setup(houses, **options))
    state = dataclasses.replace(state, turn=2, phase="movement", pending=None, events=(),
                                committed_harvesters=FrozenDict())
    for house in houses:  # back to the starting spice and harvesters (turn 1 may have paid taxes ...)
        start = load_ruleset().house(house)
        state = set_harvesters(set_spice(state, house, start.spice), house, start.harvesters)
        # no traitor slips: HARKONNEN-M1 would ask its holder at the end of the battle step, before step j)
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(
            state.houses[house], traitors=())))
    assert state.storm_main == 1
    return state


def declare(state):
    """Begin step f) on this position."""
    return begin_declarations(dataclasses.replace(state, phase="movement", pending=None))


def collect(state):
    """Begin step j) on this position (the battles are over); nobody plays KARAMA-28 (GAP-63)."""
    return pass_karama(begin_collection(dataclasses.replace(state, phase="battle", pending=None)))


def set_spice(state, house, amount):
    """Give or take spice through the Bank (total stays 0)."""
    hs = state.houses[house]
    state = dataclasses.replace(state, bank=state.bank - (amount - hs.spice))
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, spice=amount)))


def set_harvesters(state, house, count):
    hs = state.houses[house]
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, harvesters=count)))


def error_code(state, action):
    error = check_action(state, action)
    return None if error is None else error.code


def spice_of(state, house):
    return state.houses[house].spice


# --- HARVEST-10: step f) -----------------------------------------------------------------------------------

def test_HARVEST_10_houses_declare_in_storm_order_and_a_declared_harvest_commits_the_harvester():
    state = place(position(), "atreides", "erg-mineur", 7, 3)
    state = place(state, "harkonnen", "mesa-maya", 10, 2)
    state = put_spice(put_spice(state, "erg-mineur", 8), "mesa-maya", 4)
    state = declare(state)
    assert state.phase == "harvest-declaration"
    assert state.pending.kind == "harvest-declaration" and state.pending.actor == "atreides"
    assert CommitHarvester("atreides", "erg-mineur", 7) in decisions(state)
    assert DoneHarvesting("atreides") in decisions(state)
    state = apply_action(state, CommitHarvester("atreides", "erg-mineur", 7))
    assert state.houses["atreides"].harvesters == 0
    assert state.committed_harvesters == {("atreides", "erg-mineur", 7): 1}
    assert events_of(state, "harvester-committed")
    assert state.pending.actor == "harkonnen"  # atreides cannot commit anything more
    assert_conserved(state)


def test_HARVEST_10_moving_onto_spice_without_harvesting_is_allowed():
    state = place(position(), "atreides", "erg-mineur", 7, 3)
    state = declare(put_spice(state, "erg-mineur", 8))
    state = apply_action(state, DoneHarvesting("atreides"))
    assert not state.committed_harvesters and state.houses["atreides"].harvesters == 1
    assert state.phase != "harvest-declaration"


def test_HARVEST_10_only_houses_on_a_deposit_are_asked():
    state = place(position(), "atreides", "erg-mineur", 7, 3)  # no spice there
    state = place(state, "harkonnen", "carthag", 4, 5)
    state = declare(put_spice(state, "mesa-maya", 4))
    assert state.phase != "harvest-declaration"  # nobody to ask: the flow went on
    assert not events_of(state, "harvester-committed")


def test_HARVEST_5_one_harvester_per_desert_territory_per_turn_several_deposits_need_several():
    state = place(position(), "atreides", "erg-mineur", 6, 2)
    state = place(state, "atreides", "erg-mineur", 7, 2)
    state = place(state, "atreides", "mesa-maya", 10, 2)
    state = put_spice(put_spice(state, "erg-mineur", 8), "mesa-maya", 4)
    state = declare(set_harvesters(state, "atreides", 3))
    commits = [a for a in decisions(state) if isinstance(a, CommitHarvester)]
    assert set(commits) == {CommitHarvester("atreides", "erg-mineur", 6), CommitHarvester("atreides", "erg-mineur", 7),
                            CommitHarvester("atreides", "mesa-maya", 10)}
    state = apply_action(state, CommitHarvester("atreides", "erg-mineur", 7))
    assert error_code(state, CommitHarvester("atreides", "erg-mineur", 6)) == "harvest/already-committed"
    state = apply_action(state, CommitHarvester("atreides", "mesa-maya", 10))
    assert state.committed_harvesters == {("atreides", "erg-mineur", 7): 1, ("atreides", "mesa-maya", 10): 1}
    assert state.houses["atreides"].harvesters == 1


def test_HARVEST_11_several_houses_may_commit_in_one_territory_the_battle_decides():
    state = place(position(), "atreides", "erg-mineur", 7, 3)
    state = place(state, "harkonnen", "erg-mineur", 8, 3)
    state = declare(put_spice(state, "erg-mineur", 8))
    state = apply_action(state, CommitHarvester("atreides", "erg-mineur", 7))
    assert state.pending.kind == "harvest-declaration" and state.pending.actor == "harkonnen"
    assert CommitHarvester("harkonnen", "erg-mineur", 8) in decisions(state)


def test_HARVEST_10_a_house_without_harvester_is_not_asked():
    state = place(position(["emperor", "guild"]), "emperor", "erg-mineur", 7, 3)  # EMPEROR-START: 0 harvesters
    state = declare(put_spice(state, "erg-mineur", 8))
    assert state.phase != "harvest-declaration" and not state.committed_harvesters


def test_harvest_declaration_errors_name_the_problem():
    state = place(position(), "atreides", "erg-mineur", 7, 3)
    state = place(state, "atreides", "arrakeen", 1, 1)
    state = place(state, "harkonnen", "mesa-maya", 10, 2)
    state = put_spice(put_spice(put_spice(state, "erg-mineur", 8), "mesa-maya", 4), "bassin-imperial", 3)
    state = declare(state)
    assert error_code(state, CommitHarvester("atreides", "mesa-maya", 10)) == "harvest/no-tokens"
    assert error_code(state, CommitHarvester("atreides", "erg-mineur", 6)) == "harvest/sector"
    assert error_code(state, CommitHarvester("atreides", "bassin-imperial", 2)) == "harvest/no-tokens"
    assert error_code(state, CommitHarvester("atreides", "arrakeen", 1)) == "harvest/not-desert"
    assert error_code(state, CommitHarvester("atreides", "erg-majeur", 10)) == "harvest/no-spice"
    assert error_code(state, CommitHarvester("atreides", "atlantis", 1)) == "harvest/unknown-area"
    assert error_code(state, DoneHarvesting("harkonnen")) == "action/not-your-turn"
    direct = check_declaration(state, CommitHarvester("harkonnen", "mesa-maya", 10))
    assert direct.code == "harvest/not-your-turn" and "atreides" in direct.message
    with pytest.raises(IllegalActionError) as raised:
        apply_action(state, CommitHarvester("atreides", "erg-majeur", 10))
    assert raised.value.code == "harvest/no-spice" and "possible: erg-mineur@7" in str(raised.value)
    state = set_harvesters(state, "atreides", 0)  # e.g. sold (HARVEST-4) while its turn was pending
    assert decisions(state) == [DoneHarvesting("atreides")]
    assert error_code(state, CommitHarvester("atreides", "erg-mineur", 7)) == "harvest/no-harvester"


def test_new_actions_round_trip_through_dict_and_notation():
    for action in (CommitHarvester("atreides", "erg-mineur", 7), DoneHarvesting("guild")):
        assert action_from_dict(action.to_dict()) == action
        assert parse_action(action.notation()) == action


# --- HARVEST-8, HARVEST-6, HARVEST-7, GAP-21, GAP-23: step j) --------------------------------------------------

def test_HARVEST_8_harvesting_takes_place_at_step_j_after_the_battles():
    names = [name for name, _ in flow.TURN_PHASES]
    assert names.index("harvest-declaration") < names.index("battle") < names.index("collection") == len(names) - 1
    state = place(position(), "atreides", "erg-mineur", 7, 3)
    state = declare(put_spice(state, "erg-mineur", 8))
    state = apply_action(state, CommitHarvester("atreides", "erg-mineur", 7))
    # the declaration took no spice; the harvest came in the same transition, after the battle step
    kinds = [e.kind for e in state.events]
    assert "harvest" in kinds and kinds.index("harvester-committed") < kinds.index("harvest")
    assert state.turn == 3  # the turn ended after step j)


def test_HARVEST_7_one_spice_per_token_without_ornithopters():
    state = place(position(), "atreides", "erg-mineur", 7, 4)
    state = commit_harvester(put_spice(state, "erg-mineur", 20), "atreides", "erg-mineur", 7)
    state = collect(state)
    assert spice_of(state, "atreides") == 10 + 4
    assert state.spice_on_map["erg-mineur"] == 16
    (harvest,) = events_of(state, "harvest")
    assert harvest.data["rate"] == 1 and harvest.data["amount"] == 4
    assert_conserved(state)


def test_HARVEST_7_three_spice_per_token_with_ornithopters():
    state = place(position(), "atreides", "erg-mineur", 7, 4)
    state = place(state, "atreides", "pole-nord", 3, 1)  # GAP-21: the Pole gives no ornithopters ...
    state = place(state, "atreides", "arrakeen", 1, 1)  # ... a city does
    state = commit_harvester(put_spice(state, "erg-mineur", 20), "atreides", "erg-mineur", 7)
    state = collect(state)
    assert events_of(state, "harvest")[0].data["rate"] == 3
    assert state.spice_on_map["erg-mineur"] == 20 - 12
    assert_conserved(state)


def test_GAP_21_a_sietch_also_gives_ornithopters_and_the_pole_does_not():
    state = place(position(), "harkonnen", "mesa-maya", 10, 2)
    state = place(state, "harkonnen", "pole-nord", 5, 3)
    assert not collection.has_ornithopters(state, "harkonnen")
    assert collection.has_ornithopters(place(state, "harkonnen", "sietch-tarb", 12, 1), "harkonnen")
    assert collection.has_ornithopters(place(state, "harkonnen", "carthag", 4, 1), "harkonnen")


def through_movement(state, moves):
    """Play step e) on this position (main storm moved to sector 10, away from the scene): each House in storm
    order makes its move from ``moves`` (House -> Move), if any, then ends its slot; then step f) is open."""
    state = movement.begin_phase(dataclasses.replace(state, storm_main=10, phase="spice", pending=None))
    while state.pending.kind == "movement":
        house = state.pending.actor
        if house in moves:
            state = apply_action(state, moves[house])
        state = apply_action(state, EndSlot(house))
    assert state.pending.kind == "harvest-declaration"
    return state


def test_GAP_21_GAP_50_HARVEST_7_ornithopters_at_the_start_of_the_movement_give_the_rate_even_after_leaving():
    # issue 9: Atreides move 3 tokens from Arrakeen onto a 10-spice deposit: 3 x 3 = 9, not 3
    state = put_spice(place(position(), "atreides", "arrakeen", 1, 3), "bassin-imperial", 10)
    state = through_movement(state, {"atreides": Move("atreides", "arrakeen", 1, (("bassin-imperial", 2),), 3)})
    assert state.ornithopters["atreides"] is True
    assert not has_ornithopters_now(state, "atreides")  # no token left in a city ...
    assert collection.has_ornithopters(state, "atreides")  # ... but the turn's ornithopters are fixed
    state = apply_action(state, CommitHarvester("atreides", "bassin-imperial", 2))
    (harvest,) = [e for e in events_of(state, "harvest") if e.data["house"] == "atreides"]
    assert harvest.data["rate"] == 3 and harvest.data["amount"] == 9
    assert state.spice_on_map["bassin-imperial"] == 1
    assert state.ornithopters == {}  # forgotten at the end of the turn
    assert_conserved(state)


def test_GAP_21_GAP_50_HARVEST_7_a_house_that_only_enters_a_city_during_its_movement_harvests_at_1():
    # issue 9: an Emperor with no token in a city or Sietch when its movement starts enters Carthag: rate 1, not 3
    state = place(position(), "emperor", "erg-mineur", 7, 2)
    state = place(state, "emperor", "bassin-imperial", 3, 4)
    state = set_harvesters(put_spice(state, "erg-mineur", 10), "emperor", 1)
    state = through_movement(state, {"emperor": Move("emperor", "bassin-imperial", 3, (("carthag", 4),), 4)})
    assert state.ornithopters["emperor"] is False
    assert has_ornithopters_now(state, "emperor") and not collection.has_ornithopters(state, "emperor")
    state = apply_action(state, CommitHarvester("emperor", "erg-mineur", 7))
    (harvest,) = [e for e in events_of(state, "harvest") if e.data["house"] == "emperor"]
    assert harvest.data["rate"] == 1 and harvest.data["amount"] == 2
    assert_conserved(state)


def test_GAP_50_a_house_that_does_not_move_keeps_the_ornithopters_it_had_when_its_slot_ended():
    state = place(position(), "atreides", "erg-mineur", 7, 2)
    state = put_spice(place(state, "atreides", "arrakeen", 1, 1), "erg-mineur", 10)
    state = through_movement(state, {})
    assert state.ornithopters == {"atreides": True, "harkonnen": False, "emperor": False}
    # the city token is lost afterwards (a battle, say): the rate stays the one fixed at the movement
    state = dataclasses.replace(state, forces=state.forces.without(("atreides", "arrakeen", 1)),
                                houses=state.houses.set("atreides", dataclasses.replace(
                                    state.houses["atreides"], tanks=state.houses["atreides"].tanks + Tokens(1))))
    state = apply_action(state, CommitHarvester("atreides", "erg-mineur", 7))
    (harvest,) = [e for e in events_of(state, "harvest") if e.data["house"] == "atreides"]
    assert harvest.data["rate"] == 3 and harvest.data["amount"] == 6
    assert_conserved(state)


def test_HARVEST_6_the_workforce_is_every_token_of_the_house_in_the_territory():
    state = place(position(), "atreides", "erg-mineur", 6, 2)
    state = place(state, "atreides", "erg-mineur", 8, 3)
    state = commit_harvester(put_spice(state, "erg-mineur", 20), "atreides", "erg-mineur", 6)
    state = collect(state)
    assert events_of(state, "harvest")[0].data["tokens"] == 5 and spice_of(state, "atreides") == 15


def test_GAP_23a_no_house_takes_more_than_the_deposit_and_the_rest_stays():
    state = place(position(), "atreides", "erg-mineur", 7, 4)
    state = place(state, "atreides", "arrakeen", 1, 1)
    state = commit_harvester(put_spice(state, "erg-mineur", 5), "atreides", "erg-mineur", 7)
    state = collect(state)
    assert spice_of(state, "atreides") == 10 + 5 + 2  # the deposit, then Arrakeen's tax
    assert "erg-mineur" not in state.spice_on_map
    assert_conserved(state)
    # and what is not taken stays on the map
    state = place(position(), "atreides", "erg-mineur", 7, 2)
    state = collect(commit_harvester(put_spice(state, "erg-mineur", 5), "atreides", "erg-mineur", 7))
    assert state.spice_on_map["erg-mineur"] == 3


def test_GAP_23a_two_houses_on_one_deposit_harvest_in_storm_order():
    state = place(position(), "atreides", "erg-mineur", 7, 3)
    state = place(state, "harkonnen", "erg-mineur", 8, 3)
    state = put_spice(state, "erg-mineur", 4)
    state = commit_harvester(commit_harvester(state, "atreides", "erg-mineur", 7), "harkonnen", "erg-mineur", 8)
    state = collect(state)
    assert [e.data["house"] for e in events_of(state, "harvest")] == ["atreides", "harkonnen"]
    assert spice_of(state, "atreides") == 13 and spice_of(state, "harkonnen") == 11


def test_GAP_23b_a_committed_harvester_is_lost_if_its_house_has_no_tokens_left_there():
    state = place(position(), "atreides", "erg-mineur", 7, 3)
    state = commit_harvester(put_spice(state, "erg-mineur", 8), "atreides", "erg-mineur", 7)
    state = clear_map(state)  # the battle took every atreides token in Erg Mineur (BATTLE-11)
    state = put_spice(state, "erg-mineur", 8)
    state = collect(state)
    assert not state.committed_harvesters and state.houses["atreides"].harvesters == 0
    assert events_of(state, "harvester-lost") and not events_of(state, "harvest")
    assert state.spice_on_map["erg-mineur"] == 8
    assert_conserved(state)


def test_GAP_23c_the_harvester_goes_with_the_army_and_is_committed_only_at_step_f():
    setup_state = quiet_setup(THREE)
    assert not setup_state.committed_harvesters and setup_state.houses["atreides"].harvesters == 1  # G-8
    state = place(position(), "atreides", "erg-mineur", 6, 1)
    state = place(state, "atreides", "erg-mineur", 8, 3)
    state = declare(put_spice(state, "erg-mineur", 20))
    # only the sectors where the army stands are offered
    assert {a.sector for a in decisions(state) if isinstance(a, CommitHarvester)} == {6, 8}
    state = apply_action(state, CommitHarvester("atreides", "erg-mineur", 8))
    assert state.turn == 3 and state.committed_harvesters == {("atreides", "erg-mineur", 8): 1}
    # it stays committed (exposed to next turn's storm and worms) until the next step f) releases it
    state = declare(state)
    assert events_of(state, "harvester-released")
    assert state.committed_harvesters == {} and state.houses["atreides"].harvesters == 1
    assert CommitHarvester("atreides", "erg-mineur", 8) in decisions(state)


# --- GAP-17, STORM-10, HARVEST-9 ------------------------------------------------------------------------------

def test_GAP_17_a_worm_takes_a_committed_harvester_but_not_an_uncommitted_one():
    state = place(position(), "atreides", "erg-mineur", 7, 3)
    state = place(state, "harkonnen", "erg-mineur", 8, 2)  # harkonnen went there but did not harvest
    state = commit_harvester(put_spice(state, "erg-mineur", 8), "atreides", "erg-mineur", 7)
    state = devour(state, "erg-mineur", cause="Shai-Hulud")
    assert not state.committed_harvesters and state.houses["atreides"].harvesters == 0
    assert state.houses["harkonnen"].harvesters == 1
    assert_conserved(state)


def test_GAP_17_a_storm_takes_a_committed_harvester_but_not_an_uncommitted_one():
    state = place(position(), "atreides", "erg-mineur", 7, 3)
    state = place(state, "harkonnen", "erg-mineur", 7, 2)
    state = commit_harvester(put_spice(state, "erg-mineur", 8), "atreides", "erg-mineur", 7)
    state = destroy_in_sector(state, 7, cause="main storm")
    assert not state.committed_harvesters and state.houses["atreides"].harvesters == 0
    assert state.houses["harkonnen"].harvesters == 1


def test_STORM_10_HARVEST_9_a_harvesting_army_and_its_harvester_are_lost_to_next_turns_storm():
    """Through the engine: committed at step f), it harvests at step j), then the next storm sweeps it."""
    state = place(position(), "atreides", "erg-mineur", 7, 3)
    state = place(state, "harkonnen", "bassin-du-bouclier", 6, 2)
    state = put_spice(put_spice(state, "erg-mineur", 8), "bassin-du-bouclier", 5)
    state = declare(state)
    state = apply_action(state, CommitHarvester("atreides", "erg-mineur", 7))
    state = apply_action(state, DoneHarvesting("harkonnen"))  # harkonnen's harvester stays uncommitted
    assert state.turn == 3 and state.pending.kind == "dial"
    assert spice_of(state, "atreides") == 13 and ("atreides", "erg-mineur", 7) in state.committed_harvesters
    state = dial(state, 3, 3)  # the storm passes sectors 2..7
    assert state.storm_main == 7
    assert not state.committed_harvesters and state.houses["atreides"].harvesters == 0
    assert state.houses["harkonnen"].harvesters == 1
    assert events_of(state, "harvester-destroyed")
    assert_conserved(state)


# --- TAX-1, TAX-2, GAP-36a, GAP-39 ----------------------------------------------------------------------------

def test_TAX_1_arrakeen_2_carthag_2_sietch_tarb_1_paid_by_the_bank():
    state = place(position(), "atreides", "arrakeen", 1, 2)
    state = place(state, "harkonnen", "carthag", 4, 2)
    state = place(state, "emperor", "sietch-tarb", 12, 2)
    state = place(state, "emperor", "arsunt", 5, 2)  # no tax for Arsunt, Gara Kulon, the Grotte
    state = place(state, "atreides", "gara-kulon", 20, 1)
    bank = state.bank
    state = collect(state)
    assert [(e.data["house"], e.data["area"], e.data["amount"]) for e in events_of(state, "tax")] == [
        ("atreides", "arrakeen", 2), ("harkonnen", "carthag", 2), ("emperor", "sietch-tarb", 1)]
    assert (spice_of(state, "atreides"), spice_of(state, "harkonnen"), spice_of(state, "emperor")) == (12, 12, 11)
    assert state.bank == bank - 5
    assert_conserved(state)


def test_TAX_2_taxes_are_collected_at_step_j_with_the_harvests():
    state = place(position(), "atreides", "arrakeen", 1, 2)
    state = place(state, "atreides", "erg-mineur", 7, 2)
    state = commit_harvester(put_spice(state, "erg-mineur", 8), "atreides", "erg-mineur", 7)
    state = collect(state)
    kinds = [e.kind for e in state.events]
    assert kinds.index("harvest") < kinds.index("tax") < kinds.index("turn-end")


def test_GAP_36a_a_shared_city_has_no_owner_and_pays_no_tax():
    state = place(position(), "atreides", "arrakeen", 1, 2)
    state = place(state, "harkonnen", "arrakeen", 1, 1)
    assert owner_of(state, "arrakeen") is None
    state = collect(state)
    assert not events_of(state, "tax") and spice_of(state, "atreides") == 10


def test_GAP_36a_tokens_at_peace_do_not_count_for_ownership():
    state = place(position(WITH_BG), "atreides", "arrakeen", 1, 2)
    state = place(state, "bene-gesserit", "arrakeen", 1, 3)
    state = dataclasses.replace(state, at_peace=(("bene-gesserit", "arrakeen"),))
    assert owner_of(state, "arrakeen") == "atreides"
    assert game_stats.cities_owned(state)["atreides"] == ["arrakeen"]


def test_GAP_39_only_the_owning_house_collects_the_tax():
    state = place(position(WITH_BG), "atreides", "arrakeen", 1, 2)
    state = place(state, "bene-gesserit", "arrakeen", 1, 3)
    state = dataclasses.replace(state, at_peace=(("bene-gesserit", "arrakeen"),))
    state = collect(state)
    assert [(e.data["house"], e.data["amount"]) for e in events_of(state, "tax")] == [("atreides", 2)]
    assert spice_of(state, "bene-gesserit") == 5 + 2 and spice_of(state, "atreides") == 12  # BG-P4: charity 2
    assert state.at_peace == ()  # peace lasts for the turn
    assert_conserved(state)


def test_BG_P3_tokens_at_peace_do_not_harvest():
    state = place(position(WITH_BG), "bene-gesserit", "erg-mineur", 7, 3)
    state = set_harvesters(put_spice(state, "erg-mineur", 8), "bene-gesserit", 1)
    state = commit_harvester(state, "bene-gesserit", "erg-mineur", 7)
    state = dataclasses.replace(state, at_peace=(("bene-gesserit", "erg-mineur"),))
    state = collect(state)
    assert spice_of(state, "bene-gesserit") == 5 + 2 and state.spice_on_map["erg-mineur"] == 8  # BG-P4 only
    assert events_of(state, "no-harvest")
    assert ("bene-gesserit", "erg-mineur", 7) in state.committed_harvesters  # not lost: its tokens are there


# --- VICTORY-1 to VICTORY-4, GAP-36b, BG-P6 -------------------------------------------------------------------

def test_VICTORY_1_the_target_is_agreed_or_suggested_by_player_count():
    assert victory_target(make_config(THREE, seed=1, victory_target=2)) == 2
    assert [suggested_target(n) for n in range(2, 9)] == [5, 5, 5, 4, 3, 3, 3]
    assert victory_target(make_config(THREE, seed=1)) == 5
    assert victory_target(make_config(["atreides", "harkonnen", "emperor", "guild", "fremen"], seed=1)) == 4
    with pytest.raises(RulesDataError):
        parse_victory_rules({"format": "dunenb.victory/1", "targets": [
            {"players": [2, 3], "low": 4, "high": 6, "default": 5}]})


def test_VICTORY_1_owning_the_target_at_the_end_of_a_turn_wins():
    state = position(victory_target=2)
    state = place(state, "harkonnen", "carthag", 4, 2)
    state = place(state, "harkonnen", "gara-kulon", 20, 1)
    state = place(state, "atreides", "arrakeen", 1, 2)
    state = collect(state)
    assert state.winner == "harkonnen" and state.phase == "game-over" and state.pending is None
    assert decisions(state) == []
    (victory,) = events_of(state, "victory")
    assert victory.data["winner"] == "harkonnen" and "VICTORY-1" in victory.text
    assert_conserved(state)


def test_VICTORY_1_below_the_target_play_goes_on():
    state = place(position(victory_target=3), "harkonnen", "carthag", 4, 2)
    state = place(state, "harkonnen", "gara-kulon", 20, 1)
    state = collect(state)
    assert state.winner is None and state.pending is not None and state.turn == 3


def test_GAP_36b_simultaneous_winners_the_most_cities_and_sietchs_wins():
    state = position(victory_target=2)
    for area, sector in (("arrakeen", 1), ("carthag", 4), ("arsunt", 5)):
        state = place(state, "atreides", area, sector, 1)
    for area, sector in (("sietch-tarb", 12), ("gara-kulon", 20)):
        state = place(state, "harkonnen", area, sector, 1)
    state = collect(state)
    assert state.winner == "atreides"


def test_GAP_36b_a_tie_at_the_top_plays_on():
    state = position(victory_target=2)
    for area, sector in (("arrakeen", 1), ("carthag", 4)):
        state = place(state, "atreides", area, sector, 1)
    for area, sector in (("sietch-tarb", 12), ("gara-kulon", 20)):
        state = place(state, "harkonnen", area, sector, 1)
    state = collect(state)
    assert state.winner is None and state.pending is not None
    assert events_of(state, "victory-tie")


def test_VICTORY_2_the_last_house_left_wins_and_eliminated_houses_are_skipped():
    state = place(position(), "harkonnen", "erg-mineur", 7, 2)
    state = commit_harvester(put_spice(state, "erg-mineur", 8), "harkonnen", "erg-mineur", 7)
    state = place(state, "atreides", "arrakeen", 1, 1)
    state = dataclasses.replace(state, eliminated=("harkonnen",))
    assert declare(state).phase != "harvest-declaration"  # harkonnen is not asked (GAP-47)
    state = collect(state)
    assert state.winner is None and spice_of(state, "harkonnen") == 10  # no harvest for the eliminated
    assert not state.committed_harvesters
    state = collect(dataclasses.replace(position(), eliminated=("harkonnen", "emperor")))
    assert state.winner == "atreides" and "VICTORY-2" in events_of(state, "victory")[0].text


def test_VICTORY_2_every_house_eliminated_ends_the_game_without_a_winner():
    state = collect(dataclasses.replace(position(), eliminated=tuple(THREE)))
    assert state.phase == "game-over" and state.pending is None and state.winner is None


def test_VICTORY_3_an_army_at_peace_does_not_own_the_territory_even_alone():
    state = place(position(WITH_BG, victory_target=1), "bene-gesserit", "carthag", 4, 3)
    state = dataclasses.replace(state, at_peace=(("bene-gesserit", "carthag"),))
    assert owner_of(state, "carthag") is None
    state = collect(state)
    assert state.winner is None and not events_of(state, "tax")


def test_VICTORY_4_nobody_wins_before_the_outlawed_house_is_destroyed():
    state = place(position(victory_target=1), "atreides", "arrakeen", 1, 2)
    outlawed = dataclasses.replace(state, outlawed=("harkonnen",))
    assert collect(outlawed).winner is None
    assert collect(dataclasses.replace(outlawed, eliminated=("harkonnen",))).winner == "atreides"


def test_BG_P6_a_right_prediction_makes_the_bene_gesserit_win_instead():
    state = place(position(WITH_BG, victory_target=1), "atreides", "arrakeen", 1, 2)
    bg = state.houses["bene-gesserit"]
    right = dataclasses.replace(bg, prediction=("atreides", 2))
    state_right = dataclasses.replace(state, houses=state.houses.set("bene-gesserit", right))
    assert collect(state_right).winner == "bene-gesserit"
    wrong = dataclasses.replace(bg, prediction=("atreides", 3))
    assert collect(dataclasses.replace(state, houses=state.houses.set("bene-gesserit", wrong))).winner == "atreides"


# --- random play through steps f) and j) ----------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_random_declarations_and_collection_keep_the_invariants(seed):
    rng = np.random.default_rng(seed)
    state = position()
    deserts = [a for a in collection.rules().board.deserts()]
    for house in THREE:
        state = set_spice(state, house, int(rng.integers(0, 20)))
        state = set_harvesters(state, house, int(rng.integers(0, 3)))
        for area in rng.choice(deserts, size=3, replace=False):
            state = place(state, house, area.id, int(rng.choice(area.sectors)), int(rng.integers(1, 4)))
    for area in rng.choice(deserts, size=6, replace=False):
        state = put_spice(state, area.id, int(rng.integers(1, 13)))
    state = declare(state)
    steps = 0
    while state.phase == "harvest-declaration":
        actions = decisions(state)
        assert actions and all(check_action(state, a) is None for a in actions)
        state = apply_action(state, actions[rng.integers(len(actions))])
        assert_conserved(state)
        steps += 1
        assert steps < 200
    if state.phase == "battle":  # Houses sharing a territory fight first: here step j) is begun directly
        state = collect(state)
        assert_conserved(state)
    assert state.turn == 3 and all(n >= 0 for n in state.spice_on_map.values())
    assert all(hs.harvesters >= 0 and hs.spice >= 0 for hs in state.houses.values())


# --- dunenb.analysis.game_stats -------------------------------------------------------------------------------

def test_game_stats_house_table_and_cities_owned():
    state = place(position(), "atreides", "arrakeen", 1, 3)
    state = place(state, "atreides", "erg-mineur", 7, 2)
    state = commit_harvester(state, "atreides", "erg-mineur", 7)
    state = place(state, "harkonnen", "carthag", 4, 1)
    state = place(state, "emperor", "carthag", 4, 1)
    assert game_stats.cities_owned(state) == {"atreides": ["arrakeen"], "harkonnen": [], "emperor": []}
    table = game_stats.house_table(state).set_index("house")
    assert table.columns.tolist() == game_stats.HOUSE_COLUMNS[1:]
    row = table.loc["atreides"]
    assert (row.on_dune, row.reserve, row.tanks, row.harvesters, row.harvesters_committed) == (5, 15, 0, 0, 1)
    assert (row.cities_owned, row.owned, bool(row.eliminated)) == (1, "arrakeen", False)
    assert row.leaders_alive == len(state.houses["atreides"].leaders) and row.leaders_dead == 0
    assert row.cards == len(state.houses["atreides"].hand)


def test_game_stats_line_table_has_one_row_per_house_per_turn_end():
    record = GameRecord(make_config(["atreides", "harkonnen"], seed=3, turn_limit=3))
    rng = np.random.default_rng(3)
    node = record.root
    from dunenb.engine import sample_chance

    while record.state_at(node).pending is not None:
        state = record.state_at(node)
        actions = decisions(state)
        action = sample_chance(state) if state.pending.actor == "chance" else actions[rng.integers(len(actions))]
        node = record.add_move(node, action)
    table = game_stats.line_table(record, node)
    assert table.columns.tolist() == game_stats.LINE_COLUMNS
    assert table.turn.tolist() == [1, 1, 2, 2, 3, 3] and table.house.tolist() == ["atreides", "harkonnen"] * 3
    final = record.state_at(node)
    last = table[table.turn == 3].set_index("house")
    assert last.loc["atreides", "spice"] == final.houses["atreides"].spice
    assert (table.tokens_on_dune >= 0).all()


@pytest.mark.parametrize("module", [collection, game_stats])
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
