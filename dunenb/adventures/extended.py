"""Extended tasks: defeating a notable adversary (seed line 289).

The requirement is the adversary's most appropriate skill; each successful attack scores 2 points plus the
quality of the asset used. When the progress reaches the requirement the adversary is defeated.

>>> task = ExtendedTask(requirement=7)
>>> task = task.score(asset_quality=2)
>>> task.progress, task.complete
(4, False)
>>> task.score(asset_quality=1).complete
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from dunenb.adventures.characters import Character
from dunenb.adventures.rules import rule
from dunenb.adventures.validation import check_int


def points_per_success(asset_quality: int) -> int:
    """Progress scored by one successful attack: 2 + quality (seed line 289).

    >>> points_per_success(0), points_per_success(3)
    (2, 5)
    """
    return rule("extended_progress_base") + check_int("asset_quality", asset_quality, 0)


@dataclass(frozen=True)
class ExtendedTask:
    """Progress toward a requirement."""

    requirement: int
    progress: int = 0

    def __post_init__(self) -> None:
        check_int("requirement", self.requirement, 1)
        check_int("progress", self.progress, 0)

    @classmethod
    def against(cls, adversary: Character, skill: str | None = None) -> ExtendedTask:
        """The task to defeat ``adversary``: requirement = the named skill (default: their best skill).

        >>> from dunenb.adventures.rules import SKILLS, DRIVES
        >>> foe = Character.create("Foe", {**dict.fromkeys(SKILLS, 5), "battle": 8}, dict.fromkeys(DRIVES, 5))
        >>> ExtendedTask.against(foe).requirement
        8
        """
        return cls(adversary.skill(skill if skill is not None else adversary.best_skill()))

    @property
    def complete(self) -> bool:
        """True once progress >= requirement."""
        return self.progress >= self.requirement

    @property
    def remaining(self) -> int:
        """Points still needed."""
        return max(0, self.requirement - self.progress)

    def score(self, asset_quality: int = 0) -> ExtendedTask:
        """Record one successful attack with an asset of this quality."""
        return replace(self, progress=self.progress + points_per_success(asset_quality))
