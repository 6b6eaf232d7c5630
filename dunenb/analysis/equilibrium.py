"""Optimal mixed strategies of a finite two-player zero-sum game, solved exactly by linear programming.

The row player maximises the payoff, the column player minimises it. Two linear programs (scipy's HiGHS solver)
give each side's optimal mix and the value of the game (von Neumann's minimax theorem).

>>> eq = solve_zero_sum([[1, -1], [-1, 1]])          # matching pennies
>>> round(eq.value, 9) + 0.0, eq.row.round(6).tolist(), eq.column.round(6).tolist()
(0.0, [0.5, 0.5], [0.5, 0.5])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import linprog

from dunenb.errors import InputError


@dataclass(frozen=True)
class Equilibrium:
    """The value of the game and one optimal mixed strategy per player (probability vectors)."""

    value: float
    row: np.ndarray
    column: np.ndarray


def _max_min_strategy(payoff: np.ndarray) -> tuple[np.ndarray, float]:
    """Maximise v subject to x^T A >= v (every column), sum x = 1, x >= 0."""
    rows, columns = payoff.shape
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0
    upper = np.hstack([-payoff.T, np.ones((columns, 1))])
    equality = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * rows + [(None, None)]
    result = linprog(objective, A_ub=upper, b_ub=np.zeros(columns), A_eq=equality, b_eq=[1.0], bounds=bounds,
                     method="highs")
    if not result.success:  # pragma: no cover - a finite matrix game always has a solution
        raise InputError("analysis/lp", f"the linear program failed: {result.message}")
    mix = np.clip(result.x[:rows], 0.0, None)
    return mix / mix.sum(), float(result.x[-1])


def solve_zero_sum(payoff: ArrayLike) -> Equilibrium:
    """Solve the zero-sum game with this payoff matrix (rows maximise, columns minimise).

    >>> rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]      # rock, paper, scissors
    >>> eq = solve_zero_sum(rps)
    >>> round(eq.value, 9) + 0.0, eq.row.round(6).tolist()
    (0.0, [0.333333, 0.333333, 0.333333])
    """
    matrix = np.asarray(payoff, dtype=float)
    if matrix.ndim != 2 or 0 in matrix.shape or not np.isfinite(matrix).all():
        raise InputError("analysis/matrix", "the payoff must be a non-empty 2-D matrix of finite numbers")
    row, value = _max_min_strategy(matrix)
    column, negated = _max_min_strategy(-matrix.T)
    if abs(value + negated) > 1e-6 * max(1.0, abs(value)):  # pragma: no cover - duality guard
        raise InputError("analysis/lp", f"the two programs disagree on the value ({value} vs {-negated})")
    return Equilibrium(value=value, row=row, column=column)
