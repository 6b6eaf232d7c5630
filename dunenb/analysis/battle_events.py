"""The chance events of a battle in words: the d10 rolls that decide whether a weapon gets past a shield.

A battle's d10s are the chance nodes of :func:`dunenb.battle.resolve.enumerate_battle` (CARD-SHIELD-3, GAP-28:
a projectile-contact weapon against a shield; ten faces at 1/10 each unless the case fixes them). The merged
distribution forgets which faces led to an outcome; this module reads them back from the unmerged leaves, so
that a picture can show the shield roll as an event (issue 12), with no rule of its own: whether a face gets
past is read from the outcome of that leaf (the shielded leader dies or not).

>>> from dunenb.battle.case import load_example_case
>>> [roll.text() for roll in shield_rolls(load_example_case("shield_example_4").battle)]  # doctest: +ELLIPSIS
['... d10 to get past the ... shield: ... on 1-...', '... d10 to get past the ... shield: ... on 1-...']
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dunenb.battle.plans import Battle
from dunenb.battle.resolve import D10, BattleOutcome, enumerate_battle
from dunenb.ruleset import load_ruleset


def _name(house: str) -> str:
    return load_ruleset().house(house).name


def faces_text(faces: tuple[int, ...]) -> str:
    """d10 faces as runs: ``(1, 2, 3, 7)`` → ``'1-3, 7'``.

    >>> faces_text((1, 2, 3, 7)), faces_text((5,)), faces_text(())
    ('1-3, 7', '5', 'no face')
    """
    if not faces:
        return "no face"
    runs: list[list[int]] = []
    for face in sorted(faces):
        if runs and face == runs[-1][-1] + 1:
            runs[-1].append(face)
        else:
            runs.append([face])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


@dataclass(frozen=True)
class ShieldRoll:
    """One side's d10 against the opposing shield: the faces it rolled on some leaf and those that got past."""

    house: str
    against: str
    faces: tuple[int, ...]
    passes: tuple[int, ...]

    @property
    def chance(self) -> Fraction:
        """The chance that the roll gets past (a fixed die: 0 or 1)."""
        return Fraction(len(self.passes), len(self.faces)) if self.faces else Fraction(0)

    def text(self) -> str:
        """The roll in words, e.g. ``'Atreides roll a d10 to get past the Harkonnen shield: it passes on 1-5
        (50%)'``; a die the case fixed reads ``'rolled 4: it passes'``."""
        head = f"{_name(self.house)} roll a d10 to get past the {_name(self.against)} shield"
        if len(self.faces) == 1:
            verdict = "it passes" if self.passes else "the shield holds"
            return f"{head}: rolled {self.faces[0]}, {verdict}"
        return f"{head}: it passes on {faces_text(self.passes)} ({float(self.chance):.0%})"


def _leaves(battle: Battle) -> list[tuple[Fraction, tuple[tuple[str, int], ...], BattleOutcome]]:
    return list(enumerate_battle(battle))


def shield_rolls(battle: Battle) -> tuple[ShieldRoll, ...]:
    """Every shield roll the battle may need (CARD-SHIELD-3), in rolling order, with the faces that get past."""
    faces: dict[str, set[int]] = {}
    passes: dict[str, set[int]] = {}
    for _probability, rolls, outcome in _leaves(battle):
        for house, face in rolls:
            foe = next(side.house for side in outcome.sides if side.house != house)
            faces.setdefault(house, set()).add(face)
            if outcome.side(foe).leader_fate == "dead":
                passes.setdefault(house, set()).add(face)
    return tuple(ShieldRoll(house, next(h for h in battle.houses if h != house), tuple(sorted(seen)),
                            tuple(sorted(passes.get(house, ())))) for house, seen in faces.items())


def outcome_rolls(battle: Battle) -> dict[BattleOutcome, dict[str, tuple[int, ...]]]:
    """For each distinct outcome, the d10 faces of each rolling House that lead to it."""
    found: dict[BattleOutcome, dict[str, set[int]]] = {}
    for _probability, rolls, outcome in _leaves(battle):
        per_house = found.setdefault(outcome, {})
        for house, face in rolls:
            per_house.setdefault(house, set()).add(face)
    return {outcome: {house: tuple(sorted(f)) for house, f in per_house.items()}
            for outcome, per_house in found.items()}


def roll_words(outcome: BattleOutcome, faces: dict[str, tuple[int, ...]]) -> list[str]:
    """The shield rolls behind one outcome in words, e.g. ``['Atreides d10 1-5: gets past']``."""
    words = []
    for house, rolled in faces.items():
        foe = next(side.house for side in outcome.sides if side.house != house)
        passed = outcome.side(foe).leader_fate == "dead"
        shown = faces_text(rolled) if tuple(rolled) != D10 else "any face"
        words.append(f"{_name(house)} d10 {shown}: {'gets past' if passed else 'shield holds'}")
    return words
