"""Exact probabilities kept as one object per value (issue 14 item 4).

A chance node lists a share per card or outcome at every draw, and the leader step ends most of its enumerations
with the same few decimal shares (1, 1/2, 9/10 ...). A :class:`~fractions.Fraction` is immutable and normalised,
so one kept object serves every request for the same pair: built and reduced once, and converted to a float once
where a caller keeps the conversion of the last object it saw (:func:`dunenb.engine.sample_chance`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache


@lru_cache(maxsize=4096)
def chance_share(count: int, total: int) -> Fraction:
    """``Fraction(count, total)``, one object per pair.

    >>> chance_share(2, 4), chance_share(2, 4) is chance_share(2, 4)
    (Fraction(1, 2), True)
    """
    return Fraction(count, total)
