"""Spice blow: SPICE-1 to SPICE-8, GAP-15 to GAP-18, GAP-27, ALLIANCE-1/2/4 (worm-triggered windows)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction

import pytest
from helpers_game import (
    BOARD,
    assert_conserved,
    commit_harvester,
    dial,
    events_of,
    finish_turn,
    force,
    force_card,
    force_cards,
    outcome_map,
    place,
    play_setup,
    quiet_setup,
    set_storms,
    tokens_at,
)

from dunenb.actions import RollWormDice
from dunenb.engine import new_game
from dunenb.rules.common import dice_sum_distribution
from dunenb.ruleset import load_ruleset
from dunenb.state import FrozenDict

THREE = ["atreides", "harkonnen", "emperor"]
#: for the deck's own odds: without the Atreides no top card is held apart (ATREIDES-P2 c, tested on its own)
UNSEEN = ["guild", "harkonnen", "emperor"]


def blow_position(houses=THREE, **kwargs):
    """Turn 2 after a storm move of 0 (main storm on sector 1): the first card of pile 1 is due.

    The worked example's deposits lie on the map: Bassin du Bouclier 6 (pile 1), Grande Etendue 10 (pile 2).
    """
    state = dial(quiet_setup(houses, **kwargs), 0, 0)
    if state.pending.kind == "dial":  # the secondary storm (on sector 15) stays put too
        state = dial(state, 0, 0)
    assert state.phase == "spice-blow" and state.pending.kind == "spice" and state.pending.detail["pile"] == 1
    assert state.turn == 2 and state.storm_main == 1
    return state


def draws(state, *cards):
    """Force cards in turn and collect the events of every transition."""
    seen = []
    for card in cards:
        state = force_card(state, card)
        seen.extend(state.events)
        assert_conserved(state)
    return state, seen


# --- SPICE-1, SPICE-2, SPICE-3: the deck --------------------------------------------------------------------

def test_SPICE_1_SPICE_3_one_mixed_deck_of_27_territory_cards_and_18_worms():
    rules = load_ruleset()
    assert rules.territory_card_count() == 27
    state = new_game(THREE, seed=1)
    remaining = state.spice_deck.remaining
    assert remaining["worm"] == 18
    assert sum(n for card, n in remaining.items() if card != "worm") == 27
    assert state.spice_deck.remaining_count == 45


def test_SPICE_3_36_worms_when_the_fremen_play():
    state = new_game(["fremen", "atreides"], seed=1)
    assert state.spice_deck.remaining["worm"] == 36
    assert state.spice_deck.remaining_count == 27 + 36


def test_SPICE_2_GAP_15_every_desert_has_a_card_values_1_to_12_and_the_example_cards():
    rules = load_ruleset()
    per_territory = Counter(t for t, _ in rules.territory_cards)
    assert set(per_territory) == {a.id for a in BOARD.deserts()}  # at least one card per spice desert
    assert all(1 <= v <= 12 for _, v in rules.territory_cards)
    assert per_territory["bassin-imperial"] == max(per_territory.values())  # "often"
    assert per_territory["bled-des-sillons"] == min(per_territory.values())  # "very rarely"
    assert ("bassin-du-bouclier", 6) in rules.territory_cards and ("grande-etendue", 10) in rules.territory_cards


@pytest.mark.parametrize(("option", "houses", "base", "dice", "die"), [
    ("18+1d10", THREE, 18, 1, 10), ("18+2d10", THREE, 18, 2, 10), ("18+3d10", THREE, 18, 3, 10),
    ("18+1d5", THREE, 18, 1, 5), ("18+2d5", THREE, 18, 2, 5), ("18+3d5", THREE, 18, 3, 5),
    ("36+1d10", ["fremen", "atreides"], 36, 1, 10), ("36+1d5", THREE, 36, 1, 5),
])
def test_SPICE_3_worm_dice_options(option, houses, base, dice, die):
    state = play_setup(houses, worm_option=option, stop_before="worm-dice")
    assert state.pending.kind == "worm-dice"
    assert state.spice_deck.remaining["worm"] == base
    outcomes = outcome_map(state)
    assert {a.total: p for a, p in outcomes.items()} == dice_sum_distribution(dice, die)
    assert min(a.total for a in outcomes) == dice and max(a.total for a in outcomes) == dice * die
    assert sum(outcomes.values()) == 1
    state = force(state, RollWormDice(dice + 1))
    assert state.spice_deck.remaining["worm"] == base + dice + 1
    assert state.pending.kind == "start"


def test_SPICE_3_the_standard_option_rolls_no_dice():
    state = play_setup(["fremen", "atreides"], stop_before="start")
    assert state.pending.kind == "start"
    assert not events_of(state, "worm-dice")


def test_SPICE_1_a_draw_is_weighted_by_the_cards_left():
    state = blow_position(UNSEEN)
    outcomes = outcome_map(state)
    remaining = state.spice_deck.remaining
    total = state.spice_deck.remaining_count
    assert total == 43
    assert {a.card: p for a, p in outcomes.items()} == {c: Fraction(n, total) for c, n in remaining.items()}
    assert {a.card: p for a, p in outcomes.items()}["worm"] == Fraction(18, 43)
    assert "bassin-du-bouclier/6" not in remaining and "grande-etendue/10" not in remaining


# --- SPICE-4, SPICE-5, SPICE-6, SPICE-8: the worked example ---------------------------------------------------

def test_SPICE_4_two_piles_turned_just_after_the_storm():
    state = blow_position()
    assert state.spice_deck.pile_tops == ("bassin-du-bouclier", "grande-etendue")
    state = force_card(state, "erg-mineur/4")
    assert state.pending.detail["pile"] == 2
    state = force_card(state, "mesa-maya/5")
    assert state.spice_deck.pile_tops == ("erg-mineur", "mesa-maya")
    assert state.turn == 2 and state.phase == "bidding"  # the blow is over: TURN-1 d) follows
    assert finish_turn(state).turn == 3


def test_SPICE_5_worked_example_first_card_6_second_card_10():
    state = quiet_setup(THREE, stop_before="spice")
    state = force_card(state, "bassin-du-bouclier/6")
    assert dict(state.spice_on_map) == {"bassin-du-bouclier": 6}
    assert state.bank == -sum(h.spice for h in state.houses.values()) - 6
    state = force_card(state, "grande-etendue/10")
    assert dict(state.spice_on_map) == {"bassin-du-bouclier": 6, "grande-etendue": 10}
    assert_conserved(state)


def test_SPICE_5_next_turn_a_new_territory_on_pile_1_leaves_the_old_deposit():
    state, seen = draws(blow_position(), "erg-mineur/4", "mesa-maya/5")
    assert dict(state.spice_on_map) == {
        "bassin-du-bouclier": 6, "grande-etendue": 10, "erg-mineur": 4, "mesa-maya": 5}
    placed = [(e.data["pile"], e.data["area"], e.data["amount"]) for e in seen if e.kind == "spice-placed"]
    assert placed == [(1, "erg-mineur", 4), (2, "mesa-maya", 5)]


def test_SPICE_6_worked_example_a_worm_on_pile_1_devours_the_bassin_du_bouclier():
    state = blow_position()
    state = place(state, "emperor", "bassin-du-bouclier", 6, 3, 2)
    state = place(state, "harkonnen", "bassin-du-bouclier", 7, 4)
    state = commit_harvester(state, "harkonnen", "bassin-du-bouclier", 7)
    state = place(state, "atreides", "bassin-du-bouclier", 6, 2)  # atreides' harvester is not committed
    state = place(state, "atreides", "erg-mineur", 6, 3)  # a neighbouring territory, same sector
    state = place(state, "emperor", "grande-etendue", 17, 1)  # the other pile's deposit
    state = force_card(state, "worm")
    assert [e.data["area"] for e in events_of(state, "worm")] == ["bassin-du-bouclier"]
    assert tokens_at(state, "emperor", "bassin-du-bouclier") == 0
    assert tokens_at(state, "harkonnen", "bassin-du-bouclier") == 0
    assert tokens_at(state, "atreides", "bassin-du-bouclier") == 0
    assert state.houses["emperor"].tanks.total == 5 and state.houses["emperor"].tanks.marked == 2
    assert "bassin-du-bouclier" not in state.spice_on_map
    assert ("harkonnen", "bassin-du-bouclier", 7) not in state.committed_harvesters
    assert state.houses["atreides"].harvesters == 1  # SPICE-6 / GAP-17: only harvesters actually harvesting
    assert tokens_at(state, "atreides", "erg-mineur") == 3
    assert tokens_at(state, "emperor", "grande-etendue") == 1 and state.spice_on_map["grande-etendue"] == 10
    assert state.pending.kind == "spice" and state.pending.detail["pile"] == 1  # GAP-16: draw again
    assert_conserved(state)


def test_SPICE_8_a_worm_kills_every_army_in_the_territory_in_every_sector():
    state = blow_position()
    for sector, house in ((16, "atreides"), (17, "harkonnen"), (18, "emperor"), (19, "emperor")):
        state = place(state, house, "grande-etendue", sector, 2)
    state = force_cards(state, "erg-mineur/5", "worm")
    assert events_of(state, "worm")[0].data["area"] == "grande-etendue"
    assert not state.houses_in("grande-etendue")
    assert {h: state.houses[h].tanks.total for h in THREE} == {"atreides": 2, "harkonnen": 2, "emperor": 4}
    assert_conserved(state)


# --- GAP-15, GAP-16, GAP-18, GAP-27 ----------------------------------------------------------------------------

def test_GAP_15_a_repeat_card_adds_to_the_deposit_already_there():
    state, seen = draws(blow_position(), "bassin-du-bouclier/4")
    assert state.spice_on_map["bassin-du-bouclier"] == 10
    assert "GAP-15" in events_of(state, "spice-placed")[0].text


def test_GAP_16_the_same_pile_draws_again_until_a_territory_appears():
    state = blow_position()
    state = place(state, "emperor", "bassin-du-bouclier", 6, 2)
    state, seen = draws(state, "worm", "worm", "worm", "erg-majeur/8")
    assert [e.data["area"] for e in seen if e.kind == "worm"] == ["bassin-du-bouclier"] * 3  # same pile, same place
    assert state.pending.detail["pile"] == 2
    assert state.spice_deck.pile_tops == ("erg-majeur", "grande-etendue")
    state, seen = draws(state, "worm", "bassin-plastique/9")
    assert [e.data["area"] for e in seen if e.kind == "worm"] == ["grande-etendue"]  # pile 2's own deposit
    assert dict(state.spice_on_map) == {"erg-majeur": 8, "bassin-plastique": 9}
    assert state.phase == "alliance"  # the blow is over; its 3 worms in a row opened 2 windows (GAP-19a)


def test_GAP_16_a_worm_next_turn_strikes_the_newest_territory_of_its_pile():
    state, _ = draws(blow_position(), "erg-mineur/4", "mesa-maya/5")
    state = dial(finish_turn(state), 0, 0)  # turn 3
    state = place(state, "emperor", "erg-mineur", 8, 1)
    state, seen = draws(state, "worm")
    assert [e.data["area"] for e in seen if e.kind == "worm"] == ["erg-mineur"]
    assert state.spice_on_map["bassin-du-bouclier"] == 6  # the older deposit under it is safe
    assert "erg-mineur" not in state.spice_on_map and tokens_at(state, "emperor", "erg-mineur") == 0


def test_GAP_18_no_spice_under_the_storm_but_the_card_counts():
    state = set_storms(blow_position(), main=6)  # Bassin du Bouclier's diamond is in sector 6
    state, seen = draws(state, "bassin-du-bouclier/4")
    assert state.spice_on_map["bassin-du-bouclier"] == 6  # nothing added
    blown = [e for e in seen if e.kind == "spice-blown-away"]
    assert len(blown) == 1 and blown[0].data["area"] == "bassin-du-bouclier" and blown[0].data["amount"] == 0
    assert state.spice_deck.pile_tops[0] == "bassin-du-bouclier"
    assert state.spice_deck.discard["bassin-du-bouclier/4"] == 1
    state, _ = draws(state, "erg-sihaya/6")  # diamond in sector 17: not under the storm
    assert state.spice_on_map["erg-sihaya"] == 6


def test_GAP_18_the_secondary_storm_also_blocks_a_blow():
    state = set_storms(blow_position(secondary_storm=True), secondary=10)
    state, seen = draws(state, "mesa-maya/5")  # diamond in sector 10
    assert "mesa-maya" not in state.spice_on_map
    assert [e.kind for e in seen if e.kind.startswith("spice-")] == ["spice-blown-away"]


def test_GAP_18_at_setup_too():
    state = quiet_setup(THREE, dials={"main": (2, 3)})  # the main storm on sector 6
    assert dict(state.spice_on_map) == {"grande-etendue": 10}
    assert state.spice_deck.pile_tops == ("bassin-du-bouclier", "grande-etendue")


def test_GAP_27_an_empty_deck_is_reshuffled_from_its_discards():
    state = blow_position(UNSEEN)
    empty = dataclasses.replace(state.spice_deck, remaining=FrozenDict(),
                                discard=FrozenDict({"erg-mineur/4": 1, "worm": 2}))
    state = dataclasses.replace(state, spice_deck=empty)
    outcomes = {a.card: p for a, p in outcome_map(state).items()}
    assert outcomes == {"erg-mineur/4": Fraction(1, 3), "worm": Fraction(2, 3)}
    state = force_card(state, "erg-mineur/4")
    assert events_of(state, "reshuffle")
    assert dict(state.spice_deck.remaining) == {"worm": 2}
    assert dict(state.spice_deck.discard) == {"erg-mineur/4": 1}
    assert state.spice_on_map["erg-mineur"] == 4


def test_GAP_27_a_reshuffle_in_the_middle_of_a_worm_run():
    state = blow_position(UNSEEN)
    deck = dataclasses.replace(state.spice_deck, remaining=FrozenDict({"worm": 1}),
                               discard=FrozenDict({"terre-brisee/7": 1}))
    state, seen = draws(dataclasses.replace(state, spice_deck=deck), "worm", "terre-brisee/7")
    assert [e.kind for e in seen if e.kind in ("worm", "reshuffle", "spice-placed")] == [
        "worm", "reshuffle", "spice-placed"]
    assert dict(state.spice_deck.discard) == {"terre-brisee/7": 1}


# --- ALLIANCE-1, ALLIANCE-2, ALLIANCE-4 -------------------------------------------------------------------------

def windows(seen):
    return [e.data["window"] for e in seen if e.kind == "alliance-window"]


def test_ALLIANCE_1_two_worms_in_a_row_open_one_window():
    state, seen = draws(blow_position(), "worm", "worm", "erg-mineur/4")
    assert windows(seen) == [1]
    assert state.alliance_windows == 1


def test_ALLIANCE_1_a_single_worm_opens_no_window():
    state, seen = draws(blow_position(), "worm", "erg-mineur/4", "mesa-maya/5")
    assert windows(seen) == []


def test_ALLIANCE_2_three_worms_in_a_row_open_two_windows():
    state, seen = draws(blow_position(), "worm", "worm", "worm", "erg-mineur/4")
    assert windows(seen) == [1, 2]
    assert state.alliance_windows == 2


def test_ALLIANCE_4_each_new_window_breaks_the_previous_alliance():
    state, seen = draws(blow_position(), "worm", "worm", "worm", "worm", "erg-mineur/4")
    texts = [e.text for e in seen if e.kind == "alliance-window"]
    assert len(texts) == 3
    assert "ALLIANCE-4" not in texts[0]
    assert all("ALLIANCE-4" in t for t in texts[1:])


def test_ALLIANCE_1_GAP_16_a_run_does_not_cross_piles_or_turns():
    state, seen = draws(blow_position(), "worm", "erg-mineur/4", "worm", "mesa-maya/5")
    assert windows(seen) == []
    state = dial(finish_turn(state), 0, 0)  # turn 3: the counter starts again
    assert state.alliance_windows == 0 and state.worm_run == 0
    state, seen = draws(state, "worm", "erg-majeur/10")
    assert windows(seen) == []


def test_ALLIANCE_1_windows_on_pile_2_count_too():
    state, seen = draws(blow_position(), "erg-mineur/4", "worm", "worm", "mesa-maya/5")
    assert windows(seen) == [1]
    assert [e.data["pile"] for e in seen if e.kind == "alliance-window"] == [2]


def test_SPICE_6_a_worm_is_a_chance_outcome_with_the_decks_odds_after_a_worm():
    state = force_card(blow_position(UNSEEN), "worm")
    outcomes = {a.card: p for a, p in outcome_map(state).items()}
    assert outcomes["worm"] == Fraction(17, 42)
    assert sum(outcomes.values()) == 1


def test_setup_cards_follow_the_worked_example_in_a_fremen_game():
    state = play_setup(["fremen", "atreides"], dials={"main": (0, 0)}, tokens={"main": 1})
    assert dict(state.spice_on_map) == {"bassin-du-bouclier": 6, "grande-etendue": 10}
    assert_conserved(state)
