"""Characters: five skills and five drives rated 4 to 8, focuses and traits (seed lines 47-57, 157-174).

>>> natalia = Character.create(
...     "Natalia",
...     skills={"battle": 5, "communicate": 6, "discipline": 5, "move": 4, "understand": 7},
...     drives={"duty": 5, "faith": 7, "justice": 6, "power": 4, "truth": 8},
...     focuses=("Advanced technology",),
...     traits=("Mentat",),
... )
>>> natalia.target_number("understand", "faith")   # seed line 182: 7 + 7
14
>>> natalia.has_focus("advanced technology")
True
>>> natalia.focus_applies("Advanced technology", "understand"), natalia.focus_applies("Advanced technology", "move")
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from dunenb.adventures.focuses import check_focus, find_focus, focus_specification
from dunenb.adventures.rules import DRIVES, SKILLS, rule
from dunenb.adventures.validation import check_choice, check_int
from dunenb.errors import InputError


def _ratings(
    kind: str, names: tuple[str, ...], values: Mapping[str, int], low: int, high: int
) -> dict[str, int]:
    if not isinstance(values, Mapping):
        raise InputError(f"2d20/{kind}s", f"{kind}s must be a mapping of {', '.join(names)} to {low}-{high}")
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise InputError(
            f"2d20/{kind}", f"unknown {kind} {unknown[0]!r}; allowed {kind}s are {', '.join(names)}"
        )
    missing = [name for name in names if name not in values]
    if missing:
        raise InputError(
            f"2d20/{kind}", f"missing {kind} {missing[0]!r}; every one of {', '.join(names)} is needed"
        )
    return {name: check_int(f"{kind} {name}", values[name], low, high) for name in names}


def _labels(kind: str, values: Iterable[str]) -> tuple[str, ...]:
    if isinstance(values, str):
        raise InputError(f"2d20/{kind}", f"{kind}s must be a list of names, not one string")
    labels = tuple(values)
    for label in labels:
        if not isinstance(label, str) or not label.strip():
            raise InputError(f"2d20/{kind}", f"each {kind} must be a non-empty string, got {label!r}")
    return labels


@dataclass(frozen=True)
class Character:
    """A character sheet. Immutable: use :meth:`with_traits` or :func:`dataclasses.replace`.

    ``skills`` and ``drives`` are read-only mappings; build characters with :meth:`create`, which checks
    every rating (seed lines 55 and 157: 4 to 8).
    """

    name: str
    skills: Mapping[str, int]
    drives: Mapping[str, int]
    focuses: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    drive_statements: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InputError("2d20/name", f"a character name must be a non-empty string, got {self.name!r}")
        skills = _ratings("skill", SKILLS, self.skills, rule("skill_min"), rule("skill_max"))
        drives = _ratings("drive", DRIVES, self.drives, rule("drive_min"), rule("drive_max"))
        statements = dict(self.drive_statements)
        for drive in statements:
            check_choice("drive statement", drive, DRIVES)
        object.__setattr__(self, "skills", MappingProxyType(skills))
        object.__setattr__(self, "drives", MappingProxyType(drives))
        object.__setattr__(self, "drive_statements", MappingProxyType(statements))
        focuses = _labels("focus", self.focuses)
        for focus in focuses:
            check_focus(focus)  # seed lines 59-155: only focuses of the list (2D20-GAP-5)
        object.__setattr__(self, "focuses", focuses)
        object.__setattr__(self, "traits", _labels("trait", self.traits))

    @classmethod
    def create(
        cls,
        name: str,
        skills: Mapping[str, int],
        drives: Mapping[str, int],
        focuses: Iterable[str] = (),
        traits: Iterable[str] = (),
        drive_statements: Mapping[str, str] | None = None,
    ) -> Character:
        """Build and validate a character.

        >>> Character.create("X", skills=dict.fromkeys(SKILLS, 4), drives=dict.fromkeys(DRIVES, 9))
        Traceback (most recent call last):
        ...
        dunenb.errors.InputError: [2d20/drive-duty] drive duty must be an integer from 4 to 8, got 9
        """
        return cls(
            name=name,
            skills=dict(skills),
            drives=dict(drives),
            focuses=tuple(focuses),
            traits=tuple(traits),
            drive_statements=MappingProxyType(dict(drive_statements or {})),
        )

    def skill(self, name: str) -> int:
        """Return one skill rating; an unknown name raises :class:`InputError` listing the five skills."""
        return self.skills[check_choice("skill", name, SKILLS)]

    def drive(self, name: str) -> int:
        """Return one drive rating; an unknown name raises :class:`InputError` listing the five drives."""
        return self.drives[check_choice("drive", name, DRIVES)]

    def target_number(self, skill: str, drive: str) -> int:
        """Skill + drive (seed line 180).

        >>> y = Character.create("Y", dict.fromkeys(SKILLS, 6), dict.fromkeys(DRIVES, 5))
        >>> y.target_number("move", "duty")
        11
        """
        return self.skill(skill) + self.drive(drive)

    def has_focus(self, focus: str | None) -> bool:
        """True when ``focus`` is one of the character's focuses: the same focus of the list, named in English
        or French in any case, with the same bracketed specification if any ("Pilot (ornithopter)")."""
        if focus is None:
            return False
        wanted = find_focus(focus)
        if wanted is None:
            return False
        return any(
            find_focus(own) == wanted and focus_specification(own) == focus_specification(focus)
            for own in self.focuses
        )

    def focus_applies(self, focus: str | None, skill: str) -> bool:
        """True when the character has ``focus`` and it belongs to ``skill`` (seed lines 57-155, 2D20-GAP-5):
        a focus never helps a test of another skill."""
        if not self.has_focus(focus):
            return False
        assert focus is not None
        return check_focus(focus).skill == self._skill_name(skill)

    def _skill_name(self, name: str) -> str:
        return check_choice("skill", name, SKILLS)

    def best_skill(self) -> str:
        """The highest-rated skill (first in rules order on ties)."""
        return max(SKILLS, key=lambda name: self.skills[name])

    def with_traits(self, *traits: str) -> Character:
        """Return a copy with extra traits.

        >>> z = Character.create("Z", dict.fromkeys(SKILLS, 4), dict.fromkeys(DRIVES, 4))
        >>> z.with_traits("Wounded").traits
        ('Wounded',)
        """
        return replace(self, traits=self.traits + _labels("trait", traits))
