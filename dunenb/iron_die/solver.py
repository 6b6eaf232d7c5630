"""Exact optimal play for one player's turn, by dynamic programming over dice multisets.

After each roll a player holds one of the 252 multisets ``D`` of five dice with ``r`` rolls left (2 after
the first roll, 0 after the third). With a terminal value ``f(D)``::

    V_0(D) = f(D)
    W_r(K) = sum over D' of P(keep K, reroll the rest -> D') * V_{r-1}(D')     (462 keeps K)
    V_r(D) = max over the keeps K inside D of W_r(K)                            (keeping all five = stop)

The transition table counts outcomes out of 7,776, so with integer terminal values every number stays an
exact integer (``int64``, or Python integers in ``object`` arrays when they would overflow): values are
exact fractions, ties are exact, and the policy is deterministic (ties go to the keep with more dice,
then to higher dice). Float arrays are supported too.

Every table takes the table ``options`` of the faith challenge (IRON-GAP-17, IRON-GAP-18; default readings
when omitted; military and intrigue ignore them).

Objectives (IRON-GAP-15, IRON-GAP-16):

* :func:`beat_policy` - (a) maximise the probability of strictly beating a known result;
* :func:`score_policy` - (c) maximise the expected score (military sum, faith sevens, intrigue rank);
* :mod:`dunenb.iron_die.initiator` - (b) the first player, who declares the challenge at the end.

>>> policy = score_policy("military")
>>> policy.start_value()
Fraction(70, 3)
>>> policy.best_keep((6, 6, 4, 4, 2), rolls_left=2)
(6, 6)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import numpy as np

from dunenb.iron_die.dice import (
    KEEP_INDEX,
    KEEPS,
    OUTCOME_INDEX,
    OUTCOMES,
    ROLL_DENOMINATOR,
    normalise,
    remove,
)
from dunenb.iron_die.dice import tables as dice_tables
from dunenb.iron_die.options import TableOptions, options_for
from dunenb.iron_die.results import CHALLENGES, Result, check_challenge, result_of

#: Values closer than this count as equal when a float policy breaks ties.
FLOAT_TOLERANCE = 1e-12
#: Rolls left right after the first roll of a turn.
START_ROLLS_LEFT = 2

Value = Fraction | float


@dataclass(frozen=True)
class KeepChoice:
    """A keep and its value (a probability or an expected score): keep ``keep``, reroll ``reroll``."""

    keep: tuple[int, ...]
    reroll: tuple[int, ...]
    value: Value

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly: the value as a float and, when exact, as a ``"p/q"`` string."""
        data: dict[str, object] = {
            "keep": list(self.keep),
            "reroll": list(self.reroll),
            "value": float(self.value),
        }
        if isinstance(self.value, Fraction):
            data["exact"] = str(self.value)
        return data


def _transition(dtype: np.dtype) -> np.ndarray:
    t = dice_tables()
    if dtype.kind == "f":
        return t.transition_float
    if dtype.kind == "O":
        return _object_transition()
    return t.transition


@cache
def _object_transition() -> np.ndarray:
    return dice_tables().transition.astype(object)


def backward(terminal: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """Run the recursion on ``terminal`` (shape ``(252,)`` or ``(252, m)`` for m objectives at once).

    Returns ``values[r]`` (``V_r``, rolls left r = 0, 1, 2) and ``keep_values[r]`` (``W_r``; ``None`` for
    r = 0). Integer arrays hold numerators over ``7776 ** r`` times the terminal's own denominator.

    >>> values, keeps = backward(np.ones(252, dtype=np.int64))
    >>> int(values[2][0]) == 7776**2, keeps[0] is None
    (True, True)
    """
    t = dice_tables()
    matrix = _transition(terminal.dtype)
    values: list[np.ndarray] = [terminal]
    keep_values: list[np.ndarray | None] = [None]
    for _ in range(START_ROLLS_LEFT):
        keep_value = matrix @ values[-1]
        values.append(keep_value[t.subkeeps].max(axis=1))
        keep_values.append(keep_value)
    return values, keep_values


def start_numerators(values: list[np.ndarray]) -> np.ndarray:
    """Value before the first roll (numerators over ``7776 ** 3`` times the terminal's denominator)."""
    first = dice_tables().first_roll
    top = values[START_ROLLS_LEFT]
    if top.dtype.kind == "f":
        return first @ top / ROLL_DENOMINATOR
    if top.dtype.kind == "O":
        return first.astype(object) @ top
    return first @ top


@dataclass(frozen=True, eq=False)
class Policy:
    """An optimal one-turn policy for a terminal value; see the module docstring.

    ``denominator`` is the terminal values' denominator for exact policies (``None`` for float ones).
    """

    name: str
    values: tuple[np.ndarray, ...]
    keep_values: tuple[np.ndarray | None, ...]
    denominator: int | None
    _best: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    @classmethod
    def solve(cls, name: str, terminal: np.ndarray, denominator: int | None = 1) -> Policy:
        """Solve for ``terminal`` (integers with ``denominator``, or floats with ``denominator=None``)."""
        if terminal.dtype.kind == "f":
            denominator = None
        values, keep_values = backward(terminal)
        return cls(name, tuple(values), tuple(keep_values), denominator)

    @property
    def exact(self) -> bool:
        """True when values are exact fractions."""
        return self.denominator is not None

    def _convert(self, number: object, rolls: int) -> Value:
        if self.denominator is None:
            return float(number)  # type: ignore[arg-type]
        return Fraction(int(number), self.denominator * ROLL_DENOMINATOR**rolls)  # type: ignore[call-overload]

    def value(self, dice: Iterable[int], rolls_left: int) -> Value:
        """The optimal value holding ``dice`` with ``rolls_left`` rolls left (0, 1 or 2)."""
        return self._convert(self.values[rolls_left][OUTCOME_INDEX[normalise(dice)]], rolls_left)

    def keep_value(self, keep: Iterable[int], rolls_left: int) -> Value:
        """The value of keeping ``keep`` and rerolling the other dice, with ``rolls_left`` >= 1."""
        keep_values = self.keep_values[rolls_left]
        assert keep_values is not None, "no reroll with 0 rolls left"
        return self._convert(keep_values[KEEP_INDEX[normalise(keep)]], rolls_left)

    def start_value(self) -> Value:
        """The value before the first roll of the turn (three rolls to come)."""
        number = start_numerators(list(self.values))
        if self.denominator is None:
            return float(number)
        return Fraction(int(number), self.denominator * ROLL_DENOMINATOR ** (START_ROLLS_LEFT + 1))

    def ranked_keeps(self, dice: Iterable[int], rolls_left: int) -> list[KeepChoice]:
        """Every distinct keep from ``dice``, best first (ties: more dice kept, then higher dice).

        With 0 rolls left the only choice is to keep everything.

        >>> choices = score_policy("military").ranked_keeps((6, 5, 1, 1, 1), rolls_left=1)
        >>> [(c.keep, c.value) for c in choices[:2]]
        [((6, 5), Fraction(43, 2)), ((6,), Fraction(20, 1))]
        """
        dice = normalise(dice)
        if rolls_left == 0:
            return [KeepChoice(dice, (), self.value(dice, 0))]
        keep_values = self.keep_values[rolls_left]
        assert keep_values is not None
        indexes = dice_tables().subkeeps[OUTCOME_INDEX[dice]][
            : dice_tables().subkeep_count[OUTCOME_INDEX[dice]]
        ]
        choices = [(keep_values[k], k) for k in indexes]
        if self.denominator is None:
            choices.sort(key=lambda item: (-round(float(item[0]) / FLOAT_TOLERANCE), item[1]))
        else:
            choices.sort(key=lambda item: (-int(item[0]), item[1]))
        return [
            KeepChoice(KEEPS[k], remove(dice, KEEPS[k]), self._convert(v, rolls_left)) for v, k in choices
        ]

    def best_keep(self, dice: Iterable[int], rolls_left: int) -> tuple[int, ...]:
        """The optimal keep (all five dice = stop rolling)."""
        dice = normalise(dice)
        if rolls_left == 0:
            return dice
        return KEEPS[int(self.best_keep_indexes(rolls_left)[OUTCOME_INDEX[dice]])]

    def best_keep_indexes(self, rolls_left: int) -> np.ndarray:
        """For every outcome (252), the :data:`KEEPS` index of the optimal keep (``rolls_left`` >= 1)."""
        if rolls_left not in self._best:
            self._best[rolls_left] = self._solve_best(rolls_left)
        return self._best[rolls_left]

    def _solve_best(self, rolls_left: int) -> np.ndarray:
        t = dice_tables()
        keep_values = self.keep_values[rolls_left]
        assert keep_values is not None
        candidates = keep_values[t.subkeeps]
        best = candidates.max(axis=1)
        if self.denominator is None:
            hits = candidates >= (best - FLOAT_TOLERANCE)[:, None]
        else:
            hits = candidates == best[:, None]
        choice = np.asarray(hits, dtype=bool).argmax(axis=1)
        best_indexes = t.subkeeps[np.arange(len(OUTCOMES)), choice]
        best_indexes.setflags(write=False)
        return best_indexes

    def final_distribution(self) -> tuple[np.ndarray, int]:
        """Following this policy from the first roll: how the turn ends, as integer weights over the 252
        outcomes and their common denominator ``7776 ** 3``.

        >>> weights, denominator = score_policy("faith").final_distribution()
        >>> int(weights.sum()) == denominator
        True
        """
        t = dice_tables()
        weights = t.first_roll.astype(np.int64)
        for rolls_left in range(START_ROLLS_LEFT, 0, -1):
            rows = t.transition[self.best_keep_indexes(rolls_left)]
            weights = weights @ rows
        return weights, ROLL_DENOMINATOR ** (START_ROLLS_LEFT + 1)


# --------------------------------------------------------------------------------------- result tables


def strengths(challenge: str, options: TableOptions | None = None) -> np.ndarray:
    """The :attr:`Result.strength` of each of the 252 outcomes in ``challenge``.

    >>> int(strengths("military")[0]), int(strengths("military")[-1])
    (30, 5)
    """
    challenge = check_challenge(challenge)
    return _strengths(challenge, options_for(challenge, options))


@cache
def _strengths(challenge: str, options: TableOptions) -> np.ndarray:
    array = np.array([result_of(challenge, dice, options).strength for dice in OUTCOMES], dtype=np.int64)
    array.setflags(write=False)
    return array


def scores(challenge: str, options: TableOptions | None = None) -> np.ndarray:
    """The score of each of the 252 outcomes (IRON-GAP-15: sum, sevens or hand rank index)."""
    challenge = check_challenge(challenge)
    return _scores(challenge, options_for(challenge, options))


@cache
def _scores(challenge: str, options: TableOptions) -> np.ndarray:
    array = np.array([result_of(challenge, dice, options).value[0] for dice in OUTCOMES], dtype=np.int64)
    array.setflags(write=False)
    return array


# --------------------------------------------------------------------------------------------- policies


def score_policy(challenge: str, options: TableOptions | None = None) -> Policy:
    """(c) The policy maximising the expected score of ``challenge`` (exact).

    >>> from dunenb.iron_die.options import TableOptions
    >>> score_policy("faith").start_value() < score_policy("faith", TableOptions("arithmetic")).start_value()
    True
    """
    challenge = check_challenge(challenge)
    return _score_policy(challenge, options_for(challenge, options))


@cache
def _score_policy(challenge: str, options: TableOptions) -> Policy:
    return Policy.solve(f"expected {challenge} score", scores(challenge, options).copy())


def beat_policy(challenge: str, target: Result) -> Policy:
    """(a) The policy maximising the probability of strictly beating ``target`` (exact), under the table
    options ``target`` was made with.

    >>> from dunenb.iron_die.results import parse_result
    >>> policy = beat_policy("intrigue", parse_result("intrigue", "five-of-a-kind"))
    >>> policy.start_value()
    Fraction(347897, 7558272)
    """
    challenge = check_challenge(challenge)
    if target.challenge != challenge:
        raise ValueError(f"target {target.notation!r} is a {target.challenge} result, not {challenge}")
    return _beat_policy(challenge, target.strength, target.notation, target.options)


@cache
def _beat_policy(challenge: str, strength: int, notation: str, options: TableOptions) -> Policy:
    terminal = (strengths(challenge, options) > strength).astype(np.int64)
    return Policy.solve(f"beat {challenge} {notation}", terminal)


def reply_numerators(challenge: str, options: TableOptions | None = None) -> np.ndarray:
    """For every outcome ``D`` (252), a challenger's optimal chance of strictly beating the result of ``D``
    from the start of his turn, as numerators over ``7776 ** 3`` (all targets solved at once).

    >>> int(reply_numerators("military")[0])  # nobody beats 30
    0
    """
    challenge = check_challenge(challenge)
    return _reply_numerators(challenge, options_for(challenge, options))


@cache
def _reply_numerators(challenge: str, options: TableOptions) -> np.ndarray:
    own = strengths(challenge, options)
    targets, inverse = np.unique(own, return_inverse=True)
    terminal = (own[:, None] > targets[None, :]).astype(np.int64)
    values, _ = backward(terminal)
    numerators = start_numerators(values)[inverse]
    numerators.setflags(write=False)
    return numerators


def beat_probability(challenge: str, target: Result) -> Fraction:
    """A challenger's optimal probability of strictly beating ``target`` over a whole turn."""
    value = beat_policy(challenge, target).start_value()
    assert isinstance(value, Fraction)
    return value


def clear_caches() -> None:
    """Forget every solved table and policy (used by the benchmark to time solving from scratch)."""
    from dunenb.iron_die import dice, faith, initiator

    for function in (_strengths, _scores, _score_policy, _beat_policy, _reply_numerators, _object_transition):
        function.cache_clear()
    dice.tables.cache_clear()
    faith.faith_claim.cache_clear()
    faith._arithmetic_values.cache_clear()
    faith._arithmetic_makes.cache_clear()
    initiator._initiator_policy.cache_clear()


__all__ = [
    "CHALLENGES",
    "KeepChoice",
    "Policy",
    "backward",
    "beat_policy",
    "beat_probability",
    "clear_caches",
    "reply_numerators",
    "score_policy",
    "scores",
    "strengths",
]
