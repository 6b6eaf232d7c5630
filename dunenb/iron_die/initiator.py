"""(b) Exact optimal play for the first player, who declares the challenge after his last roll.

The first player wins the point when no challenger strictly beats his result (IRON-GAP-1, IRON-GAP-2).
For every final hand ``D`` and challenge ``c``, let ``p_c(D)`` be a challenger's optimal probability of
beating ``D``'s result over a whole turn (:func:`dunenb.iron_die.solver.reply_numerators`, exact). With
``n`` players the ``n - 1`` challengers roll independently and, as long as nobody has beaten the first
player, each one faces the same result, so the first player wins with probability ``(1 - p_c(D)) ** (n - 1)``
(exact against optimal replies for two players; for more players the challengers are assumed to play the
beat-the-best-result policy, IRON-GAP-16). The first player's terminal value is the best challenge to
declare, ``max_c (1 - p_c(D)) ** (n - 1)``, and his keeps come from the one-turn recursion of
:mod:`dunenb.iron_die.solver` on it, with exact rational arithmetic.

>>> policy = initiator_policy(2)
>>> policy.declare_for((6, 6, 6, 5, 5))
'military'
>>> policy.declare_for((1, 1, 1, 1, 1))
'intrigue'
>>> 0.5 < float(policy.start_value()) < 0.7
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from dunenb.iron_die.dice import OUTCOME_INDEX, OUTCOMES, ROLL_DENOMINATOR, normalise
from dunenb.iron_die.options import DEFAULT_OPTIONS, TableOptions
from dunenb.iron_die.results import CHALLENGES
from dunenb.iron_die.solver import KeepChoice, Policy, Value, reply_numerators

#: Denominator of a challenger's whole-turn probability (three rolls).
TURN_DENOMINATOR = ROLL_DENOMINATOR**3


@dataclass(frozen=True, eq=False)
class InitiatorPolicy:
    """The first player's optimal policy for ``n_players`` (values = probability of winning the point)."""

    n_players: int
    policy: Policy
    declare: tuple[str, ...]
    declare_values: dict[str, np.ndarray]

    def declare_for(self, dice: Iterable[int]) -> str:
        """The challenge to declare with these final dice (ties: military, faith, intrigue order)."""
        return self.declare[OUTCOME_INDEX[normalise(dice)]]

    def challenge_values(self, dice: Iterable[int]) -> dict[str, Value]:
        """The probability of winning the point when declaring each challenge with these final dice."""
        index = OUTCOME_INDEX[normalise(dice)]
        return {c: self._convert(self.declare_values[c][index]) for c in CHALLENGES}

    def _convert(self, number: object) -> Value:
        if self.policy.denominator is None:
            return float(number)  # type: ignore[arg-type]
        return Fraction(int(number), self.policy.denominator)  # type: ignore[call-overload]

    def best_keep(self, dice: Iterable[int], rolls_left: int) -> tuple[int, ...]:
        """The optimal keep; all five dice means: stop and declare :meth:`declare_for`."""
        return self.policy.best_keep(dice, rolls_left)

    def ranked_keeps(self, dice: Iterable[int], rolls_left: int) -> list[KeepChoice]:
        """Every keep with its probability of winning the point, best first."""
        return self.policy.ranked_keeps(dice, rolls_left)

    def value(self, dice: Iterable[int], rolls_left: int) -> Value:
        """Probability of winning the point from here, playing optimally."""
        return self.policy.value(dice, rolls_left)

    def start_value(self) -> Value:
        """Probability that the first player wins the point, before his first roll."""
        return self.policy.start_value()


def initiator_policy(
    n_players: int = 2, exact: bool = True, options: TableOptions | None = None
) -> InitiatorPolicy:
    """Solve the first player's policy for ``n_players`` (2 or more); ``exact=False`` uses floats;
    ``options`` are the table's faith readings (IRON-GAP-17, IRON-GAP-18; default readings when omitted).

    >>> float(initiator_policy(3, exact=False).start_value()) < float(initiator_policy(2).start_value())
    True
    """
    return _initiator_policy(n_players, exact, DEFAULT_OPTIONS if options is None else options)


@cache
def _initiator_policy(n_players: int, exact: bool, options: TableOptions) -> InitiatorPolicy:
    if n_players < 2:
        raise ValueError("the first player needs at least one challenger")
    power = n_players - 1
    per_challenge: dict[str, np.ndarray] = {}
    for challenge in CHALLENGES:
        fail = TURN_DENOMINATOR - reply_numerators(challenge, options)
        if exact:
            per_challenge[challenge] = np.array([int(x) ** power for x in fail], dtype=object)
        else:
            per_challenge[challenge] = (fail / TURN_DENOMINATOR) ** power
    stacked = np.stack([per_challenge[c] for c in CHALLENGES], axis=1)
    if exact:
        best = np.array([max(row) for row in stacked], dtype=object)
        choice = [
            next(i for i, v in enumerate(row) if v == top) for row, top in zip(stacked, best, strict=True)
        ]
        denominator: int | None = TURN_DENOMINATOR**power
    else:
        best = stacked.max(axis=1)
        choice = list(stacked.argmax(axis=1))
        denominator = None
    name = f"first player, {n_players} players"
    policy = Policy.solve(name, best, denominator)
    declare = tuple(CHALLENGES[int(i)] for i in choice)
    assert len(declare) == len(OUTCOMES)
    return InitiatorPolicy(n_players, policy, declare, per_challenge)
