"""The chance events of a battle in words: the d10 rolls that decide whether a weapon gets past a shield, whether a
worn shield acts (leaders.md K-8), whether Alia's poison gets past a snooper (K-9 A06-b) and whether a KILL
strikes (K-14).

A battle's d10s are the chance nodes of :func:`dunenb.battle.resolve.enumerate_battle_rolls` (CARD-SHIELD-3,
GAP-28: a projectile-contact weapon against a shield; ten faces at 1/10 each unless the case fixes them), each with
what it is rolled for (:mod:`dunenb.battle.rolls`). The merged distribution forgets which faces led to an
outcome; this module reads them back from the unmerged leaves, so that a picture can show each roll as an event
(issue 12), with no rule of its own: whether a face succeeds is read from the outcome of that leaf (the roller's
target dies, or, for a worn shield, its wearer lives).

>>> from dunenb.battle.case import load_example_case
>>> [roll.text() for roll in shield_rolls(load_example_case("shield_example_4").battle)]  # doctest: +ELLIPSIS
['... d10 to get past the ... shield: ... on 1-...', '... d10 to get past the ... shield: ... on 1-...']
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dunenb.battle.plans import Battle
from dunenb.battle.resolve import D10, BattleOutcome, enumerate_battle_rolls
from dunenb.battle.rolls import KILL, SHIELD_PASS, SNOOPER, WORN_SHIELD, purpose_label
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


#: purpose -> (the roll in words with the House names, what a success reads as, what a failure reads as)
_WORDS: dict[str, tuple[str, str, str]] = {
    SHIELD_PASS: ("{house} roll a d10 to get past the {against} shield", "it passes", "the shield holds"),
    WORN_SHIELD: ("{house} roll a d10 for their leader's worn shield (K-8)", "their leader lives",
                  "their leader dies"),
    SNOOPER: ("{house} roll a d10 to get their poison past the {against} snooper (K-9 A06-b)", "it gets past",
              "the snooper stops it"),
    KILL: ("{house} roll a d10 for their leader's KILL on the {against} leader (K-14)", "it kills", "it misses"),
}


@dataclass(frozen=True)
class ShieldRoll:
    """One side's d10 for one purpose (:mod:`dunenb.battle.rolls`; the shield pass of CARD-SHIELD-3 by default):
    the faces it rolled on some leaf and those that succeeded (``passes``)."""

    house: str
    against: str
    faces: tuple[int, ...]
    passes: tuple[int, ...]
    purpose: str = SHIELD_PASS

    @property
    def chance(self) -> Fraction:
        """The chance that the roll succeeds (a fixed die: 0 or 1)."""
        return Fraction(len(self.passes), len(self.faces)) if self.faces else Fraction(0)

    @property
    def label(self) -> str:
        """A short label: "Shield roll", "Worn-shield roll", "Snooper roll", "KILL roll"."""
        return purpose_label(self.purpose)

    def text(self) -> str:
        """The roll in words, e.g. ``'Atreides roll a d10 to get past the Harkonnen shield: it passes on 1-5
        (50%)'``; a die the case fixed reads ``'rolled 4: it passes'``."""
        head, success, failure = _WORDS[self.purpose]
        head = head.format(house=_name(self.house), against=_name(self.against))
        if len(self.faces) == 1:
            return f"{head}: rolled {self.faces[0]}, {success if self.passes else failure}"
        return f"{head}: {success} on {faces_text(self.passes)} ({float(self.chance):.0%})"


def _leaves(battle: Battle) -> list[tuple[Fraction, tuple[tuple[str, int, str], ...], BattleOutcome]]:
    return list(enumerate_battle_rolls(battle))


def _succeeds(outcome: BattleOutcome, house: str, purpose: str) -> bool:
    """Read from the leaf's outcome: the roller's target died (a worn shield: its wearer lived)."""
    if purpose == WORN_SHIELD:
        return outcome.side(house).leader_fate != "dead"
    foe = next(side.house for side in outcome.sides if side.house != house)
    return outcome.side(foe).leader_fate == "dead"


def shield_rolls(battle: Battle) -> tuple[ShieldRoll, ...]:
    """Every d10 the battle may need, per House and purpose, in rolling order, with the faces that succeed
    (CARD-SHIELD-3 shield passes, K-8 worn shields, K-9 A06-b snooper rolls, K-14 KILLs)."""
    faces: dict[tuple[str, str], set[int]] = {}
    passes: dict[tuple[str, str], set[int]] = {}
    for _probability, rolls, outcome in _leaves(battle):
        for house, face, purpose in rolls:
            faces.setdefault((house, purpose), set()).add(face)
            if _succeeds(outcome, house, purpose):
                passes.setdefault((house, purpose), set()).add(face)
    return tuple(ShieldRoll(house, next(h for h in battle.houses if h != house), tuple(sorted(seen)),
                            tuple(sorted(passes.get((house, purpose), ()))), purpose)
                 for (house, purpose), seen in faces.items())


def outcome_rolls(battle: Battle) -> dict[BattleOutcome, dict[tuple[str, str], tuple[int, ...]]]:
    """For each distinct outcome, the d10 faces of each rolling (House, purpose) that lead to it."""
    found: dict[BattleOutcome, dict[tuple[str, str], set[int]]] = {}
    for _probability, rolls, outcome in _leaves(battle):
        per_roll = found.setdefault(outcome, {})
        for house, face, purpose in rolls:
            per_roll.setdefault((house, purpose), set()).add(face)
    return {outcome: {key: tuple(sorted(f)) for key, f in per_roll.items()}
            for outcome, per_roll in found.items()}


_SHORT = {SHIELD_PASS: ("gets past", "shield holds"), WORN_SHIELD: ("worn shield: lives", "worn shield: dies"),
          SNOOPER: ("past the snooper", "snooper stops it"), KILL: ("KILL strikes", "KILL misses")}


def roll_words(outcome: BattleOutcome, faces: dict[tuple[str, str], tuple[int, ...]]) -> list[str]:
    """The rolls behind one outcome in words, e.g. ``['Atreides d10 1-5: gets past']``."""
    words = []
    for (house, purpose), rolled in faces.items():
        success, failure = _SHORT[purpose]
        shown = faces_text(rolled) if tuple(rolled) != D10 else "any face"
        words.append(f"{_name(house)} d10 {shown}: {success if _succeeds(outcome, house, purpose) else failure}")
    return words
