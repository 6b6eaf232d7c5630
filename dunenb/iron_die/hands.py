"""The intrigue challenge: poker-dice hands, in the seed's order.

From weakest to strongest: nothing (IRON-GAP-7), one pair, two pairs, three of a kind (brelan), straight
(suite: 1-2-3-4-5 or 2-3-4-5-6, IRON-GAP-8), full house, four of a kind (carré), five of a kind (poker).
Hands of the same rank compare like poker (IRON-GAP-9): the faces of the groups, the biggest group first,
then the remaining dice from high to low; 1 is the lowest face.

>>> intrigue_hand((4, 4, 4, 1, 1))
Hand(rank=5, tiebreak=(4, 1))
>>> intrigue_hand((4, 4, 4, 1, 1)).name
'full-house'
>>> intrigue_hand((6, 6, 3, 3, 5)) > intrigue_hand((5, 5, 4, 4, 6))
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

#: Hand names from weakest (rank 0) to strongest (rank 7).
HAND_NAMES: tuple[str, ...] = (
    "nothing",
    "one-pair",
    "two-pairs",
    "three-of-a-kind",
    "straight",
    "full-house",
    "four-of-a-kind",
    "five-of-a-kind",
)
#: The seed's French names, same order ("rien" is ours: the seed lists hands from one pair up).
FRENCH_NAMES: tuple[str, ...] = ("rien", "paire", "deux-paires", "brelan", "suite", "full", "carre", "poker")
#: Group-size pattern of each rank (sizes of the groups of equal faces, biggest first).
_PATTERNS: dict[tuple[int, ...], int] = {
    (2, 1, 1, 1): 1,
    (2, 2, 1): 2,
    (3, 1, 1): 3,
    (3, 2): 5,
    (4, 1): 6,
    (5,): 7,
}
_STRAIGHTS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


@dataclass(frozen=True, order=True)
class Hand:
    """An intrigue hand: ``rank`` (index in :data:`HAND_NAMES`) then the ``tiebreak`` faces.

    Hands compare by ``(rank, tiebreak)``.
    """

    rank: int
    tiebreak: tuple[int, ...]

    @property
    def name(self) -> str:
        """The hand's English name, e.g. ``"full-house"``."""
        return HAND_NAMES[self.rank]

    def dice(self) -> tuple[int, ...]:
        """Rebuild the five dice of the hand (high groups first).

        >>> Hand(5, (4, 1)).dice(), Hand(4, (6,)).dice(), Hand(2, (6, 3, 5)).dice()
        ((4, 4, 4, 1, 1), (6, 5, 4, 3, 2), (6, 6, 3, 3, 5))
        """
        if self.rank == 4:
            high = self.tiebreak[0]
            return tuple(range(high, high - 5, -1))
        if self.rank == 0:
            return self.tiebreak
        sizes = next(p for p, r in _PATTERNS.items() if r == self.rank)
        return tuple(face for size, face in zip(sizes, self.tiebreak, strict=True) for _ in range(size))


def intrigue_hand(dice: Iterable[int]) -> Hand:
    """The intrigue hand of five dice.

    >>> [intrigue_hand(d).name for d in [(6, 6, 3, 2, 5), (6, 6, 3, 3, 5), (5, 5, 5, 4, 1), (2, 3, 4, 5, 6)]]
    ['one-pair', 'two-pairs', 'three-of-a-kind', 'straight']
    >>> [intrigue_hand(d).name for d in [(4, 4, 4, 1, 1), (2, 2, 2, 2, 4), (3, 3, 3, 3, 3), (6, 5, 4, 3, 1)]]
    ['full-house', 'four-of-a-kind', 'five-of-a-kind', 'nothing']
    """
    counts = Counter(dice)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    sizes = tuple(size for _, size in groups)
    faces = tuple(face for face, _ in groups)
    if sizes == (1, 1, 1, 1, 1):
        if set(faces) in _STRAIGHTS:
            return Hand(4, (max(faces),))
        return Hand(0, faces)
    return Hand(_PATTERNS[sizes], faces)


def hand_rank(name: str) -> int | None:
    """The rank of a hand name (English or the seed's French, any case, ``_`` or space for ``-``).

    >>> hand_rank("Full-House"), hand_rank("brelan"), hand_rank("carré"), hand_rank("flush")
    (5, 3, 6, None)
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-").replace("é", "e")
    for rank, (english, french) in enumerate(zip(HAND_NAMES, FRENCH_NAMES, strict=True)):
        if key in (english, french):
            return rank
    return None
