"""Optimal mixed strategies of a finite two-player zero-sum game, solved exactly by linear programming.

The row player maximises the payoff, the column player minimises it. Before the LP the game is reduced exactly
(:func:`reduce_game`): duplicate rows and columns are merged and weakly dominated ones removed, iteratively. One
linear program (scipy's HiGHS solver) then gives the row player's optimal mix and the value; the column player's
optimal mix is read from the dual of the same program (von Neumann's minimax theorem: the dual of the row
player's program is the column player's). Both mixes are checked against the whole, unreduced matrix.

Why the reduction is exact (issue 14): if row ``k`` is at least row ``i`` in every column, moving the weight of
``i`` onto ``k`` in any mix never lowers its payoff against any column, so the row player's guaranteed value is the
same with or without ``i``; symmetrically for a column at least another one (the column player minimises).
Removed after others, a row is dominated on the columns still present, and an optimal mix of the reduced game
stays optimal in the whole game (each removed column is at least, on the rows kept, a column that is kept or was
removed later, and so on down to a kept one). So the **value is unchanged** and the mixes returned are optimal in
the whole game. What weak dominance may drop is *other* optimal mixes (those that use a dominated plan, or split
weight across duplicates: of equal plans the first is kept); a unique equilibrium is never lost, since
moving weight from a dominated plan would give a second one.

>>> eq = solve_zero_sum([[1, -1], [-1, 1]])          # matching pennies
>>> round(eq.value, 9) + 0.0, eq.row.round(6).tolist(), eq.column.round(6).tolist()
(0.0, [0.5, 0.5], [0.5, 0.5])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dunenb.errors import InputError

#: Tolerance of the check that both mixes are optimal in the whole game (HiGHS's own tolerances are ~1e-7).
CHECK_TOLERANCE = 1e-6


@dataclass(frozen=True)
class Equilibrium:
    """The value of the game and one optimal mixed strategy per player (probability vectors)."""

    value: float
    row: np.ndarray
    column: np.ndarray


def _undominated(vectors: np.ndarray) -> np.ndarray:
    """Positions (ascending) of the rows of ``vectors`` kept after removing, one at a time, every row that is at
    most another row still kept, in every column; of equal rows the first is kept.

    Each removal is of a row at most a kept one, so (module docstring) the value is unchanged; at the end no kept
    row is at most another. Only rows whose sum is not clearly smaller can be at least a row: their exact sum is
    at least its, and a float sum errs by far less than the margin (at most about n * 1.1e-16 times the sum of
    absolute values). Rows are tried from the largest sum down, likely dominators first in doubling chunks, so a
    dominated row is usually found out after a few comparisons.
    """
    # Of equal rows the first is kept (equal rows have equal sums: the later one is tried first). Dropping the
    # later ones before the comparisons keeps the same rows: the first stays a candidate while they would be
    # and, being equal, removes whatever they would (issue 14: the goal-size battle has one row in three distinct)
    distinct = _distinct(vectors)
    if len(distinct) == len(vectors):
        return _dominance_pass(vectors)
    return distinct[_dominance_pass(vectors[distinct])]


def _dominance_pass(vectors: np.ndarray) -> np.ndarray:
    """:func:`_undominated` by comparisons alone (equal rows included)."""
    count = len(vectors)
    sums = vectors.sum(axis=1)
    margins = 1e-9 * (np.abs(vectors).sum(axis=1) + 1.0)
    order = np.lexsort((-np.arange(count), -sums))  # largest sum first; equal sums: the later row first
    keep = np.ones(count, dtype=bool)
    for position in order:
        # kept rows in decreasing order of sum whose sum is not clearly below this row's (it may be an equal row)
        ordered = order[keep[order]]
        candidates = ordered[sums[ordered] >= sums[position] - margins[position]]
        candidates = candidates[candidates != position]
        start, size = 0, _CHUNK
        while start < len(candidates):
            chunk = candidates[start:start + size]
            if (vectors[chunk] >= vectors[position]).all(axis=1).any():
                keep[position] = False
                break
            start, size = start + size, 2 * size
    return np.flatnonzero(keep)


#: Rows compared at once in :func:`_undominated` at first (the chunks double after each miss).
_CHUNK = 8


def _distinct(vectors: np.ndarray) -> np.ndarray:
    """Positions (ascending) of the rows of ``vectors`` equal to no earlier row.

    Rows are grouped by a projection on fixed generic weights (equal rows project alike), then compared exactly
    within a group (unequal rows that project alike are told apart); an equal row whose projection differed
    would only stay, and :func:`_dominance_pass` settles it as it settles any equal rows."""
    if len(vectors) < 2:
        return np.arange(len(vectors))
    keys = vectors @ np.cos(np.arange(1.0, vectors.shape[1] + 1.0))
    order = np.argsort(keys, kind="stable")  # equal keys: ascending positions
    ordered = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    chosen: list[int] = []
    for group in np.split(order, starts[1:]):
        while len(group):
            chosen.append(int(group[0]))
            group = group[~(vectors[group] == vectors[group[0]]).all(axis=1)]
    return np.array(sorted(chosen), dtype=np.intp)


def reduce_game(payoff: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns (indices into ``payoff``) of the exactly reduced game: duplicate and weakly dominated
    rows (at most another row everywhere) and columns (at least another column everywhere) removed until none is
    left; of duplicates the first is kept. See the module docstring for why the value is unchanged.

    >>> rows, columns = reduce_game([[3, 5], [1, 2], [3, 5]])
    >>> rows.tolist(), columns.tolist()
    ([0], [0])
    """
    matrix = np.asarray(payoff, dtype=float)
    rows, columns = np.arange(matrix.shape[0]), np.arange(matrix.shape[1])
    sub = matrix
    while True:
        kept_rows = _undominated(sub)
        sub = sub[kept_rows]
        kept_columns = _undominated(np.ascontiguousarray(-sub.T))
        sub = sub[:, kept_columns]
        if len(kept_rows) == len(rows) and len(kept_columns) == len(columns):
            return rows, columns
        rows, columns = rows[kept_rows], columns[kept_columns]


def _solve_reduced(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Maximise v subject to x^T A >= v (every column), sum x = 1, x >= 0; the column mix is the dual."""
    from scipy.optimize import linprog  # heavy: imported when a game is solved

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
    solution = result.x
    assert solution is not None  # linprog gives x whenever it succeeds
    row = np.clip(solution[:rows], 0.0, None)
    # d(-v)/d(b_ub[j]) <= 0; minus it is the weight of column j in the column player's optimal mix.
    column = np.clip(-np.asarray(result.ineqlin.marginals, dtype=float), 0.0, None)
    return row / row.sum(), column / column.sum(), float(solution[-1])


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
    rows, columns = reduce_game(matrix)
    row_mix, column_mix, value = _solve_reduced(matrix[np.ix_(rows, columns)])
    row = np.zeros(matrix.shape[0])
    row[rows] = row_mix
    column = np.zeros(matrix.shape[1])
    column[columns] = column_mix
    # Both mixes are optimal in the whole game: the row mix guarantees v against every column, the column mix
    # concedes at most v to every row (duality guard, on the unreduced matrix).
    guaranteed, conceded = float((row @ matrix).min()), float((matrix @ column).max())
    if conceded - guaranteed > CHECK_TOLERANCE * max(1.0, abs(value)):  # pragma: no cover - duality guard
        raise InputError("analysis/lp", f"the mixes are not optimal: row guarantees {guaranteed}, "
                                        f"column concedes {conceded}")
    return Equilibrium(value=value, row=row, column=column)
