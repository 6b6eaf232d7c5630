"""The battle wheel: the army value of the tokens dialled (WHEEL-1 to WHEEL-4, GAP-41, GAP-42).

* an unmarked (regular) token is worth 1/2, a token marked F, S or A (elite) is worth 1 (WHEEL-2);
* 1 spice given to 1 token doubles its value, at most 1 spice per token (WHEEL-2, GAP-42);
* spice goes to the marked tokens first, the best use of it (WHEEL-3 examples 6 and 7);
* every token dialled is lost, whatever the outcome (WHEEL-4).

>>> army_value(Dial(regular=3, elite=2, spice=3))
Fraction(6, 1)
>>> float(army_value(Dial(regular=2, spice=1)))
1.5
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dunenb.errors import IllegalActionError

HALF = Fraction(1, 2)


@dataclass(frozen=True, order=True)
class Tokens:
    """A number of tokens of each kind: ``regular`` (unmarked) and ``elite`` (marked F, S or A)."""

    regular: int = 0
    elite: int = 0

    @property
    def total(self) -> int:
        return self.regular + self.elite

    def __sub__(self, other: Tokens) -> Tokens:
        return Tokens(self.regular - other.regular, self.elite - other.elite)

    def to_dict(self) -> dict[str, int]:
        return {"regular": self.regular, "elite": self.elite}


@dataclass(frozen=True, order=True)
class Dial:
    """What a side dials on its wheel: tokens of each kind that fight, and spice given to them (BATTLE-13 a-c)."""

    regular: int = 0
    elite: int = 0
    spice: int = 0

    @property
    def tokens(self) -> Tokens:
        return Tokens(self.regular, self.elite)

    def to_dict(self) -> dict[str, int]:
        return {"regular": self.regular, "elite": self.elite, "spice": self.spice}


def check_dial(dial: Dial, available: Tokens | None = None) -> None:
    """Raise :class:`IllegalActionError` unless the dial is possible (GAP-42: at most 1 spice per token).

    >>> check_dial(Dial(regular=1, spice=2))
    Traceback (most recent call last):
    dunenb.errors.IllegalActionError: [battle/dial-spice] 2 spice for 1 token: at most 1 spice per token (GAP-42)
    """
    if min(dial.regular, dial.elite, dial.spice) < 0:
        raise IllegalActionError("battle/dial-negative", f"a dial cannot be negative: {dial.to_dict()}")
    if dial.spice > dial.regular + dial.elite:
        raise IllegalActionError(
            "battle/dial-spice",
            f"{dial.spice} spice for {dial.regular + dial.elite} token"
            f"{'s' if dial.regular + dial.elite != 1 else ''}: at most 1 spice per token (GAP-42)",
        )
    if available is not None and (dial.regular > available.regular or dial.elite > available.elite):
        raise IllegalActionError(
            "battle/dial-tokens",
            f"dial {dial.regular} regular + {dial.elite} elite exceeds the tokens in the territory "
            f"({available.regular} regular + {available.elite} elite) (BATTLE-13 a)",
        )


def army_value(dial: Dial, marked: Fraction = Fraction(1)) -> Fraction:
    """The number shown on the wheel for this dial (WHEEL-2), spice on marked tokens first (WHEEL-3).

    The value is a plain number: the physical wheel stops at 30 but that is no rules cap (GAP-41).

    >>> [float(army_value(d)) for d in (Dial(2), Dial(2, 0, 1), Dial(3, 0, 1), Dial(3, 0, 2))]
    [1.0, 1.5, 2.0, 2.5]
    >>> [float(army_value(d)) for d in (Dial(1, 1), Dial(1, 1, 1))]
    [1.5, 2.5]

    ``marked`` is what a marked token is worth (1 by WHEEL-2; ½ for the Dispersion's A tokens under a leader who is
    no Honored Matre, DISPERSION-P3, hook ``token.value``); spice doubles a token's value either way.

    >>> float(army_value(Dial(1, 2, 1), marked=HALF))
    2.0
    """
    check_dial(dial)
    spice_on_elite = min(dial.spice, dial.elite)
    spice_on_regular = dial.spice - spice_on_elite
    return marked * (dial.elite + spice_on_elite) + HALF * (dial.regular + spice_on_regular)


def cheapest_dials(value: Fraction | float, available: Tokens, spice: int) -> tuple[Dial, ...]:
    """The undominated dials (:func:`pareto_dials`) that show exactly ``value`` (WHEEL-4 advice).

    >>> cheapest_dials(3, Tokens(regular=6), spice=6)
    (Dial(regular=3, elite=0, spice=3), Dial(regular=4, elite=0, spice=2), Dial(regular=5, elite=0, spice=1), \
Dial(regular=6, elite=0, spice=0))
    """
    target = Fraction(value)
    return tuple(d for d in pareto_dials(available, spice) if army_value(d) == target)


def all_dials(available: Tokens, spice: int) -> tuple[Dial, ...]:
    """Every legal dial with these tokens and this much spice (GAP-42)."""
    return tuple(
        Dial(r, e, s)
        for r in range(available.regular + 1)
        for e in range(available.elite + 1)
        for s in range(min(spice, r + e) + 1)
    )


def pareto_dials(available: Tokens, spice: int) -> tuple[Dial, ...]:
    """The dials that are not dominated: no other dial shows at least as much with no more tokens (of either
    kind: every dialled token is lost, WHEEL-4) and no more spice, and is better in one of the three.

    This is the seed's advice made exact (WHEEL-4): "play the marked tokens first" (an unmarked token is
    dominated while a marked one is left) and "use spice where possible" (spice trades against tokens).
    Sorted by army value, then tokens.

    >>> [(d.regular, d.elite, d.spice) for d in pareto_dials(Tokens(regular=2, elite=1), spice=0)]
    [(0, 0, 0), (0, 1, 0), (1, 1, 0), (2, 1, 0)]
    >>> [(d.regular, d.spice) for d in pareto_dials(Tokens(regular=2), spice=1)]
    [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1)]
    """
    dials = all_dials(available, spice)
    keys = {d: (army_value(d), d.regular + d.elite, d.spice) for d in dials}

    def beats(o: Dial, d: Dial) -> bool:
        (vo, to, so), (vd, td, sd) = keys[o], keys[d]
        return vo >= vd and to <= td and so <= sd and (vo, -to, -so) != (vd, -td, -sd)

    keep = [d for d in dials if not any(beats(o, d) for o in dials)]
    return tuple(sorted(keep, key=lambda d: (keys[d][0], keys[d][1], d.spice, d.elite)))
