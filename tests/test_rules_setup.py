"""Game start: SETUP-1 to SETUP-5, GAP-4 to GAP-6, GAP-13, STORM-2, STORM-12, the START lines of houses.md."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from helpers_game import (
    BOARD,
    assert_conserved,
    board_tokens,
    events_of,
    force,
    outcome_map,
    play_setup,
    quiet_setup,
    tokens_at,
)

from dunenb.actions import ChooseStart, InitialStormDial, PlaceStartingForces, Roll3d10
from dunenb.engine import apply_action, legal_actions, new_game
from dunenb.errors import IllegalActionError
from dunenb.rules.setup import roll_order
from dunenb.ruleset import load_ruleset
from dunenb.state import Tokens

ALL_HOUSES = ("atreides", "harkonnen", "fremen", "emperor", "guild", "dispersion", "bene-gesserit", "bene-tleilax")


def roll_all(state, totals):
    """Apply 3d10 totals (and re-rolls) in whatever order the engine asks for them."""
    totals = {h: list(v) if isinstance(v, list | tuple) else [v] for h, v in totals.items()}
    while state.pending.kind == "roll" and totals[state.pending.detail["house"]]:
        house = state.pending.detail["house"]
        state = force(state, Roll3d10(house, totals[house].pop(0)))
    assert all(not v for v in totals.values()), f"rolls left unused: {totals}"
    return state


def illegal(state, action):
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, action)
    assert state == snapshot
    return info.value.code


# --- SETUP-2 and GAP-4 ---------------------------------------------------------------------------------

def test_SETUP_2_each_house_rolls_3d10():
    state = new_game(["atreides", "harkonnen", "emperor"], seed=1)
    seen = []
    while state.pending.kind == "roll":
        outcomes = outcome_map(state)
        house = state.pending.detail["house"]
        seen.append(house)
        assert {a.total for a in outcomes} == set(range(3, 31))
        assert sum(outcomes.values()) == 1
        assert outcomes[Roll3d10(house, 3)] == Fraction(1, 1000)
        assert outcomes[Roll3d10(house, 30)] == Fraction(1, 1000)
        assert outcomes[Roll3d10(house, 16)] == Fraction(75, 1000)  # number of ways to make 16 with 3d10
        assert outcomes[Roll3d10(house, 15)] == outcomes[Roll3d10(house, 18)]  # symmetric about 16.5
        state = force(state, Roll3d10(house, 10 + len(seen)))
    assert seen == ["atreides", "harkonnen", "emperor"]


def test_SETUP_2_lowest_total_chooses_first_then_upwards():
    state = new_game(["atreides", "harkonnen", "emperor", "guild"], seed=1)
    state = roll_all(state, {"atreides": 20, "harkonnen": 5, "emperor": 12, "guild": 29})
    order = []
    for position in (3, 9, 15, 21):
        order.append(state.pending.actor)
        state = apply_action(state, ChooseStart(state.pending.actor, position))
    assert order == ["harkonnen", "emperor", "atreides", "guild"]
    assert {h: state.houses[h].start_position for h in order} == {
        "harkonnen": 3, "emperor": 9, "atreides": 15, "guild": 21}


def test_SETUP_2_first_chooser_may_take_any_of_the_24_positions():
    state = roll_all(new_game(["atreides", "harkonnen"], seed=1), {"atreides": 7, "harkonnen": 8})
    assert [a.position for a in legal_actions(state)] == list(range(1, 25))


@pytest.mark.parametrize("first", [1, 10, 24])
def test_SETUP_2_adjacency_ban_needs_a_sector_line_between(first):
    state = roll_all(new_game(["atreides", "harkonnen", "emperor"], seed=1),
                     {"atreides": 7, "harkonnen": 8, "emperor": 9})
    state = apply_action(state, ChooseStart("atreides", first))
    neighbours = {(first - 2) % 24 + 1, first % 24 + 1}
    allowed = {a.position for a in legal_actions(state)}
    assert allowed == set(range(1, 25)) - neighbours - {first}
    for banned in sorted(neighbours | {first}):
        assert illegal(state, ChooseStart("harkonnen", banned)) == "action/illegal"
    two_away = first % 24 + 2 if first <= 22 else (first + 1) % 24 + 1
    assert two_away in allowed


def test_GAP_4b_only_the_previous_choosers_position_is_banned():
    state = roll_all(new_game(["atreides", "harkonnen", "emperor"], seed=1),
                     {"atreides": 7, "harkonnen": 8, "emperor": 9})
    state = apply_action(state, ChooseStart("atreides", 10))
    state = apply_action(state, ChooseStart("harkonnen", 15))
    allowed = {a.position for a in legal_actions(state)}
    assert {9, 11} <= allowed  # next to the first chooser, but not to the previous one: literal reading
    assert not {14, 15, 16, 10} & allowed
    state = apply_action(state, ChooseStart("emperor", 11))
    assert state.houses["emperor"].start_position == 11


def test_GAP_4a_a_two_way_tie_is_rerolled_by_both_tied_houses():
    state = new_game(["atreides", "harkonnen", "emperor"], seed=1)
    state = roll_all(state, {"atreides": [10], "harkonnen": [10], "emperor": [12]})
    assert state.pending.kind == "roll"  # the tie is not settled by table order
    asked = []
    while state.pending.kind == "roll":
        house = state.pending.detail["house"]
        asked.append(house)
        state = force(state, Roll3d10(house, {"atreides": 20, "harkonnen": 4}[house]))
    assert sorted(asked) == ["atreides", "harkonnen"]  # both re-roll, the emperor does not
    assert state.houses["harkonnen"].rolls == (10, 4)
    assert state.houses["atreides"].rolls == (10, 20)
    assert roll_order(state) == ("harkonnen", "atreides", "emperor")
    assert state.pending.actor == "harkonnen"
    assert events_of(state, "roll")


def test_GAP_4a_a_three_way_tie_rerolls_until_every_house_is_ranked():
    state = new_game(["atreides", "harkonnen", "emperor", "guild"], seed=1)
    state = roll_all(state, {"atreides": [10, 5, 20], "harkonnen": [10, 5, 8], "emperor": [10, 7], "guild": [3]})
    assert state.houses["emperor"].rolls == (10, 7)
    assert roll_order(state) == ("guild", "harkonnen", "atreides", "emperor")
    assert state.pending.kind == "start" and state.pending.actor == "guild"


def test_GAP_4a_a_repeated_tie_rolls_again():
    state = new_game(["atreides", "harkonnen"], seed=1)
    state = roll_all(state, {"atreides": [10, 12, 12, 3], "harkonnen": [10, 12, 12, 30]})
    assert roll_order(state) == ("atreides", "harkonnen")
    assert state.storm_dialers == ()
    assert state.pending.kind == "start"


# --- SETUP-4, GAP-5, GAP-6, STORM-2, STORM-12 -----------------------------------------------------------

def test_SETUP_4_the_two_highest_totals_dial_the_initial_storm():
    state = play_setup(["atreides", "harkonnen", "emperor", "guild"],
                       rolls={"atreides": 20, "harkonnen": 5, "emperor": 12, "guild": 29}, stop_before="storm-dial")
    assert state.storm_dialers == ("guild", "atreides")
    first = outcome_map(state)
    assert {a.house for a in first} == {"guild"}
    state = force(state, InitialStormDial("main", "guild", 3))
    assert {a.house for a in outcome_map(state)} == {"atreides"}


def test_GAP_5_a_tie_for_the_two_highest_totals_is_rerolled():
    state = play_setup(["atreides", "harkonnen", "emperor"],
                       rolls={"atreides": 25, "harkonnen": [20, 3], "emperor": [20, 17]}, stop_before="storm-dial")
    assert state.storm_dialers == ("atreides", "emperor")
    assert state.houses["harkonnen"].rolls == (20, 3)


def test_GAP_6_each_initial_dial_is_0_to_20_uniform():
    state = play_setup(["atreides", "harkonnen"], rolls={"atreides": 4, "harkonnen": 5}, stop_before="storm-dial",
                       secondary_storm=True)
    for storm in ("main", "secondary"):
        for index in range(2):
            outcomes = outcome_map(state)
            assert {a.value for a in outcomes} == set(range(21))
            assert set(outcomes.values()) == {Fraction(1, 21)}
            assert {a.storm for a in outcomes} == {storm}
            state = force(state, InitialStormDial(storm, state.storm_dialers[index], 0))


@pytest.mark.parametrize(("dials", "sector"), [
    ((0, 0), 1), ((7, 5), 13), ((12, 11), 24), ((12, 12), 1), ((20, 3), 24), ((20, 20), 17), ((1, 0), 2)])
def test_STORM_2_initial_storm_counts_from_arrakeen(dials, sector):
    state = play_setup(["atreides", "harkonnen"], rolls={"atreides": 4, "harkonnen": 5}, dials={"main": dials},
                       stop_before="spice")
    assert state.storm_main == sector  # counterclockwise = increasing sector numbers, wrapping after 24
    assert state.storm_secondary is None
    state2 = play_setup(["atreides", "harkonnen"], rolls={"atreides": 4, "harkonnen": 5}, stop_before="storm-dial")
    state2 = force(state2, InitialStormDial("main", "harkonnen", dials[0]))
    state2 = force(state2, InitialStormDial("main", "atreides", dials[1]))
    placed = events_of(state2, "storm-placed")[0].data
    assert placed["origin"] == BOARD.area("arrakeen").sectors[0] == 1
    assert placed["moves"] == sum(dials) and placed["sector"] == sector


@pytest.mark.parametrize(("dials", "sector"), [((0, 0), 15), ((4, 5), 24), ((5, 5), 1), ((20, 20), 7), ((9, 0), 24)])
def test_STORM_12_secondary_storm_counts_from_the_grotte_aux_oiseaux(dials, sector):
    assert BOARD.area("grotte-aux-oiseaux").sectors == (15,)
    state = play_setup(["atreides", "harkonnen"], rolls={"atreides": 4, "harkonnen": 5},
                       dials={"main": (2, 3), "secondary": dials}, stop_before="spice", secondary_storm=True)
    assert state.storm_main == 6
    assert state.storm_secondary == sector


def test_STORM_12_the_secondary_storm_is_optional():
    state = play_setup(["atreides", "harkonnen"], stop_before="spice")
    assert state.storm_secondary is None and state.storm_sectors() == (state.storm_main,)


# --- FREMEN-P1 at setup, SETUP-1 f and the START lines -----------------------------------------------------

def test_FREMEN_P1_the_fremen_draw_a_token_per_storm_at_setup():
    state = play_setup(["fremen", "atreides"], stop_before="storm-token", secondary_storm=True)
    for storm in ("main", "secondary"):
        outcomes = outcome_map(state)
        assert {(a.storm, a.value) for a in outcomes} == {(storm, v) for v in range(1, 8)}
        assert set(outcomes.values()) == {Fraction(1, 7)}
        state = apply_action(state, next(iter(outcomes)))
    assert set(state.storm_tokens) == {"main", "secondary"}
    assert state.pending.kind == "place"


START_LINES = {  # houses.md: spice, (regular, marked) tokens in all, harvesters, where the tokens start
    "atreides": (10, (20, 0), 1, {"arrakeen": 10}),
    "harkonnen": (10, (20, 0), 1, {"carthag": 10}),
    "fremen": (3, (17, 3), 1, None),
    "emperor": (10, (15, 5), 0, {}),
    "guild": (5, (20, 0), 0, {"pole-nord": 5}),
    "dispersion": (10, (17, 3), 1, {"arsunt": 10}),
    "bene-gesserit": (5, (20, 0), 0, {"pole-nord": 1}),
    "bene-tleilax": (10, (20, 0), 0, {}),
}


@pytest.mark.parametrize("house", ALL_HOUSES)
def test_START_line_of_every_house(house):
    spice, (regular, marked), harvesters, where = START_LINES[house]
    others = [h for h in ALL_HOUSES if h != house][:2]
    state = quiet_setup([house, *others], stop_before="auction-card")  # setup done, turn 1's auction next
    hs = state.houses[house]
    assert hs.spice == spice
    assert hs.harvesters == harvesters
    total = hs.reserve + hs.tanks + board_tokens(state, house)
    assert (total.regular, total.marked) == (regular, marked)
    if where is not None:
        on_map = {a: tokens_at(state, house, a) for (h, a, _s) in state.forces if h == house}
        assert on_map == where
        assert hs.reserve.total == 20 - sum(where.values())
    else:
        assert board_tokens(state, house).total == 10 and hs.reserve.total == 10  # FREMEN-START
    rules = load_ruleset().house(house)
    assert rules.free_cards == (2 if house == "harkonnen" else 1)  # SETUP-1 h
    assert_conserved(state)


# --- FREMEN-START ---------------------------------------------------------------------------------------------

def fremen_to_place(**kwargs):
    kwargs.setdefault("dials", {"main": (0, 0)})
    return play_setup(["fremen", "atreides"], rolls={"fremen": 4, "atreides": 5}, stop_before="place", **kwargs)


@pytest.mark.parametrize("placements", [
    [("sietch-tarb", 12, 10, 0)],
    [("sietch-tarb", 12, 1, 0), ("mur-sud", 13, 9, 0)],
    [("sietch-tarb", 12, 4, 0), ("mesa-maya", 9, 3, 0), ("nord-cielago", 15, 3, 0)],
    [("mesa-maya", 11, 7, 0), ("nord-cielago", 13, 3, 0)],
    [("sietch-tarb", 12, 2, 0), ("mur-sud", 12, 8, 0)],
    [("mesa-maya", 10, 10, 0)],
])
def test_FREMEN_START_any_legal_split_is_accepted(placements):
    state = fremen_to_place()
    after = apply_action(state, PlaceStartingForces("fremen", tuple(placements)))
    for area, sector, regular, _marked in placements:
        assert tokens_at(after, "fremen", area, sector) == regular
    assert after.houses["fremen"].reserve == Tokens(7, 3)  # 10 stay in the deep desert, the 3 F among them
    assert after.phase != "setup" or after.pending.kind == "spice"
    assert_conserved(after)


def test_FREMEN_START_neighbours_come_from_the_board():
    state = fremen_to_place()
    allowed = {p[0] for a in legal_actions(state) for p in a.placements}
    assert allowed == {"sietch-tarb", "mesa-maya", "nord-cielago", "mur-sud"}
    assert {a for a in BOARD.area("sietch-tarb").adjacent if BOARD.area(a).kind in ("mountain", "desert")} == (
        allowed - {"sietch-tarb"})
    for action in legal_actions(state):  # the representative menu is made of legal splits
        assert sum(p[2] for p in action.placements) == 10
        apply_action(state, action)


@pytest.mark.parametrize(("placements", "code"), [
    ([("sietch-tarb", 12, 1, 0), ("mur-sud", 13, 3, 0), ("mesa-maya", 9, 3, 0), ("nord-cielago", 14, 3, 0)],
     "setup/fremen-areas"),
    ([("sietch-tarb", 12, 5, 0), ("sietch-tarb", 12, 5, 0)], "setup/fremen-areas"),
    ([("sietch-tarb", 12, 5, 0), ("grande-etendue", 16, 5, 0)], "setup/fremen-area"),
    ([("sietch-tarb", 12, 5, 0), ("pole-nord", 12, 5, 0)], "setup/fremen-area"),
    ([("arrakeen", 1, 10, 0)], "setup/fremen-area"),
    ([("sietch-tarb", 12, 5, 0), ("mesa-maya", 12, 5, 0)], "setup/sector"),
    ([("sietch-tarb", 12, 9, 0)], "setup/fremen-count"),
    ([("sietch-tarb", 12, 11, 0)], "setup/fremen-count"),
    ([("sietch-tarb", 12, 7, 3)], "setup/fremen-count"),
    ([("sietch-tarb", 12, 12, 0), ("mur-sud", 12, -2, 0)], "setup/fremen-count"),
])
def test_FREMEN_START_illegal_splits_are_rejected_with_codes(placements, code):
    state = fremen_to_place()
    assert illegal(state, PlaceStartingForces("fremen", tuple(placements))) == code


def test_FREMEN_START_no_desert_sector_under_a_storm_G_8():
    state = fremen_to_place(dials={"main": (6, 6)})  # the main storm on sector 13
    assert state.storm_main == 13
    assert illegal(state, PlaceStartingForces("fremen", (("sietch-tarb", 12, 5, 0), ("nord-cielago", 13, 5, 0)))
                   ) == "setup/storm-sector"
    ok = apply_action(state, PlaceStartingForces("fremen", (("sietch-tarb", 12, 5, 0), ("nord-cielago", 14, 5, 0))))
    assert tokens_at(ok, "fremen", "nord-cielago", 14) == 5
    mountain = apply_action(state, PlaceStartingForces("fremen", (("sietch-tarb", 12, 5, 0), ("mur-sud", 13, 5, 0))))
    assert tokens_at(mountain, "fremen", "mur-sud", 13) == 5  # mountains are protected (GAP-9)
    for action in legal_actions(state):
        assert all(not (p[0] == "nord-cielago" and p[1] == 13) for p in action.placements)


def test_FREMEN_START_only_the_fremen_place():
    state = fremen_to_place()
    assert illegal(state, PlaceStartingForces("atreides", (("sietch-tarb", 12, 10, 0),))) == "action/not-your-turn"


# --- SETUP-5, SETUP-1 g, GAP-13 -------------------------------------------------------------------------------

def test_SETUP_5_no_worm_is_turned_at_setup_and_odds_are_conditional_on_a_territory():
    state = play_setup(["fremen", "atreides"], stop_before="spice")
    deck = state.spice_deck
    assert deck.remaining["worm"] == 36
    outcomes = outcome_map(state)
    assert all(a.card != "worm" for a in outcomes)
    assert len(outcomes) == 27 and set(outcomes.values()) == {Fraction(1, 27)}
    assert {a.pile for a in outcomes} == {1}
    state = force(state, next(a for a in outcomes if a.card == "bassin-du-bouclier/6"))
    outcomes = outcome_map(state)
    assert all(a.card != "worm" for a in outcomes) and {a.pile for a in outcomes} == {2}
    assert len(outcomes) == 26 and set(outcomes.values()) == {Fraction(1, 26)}
    assert state.spice_deck.remaining["worm"] == 36  # the worms stay in the deck (put back into play)


def test_SETUP_1g_two_territory_cards_then_GAP_13_turn_two_begins_with_the_storm():
    state = quiet_setup(["atreides", "harkonnen"])
    assert state.turn == 2 and state.phase == "storm"
    assert state.spice_on_map == {"bassin-du-bouclier": 6, "grande-etendue": 10}
    assert state.spice_deck.pile_tops == ("bassin-du-bouclier", "grande-etendue")
    # ATREIDES-P2 c: one card may be held apart on top of the deck
    assert state.spice_deck.remaining_count + ("spice" in state.deck_tops) == 27 + 18 - 2
    assert_conserved(state)


def test_GAP_13_a_turn_limit_of_one_ends_the_game_after_setup():
    state = quiet_setup(["atreides", "harkonnen"], turn_limit=1)
    assert state.pending is None and state.phase == "game-over"
    assert events_of(state, "game-over")
