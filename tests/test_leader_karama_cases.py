"""leaders.md LC-11 in battle cases: a Karama against a secondary leader (KARAMA-10/13/19/24/33/39/44/50, D-26,
GAP-121, GAP-122), hidden on the wheel (``karama_use``) or played openly (``karama_uses``), and KARAMA-20 against
karate (GAP-123)."""

from __future__ import annotations

import pytest

from dunenb.battle.case import case_outcomes, parse_case
from dunenb.errors import InputError


def _case(territory, defender, me, foe, *, karama_use=None, karama_uses=None):
    """``me`` and ``foe``: (house, leader, extra side fields); ``foe``'s wheel may hide a Karama for ``karama_use``."""
    sides = []
    for (house, leader, extra), karama in ((me, None), (foe, karama_use)):
        side = {"house": house, "tokens": {"regular": 5}, "dial": {"regular": 3}, "leader": leader, **extra}
        if karama is not None:
            side.update(karama="karama", karama_use=karama)
        sides.append(side)
    raw = {"format": "dunenb.battle/1", "territory": territory, "defender": defender, "sides": sides}
    if karama_uses is not None:
        raw["karama_uses"] = karama_uses
    return parse_case(raw)


def _side(case, house):
    ((probability, outcome),) = case_outcomes(case)
    assert probability == 1
    return outcome.side(house)


def _totals(territory, defender, me, foe, use):
    """(total without the Karama, total with it hidden on the wheel, powers acting without it) for ``me``."""
    plain = _side(_case(territory, defender, me, foe), me[0])
    voided = _side(_case(territory, defender, me, foe, karama_use=use), me[0])
    return float(plain.total), float(voided.total), plain.powers


FOE = ("atreides", {"name": "Any Name", "strength": 5}, {})


def test_karama_10_on_the_wheel_voids_bannerjee_in_the_desert():
    plain, voided, powers = _totals("erg-mineur", "fremen", ("fremen", "fremen:bannerjee", {}), FOE, "KARAMA-10")
    assert "FREMEN-L03-a" in powers
    assert (plain, voided) == (3 + 9, 1.5 + 6)  # TROOPS_WORTH_ONE and WHEEL_VALUE(9 | desert) void


def test_karama_13_on_the_wheel_voids_bashar_in_the_mountains():
    plain, voided, _ = _totals("mesa-molle", "emperor", ("emperor", "bashar", {}), FOE, "KARAMA-13")
    assert (plain, voided) == (1.5 + 4, 1.5 + 3)  # 3 tokens without spice: 1.5


def test_karama_19_on_the_wheel_voids_gurney_of_the_guild_in_arrakeen():
    foe = ("fremen", {"name": "X", "strength": 5}, {})
    plain, voided, _ = _totals("arrakeen", "guild", ("guild", "guild:gurney", {}), foe, "KARAMA-19")
    assert (plain, voided) == (1.5 + 9, 1.5 + 7)


def test_karama_24_on_the_wheel_voids_duana_attacking():
    plain, voided, _ = _totals("erg-mineur", "atreides", ("dispersion", "duana", {}), FOE, "KARAMA-24")
    assert (plain, voided) == (1.5 + 10, 1.5 + 7)  # WHEEL_VALUE(10 | attacker) void


def test_karama_33_on_the_wheel_voids_bellonda_s_army_bonus():
    plain, voided, _ = _totals("erg-mineur", "bene-gesserit", ("bene-gesserit", "bellonda", {}), FOE, "KARAMA-33")
    assert (plain, voided) == (1.5 + 2 + 5, 1.5 + 5)  # ARMY_BONUS(+2) void


def test_karama_39_on_the_wheel_voids_bijaz_attacking():
    plain, voided, _ = _totals("erg-mineur", "atreides", ("bene-tleilax", "bijaz", {}), FOE, "KARAMA-39")
    assert (plain, voided) == (1.5 + 9, 1.5 + 6)


def test_karama_44_on_the_wheel_voids_gurney_in_the_open():
    plain, voided, _ = _totals("erg-mineur", "atreides", ("atreides", "atreides:gurney", {}),
                               ("harkonnen", {"name": "Any Name", "strength": 5}, {}), "KARAMA-44")
    assert (plain, voided) == (1.5 + 9, 1.5 + 7)


def test_karama_50_on_the_wheel_voids_feyd_in_carthag():
    plain, voided, _ = _totals("carthag", "harkonnen", ("harkonnen", "feyd-rautha", {}), FOE, "KARAMA-50")
    assert (plain, voided) == (1.5 + 8, 1.5 + 6)


def test_LC_11_a_karama_against_a_leader_leaves_his_traits_alone():
    """LC-10: Chani's DISARM on self against Paul is a trait (D-21: she counts 0); her TROOPS_WORTH_ONE is a power."""
    me, foe = ("fremen", "chani", {}), ("atreides", "paul", {})
    plain = _side(_case("erg-mineur", "fremen", me, foe), "fremen")
    voided = _side(_case("erg-mineur", "fremen", me, foe, karama_use="KARAMA-10"), "fremen")
    assert (float(plain.total), float(voided.total)) == (3 + 0, 1.5 + 0)


def test_LC_11_GAP_122_against_a_main_leader_the_karama_does_nothing_and_is_lost():
    me, foe = ("atreides", "paul", {}), ("fremen", "stilgar", {})
    plain = _side(_case("erg-mineur", "fremen", me, foe), "atreides")
    voided = _case("erg-mineur", "fremen", me, foe, karama_use="KARAMA-44")
    assert _side(voided, "atreides").total == plain.total
    assert "karama" in _side(voided, "fremen").cards_lost  # KARAMA-2


def test_LC_11_a_karama_uses_played_openly_voids_the_named_house_s_leader():
    me = ("fremen", "fremen:bannerjee", {})
    case = _case("erg-mineur", "fremen", me, FOE, karama_uses=["KARAMA-10"])
    assert float(_side(case, "fremen").total) == 1.5 + 6


def test_LC_11_GAP_121_an_open_use_needs_a_secondary_leader_of_its_group():
    with pytest.raises(InputError, match="KARAMA-13 voids the powers of a emperor secondary leader"):
        _case("erg-mineur", "fremen", ("fremen", "stilgar", {}), FOE, karama_uses=["KARAMA-13"])


def test_LC_11_GAP_122_the_wheel_use_must_be_the_opposing_house_s_group():
    with pytest.raises(InputError, match="karama_use"):
        _case("erg-mineur", "fremen", ("fremen", "stilgar", {}), FOE, karama_use="KARAMA-13")


KARATE = ("dispersion", "duana", {"weapon": "karate"})


def test_karama_20_on_the_wheel_voids_the_dispersion_karate():
    foe = FOE
    plain = case_outcomes(_case("erg-mineur", "atreides", KARATE, foe))
    assert [o.side("atreides").leader_fate for _p, o in plain] == ["dead"]
    voided = case_outcomes(_case("erg-mineur", "atreides", KARATE, foe, karama_use="KARAMA-20"))
    assert [o.side("atreides").leader_fate for _p, o in voided] == ["alive"]  # no attack: Thufir lives


def test_karama_20_is_useless_against_a_poison():
    poison = ("dispersion", "duana", {"weapon": "poison-fast"})
    voided = case_outcomes(_case("erg-mineur", "atreides", poison, FOE, karama_use="KARAMA-20"))
    assert [o.side("atreides").leader_fate for _p, o in voided] == ["dead"]


def test_karama_20_only_against_a_house_with_karate():
    with pytest.raises(InputError, match="karama_use"):
        _case("erg-mineur", "fremen", ("fremen", "stilgar", {}), FOE, karama_use="KARAMA-20")


def test_LC_11_b_the_wheel_karama_against_darwi_releases_her_voice_and_no_other():
    """LC-11 b: uses before B6 stand, except a Voice command by that leader, which the victim may disobey as under
    KARAMA-25 (the sequence as the leaders' Voice, K-11, records it: its power is the leader's entry)."""
    from dunenb.battle.facts import released_by, sequence_of
    from dunenb.battle.plans import BattlePlan
    from dunenb.battle.sequence import VoiceCommand, plan_violations

    darwi = VoiceCommand("bene-gesserit", "harkonnen", "forbid", "poison", "BG-L02-b")
    house = VoiceCommand("bene-gesserit", "harkonnen", "forbid", "poison", "BG-P1")
    poisoned = BattlePlan(weapon="poison-fast")
    for voices, released in (((darwi,), ("BG-L02-b",)), ((house,), ())):
        seq = sequence_of(("bene-gesserit", "harkonnen"), voices, ())
        assert released_by("KARAMA-33", seq, "harkonnen") == released
        assert bool(plan_violations(seq, "harkonnen", poisoned, karama_shown=released)) == (not released)
    assert released_by("KARAMA-44", sequence_of(("bene-gesserit", "harkonnen"), (darwi,), ()), "harkonnen") == ()
