"""Scene tests named after rule IDs of the turn, storm, auction and Chance sections of rules_digest.md that were
cited in code without a test of their own: TURN-4, BID-2, STORM-1, STORM-13, BID-9, BID-15, SETUP-6, CHANCE-3.
Values are the spec's."""

from __future__ import annotations

from fractions import Fraction

from helpers_game import (
    dial,
    events_of,
    finish_turn,
    give_weather_control,
    outcome_map,
    quiet_setup,
)
from test_rules_bidding import auction, up
from test_rules_bidding import play as bids
from test_rules_chance import draw
from test_rules_chance import position as chance_position
from test_rules_storm import moved, storm_position
from test_rules_storm import play as storm_play

from dunenb.actions import Pass, PlayWeatherControl
from dunenb.engine import apply_action, current_player, legal_actions, new_game, sample_chance, view
from dunenb.rules import chance
from dunenb.rules.bidding import PayBid
from dunenb.rules.chance import DrawChanceCard

THREE = ["atreides", "harkonnen", "emperor"]


def _phases_of_a_turn(state):
    """The phases met, in order, while playing the current turn out (first legal decision, chance sampled)."""
    turn, seen = state.turn, [state.phase]
    while state.pending is not None and state.turn == turn:
        action = sample_chance(state) if current_player(state) == "chance" else legal_actions(state)[0]
        state = apply_action(state, action)
        if state.turn == turn and state.phase != seen[-1]:
            seen.append(state.phase)
    return seen


def test_turn_4_the_storm_moves_before_the_army_movement():
    phases = _phases_of_a_turn(quiet_setup(THREE))
    assert phases[0] == "storm" and "movement" in phases
    assert phases.index("storm") < phases.index("movement")


def test_bid_2_the_auction_always_comes_before_the_movement_phase():
    phases = _phases_of_a_turn(quiet_setup(THREE))
    assert phases.index("bidding") < phases.index("movement")
    assert phases.index("movement") < phases.index("battle")


# --- storms --------------------------------------------------------------------------------------------------

def test_storm_1_two_kinds_of_storm_the_main_one_and_the_secondary_one():
    both = storm_position(secondary_storm=True)
    assert both.storm_main == 1 and both.storm_secondary is not None
    assert both.pending.detail["storm"] == "main"
    both = dial(dial(both, 1, 1), 1, 1)  # each storm has its own movement
    assert [e.data["storm"] for e in events_of(both, "storm-moved")] == ["secondary"]
    assert both.storm_main == 3
    only_main = storm_position()
    assert only_main.storm_secondary is None  # the secondary storm is the table's option
    only_main = dial(only_main, 1, 1)
    assert only_main.phase != "storm" or only_main.pending.detail.get("storm") != "secondary"


def test_storm_13_the_secondary_storm_moves_each_turn_counterclockwise_weather_control_adds_2_each_max_11():
    state = quiet_setup(["fremen", "atreides"], tokens={"main": 1, "secondary": 7}, secondary_storm=True,
                        stop_before="auction-card")
    state = give_weather_control(state, "atreides", 2)
    start = state.storm_secondary
    state = finish_turn(state)  # turn 2's storm phase: the main storm's weather node comes first
    assert state.pending.kind == "weather" and state.pending.detail["storm"] == "main"
    state = storm_play(state, Pass("atreides"))
    assert state.pending.kind == "weather" and state.pending.detail["storm"] == "secondary"
    assert state.pending.detail["move"] == 7
    state = storm_play(state, PlayWeatherControl("atreides", "secondary", "plus2"))
    state = storm_play(state, PlayWeatherControl("atreides", "secondary", "plus2"))
    data = moved(state, "secondary")
    assert data["moves"] == 11  # 7 + 2 + 2 with the Fremen
    assert data["path"] == tuple(((start - 1 + k) % 24) + 1 for k in range(1, 12))  # counterclockwise
    assert state.storm_secondary == ((start - 1 + 11) % 24) + 1


def test_storm_13_gap_8_without_the_fremen_the_secondary_storm_moves_every_turn_at_most_10():
    """STORM-13 says "otherwise 9"; GAP-8 (section 20) reads it as a slip for 6 + 2 + 2 = 10."""
    state = give_weather_control(give_weather_control(storm_position(secondary_storm=True), "atreides"),
                                 "harkonnen")
    state = dial(state, 0, 0)  # the main storm stays; the card holders keep their cards for the secondary
    while state.pending.kind == "weather" and state.pending.detail["storm"] == "main":
        state = storm_play(state, Pass(state.pending.actor))
    start = state.storm_secondary
    state = dial(state, 3, 3)
    for house in ("atreides", "harkonnen"):
        state = storm_play(state, PlayWeatherControl(house, "secondary", "plus2"))
    assert moved(state, "secondary")["moves"] == 10
    assert state.storm_secondary == ((start - 1 + 10) % 24) + 1
    state = finish_turn(state)  # the next turn it moves again, after the main storm
    state = dial(state, 0, 0)
    assert state.pending.kind == "dial" and state.pending.detail["storm"] == "secondary"
    before = state.storm_secondary
    state = dial(state, 1, 0)
    assert moved(state, "secondary")["path"] == ((before % 24) + 1,)


# --- the auction ---------------------------------------------------------------------------------------------

def test_bid_9_when_nobody_speaks_again_the_card_goes_to_the_highest_bidder():
    state = up(auction(spice={"atreides": 10, "harkonnen": 10, "emperor": 10}), "shield")
    state = bids(state, 2, 5)  # the Harkonnen hold the highest bid
    state = bids(state, None, None)  # nobody speaks any more
    assert state.pending.kind == "bid-payment" and state.pending.detail["winner"] == "harkonnen"
    assert state.pending.detail["price"] == 5
    state = apply_action(state, PayBid("harkonnen"))
    assert state.houses["harkonnen"].hand == ("shield",) and state.houses["harkonnen"].spice == 5


def test_bid_15_the_atreides_may_look_at_every_card_put_up():
    state = up(auction(), "shield")
    assert dict(view(state, "atreides").pending.detail["secrets"])["atreides"] == "shield"
    state = bids(state, None, None, None)
    state = up(state, "karama")  # opened by the Harkonnen: the Atreides still see it, the Emperor does not
    assert state.pending.detail["opener"] == "harkonnen"
    assert dict(view(state, "atreides").pending.detail["secrets"])["atreides"] == "karama"
    assert "karama" not in str(view(state, "emperor").pending)


# --- the Chance deck (GAP-20 option) ---------------------------------------------------------------------------

def test_setup_6_the_chance_deck_is_shuffled_at_the_start_and_drawn_from_one_pile():
    on = new_game(THREE, seed=4, chance_cards=True)
    assert sum(on.chance_deck.values()) == 14  # one whole pile, from the start
    off = new_game(THREE, seed=4)
    assert not off.chance_deck or sum(off.chance_deck.values()) == 0  # the module is optional (GAP-20)
    odds = outcome_map(chance.begin_phase(chance_position()))
    assert sum(odds.values()) == 1  # shuffled: each unseen card equally likely
    assert odds[DrawChanceCard(1, "ixian-harvester")] == Fraction(3, 14)


def test_chance_3_a_drawn_card_spells_out_its_content():
    before = chance_position()
    state = draw(before, "spice-windfall-5")
    (effect,) = events_of(state, "chance-effect")
    assert effect.data["effect"] == "spice"
    assert "5" in effect.text
    assert state.houses["atreides"].spice == before.houses["atreides"].spice + 5
