"""One d20 of a 2d20 pool: how a face scores, and how dice are rolled from a numpy Generator.

A face at or under the target number is one success; a 1 (or, with a focus, any face at or under the
skill) is two successes (seed lines 37-39, 57); a face in the complication range is a complication
(seed line 228; range 1 is a 20 only, range 2 is 19-20, ...).

>>> score_die(8, target=14, skill=7, focus=False, complication_range=1)
DieScore(successes=1, complication=False)
>>> score_die(6, target=14, skill=7, focus=True, complication_range=1)
DieScore(successes=2, complication=False)
>>> score_die(19, target=14, skill=7, focus=False, complication_range=2)
DieScore(successes=0, complication=True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from dunenb.adventures.rules import rule
from dunenb.adventures.validation import check_int
from dunenb.errors import InputError

FACES = 20


class DieScore(NamedTuple):
    """What one die scored: 0, 1 or 2 successes, and whether it is a complication."""

    successes: int
    complication: bool


def complication_faces(complication_range: int) -> tuple[int, ...]:
    """The faces that cause a complication.

    >>> complication_faces(1), complication_faces(3)
    ((20,), (18, 19, 20))
    """
    check_int(
        "complication_range",
        complication_range,
        rule("complication_range_min"),
        rule("complication_range_max"),
    )
    return tuple(range(FACES + 1 - complication_range, FACES + 1))


def score_die(value: int, target: int, skill: int, focus: bool, complication_range: int = 1) -> DieScore:
    """Score one face (see the module docstring for the rule)."""
    check_int("die", value, 1, FACES)
    if value == rule("critical_value") or (focus and value <= skill):
        successes = rule("critical_successes")
    elif value <= target:
        successes = 1
    else:
        successes = 0
    return DieScore(successes, value > FACES - complication_range)


def roll_d20(rng: np.random.Generator, count: int) -> tuple[int, ...]:
    """Roll ``count`` d20 from ``rng`` (no global random state).

    >>> roll_d20(np.random.default_rng(1), 3)
    (10, 11, 16)
    """
    check_int("count", count, 0)
    if not isinstance(rng, np.random.Generator):
        raise TypeError("rng must be a numpy.random.Generator, e.g. numpy.random.default_rng(seed)")
    return tuple(int(face) for face in rng.integers(1, FACES + 1, size=count))


def check_dice(field: str, dice: Sequence[int], count: int) -> tuple[int, ...]:
    """Check that ``dice`` holds exactly ``count`` faces from 1 to 20."""
    faces = tuple(dice)
    if len(faces) != count:
        raise InputError(f"2d20/{field}", f"{field} must hold exactly {count} d20 faces, got {len(faces)}")
    for face in faces:
        check_int(field, face, 1, FACES)
    return faces
