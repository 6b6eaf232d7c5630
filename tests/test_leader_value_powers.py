"""Issue 11 item 2: the leader value kinds K-1..K-5 in battles (leaders.md LC-6, LC-3/LC-4 conditions).

Each power ID of these kinds gets a battle where it changes the outcome: the scene is one where its condition
holds (found among territories, roles, opponents and dead-leader facts), the dials are the first ones where
the winner with the power differs from the winner with that one entry removed from the leader, and the
outcome lists the power among its side's ``powers``.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from fractions import Fraction

import pytest

from dunenb.battle.case import case_json, parse_case
from dunenb.battle.leader_powers import Scene, holds
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.powers import battle_values
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.roster import HOUSES, Leader, inline_leader, load_roster
from dunenb.battle.wheel import Dial, Tokens
from dunenb.powers.leader_effects import Disarm, WheelModifier

ROSTER = load_roster()
#: Neutral scenes first: a plain mountain, a plain desert, then the named territories and kinds.
TERRITORIES = ("mesa-molle", "bassin-du-bouclier", "arsunt", "sietch-tarb", "gara-kulon", "arrakeen", "carthag",
               "grotte-aux-oiseaux", "faille-rouge", "nord-cielago", "sud-cielago", "pole-nord")
DEAD = (frozenset(), frozenset({"leto-i", "leto-ii"}))


def _power(power_id: str) -> tuple[Leader, object]:
    for leader in ROSTER.leaders:
        for power in leader.powers:
            if power.id == power_id:
                return leader, power
    raise AssertionError(power_id)


def _opponents(holder: Leader) -> list[Leader]:
    mains = [leader for leader in ROSTER.leaders if leader.main and leader.house != holder.house]
    others = [leader for leader in ROSTER.leaders if not leader.main and leader.house != holder.house]
    return [inline_leader("Opponent", 5), *mains, *others]


def _opponent_houses(holder: Leader, opponent: Leader) -> list[str]:
    if opponent.house is not None:
        return [opponent.house]
    return [house for house in HOUSES if house != holder.house]


def _scenes(power_id: str) -> Iterator[tuple[Leader, Leader, str, str, str, frozenset[str]]]:
    """(holder, opponent, opponent House, territory, defender House, holder's dead) where the entry's condition
    holds for the holder (side 0), neutral scenes first."""
    holder, power = _power(power_id)
    needs_opponent = isinstance(power.effect, WheelModifier | Disarm) and power.effect.on == "opponent"
    for territory, defends, dead, opponent in itertools.product(TERRITORIES, (True, False), DEAD,
                                                                _opponents(holder)):
        if needs_opponent and opponent.house is None:
            continue
        for house in _opponent_houses(holder, opponent):
            scene = Scene.of(territory, (holder.house, house), (holder, opponent), defender=0 if defends else 1,
                             dead=(dead, frozenset()))
            if holds(power.effect.when, scene, 0):
                yield holder, opponent, house, territory, holder.house if defends else house, dead


def _battle(holder: Leader, opponent: Leader, house: str, territory: str, defender: str, dead: frozenset[str],
            dials: tuple[int, int]) -> Battle:
    mine = BattleSide(holder.house, Tokens(10), BattlePlan(Dial(dials[0]), holder), dead=dead)
    theirs = BattleSide(house, Tokens(10), BattlePlan(Dial(dials[1]), opponent))
    return Battle(territory, defender, (mine, theirs))


def _changes_the_outcome(power_id: str) -> None:
    """The first scene (of the first 30 where the condition holds) and dials where the power flips the winner
    (an opponent's own built-in weapon may kill the holder first, e.g. Waff's pistol: the next scene is tried)."""
    for holder, opponent, house, territory, defender, dead in itertools.islice(_scenes(power_id), 30):
        without = dataclasses.replace(holder, powers=tuple(p for p in holder.powers if p.id != power_id))
        for dials in itertools.product(range(9), range(9)):
            on = resolve_battle(_battle(holder, opponent, house, territory, defender, dead, dials))
            off = resolve_battle(_battle(without, opponent, house, territory, defender, dead, dials))
            # one sure winner each way (another power's d10 may split the outcomes, e.g. Fiona's K-17
            # regen_dialled roll, but not the winner)
            won_on, won_off = {o.winner for _, o in on}, {o.winner for _, o in off}
            if len(won_on) == len(won_off) == 1 and won_on != won_off:
                assert all(power_id in o.sides[0].powers for _, o in on), ([o.sides[0].powers for _, o in on],
                                                                          power_id)
                assert all(power_id not in o.sides[0].powers for _, o in off)
                return
    raise AssertionError(f"{power_id} changes no outcome")


@pytest.mark.parametrize("power_id", [
    "ATREIDES-L01-b", "ATREIDES-L02-a", "ATREIDES-L05-c", "HARKONNEN-L01-a", "HARKONNEN-L01-d", "HARKONNEN-L02-a",
    "HARKONNEN-L03-a", "HARKONNEN-L04-a", "HARKONNEN-L05-a", "HARKONNEN-L06-a", "HARKONNEN-L07-a", "HARKONNEN-L07-e",
    "HARKONNEN-L08-a", "HARKONNEN-L11-c", "FREMEN-L01-a", "FREMEN-L02-b", "FREMEN-L03-a", "FREMEN-L03-c",
    "FREMEN-L04-a", "FREMEN-L04-c", "FREMEN-L05-b", "FREMEN-L06-d", "FREMEN-L08-a", "FREMEN-L08-c", "FREMEN-L09-a",
    "FREMEN-L09-c", "FREMEN-L10-a", "FREMEN-L10-d", "EMPEROR-L02-b", "EMPEROR-L02-c", "EMPEROR-L05-b",
    "EMPEROR-L06-b", "EMPEROR-L09-a", "EMPEROR-L10-a", "GUILD-L07-b", "GUILD-L07-c", "GUILD-L09-b", "GUILD-L10-a",
    "GUILD-L10-d", "GUILD-L12-c", "DISPERSION-L01-b", "DISPERSION-L02-b", "DISPERSION-L03-b", "DISPERSION-L04-b",
    "DISPERSION-L05-b", "DISPERSION-L06-b", "DISPERSION-L07-b", "DISPERSION-L08-b", "DISPERSION-L09-d",
    "DISPERSION-L10-d", "DISPERSION-L11-d", "DISPERSION-L12-d", "TLEILAX-L05-c", "TLEILAX-L06-c", "TLEILAX-L07-c",
    "TLEILAX-L08-c", "TLEILAX-L09-b",
])
def test_K_1_wheel_value_changes_the_battle(power_id):
    _changes_the_outcome(power_id)


@pytest.mark.parametrize("power_id", [
    "ATREIDES-L10-a", "ATREIDES-L10-b", "FREMEN-L06-c", "EMPEROR-L01-a", "DISPERSION-L01-d", "BG-L02-a", "BG-L03-a",
    "BG-L04-b", "BG-L05-c", "BG-L12-b", "TLEILAX-L10-d", "TLEILAX-L12-c",
])
def test_K_2_wheel_modifier_changes_the_battle(power_id):
    _changes_the_outcome(power_id)


@pytest.mark.parametrize("power_id", ["ATREIDES-L05-b", "FREMEN-L02-d", "BG-L07-b", "BG-L08-a"])
def test_K_3_disarm_changes_the_battle(power_id):
    _changes_the_outcome(power_id)


@pytest.mark.parametrize("power_id", [
    "ATREIDES-L08-c", "HARKONNEN-L02-b", "FREMEN-L01-b", "FREMEN-L02-a", "FREMEN-L03-b", "FREMEN-L04-b",
    "FREMEN-L08-b", "FREMEN-L09-b", "EMPEROR-L02-a", "EMPEROR-L03-a", "EMPEROR-L04-a", "EMPEROR-L05-a",
    "EMPEROR-L06-a", "EMPEROR-L08-b", "EMPEROR-L09-b", "EMPEROR-L10-b", "DISPERSION-L02-c", "DISPERSION-L03-c",
    "TLEILAX-L01-b", "TLEILAX-L02-b", "TLEILAX-L03-b", "TLEILAX-L04-b",
])
def test_K_4_troops_worth_one_changes_the_battle(power_id):
    _changes_the_outcome(power_id)


@pytest.mark.parametrize("power_id", ["BG-L04-c", "TLEILAX-L01-c", "TLEILAX-L02-c", "TLEILAX-L03-c", "TLEILAX-L04-c",
                                      "TLEILAX-L05-b", "TLEILAX-L06-b", "TLEILAX-L07-b", "TLEILAX-L08-b"])
def test_K_5_army_bonus_changes_the_battle(power_id):
    _changes_the_outcome(power_id)


@pytest.mark.parametrize("power_id", ["HARKONNEN-L05-d", "HARKONNEN-L06-b", "HARKONNEN-L08-b"])
def test_K_2_on_vladimir_is_the_minions_bonus_applied_once_GAP_90(power_id):
    """GAP-90: WHEEL_MODIFIER ``on Vladimir`` is HARKONNEN-M3's bonus (powers.json add_per_living), applied once,
    even when the minion does not fight: the minion's death changes Vladimir's battle."""
    minion, power = _power(power_id)
    vladimir = ROSTER.find("Vladimir")
    opponent = inline_leader("Opponent", 5)
    alive = battle_values(("harkonnen", "fremen"), (vladimir, opponent), 0, territory="carthag")[0].leader_value
    dead = battle_values(("harkonnen", "fremen"), (vladimir, opponent), 0, territory="carthag",
                         dead=(frozenset({minion.id}), frozenset()))[0].leader_value
    assert alive == 10 and alive - dead == power.effect.delta
    won = [resolve_battle(Battle("carthag", "harkonnen", (
        BattleSide("harkonnen", Tokens(10), BattlePlan(Dial(0), vladimir), dead=facts),
        BattleSide("fremen", Tokens(10), BattlePlan(Dial(int(2 * (alive - 5))), opponent)))))[0][1].winner
        for facts in (frozenset(), frozenset({minion.id}))]
    assert won == ["harkonnen", "fremen"]


def _value(holder: str, house: str, opponent: Leader | None, territory: str, *, defender: int = 0) -> Fraction:
    leader = ROSTER.find(holder, house=house)
    return battle_values((house, "atreides" if house != "atreides" else "harkonnen"), (leader, opponent),
                         defender, territory=territory)[0].leader_value


def test_leaders_D_21_several_conditional_values_LC_6():
    """D-21's examples: penalties dominate, else the best bonus; DISARM first (LC-6 steps 1-3)."""
    mohiam = ROSTER.main_leader("bene-gesserit")
    feyd = ROSTER.find("Feyd Rautha", house="harkonnen")
    assert battle_values(("harkonnen", "bene-gesserit"), (feyd, mohiam), 0,
                         territory="carthag")[0].leader_value == 3  # H01-a 8 and H01-d 3: 3
    goose = ROSTER.find("Goose", house="bene-tleilax")
    bannerjee = ROSTER.find("Bannerjée", house="fremen")
    assert battle_values(("fremen", "bene-tleilax"), (bannerjee, goose), 0,
                         territory="bassin-du-bouclier")[0].leader_value == 9  # F03-a 9 and F03-c 7 (above 6): 9
    paul = ROSTER.find("Paul")
    jamis = ROSTER.find("Jamis", house="fremen")
    assert battle_values(("fremen", "atreides"), (jamis, paul), 0, territory="sietch-tarb")[0].leader_value == 5
    gurney = ROSTER.find("Gurney", house="guild")
    assert _value("gurney", "guild", None, "arrakeen") == 9 and _value("gurney", "guild", None, "mesa-molle") == 8
    assert gurney.strength not in (8, 9)
    chani = ROSTER.find("Chani", house="fremen")
    assert battle_values(("fremen", "atreides"), (chani, paul), 0, territory="nord-cielago")[0].leader_value == 0


def test_leaders_LC_9_D_14_a_foreign_leader_keeps_his_traits_only():
    """Chani captured and played by the Harkonnen: no TROOPS_WORTH_ONE (FREMEN-L02-a), but her DISARM against
    Paul (FREMEN-L02-d, a trait, LC-10) stays."""
    chani, paul = ROSTER.find("Chani", house="fremen"), ROSTER.find("Paul")
    side = battle_values(("harkonnen", "atreides"), (chani, paul), 0, territory="nord-cielago")[0]
    assert side.disarmed and side.leader_value == 0 and not side.troops_worth_one
    assert side.powers == ("FREMEN-L02-d",)
    stilgar = ROSTER.find("Stilgar", house="fremen")
    assert battle_values(("harkonnen", "atreides"), (stilgar, paul), 0,
                         territory="bassin-du-bouclier")[0].leader_value == 7  # FREMEN-L01-a is a power: off


def test_leaders_LC_11_a_blocked_power_does_not_act_a_trait_does():
    chani, paul = ROSTER.find("Chani", house="fremen"), ROSTER.find("Paul")
    blocked = (frozenset({"FREMEN-L02-a", "FREMEN-L02-d"}), frozenset())
    side = battle_values(("fremen", "atreides"), (chani, paul), 0, territory="arrakeen", blocked=blocked)[0]
    assert side.disarmed and not side.troops_worth_one


def test_K_3_a_disarmed_leaders_attack_goes_back_to_the_hand_FREMEN_L02_d():
    """K-3: Chani against Paul is worth 0 and her attack card is not played (back to her hand at B6), so Paul
    lives; her tokens fight normally (L229)."""
    raw = {"format": "dunenb.battle/1", "territory": "sud-cielago", "defender": "atreides", "sides": [
        {"house": "fremen", "tokens": {"regular": 10}, "dial": {"regular": 4}, "leader": "chani",
         "weapon": "projectile-contact"},
        {"house": "atreides", "tokens": {"regular": 10}, "dial": {"regular": 4}, "leader": "paul"}]}
    (outcome,) = case_json(parse_case(raw))["outcomes"]
    assert outcome["sides"]["atreides"]["leader"] == "alive" and outcome["winner"] == "atreides"
    assert outcome["sides"]["fremen"]["total"] == 4  # 4 tokens worth 1 (FREMEN-L02-a), Chani 0
    assert outcome["sides"]["fremen"]["powers"] == ["FREMEN-L02-d", "FREMEN-L02-a"]
    (_, game_outcome), = [(p, o) for p, o in resolve_battle(parse_case(raw).battle)]
    assert game_outcome.sides[0].cards_lost == ()  # the knife was never on the wheel: it stays in the hand


def test_dunenb_battle_json_lists_the_powers_that_acted_FREMEN_L01_a():
    raw = {"format": "dunenb.battle/1", "territory": "bassin-du-bouclier", "defender": "atreides", "sides": [
        {"house": "fremen", "tokens": {"regular": 10}, "dial": {"regular": 0}, "leader": "stilgar"},
        {"house": "atreides", "tokens": {"regular": 10}, "dial": {"regular": 4}, "leader": "paul"}]}
    (outcome,) = case_json(parse_case(raw))["outcomes"]
    assert outcome["sides"]["fremen"]["powers"] == ["FREMEN-L01-a", "FREMEN-L01-b"]
    assert outcome["sides"]["fremen"]["total"] == 11 and outcome["winner"] == "fremen"  # 11 against 8 + 2
    assert outcome["sides"]["atreides"]["powers"] == []


def test_the_lists_above_are_every_user_of_the_implemented_kinds():
    source = open(__file__, encoding="utf-8").read()
    for leader in ROSTER.leaders:
        for power in leader.powers:
            if power.kind in ("WHEEL_VALUE", "DISARM", "TROOPS_WORTH_ONE", "ARMY_BONUS"):
                assert f'"{power.id}"' in source, power.id
            if power.kind == "WHEEL_MODIFIER" and power.effect.per is None:
                assert f'"{power.id}"' in source, power.id


LEADER_CASE = {
    "format": "dunenb.battle/1", "territory": "mesa-molle", "defender": "bene-tleilax", "sides": [
        {"house": "fremen", "tokens": {"regular": 5, "elite": 1}, "dial": {"regular": 2}, "leader": "stilgar",
         "hand": ["projectile-contact", "shield"], "leaders": ["stilgar", "chani", "otheym"], "spice": 2},
        {"house": "bene-tleilax", "tokens": {"regular": 5}, "dial": {"regular": 2}, "leader": "scytale",
         "hand": ["poison-slow", "snooper"], "leaders": ["scytale", "goose", "torg"], "spice": 2}]}


def test_the_analyzer_applies_leader_powers_as_the_resolver_TLEILAX_L01_c():
    """One code path (issue 11 item 2): sampled plan-matrix cells equal the exact resolution of those plans, with
    K-4 (FREMEN-L01-b, FREMEN-L02-a, TLEILAX-L01-b) and K-5 (TLEILAX-L01-c: Scytale +2 defending in a mountain)
    among the sensible plans."""
    from dunenb.analysis.battle_odds import plan_matrix

    case = parse_case(LEADER_CASE)
    matrix = plan_matrix(case)
    n_rows, n_cols = len(matrix.rows.plans), len(matrix.columns.plans)
    step_rows, step_cols = max(1, n_rows // 9), max(1, n_cols // 9)
    acted = set()
    for i, j in itertools.product(range(0, n_rows, step_rows), range(0, n_cols, step_cols)):
        dist = resolve_battle(case.with_plans(matrix.rows.plans[i], matrix.columns.plans[j]))
        win_a = sum((p for p, o in dist if o.winner == "fremen"), Fraction(0))
        tokens = sum(p * (o.sides[1].tokens_lost.total - o.sides[0].tokens_lost.total) for p, o in dist)
        assert abs(matrix.win_first.iat[i, j] - float(win_a)) < 1e-12
        assert abs(matrix.tokens.iat[i, j] - float(tokens)) < 1e-12
        acted |= {power for _, o in dist for side in o.sides for power in side.powers}
    assert {"TLEILAX-L01-c", "TLEILAX-L01-b", "FREMEN-L01-b"} <= acted


def test_leaders_LC_3_the_blasted_shield_wall_is_a_desert_FREMEN_L01_a():
    """LC-3: the Shield Wall counts as a desert once blasted (GAP-30); the case field ``shield_wall_standing``."""
    raw = {"format": "dunenb.battle/1", "territory": "bouclier", "defender": "atreides", "sides": [
        {"house": "fremen", "tokens": {"regular": 10}, "dial": {"regular": 0}, "leader": "stilgar"},
        {"house": "atreides", "tokens": {"regular": 10}, "dial": {"regular": 4}, "leader": "paul"}]}
    (standing,) = case_json(parse_case(raw))["outcomes"]
    assert standing["sides"]["fremen"]["total"] == 7 and standing["winner"] == "atreides"
    (blasted,) = case_json(parse_case({**raw, "shield_wall_standing": False}))["outcomes"]
    assert blasted["sides"]["fremen"]["total"] == 11 and blasted["winner"] == "fremen"
    assert "FREMEN-L01-a" in blasted["sides"]["fremen"]["powers"]
    with pytest.raises(Exception, match="shield_wall_standing"):
        parse_case({**raw, "shield_wall_standing": "no"})
