"""ATREIDES-P2 (c)-(d) (houses.md): the Atreides see the top card of the territory deck and of the Chance deck at
all times; KARAMA-41 blinds them for a turn. The top is held apart at its own chance node (same odds), only its
viewers see it, and the next draw takes it."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from dunenb.actions import DrawSpiceCard
from dunenb.analysis.worms import worm_strike_table
from dunenb.engine import (
    CHANCE,
    apply_action,
    check_action,
    current_player,
    legal_actions,
    new_game,
    sample_chance,
    view,
)
from dunenb.engine import chance_outcomes as outcomes
from dunenb.powers.karama import suppress
from dunenb.record import GameRecord
from dunenb.rules import deck_tops
from dunenb.rules.spice import spice_outcomes


def _play(houses, *, until, seed=3, chance_cards=False, limit=4000):
    """Random decisions, sampled chance, until ``until(state)`` holds just before a node is played."""
    state = new_game(houses, seed=seed, chance_cards=chance_cards)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.pending is None or until(state):
            return state
        action = sample_chance(state) if current_player(state) == CHANCE else rng.choice(legal_actions(state))
        state = apply_action(state, action)
    raise AssertionError("the scene was not reached")


def _spice_node_of_turn_2(state):
    return state.turn == 2 and state.pending.kind == "spice"


def test_atreides_p2_c_after_the_setup_the_top_of_the_territory_deck_is_held_apart():
    state = _play(["atreides", "fremen", "harkonnen"], until=lambda s: s.pending.kind == "deck-top")
    assert state.turn == 1 and state.pending.detail["deck"] == "spice"
    # the odds of the top are those of the unseen cards: holding it apart changes no probability
    counts = state.spice_deck.remaining
    total = sum(counts.values())
    assert {(a.card, p) for a, p in outcomes(state)} == {(card, Fraction(n, total)) for card, n in counts.items()}


def test_atreides_p2_c_only_the_atreides_see_the_top_and_the_counts_do_not_give_it_away():
    state = _play(["atreides", "fremen", "harkonnen"], until=lambda s: s.turn == 2 and s.phase == "storm")
    top = state.deck_tops["spice"]
    atreides, fremen = view(state, "atreides"), view(state, "fremen")
    assert atreides.deck_tops["spice"] == top and atreides.spice_deck.remaining == state.spice_deck.remaining
    assert fremen.deck_tops == {} and "spice" not in fremen.deck_tops
    assert fremen.spice_deck.remaining[top] == state.spice_deck.remaining.get(top, 0) + 1


def test_atreides_p2_c_the_next_draw_takes_the_top_and_a_new_top_comes_before_the_card_acts():
    state = _play(["atreides", "fremen", "harkonnen"], until=_spice_node_of_turn_2)
    top, pile = state.deck_tops["spice"], state.pending.detail["pile"]
    assert spice_outcomes(state) == [(DrawSpiceCard(pile, top), Fraction(1))]
    other = next(card for card in state.spice_deck.remaining if card != top)
    assert check_action(state, DrawSpiceCard(pile, other)) is not None  # not the top: refused
    after = apply_action(state, DrawSpiceCard(pile, top))
    assert after.pending.kind == "deck-top" and "spice" not in after.deck_tops
    assert not [e for e in after.events if e.kind == "spice-placed"]  # the card acts once the next top is known
    settled = apply_action(after, sample_chance(after))
    assert "spice" in settled.deck_tops


def test_without_the_atreides_no_top_is_held_apart():
    state = _play(["fremen", "harkonnen", "emperor"], until=lambda s: s.turn == 3)
    assert state.deck_tops == {}
    assert deck_tops.top_viewers(state) == ()


def test_atreides_p2_karama_41_blinds_them_to_the_top_for_the_turn():
    state = _play(["atreides", "fremen", "harkonnen"], until=lambda s: s.turn == 2 and s.phase == "storm")
    top = state.deck_tops["spice"]
    blind = suppress(state, "KARAMA-41", "fremen")
    assert deck_tops.top_viewers(blind) == ()
    seen = view(blind, "atreides")
    assert seen.deck_tops == {} and seen.spice_deck.remaining[top] == state.spice_deck.remaining.get(top, 0) + 1
    assert deck_tops.top(blind, "spice") == top  # the card is still on top: the next draw takes it


def test_atreides_p2_d_the_top_of_the_chance_deck():
    state = _play(["atreides", "fremen", "harkonnen"], until=lambda s: s.turn == 2 and s.phase == "storm",
                  chance_cards=True)
    top = state.deck_tops["chance"]
    assert view(state, "atreides").deck_tops["chance"] == top and "chance" not in view(state, "fremen").deck_tops
    drawing = _play(["atreides", "fremen", "harkonnen"], chance_cards=True,
                    until=lambda s: s.turn == 2 and s.pending.kind == "chance-card")
    forced = drawing.deck_tops["chance"]
    assert [(a.card, p) for a, p in outcomes(drawing)] == [(forced, Fraction(1))]


def test_the_deck_top_action_is_secret_to_other_houses_in_a_record_view():
    record = GameRecord(new_game(["atreides", "fremen"], seed=3).config)
    node = record.root
    rng = random.Random(3)
    while True:
        state = record.state_at(node)
        if state.pending.kind == "deck-top":
            break
        action = sample_chance(state) if current_player(state) == CHANCE else rng.choice(legal_actions(state))
        node = record.add_move(node, action)
    node = record.add_move(node, sample_chance(state))
    shown = {house: record.view(house).node(node).action for house in ("atreides", "fremen")}
    assert shown["atreides"].kind == "deck-top" and not getattr(shown["atreides"], "hidden", False)
    assert getattr(shown["fremen"], "hidden", False)


@pytest.mark.parametrize("house", ["atreides", None])
def test_atreides_p2_c_the_worm_odds_of_a_viewer_use_the_known_top(house):
    state = _play(["atreides", "fremen", "harkonnen"], until=lambda s: s.turn == 2 and s.phase == "storm")
    table = worm_strike_table(view(state, house))
    worm_on_top = state.deck_tops["spice"] == "worm"
    for _, row in table[table["pile"].str.startswith("1")].iterrows():
        assert row["p_worm"] == (1.0 if worm_on_top else 0.0)  # pile 1's next card is the known top
