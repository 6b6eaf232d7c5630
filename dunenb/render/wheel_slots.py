"""The extra slots of a battle wheel picture (issue 11), read from a plan and its leader's powers.

A secondary leader's K-6..K-8 entries (leaders.md LC-7, :func:`dunenb.battle.leader_weapons.arsenal`) add to the two
standard slots: a second attack or defence card (K-6 CARD_SLOTS, the plan's ``extra_attack`` / ``extra_defense``),
a built-in weapon carried beside the attack card (K-7 BUILTIN_WEAPON ``extra`` / ``extra_no_defence``, in
``extra_attack``) and a built-in shield worn with no card (K-8 BUILTIN_DEFENSE, always on the wheel while the
leader's power acts). A built-in in the attack slot itself (K-7 ``in_slot``, houses.md G-4 karate) is the plan's
``weapon`` and is drawn in the attack slot with its "built in, no card" name.

>>> from dunenb.battle.roster import load_roster
>>> tyekanik = next(leader for leader in load_roster().leaders if leader.id == "tyekanik")
>>> [slot.words for slot in extra_slots(tyekanik, "emperor")]
['built-in shield: Shield (worn, no card: acts on d10 ≤ 7)']
>>> extra_slots(tyekanik, "harkonnen")  # LC-9: a leader played by a foreign House brings no power
()
"""

from __future__ import annotations

from dunenb.battle.cards import BUILT_IN_WEAPONS, CARD_NAMES
from dunenb.battle.leader_weapons import arsenal
from dunenb.battle.roster import Leader
from dunenb.render.wheel_svg import ExtraSlot

NO_CARD = (None, "", "none")


def _name(card: str) -> str:
    return CARD_NAMES.get(card, card)


def extra_slots(leader: Leader | None, house: str, extra_attack: str | None = None,
                extra_defense: str | None = None, blocked: frozenset[str] = frozenset()) -> tuple[ExtraSlot, ...]:
    """The extra slots to draw for ``leader`` on ``house``'s wheel: the plan's ``extra_attack`` (an extra weapon
    card, K-6, or a built-in weapon, K-7) under the attack slot, its ``extra_defense`` (K-6) and the leader's worn
    shields (K-8) under the defence slot; ``blocked``: the side's powers a Karama blocks (LC-11: a blocked K-8
    shield is not drawn). An empty "none" slot is not drawn; with no extra slot this is ``()``."""
    slots: list[ExtraSlot] = []
    if extra_attack not in NO_CARD:
        assert extra_attack is not None
        label = "built-in weapon" if extra_attack in BUILT_IN_WEAPONS else "extra weapon"  # K-7, else K-6
        slots.append(ExtraSlot(label, _name(extra_attack), 0))
    if extra_defense not in NO_CARD:
        assert extra_defense is not None
        slots.append(ExtraSlot("extra defence", _name(extra_defense), 1))  # K-6
    for _power, bound, _adds in arsenal(leader, house, blocked).shields:  # K-8: worn, rolled when first needed
        slots.append(ExtraSlot("built-in shield", f"Shield (worn, no card: acts on d10 ≤ {bound})", 1))
    return tuple(slots)
