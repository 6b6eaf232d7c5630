"""Exact next-hand odds for the deck-building panel (seed: Le deckbuilding, IMP-GAP-2).

The next hand is 5 cards from the deck; a deck with fewer cards gives all of them and the rest comes from
the discard pile, shuffled into a new deck. Each hand is a multiset of card ids whose probability is the
multivariate hypergeometric ``prod C(n_i, k_i) / C(N, k)``, exact as a :class:`~fractions.Fraction`.

>>> odds = hand_odds({"dagger": 2, "convincing_argument": 1}, {"seek_allies": 1, "diplomacy": 3})
>>> len(odds), sum(p for _, p in odds)
(2, Fraction(1, 1))
>>> odds[0]
(('convincing_argument', 'dagger', 'dagger', 'diplomacy', 'diplomacy'), Fraction(1, 2))
>>> card_odds({"dagger": 2, "diplomacy": 3}, {}, hand_size=2)["dagger"]
Fraction(7, 10)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain, combinations, repeat
from math import comb
from operator import itemgetter

from dunenb.errors import InputError

Pile = Mapping[str, int] | Iterable[str]


def _counts(pile: Pile, name: str) -> dict[str, int]:
    counts = dict(pile) if isinstance(pile, Mapping) else dict(Counter(pile))
    if any(not isinstance(k, str) or type(v) is not int or v < 0 for k, v in counts.items()):
        raise InputError("imperium/pile", f"{name}: expected card ids with copy counts >= 0, got {counts!r}")
    return {k: v for k, v in sorted(counts.items()) if v > 0}


def _draws(counts: dict[str, int], k: int) -> list[tuple[int, list[tuple[str, ...]]]]:
    """Every multiset of ``k`` cards from ``counts`` (sorted ids), in blocks sharing their number of ways
    ``prod C(n_i, k_i)``: ids with several copies are enumerated by count, single copies by
    :func:`itertools.combinations` (one block per choice of the repeated ids)."""
    singles = [name for name, n in counts.items() if n == 1]
    multis = [name for name, n in counts.items() if n > 1]
    partial: list[tuple[tuple[str, ...], int]] = []

    def walk(i: int, need: int, hand: tuple[str, ...], ways: int) -> None:
        if i == len(multis):
            if need <= len(singles):
                partial.append((hand, ways))
            return
        n = counts[multis[i]]
        for take in range(min(n, need), -1, -1):
            walk(i + 1, need - take, hand + (multis[i],) * take, ways * comb(n, take))

    walk(0, k, (), 1)
    blocks = []
    for hand, ways in partial:
        combos = combinations(singles, k - len(hand))
        blocks.append((ways, [tuple(sorted(hand + c)) for c in combos] if hand else list(combos)))
    return blocks


@dataclass(frozen=True)
class HandOdds:
    """The possible next hands (sorted card ids), most likely first, each with its number of equally likely
    draws ``ways``: the probability of ``hands[i]`` is ``ways[i] / total`` (exact, see :meth:`probability`)."""

    hands: tuple[tuple[str, ...], ...]
    ways: tuple[int, ...]
    total: int

    def __len__(self) -> int:
        return len(self.hands)

    def __getitem__(self, index: int) -> tuple[tuple[str, ...], Fraction]:
        return self.hands[index], self.probability(index)

    def __iter__(self) -> Iterator[tuple[tuple[str, ...], Fraction]]:
        return (self[i] for i in range(len(self.hands)))

    def probability(self, index: int) -> Fraction:
        return Fraction(self.ways[index], self.total)


def hand_odds(deck: Pile, discard: Pile = (), hand_size: int = 5) -> HandOdds:
    """Every possible next hand with its exact probability (a :class:`HandOdds`, most likely first)."""
    if type(hand_size) is not int or hand_size < 0:
        raise InputError("imperium/hand-size", f"hand_size: expected an integer >= 0, got {hand_size!r}")
    deck_counts, discard_counts = _counts(deck, "deck"), _counts(discard, "discard")
    in_deck = sum(deck_counts.values())
    if in_deck >= hand_size:
        base: tuple[str, ...] = ()
        source, k = deck_counts, hand_size
    else:
        base = tuple(c for c, n in deck_counts.items() for _ in range(n))
        source, k = discard_counts, min(hand_size - in_deck, sum(discard_counts.values()))
    blocks = _draws(source, k)
    blocks.sort(key=itemgetter(0), reverse=True)  # stable: equal odds keep the enumeration order
    hands = list(chain.from_iterable(block for _, block in blocks))
    if base:
        hands = [tuple(sorted(base + drawn)) for drawn in hands]
    ways = list(chain.from_iterable(repeat(w, len(block)) for w, block in blocks))
    return HandOdds(tuple(hands), tuple(ways), comb(sum(source.values()), k))


def card_odds(deck: Pile, discard: Pile = (), hand_size: int = 5) -> dict[str, Fraction]:
    """For each card id, the exact probability that the next hand holds at least one copy."""
    deck_counts, discard_counts = _counts(deck, "deck"), _counts(discard, "discard")
    in_deck = sum(deck_counts.values())
    if in_deck >= hand_size:
        pool, k, sure = deck_counts, hand_size, set()
    else:
        pool, k, sure = discard_counts, min(hand_size - in_deck, sum(discard_counts.values())), set(deck_counts)
    total = sum(pool.values())
    result = {}
    for card in sorted(set(deck_counts) | set(discard_counts)):
        if card in sure:
            result[card] = Fraction(1)
        else:
            n = pool.get(card, 0)
            result[card] = 1 - Fraction(comb(total - n, k), comb(total, k)) if total else Fraction(0)
    return result
