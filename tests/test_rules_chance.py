"""The optional Chance cards: CHANCE-1 to CHANCE-5 with the GAP-20 design (and GAP-21, GAP-27 for the details).

Positions are built from a quiet setup (storm on sector 1, starts 1, 4, 7: storm order atreides, harkonnen,
emperor) with the option on and the map cleared; step h) is begun directly.
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import numpy as np
import pytest
from helpers_game import (
    assert_conserved,
    clear_map,
    events_of,
    force,
    outcome_map,
    place,
    put_spice,
    quiet_setup,
)

from dunenb.cli import main
from dunenb.engine import apply_action, current_player, is_terminal, legal_actions, make_config, new_game, sample_chance
from dunenb.errors import InputError
from dunenb.play import advance
from dunenb.record import GameRecord
from dunenb.rules import bidding, chance, collection, flow
from dunenb.rules.alliances import AcceptOffer, EndWindow, Offer
from dunenb.rules.chance import DrawChanceCard, initial_deck, load_chance_rules
from dunenb.saves import load_game, record_from_dict, record_to_dict, save_game
from dunenb.state import FrozenDict, GameConfig

THREE = ["atreides", "harkonnen", "emperor"]
#: for the deck's own odds: without the Atreides no top card is held apart (ATREIDES-P2 d, tested on its own)
UNSEEN = ["guild", "harkonnen", "emperor"]


def position(houses=THREE):
    """Turn 2 with the option on, map empty, storm on sector 1, just after the harvest declarations."""
    state = clear_map(quiet_setup(houses, chance_cards=True))
    state = dataclasses.replace(state, turn=2, phase="harvest-declaration", pending=None, events=(),
                                chance_deck=initial_deck(), deck_tops=FrozenDict(), pole_ornithopters=())
    for house in houses:  # forget the Chance cards drawn in turn 1's step h); no traitor slips (HARKONNEN-M1
        # would ask its holder at the end of the battle step)
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(
            state.houses[house], extra_card_slots=0, traitors=())))
    assert state.storm_main == 1
    return state


def draw(state, *cards):
    """Begin step h) and force the given cards (1 or 2); the events of all these transitions are kept."""
    state = chance.begin_phase(state)
    events = state.events
    for card in cards:
        state = force(state, DrawChanceCard(state.pending.detail["draw"], card))
        events += state.events
    return dataclasses.replace(state, events=events)


def random_game(seed, houses, *, limit=3, **options):
    """Uniform random play; returns every (state, action) pair and the last state."""
    rng = np.random.default_rng(seed)
    state = new_game(houses, seed=seed, turn_limit=limit, **options)
    played = []
    while not is_terminal(state):
        if current_player(state) == "chance":
            action = sample_chance(state)
        else:
            actions = legal_actions(state)
            action = actions[int(rng.integers(len(actions)))]
        played.append((state, action))
        state = apply_action(state, action)
        assert_conserved(state)
    return played, state


# --- CHANCE-1, GAP-20: one single pile, data-driven -------------------------------------------------------------

def test_CHANCE_1_one_single_pile_filled_at_the_start_when_the_option_is_on():
    deck = load_chance_rules()
    state = new_game(THREE, seed=4, chance_cards=True)
    assert state.chance_deck == deck.counts and sum(state.chance_deck.values()) == 14
    assert {c.effect for c in deck.cards} == set(chance.EFFECTS)
    outcomes = outcome_map(chance.begin_phase(position()))
    assert sum(outcomes.values()) == 1
    assert outcomes[DrawChanceCard(1, "ixian-harvester")] == Fraction(3, 14)
    assert outcomes[DrawChanceCard(1, "spice-windfall-5")] == Fraction(2, 14)


def test_CHANCE_1_draws_use_exact_odds_over_the_unseen_cards():
    state = draw(position(UNSEEN), "ixian-harvester")
    assert state.chance_deck["ixian-harvester"] == 2
    outcomes = outcome_map(state)
    assert outcomes[DrawChanceCard(2, "ixian-harvester")] == Fraction(2, 13)
    assert sum(outcomes.values()) == 1


def test_GAP_27_an_empty_chance_pile_is_reshuffled():
    state = dataclasses.replace(position(UNSEEN), chance_deck=initial_deck().updated(
        {card: 0 for card in initial_deck()}).set("alliance-window", 1))
    state = draw(state, "alliance-window")
    assert events_of(state, "chance-reshuffle")
    assert state.chance_deck == initial_deck() and state.pending.kind == "chance-card"
    assert state.pending.detail["draw"] == 2


# --- CHANCE-2: two cards each turn, just before the battles -----------------------------------------------------

def test_CHANCE_2_two_cards_each_turn_just_before_the_battles():
    names = [name for name, _ in flow.TURN_PHASES]
    assert names.index("harvest-declaration") < names.index("chance-cards") == names.index("battle") - 1
    played, last = random_game(5, THREE, limit=3, chance_cards=True)
    draws: dict[int, list[int]] = {}
    for state, action in played:
        if isinstance(action, DrawChanceCard):
            assert state.phase == "chance-cards"
            draws.setdefault(state.turn, []).append(action.draw)
    assert draws == {1: [1, 2], 2: [1, 2], 3: [1, 2]}
    # nothing of the battle step happens before the two draws of the turn
    for turn in (2, 3):
        phases = [s.phase for s, _ in played if s.turn == turn]
        assert "battle" not in phases[:phases.index("chance-cards")]
    assert last.winner is not None or last.phase == "game-over"


# --- CHANCE-4, GAP-20: attribution ---------------------------------------------------------------------------

def test_CHANCE_4_GAP_20_card_k_goes_to_the_kth_house_in_storm_order():
    state = position()
    before = {h: state.houses[h].spice for h in THREE}
    state = draw(state, "spice-windfall-3", "spice-windfall-5")
    assert state.houses["atreides"].spice == before["atreides"] + 3  # first in storm order
    assert state.houses["harkonnen"].spice == before["harkonnen"] + 5  # second
    assert state.houses["emperor"].spice == before["emperor"]
    assert [e.data["house"] for e in events_of(state, "chance-card")] == ["atreides", "harkonnen"]
    assert_conserved(state)


def test_CHANCE_4_GAP_20_the_order_is_counted_from_the_main_storm():
    state = dataclasses.replace(position(), storm_main=4)  # harkonnen (4) leads, then emperor (7), atreides (1)
    assert chance.beneficiary(state, 1) == "harkonnen" and chance.beneficiary(state, 2) == "emperor"
    two = dataclasses.replace(position(["atreides", "harkonnen"]), eliminated=())
    assert chance.beneficiary(two, 3) == "atreides"  # wraps round (design)


# --- CHANCE-5: the effects ------------------------------------------------------------------------------------

def test_CHANCE_5_ixian_harvester_gives_a_harvester():
    state = position()
    before = state.houses["atreides"].harvesters
    state = draw(state, "ixian-harvester")
    assert state.houses["atreides"].harvesters == before + 1
    assert events_of(state, "chance-effect")[0].data["effect"] == "harvester"
    assert_conserved(state)


def test_CHANCE_5_spice_windfall_is_paid_by_the_bank():
    state = position()
    bank, spice = state.bank, state.houses["atreides"].spice
    state = draw(state, "spice-windfall-5")
    assert state.houses["atreides"].spice == spice + 5 and state.bank == bank - 5
    assert state.total_spice() == 0


def test_CHANCE_5_extra_card_slot_lets_the_hand_exceed_its_limit():
    state = position()
    state = dataclasses.replace(state, houses=state.houses.set("atreides", dataclasses.replace(
        state.houses["atreides"], hand=("shield",) * 4)))
    assert bidding.hand_limit(state, "atreides") == 4 and bidding.has_full_hand(state, "atreides")
    state = draw(state, "extra-card-slot")
    assert state.houses["atreides"].extra_card_slots == 1
    assert bidding.hand_limit(state, "atreides") == 5 and not bidding.has_full_hand(state, "atreides")
    assert bidding.hand_limit(state, "harkonnen") == 8  # HARKONNEN-P2 unchanged


def test_CHANCE_5_GAP_21_pole_ornithopters_this_turn_at_the_north_pole():
    state = place(position(), "atreides", "pole-nord", 3, 2)
    assert not collection.has_ornithopters(state, "atreides")
    state = draw(state, "pole-ornithopters")
    assert state.pole_ornithopters == ("atreides",)
    assert collection.has_ornithopters(state, "atreides")
    assert not collection.has_ornithopters(state, "harkonnen")
    # without tokens at the Pole the card gives nothing
    empty = dataclasses.replace(state, forces=state.forces.without(("atreides", "pole-nord", 3)))
    assert not collection.has_ornithopters(empty, "atreides")


def test_CHANCE_5_pole_ornithopters_give_the_harvest_rate_3_and_end_with_the_turn():
    state = place(position(), "atreides", "pole-nord", 3, 1)
    state = place(state, "atreides", "erg-mineur", 7, 2)
    state = put_spice(state, "erg-mineur", 20)
    state = dataclasses.replace(state, committed_harvesters=state.committed_harvesters.set(
        ("atreides", "erg-mineur", 7), 1), houses=state.houses.set("atreides", dataclasses.replace(
            state.houses["atreides"], harvesters=state.houses["atreides"].harvesters - 1)))
    spice = state.houses["atreides"].spice
    state = draw(state, "pole-ornithopters", "spice-windfall-3")  # card 2 goes to harkonnen
    harvest = [e for e in state.events if e.kind == "harvest" and e.data.get("house") == "atreides"]
    assert harvest and harvest[0].data["amount"] == 6  # 3 per token (HARVEST-7) thanks to the card
    assert state.houses["atreides"].spice >= spice + 6
    assert state.turn == 3 and state.pole_ornithopters == ()  # the turn ended: the card is over
    assert_conserved(state)


def test_CHANCE_5_alliance_window_is_recorded():
    state = position()
    windows = state.alliance_windows
    state = draw(state, "alliance-window")
    assert state.alliance_windows == windows + 1
    window = events_of(state, "alliance-window")
    assert window and window[0].data["cause"] == "chance-card" and window[0].data["house"] == "atreides"


def test_ALLIANCE_1_GAP_19a_a_window_opened_by_a_chance_card_is_played_before_the_battles():
    state = draw(position(), "alliance-window", "ixian-harvester")
    assert (state.phase, state.pending.kind, state.pending.actor) == ("alliance", "alliance", "atreides")
    assert state.pending.detail["window"] == 1 and state.pending.detail["resume"] == "chance-cards"
    assert "ALLIANCE-1" in events_of(state, "alliance-window-open")[0].text
    state = apply_action(state, Offer("atreides", "harkonnen", "spice", "spice", 1))
    state = apply_action(state, AcceptOffer("harkonnen"))
    events = ()
    while state.pending.kind == "alliance":
        state = apply_action(state, EndWindow(state.pending.actor))
        events += state.events
    kinds = [e.kind for e in events]
    assert "alliance-window-closed" in kinds and "battle-phase" in kinds  # then step i), the battles
    assert kinds.index("alliance-window-closed") < kinds.index("battle-phase")
    assert_conserved(state)


# --- GAP-20: optional, off by default; configuration and saves --------------------------------------------------

def test_GAP_20_chance_cards_are_off_by_default():
    assert GameConfig(("atreides", "harkonnen"), 0).chance_cards is False
    assert make_config(THREE, seed=0).chance_cards is False
    played, _ = random_game(6, THREE, limit=2)
    assert played[0][0].chance_deck == {}
    assert not any(isinstance(a, DrawChanceCard) for _, a in played)
    assert all(s.phase != "chance-cards" for s, _ in played)


def test_GAP_20_the_option_is_validated():
    with pytest.raises(InputError) as info:
        make_config(THREE, seed=0, chance_cards="yes")
    assert info.value.code == "config/chance-cards"


def test_GAP_20_saves_round_trip_with_the_option_on(tmp_path):
    record = GameRecord(make_config(THREE, seed=11, chance_cards=True))
    node = record.root
    for _ in range(3):
        node = advance(record, node, until="turn", seed=11)
    assert any(isinstance(a, DrawChanceCard) for a in record.actions_to(node))
    data = json.loads(json.dumps(record_to_dict(record, current=node)))
    assert data["config"]["chance_cards"] is True
    assert record_from_dict(data).config.chance_cards is True
    save_game(record, tmp_path / "game.json", current=node)
    loaded = load_game(tmp_path / "game.json")
    assert loaded.config == record.config
    assert loaded.state_at(loaded.leaf()) == record.state_at(node)


def test_GAP_20_cli_new_has_a_chance_cards_flag(tmp_path, capsys):
    save = tmp_path / "game.json"
    code = main(["new", "--houses", "atreides,harkonnen", "--chance-cards", "--play-turns", "1", "--out", str(save)])
    capsys.readouterr()
    assert code == 0 and load_game(save).config.chance_cards is True


@pytest.mark.parametrize("seed", range(6))
def test_GAP_20_random_games_with_chance_cards_conserve_and_end(seed):
    houses = [["atreides", "harkonnen"], THREE, ["fremen", "guild", "emperor", "harkonnen"]][seed % 3]
    played, last = random_game(seed, houses, limit=3, chance_cards=True, secondary_storm=seed % 2 == 1)
    assert is_terminal(last)
    assert any(isinstance(a, DrawChanceCard) for _, a in played)
    assert_conserved(last)
