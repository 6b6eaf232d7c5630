"""TURN-1 e): revival, landing, emergence and movement (LAND-1..7, MOVE-1..7, REVIVAL-1, HARVEST-3/4, STORM-8,
GAP-10, GAP-21, GAP-22, GAP-25a, GAP-26b, G-3, FREMEN-P4, CARD-HAJJ, LAND-4, MOVE-8, GAP-57).

Positions are built from a quiet setup (storm on sector 1, starts 1, 4, 7, ...), with the map cleared and forces
placed by hand, then the movement phase is opened directly with ``movement.begin_phase``.
"""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import (
    assert_conserved,
    clear_map,
    events_of,
    pass_karama,
    place,
    quiet_setup,
    set_storms,
    tokens_at,
)

from dunenb.actions import Pass, action_from_dict, parse_action
from dunenb.engine import apply_action, check_action, legal_actions
from dunenb.rules import movement
from dunenb.rules.common import storm_order
from dunenb.rules.movement import (
    BuyHarvester,
    Emerge,
    EndSlot,
    Land,
    Move,
    PlayHajj,
    Reposition,
    Revive,
    SellHarvester,
    TakeSlot,
    landing_cost,
)
from dunenb.state import Tokens

THREE = ["atreides", "harkonnen", "emperor"]  # starts 1, 4, 7: with the storm on 10, Atreides play first


# --- building positions ------------------------------------------------------------------------------------

def set_spice(state, house, amount):
    """Give ``house`` exactly ``amount`` spice, the Bank paying the difference (total spice stays 0)."""
    hs = state.houses[house]
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, spice=amount)),
                               bank=state.bank - (amount - hs.spice))


def to_tanks(state, house, regular, marked=0):
    """Move tokens from the reserve to the tanks (as if they had died)."""
    hs = state.houses[house]
    tokens = Tokens(regular, marked)
    return dataclasses.replace(state, houses=state.houses.set(
        house, dataclasses.replace(hs, reserve=hs.reserve - tokens, tanks=hs.tanks + tokens)))


def movement_position(houses=THREE, *, storm=10, spice=None, forces=(), tanks=None, actor=None, **kwargs):
    """An empty map (but ``forces``: (house, area, sector, regular[, marked])), the main storm on ``storm``, and the
    movement phase open on the first House in storm order (or, with ``actor``, on that House's slot)."""
    state = clear_map(quiet_setup(list(houses), **kwargs))
    state = set_storms(state, main=storm)
    for house, amount in (spice or {}).items():
        state = set_spice(state, house, amount)
    for house, (regular, marked) in (tanks or {}).items():
        state = to_tanks(state, house, regular, marked)
    for force in forces:
        state = place(state, *force)
    state = pass_karama(movement.begin_phase(dataclasses.replace(state, events=())))
    if state.pending.kind == "slot-choice":  # GUILD-P3: the Guild waits (tests of its choice ask otherwise)
        state = apply_action(state, Pass(state.pending.actor))
    assert state.pending.kind == "movement"
    assert_conserved(state)
    return state if actor is None else slot_of(state, actor)


def slot_of(state, house):
    """End slots until ``house`` is the one to act (the Guild, GUILD-P3, takes its slot when it is ``house``)."""
    while state.pending.kind != "movement" or state.pending.actor != house:
        actor = state.pending.actor
        if state.pending.kind == "slot-choice":
            state = apply_action(state, TakeSlot(actor) if actor == house else Pass(actor))
        elif state.pending.kind == "movement":
            state = apply_action(state, EndSlot(actor))
        else:
            state = apply_action(state, Pass(actor))
    return state


def play(state, *actions):
    """Play the actions; every Karama window after them is passed (GAP-63)."""
    for action in actions:
        state = pass_karama(apply_action(state, action))
        assert_conserved(state)
    return state


def error_code(state, action):
    error = check_action(state, action)
    return None if error is None else error.code


# --- the phase ----------------------------------------------------------------------------------------------

def test_TURN_3_slots_run_in_storm_order_and_end_slot_passes_on():
    state = movement_position(storm=5)  # starts 1, 4, 7: from sector 5 the order is Emperor, Atreides, Harkonnen
    order = storm_order(state)
    assert order == ("emperor", "atreides", "harkonnen")
    seen = []
    while state.phase == "movement" and state.pending.kind == "movement":
        seen.append(state.pending.actor)
        assert legal_actions(state)[0] == EndSlot(state.pending.actor)  # the passive default comes first
        state = apply_action(state, EndSlot(state.pending.actor))
    assert seen == list(order)
    assert state.phase != "movement"  # TURN-1 f) follows


def test_slot_actions_round_trip_through_dict_and_notation():
    actions = [
        Revive("atreides", 2, 1), Land("guild", "pole-nord", 1, 5, 0), Emerge("fremen", "sietch-tarb", 12, 3, 1),
        Move("atreides", "arrakeen", 1, (("bassin-imperial", 2), ("carthag", 4)), 4, 0),
        Reposition("harkonnen", "grande-etendue", 16, 19, 2, 0), BuyHarvester("emperor", 2),
        SellHarvester("atreides"), EndSlot("harkonnen"),
    ]
    for action in actions:
        assert action_from_dict(action.to_dict()) == action
        assert parse_action(action.notation()) == action


# --- LAND ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("area", "sector", "price"), [
    ("arrakeen", 1, 1), ("gara-kulon", 20, 1), ("sietch-tarb", 12, 1),  # city, Sietch: 1 a token
    ("grande-etendue", 18, 2), ("bouclier", 3, 2), ("pole-nord", 1, 2),  # desert, mountain, North Pole: 2
])
def test_LAND_1_one_spice_a_token_in_cities_and_sietchs_two_elsewhere(area, sector, price):
    state = movement_position(spice={"atreides": 10})
    state = play(state, Land("atreides", area, sector, 4))
    assert state.houses["atreides"].spice == 10 - 4 * price
    assert tokens_at(state, "atreides", area, sector) == 4
    assert state.houses["atreides"].reserve.total == 16
    assert events_of(state, "land")[0].data["cost"] == 4 * price


def test_LAND_3_worked_example_five_tokens_cost_5_at_gara_kulon_and_10_in_the_grande_etendue():
    assert landing_cost("gara-kulon", 5) == 5
    assert landing_cost("grande-etendue", 5) == 10
    for area, sector, cost in (("gara-kulon", 20, 5), ("grande-etendue", 17, 10)):
        state = play(movement_position(spice={"atreides": 10}), Land("atreides", area, sector, 5))
        assert state.houses["atreides"].spice == 10 - cost


def test_LAND_1_a_landing_the_house_cannot_pay_is_refused():
    state = movement_position(spice={"atreides": 9})
    assert error_code(state, Land("atreides", "grande-etendue", 17, 5)) == "land/cost"
    assert "enough for 4" in check_action(state, Land("atreides", "grande-etendue", 17, 5)).message
    assert error_code(state, Land("atreides", "grande-etendue", 17, 4)) is None
    assert error_code(state, Land("atreides", "grande-etendue", 17, 21)) == "land/too-many"  # reserve of 20
    assert error_code(state, Land("atreides", "grande-etendue", 12, 1)) == "land/sector"
    assert error_code(state, Land("atreides", "pole-nord", 7, 1)) == "land/sector"  # the Pole's army stands in 1
    assert error_code(state, Land("atreides", "atlantis", 1, 1)) == "land/area"
    assert error_code(state, Land("atreides", "arrakeen", 1, 0)) == "land/count"


def test_LAND_2_one_landing_per_turn_of_one_group_and_before_the_move():
    state = movement_position(spice={"atreides": 20})
    state = play(state, Land("atreides", "arrakeen", 1, 3))
    assert not any(isinstance(a, Land) for a in legal_actions(state))
    assert error_code(state, Land("atreides", "carthag", 4, 2)) == "land/once-per-turn"
    assert error_code(state, Land("atreides", "arrakeen", 1, 2)) == "land/once-per-turn"
    moved = play(movement_position(spice={"atreides": 20}, forces=[("atreides", "arrakeen", 1, 5)]),
                 Move("atreides", "arrakeen", 1, (("bassin-imperial", 2),), 5))
    assert error_code(moved, Land("atreides", "carthag", 4, 2)) == "land/after-move"


def test_LAND_5_STORM_8_tokens_landed_in_a_storm_sector_are_paid_for_and_destroyed():
    state = movement_position(storm=20, spice={"atreides": 10})  # the storm over Gara Kulon (a protected Sietch)
    state = play(state, Land("atreides", "gara-kulon", 20, 4))
    assert tokens_at(state, "atreides", "gara-kulon") == 0
    assert state.houses["atreides"].tanks.total == 4
    assert state.houses["atreides"].spice == 6  # still paid (LAND-5: "whatever the zone")
    assert events_of(state, "tokens-destroyed")[0].data["cause"] == "landing in the storm"
    safe = play(movement_position(storm=20, spice={"atreides": 10}),
                Land("atreides", "grande-etendue", 19, 3))  # another sector of a territory the storm does not cover
    assert tokens_at(safe, "atreides", "grande-etendue", 19) == 3


def test_LAND_5_the_north_pole_is_never_a_storm_sector():
    state = movement_position(storm=1, spice={"atreides": 10})
    state = play(state, Land("atreides", "pole-nord", 1, 3))  # the Pole's army stands in sector 1, under the storm
    assert tokens_at(state, "atreides", "pole-nord") == 3
    assert state.houses["atreides"].tanks.total == 0


def test_LAND_6_the_fremen_never_land():
    state = movement_position(["fremen", "atreides"])
    state = slot_of(state, "fremen")
    assert not any(isinstance(a, Land) for a in legal_actions(state))
    assert error_code(state, Land("fremen", "sietch-tarb", 12, 1)) == "land/fremen"


def test_LAND_7_landing_payments_go_to_the_guild():
    state = movement_position(["atreides", "guild", "emperor"], spice={"atreides": 10, "guild": 5})
    state = play(state, Land("atreides", "grande-etendue", 17, 3))
    assert state.houses["atreides"].spice == 4
    assert state.houses["guild"].spice == 11
    assert events_of(state, "land")[0].data["payee"] == "guild"


def test_GAP_26b_without_the_guild_the_bank_is_paid_and_the_guild_pays_the_bank_for_itself():
    state = movement_position(spice={"atreides": 10})
    bank = state.bank
    state = play(state, Land("atreides", "arrakeen", 1, 3))
    assert state.bank == bank + 3
    state = movement_position(["atreides", "guild", "emperor"], spice={"guild": 5})
    state = slot_of(state, "guild")
    bank = state.bank
    state = play(state, Land("guild", "arrakeen", 1, 7))  # GUILD-M1: 5 free; GUILD-P2: the other 2 cost ceil(2/2)
    assert state.houses["guild"].spice == 4 and state.bank == bank + 1


# --- FREMEN-P4 -----------------------------------------------------------------------------------------------

def test_FREMEN_P4_emergence_is_free_once_a_turn_into_a_sietch_or_a_desert_next_to_one():
    state = slot_of(movement_position(["fremen", "atreides"], storm=14), "fremen")
    reserve = state.houses["fremen"].reserve
    spice = state.houses["fremen"].spice
    menu = [a for a in legal_actions(state) if isinstance(a, Emerge)]
    assert {a.area for a in menu} == {"sietch-tarb", "gara-kulon", "grotte-aux-oiseaux", "mesa-maya", "nord-cielago",
                                      "grande-etendue", "bled-des-sillons", "sud-cielago", "bassin-plastique"}
    assert all(a.sector != 14 for a in menu)
    assert error_code(state, Emerge("fremen", "erg-majeur", 10, 2)) == "emerge/area"
    assert error_code(state, Emerge("fremen", "nord-cielago", 14, 2)) == "emerge/storm-sector"
    assert error_code(state, Emerge("fremen", "nord-cielago", 13, reserve.regular + 1)) == "emerge/too-many"
    state = play(state, Emerge("fremen", "nord-cielago", 13, reserve.regular, reserve.marked))  # any number
    assert tokens_at(state, "fremen", "nord-cielago", 13) == reserve.total
    assert state.houses["fremen"].spice == spice  # free
    assert error_code(state, Emerge("fremen", "sietch-tarb", 12, 0, 0)) == "emerge/once-per-turn"
    atreides = slot_of(movement_position(["fremen", "atreides"]), "atreides")
    assert error_code(atreides, Emerge("atreides", "sietch-tarb", 12, 1)) == "emerge/not-fremen"


# --- REVIVAL -------------------------------------------------------------------------------------------------

def test_REVIVAL_1_up_to_3_tokens_a_turn_at_1_spice_paid_to_the_bank_without_the_tleilax():
    state = movement_position(spice={"atreides": 10}, tanks={"atreides": (5, 0)})
    bank = state.bank
    assert error_code(state, Revive("atreides", 4)) == "revive/too-many"
    state = play(state, Revive("atreides", 2))
    assert state.houses["atreides"].tanks.total == 3 and state.houses["atreides"].reserve.total == 17
    assert state.houses["atreides"].spice == 8 and state.bank == bank + 2
    assert error_code(state, Revive("atreides", 2)) == "revive/too-many"  # 2 + 2 > 3 this turn
    state = play(state, Revive("atreides", 1))
    assert not any(isinstance(a, Revive) for a in legal_actions(state))


def test_REVIVAL_1_the_money_goes_to_the_bene_tleilax_when_they_play():
    state = movement_position(["atreides", "bene-tleilax", "emperor"], spice={"atreides": 10},
                              tanks={"atreides": (3, 0)})
    tleilax = state.houses["bene-tleilax"].spice
    state = play(state, Revive("atreides", 3))
    assert state.houses["bene-tleilax"].spice == tleilax + 3
    assert events_of(state, "revive")[0].data["payee"] == "bene-tleilax"


def test_REVIVAL_1_revival_needs_the_spice():
    state = movement_position(spice={"atreides": 1}, tanks={"atreides": (3, 0)})
    assert error_code(state, Revive("atreides", 2)) == "revive/cost"
    assert {a for a in legal_actions(state) if isinstance(a, Revive)} == {Revive("atreides", 1)}


def test_G_3_at_most_one_marked_token_revived_per_turn():
    state = movement_position(storm=5, spice={"emperor": 10}, tanks={"emperor": (2, 3)})  # Emperor first
    assert state.pending.actor == "emperor"
    assert error_code(state, Revive("emperor", 0, 2)) == "revive/marked"
    state = play(state, Revive("emperor", 1, 1))
    assert state.houses["emperor"].reserve.marked == 3  # 5 S: 3 dead, 1 back
    assert error_code(state, Revive("emperor", 0, 1)) == "revive/marked"
    assert all(a.marked == 0 for a in legal_actions(state) if isinstance(a, Revive))


def test_GAP_25a_revival_comes_before_the_landing_and_goes_to_the_reserve():
    state = movement_position(spice={"atreides": 20}, tanks={"atreides": (3, 0)})
    revived = play(state, Revive("atreides", 3))
    assert revived.houses["atreides"].reserve.total == 20  # G-2: revived tokens join the reserve
    landed = play(state, Land("atreides", "arrakeen", 1, 2))
    assert error_code(landed, Revive("atreides", 1)) == "revive/after-landing"
    assert not any(isinstance(a, Revive) for a in legal_actions(landed))


# --- MOVE ----------------------------------------------------------------------------------------------------

def test_MOVE_1_one_army_moves_once_per_turn():
    state = movement_position(forces=[("atreides", "arrakeen", 1, 5), ("atreides", "carthag", 4, 5)])
    state = play(state, Move("atreides", "arrakeen", 1, (("bassin-imperial", 2),), 5))
    assert tokens_at(state, "atreides", "bassin-imperial", 2) == 5
    assert error_code(state, Move("atreides", "carthag", 4, (("arsunt", 5),), 5)) == "move/once-per-turn"
    assert not any(isinstance(a, Move) for a in legal_actions(state))


def test_MOVE_2_an_army_or_part_of_it_moves():
    state = movement_position(forces=[("atreides", "arrakeen", 1, 10)])
    state = play(state, Move("atreides", "arrakeen", 1, (("bassin-imperial", 2),), 3))
    assert tokens_at(state, "atreides", "arrakeen", 1) == 7
    assert tokens_at(state, "atreides", "bassin-imperial", 2) == 3
    other = movement_position(forces=[("atreides", "arrakeen", 1, 10)])
    assert error_code(other, Move("atreides", "arrakeen", 1, (("bassin-imperial", 2),), 11)) == "move/too-many"
    assert error_code(other, Move("atreides", "carthag", 4, (("arsunt", 5),), 1)) == "move/no-army"


def test_MOVE_4a_GAP_22_moves_of_0_any_number_of_times_never_into_or_across_a_storm_sector():
    state = movement_position(storm=17, forces=[("atreides", "grande-etendue", 16, 6), ("atreides", "arrakeen", 1, 1)])
    assert error_code(state, Reposition("atreides", "grande-etendue", 16, 17, 6)) == "reposition/storm-sector"
    assert error_code(state, Reposition("atreides", "grande-etendue", 16, 19, 6)) == "reposition/storm-sector"
    assert error_code(state, Reposition("atreides", "grande-etendue", 16, 16, 6)) == "reposition/sector"
    assert error_code(state, Reposition("atreides", "pole-nord", 1, 2, 1)) == "reposition/no-army"
    state = movement_position(storm=5, forces=[("atreides", "grande-etendue", 16, 6)], actor="atreides")
    state = play(state, Reposition("atreides", "grande-etendue", 16, 18, 2),  # split the army
                 Reposition("atreides", "grande-etendue", 16, 19, 4),
                 Reposition("atreides", "grande-etendue", 18, 19, 2))  # and gather it again
    assert tokens_at(state, "atreides", "grande-etendue", 19) == 6
    assert any(isinstance(a, Move) for a in legal_actions(state))  # moves of 0 are not the turn's move


def test_MOVE_4b_one_territory_on_foot_each_territory_one_square():
    state = movement_position(forces=[("atreides", "grande-etendue", 17, 4)])  # no city or Sietch: no ornithopters
    two = Move("atreides", "grande-etendue", 17, (("erg-sihaya", 17), ("bassin-plastique", 17)), 4)
    assert error_code(state, two) == "move/too-far"
    assert "without ornithopters" in check_action(state, two).message
    assert error_code(state, Move("atreides", "grande-etendue", 17, (("arrakeen", 1),), 4)) == "move/not-adjacent"
    assert error_code(state, Move("atreides", "grande-etendue", 17, (), 4)) == "move/path"
    assert {len(a.path) for a in legal_actions(state) if isinstance(a, Move)} == {1}
    state = play(state, Move("atreides", "grande-etendue", 17, (("erg-sihaya", 18),), 4))
    assert tokens_at(state, "atreides", "erg-sihaya", 18) == 4


def test_MAP_7_MOVE_4b_GAP_49_sectors_do_not_count_any_sector_of_the_next_territory_may_be_named():
    state = movement_position(forces=[("atreides", "grande-etendue", 16, 4)])
    for sector in (17, 18):  # L163 "les secteurs ne comptent pas": no sector need touch the one left
        assert error_code(state, Move("atreides", "grande-etendue", 16, (("erg-sihaya", sector),), 4)) is None
    for sector in (19, 20, 21):  # 3 to 5 sectors away from 16: refused as "move/sector-gap" before GAP-49
        assert error_code(state, Move("atreides", "grande-etendue", 16, (("chaine-de-sihaya", sector),), 4)) is None
    assert error_code(state, Move("atreides", "grande-etendue", 16, (("pole-nord", 1),), 4)) is None
    assert error_code(state, Move("atreides", "grande-etendue", 16, (("erg-sihaya", 3),), 4)) == "move/sector"
    state = play(state, Move("atreides", "grande-etendue", 16, (("chaine-de-sihaya", 21),), 4))
    assert tokens_at(state, "atreides", "chaine-de-sihaya", 21) == 4


def test_MOVE_4b_GAP_49_the_routes_refused_before_are_legal_with_no_storm_near():
    # issue 9: Arrakeen -> Bassin Imperial -> Carthag and Gara Kulon -> Grande Etendue -> Nord Cielago
    state = movement_position(storm=10, forces=[("atreides", "arrakeen", 1, 3), ("atreides", "gara-kulon", 20, 2)])
    carthag = Move("atreides", "arrakeen", 1, (("bassin-imperial", 2), ("carthag", 4)), 3)
    assert error_code(state, carthag) is None
    assert error_code(state, dataclasses.replace(carthag, path=(("bassin-imperial", 3), ("carthag", 4)))) is None
    cielago = Move("atreides", "gara-kulon", 20, (("grande-etendue", 19), ("nord-cielago", 15)), 2)
    assert error_code(state, cielago) is None
    moved = play(state, carthag)
    assert tokens_at(moved, "atreides", "carthag", 4) == 3 and not events_of(moved, "tokens-destroyed")
    menu = [a for a in legal_actions(state) if isinstance(a, Move)]
    assert any(a.area == "arrakeen" and a.path[-1] == ("carthag", 4) for a in menu)
    assert any(a.area == "gara-kulon" and a.path[-1][0] == "nord-cielago" for a in menu)


def _census_position():
    """Atreides to move, with no storm anywhere on the board (the census of GAP-49)."""
    state = movement_position(storm=10, actor="atreides")
    return dataclasses.replace(state, storm_main=None, storm_secondary=None)


def test_MAP_7_MOVE_4b_GAP_49_census_every_pair_and_triple_of_adjacent_territories_can_be_moved():
    """With no storm, a group in A moves to B in each sector of B, and (with ornithopters) on to C in each pair
    of sectors of B and C, from each sector of A; and the menu offers each of those destinations."""
    base = _census_position()
    board = movement.rules().board
    assert not base.storm_sectors()
    pairs = triples = 0
    for first in board.areas:
        for start in movement.area_sectors(first.id):
            on_foot = place(base, "atreides", first.id, start, 3)
            state = on_foot
            if not first.is_settlement:
                state = place(state, "atreides", "arrakeen", 1, 1)  # GAP-21: a city gives ornithopters
                assert movement.move_range(on_foot, "atreides") == 1
                for second in first.adjacent:  # MOVE-4b: one territory on foot, into any of its sectors
                    for middle in movement.area_sectors(second):
                        one = Move("atreides", first.id, start, ((second, middle),), 3)
                        assert error_code(on_foot, one) is None, one.notation()
            assert movement.move_range(state, "atreides") == 3
            menu = {a.path[-1] for a in legal_actions(state)
                    if isinstance(a, Move) and (a.area, a.sector) == (first.id, start) and a.regular == 3}
            for second in first.adjacent:
                for middle in movement.area_sectors(second):
                    pairs += 1
                    one = Move("atreides", first.id, start, ((second, middle),), 3)
                    assert error_code(state, one) is None, one.notation()
                    assert (second, middle) in menu, one.notation()
                    for third in board.area(second).adjacent:
                        if third == first.id:
                            continue
                        for end in movement.area_sectors(third):
                            triples += 1
                            two = Move("atreides", first.id, start, ((second, middle), (third, end)), 3)
                            assert error_code(state, two) is None, two.notation()
                            assert (third, end) in menu, two.notation()
    assert pairs > 100 and triples > 1000


def test_MAP_7_GAP_49_census_moves_arrive_without_losses():
    """Each triple A, B, C of adjacent territories: the move through B's first sector really arrives in C."""
    base = _census_position()
    board = movement.rules().board
    for first in board.areas:
        start = movement.area_sectors(first.id)[0]
        state = place(base, "atreides", first.id, start, 3)
        if not first.is_settlement:
            state = place(state, "atreides", "sietch-tarb", 12, 1)
        for second in first.adjacent:
            for third in board.area(second).adjacent:
                if third in (first.id,):
                    continue
                end = movement.area_sectors(third)[-1]
                move = Move("atreides", first.id, start, ((second, movement.area_sectors(second)[0]), (third, end)), 3)
                after = apply_action(state, move)
                assert tokens_at(after, "atreides", third, end) >= 3, move.notation()
                assert not events_of(after, "tokens-destroyed")


def test_GAP_49_GAP_10_the_mover_names_the_sector_it_crosses_and_only_that_one_meets_the_storm():
    forces = [("atreides", "arrakeen", 1, 5)]  # a city: ornithopters
    route = (("bassin-imperial", 3), ("carthag", 4))
    state = movement_position(storm=2, forces=forces, actor="atreides")  # the storm on the Bassin's sector 2
    safe = play(state, Move("atreides", "arrakeen", 1, route, 5))  # crossed through sector 3: safe
    assert tokens_at(safe, "atreides", "carthag", 4) == 5 and not events_of(safe, "tokens-destroyed")
    lost = play(state, Move("atreides", "arrakeen", 1, (("bassin-imperial", 2), ("carthag", 4)), 5))
    assert tokens_at(lost, "atreides", "carthag") == 0 and lost.houses["atreides"].tanks.total == 5
    menu = [a for a in legal_actions(state) if isinstance(a, Move) and a.path[-1] == ("carthag", 4)]
    assert menu and all(("bassin-imperial", 2) not in a.path for a in menu)


def test_GAP_49_a_territory_wholly_under_a_storm_cannot_be_crossed_safely():
    state = movement_position(storm=4, secondary_storm=True, forces=[("atreides", "arrakeen", 1, 5)], actor="atreides")
    state = dataclasses.replace(state, storm_main=2, storm_secondary=3)  # both sectors of the Bassin Imperial
    assert movement.safe_sectors(state, "bassin-imperial") == ()
    assert movement.safe_sectors(state, "pole-nord") == (1,)
    menu = [a for a in legal_actions(state) if isinstance(a, Move)]
    safe = [a for a in menu if not any(movement.is_storm_sector(state, *step) for step in a.path)]
    assert safe and all("bassin-imperial" not in dict(a.path) for a in safe)
    assert any(a.path[-1] == ("carthag", 4) for a in safe)  # round by the Pole or the Shield Wall
    for sector in (2, 3):  # legal, but fatal
        through = Move("atreides", "arrakeen", 1, (("bassin-imperial", sector), ("carthag", 4)), 5)
        assert error_code(state, through) is None
        assert play(state, through).houses["atreides"].tanks.total == 5


def test_MOVE_4b_GAP_49_the_menu_stays_bounded_one_move_per_destination_sector_and_group():
    forces = [("atreides", "arrakeen", 1, 6), ("atreides", "grande-etendue", 17, 4)]
    state = movement_position(storm=10, forces=forces, actor="atreides")
    moves = [a for a in legal_actions(state) if isinstance(a, Move)]
    keys = [(a.area, a.sector, a.regular, a.marked, a.path[-1]) for a in moves]
    assert len(keys) == len(set(keys))  # one path per (army, group, destination sector)
    board_sectors = sum(len(movement.area_sectors(a.id)) for a in movement.rules().board.areas)
    assert len(moves) <= 2 * 2 * board_sectors + 2


def test_MOVE_6_GAP_21_a_token_in_a_city_or_sietch_gives_ornithopters_for_three_territories():
    forces = [("atreides", "grande-etendue", 17, 4), ("atreides", "gara-kulon", 20, 1)]
    state = movement_position(forces=forces)
    three = Move("atreides", "grande-etendue", 17,
                 (("erg-sihaya", 17), ("bassin-plastique", 16), ("grotte-aux-oiseaux", 15)), 4)
    assert error_code(state, three) is None  # the moving group itself is in a desert (GAP-21)
    four = Move("atreides", "grande-etendue", 17, three.path + (("chaine-de-habbanya", 14),), 4)
    assert error_code(state, four) == "move/too-far"
    state = play(state, three)
    assert tokens_at(state, "atreides", "grotte-aux-oiseaux", 15) == 4
    assert events_of(state, "move")[0].data["ornithopters"] is True
    revisit = Move("atreides", "gara-kulon", 20, (("grande-etendue", 19), ("gara-kulon", 20)), 1)
    assert error_code(movement_position(forces=forces), revisit) == "move/revisit"


def test_GAP_21_landing_in_a_city_first_gives_the_move_its_ornithopters():
    state = movement_position(spice={"atreides": 10}, forces=[("atreides", "grande-etendue", 17, 4)])
    two = Move("atreides", "grande-etendue", 17, (("erg-sihaya", 17), ("bassin-plastique", 17)), 4)
    assert error_code(state, two) == "move/too-far"
    state = play(state, Land("atreides", "arrakeen", 1, 1))
    assert error_code(state, two) is None
    assert max(len(a.path) for a in legal_actions(state) if isinstance(a, Move)) == 3


def test_MOVE_7_tokens_moving_into_a_storm_sector_are_destroyed():
    state = movement_position(storm=2, forces=[("atreides", "arrakeen", 1, 5)], actor="atreides")
    state = play(state, Move("atreides", "arrakeen", 1, (("bassin-imperial", 2),), 5))
    assert tokens_at(state, "atreides", "bassin-imperial") == 0
    assert state.houses["atreides"].tanks.total == 5
    assert events_of(state, "tokens-destroyed")[0].data["cause"] == "moving into the storm"


def test_MOVE_7_the_menu_lists_safe_destinations_and_the_storm_only_as_a_warning():
    state = movement_position(storm=2, forces=[("atreides", "arrakeen", 1, 5)], actor="atreides")
    moves = [a for a in legal_actions(state) if isinstance(a, Move)]
    into_storm = [a for a in moves if any(s == 2 and area != "pole-nord" for area, s in a.path)]
    assert len(into_storm) == 1  # one teaching entry per army (all tokens)
    assert all(error_code(state, a) is None for a in moves[:40])


def test_GAP_10_a_group_passing_through_a_storm_sector_is_destroyed():
    forces = [("atreides", "arrakeen", 1, 5)]  # a city: ornithopters
    state = movement_position(storm=3, forces=forces, actor="atreides")
    through = Move("atreides", "arrakeen", 1, (("bouclier", 2), ("bassin-imperial", 3), ("carthag", 4)), 5)
    assert error_code(state, through) is None  # legal, but fatal
    state = play(state, through)
    assert tokens_at(state, "atreides", "carthag") == 0 and tokens_at(state, "atreides", "bassin-imperial") == 0
    assert state.houses["atreides"].tanks.total == 5
    destroyed = events_of(state, "tokens-destroyed")[0].data
    assert (destroyed["area"], destroyed["sector"]) == ("bassin-imperial", 3)
    safe = play(movement_position(storm=3, forces=forces, actor="atreides"),
                Move("atreides", "arrakeen", 1, (("pole-nord", 1), ("carthag", 4)), 5))  # round by the Pole
    assert tokens_at(safe, "atreides", "carthag", 4) == 5


def test_GAP_10_the_north_pole_spares_a_group_passing_through_it():
    state = movement_position(storm=1, forces=[("atreides", "carthag", 4, 5)])
    state = play(state, Move("atreides", "carthag", 4, (("pole-nord", 1), ("sietch-tarb", 12)), 5))
    assert tokens_at(state, "atreides", "sietch-tarb", 12) == 5


# --- HARVEST-3/4 ---------------------------------------------------------------------------------------------

def test_HARVEST_3_a_harvester_costs_5_spice_from_the_bank():
    state = movement_position(spice={"atreides": 12})
    harvesters, bank = state.houses["atreides"].harvesters, state.bank
    state = play(state, BuyHarvester("atreides"), BuyHarvester("atreides"))
    assert state.houses["atreides"].harvesters == harvesters + 2
    assert state.houses["atreides"].spice == 2 and state.bank == bank + 10
    assert error_code(state, BuyHarvester("atreides")) == "harvester/cost"
    assert error_code(state, BuyHarvester("atreides", 0)) == "harvester/count"


def test_HARVEST_4_a_harvester_sells_for_3_spice_at_any_time_of_the_slot_too():
    state = movement_position(spice={"atreides": 0}, forces=[("atreides", "arrakeen", 1, 2)])
    state = play(state, Move("atreides", "arrakeen", 1, (("bassin-imperial", 2),), 2))  # after the move too
    hs = state.houses["atreides"]
    state = dataclasses.replace(state, houses=state.houses.set("atreides", dataclasses.replace(hs, harvesters=1)))
    bank = state.bank
    state = play(state, SellHarvester("atreides"))
    assert state.houses["atreides"].harvesters == 0
    assert state.houses["atreides"].spice == 3 and state.bank == bank - 3
    assert error_code(state, SellHarvester("atreides")) == "harvester/none"


# --- the menu ------------------------------------------------------------------------------------------------

def test_every_listed_slot_action_passes_the_rule_checks_and_keeps_the_invariants():
    forces = [("atreides", "arrakeen", 1, 4), ("atreides", "grande-etendue", 16, 3, 0),
              ("atreides", "pole-nord", 1, 2), ("atreides", "erg-mineur", 7, 1)]
    for storm in (2, 7, 17):
        state = movement_position(storm=storm, spice={"atreides": 12}, tanks={"atreides": (2, 0)}, forces=forces,
                                  actor="atreides")
        menu = legal_actions(state)
        assert {"end-slot", "revive", "land", "move", "reposition", "buy-harvester"} <= {a.kind for a in menu}
        for action in menu:  # slot actions, then those played at any time (harvesters: GAP-57)
            assert check_action(state, action) is None, action.notation()
            if action.kind in movement.slot_kinds():
                assert movement.check_slot_action(state, action) is None, action.notation()
        for action in menu[:: max(1, len(menu) // 25)]:
            assert_conserved(apply_action(state, action))


# --- CARD-HAJJ, LAND-4, MOVE-8 (GAP-57) ------------------------------------------------------------------------

def with_hajj(state, house):
    """Deal the Hajj from the treachery deck to ``house`` (cards stay conserved)."""
    from dunenb.rules.bidding import take_card

    state = take_card(state, "hajj")
    hs = state.houses[house]
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, hand=hs.hand + ("hajj",))))


def test_land_4_hajj_second_landing():
    state = with_hajj(movement_position(spice={"atreides": 20}, forces=[("atreides", "arrakeen", 1, 5)]), "atreides")
    assert PlayHajj("atreides") in legal_actions(state)  # CARD-HAJJ-1: during landing and movement
    state = play(state, Land("atreides", "arrakeen", 1, 3),
                 Move("atreides", "arrakeen", 1, (("bassin-imperial", 2),), 8))
    assert error_code(state, Land("atreides", "carthag", 4, 2)) == "land/once-per-turn"  # LAND-2 without the Hajj
    bank = state.bank
    state = play(state, PlayHajj("atreides"))
    assert "hajj" not in state.houses["atreides"].hand and state.treachery_discard[-1] == "hajj"  # GAP-27
    assert events_of(state, "hajj") and state.pending.actor == "atreides"
    assert any(isinstance(a, Land) for a in legal_actions(state))
    state = play(state, Land("atreides", "grande-etendue", 17, 2))  # LAND-1 prices the extra landing: 2 a token
    assert state.houses["atreides"].spice == 20 - 3 - 4 and state.bank == bank + 4
    assert tokens_at(state, "atreides", "grande-etendue", 17) == 2
    assert error_code(state, Land("atreides", "carthag", 4, 1)) == "land/once-per-turn"  # two landings, no third
    assert PlayHajj("atreides") not in legal_actions(state)
    assert error_code(state, PlayHajj("atreides")) == "hajj/no-card"


def test_land_4_GAP_57_with_the_hajj_both_landings_may_come_first_but_none_after_the_last_move():
    state = with_hajj(movement_position(spice={"atreides": 20}), "atreides")
    state = play(state, PlayHajj("atreides"), Land("atreides", "arrakeen", 1, 3), Land("atreides", "carthag", 4, 3))
    assert tokens_at(state, "atreides", "arrakeen", 1) == 3 and tokens_at(state, "atreides", "carthag", 4) == 3
    state = play(state, Move("atreides", "arrakeen", 1, (("bassin-imperial", 2),), 3),
                 Move("atreides", "carthag", 4, (("arsunt", 5),), 3))  # four settlements' worth in one turn
    other = with_hajj(movement_position(spice={"atreides": 20}, forces=[("atreides", "arrakeen", 1, 5)]), "atreides")
    other = play(other, PlayHajj("atreides"), Move("atreides", "arrakeen", 1, (("bassin-imperial", 2),), 5))
    assert error_code(other, Land("atreides", "carthag", 4, 2)) is None  # a move left: the landing may come
    other = play(other, Move("atreides", "bassin-imperial", 2, (("arrakeen", 1),), 5))
    assert error_code(other, Land("atreides", "carthag", 4, 2)) == "land/after-move"  # no landing after the last
    assert not any(isinstance(a, Land) for a in legal_actions(other))


def test_move_8_hajj_extra_move():
    forces = [("atreides", "grande-etendue", 17, 4), ("atreides", "gara-kulon", 20, 1)]
    state = with_hajj(movement_position(forces=forces), "atreides")
    three = Move("atreides", "grande-etendue", 17,
                 (("erg-sihaya", 17), ("bassin-plastique", 16), ("grotte-aux-oiseaux", 15)), 4)
    four = Move("atreides", "grande-etendue", 17, three.path + (("chaine-de-habbanya", 14),), 4)
    assert error_code(state, four) == "move/too-far"  # the Hajj does not lengthen one move (MOVE-4b)
    state = play(state, three)
    again = Move("atreides", "grotte-aux-oiseaux", 15, (("chaine-de-habbanya", 14),), 4)
    assert error_code(state, again) == "move/once-per-turn"  # MOVE-1 without the Hajj
    state = play(state, PlayHajj("atreides"))
    assert any(isinstance(a, Move) and a.area == "grotte-aux-oiseaux" for a in legal_actions(state))
    state = play(state, again)  # the same army moves twice: its move is doubled (L1487)
    assert tokens_at(state, "atreides", "chaine-de-habbanya", 14) == 4
    assert error_code(state, Move("atreides", "gara-kulon", 20, (("grande-etendue", 19),), 1)) == "move/once-per-turn"
    other = with_hajj(movement_position(forces=forces), "atreides")
    other = play(other, PlayHajj("atreides"), three, Move("atreides", "gara-kulon", 20, (("grande-etendue", 19),), 1))
    assert tokens_at(other, "atreides", "grande-etendue", 19) == 1  # or another army moves


def test_FREMEN_P4_the_hajj_gives_the_fremen_the_extra_move_only():
    state = with_hajj(slot_of(movement_position(["fremen", "atreides"], storm=14), "fremen"), "fremen")
    reserve = state.houses["fremen"].reserve
    state = play(state, PlayHajj("fremen"), Emerge("fremen", "nord-cielago", 13, 2))
    assert error_code(state, Emerge("fremen", "sietch-tarb", 12, 1)) == "emerge/once-per-turn"
    assert not any(isinstance(a, Emerge | Land) for a in legal_actions(state))
    moves = [a for a in legal_actions(state) if isinstance(a, Move)]
    state = play(state, moves[0])
    assert any(isinstance(a, Move) for a in legal_actions(state))  # the Hajj's extra move
    assert state.houses["fremen"].reserve.total == reserve.total - 2
