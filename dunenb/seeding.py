"""Seeded generators whose first draw costs no NumPy generator (issue 14 item 4: a bot draws once per decision).

``numpy.random.default_rng(words)`` hashes ``words`` into a 128-bit state (:class:`numpy.random.SeedSequence`)
and seeds a PCG64 generator with it. Building those objects costs more than the arithmetic they do, and a bot
game builds one for every decision that has a choice, to draw a single number: ``integers(n)`` (a bot's pick) or
``random()`` (a chance outcome). :class:`SeededRng` computes that first draw with the very same arithmetic, in
Python integers (:mod:`dunenb.pcg64_first`), and builds NumPy's generator only when more is asked of it: then
it replays the first draw on NumPy's generator, so every later draw is NumPy's own. Words that are not all
integers in ``0 .. 2**32 - 1`` (where NumPy's hashing takes each integer as one 32-bit word) take NumPy's own
path at once, with its own checks and errors.

>>> import numpy as np
>>> words = [3, 2**32 - 1, 0, 7]
>>> rng, reference = seeded_rng(words), np.random.default_rng(words)
>>> int(rng.integers(1000)) == int(reference.integers(1000))
True
>>> list(rng.integers(1000, size=3)) == list(reference.integers(1000, size=3))  # NumPy's generator from here on
True
>>> bool(seeded_rng([2**40, 1]).random() == np.random.default_rng([2**40, 1]).random())
True
>>> int(seeded_rng(words).integers(1)), int(np.random.default_rng(words).integers(1))
(0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from dunenb.pcg64_first import first_below, first_uniform

if TYPE_CHECKING:
    import numpy as np

_WORD = 1 << 32


class SeededRng:
    """``numpy.random.default_rng(list(words))``: the same draws. The first draw, if it is ``integers(n)`` for
    one integer ``n`` in ``1 .. 2**32 - 1`` (returned as an ``int``) or ``random()``, is computed without NumPy;
    any other use builds NumPy's generator (advanced past that first draw) and hands the call to it."""

    __slots__ = ("_words", "_generator", "_first")

    def __init__(self, words: tuple[int, ...]) -> None:
        self._words = words
        self._generator: np.random.Generator | None = None
        self._first: tuple[str, tuple[Any, ...]] | None = None  # the draw made without NumPy, to replay on it

    @property
    def generator(self) -> np.random.Generator:
        """NumPy's generator (built once, on first use), past the first draw if that was made without it."""
        if self._generator is None:
            self._generator = _build(self._words)
            if self._first is not None:
                method, args = self._first
                getattr(self._generator, method)(*args)  # the same state as if NumPy had made the first draw
        return self._generator

    def _fresh(self) -> bool:
        return self._generator is None and self._first is None

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        """:meth:`numpy.random.Generator.integers`; a first ``integers(n)`` is drawn without NumPy (an ``int``)."""
        if self._fresh() and not kwargs and len(args) == 1 and type(args[0]) is int and 0 < args[0] < _WORD:
            if args[0] == 1:
                return 0  # NumPy's answer for a range of one value, which draws nothing: nothing to replay
            self._first = ("integers", args)
            return first_below(self._words, args[0])
        return self.generator.integers(*args, **kwargs)

    def random(self, *args: Any, **kwargs: Any) -> Any:
        """:meth:`numpy.random.Generator.random`; a first ``random()`` is drawn without NumPy."""
        if self._fresh() and not args and not kwargs:
            self._first = ("random", ())
            return first_uniform(self._words)
        return self.generator.random(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.generator, name)


def seeded_rng(words: Sequence[int]) -> SeededRng:
    """``numpy.random.default_rng(list(words))``: the same draws (:class:`SeededRng`), the first one made without
    NumPy when every word fits 32 bits. Other words are handed to NumPy at once, which raises its own errors here
    (a negative word). Replaying a save draws nothing, and a bot game needs no NumPy at all (issue 14)."""
    words = tuple(words)
    rng = SeededRng(words)
    if not _fits(words):
        rng.generator  # noqa: B018 (built now, on NumPy's own path, with its checks; it then draws everything)
    return rng


def first_integer(words: Sequence[int], high: int) -> int:
    """``int(numpy.random.default_rng(list(words)).integers(high))``: what ``seeded_rng(words).integers(high)``
    draws first, without the generator object (issue 14 item 4: a bot draws once at each decision; the arithmetic
    of :func:`~dunenb.pcg64_first.first_below` directly, NumPy's own path for words or a range it does not cover).

    >>> import numpy as np
    >>> first_integer([4, 9, 1, 2], 17) == int(np.random.default_rng([4, 9, 1, 2]).integers(17))
    True
    """
    words = tuple(words)
    if type(high) is int and 0 < high < _WORD and _fits(words):
        return 0 if high == 1 else first_below(words, high)
    return int(seeded_rng(words).integers(high))


def first_random(words: Sequence[int]) -> float:
    """``numpy.random.default_rng(list(words)).random()``: what ``seeded_rng(words).random()`` draws first,
    without the generator object (issue 14 item 4: one draw at each chance node).

    >>> import numpy as np
    >>> first_random([7, 3]) == np.random.default_rng([7, 3]).random()
    True
    """
    words = tuple(words)
    return first_uniform(words) if _fits(words) else float(seeded_rng(words).random())


def _fits(words: tuple[int, ...]) -> bool:
    if not words:
        return False
    for word in words:  # issue 14 item 4: a loop, not all() over a generator (a bot seeds at every decision)
        if type(word) is not int or not 0 <= word < _WORD:
            return False
    return True


def _build(words: tuple[int, ...]) -> np.random.Generator:
    import numpy as np

    if _fits(words):
        return np.random.default_rng(np.array(words, dtype=np.uint32))
    return np.random.default_rng(list(words))
