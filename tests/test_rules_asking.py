"""GAP-62: asking reveals nothing. Where a secret option may be played, every House that could be asked is asked,
in a fixed order, with a pass first, whether or not it holds the slip or card (DESIGN "Powers"):

* traitor calls (TRAITOR-8, TRAITOR-9): both sides of every battle, defender first;
* weather control and Atomics on the Shield Wall (CARD-WEATHER-1, CARD-ATOMICS-2): every House in play, in storm
  order, before each storm moves;
* a game started without a seed gets a fresh 128-bit one (a small seed can be found from the public draws).

Positions come from a quiet setup (no Fremen: the storm is dialled), hands emptied, then cards and slips given.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from helpers_game import clear_map, decisions, give_cards, place, quiet_setup, set_storms, skip_pre_battle

from dunenb.actions import DialStorm, Pass, PlayWeatherControl
from dunenb.bots import make_bot
from dunenb.cli import main
from dunenb.engine import FRESH_SEED_BITS, apply_action, check_action, make_config, new_game, sample_chance
from dunenb.rules.atomics import ATOMICS, BlowShieldWall
from dunenb.rules.battle_phase import CallTraitor, SubmitPlan, begin_phase
from dunenb.rules.common import WEATHER_CONTROL, storm_order
from dunenb.saves import load_game
from dunenb.state import GameState

TWO = ["atreides", "harkonnen"]
THREE = ["atreides", "harkonnen", "emperor"]  # starts 1, 4, 7; storm on 1; dialers emperor then harkonnen


def empty_hands(state: GameState) -> GameState:
    """Every hand goes to the discard pile, so that nobody holds a card by chance of the setup draws."""
    houses, discard = state.houses, state.treachery_discard
    for house, hs in state.houses.items():
        houses, discard = houses.set(house, dataclasses.replace(hs, hand=())), discard + hs.hand
    return dataclasses.replace(state, houses=houses, treachery_discard=discard)


def public_line(state: GameState, actions) -> list:
    """Play ``actions`` (a list, or a function of the state giving the next action; chance by the generator)
    until it gives None; return the (kind, actor) of each node met and the public events."""
    line = []
    for step in range(200):
        line.append(None if state.pending is None else (state.pending.kind, state.pending.actor))
        if state.pending is None:
            break
        if state.pending.actor == "chance":
            action = sample_chance(state)
        else:
            action = actions(state) if callable(actions) else (actions[step] if step < len(actions) else None)
        if action is None:
            break
        state = apply_action(state, action)
        line += [(e.kind, e.text) for e in state.events if not e.data.get("secret")]
    return line


# --- TRAITOR-8, TRAITOR-9: both sides are asked ------------------------------------------------------------------

def battle(traitors=None) -> GameState:
    """The Atreides (defending) and the Harkonnen in Arsunt, no card; ``traitors`` gives the slips."""
    state = empty_hands(clear_map(set_storms(quiet_setup(TWO), main=10)))
    houses = state.houses
    for house in TWO:
        houses = houses.set(house, dataclasses.replace(houses[house], traitors=tuple((traitors or {}).get(house, ()))))
    state = dataclasses.replace(state, houses=houses)
    state = place(place(state, "atreides", "arsunt", 5, 4), "harkonnen", "arsunt", 5, 4)
    state = skip_pre_battle(begin_phase(dataclasses.replace(state, events=())))
    for leader in ("duncan-idaho", "piter"):
        state = apply_action(state, SubmitPlan(state.pending.actor, leader, 2, 0, 0))
    while state.pending.kind == "leader-buy-off":  # leaders.md K-19 (GAP-111): Lingar could have led
        state = apply_action(state, Pass(state.pending.actor))
    return state


def test_traitor_8_gap_62_every_battle_asks_both_sides():
    state = battle()
    assert (state.pending.kind, state.pending.actor) == ("traitor-call", "atreides")  # the defender first
    assert decisions(state) == [Pass("atreides")]  # no slip for Piter: the menu is just the pass
    state = apply_action(state, Pass("atreides"))
    assert (state.pending.kind, state.pending.actor) == ("traitor-call", "harkonnen")
    assert decisions(state) == [Pass("harkonnen")]
    state = apply_action(state, Pass("harkonnen"))
    assert state.pending.kind != "traitor-call"


def test_traitor_8_gap_62_a_slip_holder_is_asked_in_the_same_order_and_its_pass_says_nothing():
    slipped = battle({"harkonnen": (("atreides", "duncan-idaho"),)})
    assert (slipped.pending.kind, slipped.pending.actor) == ("traitor-call", "atreides")
    slipped = apply_action(slipped, Pass("atreides"))
    assert decisions(slipped) == [Pass("harkonnen"), CallTraitor("harkonnen", "duncan-idaho")]  # the pass first
    passes = [Pass("atreides"), Pass("harkonnen")]
    without = battle({"harkonnen": (("atreides", "gurney-halleck"),)})  # a slip too (their number is public)
    with_slip = battle({"harkonnen": (("atreides", "duncan-idaho"),)})
    assert public_line(with_slip, passes) == public_line(without, passes)
    kept = apply_action(apply_action(with_slip, Pass("atreides")), Pass("harkonnen"))
    assert not [e for e in kept.events if e.kind.startswith("treachery")]  # TRAITOR-8: no "kept secret" event


def test_traitor_9_gap_62_only_a_slip_holder_may_call():
    state = battle()
    error = check_action(state, CallTraitor("atreides", "piter"))
    assert error is not None and error.code == "traitor/no-slip" and "allowed: pass" in error.message
    error = check_action(state, CallTraitor("atreides", "feyd-rautha"))
    assert error is not None and error.code == "traitor/not-the-leader"
    called = battle({"harkonnen": (("atreides", "duncan-idaho"),)})
    called = apply_action(apply_action(called, Pass("atreides")), CallTraitor("harkonnen", "duncan-idaho"))
    assert [e.data["house"] for e in called.events if e.kind == "treachery"] == ["harkonnen"]  # a call is public


# --- CARD-WEATHER-1, CARD-ATOMICS-2: every House is asked before the storm moves -----------------------------

def storm_position(**hands) -> GameState:
    """Turn 2, before the dials (storm on sector 1, no Fremen); ``hands`` gives cards after emptying all hands."""
    state = empty_hands(quiet_setup(THREE))
    assert state.turn == 2 and state.pending.kind == "dial"
    for house, cards in hands.items():
        state = give_cards(state, house, *cards)
    return state


def dials(state: GameState, *values: int) -> GameState:
    for value in values:
        state = apply_action(state, DialStorm(state.pending.detail["storm"], state.pending.actor, value))
    return state


def test_card_weather_1_gap_62_every_house_is_asked_in_storm_order_with_a_pass_first():
    state = dials(storm_position(), 2, 1)
    order = storm_order(state)
    for house in order:
        assert (state.pending.kind, state.pending.actor) == ("weather", house)
        assert decisions(state) == [Pass(house)]  # nobody holds the card: each may only pass, but is asked
        state = apply_action(state, Pass(house))
    assert state.storm_main == 4 and state.pending.kind != "weather"


def test_card_weather_1_gap_62_a_holder_is_asked_like_the_others_and_again_after_playing():
    state = dials(storm_position(harkonnen=(WEATHER_CONTROL,)), 2, 1)
    order = storm_order(state)
    holder_menu = {}
    for house in order:
        menu = decisions(state)
        assert menu[0] == Pass(house)
        holder_menu[house] = len(menu) > 1
        state = apply_action(state, Pass(house))
    assert holder_menu == {h: h == "harkonnen" for h in order}
    nobody = public_line(dials(storm_position(), 2, 1), lambda s: Pass(s.pending.actor) if s.phase == "storm"
                         else None)
    holder = public_line(dials(storm_position(harkonnen=(WEATHER_CONTROL,)), 2, 1),
                         lambda s: Pass(s.pending.actor) if s.phase == "storm" else None)
    assert holder == nobody
    played = dials(storm_position(harkonnen=(WEATHER_CONTROL,)), 2, 1)
    while played.pending.actor != "harkonnen":
        played = apply_action(played, Pass(played.pending.actor))
    played = apply_action(played, PlayWeatherControl("harkonnen", "main", "plus1"))
    assert (played.pending.kind, played.pending.actor) == ("weather", "harkonnen")  # GAP-31: asked again
    assert decisions(played) == [Pass("harkonnen")]


def test_card_atomics_2_gap_62_every_house_is_asked_whether_or_not_it_may_blow_the_wall():
    def position(cards):
        return place(storm_position(harkonnen=cards), "harkonnen", "arrakeen", 1, 1)  # next to the wall

    asked = dials(position((ATOMICS,)), 1, 1)
    menus = {}
    while asked.pending.kind == "weather":
        menus[asked.pending.actor] = decisions(asked)
        asked = apply_action(asked, Pass(asked.pending.actor))
    assert set(menus) == set(THREE) and BlowShieldWall("harkonnen") in menus["harkonnen"]
    assert all(menu == [Pass(h)] for h, menu in menus.items() if h != "harkonnen")

    def passes(s):
        return Pass(s.pending.actor) if s.phase == "storm" else None

    assert public_line(dials(position((ATOMICS,)), 1, 1), passes) == public_line(dials(position(()), 1, 1), passes)


# --- bots ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["heuristic", "random"])
def test_gap_62_bots_answer_the_nodes_asked_of_everyone(name):
    bot = make_bot(name, seed=3)
    for state in (battle(), dials(storm_position(), 2, 1)):
        choice = bot.choose(state)
        assert check_action(state, choice) is None
        if name == "heuristic":
            assert choice == Pass(state.pending.actor)  # nothing to play: it passes
    slipped = apply_action(battle({"harkonnen": (("atreides", "duncan-idaho"),)}), Pass("atreides"))
    assert make_bot("heuristic", seed=3).choose(slipped) == CallTraitor("harkonnen", "duncan-idaho")


# --- seeds -------------------------------------------------------------------------------------------------------

def test_gap_62_a_game_without_a_seed_gets_a_fresh_128_bit_seed():
    seeds = {new_game(TWO).config.seed for _ in range(3)} | {make_config(TWO).seed}
    assert len(seeds) == 4 and all(0 <= s < 2 ** FRESH_SEED_BITS for s in seeds)
    assert max(seeds) > 2 ** 64  # with 4 draws of 128 bits, all below 2**64 has odds 2**-256
    assert new_game(TWO, seed=7) == new_game(TWO, seed=7)  # an explicit seed replays as before
    assert new_game(TWO, seed=7).config.seed == 7


def test_gap_62_cli_new_and_simulate_draw_a_fresh_seed_when_seed_is_omitted(tmp_path, capsys):
    assert main(["new", "--houses", "atreides,harkonnen", "--out", str(tmp_path / "fresh.json")]) == 0
    assert main(["new", "--houses", "atreides,harkonnen", "--seed", "7", "--out", str(tmp_path / "seven.json")]) == 0
    assert load_game(tmp_path / "fresh.json").config.seed >= 2 ** 32
    assert load_game(tmp_path / "seven.json").config.seed == 7
    capsys.readouterr()
    assert main(["simulate", "--games", "1", "--houses", "atreides,harkonnen", "--turn-limit", "1", "--out",
                 str(tmp_path / "sim"), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["seed"] >= 2 ** 32
    saved = json.loads((tmp_path / "sim" / "game_0000.json").read_text())
    assert saved["config"]["seed"] == rows[0]["seed"]


def test_turn_2_issue14_item4_storm_order_follows_each_change_of_storm_houses_and_eliminations():
    """The last answer of storm_order is kept for the same (immutable) facts; any change computes it anew."""
    state = storm_position()
    positions = {h: state.houses[h].start_position for h in THREE}

    def expected(s: GameState) -> tuple[str, ...]:  # TURN-2: counterclockwise from the storm, eliminated skipped
        storm = s.storm_main or 1
        return tuple(sorted((h for h in THREE if h not in s.eliminated), key=lambda h: (positions[h] - storm) % 24))

    seen = []
    for sector in (1, 5, 5, 9, 1):  # the same facts twice in a row, then changes, then back
        state = dataclasses.replace(state, storm_main=sector)
        assert storm_order(state) == expected(state)
        seen.append(storm_order(state))
    assert len(set(seen)) > 1  # the storm's moves changed the order
    gone = dataclasses.replace(state, eliminated=("harkonnen",))
    assert storm_order(gone) == expected(gone) and "harkonnen" not in storm_order(gone)
    assert storm_order(state) == expected(state) and "harkonnen" in storm_order(state)
    moved = dataclasses.replace(state, houses=state.houses.set(
        "atreides", dataclasses.replace(state.houses["atreides"], start_position=positions["emperor"] + 1)))
    positions["atreides"] = positions["emperor"] + 1
    assert storm_order(moved) == expected(moved)
