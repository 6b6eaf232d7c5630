"""Battle cases with the facts of the pre-battle sequence (issue 10 item 4, dunenb.battle.facts): the Voice and
prescience answer in force (BG-P1, ATREIDES-M2, ATREIDES-P1, GUILD-M2), a Karama hidden on the wheel against
them (KARAMA-25, KARAMA-43, KARAMA-40, KARAMA-18) and Karama uses played in the battle (KARAMA-21, KARAMA-22,
KARAMA-23, KARAMA-42); the analyzer applies them."""

from __future__ import annotations

import pytest

from dunenb.analysis.battle_odds import sensible_plans
from dunenb.battle.case import case_outcomes, parse_case
from dunenb.errors import InputError


def side(house, leader, *, weapon=None, defense=None, karama=None, karama_use=None, hand=None, tokens=3, dial=1,
         spice=0):
    raw = {"house": house, "tokens": {"regular": tokens}, "dial": {"regular": dial, "spice": spice},
           "leader": leader, "weapon": weapon, "defense": defense, "karama": karama}
    if karama_use:
        raw["karama_use"] = karama_use
    if hand is not None:
        raw["hand"] = hand
    return raw


def case(first, second, **facts):
    return {"format": "dunenb.battle/1", "territory": "arsunt", "defender": first["house"],
            "sides": [first, second], **facts}


def error_of(raw):
    with pytest.raises(InputError) as info:
        parse_case(raw)
    return str(info.value)


def winner(raw):
    """The sure winner of a case (other d10s, e.g. Fiona's K-17 regen_dialled roll, may split the outcomes)."""
    winners = {outcome.winner for _, outcome in case_outcomes(parse_case(raw))}
    assert len(winners) == 1, winners
    return winners.pop()


BG_VOICE = {"voice": {"by": "bene-gesserit", "mode": "forbid", "kind": "poison"}}


def test_BG_P1_case_the_voice_binds_the_voiced_side_and_karama_25_releases_it():
    bg = side("bene-gesserit", "darwi")
    poisoned = side("harkonnen", "feyd-rautha", weapon="poison-fast")
    assert winner(case(bg, poisoned)) == "harkonnen"
    assert "forbade poison" in error_of(case(bg, poisoned, **BG_VOICE))
    hidden = side("harkonnen", "feyd-rautha", weapon="poison-fast", karama="karama", karama_use="KARAMA-25")
    assert winner(case(bg, hidden, **BG_VOICE)) == "harkonnen"  # GAP-80: shown at the reveal
    assert winner(case(bg, side("harkonnen", "feyd-rautha"), **BG_VOICE)) == "bene-gesserit"


def test_BG_P1_case_the_analyzer_leaves_the_forbidden_kind_off_the_voiced_sides_plans():
    raw = case(side("bene-gesserit", "darwi"),
               side("harkonnen", "feyd-rautha", hand=["poison-fast", "projectile-distance"]), **BG_VOICE)
    weapons = {plan.weapon for plan in sensible_plans(parse_case(raw), 1).plans}
    assert weapons == {None, "projectile-distance"}
    free = {plan.weapon for plan in sensible_plans(parse_case(dict(raw, voice=[])), 1).plans}
    assert "poison-fast" in free


def test_ATREIDES_M2_case_pauls_voice_needs_paul_on_the_wheel():
    voice = {"voice": {"by": "atreides", "mode": "forbid", "kind": "poison"}}
    harkonnen = side("harkonnen", "feyd-rautha", weapon="poison-fast")
    assert "main leader on the wheel" in error_of(case(side("atreides", "duncan-idaho"), harkonnen, **voice))
    assert "forbade poison" in error_of(case(side("atreides", "paul"), harkonnen, **voice))
    hidden = side("harkonnen", "feyd-rautha", weapon="poison-fast", karama="karama", karama_use="KARAMA-43")
    assert winner(case(side("atreides", "paul"), hidden, **voice)) == "harkonnen"  # KARAMA-43: Paul poisoned


def test_ATREIDES_P1_case_the_answer_binds_and_karama_40_lets_another_card_show():
    ask = {"prescience": {"by": "atreides", "slot": "attack", "answer": "poison"}}
    atreides = side("atreides", "duncan-idaho", defense="snooper")
    assert "answer was poison" in error_of(case(atreides, side("harkonnen", "feyd-rautha",
                                                                weapon="projectile-distance"), **ask))
    lying = side("harkonnen", "feyd-rautha", weapon="projectile-distance", karama="karama", karama_use="KARAMA-40")
    assert winner(case(atreides, lying, **ask)) == "harkonnen"  # the snooper does not stop the projectile
    raw = case(atreides, side("harkonnen", "feyd-rautha", weapon="poison-fast",
                              hand=["poison-fast", "projectile-distance", "shield"]), **ask)
    assert {plan.weapon for plan in sensible_plans(parse_case(raw), 1).plans} == {"poison-fast"}


def test_GUILD_M2_case_only_in_the_guilds_own_battle_turn_and_karama_18():
    ask = {"prescience": {"by": "guild", "slot": "attack", "answer": "poison"}}
    guild = side("guild", "soo-soo", defense="snooper")  # no question of his own (Edric has one: GUILD-L01-c)
    harkonnen = side("harkonnen", "feyd-rautha", weapon="poison-fast")
    assert parse_case(case(guild, harkonnen, **ask)).sequence.questions[0].power == "GUILD-M2"
    attacking = case(harkonnen, guild, **ask)
    assert "only when it defends" in error_of(attacking)
    lying = side("harkonnen", "feyd-rautha", weapon="projectile-distance", karama="karama", karama_use="KARAMA-18")
    assert winner(case(guild, lying, **ask)) == "harkonnen"


@pytest.mark.parametrize("use", ["KARAMA-21", "KARAMA-22"])
def test_KARAMA_21_22_case_a_karama_in_the_battle_gives_duncan_two_points_back(use):
    atreides = side("atreides", "duncan-idaho", tokens=8, dial=8, spice=8)
    dama = side("dispersion", "dama", tokens=8, dial=0)
    assert winner(case(atreides, dama)) == "dispersion"  # 8 + (6 - 4) against 12
    assert winner(case(atreides, dama, karama_uses=[use])) == "atreides"  # 8 + 4 against 12: the defender


def test_KARAMA_23_case_makes_dama_bound_by_the_voice():
    bg = side("bene-gesserit", "darwi")
    dama = side("dispersion", "dama", weapon="poison-fast")
    assert winner(case(bg, dama, **BG_VOICE)) == "dispersion"  # DISPERSION-M2: not bound
    assert "forbade poison" in error_of(case(bg, dama, karama_uses=["KARAMA-23"], **BG_VOICE))


def test_KARAMA_42_case_paul_dies_of_the_slow_poison():
    paul = side("atreides", "paul")
    slow = side("harkonnen", "feyd-rautha", weapon="poison-slow")
    assert not case_outcomes(parse_case(case(paul, slow)))[0][1].side("atreides").leader_fate == "dead"
    blocked = case_outcomes(parse_case(case(paul, slow, karama_uses=["KARAMA-42"])))
    assert blocked[0][1].side("atreides").leader_fate == "dead"


def test_case_facts_impossible_combinations_are_refused_with_the_field_named():
    bg, hark = side("bene-gesserit", "darwi"), side("harkonnen", "feyd-rautha")
    cases = [
        (case(bg, hark, voice={"by": "harkonnen", "mode": "forbid", "kind": "poison"}), "voice.by"),
        # FAQ 10; with Darwi on the wheel D-25 allows it (special2: tests/test_leader_voice_scope.py)
        (case(side("bene-gesserit", "lucille"), hark, voice={"by": "bene-gesserit", "mode": "forbid",
                                                             "kind": "worthless"}), "voice.kind"),
        (case(bg, hark, voice=[BG_VOICE["voice"], BG_VOICE["voice"]]), "one Voice"),
        (case(bg, hark, prescience={"by": "bene-gesserit", "slot": "attack", "answer": "none"}), "prescience.by"),
        (case(side("atreides", "duncan-idaho"), hark, prescience={"by": "atreides", "slot": "defence",
                                                                   "answer": "poison"}), "prescience.answer"),
        (case(bg, hark, karama_uses=["KARAMA-99"]), "karama_uses[0]"),
        (case(bg, hark, karama_uses=["KARAMA-42"]), "not in this battle"),
        (case(bg, side("harkonnen", "feyd-rautha", karama_use="KARAMA-25")), "karama_use"),
        (case(bg, side("harkonnen", "feyd-rautha", karama="karama", karama_use="KARAMA-25")), "blocks nothing"),
    ]
    for raw, needle in cases:
        assert needle in error_of(raw), (needle, error_of(raw))
