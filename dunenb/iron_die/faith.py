"""The faith challenge: how many "7" a player makes from his dice with + and - (or, as a table option,
with + - x /: IRON-GAP-17).

Each die may be used in one operation only (seed). A group is two or more dice, each added or subtracted,
totalling exactly 7; a player claims the set of disjoint groups that is best for him (IRON-GAP-4).
The table options of :mod:`dunenb.iron_die.options` change the operations and the tie-break.
Ties on the number of sevens are settled by the unused dice (IRON-GAP-5, IRON-GAP-6): a hand that leaves
a die unused beats one that uses every die, and a lower total of unused dice beats a higher one. This is
the only reading under which the seed's example holds: the first player (4, 6, 3, 2, 1) claims 4+3 and
6+1 and keeps a 2; the second (5, 4, 1, 6, 2) announced 6+1 and 5+4-2 (nothing left), but could also
claim 6+1 and 5+2 and keep a 4, and the seed still gives the challenge to the first player's 2.

>>> claim = faith_claim((4, 6, 3, 2, 1))
>>> claim.sevens, claim.unused, claim.groups
(2, (2,), ('4+3', '6+1'))
>>> faith_claim((5, 4, 1, 6, 2)).unused
(4,)
>>> evaluate_grouping((5, 4, 1, 6, 2), [(6, 1), (5, 4, -2)])
(2, ())
>>> from dunenb.iron_die.options import TableOptions
>>> faith_claim((6, 6, 6, 6, 1), TableOptions(faith_operations="arithmetic")).groups
('6+1', '6+6/6')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from dunenb.iron_die.dice import normalise
from dunenb.iron_die.options import DEFAULT_OPTIONS, TableOptions

#: The number every group must reach.
TARGET = 7


@dataclass(frozen=True)
class FaithClaim:
    """The best faith claim for a set of dice.

    ``groups`` are readable expressions such as ``"5+4-2"``; ``unused`` the dice left out (high to low).
    """

    dice: tuple[int, ...]
    groups: tuple[str, ...]
    unused: tuple[int, ...]

    @property
    def sevens(self) -> int:
        """How many groups make 7."""
        return len(self.groups)

    @property
    def unused_total(self) -> int:
        """Total of the unused dice (0 when every die is used)."""
        return sum(self.unused)

    def describe(self) -> str:
        """A readable summary.

        >>> faith_claim((4, 6, 3, 2, 1)).describe()
        '2 sevens (4+3, 6+1), unused 2'
        >>> faith_claim((6, 6, 6, 6, 6)).describe()
        '0 sevens, unused 6,6,6,6,6'
        """
        text = f"{self.sevens} seven{'s' if self.sevens != 1 else ''}"
        if self.groups:
            text += f" ({', '.join(self.groups)})"
        unused = ",".join(map(str, self.unused)) if self.unused else "none"
        return f"{text}, unused {unused}"


def claim_key(sevens: int, unused_total: int, tiebreak: str = "low") -> tuple[int, int, int]:
    """Sort key of a faith result: more sevens, then the tie-break on the unused dice.

    ``"low"`` (IRON-GAP-5, the default): having an unused die, then a lower unused total;
    ``"high"`` (IRON-GAP-18): a higher unused total, using every die counting as 0.

    >>> claim_key(2, 2) > claim_key(2, 4) > claim_key(2, 0) > claim_key(1, 3)
    True
    >>> claim_key(2, 4, "high") > claim_key(2, 2, "high") > claim_key(2, 0, "high") > claim_key(1, 3, "high")
    True
    """
    if tiebreak == "high":
        return (sevens, 0, unused_total)
    return (sevens, 1 if unused_total else 0, -unused_total)


def _expression(values: Sequence[int], signs: Sequence[int]) -> str:
    """Write a signed group with the added dice first, e.g. ``5+4-2``."""
    plus = sorted((v for v, s in zip(values, signs, strict=True) if s > 0), reverse=True)
    minus = sorted((v for v, s in zip(values, signs, strict=True) if s < 0), reverse=True)
    return "+".join(map(str, plus)) + "".join(f"-{v}" for v in minus)


def _signed_sevens(values: Sequence[int]) -> str | None:
    """The expression of a +/- group making 7 with the fewest minus signs, or None (IRON-GAP-4)."""
    best: tuple[int, str] | None = None
    for signs in product((1, -1), repeat=len(values)):
        if sum(v * s for v, s in zip(values, signs, strict=True)) == TARGET:
            minus = signs.count(-1)
            if best is None or minus < best[0]:
                best = (minus, _expression(values, signs))
    return None if best is None else best[1]


def _splits(values: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every split of a multiset into two non-empty parts, each once (the first die stays on the right)."""
    size = len(values)
    out = []
    for mask in range(1, 2 ** (size - 1)):
        left = tuple(values[i] for i in range(size) if mask >> i & 1)
        right = tuple(values[i] for i in range(size) if not mask >> i & 1)
        out.append((left, right))
    return out


def _partners(x: Fraction, target: Fraction) -> list[tuple[Fraction, str]]:
    """The values ``y`` with ``x op y == target`` for + - x / (either order), with the operation's form."""
    out = [(target - x, "x+y"), (x - target, "x-y"), (x + target, "y-x")]
    if x:
        out.append((target / x, "x*y"))
        out.append((target * x, "y/x"))
    if target:
        out.append((x / target, "x/y"))
    return out


@cache
def _arithmetic_values(values: tuple[int, ...]) -> frozenset[Fraction]:
    """Every value that the sorted multiset ``values`` makes with + - x / and any brackets (IRON-GAP-17);
    intermediate results are exact fractions, division by 0 is not allowed."""
    if len(values) == 1:
        return frozenset({Fraction(values[0])})
    found: set[Fraction] = set()
    for left, right in _splits(values):
        right_values = _arithmetic_values(right)
        for x in _arithmetic_values(left):
            for y in right_values:
                found.update((x + y, x - y, y - x, x * y))
                if y:
                    found.add(x / y)
                if x:
                    found.add(y / x)
    return frozenset(found)


@cache
def _arithmetic_makes(values: tuple[int, ...], target: Fraction) -> str | None:
    """An expression of the sorted multiset ``values`` worth ``target`` with + - x / and brackets, or None.
    Only the smaller parts' value sets are built: for each split the partner value is looked up."""
    if len(values) == 1:
        return str(values[0]) if values[0] == target else None
    for left, right in _splits(values):
        right_values = _arithmetic_values(right)
        for x in sorted(_arithmetic_values(left)):
            partners = _partners(x, target)
            if x == 0 and target == 0:  # 0 * y and 0 / y are 0 for any (non-zero) y
                partners += [(y, "x*y") for y in sorted(right_values)]
                partners += [(y, "x/y") for y in sorted(right_values) if y]
            for y, form in partners:
                if y not in right_values or (form in ("x/y",) and not y) or (form == "y/x" and not x):
                    continue
                a, b = _arithmetic_makes(left, x), _arithmetic_makes(right, y)
                assert a is not None and b is not None
                a_text = f"({a})" if len(left) > 1 else a
                b_text = f"({b})" if len(right) > 1 else b
                return {
                    "x+y": f"{a}+{b}",
                    "x-y": f"{a}-{b_text}",
                    "y-x": f"{b}-{a_text}",
                    "x*y": f"{a_text}*{b_text}",
                    "x/y": f"{a_text}/{b_text}",
                    "y/x": f"{b_text}/{a_text}",
                }[form]
    return None


def _group_expression(values: Sequence[int], operations: str) -> str | None:
    """How a group of dice makes 7 under the table's operations, or None when it cannot."""
    signed = _signed_sevens(values)
    if signed is not None or operations == "add-subtract":
        return signed
    return _arithmetic_makes(tuple(sorted(values, reverse=True)), Fraction(TARGET))


@cache
def faith_claim(dice: tuple[int, ...], options: TableOptions = DEFAULT_OPTIONS) -> FaithClaim:
    """The best faith claim for five dice (any order): most sevens, then the tie-break of IRON-GAP-5/6 (or,
    with the table options, IRON-GAP-17/18).

    >>> faith_claim((6, 1, 5, 2, 1)).describe()
    '2 sevens (5+2, 6+1), unused 1'
    >>> faith_claim((6, 1, 6, 3, 2)).describe()
    '2 sevens (6+1, 6+3-2), unused none'
    >>> faith_claim((6, 6, 6, 5, 2)).describe()
    '1 seven (6+5+2-6), unused 6'
    >>> faith_claim((6, 6, 6, 5, 2), TableOptions(faith_tiebreak="high")).describe()
    '1 seven (5+2), unused 6,6,6'
    """
    dice = normalise(dice)
    size = len(dice)
    sevenable: dict[int, str] = {}
    for mask in range(1, 2**size):
        members = [i for i in range(size) if mask >> i & 1]
        if len(members) < 2:
            continue
        expression = _group_expression([dice[i] for i in members], options.faith_operations)
        if expression is not None:
            sevenable[mask] = expression
    choices: list[tuple[int, ...]] = [()]
    masks = sorted(sevenable)
    choices += [(a,) for a in masks]
    choices += [(a, b) for a in masks for b in masks if a < b and not a & b]
    best_key: tuple[int, int, int] | None = None
    best_choice: tuple[int, ...] = ()
    for choice in choices:
        used = 0
        for mask in choice:
            used |= mask
        unused_total = sum(dice[i] for i in range(size) if not used >> i & 1)
        key = claim_key(len(choice), unused_total, options.faith_tiebreak)
        if best_key is None or key > best_key:
            best_key, best_choice = key, choice
    used = 0
    for mask in best_choice:
        used |= mask
    unused = tuple(dice[i] for i in range(size) if not used >> i & 1)
    groups = tuple(sorted((sevenable[m] for m in best_choice), key=lambda e: (len(e), e)))
    return FaithClaim(dice, groups, unused)


def evaluate_grouping(dice: Iterable[int], groups: Iterable[Sequence[int]]) -> tuple[int, tuple[int, ...]]:
    """Check an announced grouping and return ``(sevens, unused dice)``.

    Each group is a sequence of signed dice, e.g. ``(5, 4, -2)`` for 5+4-2. Raises ``ValueError`` when a
    group does not make 7 or uses dice the player does not have.

    >>> evaluate_grouping((4, 6, 3, 2, 1), [(4, 3), (6, 1)])
    (2, (2,))
    >>> evaluate_grouping((4, 6, 3, 2, 1), [(4, 4)])
    Traceback (most recent call last):
    ...
    ValueError: group (4, 4) makes 8, not 7
    """
    left = Counter(dice)
    count = 0
    for group in groups:
        group = tuple(group)
        if len(group) < 2 or sum(group) != TARGET:
            raise ValueError(f"group {group} makes {sum(group)}, not {TARGET}")
        need = Counter(abs(v) for v in group)
        if need - left:
            raise ValueError(f"group {group} uses dice that are not available")
        left -= need
        count += 1
    return count, normalise(left.elements())
