"""Scene tests named after rule IDs of the map, setup, movement and harvest sections of rules_digest.md that were
cited in code without a test of their own: MAP-1, MAP-5, MAP-12, SETUP-3, MOVE-5, CARD-HAJJ-3, GAP-48, HARVEST-1,
HARVEST-2, HARVEST-13. Values are the spec's."""

from __future__ import annotations

from helpers_game import (
    BOARD,
    assert_conserved,
    board_tokens,
    commit_harvester,
    events_of,
    finish_turn,
    place,
    put_spice,
    quiet_setup,
    tokens_at,
)
from test_rules_collection import collect, declare, set_harvesters, spice_of
from test_rules_collection import position as collection_position
from test_rules_movement import error_code, movement_position, play, slot_of, with_hajj

from dunenb.engine import legal_actions
from dunenb.rules.anytime import BuyHarvester, SellHarvester
from dunenb.rules.collection import CommitHarvester
from dunenb.rules.movement import Land, Move, PlayHajj

# --- the map -------------------------------------------------------------------------------------------------


def test_map_1_the_play_area_is_sectors_territories_and_start_positions():
    assert BOARD.sector_count == 24  # MAP-2
    assert len(BOARD.areas) == 31  # MAP-6: 6 + 18 + 3 + 3 + 1 territories
    assert len(BOARD.start_positions) == 24  # MAP-8
    for area in BOARD.areas:  # every territory lies on sectors of the map
        assert area.sectors and set(area.sectors) <= set(range(1, 25))


def test_map_5_territories_are_independent_of_sectors():
    several_in_one = [s for s in range(1, 25) if len(BOARD.areas_in_sector(s)) > 2]
    assert several_in_one  # one sector holds several small territories
    assert len(BOARD.areas_in_sector(1)) >= 3  # sector 1: the Pole, Arrakeen, the Shield Wall ...
    assert {"arrakeen", "bouclier"} <= {a.id for a in BOARD.areas_in_sector(1)}
    spanning = [a for a in BOARD.areas if a.kind != "pole" and len(a.sectors) > 1]
    assert spanning  # one large territory spans several sectors
    assert BOARD.area("grande-etendue").sectors == (16, 17, 18, 19)
    assert BOARD.area("arrakeen").sectors == (1,)


def test_map_12_off_planet_tokens_come_in_only_by_landing():
    state = movement_position(spice={"atreides": 10})
    reserve = state.houses["atreides"].reserve.total
    assert reserve == 20 and board_tokens(state, "atreides").total == 0  # all off-planet, none on Dune
    state = play(state, Land("atreides", "arrakeen", 1, 4))
    assert state.houses["atreides"].reserve.total == reserve - 4
    assert tokens_at(state, "atreides", "arrakeen", 1) == 4
    assert_conserved(state)
    poor = movement_position(spice={"atreides": 1})  # unpaid tokens stay in (go back to) the garrison
    assert error_code(poor, Land("atreides", "grande-etendue", 17, 1)) == "land/cost"
    assert poor.houses["atreides"].reserve.total == 20
    fremen = slot_of(movement_position(["fremen", "atreides"]), "fremen")  # the Fremen are already on Dune
    assert not any(isinstance(a, Land) for a in legal_actions(fremen))


def test_setup_3_start_positions_never_change_during_the_game():
    houses = ["atreides", "harkonnen", "emperor"]
    state = quiet_setup(houses)  # starts 1, 4, 7
    starts = {h: state.houses[h].start_position for h in houses}
    assert starts == {"atreides": 1, "harkonnen": 4, "emperor": 7}
    for _ in range(2):  # two whole turns: storms move, the order of play turns, the starts stay
        state = finish_turn(state)
        assert {h: state.houses[h].start_position for h in houses} == starts


# --- movement ------------------------------------------------------------------------------------------------

def _longest_move(state, area):
    return max(len(a.path) for a in legal_actions(state) if isinstance(a, Move) and a.area == area)


def test_move_5_after_landing_a_group_moves_1_to_3_squares_depending_on_ornithopters():
    on_foot = play(movement_position(spice={"atreides": 10}), Land("atreides", "grande-etendue", 17, 2))
    assert _longest_move(on_foot, "grande-etendue") == 1  # no ornithopters: 1 square
    flying = play(movement_position(spice={"atreides": 10}), Land("atreides", "arrakeen", 1, 2))
    assert _longest_move(flying, "arrakeen") == 3  # ornithopters: up to 3 squares
    state = play(flying, Move("atreides", "arrakeen", 1, (("pole-nord", 1), ("sietch-tarb", 12),
                                                          ("nord-cielago", 13)), 2))
    assert tokens_at(state, "atreides", "nord-cielago", 13) == 2  # the same group that landed
    other = movement_position(spice={"atreides": 10}, forces=[("atreides", "carthag", 4, 3)])
    other = play(other, Land("atreides", "arrakeen", 1, 2), Move("atreides", "carthag", 4, (("arsunt", 5),), 3))
    assert tokens_at(other, "atreides", "arsunt", 5) == 3  # ... or another one


def test_card_hajj_3_extra_landing_1_a_token_in_a_city_2_elsewhere_and_a_stack_moves_twice():
    state = with_hajj(movement_position(spice={"atreides": 20}), "atreides")
    state = play(state, PlayHajj("atreides"), Land("atreides", "carthag", 4, 3))
    assert state.houses["atreides"].spice == 20 - 3
    state = play(state, Land("atreides", "gara-kulon", 20, 2))  # a Sietch: 1 a token
    assert state.houses["atreides"].spice == 20 - 3 - 2
    other = with_hajj(movement_position(spice={"atreides": 20}), "atreides")
    other = play(other, PlayHajj("atreides"), Land("atreides", "carthag", 4, 1),
                 Land("atreides", "erg-mineur", 7, 3))  # elsewhere: 2 a token
    assert other.houses["atreides"].spice == 20 - 1 - 6
    # the same stack moves twice, each time within its allowed squares: its movement is doubled
    moved = play(other, Move("atreides", "carthag", 4, (("pole-nord", 1), ("sietch-tarb", 12),
                                                        ("mesa-maya", 11)), 1))
    moved = play(moved, Move("atreides", "mesa-maya", 11, (("erg-majeur", 11), ("erg-habbanya", 11),
                                                            ("chaine-de-habbanya", 12)), 1))
    assert tokens_at(moved, "atreides", "chaine-de-habbanya", 12) == 1
    assert_conserved(moved)


def test_gap_48_harvesters_are_bought_and_sold_at_any_time_movement_and_harvest_steps_included():
    state = movement_position(spice={"atreides": 12})
    assert BuyHarvester("atreides") in legal_actions(state)
    state = play(state, BuyHarvester("atreides"))
    assert state.houses["atreides"].spice == 7
    assert SellHarvester("atreides") in legal_actions(state)
    at_f = place(collection_position(), "atreides", "erg-mineur", 7, 2)
    at_f = declare(put_spice(at_f, "erg-mineur", 6))
    assert at_f.pending.kind == "harvest-declaration" and at_f.pending.actor == "atreides"
    assert BuyHarvester("atreides") in legal_actions(at_f) and SellHarvester("atreides") in legal_actions(at_f)


# --- harvest -------------------------------------------------------------------------------------------------

def test_harvest_1_carrier_ornithopters_carry_the_harvester_troop_transports_carry_troops_and_spice():
    no_harvester = place(collection_position(), "atreides", "erg-mineur", 7, 4)
    no_harvester = collect(put_spice(no_harvester, "erg-mineur", 20))  # tokens but no harvester: nothing
    assert spice_of(no_harvester, "atreides") == 10 and no_harvester.spice_on_map["erg-mineur"] == 20
    on_foot = place(collection_position(), "atreides", "erg-mineur", 7, 4)
    on_foot = collect(commit_harvester(put_spice(on_foot, "erg-mineur", 20), "atreides", "erg-mineur", 7))
    assert spice_of(on_foot, "atreides") == 10 + 4  # no troop transports: 1 a token
    flying = place(place(collection_position(), "atreides", "erg-mineur", 7, 4), "atreides", "arrakeen", 1, 1)
    flying = collect(commit_harvester(put_spice(flying, "erg-mineur", 20), "atreides", "erg-mineur", 7))
    assert flying.spice_on_map["erg-mineur"] == 20 - 12  # troop transports: 3 a token
    assert_conserved(flying)


def test_harvest_2_one_deposit_per_harvester_at_once_and_no_limit():
    deposits = (("erg-mineur", 7), ("mesa-maya", 10), ("grande-etendue", 17), ("bled-des-sillons", 21))
    state = set_harvesters(collection_position(), "atreides", 4)
    for area, sector in deposits:
        state = commit_harvester(put_spice(place(state, "atreides", area, sector, 1), area, 5), "atreides", area,
                                 sector)
    state = collect(state)
    assert sorted(e.data["area"] for e in events_of(state, "harvest")) == sorted(a for a, _ in deposits)
    assert spice_of(state, "atreides") == 10 + 4
    one = set_harvesters(collection_position(), "atreides", 1)
    for area, sector in deposits[:2]:
        one = put_spice(place(one, "atreides", area, sector, 1), area, 5)
    one = declare(one)
    assert one.pending.kind == "harvest-declaration"
    one = play(one, CommitHarvester("atreides", "erg-mineur", 7))
    assert not (one.pending is not None and one.pending.kind == "harvest-declaration"
                and any(isinstance(a, CommitHarvester) for a in legal_actions(one)))  # its only harvester is out


def test_harvest_13_other_income_city_taxes_come_with_the_harvest():
    state = place(collection_position(), "atreides", "arrakeen", 1, 2)
    state = place(state, "atreides", "erg-mineur", 7, 2)
    state = collect(commit_harvester(put_spice(state, "erg-mineur", 10), "atreides", "erg-mineur", 7))
    assert [e.data["amount"] for e in events_of(state, "tax")] == [2]  # TAX-1: Arrakeen pays 2
    assert [e.data["amount"] for e in events_of(state, "harvest")] == [6]  # 2 tokens x 3 (ornithopters)
    assert spice_of(state, "atreides") == 10 + 2 + 6
    assert_conserved(state)


