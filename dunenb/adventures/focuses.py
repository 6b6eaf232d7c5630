"""The focus list (specialisations, seed lines 59-155): every focus belongs to one skill (2D20-GAP-5).

A focus helps a test only when the test uses its skill: "Short blades" (Lames courtes) makes the Battle
dice at or under the skill critical, never a Move test. Names are matched without regard to case, in
English or in the seed's French, with an optional specification in brackets ("Pilot (ornithopter)").

>>> focus_skill("Short blades"), focus_skill("lames courtes"), focus_skill("Pilot (ornithopter)")
('battle', 'battle', 'move')
>>> find_focus("Survie (désert)").uncertain
True
>>> check_focus("Basket weaving")
Traceback (most recent call last):
...
dunenb.errors.InputError: [2d20/focus] unknown focus 'Basket weaving'; a focus is one of the names of \
'focuses' in adventures_2d20.json (seed lines 59-155), in English or French, e.g. Short blades, Dueling, \
Stealth
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from dunenb.adventures.rules import SKILLS, rule
from dunenb.errors import InputError, RulesDataError


@dataclass(frozen=True)
class Focus:
    """One focus: its English and French names, its skill, and whether the transcription is uncertain."""

    en: str
    fr: str
    skill: str
    uncertain: bool = False


def _key(name: str) -> str:
    """Case-insensitive key without a bracketed specification."""
    return re.sub(r"\s*\(.*\)\s*$", "", name).strip().casefold()


@functools.cache
def focus_table() -> dict[str, Focus]:
    """Every focus by lower-case English and French name (read once from the rules data)."""
    uncertain = set(rule("focuses_uncertain"))
    table: dict[str, Focus] = {}
    lists = rule("focuses")
    if sorted(lists) != sorted(SKILLS):
        raise RulesDataError("rules/focuses", f"focuses must list the skills {', '.join(SKILLS)}")
    for skill in SKILLS:
        for en, fr in lists[skill]:
            focus = Focus(en, fr, skill, en in uncertain)
            for name in (en, fr):
                if _key(name) in table and table[_key(name)] != focus:
                    raise RulesDataError("rules/focuses", f"focus name {name!r} is listed twice")
                table[_key(name)] = focus
    return table


def focus_specification(name: str) -> str:
    """The bracketed specification of a focus name, lower-case ("" when none).

    >>> focus_specification("Faction lore (Bene Gesserit)"), focus_specification("Duel")
    ('bene gesserit', '')
    """
    match = re.search(r"\((.*)\)\s*$", name)
    return match.group(1).strip().casefold() if match else ""


def find_focus(name: str) -> Focus | None:
    """The focus called ``name`` (English or French, any case, optional bracketed specification), or None."""
    if not isinstance(name, str):
        return None
    return focus_table().get(_key(name))


def check_focus(name: str) -> Focus:
    """The focus called ``name``; an unknown name raises :class:`InputError`."""
    focus = find_focus(name)
    if focus is None:
        raise InputError(
            "2d20/focus",
            f"unknown focus {name!r}; a focus is one of the names of 'focuses' in adventures_2d20.json "
            "(seed lines 59-155), in English or French, e.g. Short blades, Dueling, Stealth",
        )
    return focus


def focus_skill(name: str) -> str:
    """The skill a focus belongs to."""
    return check_focus(name).skill


def focuses_of(skill: str) -> tuple[Focus, ...]:
    """The focuses of one skill, in the seed's order.

    >>> [f.en for f in focuses_of("discipline")][:3]
    ['Command', 'Espionage', 'Infiltration']
    """
    return tuple(Focus(en, fr, skill, en in set(rule("focuses_uncertain"))) for en, fr in rule("focuses")[skill])
