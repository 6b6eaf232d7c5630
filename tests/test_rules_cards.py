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
    pass_unable,
    place,
    quiet_setup,
    tokens_at,
)

from dunenb.actions import Pass, PlayWeatherControl
from dunenb.engine import apply_action, check_action, legal_actions
from dunenb.rules.atomics import ATOMICS, BlowShieldWall
from dunenb.rules.bidding import PayBid, has_full_hand
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
    after = pass_unable(apply_action(state, PlayWeatherControl("atreides", "main", "plus1")), ("weather",))
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
    assert state.pending.kind != "weather"  # the North Pole is not next to the wall: every House could only pass
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
    state = pass_unable(apply_action(state, BlowShieldWall("harkonnen")), ("weather",))
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


# --- CARD-TRUTH-1..3, GAP-44, GAP-56: the truth trance ---------------------------------------------------------

def trance_position():
    """A battle between the Atreides and the Harkonnen; the Atreides hold a truth trance, the Harkonnen a slow
    poison and a slip on Duncan Idaho; the Emperor watches."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_rules_battle_phase import position

    state = position(THREE, [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     hands={"atreides": ("truth-trance",), "harkonnen": ("poison-slow",)},
                     spice={"harkonnen": 12}, traitors={"harkonnen": (("atreides", "duncan-idaho"),)})
    if state.pending.actor != "atreides":
        state = apply_action(state, next(a for a in legal_actions(state) if a.kind == "plan"))
    assert state.pending.kind == "battle-plan" and state.pending.actor == "atreides"
    return state


def test_card_truth_trance_is_offered_before_a_battle_plan_and_answered_truthfully():
    from dunenb.rules.truth_trance import AskTruthTrance

    state = trance_position()
    menu = [a for a in legal_actions(state) if a.kind == "truth-trance"]
    assert AskTruthTrance("atreides", "harkonnen", "holds", "poison-slow") in menu
    assert {a.target for a in menu} == {"harkonnen", "emperor"}  # CARD-TRUTH-1: one other player
    asked = [("holds", "poison-slow", True), ("holds", "poison", True), ("holds", "shield", False),
             ("traitor-is", "duncan-idaho", True), ("traitor-is", "gurney", False),
             ("traitor-among-mine", "-", True), ("spice-more-than", "10", True), ("spice-more-than", "20", False)]
    for question, subject, truth in asked:
        after = apply_action(state, AskTruthTrance("atreides", "harkonnen", question, subject))
        assert after.houses["atreides"].trance_answers[-1][2:] == (question, subject, truth)
        assert "truth-trance" not in after.houses["atreides"].hand and after.treachery_discard[-1] == "truth-trance"
        assert after.pending == state.pending  # the same decision comes back (the plan is still to set)
        assert not [a for a in legal_actions(after) if a.kind == "truth-trance"]  # one card, one question
    assert_conserved(after)


def test_card_truth_trance_answer_is_seen_by_the_asker_only_and_the_log_says_only_the_question():
    from dunenb.engine import view
    from dunenb.rules.truth_trance import AskTruthTrance

    state = apply_action(trance_position(), AskTruthTrance("atreides", "harkonnen", "holds", "poison-slow"))
    assert view(state, "atreides").houses["atreides"].trance_answers[-1][-1] is True
    for other in ("harkonnen", "emperor"):
        seen = view(state, other)
        assert seen.houses["atreides"].trance_answers == ()
        assert "trance_answers=((" not in repr(seen)
    (logged,) = events_of(state, "truth-trance")
    assert dict(logged.data) == {"house": "atreides", "target": "harkonnen", "question": "holds",
                                 "subject": "poison-slow"}  # GAP-56: public question, no answer


def test_card_truth_trance_questions_are_checked():
    from dunenb.rules.truth_trance import AskTruthTrance

    state = trance_position()
    cases = [(AskTruthTrance("atreides", "atreides", "holds", "shield"), "truth-trance/target"),
             (AskTruthTrance("atreides", "harkonnen", "will-you-play", "poison"), "truth-trance/question"),
             (AskTruthTrance("atreides", "harkonnen", "traitor-is", "paul"), "truth-trance/subject"),
             (AskTruthTrance("atreides", "harkonnen", "spice-more-than", "lots"), "truth-trance/subject")]
    for action, code in cases:
        error = check_action(state, action)
        assert error is not None and error.code == code, (action, error)
    assert check_action(state, AskTruthTrance("atreides", "harkonnen", "spice-more-than", "7")) is None
    held = check_action(apply_action(state, AskTruthTrance("atreides", "emperor", "holds", "karama")),
                        AskTruthTrance("atreides", "harkonnen", "holds", "shield"))
    assert held is not None and held.code == "truth-trance/not-held"


def test_card_truth_trance_the_heuristic_bot_keeps_it_and_still_plans():
    from dunenb.bots.heuristic import HeuristicBot

    assert HeuristicBot(seed=2).choose(trance_position()).kind == "plan"


# --- issue 9 item 12: every new action is reachable in random play ----------------------------------------------

DEALT = {"atreides": ("atomics", "karama", "truth-trance"), "emperor": ("weather-control", "karama", "truth-trance"),
         "harkonnen": ("weather-control", "truth-trance")}


def _deal(state):
    """Move the cards of ``DEALT`` from the treachery deck to the hands (cards are conserved)."""
    import dataclasses

    for house, cards in DEALT.items():
        for card in cards:
            deck = state.treachery_deck
            deck = deck.set(card, deck[card] - 1) if deck[card] > 1 else deck.without(card)
            hs = state.houses[house]
            state = dataclasses.replace(state, treachery_deck=deck, houses=state.houses.set(
                house, dataclasses.replace(hs, hand=hs.hand + (card,))))
    return state


def _new_kinds(action) -> set[str]:
    found = set()
    if action.kind == "weather" and action.mode == "plus1":
        found.add("weather-plus1")
    if action.kind in ("atomics", "truth-trance"):
        found.add(action.kind)
    if action.kind == "plan" and action.karama != "none":
        found.add("wheel-karama")
    return found


def test_issue_9_new_card_actions_are_reachable_in_random_play():
    from dunenb.bots import RandomBot
    from dunenb.engine import current_player, new_game, sample_chance

    wanted = {"weather-plus1", "atomics", "truth-trance", "wheel-karama"}
    seen: set[str] = set()
    for seed in range(40):
        state = _deal(new_game(["atreides", "harkonnen", "emperor"], seed=seed, turn_limit=5))
        bot = RandomBot(seed=seed)
        while state.pending is not None and not wanted <= seen:
            action = sample_chance(state) if current_player(state) == "chance" else bot.choose(state)
            if state.pending.kind == "karama-window":  # issue 10, GAP-63: keep the dealt Karamas for the wheel
                action = Pass(state.pending.actor)
            if action.kind == "karama-bid" and PayBid(action.house) in legal_actions(state):
                action = PayBid(action.house)  # issue 10: with EMPEROR-M1's hand of 6 more cards are up for sale,
            if action.kind == "bid" and (has_full_hand(state, action.house)  # and a full hand or a bid above the
                                         or action.amount > state.houses[action.house].spice):  # spice would spend
                action = Pass(action.house)  # the Karama on them (BID-4) before any battle
            seen |= _new_kinds(action)
            state = apply_action(state, action)
        if wanted <= seen:
            break
    assert seen == wanted


def test_heuristic_bot_blows_the_shield_wall_when_the_storm_will_then_sweep_an_enemy_city():
    from dunenb.bots.heuristic import HeuristicBot

    state = give_cards(storm_position(), "atreides", ATOMICS)
    assert tokens_at(state, "atreides", "arrakeen") and tokens_at(state, "harkonnen", "carthag") >= 5
    swept = dial(state, 2, 1)  # 3 sectors: 2, 3 and 4 (Carthag, the Harkonnen city)
    assert swept.pending.actor == "atreides"
    assert HeuristicBot(seed=1).choose(swept) == BlowShieldWall("atreides")
    spared = dial(state, 1, 0)  # 1 sector: the storm stops short of Carthag
    assert HeuristicBot(seed=1).choose(spared) == Pass("atreides")
