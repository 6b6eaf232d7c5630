"""Seeded NumPy generators built at half the cost (issue 14 item 4: a bot builds one for every decision).

``numpy.random.default_rng([a, b, c])`` turns each integer of the list into 32-bit words before hashing them
(:class:`numpy.random.SeedSequence`); an integer in ``0 .. 2**32 - 1`` is exactly one word, its own value. For
such integers :func:`seeded_rng` hands NumPy those words at once, as a ``uint32`` array, which gives the same
entropy, so the same generator and the same draws, without the per-item conversion. Any other value (negative,
larger, not an ``int``) takes NumPy's own path, with its own checks and errors.

>>> import numpy as np
>>> words = [3, 2**32 - 1, 0, 7]
>>> list(seeded_rng(words).integers(1000, size=4)) == list(np.random.default_rng(words).integers(1000, size=4))
True
>>> list(seeded_rng([2**40, 1]).integers(9, size=3)) == list(np.random.default_rng([2**40, 1]).integers(9, size=3))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

_WORD = 1 << 32


def seeded_rng(words: Sequence[int]) -> np.random.Generator:
    """``numpy.random.default_rng(list(words))``, the same generator, built faster when every word fits 32 bits.
    NumPy is imported here, at the first draw: replaying a save draws nothing (issue 14 item 3, start-up)."""
    import numpy as np

    if all(type(word) is int and 0 <= word < _WORD for word in words) and words:
        return np.random.default_rng(np.array(words, dtype=np.uint32))
    return np.random.default_rng(list(words))
