"""issue 14 part 3: the collector pause ages what it made; nothing is freed or kept by that (gcpause)."""

from __future__ import annotations

import gc
import weakref

from dunenb.gcpause import collector_paused


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


def test_issue14_a_pause_leaves_a_callers_frozen_objects_frozen():
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused():
            made = [[index] for index in range(20_000)]
        assert gc.get_freeze_count() == frozen  # not unfrozen by the pause
        assert len(made) == 20_000
    finally:
        gc.unfreeze()


def test_issue14_a_small_pause_leaves_the_young_generation_to_the_young_passes():
    gc.collect()
    with collector_paused():
        made = [[index] for index in range(10)]
    assert not any(item is made[0] for item in gc.get_objects(2))
