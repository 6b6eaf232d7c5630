"""Bots: deterministic, legal by construction, and the heuristic bot's choices follow its stated policy."""

from __future__ import annotations

import pytest

from dunenb.bots import HeuristicBot, RandomBot, make_bot
from dunenb.bots.battle_planner import plan_scores
from dunenb.bots.heuristic import RESERVE_SPICE
from dunenb.engine import CHANCE, apply_action, current_player, legal_actions, new_game, sample_chance
from dunenb.errors import InputError

HOUSES = ["atreides", "harkonnen", "fremen", "emperor"]


def _decisions(seed: int, turns: int = 6):
    state = new_game(HOUSES, seed=seed, turn_limit=turns)
    bots = {h: HeuristicBot(seed=seed) for h in HOUSES}
    while state.pending is not None:
        actor = current_player(state)
        if actor == CHANCE:
            state = apply_action(state, sample_chance(state))
            continue
        action = bots[actor].choose(state)
        yield state, action
        state = apply_action(state, action)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_heuristic_bot_bids_within_its_means_and_plans_with_the_battle_analyzer(seed):
    plans_seen = bids_seen = 0
    for state, action in _decisions(seed):
        assert action in legal_actions(state)
        if action.kind == "bid":
            assert action.amount <= max(0, state.houses[action.house].spice - RESERVE_SPICE)
            bids_seen += 1
        if action.kind == "plan":
            options = legal_actions(state)
            scores = plan_scores(state, options)
            assert scores[options.index(action)] == max(scores)
            plans_seen += 1
    assert plans_seen > 0 and bids_seen > 0  # these seeds do fight battles and hold auctions


def test_bots_are_deterministic_for_a_seed():
    state = new_game(HOUSES, seed=4)
    while current_player(state) == CHANCE:
        state = apply_action(state, sample_chance(state))
    for bot in (RandomBot(seed=3), HeuristicBot(seed=3)):
        assert bot.choose(state) == bot.choose(state)


def test_unknown_bot_names_the_allowed_ones():
    with pytest.raises(InputError) as error:
        make_bot("clever")
    assert "heuristic" in str(error.value) and "random" in str(error.value)
