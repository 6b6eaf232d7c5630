"""Seeded NumPy generators built at half the cost, and only when a draw needs one (issue 14 item 4: a bot builds one
for every decision).

``numpy.random.default_rng([a, b, c])`` turns each integer of the list into 32-bit words before hashing them
(:class:`numpy.random.SeedSequence`); an integer in ``0 .. 2**32 - 1`` is exactly one word, its own value. For
such integers :func:`seeded_rng` hands NumPy those words at once, as a ``uint32`` array, which gives the same
entropy, so the same generator and the same draws, without the per-item conversion. Any other value (negative,
larger, not an ``int``) takes NumPy's own path, with its own checks and errors.

The generator itself is built at its first use (:class:`SeededRng`): half the decisions of a bot game have a
single legal action, and ``integers(1)`` is 0 without a draw, so those need no generator at all.

>>> import numpy as np
>>> words = [3, 2**32 - 1, 0, 7]
>>> list(seeded_rng(words).integers(1000, size=4)) == list(np.random.default_rng(words).integers(1000, size=4))
True
>>> list(seeded_rng([2**40, 1]).integers(9, size=3)) == list(np.random.default_rng([2**40, 1]).integers(9, size=3))
True
>>> int(seeded_rng(words).integers(1)), int(np.random.default_rng(words).integers(1))
(0, 0)
>>> bool(seeded_rng(words).random() == np.random.default_rng(words).random())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

_WORD = 1 << 32


class SeededRng:
    """``numpy.random.default_rng(list(words))``, built at the first attribute asked for (every method of the
    generator is there, with the same draws), except ``integers(1)``: NumPy returns ``0`` for a range of one value
    without drawing, and so does this, without building the generator."""

    __slots__ = ("_words", "_generator")

    def __init__(self, words: tuple[int, ...]) -> None:
        self._words = words
        self._generator: np.random.Generator | None = None

    @property
    def generator(self) -> np.random.Generator:
        """The NumPy generator (built once, on first use)."""
        if self._generator is None:
            self._generator = _build(self._words)
        return self._generator

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        """:meth:`numpy.random.Generator.integers`; ``integers(1)`` is ``0`` (an ``int64``) without a draw."""
        if self._generator is None and not kwargs and len(args) == 1 and type(args[0]) is int and args[0] == 1:
            import numpy as np

            return np.int64(0)  # what NumPy returns: a range of one value needs no random bits
        return self.generator.integers(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.generator, name)


def seeded_rng(words: Sequence[int]) -> SeededRng:
    """``numpy.random.default_rng(list(words))``: the same generator (built at its first use, :class:`SeededRng`),
    built faster when every word fits 32 bits. Other words are handed to NumPy at once, which raises its own errors
    here (a negative word). NumPy is imported at the first draw: replaying a save draws nothing (issue 14 item 3,
    start-up)."""
    words = tuple(words)
    rng = SeededRng(words)
    if not _fits(words):
        rng.generator  # noqa: B018 (built now, on NumPy's own path, with its checks)
    return rng


def _fits(words: tuple[int, ...]) -> bool:
    return bool(words) and all(type(word) is int and 0 <= word < _WORD for word in words)


def _build(words: tuple[int, ...]) -> np.random.Generator:
    import numpy as np

    if _fits(words):
        return np.random.default_rng(np.array(words, dtype=np.uint32))
    return np.random.default_rng(list(words))
