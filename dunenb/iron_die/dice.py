"""Dice as multisets: the 252 ways five dice can fall, the 462 keeps, and exact roll probabilities.

A multiset of dice is a tuple sorted from high to low, e.g. ``(6, 6, 4, 4, 2)``. Order never matters in
Le Dé de Fer, so every computation works on multisets: 252 outcomes of five dice instead of 7,776 sequences.

>>> len(OUTCOMES), len(KEEPS)
(252, 462)
>>> normalise([2, 6, 4, 6, 4])
(6, 6, 4, 4, 2)
>>> roll_distribution(2)[:2]
[((6, 6), Fraction(1, 36)), ((6, 5), Fraction(1, 18))]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np

#: Number of dice each player rolls.
N_DICE = 5
#: Faces of a die, 1 to 6.
SIDES = 6
#: How many times a player may roll in a turn (the first roll and two rerolls).
ROLLS_PER_TURN = 3
#: ``SIDES ** N_DICE``: the common denominator of one roll's probabilities.
ROLL_DENOMINATOR = SIDES**N_DICE


def multisets(size: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ``size`` dice, each sorted high to low, in descending lexicographic order.

    >>> multisets(1)
    ((6,), (5,), (4,), (3,), (2,), (1,))
    >>> len(multisets(5))
    252
    """
    return tuple(combinations_with_replacement(range(SIDES, 0, -1), size))


#: The 252 outcomes of five dice (descending lexicographic order: ``(6, 6, 6, 6, 6)`` first).
OUTCOMES: tuple[tuple[int, ...], ...] = multisets(N_DICE)
#: Position of each outcome in :data:`OUTCOMES`.
OUTCOME_INDEX: dict[tuple[int, ...], int] = {dice: index for index, dice in enumerate(OUTCOMES)}
#: The 462 keeps (multisets of 0 to 5 dice), the larger keeps first: this order breaks ties between
#: equally good keeps (keeping more dice is preferred, then higher dice).
KEEPS: tuple[tuple[int, ...], ...] = tuple(keep for size in range(N_DICE, -1, -1) for keep in multisets(size))
#: Position of each keep in :data:`KEEPS`.
KEEP_INDEX: dict[tuple[int, ...], int] = {keep: index for index, keep in enumerate(KEEPS)}


def normalise(dice: Iterable[int]) -> tuple[int, ...]:
    """Return the dice as a multiset (sorted high to low); faces are not checked.

    >>> normalise((1, 3, 2))
    (3, 2, 1)
    """
    return tuple(sorted(dice, reverse=True))


def is_valid_dice(dice: object, count: int | None = None) -> bool:
    """True when ``dice`` is a sequence of integer faces 1-6 (of length ``count`` when given).

    >>> is_valid_dice((6, 1)), is_valid_dice((7,)), is_valid_dice((True,)), is_valid_dice((1, 2), count=3)
    (True, False, False, False)
    """
    if not isinstance(dice, (tuple, list)):
        return False
    if count is not None and len(dice) != count:
        return False
    return all(type(face) is int and 1 <= face <= SIDES for face in dice)


def is_submultiset(part: Iterable[int], whole: Iterable[int]) -> bool:
    """True when every die of ``part`` can be taken from ``whole``.

    >>> is_submultiset((6, 6), (6, 6, 4, 4, 2)), is_submultiset((6, 6, 6), (6, 6, 4, 4, 2))
    (True, False)
    """
    return not Counter(part) - Counter(whole)


def remove(whole: Iterable[int], part: Iterable[int]) -> tuple[int, ...]:
    """The dice of ``whole`` left after taking ``part`` out (``part`` must be a sub-multiset).

    >>> remove((6, 6, 4, 4, 2), (6, 4))
    (6, 4, 2)
    """
    left = Counter(whole) - Counter(part)
    return normalise(left.elements())


def sub_multisets(dice: Iterable[int]) -> tuple[tuple[int, ...], ...]:
    """The distinct sub-multisets of ``dice`` (all possible keeps), in :data:`KEEPS` preference order.

    >>> sub_multisets((6, 6, 1))
    ((6, 6, 1), (6, 6), (6, 1), (6,), (1,), ())
    """
    dice = normalise(dice)
    found = {combo for size in range(len(dice) + 1) for combo in combinations(dice, size)}
    return tuple(sorted(found, key=KEEP_INDEX.__getitem__))


def arrangements(dice: Iterable[int]) -> int:
    """How many ordered rolls give this multiset (the multinomial coefficient).

    >>> arrangements((6, 6, 4, 4, 2)), arrangements((1, 2, 3, 4, 5)), arrangements(())
    (30, 120, 1)
    """
    counts = Counter(dice)
    total = math.factorial(sum(counts.values()))
    for count in counts.values():
        total //= math.factorial(count)
    return total


def roll_distribution(count: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every multiset that ``count`` fair dice can show, with its exact probability.

    >>> dist = roll_distribution(5)
    >>> len(dist), sum(p for _, p in dist)
    (252, Fraction(1, 1))
    >>> roll_distribution(0)
    [((), Fraction(1, 1))]
    """
    return list(_roll_distribution(count))


@cache
def _roll_distribution(count: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    denominator = SIDES**count
    return tuple((dice, Fraction(arrangements(dice), denominator)) for dice in multisets(count))


@dataclass(frozen=True, eq=False)
class Tables:
    """Numpy tables shared by the solvers (built once, see :func:`tables`).

    ``transition[k, d]`` is the number of the 7,776 equally likely ways (scaled to ``ROLL_DENOMINATOR``)
    that keeping ``KEEPS[k]`` and rerolling the other dice ends on ``OUTCOMES[d]``; every row sums to 7,776.
    ``subkeeps[d]`` lists the keep indexes available from ``OUTCOMES[d]`` in preference order, padded by
    repeating the first (keep everything); ``subkeep_count[d]`` is how many are distinct.
    """

    transition: np.ndarray
    transition_float: np.ndarray
    subkeeps: np.ndarray
    subkeep_count: np.ndarray
    first_roll: np.ndarray


@cache
def tables() -> Tables:
    """Build (once) the transition and sub-keep tables.

    >>> t = tables()
    >>> t.transition.shape, int(t.transition.sum(axis=1).min()), int(t.transition.sum(axis=1).max())
    ((462, 252), 7776, 7776)
    >>> int(t.subkeep_count.max())
    32
    """
    transition = np.zeros((len(KEEPS), len(OUTCOMES)), dtype=np.int64)
    for row, keep in enumerate(KEEPS):
        scale = SIDES ** len(keep)
        for rolled in multisets(N_DICE - len(keep)):
            transition[row, OUTCOME_INDEX[normalise(keep + rolled)]] += arrangements(rolled) * scale
    width = 2**N_DICE
    subkeeps = np.zeros((len(OUTCOMES), width), dtype=np.intp)
    counts = np.zeros(len(OUTCOMES), dtype=np.intp)
    for index, dice in enumerate(OUTCOMES):
        keeps = [KEEP_INDEX[keep] for keep in sub_multisets(dice)]
        counts[index] = len(keeps)
        subkeeps[index] = keeps + [keeps[0]] * (width - len(keeps))
    transition.setflags(write=False)
    subkeeps.setflags(write=False)
    counts.setflags(write=False)
    as_float = transition / ROLL_DENOMINATOR
    as_float.setflags(write=False)
    first = transition[KEEP_INDEX[()]]
    return Tables(transition, as_float, subkeeps, counts, first)
