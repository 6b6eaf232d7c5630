"""issue 14: the collector pauses age what they made, the game-long set-aside gives back what it froze; nothing
is freed or kept by either (gcpause)."""

from __future__ import annotations

import gc
import weakref

import pytest

from dunenb.gcpause import BetweenActions, collector_paused, older_objects_set_aside


class _Cell:
    """An object that can sit in a reference cycle."""

    def __init__(self) -> None:
        self.other: object = None


def test_issue14_a_big_pause_moves_its_objects_to_the_oldest_generation_and_cycles_are_still_collected():
    gc.collect()
    with collector_paused():
        kept = [[index] for index in range(20_000)]  # more than the young generations hold
        cycle = _Cell()
        cycle.other = cycle
        gone = weakref.ref(cycle)
        del cycle
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0  # nothing stays frozen
    assert gc.get_count()[0] < gc.get_threshold()[0]
    assert any(item is kept[0] for item in gc.get_objects(2))  # aged: in the oldest generation
    assert gone() is not None  # a cycle is only freed by a collection, as without the pause
    gc.collect()
    assert gone() is None  # ... and the full collection still finds it
    assert len(kept) == 20_000


@pytest.mark.parametrize("pause", [collector_paused, older_objects_set_aside])
def test_issue14_a_pause_leaves_a_callers_frozen_objects_frozen(pause):
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with pause():
            made = [[index] for index in range(20_000)]
            assert gc.get_freeze_count() == frozen  # nothing more set aside (older_objects_set_aside skips)
        assert gc.get_freeze_count() == frozen  # not unfrozen by the pause
        assert len(made) == 20_000
    finally:
        gc.unfreeze()


def test_issue14_a_small_pause_leaves_the_young_generation_to_the_young_passes():
    gc.collect()
    with collector_paused():
        made = [[index] for index in range(10)]
    assert not any(item is made[0] for item in gc.get_objects(2))


def test_issue14_item4_between_actions_pauses_inside_and_a_cycle_made_there_is_collected_once_it_is_over():
    gc.collect()
    pause = BetweenActions()
    with pause:
        assert not gc.isenabled()  # no pass inside the action
        cycle = _Cell()
        cycle.other = cycle
        gone = weakref.ref(cycle)
        del cycle
        kept = [[index] for index in range(5_000)]  # the action allocates past the young threshold
    assert gc.isenabled()
    assert gone() is not None  # nothing was collected while the action ran
    for _ in range(20):  # the next allocations, as the game goes on, run the young passes as usual
        [[index] for index in range(gc.get_threshold()[0])]
    assert gone() is None  # the young passes after the action found the cycle it made
    assert len(kept) == 5_000


def test_issue14_item4_between_actions_leaves_a_paused_collector_paused_and_play_game_gives_it_back():
    from dunenb.bots import make_bot
    from dunenb.engine import make_config
    from dunenb.simulate import play_game

    pause = BetweenActions()
    with collector_paused():
        with pause:
            pass
        assert not gc.isenabled()  # the caller's pause stands
    assert gc.isenabled()
    houses = ["atreides", "harkonnen"]
    played, final = play_game(make_config(houses, seed=2, turn_limit=1),
                              {h: make_bot("random", seed=k) for k, h in enumerate(houses)})
    assert gc.isenabled() and played and final.turn == 1


def test_issue14_item4_older_objects_set_aside_for_a_game_are_given_back_and_their_cycles_still_collected():
    from dunenb.bots import make_bot
    from dunenb.engine import make_config
    from dunenb.simulate import play_game

    gc.collect()
    older = _Cell()
    older.other = older  # a cycle made before the game, still referenced from here
    gone = weakref.ref(older)
    with older_objects_set_aside():
        assert gc.get_freeze_count() > 0  # set aside: no pass walks it
        del older  # it becomes garbage while set aside
        gc.collect()
        assert gone() is not None  # ... so no collection finds it meanwhile
        made = _Cell()
        made.other = made  # a cycle the game makes is collected as usual
        made_gone = weakref.ref(made)
        del made
        gc.collect()
        assert made_gone() is None
    assert gc.get_freeze_count() == 0  # given back
    gc.collect()
    assert gone() is None  # the first full collection after the game finds the older cycle
    houses = ["atreides", "harkonnen"]
    played, final = play_game(make_config(houses, seed=2, turn_limit=1),
                              {h: make_bot("random", seed=k) for k, h in enumerate(houses)})
    assert gc.get_freeze_count() == 0 and gc.isenabled() and played and final.turn == 1


def test_issue14_item4_older_objects_set_aside_leaves_a_paused_collector_alone():
    with collector_paused():
        with older_objects_set_aside():
            assert gc.get_freeze_count() == 0 and not gc.isenabled()
