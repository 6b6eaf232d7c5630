"""Issue 14 item 4 (random-bot game speed): the cheaper menus and draws decide exactly as before.

No rule changes here: each test pins one speed-up to the slow answer it replaces (the generator NumPy builds, the
full field check, the full plan judgement, the menu of every listed plan being legal).
"""

from __future__ import annotations

import numpy as np
import pytest

from dunenb import engine
from dunenb.bots import make_bot
from dunenb.engine import CHANCE, apply_action, check_action, initial_state, make_config
from dunenb.errors import InputError
from dunenb.rules import pre_battle
from dunenb.rules.battle_context import context_of
from dunenb.rules.movement import Move
from dunenb.seeding import seeded_rng

HOUSES = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]


@pytest.mark.parametrize("words", [[0], [3, 2**32 - 1, 0, 7], [9, 1234, 5, 2000], [2**40, 1]])
def test_issue14_seeded_rng_draws_as_numpy(words: list[int]) -> None:
    """The lazy generator draws what ``numpy.random.default_rng(words)`` draws, for every range; ``integers(1)``
    (no generator built) is NumPy's 0, and a generator used after it draws as if it had not been asked."""
    for high in (1, 2, 7, 1000):
        assert int(seeded_rng(words).integers(high)) == int(np.random.default_rng(words).integers(high))
    assert seeded_rng(words).random() == np.random.default_rng(words).random()
    lazy, eager = seeded_rng(words), np.random.default_rng(words)
    assert int(lazy.integers(1)) == int(eager.integers(1)) == 0
    assert lazy.random() == eager.random()


def test_issue14_seeded_rng_refuses_bad_words_at_once() -> None:
    """A word NumPy refuses raises when the generator is asked for, not at a later draw."""
    with pytest.raises(ValueError):
        seeded_rng([-1, 2])


def test_issue14_checked_tuple_by_identity_still_refuses_wrong_types() -> None:
    """A path tuple checked once is accepted again without its repr; a tuple of the wrong types never is."""
    path = (("arrakeen", 9), ("grande-etendue", 10))
    assert Move("atreides", "arrakeen", 10, path, 3, 1).path is path
    assert Move("atreides", "arrakeen", 10, path, 2, 0).path is path
    with pytest.raises(InputError):
        Move("atreides", "arrakeen", 10, (("arrakeen", 9.0),), 3, 1)
    with pytest.raises(InputError):
        Move("atreides", "arrakeen", 10, (("arrakeen", True),), 3, 1)


def test_issue14_plan_menus_listed_plans_are_legal_and_unbound() -> None:
    """Every plan of a battle-plan menu of random 6-House games is legal by the full check and breaks nothing
    (pre_battle.violations: the judge of one plan), and a House nothing binds is judged free on every plan."""
    seen = 0
    for seed in (0, 1, 2):
        config = make_config(HOUSES, seed=seed, turn_limit=6)
        bots = {h: make_bot("random", seed=seed + k) for k, h in enumerate(HOUSES)}
        state = initial_state(config)
        while state.pending is not None and seen < 12:
            if state.pending.kind == "battle-plan":
                seen += 1
                house = state.pending.actor
                for plan in [a for a in engine.legal_actions(state) if a.kind == "battle-plan"]:
                    engine._last_menu = None  # the full check, not the menu's own list
                    assert check_action(state, plan) is None
                    assert pre_battle.violations(state, plan) == ()
                if not pre_battle.may_be_bound(context_of(state), house):
                    judge = pre_battle.plan_judge(state, house)
                    assert all(judge(p) == () for p in engine.legal_actions(state) if p.kind == "battle-plan")
            action = (engine.sample_chance(state) if engine.current_player(state) == CHANCE
                      else bots[engine.current_player(state)].choose(state))
            state = apply_action(state, action)
    assert seen
