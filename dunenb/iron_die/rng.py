"""The seeded dice generator kept in the game state.

The state stores the PCG64 bit generator's state as a tuple of four integers (immutable and
JSON-friendly). At each chance node a generator is rebuilt from it to *propose* an outcome; whatever
outcome is actually applied (the proposal, or a recorded one during replay), the stored state advances
exactly as if the proposal had been drawn. Replaying recorded actions therefore never re-rolls, and a
loaded game continues with the same proposals as the original.

>>> rng = initial_rng(7)
>>> dice, after = draw_roll(rng, 5)
>>> dice == draw_roll(rng, 5)[0], after != rng
(True, True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from dunenb.iron_die.dice import SIDES, normalise

#: ``(state, inc, has_uint32, uinteger)`` of a PCG64 bit generator.
RngState = tuple[int, int, int, int]


def initial_rng(seed: int) -> RngState:
    """The generator state for a game seed (a non-negative integer)."""
    return _freeze(np.random.Generator(np.random.PCG64(seed)))


def _freeze(generator: np.random.Generator) -> RngState:
    state = generator.bit_generator.state
    return (
        int(state["state"]["state"]),
        int(state["state"]["inc"]),
        int(state["has_uint32"]),
        int(state["uinteger"]),
    )


#: One reusable bit generator: its state is overwritten before every draw (building a fresh PCG64 would
#: gather OS entropy each time). Draws are pure functions of the stored state.
_BIT_GENERATOR = np.random.PCG64(0)
_GENERATOR = np.random.Generator(_BIT_GENERATOR)


def _thaw(rng: RngState) -> np.random.Generator:
    _BIT_GENERATOR.state = {
        "bit_generator": "PCG64",
        "state": {"state": rng[0], "inc": rng[1]},
        "has_uint32": rng[2],
        "uinteger": rng[3],
    }
    return _GENERATOR


@lru_cache(maxsize=4096)
def draw_roll(rng: RngState, count: int) -> tuple[tuple[int, ...], RngState]:
    """Propose ``count`` dice (high to low) and return them with the advanced generator state."""
    generator = _thaw(rng)
    dice = normalise(int(face) for face in generator.integers(1, SIDES + 1, size=count))
    return dice, _freeze(generator)


@lru_cache(maxsize=4096)
def draw_index(rng: RngState, count: int) -> tuple[int, RngState]:
    """Propose a uniform index in ``range(count)`` and return it with the advanced generator state.

    >>> draw_index(initial_rng(1), 3)[0] in (0, 1, 2)
    True
    """
    generator = _thaw(rng)
    index = int(generator.integers(count))
    return index, _freeze(generator)
