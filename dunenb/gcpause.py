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
    collector resumes (if it ran) afterwards."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()
