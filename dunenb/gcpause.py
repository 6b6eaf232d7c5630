"""Pausing the cyclic garbage collector while many objects that all stay are made (issue 14 part 3, issue 15)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while many kept objects are made (the engine's modules imported, a save
    read and its tree built, a long line of states replayed): the collector's passes over a growing heap of
    objects that all stay took a quarter of loading a big save (issue 15 item 5), a tenth of importing the engine
    and of replaying a 10-turn game (issue 14 part 3). Reference counting still frees everything dropped; the
    collector resumes (if it ran) afterwards, the objects made meanwhile counted as old (:func:`_age_young`)."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            _age_young()
            gc.enable()


def _age_young() -> None:
    """Issue 14 part 3: move the objects of the young generations into the oldest one, when a pause made more of
    them than the young generations hold while the collector runs (threshold 0 times threshold 1: 7,000).

    A pause only postpones the collector: on resuming, its first young pass walked every object made during the
    pause (26,000 after importing the engine, 40,000 after replaying a 10-turn game: 10-40 ms each, a sixth of a
    new process replaying a save), and a middle-generation pass walked them again, only to find that they all
    stay (the very reason of the pause). ``gc.freeze()`` then ``gc.unfreeze()`` moves every tracked object into
    the oldest generation in constant time (two list splices); nothing is freed or kept by it: a cycle among
    these objects that becomes garbage is still found, by the next full collection instead of a young one, and
    reference counting frees the rest as always. Skipped when a caller froze objects (``gc.get_freeze_count()``):
    unfreezing would give them back to the collector; and after a small pause (a few states replayed), whose
    young pass is cheap, so that young garbage of the caller is not moved out of the young passes' reach often."""
    made = gc.get_count()[0]
    young, middle, _ = gc.get_threshold()
    if made > young * middle and gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


@contextmanager
def older_objects_set_aside() -> Iterator[None]:
    """Issue 14 item 4: while a game is played, the collector's passes skip every object that was there before
    it (the engine's modules and tables, the bots' and menus' memos of earlier games): ``gc.freeze()`` sets them
    aside in constant time and ``gc.unfreeze()`` gives them back to the oldest generation at the end.

    A bot game keeps its memos growing (leader steps, menus: about 100,000 objects after ten heuristic games),
    so a full pass walked every object of the process to free a few hundred: ten heuristic-bot games made three
    full passes costing about 150 ms of their 4 s (all passes together collected 4,276 objects). With the older
    objects aside, the young and middle passes run as before on what the game makes, and the full passes that
    remain walk only that. Nothing is freed or kept by it: a cycle among the older objects that becomes garbage
    during the game is found by the first full collection after it (reference counting frees the rest at once,
    as always). Skipped when a caller froze objects (``gc.get_freeze_count()``: unfreezing would give them back
    to the collector) or paused the collector.

    >>> import gc
    >>> with older_objects_set_aside():
    ...     inside = gc.get_freeze_count() > 0
    >>> inside, gc.get_freeze_count()
    (True, 0)
    """
    if gc.get_freeze_count() or not gc.isenabled():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


class BetweenActions:
    """Issue 14 item 4: the cyclic garbage collector runs between the actions of a game, never inside one.

    Choosing and playing one action makes thousands of short-lived containers (menus, scores, the states it
    passes through) and frees nearly all of them before it ends; a young pass that falls inside the action walks
    them while they are alive, and the middle and full passes that follow walk the survivors again (ten
    heuristic-bot games: 638 young, 58 middle and 5 full passes). With the collector paused for the action
    itself, its thresholds still count what the action kept, so the passes run as usual once it is over, at the
    next allocation, on what survived (the same games: 392, 35 and 3; about 5% less CPU time per heuristic-bot
    game, median of three interleaved runs). A reference cycle the action made is found by those passes, as
    their thresholds decide, not later than without the pause. A collector that was already paused
    (:func:`collector_paused`) stays paused.

    >>> import gc
    >>> pause = BetweenActions()
    >>> with pause:
    ...     inside = gc.isenabled()
    >>> inside, gc.isenabled()
    (False, True)
    """

    __slots__ = ("_running",)

    def __init__(self) -> None:
        self._running = False

    def __enter__(self) -> None:
        self._running = gc.isenabled()
        gc.disable()

    def __exit__(self, *_exc: object) -> None:
        if self._running:
            gc.enable()
