"""Exact odds of a skill test, by convolution (no sampling).

Each die has a *joint* distribution over (successes 0/1/2, complication 0/1): a 1 is two successes and
never a complication, a 20 may be both a success (target 20 is impossible here, but a widened complication
range can overlap the target) and a complication. The pool's joint distribution is the 2-D convolution of
its dice; everything is kept as integer counts out of 20^n, so the numbers are exact.

>>> o = odds(skill=7, drive=7)            # Natalia's 2d20 against 14 (seed line 182)
>>> o.p_success(1)                        # 1 - (6/20)^2
0.91
>>> o.successes().round(4).to_dict()
{0: 0.09, 1: 0.39, 2: 0.4525, 3: 0.065, 4: 0.0025}
>>> o.complications().round(4).to_dict()
{0: 0.9025, 1: 0.095, 2: 0.0025}
>>> round(o.expected_momentum(1), 4)
0.59
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property

import numpy as np
import pandas as pd

from dunenb.adventures.dice import FACES
from dunenb.adventures.rules import rule
from dunenb.adventures.skill_test import Assist, SkillTest
from dunenb.adventures.validation import check_int


@functools.lru_cache(maxsize=4096)
def die_counts(target: int, skill: int, focus: bool, complication_range: int) -> np.ndarray:
    """Joint counts of one d20: ``counts[s, c]`` = number of faces giving ``s`` successes and ``c``
    complications (a 3 x 2 integer array summing to 20; read-only).

    >>> die_counts(14, 7, False, 1).tolist()
    [[5, 1], [13, 0], [1, 0]]
    """
    counts = np.zeros((3, 2), dtype=np.int64)
    faces = np.arange(1, FACES + 1)
    critical = (faces == rule("critical_value")) | (focus & (faces <= skill))
    successes = np.where(critical, rule("critical_successes"), (faces <= target).astype(np.int64))
    complication = (faces > FACES - complication_range).astype(np.int64)
    np.add.at(counts, (successes, complication), 1)
    counts.setflags(write=False)
    return counts


def convolve2d(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Full 2-D convolution of two small integer count arrays (the distribution of a sum).

    >>> convolve2d(np.array([[1, 1]]), np.array([[1, 1]])).tolist()
    [[1, 2, 1]]
    """
    rows, cols = left.shape[0] + right.shape[0] - 1, left.shape[1] + right.shape[1] - 1
    out = np.zeros((rows, cols), dtype=np.int64)
    height, width = left.shape
    for i, row in enumerate(right.tolist()):
        for j, weight in enumerate(row):
            if weight:
                out[i : i + height, j : j + width] += weight * left
    return out


@functools.lru_cache(maxsize=512)
def pool_counts(target: int, skill: int, focus: bool, complication_range: int, dice: int) -> np.ndarray:
    """Joint counts of ``dice`` identical dice (convolution power), read-only.

    >>> int(pool_counts(14, 7, False, 1, 3).sum()) == 20 ** 3
    True
    """
    if dice == 0:
        result = np.ones((1, 1), dtype=np.int64)
    else:
        result = convolve2d(
            pool_counts(target, skill, focus, complication_range, dice - 1),
            die_counts(target, skill, focus, complication_range),
        )
    result.setflags(write=False)
    return result


def _with_assist(leader: np.ndarray, helper: np.ndarray, leader_success_needed: bool) -> np.ndarray:
    if not leader_success_needed:
        return convolve2d(leader, helper)
    # When the leader scored no success the helper's successes do not count; its complication still does.
    scoring = np.array(leader)
    scoring[0, :] = 0
    combined = convolve2d(scoring, helper)
    combined[0, :] += convolve2d(leader[0:1, :], helper.sum(axis=0, keepdims=True))[0]
    return combined


@dataclass(frozen=True)
class TestOdds:
    """The exact joint distribution of successes and complications of one test set-up.

    ``counts[s, c]`` is the number of equally likely dice outcomes (out of ``total`` = 20^dice rolled) giving
    ``s`` successes and ``c`` complications. Derived tables are built lazily and cached.
    """

    __test__ = False  # not a pytest test class

    test: SkillTest
    counts: np.ndarray = field(repr=False)
    total: int

    @cached_property
    def _probabilities(self) -> np.ndarray:
        return self.counts / self.total

    @cached_property
    def _success_probabilities(self) -> np.ndarray:
        return self.counts.sum(axis=1) / self.total

    @cached_property
    def _complication_probabilities(self) -> np.ndarray:
        return self.counts.sum(axis=0) / self.total

    @cached_property
    def _at_least(self) -> np.ndarray:
        # _at_least[d] = P(successes >= d), for d = 0 .. max successes + 1
        tail = np.cumsum(self.counts.sum(axis=1)[::-1])[::-1]  # exact integer counts
        return np.append(tail, 0) / self.total

    @property
    def max_successes(self) -> int:
        """The largest possible number of successes."""
        return self.counts.shape[0] - 1

    def joint(self) -> pd.DataFrame:
        """P(successes = row, complications = column) as a DataFrame."""
        frame = pd.DataFrame(self._probabilities)
        frame.index.name, frame.columns.name = "successes", "complications"
        return frame

    def successes(self) -> pd.Series:
        """P(successes = s) for every possible s."""
        series = pd.Series(self._success_probabilities, name="probability")
        series.index.name = "successes"
        return series

    def complications(self) -> pd.Series:
        """P(complications = c) for every possible c."""
        series = pd.Series(self._complication_probabilities, name="probability")
        series.index.name = "complications"
        return series

    def p_success(self, difficulty: int) -> float:
        """P(successes >= difficulty); difficulty 0 always passes (seed line 194)."""
        check_int("difficulty", difficulty, 0)
        return float(self._at_least[min(difficulty, self.max_successes + 1)])

    def p_success_table(self, difficulties: range | None = None) -> pd.Series:
        """P(pass) for each difficulty (default 0-5, seed line 43)."""
        levels = difficulties or range(rule("difficulty_min"), rule("difficulty_max") + 1)
        series = pd.Series([self.p_success(d) for d in levels], index=list(levels), name="p_success")
        series.index.name = "difficulty"
        return series

    def expected_momentum(self, difficulty: int) -> float:
        """E[max(0, successes - difficulty)]: the mean Momentum generated (seed line 202)."""
        check_int("difficulty", difficulty, 0)
        extra = np.arange(self.max_successes + 1) - difficulty
        return int(np.dot(np.clip(extra, 0, None), self.counts.sum(axis=1))) / self.total

    def p_complication(self) -> float:
        """P(at least one complication)."""
        return int(self.total - self.counts[:, 0].sum()) / self.total

    def exact_successes(self) -> dict[int, tuple[int, int]]:
        """Exact P(successes = s) as ``(numerator, denominator)`` pairs of integers."""
        return {s: (int(n), self.total) for s, n in enumerate(self.counts.sum(axis=1))}

    def to_dict(self, difficulty: int = 1) -> dict[str, object]:
        """Plain JSON-ready summary: ``{"successes": {"0": p, ...}, "complications": {...}, "p_success": p,
        "expected_momentum": x}``.

        >>> sorted(odds(6, 6).to_dict(2))
        ['complications', 'expected_momentum', 'p_success', 'successes']
        """
        complications = self._complication_probabilities
        return {
            "successes": {str(s): float(p) for s, p in enumerate(self._success_probabilities)},
            "complications": {str(c): float(p) for c, p in enumerate(complications)},
            "p_success": self.p_success(difficulty),
            "expected_momentum": self.expected_momentum(difficulty),
        }


@functools.lru_cache(maxsize=4096)
def _odds_cached(test: SkillTest) -> TestOdds:
    counts = pool_counts(test.target, test.skill, test.focus, test.complication_range, test.rolled_count)
    rolled = test.rolled_count
    if test.auto_one:
        counts = np.vstack([np.zeros((rule("critical_successes"), counts.shape[1]), dtype=np.int64), counts])
    if test.assists:
        # every helper rolls one die (seed line 352); their joint counts are convolved first so that the
        # "leader must score" option applies to all helpers together
        helpers = np.ones((1, 1), dtype=np.int64)
        for assist in test.assists:
            helpers = convolve2d(
                helpers, die_counts(assist.target, assist.skill, assist.focus, test.complication_range)
            )
        counts = _with_assist(counts, helpers, test.leader_success_needed)
        rolled += len(test.assists)
    counts = np.array(counts, dtype=np.int64)
    counts.setflags(write=False)
    return TestOdds(test, counts, FACES**rolled)


def odds_for(test: SkillTest) -> TestOdds:
    """Exact odds of a :class:`SkillTest` (its difficulty is ignored: ask the result for any difficulty).

    >>> odds_for(SkillTest(8, 8, focus=True, extra_dice=3)).p_success(5) > 0.5
    True
    """
    key = replace(
        test, difficulty=0, difficulty_modifier=0, assist_requires_leader_success=test.leader_success_needed
    )
    return _odds_cached(key)


@functools.lru_cache(maxsize=4096)
def odds(
    skill: int,
    drive: int,
    focus: bool = False,
    extra_dice: int = 0,
    complication_range: int = 1,
    assist: Assist | None = None,
    auto_one: bool = False,
    assist_requires_leader_success: bool | None = None,
    helpers: tuple[Assist, ...] = (),
) -> TestOdds:
    """Exact odds for a skill + drive test; ``extra_dice`` is the number of bought dice (0-3); ``assist``
    and ``helpers`` are helpers' dice (one each, seed line 352).

    Arguments are validated (bad values raise :class:`dunenb.errors.InputError` naming the argument).

    >>> round(odds(4, 4, extra_dice=3).p_success(3), 4)
    0.3984
    """
    return odds_for(
        SkillTest(
            skill,
            drive,
            focus,
            extra_dice,
            0,
            complication_range,
            assist,
            auto_one,
            0,
            assist_requires_leader_success,
            tuple(helpers),
        )
    )


@dataclass(frozen=True)
class OpposedOdds:
    """Exact odds of an opposed test (seed lines 288, 336): the defender rolls first and its successes, plus
    ``base`` and ``modifier``, are the attacker's difficulty (design ``contest_difficulty_from_defender``).

    ``counts[d, a]`` is the number of equally likely outcomes (out of ``total``) in which the defender scores
    ``d`` successes and the attacker ``a``.
    """

    __test__ = False

    attacker: TestOdds
    defender: TestOdds
    base: int
    modifier: int

    @cached_property
    def counts(self) -> np.ndarray:
        """Joint integer counts of (defender successes, attacker successes)."""
        defender = self.defender.counts.sum(axis=1)
        attacker = self.attacker.counts.sum(axis=1)
        return np.outer(defender, attacker)

    @property
    def total(self) -> int:
        """Number of equally likely outcomes of both pools."""
        return self.attacker.total * self.defender.total

    def _difficulty(self) -> np.ndarray:
        return np.maximum(0, np.arange(self.counts.shape[0]) + self.base + self.modifier)

    def _margins(self) -> np.ndarray:
        # margin[d, a] = attacker successes - final difficulty when the defender scored d
        return np.arange(self.counts.shape[1])[None, :] - self._difficulty()[:, None]

    def exact_p_success(self) -> Fraction:
        """P(the attacker's successes >= the final difficulty) as an exact fraction."""
        return Fraction(int(self.counts[self._margins() >= 0].sum()), self.total)

    def p_success(self) -> float:
        """P(the attacker wins the opposed test)."""
        return float(self.exact_p_success())

    def expected_momentum(self) -> float:
        """The attacker's mean Momentum (successes beyond the final difficulty, 0 on a failure)."""
        margins = np.clip(self._margins(), 0, None)
        return int((margins * self.counts).sum()) / self.total

    def expected_defender_momentum(self) -> float:
        """The defender's mean Momentum: 1 per missing success when the attacker fails (design
        ``contest_failure_momentum_to_defender``)."""
        shortfall = np.clip(-self._margins(), 0, None)
        return int((shortfall * self.counts).sum()) / self.total

    def difficulty_distribution(self) -> dict[int, float]:
        """P(the attacker's final difficulty = k)."""
        out: dict[int, float] = {}
        for d, n in enumerate(self.defender.counts.sum(axis=1)):
            key = int(self._difficulty()[d])
            out[key] = out.get(key, 0.0) + int(n) / self.defender.total
        return out

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: ``{"p_success", "p_success_exact", "expected_momentum", "expected_defender_momentum",
        "defender_successes": {"0": p, ...}, "difficulty": {"k": p, ...}}``."""
        return {
            "p_success": self.p_success(),
            "p_success_exact": str(self.exact_p_success()),
            "expected_momentum": self.expected_momentum(),
            "expected_defender_momentum": self.expected_defender_momentum(),
            "defender_successes": {str(k): float(v) for k, v in enumerate(self.defender.successes())},
            "difficulty": {str(k): v for k, v in sorted(self.difficulty_distribution().items())},
        }


def opposed_odds(attacker: SkillTest, defender: SkillTest, base: int = 0, modifier: int = 0) -> OpposedOdds:
    """Exact odds of ``attacker`` against ``defender`` (each test's own difficulty is ignored): the attacker's
    difficulty is ``base`` + the defender's successes + ``modifier`` (e.g. defensive assets, seed line 340).
    ``base`` is 0 for an attack and 2 for targeting a wielded asset (2D20-GAP-3).

    >>> o = opposed_odds(SkillTest(7, 7), SkillTest(5, 5))
    >>> o.exact_p_success()
    Fraction(25403, 32000)
    """
    check_int("base", base, 0)
    check_int("modifier", modifier, -100, 100)
    return OpposedOdds(odds_for(attacker), odds_for(defender), base, modifier)


def odds_table(skill: int, drive: int, focus: bool = False, complication_range: int = 1) -> pd.DataFrame:
    """P(pass) for every difficulty 0-5 (rows) and pool size 2d20-5d20 (columns).

    >>> odds_table(7, 7).shape
    (6, 4)
    """
    columns = {
        f"{rule('base_dice') + extra}d20": odds(
            skill, drive, focus, extra, complication_range
        ).p_success_table()
        for extra in range(rule("max_extra_dice") + 1)
    }
    frame = pd.DataFrame(columns)
    frame.index.name = "difficulty"
    return frame
