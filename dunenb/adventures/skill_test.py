"""Skill tests: target number = skill + drive, 2d20 plus up to 3 bought dice, successes against a difficulty.

Dice are either passed explicitly (deterministic) or rolled from a numpy Generator.

>>> test = SkillTest(skill=7, drive=7, difficulty=0)       # Natalia, seed lines 182-196
>>> result = resolve_test(test, (8, 18))
>>> result.successes, result.passed, result.momentum
(1, True, 1)
>>> resolve_test(SkillTest(skill=5, drive=6, focus=True, difficulty=2), (4, 20)).complications
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from dunenb.adventures.characters import Character
from dunenb.adventures.dice import DieScore, check_dice, roll_d20, score_die
from dunenb.adventures.rules import rule
from dunenb.adventures.validation import check_bool, check_int
from dunenb.errors import InputError


def _check_rating(field: str, value: int, kind: str) -> int:
    return check_int(field, value, rule(f"{kind}_min"), rule(f"{kind}_max"))


@dataclass(frozen=True)
class Assist:
    """An ally's help: one die rolled against the helper's own skill + drive (seed line 352).

    >>> Assist(skill=6, drive=5).target
    11
    """

    skill: int
    drive: int
    focus: bool = False

    def __post_init__(self) -> None:
        _check_rating("assist skill", self.skill, "skill")
        _check_rating("assist drive", self.drive, "drive")
        check_bool("assist focus", self.focus)

    @property
    def target(self) -> int:
        """The helper's target number."""
        return self.skill + self.drive

    @classmethod
    def from_character(cls, helper: Character, skill: str, drive: str, focus: str | None = None) -> Assist:
        """Build the assist die of ``helper`` (their focus applies if they have it and it is a focus of
        ``skill``, 2D20-GAP-5)."""
        return cls(helper.skill(skill), helper.drive(drive), helper.focus_applies(focus, skill))


@dataclass(frozen=True)
class SkillTest:
    """Everything that decides how a test's dice score.

    ``extra_dice`` is the number of *bought* dice (0-3) on top of the 2 base dice; ``difficulty`` is the
    GM's base difficulty 0-5 (seed line 43) and ``difficulty_modifier`` what traits, complications, defensive
    assets, a defender's successes or a kept initiative add (the final difficulty never drops below 0).
    ``auto_one`` is the Determination spend that sets one die to a 1 before rolling. ``assist`` is one
    helper's die and ``helpers`` any further helpers, one die each (seed line 352; 2D20-GAP-6: helpers' dice
    do not count toward the 5d20 pool). ``assist_requires_leader_success`` = None follows the rules data
    (seed line 352: no condition); when True it applies to every helper.
    """

    skill: int
    drive: int
    focus: bool = False
    extra_dice: int = 0
    difficulty: int = 1
    complication_range: int = 1
    assist: Assist | None = None
    auto_one: bool = False
    difficulty_modifier: int = 0
    assist_requires_leader_success: bool | None = None
    helpers: tuple[Assist, ...] = ()

    def __post_init__(self) -> None:
        _check_rating("skill", self.skill, "skill")
        _check_rating("drive", self.drive, "drive")
        check_bool("focus", self.focus)
        check_int("extra_dice", self.extra_dice, 0, rule("max_extra_dice"))
        check_int("difficulty", self.difficulty, rule("difficulty_min"), rule("difficulty_max"))
        check_int(
            "complication_range",
            self.complication_range,
            rule("complication_range_min"),
            rule("complication_range_max"),
        )
        if self.assist is not None and not isinstance(self.assist, Assist):
            raise InputError("2d20/assist", f"assist must be an Assist or None, got {self.assist!r}")
        helpers = tuple(self.helpers)
        for helper in helpers:
            if not isinstance(helper, Assist):
                raise InputError("2d20/helpers", f"helpers must be Assist values, got {helper!r}")
        object.__setattr__(self, "helpers", helpers)
        check_bool("auto_one", self.auto_one)
        check_int("difficulty_modifier", self.difficulty_modifier, -100, 100)
        if self.assist_requires_leader_success is not None:
            check_bool("assist_requires_leader_success", self.assist_requires_leader_success)

    @classmethod
    def from_character(
        cls, character: Character, skill: str, drive: str, focus: str | None = None, **options: Any
    ) -> SkillTest:
        """Build a test from a sheet; ``focus`` applies only if the character has it and it belongs to
        ``skill`` (seed lines 57-155, 2D20-GAP-5).

        >>> from dunenb.adventures.rules import SKILLS, DRIVES
        >>> c = Character.create("C", dict.fromkeys(SKILLS, 6), dict.fromkeys(DRIVES, 5), focuses=["Duel"])
        >>> SkillTest.from_character(c, "battle", "duty", focus="Duel", difficulty=2).focus
        True
        >>> SkillTest.from_character(c, "move", "duty", focus="Duel").focus
        False
        """
        return cls(
            skill=character.skill(skill),
            drive=character.drive(drive),
            focus=character.focus_applies(focus, skill),
            **options,
        )  # type: ignore[arg-type]

    @property
    def target(self) -> int:
        """Skill + drive (seed line 180)."""
        return self.skill + self.drive

    @property
    def assists(self) -> tuple[Assist, ...]:
        """Every helper's die: ``assist`` first, then ``helpers``."""
        return ((self.assist,) if self.assist is not None else ()) + self.helpers

    @property
    def dice_count(self) -> int:
        """Dice in the pool: 2 + bought dice, at most 5."""
        return rule("base_dice") + self.extra_dice

    @property
    def rolled_count(self) -> int:
        """Dice actually rolled (one fewer when Determination set a die to 1)."""
        return self.dice_count - (1 if self.auto_one else 0)

    @property
    def final_difficulty(self) -> int:
        """Base difficulty plus modifiers, never below 0."""
        return max(0, self.difficulty + self.difficulty_modifier)

    @property
    def leader_success_needed(self) -> bool:
        """Whether the assist die only counts when the leader scores a success."""
        if self.assist_requires_leader_success is None:
            return bool(rule("assist_requires_leader_success"))
        return self.assist_requires_leader_success

    def harder(self, steps: int = 1) -> SkillTest:
        """A copy whose final difficulty is ``steps`` higher.

        >>> SkillTest(6, 6, difficulty=2).harder().final_difficulty
        3
        """
        return replace(self, difficulty_modifier=self.difficulty_modifier + steps)


@dataclass(frozen=True)
class SkillTestResult:
    """The scored outcome of one test."""

    test: SkillTest
    dice: tuple[int, ...]
    assist_die: int | None
    scores: tuple[DieScore, ...]
    assist_score: DieScore | None
    successes: int
    complications: int
    helper_dice: tuple[int, ...] = ()
    helper_scores: tuple[DieScore, ...] = ()

    @property
    def difficulty(self) -> int:
        """The final difficulty the successes were compared with."""
        return self.test.final_difficulty

    @property
    def passed(self) -> bool:
        """Successes >= difficulty (seed line 194)."""
        return self.successes >= self.difficulty

    @property
    def momentum(self) -> int:
        """Successes beyond the difficulty, when the test passed (seed line 202)."""
        return self.successes - self.difficulty if self.passed else 0

    @property
    def shortfall(self) -> int:
        """Successes missing to pass (0 when passed)."""
        return max(0, self.difficulty - self.successes)


def resolve_test(
    test: SkillTest, dice: Sequence[int], assist_die: int | None = None, helper_dice: Sequence[int] = ()
) -> SkillTestResult:
    """Score fixed dice. ``dice`` holds the rolled faces (``test.rolled_count`` of them: with ``auto_one``
    the automatic 1 is added here); ``assist_die`` is required exactly when ``test.assist`` is set, and
    ``helper_dice`` holds one face per entry of ``test.helpers``.

    >>> r = resolve_test(SkillTest(6, 6, difficulty=2, assist=Assist(5, 5)), (3, 15), assist_die=1)
    >>> r.successes, r.passed
    (3, True)
    >>> two_helpers = SkillTest(6, 6, difficulty=3, helpers=(Assist(5, 5), Assist(4, 4)))
    >>> r = resolve_test(two_helpers, (3, 15), helper_dice=(9, 8))
    >>> r.successes, r.helper_dice
    (3, (9, 8))
    """
    faces = check_dice("dice", dice, test.rolled_count)
    if test.auto_one:
        faces = (rule("critical_value"),) + faces
    scores = tuple(
        score_die(face, test.target, test.skill, test.focus, test.complication_range) for face in faces
    )
    successes = sum(score.successes for score in scores)
    complications = sum(score.complication for score in scores)
    leader_scored = successes > 0
    assist_score = None
    if test.assist is None:
        if assist_die is not None:
            raise InputError("2d20/assist-die", "assist_die given but the test has no assist")
    else:
        if assist_die is None:
            raise InputError("2d20/assist-die", "the test has an assist: assist_die (1-20) is required")
        (face,) = check_dice("assist_die", (assist_die,), 1)
        assist_score = score_die(
            face, test.assist.target, test.assist.skill, test.assist.focus, test.complication_range
        )
        if leader_scored or not test.leader_success_needed:
            successes += assist_score.successes
        complications += assist_score.complication
    helper_faces = check_dice("helper_dice", helper_dice, len(test.helpers))
    helper_scores = tuple(
        score_die(face, helper.target, helper.skill, helper.focus, test.complication_range)
        for face, helper in zip(helper_faces, test.helpers, strict=True)
    )
    for score in helper_scores:
        if leader_scored or not test.leader_success_needed:
            successes += score.successes
        complications += score.complication
    return SkillTestResult(
        test, faces, assist_die, scores, assist_score, successes, complications, helper_faces, helper_scores
    )


def roll_test(test: SkillTest, rng: np.random.Generator) -> SkillTestResult:
    """Roll the pool (and the assist die) from ``rng`` and score it.

    >>> r = roll_test(SkillTest(7, 7, extra_dice=1), np.random.default_rng(7))
    >>> len(r.dice)
    3
    """
    faces = roll_d20(rng, test.rolled_count)
    assist_die = roll_d20(rng, 1)[0] if test.assist is not None else None
    return resolve_test(test, faces, assist_die, roll_d20(rng, len(test.helpers)))


def reroll_pool(
    result: SkillTestResult, dice: Sequence[int] | None = None, rng: np.random.Generator | None = None
) -> SkillTestResult:
    """Determination spend "re-roll the pool" (design, see ``determination_uses``): every rolled die of the
    leader's pool is rolled again (the automatic 1 and the helper's die stay). Give ``dice`` or ``rng``.

    >>> first = resolve_test(SkillTest(6, 6, difficulty=2), (19, 20))
    >>> reroll_pool(first, dice=(2, 3)).passed
    True
    """
    if (dice is None) == (rng is None):
        raise InputError("2d20/reroll", "give exactly one of dice or rng to re-roll the pool")
    faces = roll_d20(rng, result.test.rolled_count) if rng is not None else tuple(dice or ())
    return resolve_test(result.test, faces, result.assist_die, result.helper_dice)
