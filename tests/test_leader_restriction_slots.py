"""leaders.md K-21 RESTRICTION on the extra slots (GAP-144): ``cannot_carry`` (F11-e, F12-e shield and snooper;
A03-d, A04-d shield) and ``attacks_only`` (A12-b lasgun, atomics) are about the leader carrying, so they bind every
slot he fills: the K-6 second defence or attack card and the K-7 built-in beside the attack card, not only the two
ordinary slots.

No leader of data/leaders.json holds both a card restriction and an extra-slot power (and no K-24 INHERIT heir
with a restriction inherits one; a foreign leader has no powers, D-14), so each scene gives the restricted leader
another leader's slot entry (Hwi Noree's TLEILAX-L09-c, Piter's HARKONNEN-L04-b, Alia's Krys FREMEN-L07-b) and
plays it through the functions every path shares: :func:`dunenb.battle.leader_weapons.check_slots` (game plans,
``dunenb battle`` cases, the resolver's check) and :func:`dunenb.battle.leader_weapons.slot_options` (the plan
menus, the prescience answers, the analyzer)."""

from __future__ import annotations

import dataclasses

import pytest

from dunenb.battle.cards import DEFENCES, WEAPONS
from dunenb.battle.leader_weapons import check_slots, slot_options
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.roster import load_roster
from dunenb.battle.wheel import Dial, Tokens
from dunenb.errors import IllegalActionError

ROSTER = load_roster()


def _entry(power_id):
    return next(power for leader in ROSTER.leaders for power in leader.powers if power.id == power_id)


def _with(power_id, extra):
    """The leader holding the restriction ``power_id``, given the slot entry ``extra`` of another leader."""
    leader = next(leader for leader in ROSTER.leaders if any(p.id == power_id for p in leader.powers))
    return dataclasses.replace(leader, powers=leader.powers + (_entry(extra),))


def _refused(leader, code, **cards):
    with pytest.raises(IllegalActionError) as raised:
        check_slots(BattlePlan(leader=leader, **cards), leader.house)
    assert raised.value.code == code
    # the battle library refuses the same wheel (a dunenb battle case is resolved through this check)
    mine = BattleSide(leader.house, Tokens(3), BattlePlan(Dial(1), leader, **cards))
    theirs = BattleSide("harkonnen", Tokens(3), BattlePlan(Dial(1), ROSTER.find("Piter")))
    with pytest.raises(IllegalActionError) as raised:
        resolve_battle(Battle("mesa-molle", leader.house, (mine, theirs)))
    assert raised.value.code == code


@pytest.mark.parametrize("power_id", ["FREMEN-L11-e", "FREMEN-L12-e"])
def test_fremen_l11_e_and_fremen_l12_e_gap_144_cannot_carry_binds_the_second_defence_slot(power_id):
    leader = _with(power_id, "TLEILAX-L09-c")  # CARD_SLOTS(0 attacks, 2 defences)
    check_slots(BattlePlan(leader=leader, defense="worthless", extra_defense="worthless"), leader.house)  # the slot
    for card in ("snooper", "shield"):
        _refused(leader, "battle/leader-cannot-carry", defense="worthless", extra_defense=card)
    offered = slot_options(leader, leader.house, ("worthless", "worthless", "snooper", "shield"),
                           attack_cards=WEAPONS, defence_cards=DEFENCES)
    assert (None, "worthless", None, "worthless") in offered
    assert not [combo for combo in offered if {"snooper", "shield"} & set(combo)]


@pytest.mark.parametrize("power_id", ["ATREIDES-L03-d", "ATREIDES-L04-d"])
def test_atreides_l03_d_and_atreides_l04_d_cannot_carry_a_shield_in_the_second_defence_slot(power_id):
    leader = _with(power_id, "TLEILAX-L09-c")
    _refused(leader, "battle/leader-cannot-carry", defense="snooper", extra_defense="shield")
    check_slots(BattlePlan(leader=leader, defense="snooper", extra_defense="worthless"), leader.house)
    offered = slot_options(leader, leader.house, ("snooper", "shield", "worthless"), attack_cards=WEAPONS,
                           defence_cards=DEFENCES)
    assert (None, "snooper", None, "worthless") in offered
    assert not [combo for combo in offered if "shield" in combo]


def test_atreides_l12_b_attacks_only_binds_the_second_attack_card_and_the_built_in_beside_it():
    teg = _with("ATREIDES-L12-b", "HARKONNEN-L04-b")  # CARD_SLOTS(2 distinct attacks, 0 defences)
    check_slots(BattlePlan(leader=teg, weapon="lasgun", extra_attack="atomics"), "atreides")
    _refused(teg, "battle/leader-attacks-only", weapon="lasgun", extra_attack="poison-fast")
    offered = slot_options(teg, "atreides", ("lasgun", "poison-fast", "projectile-distance"), attack_cards=WEAPONS,
                           defence_cards=DEFENCES)
    assert not [combo for combo in offered if {"poison-fast", "projectile-distance"} & set(combo)]
    krys = _with("ATREIDES-L12-b", "FREMEN-L07-b")  # BUILTIN_WEAPON(Krys, extra): a built-in is no lasgun (GAP-116)
    _refused(krys, "battle/leader-attacks-only", weapon="lasgun", extra_attack="krys")
    assert not [combo for combo in slot_options(krys, "atreides", ("lasgun",), attack_cards=WEAPONS,
                                                defence_cards=DEFENCES) if "krys" in combo]
