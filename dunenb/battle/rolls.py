"""What a battle d10 is rolled for: the leader step (:func:`dunenb.battle.resolve.leader_step`) asks each d10 with
``roll(side, purpose)``, so that the texts of games (the ``battle-d10`` event), of the analysis
(:mod:`dunenb.analysis.battle_events`) and of the widgets say what each roll decides.

>>> purpose_text(WORN_SHIELD)
'to see whether the worn shield acts (leaders.md K-8)'
"""

from __future__ import annotations

from collections.abc import Callable

#: CARD-SHIELD-3 (GAP-28b): a contact projectile tries to get past a shield, d10 ≤ the attacker's base strength
#: (K-9 F10-c: a second try on a failure).
SHIELD_PASS = "shield-pass"
#: leaders.md K-8 BUILTIN_DEFENSE: a worn shield acts on d10 ≤ N, rolled by its wearer when first needed (LC-1).
WORN_SHIELD = "worn-shield"
#: leaders.md K-9 ``snooper_fails`` (A06-b, Alia): on more than the target's base strength the snooper fails.
SNOOPER = "snooper"
#: leaders.md K-14 KILL with a d10 (A09-b): the opposing leader dies on the faces named.
KILL = "kill"
#: leaders.md K-17 ``regen_dialled`` (D05-c, Fiona, GAP-129): on a win, no dialled token is lost on d10 ≤ 6.
REGEN = "regen-dialled"

#: purpose -> (what the roll is for, in words; the rule; a short label for lists)
PURPOSES: dict[str, tuple[str, str, str]] = {
    SHIELD_PASS: ("to get past the shield", "CARD-SHIELD-3", "Shield roll"),
    WORN_SHIELD: ("to see whether the worn shield acts", "leaders.md K-8", "Worn-shield roll"),
    SNOOPER: ("to get the poison past the snooper", "leaders.md K-9 A06-b", "Snooper roll"),
    KILL: ("for the KILL on the opposing leader", "leaders.md K-14", "KILL roll"),
    REGEN: ("to keep the dialled tokens on a win", "leaders.md K-17 regen_dialled", "Regeneration roll"),
}

#: ``roll(side, purpose)``: a d10 result (1..10) for side 0 or 1, rolled for ``purpose`` (one of :data:`PURPOSES`).
Roll = Callable[[int, str], int]


def purpose_text(purpose: str) -> str:
    """What a roll is for, in words, with its rule."""
    words, rule, _label = PURPOSES[purpose]
    return f"{words} ({rule})"


def purpose_label(purpose: str) -> str:
    """A short label for the roll ("Shield roll", "Worn-shield roll"...)."""
    return PURPOSES[purpose][2]
