"""Treachery cards played in games: weather control +1 (CARD-WEATHER-2), Atomics on the Shield Wall
(CARD-ATOMICS-1/2, GAP-30, GAP-55) and the outlaw (CARD-ATOMICS-4, GAP-29c)."""

from __future__ import annotations

from helpers_game import (
    assert_conserved,
    clear_map,
    dial,
    events_of,
    give_cards,
    give_weather_control,
    place,
    quiet_setup,
    tokens_at,
)

from dunenb.actions import Pass, PlayWeatherControl
from dunenb.engine import apply_action, check_action, legal_actions
from dunenb.rules.atomics import ATOMICS, BlowShieldWall
from dunenb.rules.common import WEATHER_CONTROL

THREE = ["atreides", "harkonnen", "emperor"]


def storm_position():
    """Turn 2, before the storm dials: no Fremen, the main storm on sector 1, dialers emperor then harkonnen."""
    state = quiet_setup(THREE)
    assert state.turn == 2 and state.pending.kind == "dial" and state.storm_main == 1
    return state


def moved(state):
    return next(e.data for e in events_of(state, "storm-moved") if e.data["storm"] == "main")


# --- CARD-WEATHER-2: "jusqu'à 2 secteurs" ---------------------------------------------------------------------

def test_card_weather_2_plus_one():
    state = dial(give_weather_control(storm_position(), "atreides"), 2, 1)
    choices = legal_actions(state)
    assert PlayWeatherControl("atreides", "main", "plus1") in choices
    assert PlayWeatherControl("atreides", "main", "plus2") in choices
    after = apply_action(state, PlayWeatherControl("atreides", "main", "plus1"))
    assert moved(after)["moves"] == 4 and after.storm_main == 5
    assert WEATHER_CONTROL not in after.houses["atreides"].hand
    assert after.treachery_discard[-1] == WEATHER_CONTROL


def test_card_weather_2_rejects_more_than_two():
    state = dial(give_weather_control(storm_position(), "atreides"), 2, 1)
    error = check_action(state, PlayWeatherControl("atreides", "main", "plus3"))
    assert error is not None and error.code == "action/illegal"


# --- CARD-ATOMICS-1/2, GAP-30, GAP-55: Atomics against the Shield Wall ------------------------------------

def atomics_position(where="arrakeen", sector=1):
    state = give_cards(storm_position(), "harkonnen", ATOMICS)
    return place(state, "harkonnen", where, sector, 1)


def test_card_atomics_2_offered_before_the_storm_moves_with_a_token_next_to_the_wall():
    state = dial(atomics_position(), 1, 1)
    assert state.pending.kind == "weather" and state.pending.actor == "harkonnen"
    assert BlowShieldWall("harkonnen") in legal_actions(state)
    assert Pass("harkonnen") in legal_actions(state)


def test_card_atomics_2_needs_a_token_on_or_next_to_the_wall():
    state = place(clear_map(give_cards(storm_position(), "emperor", ATOMICS)), "emperor", "pole-nord", 1, 2)
    state = dial(state, 1, 1)
    assert state.pending.kind != "weather"  # the North Pole is not next to the wall: nobody is asked
    error = check_action(dial(place(clear_map(give_cards(storm_position(), "emperor", ATOMICS)), "emperor",
                                    "arrakeen", 1, 1), 1, 1), BlowShieldWall("atreides"))
    assert error is not None and error.code == "action/not-your-turn"


def test_card_atomics_1_shield_wall_destroyed_then_cities_exposed_to_the_storm():
    state = atomics_position()
    state = place(state, "atreides", "bouclier", 3, 2)
    state = place(state, "emperor", "carthag", 4, 3)
    before_atreides = tokens_at(state, "atreides", "bouclier")
    assert before_atreides >= 2
    state = dial(state, 2, 1)  # the storm will move 3: sectors 2, 3, 4 (Carthag)
    state = apply_action(state, BlowShieldWall("harkonnen"))
    assert not state.shield_wall_standing
    assert ATOMICS not in state.houses["harkonnen"].hand and ATOMICS in state.treachery_discard
    assert tokens_at(state, "atreides", "bouclier") == 0  # GAP-30: tokens on the wall die
    assert tokens_at(state, "harkonnen", "arrakeen") >= 1  # adjacent tokens survive
    assert "harkonnen" not in state.outlawed  # a legal use (CARD-ATOMICS-3/4 concern the wheel only)
    assert events_of(state, "shield-wall-destroyed")
    assert moved(state)["moves"] == 3 and state.storm_main == 4
    assert tokens_at(state, "emperor", "carthag") == 0  # CARD-ATOMICS-1: the city is now as exposed as desert
    assert_conserved(state)


def test_card_atomics_1_with_the_wall_standing_the_city_is_protected():
    state = place(storm_position(), "emperor", "carthag", 4, 3)
    before = tokens_at(state, "emperor", "carthag")
    state = dial(state, 2, 1)
    assert state.storm_main == 4 and tokens_at(state, "emperor", "carthag") == before  # STORM-7


# --- the heuristic bot plays the storm cards when they help -------------------------------------------------

def test_heuristic_bot_plays_weather_control_to_send_the_storm_over_an_enemy_army():
    from dunenb.bots.heuristic import HeuristicBot

    state = clear_map(give_weather_control(storm_position(), "atreides"))
    state = place(state, "atreides", "arrakeen", 1, 5)
    state = place(state, "emperor", "bassin-imperial", 3, 6)  # desert, sector 3
    state = dial(state, 1, 1)  # the storm would move 2: sectors 2 and 3 -> already hits it
    assert state.pending.actor == "atreides"
    choice = HeuristicBot(seed=1).choose(state)
    assert choice == Pass("atreides")  # the storm already does the harm: the card is kept
    state2 = dial(place(clear_map(give_weather_control(storm_position(), "atreides")), "emperor",
                        "bassin-imperial", 3, 6), 1, 0)  # a move of 1 stops on sector 2 only
    state2 = place(state2, "atreides", "arrakeen", 1, 5)
    choice = HeuristicBot(seed=1).choose(state2)
    assert choice in (PlayWeatherControl("atreides", "main", "plus1"), PlayWeatherControl("atreides", "main", "plus2"))


def test_heuristic_bot_stops_the_storm_before_its_own_army():
    from dunenb.bots.heuristic import HeuristicBot

    state = place(clear_map(give_weather_control(storm_position(), "atreides")), "atreides", "bassin-imperial", 3, 6)
    state = dial(state, 2, 1)
    choice = HeuristicBot(seed=1).choose(state)
    assert isinstance(choice, PlayWeatherControl) and choice.mode == "stop" and choice.sectors <= 1
