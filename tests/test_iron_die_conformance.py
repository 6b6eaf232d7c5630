"""Random-play conformance over 240 seeds: invariants hold at every step, and save/load/replay is exact."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dunenb.errors import IllegalActionError
from dunenb.iron_die.actions import Keep, Stand
from dunenb.iron_die.engine import apply_action, chance_outcomes, legal_actions, new_game, propose_chance
from dunenb.iron_die.save import from_save, to_save
from dunenb.iron_die.state import IronDieState

SEEDS = range(240)
#: Chance distributions already checked (the engine hands out shared tuples), kept alive by reference.
_CHECKED: dict[int, tuple[tuple, np.ndarray]] = {}


def _weights(outcomes: tuple) -> np.ndarray:
    """Check a chance distribution once (exact sum 1, all positive) and return its float weights."""
    if id(outcomes) not in _CHECKED or _CHECKED[id(outcomes)][0] is not outcomes:
        assert sum(p for _, p in outcomes) == Fraction(1)
        assert all(p > 0 for _, p in outcomes)
        weights = np.array([float(p) for _, p in outcomes])
        _CHECKED[id(outcomes)] = (outcomes, weights / weights.sum())
    return _CHECKED[id(outcomes)][1]


def _random_game(seed: int) -> IronDieState:
    rng = np.random.default_rng(seed)
    players = [f"P{i}" for i in range(2 + seed % 3)]
    state = new_game(players, seed)
    steps = 0
    while True:
        actions = legal_actions(state)
        if state.is_over:
            assert actions == () and chance_outcomes(state) == ()
            break
        assert actions, f"no legal action in phase {state.phase}"
        if state.is_chance:
            outcomes = chance_outcomes(state)
            weights = _weights(outcomes)
            assert len(outcomes) == len(actions)
            assert propose_chance(state) in actions
            if rng.random() < 0.5:
                action = propose_chance(state)
            else:
                action = outcomes[int(rng.choice(len(outcomes), p=weights))][0]
        else:
            assert chance_outcomes(state) == ()
            action = actions[int(rng.integers(len(actions)))]
            # one illegal attempt per decision: keeping a die the player does not hold
            missing = next((f for f in range(1, 7) if f not in state.dice), None)
            if missing is not None and state.rolls_left > 0:
                with pytest.raises(IllegalActionError):
                    apply_action(state, Keep((missing,)))
            if state.is_initiator_turn:
                with pytest.raises(IllegalActionError):
                    apply_action(state, Stand())
        before = state
        state = apply_action(state, action)
        assert before.actions + (action,) == state.actions
        assert sum(state.power) == len(state.history)
        steps += 1
        assert steps < 5000
    assert state.winner is not None and state.power[state.winner] == 5
    assert sorted(state.power, reverse=True)[1] < 5
    return state


@pytest.mark.parametrize("block", range(8))
def test_random_play_conformance(block: int) -> None:
    for seed in SEEDS[block::8]:
        final = _random_game(seed)
        assert from_save(to_save(final)) == final
        # and at a random point in the middle of the game
        cut = len(final.actions) // 2
        middle = new_game(final.players, final.seed)
        for action in final.actions[:cut]:
            middle = apply_action(middle, action)
        assert from_save(to_save(middle)) == middle
