"""Bots and simulations: legal, deterministic, and the optimal bot is the stronger one."""

from __future__ import annotations

import pandas as pd
import pytest

from dunenb.errors import IllegalActionError, InputError
from dunenb.iron_die.actions import Declare, Keep, Stand
from dunenb.iron_die.bots import NaiveBot, OptimalBot, make_bot, naive_keep, naive_plan
from dunenb.iron_die.engine import advance, apply_action, legal_actions, new_game
from dunenb.iron_die.simulate import play_game, simulate, win_rates


@pytest.mark.parametrize("bot", [OptimalBot(), NaiveBot()])
def test_bots_choose_legal_actions(bot) -> None:  # noqa: ANN001
    for seed in range(6):
        state = new_game(["A", "B", "C"], seed)
        while not state.is_over:
            state = advance(state)
            if state.is_over:
                break
            action = bot.choose(state)
            assert action in legal_actions(state)
            state = apply_action(state, action)


def test_bots_refuse_chance_nodes() -> None:
    with pytest.raises(IllegalActionError) as info:
        OptimalBot().choose(new_game(["A", "B"], 0))
    assert info.value.code == "iron-die/not-a-decision"


def test_optimal_challenger_stops_once_the_bar_is_beaten() -> None:
    from dunenb.iron_die.actions import parse_action

    state = new_game(["A", "B"], 0)
    for notation in ("first 0", "roll 3,3,2,2,1", "declare military", "roll 6,6,5,5,1"):
        state = apply_action(state, parse_action(notation))
    assert OptimalBot().choose(state) == Stand()
    assert NaiveBot().choose(state) == Stand()


def test_naive_heuristics() -> None:
    assert naive_plan((1, 1, 1, 4, 2)) == "intrigue"
    assert naive_keep("military", (6, 5, 3, 2, 1), 2) == (6, 5)
    assert naive_keep("faith", (6, 1, 5, 5, 4), 2) == (6, 1)
    assert naive_keep("faith", (6, 1, 4, 3, 2), 2) == (6, 4, 3, 2, 1)  # two sevens already: stop
    assert naive_keep("intrigue", (4, 4, 4, 1, 2), 2) == (4, 4, 4)
    assert naive_keep("intrigue", (2, 3, 4, 5, 6), 2) == (6, 5, 4, 3, 2)


def test_simulation_is_deterministic_and_rotates_seats() -> None:
    table = simulate(12, seed=3)
    assert isinstance(table, pd.DataFrame) and len(table) == 12
    assert table.equals(simulate(12, seed=3))
    assert not table.equals(simulate(12, seed=4))
    assert (table["seat0_bot"] == "optimal").sum() == 6
    assert (table[["seat0_power", "seat1_power"]].max(axis=1) == 5).all()
    assert (table["rounds"] == table["seat0_power"] + table["seat1_power"]).all()


def test_optimal_bot_beats_the_naive_bot() -> None:
    rates = win_rates(simulate(200, seed=0))
    assert rates.loc["optimal", "games"] == 200 and rates.loc["naive", "games"] == 200
    assert rates.loc["optimal", "win_rate"] > 0.7
    assert rates["wins"].sum() == 200


def test_three_bots_and_errors() -> None:
    table = simulate(3, seed=1, bots=("optimal", "naive", "naive"))
    assert {"seat2_bot", "seat2_power"} <= set(table.columns)
    with pytest.raises(InputError):
        simulate(2, bots=("optimal",))
    with pytest.raises(InputError):
        make_bot("genius")
    with pytest.raises(InputError):
        play_game(["A", "B"], 0, [OptimalBot()])


def test_optimal_first_player_declares_the_challenge_of_the_policy() -> None:
    from dunenb.iron_die.initiator import initiator_policy

    state = new_game(["A", "B"], 0)
    from dunenb.iron_die.actions import parse_action

    state = apply_action(apply_action(state, parse_action("first 0")), parse_action("roll 5,5,5,5,5"))
    action = OptimalBot().choose(state)
    assert action == Declare(initiator_policy(2).declare_for((5, 5, 5, 5, 5)))
    state = apply_action(
        apply_action(new_game(["A", "B"], 0), parse_action("first 0")), parse_action("roll 6,6,4,4,2")
    )
    assert OptimalBot().choose(state) == Keep((6, 6))
