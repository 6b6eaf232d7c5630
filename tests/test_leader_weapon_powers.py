"""Issue 11 item 2: the secondary leaders' cards and built-ins in battles (leaders.md K-6 CARD_SLOTS, K-7
BUILTIN_WEAPON, K-8 BUILTIN_DEFENSE, K-9 CARD_RULE; LC-1 dice, LC-7 attacks and defences).

Each power ID gets a battle that plays its scene: the exact outcome distribution with the power, and the same
battle with the power blocked (a Karama for this battle, LC-11) or the plan it allows refused without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from dunenb.battle.case import parse_case
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.roster import Leader, inline_leader, load_roster
from dunenb.battle.wheel import Dial, Tokens
from dunenb.errors import IllegalActionError, InputError

ROSTER = load_roster()
TERRITORY = "mesa-molle"  # a plain mountain: no terrain condition of these leaders holds there


def _leader(power_id: str) -> Leader:
    return next(leader for leader in ROSTER.leaders if any(power.id == power_id for power in leader.powers))


def _side(house: str, leader: Leader | None, weapon: str | None = None, defense: str | None = None, *,
          extra_attack: str | None = None, extra_defense: str | None = None, blocked: Sequence[str] = (),
          b1_rolls: tuple[tuple[str, int], ...] = (), dial: int = 1) -> BattleSide:
    plan = BattlePlan(Dial(dial), leader, weapon, defense, extra_attack=extra_attack, extra_defense=extra_defense)
    return BattleSide(house, Tokens(3), plan, blocked=frozenset(blocked), b1_rolls=b1_rolls)


def _death(holder: BattleSide, other: BattleSide, side: int = 0) -> Fraction:
    """P(the leader of ``holder`` (side 0) or of ``other`` (side 1) dies), exact."""
    battle = Battle(TERRITORY, other.house, (holder, other))
    return sum((p for p, outcome in resolve_battle(battle) if outcome.sides[side].leader_fate == "dead"),
               Fraction(0))


FOE = inline_leader("Foe", 5)


# --------------------------------------------------------------------------------------------- K-8 worn shields
def _worn_shield(power_id: str, house: str, bound: int, adds_shield: bool) -> None:
    wearer = _leader(power_id)
    gun = _side("harkonnen" if house != "harkonnen" else "atreides", FOE, "projectile-distance")
    # LC-1, LC-7: a distance projectile; the worn shield is rolled once, on d10 <= N it stops it
    assert _death(_side(house, wearer), gun) == Fraction(10 - bound, 10)
    assert _death(_side(house, wearer, blocked=[power_id]), gun) == 1
    # D-20: a lasgun ignores it and never explodes with it
    laser = _side(gun.house, FOE, "lasgun")
    battle = Battle(TERRITORY, laser.house, (_side(house, wearer), laser))
    assert [(p, o.explosion) for p, o in resolve_battle(battle)] == [(1, None)]
    # a contact projectile passes the worn shield (if it acts) and a Shield card each, d10 <= 5 (the foe's base)
    knife = _side(gun.house, FOE, "projectile-contact")
    if adds_shield:
        both = _death(_side(house, wearer, defense="shield"), knife)
        assert both == Fraction(bound, 10) * Fraction(1, 4) + Fraction(10 - bound, 10) * Fraction(1, 2)
    else:  # D-20: a worn shield adds only a snooper (GAP-91: or a worthless card)
        with pytest.raises(IllegalActionError) as error:
            resolve_battle(Battle(TERRITORY, knife.house, (_side(house, wearer, defense="shield"), knife)))
        assert error.value.code == "battle/defense"
        assert _death(_side(house, wearer, defense="snooper"), knife) == Fraction(bound, 10) * Fraction(1, 2) + \
            Fraction(10 - bound, 10)


def test_atreides_l08_a_leto_wears_a_shield_d10_4_adds_only_a_snooper():
    _worn_shield("ATREIDES-L08-a", "atreides", 4, adds_shield=False)


def test_emperor_l02_d_tyekanik_wears_a_shield_d10_7_adds_only_a_snooper():
    _worn_shield("EMPEROR-L02-d", "emperor", 7, adds_shield=False)


def test_guild_l01_a_edric_tank_shield_d10_4():
    _worn_shield("GUILD-L01-a", "guild", 4, adds_shield=True)


def test_guild_l02_a_alberic_tank_shield_d10_4():
    _worn_shield("GUILD-L02-a", "guild", 4, adds_shield=True)


def test_guild_l03_a_sapic_tank_shield_d10_3():
    _worn_shield("GUILD-L03-a", "guild", 3, adds_shield=True)


def test_guild_l04_a_ludwic_tank_shield_d10_3():
    _worn_shield("GUILD-L04-a", "guild", 3, adds_shield=True)


def test_guild_l05_a_tolric_tank_shield_d10_2():
    _worn_shield("GUILD-L05-a", "guild", 2, adds_shield=True)


def test_guild_l06_a_olmric_tank_shield_d10_2():
    _worn_shield("GUILD-L06-a", "guild", 2, adds_shield=True)


def test_dispersion_l03_d_duana_shield_d10_3():
    _worn_shield("DISPERSION-L03-d", "dispersion", 3, adds_shield=True)


def test_leaders_LC_1_a_worn_shield_rolls_once_with_the_wearers_fixed_die_GUILD_L01_a():
    edric = _side("guild", _leader("GUILD-L01-a"))
    two_guns = _side("emperor", _leader("EMPEROR-L01-d"), "projectile-distance", extra_attack="karate")
    with pytest.raises(IllegalActionError):  # karate is no second card: Hasimir's second slot takes a card
        resolve_battle(Battle(TERRITORY, "emperor", (edric, two_guns)))
    guns = _side("emperor", _leader("EMPEROR-L01-d"), "projectile-distance", extra_attack="projectile-contact")
    held = BattleSide("guild", Tokens(3), edric.plan, dice=(4,))  # the tank shield acts: one roll for both
    outcomes = resolve_battle(Battle(TERRITORY, "emperor", (held, guns)))
    # the distance projectile is stopped; the contact one must pass the worn shield: d10 <= 7 (Hasimir)
    assert [(p, o.sides[0].leader_fate) for p, o in outcomes] == [(Fraction(7, 10), "dead"),
                                                                  (Fraction(3, 10), "alive")]


# --------------------------------------------------------------------------------------------- K-7 built-ins
def test_fremen_l07_b_alia_krys_on_top_of_the_attack_card():
    alia = _leader("FREMEN-L07-b")
    snooper = _side("harkonnen", FOE, None, "snooper")
    assert _death(_side("fremen", alia, "poison-fast", "shield"), snooper, 1) == 0
    krys = _side("fremen", alia, "poison-fast", "shield", extra_attack="krys")
    assert _death(krys, snooper, 1) == 1  # no shield against the Krys; a defence is allowed (extra)
    battle = Battle(TERRITORY, "harkonnen", (krys, snooper))
    (_p, outcome), = resolve_battle(battle)
    assert outcome.sides[0].cards_played == ("poison-fast", "shield")  # the Krys is no card (G-4)
    assert "FREMEN-L07-b" in outcome.sides[0].powers
    with pytest.raises(IllegalActionError):
        resolve_battle(Battle(TERRITORY, "harkonnen", (_side("fremen", alia, "poison-fast", extra_attack="krys",
                                                             blocked=["FREMEN-L07-b"]), snooper)))


def test_emperor_l07_c_irulan_slow_poison_on_top_of_the_attack_card():
    irulan = _leader("EMPEROR-L07-c")
    shield = _side("harkonnen", FOE, None, "shield")
    assert _death(_side("emperor", irulan, "projectile-distance", "shield"), shield, 1) == 0
    poisoned = _side("emperor", irulan, "projectile-distance", "shield", extra_attack="poison-slow-built-in")
    assert _death(poisoned, shield, 1) == 1
    assert _death(poisoned, _side("harkonnen", FOE, None, "snooper"), 1) == 1  # the projectile kills then
    assert _death(poisoned, _side("atreides", ROSTER.find("Paul"), None, "shield"), 1) == 0  # ATREIDES-M1


def test_harkonnen_l01_c_feyd_kindjal_on_top_of_the_attack_card():
    feyd = _leader("HARKONNEN-L01-c")
    snooper = _side("atreides", FOE, None, "snooper")
    kindjal = _side("harkonnen", feyd, "poison-fast", "snooper", extra_attack="kindjal")
    assert _death(_side("harkonnen", feyd, "poison-fast", "snooper"), snooper, 1) == 0
    assert _death(kindjal, snooper, 1) == 1
    # against a Shield card the Kindjal passes on d10 <= 6, Feyd's base strength (CARD-SHIELD-3)
    alone = _side("harkonnen", feyd, None, "snooper", extra_attack="kindjal")
    assert _death(alone, _side("atreides", FOE, None, "shield"), 1) == Fraction(6, 10)


def test_atreides_l06_d_alia_gom_jabbar_alone_with_a_defence_or_with_another_kind_without():
    alia = _leader("ATREIDES-L06-d")
    shield = _side("harkonnen", FOE, "projectile-distance", "shield")
    alone = _side("atreides", alia, None, "shield", extra_attack="gom-jabbar")
    assert _death(alone, shield, 1) == 1 and _death(alone, shield, 0) == 0
    assert _death(_side("atreides", alia, None, "shield"), shield, 1) == 0
    with pytest.raises(IllegalActionError):  # blocked by a Karama: no Gom Jabbar
        resolve_battle(Battle(TERRITORY, "harkonnen", (_side("atreides", alia, None, "shield",
                                                             extra_attack="gom-jabbar",
                                                             blocked=["ATREIDES-L06-d"]), shield)))
    with pytest.raises(IllegalActionError) as error:  # L1089: two weapons, then no defence
        resolve_battle(Battle(TERRITORY, "harkonnen", (_side("atreides", alia, "lasgun", "shield",
                                                             extra_attack="gom-jabbar"), shield)))
    assert error.value.code == "battle/extra-defense-forbidden"
    with pytest.raises(IllegalActionError):  # GAP-92: "2 armes différentes": not a poison card
        resolve_battle(Battle(TERRITORY, "harkonnen", (_side("atreides", alia, "poison-slow",
                                                             extra_attack="gom-jabbar"), shield)))
    two = _side("atreides", alia, "projectile-distance", extra_attack="gom-jabbar")
    assert _death(two, _side("harkonnen", FOE, None, "snooper"), 1) == 1


def test_atreides_l09_d_yueh_slow_poison_fills_the_attack_slot():
    yueh = _leader("ATREIDES-L09-d")
    foe = _side("harkonnen", FOE, None, "shield")
    poison = _side("atreides", yueh, "poison-slow-built-in", "shield")
    assert _death(poison, foe, 1) == 1
    outcomes = resolve_battle(Battle(TERRITORY, "harkonnen", (poison, foe)))  # (his K-14 d10 against the
    assert all(outcome.sides[0].cards_played == ("shield",) for _p, outcome in outcomes)  # Harkonnen) no card
    with pytest.raises(IllegalActionError):
        resolve_battle(Battle(TERRITORY, "harkonnen", (_side("atreides", yueh, "poison-slow-built-in",
                                                             blocked=["ATREIDES-L09-d"]), foe)))


def test_harkonnen_l10_c_yueh_slow_poison_only_after_a_d10_of_2_or_less_at_b1_D_31():
    yueh = _leader("HARKONNEN-L10-c")
    foe = _side("atreides", FOE)
    for face, allowed in ((1, True), (2, True), (3, False)):
        side = _side("harkonnen", yueh, "poison-slow-built-in", b1_rolls=(("HARKONNEN-L10-c", face),))
        if allowed:
            assert _death(side, foe, 1) == 1
        else:
            with pytest.raises(IllegalActionError):
                resolve_battle(Battle(TERRITORY, "atreides", (side, foe)))
    with pytest.raises(InputError):  # a case without the B1 roll may not use it
        parse_case(_case("harkonnen", "yueh", {"weapon": "poison-slow-built-in"}))
    case = parse_case(_case("harkonnen", "yueh", {"weapon": "poison-slow-built-in",
                                                  "b1_rolls": {"HARKONNEN-L10-c": 2}}))
    assert case.sides[0].side.b1_rolls == (("HARKONNEN-L10-c", 2),)


def test_bg_l12_c_murbella_karate_fills_the_attack_slot():
    murbella = _leader("BG-L12-c")
    karate = _side("bene-gesserit", murbella, "karate", "snooper")
    assert _death(karate, _side("harkonnen", FOE, None, "snooper"), 1) == 1
    assert _death(karate, _side("harkonnen", FOE, None, "shield"), 1) == 0  # any Shield stops it
    with pytest.raises(IllegalActionError):
        resolve_battle(Battle(TERRITORY, "harkonnen", (_side("bene-gesserit", murbella, "karate",
                                                             blocked=["BG-L12-c"]), _side("harkonnen", FOE))))


# --------------------------------------------------------------------------------------------- K-6 card slots
def test_emperor_l01_d_hasimir_two_attacks_no_defence():
    hasimir = _leader("EMPEROR-L01-d")
    snooper = _side("harkonnen", FOE, None, "snooper")
    two = _side("emperor", hasimir, "poison-fast", extra_attack="projectile-distance")
    assert _death(two, snooper, 1) == 1
    assert _death(_side("emperor", hasimir, "poison-fast"), snooper, 1) == 0
    same = _side("emperor", hasimir, "poison-fast", extra_attack="poison-slow")  # not distinct: allowed
    assert _death(same, snooper, 1) == 0
    (_p, outcome), = resolve_battle(Battle(TERRITORY, "harkonnen", (two, snooper)))
    assert outcome.sides[0].cards_played == ("poison-fast", "projectile-distance")
    assert "EMPEROR-L01-d" in outcome.sides[0].powers
    with pytest.raises(IllegalActionError) as error:
        resolve_battle(Battle(TERRITORY, "harkonnen", (_side("emperor", hasimir, "poison-fast", "shield",
                                                             extra_attack="lasgun"), snooper)))
    assert error.value.code == "battle/extra-defense-forbidden"


def _distinct(power_id: str, house: str) -> None:
    leader = _leader(power_id)
    snooper = _side("atreides" if house != "atreides" else "fremen", FOE, None, "snooper")
    two = _side(house, leader, "poison-fast", extra_attack="projectile-distance")
    assert _death(two, snooper, 1) == 1
    for bad in (_side(house, leader, "poison-fast", extra_attack="poison-slow"),
                _side(house, leader, "poison-fast", extra_attack="projectile-distance", blocked=[power_id])):
        with pytest.raises(IllegalActionError):
            resolve_battle(Battle(TERRITORY, snooper.house, (bad, snooper)))


def test_guild_l08_c_hasimir_two_distinct_attacks():
    _distinct("GUILD-L08-c", "guild")


def test_harkonnen_l04_b_piter_two_distinct_attacks():
    _distinct("HARKONNEN-L04-b", "harkonnen")


def test_tleilax_l09_c_hwi_noree_two_defences_no_attack():
    hwi = _leader("TLEILAX-L09-c")
    knife = _side("atreides", FOE, "projectile-contact")
    assert _death(_side("bene-tleilax", hwi, None, "shield"), knife) == Fraction(1, 2)
    assert _death(_side("bene-tleilax", hwi, None, "shield", extra_defense="shield"), knife) == Fraction(1, 4)
    both = _side("bene-tleilax", hwi, None, "shield", extra_defense="snooper")
    assert _death(both, _side("atreides", FOE, "poison-fast")) == 0
    for bad in (_side("bene-tleilax", hwi, "poison-fast", "shield", extra_defense="snooper"),
                _side("bene-tleilax", hwi, None, "shield", extra_defense="snooper", blocked=["TLEILAX-L09-c"])):
        with pytest.raises(IllegalActionError):
            resolve_battle(Battle(TERRITORY, "atreides", (bad, knife)))


# --------------------------------------------------------------------------------------------- K-9 card rules
def test_atreides_l06_b_alia_snooper_fails_against_a_harkonnen_leader_on_d10_above_his_strength():
    alia = _leader("ATREIDES-L06-b")
    piter = _side("harkonnen", _leader("HARKONNEN-L04-b"), None, "snooper")  # base 4
    assert _death(_side("atreides", alia, "poison-fast"), piter, 1) == Fraction(6, 10)
    assert _death(_side("atreides", alia, "poison-fast", blocked=["ATREIDES-L06-b"]), piter, 1) == 0
    assert _death(_side("atreides", alia, "poison-fast"), _side("emperor", FOE, None, "snooper"), 1) == 0


def test_bg_l07_a_irulan_slow_poison_acts_as_fast_GAP_93():
    irulan = _leader("BG-L07-a")
    knife = _side("harkonnen", FOE, "projectile-contact")
    # fast: the foe dies at once and cannot try to pass her shield (CARD-SHIELD-2 example 1)
    assert _death(_side("bene-gesserit", irulan, "poison-slow", "shield"), knife) == 0
    assert _death(_side("bene-gesserit", irulan, "poison-slow", "shield", blocked=["BG-L07-a"]),
                  knife) == Fraction(1, 2)


def test_fremen_l10_c_jamis_two_tries_per_shield_pass():
    jamis = _leader("FREMEN-L10-c")  # base 2
    shield = _side("atreides", FOE, None, "shield")
    assert _death(_side("fremen", jamis, "projectile-contact"), shield, 1) == 1 - Fraction(8, 10) ** 2
    assert _death(_side("fremen", jamis, "projectile-contact", blocked=["FREMEN-L10-c"]), shield, 1) == \
        Fraction(2, 10)


def test_harkonnen_l05_c_iakin_a_fast_poison_aimed_at_him_acts_as_slow():
    iakin = _leader("HARKONNEN-L05-c")  # base 3
    poison = _side("atreides", FOE, "poison-fast", "shield")
    # as a slow poison's victim he still tries to pass the shield with his knife (CARD-SHIELD-2 example 3)
    assert _death(_side("harkonnen", iakin, "projectile-contact"), poison, 1) == Fraction(3, 10)
    assert _death(_side("harkonnen", iakin, "projectile-contact", blocked=["HARKONNEN-L05-c"]), poison, 1) == 0


def _atomics(power_id: str, licensed_against: str, other: str) -> None:
    ghola = _leader(power_id)
    for house, outlawed in ((licensed_against, ()), (other, ("bene-tleilax",))):
        battle = Battle(TERRITORY, house, (_side("bene-tleilax", ghola, "atomics"), _side(house, FOE)))
        (_p, outcome), = resolve_battle(battle)
        assert outcome.explosion == "atomics" and outcome.outlawed == outlawed  # effects unchanged
    battle = Battle(TERRITORY, licensed_against, (_side("bene-tleilax", ghola, "atomics", blocked=[power_id]),
                                                  _side(licensed_against, FOE)))
    assert resolve_battle(battle)[0][1].outlawed == ("bene-tleilax",)


def test_tleilax_l11_e_miles_teg_atomics_against_the_bg_bring_no_sanction():
    _atomics("TLEILAX-L11-e", "bene-gesserit", "atreides")


def test_tleilax_l12_e_chani_atomics_against_the_atreides_bring_no_sanction():
    _atomics("TLEILAX-L12-e", "atreides", "bene-gesserit")


# --------------------------------------------------------------------------------------------- battle cases
def _case(house: str, leader: str, fields: dict) -> dict:
    foe = "emperor" if house != "emperor" else "guild"
    return {"format": "dunenb.battle/1", "territory": TERRITORY, "defender": foe,
            "sides": [{"house": house, "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": leader,
                       **fields},
                      {"house": foe, "tokens": {"regular": 3}, "dial": {"regular": 1},
                       "leader": {"name": "Foe", "strength": 5}, "defense": "snooper"}]}


def test_a_battle_case_expresses_the_extra_slots_and_built_ins_EMPEROR_L01_d_FREMEN_L07_b():
    case = parse_case(_case("emperor", "emperor:hasimir", {"weapon": "poison-fast",
                                                           "extra_attack": "projectile-distance"}))
    assert case.sides[0].plan.extra_attack == "projectile-distance"
    assert [o.sides[1].leader_fate for _p, o in resolve_battle(case.battle)] == ["dead"]
    with pytest.raises(InputError) as error:
        parse_case(_case("emperor", "emperor:hasimir", {"weapon": "poison-fast", "defense": "shield",
                                                        "extra_attack": "projectile-distance"}))
    assert "sides[0].defense" in error.value.message
    case = parse_case(_case("fremen", "fremen:alia", {"extra_attack": "krys", "defense": "shield"}))
    assert case.sides[0].plan.extra_attack == "krys"


def test_the_analyzer_plans_offer_the_extra_slots_and_built_ins_FREMEN_L07_b_TLEILAX_L09_c_EMPEROR_L02_d():
    from dunenb.analysis.battle_odds import plan_matrix, sensible_plans

    case = parse_case(_case("fremen", "fremen:alia", {"hand": ["poison-fast", "shield"]}))
    combos = set(sensible_plans(case, 0).combos)
    alia = case.sides[0].plan.leader
    assert (alia, "poison-fast", "shield", "krys", None) in combos and (alia, None, None) in combos
    matrix = plan_matrix(case)
    assert any("&krys" in label for label in matrix.rows.labels)
    case = parse_case(_case("bene-tleilax", "hwi-noree", {"hand": ["shield", "shield", "snooper"]}))
    hwi = case.sides[0].plan.leader
    combos = set(sensible_plans(case, 0).combos)
    assert {(hwi, None, "shield", None, "shield"), (hwi, None, "snooper", None, "shield")} <= combos
    case = parse_case(_case("emperor", "tyekanik", {"hand": ["shield", "snooper"]}))
    assert {combo[2] for combo in sensible_plans(case, 0).combos} == {None, "snooper"}  # D-20, GAP-91


def test_the_voice_binds_the_extra_slot_cards_not_the_built_ins_EMPEROR_L01_d_FREMEN_L07_b():
    from dunenb.battle.sequence import BattleSequence, VoiceCommand, plan_violations

    seq = BattleSequence("emperor", "bene-gesserit", voices=(VoiceCommand("bene-gesserit", "emperor", "forbid",
                                                                         "projectile"),))
    hasimir = BattlePlan(leader=_leader("EMPEROR-L01-d"), weapon="poison-fast", extra_attack="projectile-distance")
    assert plan_violations(seq, "emperor", hasimir) == ("the Voice forbade projectile",)
    krys = BattlePlan(leader=_leader("FREMEN-L07-b"), weapon="poison-fast", extra_attack="krys")
    assert plan_violations(seq, "emperor", krys) == ()  # G-4: the Voice cannot touch a built-in


def test_dunenb_battle_json_names_the_k8_k9_powers_that_acted_on_each_branch_GUILD_L01_a_FREMEN_L10_c():
    from dunenb.battle.resolve import distribution_json

    edric = _side("guild", _leader("GUILD-L01-a"))
    battle = Battle(TERRITORY, "harkonnen", (edric, _side("harkonnen", FOE, "projectile-distance")))
    rows = distribution_json(resolve_battle(battle))["outcomes"]
    saved = [row for row in rows if row["sides"]["guild"]["leader"] == "alive"]
    assert [row["sides"]["guild"]["powers"] for row in saved] == [["GUILD-L01-a"]]
    assert sum(row["probability"] for row in saved) == pytest.approx(0.4)
    jamis = _side("fremen", _leader("FREMEN-L10-c"), "projectile-contact")
    battle = Battle(TERRITORY, "atreides", (jamis, BattleSide("atreides", Tokens(3), BattlePlan(
        Dial(1), FOE, None, "shield"))))
    by_dice = {}
    for faces, powers in (((5, 1), ["FREMEN-L10-c"]), ((1,), [])):
        fixed = BattleSide("fremen", Tokens(3), jamis.plan, dice=faces)
        (_p, outcome), = resolve_battle(Battle(TERRITORY, "atreides", (fixed, battle.sides[1])))
        by_dice[faces] = (outcome.sides[1].leader_fate, list(outcome.sides[0].powers))
        assert by_dice[faces] == ("dead", powers)
