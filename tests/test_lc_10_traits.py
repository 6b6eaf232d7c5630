"""leaders.md LC-10 (one definition of a trait) as LC-9 / D-14 and LC-11 read it: every RESTRICTION, EXCLUSIVE and
INHERIT entry, DISARM ``on self``, a WHEEL_VALUE below base strength and the entries marked *(trait)* are traits;
a leader a foreign House plays keeps exactly those (D-14: "Traits stay"), a Karama against a leader leaves exactly
those (LC-11), and an heir never receives one (K-24). One predicate decides all three
(:func:`dunenb.battle.leader_traits.is_trait`)."""

from __future__ import annotations

import pytest

from dunenb.battle.leader_karama import voidable_powers
from dunenb.battle.leader_powers import Scene, acting
from dunenb.battle.leader_traits import is_trait
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.roster import HOUSES, load_roster
from dunenb.battle.wheel import Dial, Tokens
from dunenb.errors import IllegalActionError
from dunenb.powers.inheritance import inherited
from dunenb.powers.leader_effects import Disarm, WheelValue

ROSTER = load_roster()
SECONDARY = [leader for leader in ROSTER.leaders if not leader.main and leader.house is not None]


def _power(power_id):
    return next((leader, power) for leader in ROSTER.leaders for power in leader.powers if power.id == power_id)


def test_lc_10_the_kinds_and_marks_the_spec_lists_are_traits_every_other_entry_a_power():
    for power_id in ("FREMEN-L12-e", "ATREIDES-L12-b", "FREMEN-L12-a", "GUILD-L11-a", "HARKONNEN-L03-d",
                     "HARKONNEN-L09-d"):  # RESTRICTION, RESTRICTION, EXCLUSIVE, INHERIT, INHERIT, (trait)
        leader, power = _power(power_id)
        assert is_trait(power, leader), power_id
    for power_id in ("FREMEN-L01-a", "HARKONNEN-L09-b", "GUILD-L01-d", "EMPEROR-L01-d"):
        leader, power = _power(power_id)
        assert not is_trait(power, leader), power_id  # a WHEEL_VALUE above base, POST_BATTLE, CARD_RULE, CARD_SLOTS
    for leader in SECONDARY:
        for power in leader.powers:
            effect = power.effect
            if isinstance(effect, Disarm):
                assert is_trait(power, leader) == (effect.on == "self")
            if isinstance(effect, WheelValue):
                assert is_trait(power, leader) == (effect.value < leader.strength)


@pytest.mark.parametrize("leader", SECONDARY, ids=lambda leader: leader.key)
def test_lc_9_d_14_a_foreign_leader_keeps_what_a_karama_leaves_his_traits(leader):
    """For every secondary leader, in a battle his own House fights with all his powers voided by LC-11, and in one
    a foreign House fights with him (D-14), the entries that act are traits, the same in both."""
    foreign = next(house for house in HOUSES if house != leader.house)
    opponent = ROSTER.find("Paul") if leader.house != "atreides" else ROSTER.find("Vladimir")
    blocked = voidable_powers(leader)
    assert blocked == frozenset(p.id for p in leader.powers if not is_trait(p, leader))
    for kind in {power.kind for power in leader.powers}:
        voided = acting(Scene.of("carthag", (leader.house, opponent.house), (leader, opponent), defender=0,
                                 blocked=(blocked, frozenset())), 0, kind)
        captive = acting(Scene.of("carthag", (foreign, opponent.house), (leader, opponent), defender=0), 0, kind)
        assert all(is_trait(power, leader) for power in voided + captive)
        assert [p.id for p in voided] == [p.id for p in captive]


def test_lc_9_a_captive_wanna_keeps_her_trait_and_loses_her_power():
    """HARKONNEN-L09: her death costs her own House's tokens (d, a trait) whoever plays her; her half losses (b, a
    power) are off for the BG who hold her (D-14)."""
    wanna = ROSTER.find("Wanna", house="harkonnen")
    scene = Scene.of("carthag", ("bene-gesserit", "atreides"), (wanna, ROSTER.find("Paul")), defender=0)
    assert [p.id for p in acting(scene, 0, "POST_BATTLE")] == ["HARKONNEN-L09-d"]
    own = Scene.of("carthag", ("harkonnen", "atreides"), (wanna, ROSTER.find("Paul")), defender=0)
    assert {p.id for p in acting(own, 0, "POST_BATTLE")} == {"HARKONNEN-L09-b", "HARKONNEN-L09-d"}


def test_lc_10_k_24_an_heir_never_receives_a_trait():
    staban = ROSTER.find("Staban")
    esmar = next(leader for leader in ROSTER.of_house("guild") if any(
        power.id.startswith("GUILD-L10") for power in leader.powers))
    got = [power.id for power, _inherit in inherited(staban, frozenset({esmar.id}))]
    assert got and all(not is_trait(power, esmar) for power in esmar.powers if power.id in got)
    assert {power.id for power in esmar.powers if is_trait(power, esmar)}.isdisjoint(got)


def test_lc_9_d_14_a_captive_ghanima_still_may_not_carry_a_shield():
    """FREMEN-L12-e is a trait: the Harkonnen playing the captured Ghanima may not put a shield on her wheel."""
    ghanima = ROSTER.find("Ghanima", house="fremen")
    mine = BattleSide("harkonnen", Tokens(3), BattlePlan(Dial(1), ghanima, defense="shield"))
    theirs = BattleSide("atreides", Tokens(3), BattlePlan(Dial(1), ROSTER.find("Paul")))
    with pytest.raises(IllegalActionError, match="cannot carry"):
        resolve_battle(Battle("carthag", "harkonnen", (mine, theirs)))
