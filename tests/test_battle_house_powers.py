"""Battle values of House and main-leader powers (issue 10 item 3), applied by the resolver from the battle's
facts, so that games, cases and the analyzer agree: DISPERSION-P2, DISPERSION-M1, DISPERSION-M3, ATREIDES-M1."""

from __future__ import annotations

import copy
import math
from fractions import Fraction

from dunenb.analysis.battle_odds import plan_matrix
from dunenb.battle.case import parse_case
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.powers import leader_values
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.wheel import Dial, Tokens
from dunenb.rules.traitors import leader_of


def side(house, leader, regular=0, weapon=None, defense=None, tokens=10):
    return BattleSide(house, Tokens(tokens), BattlePlan(Dial(regular), leader_of(house, leader), weapon, defense))


def winner(defender, attacker):
    dist = resolve_battle(Battle("arsunt", defender.house, (defender, attacker)))
    assert len({o.winner for _p, o in dist}) == 1
    return dist[0][1]


def test_DISPERSION_M3_M1_P2_dama_attacking_counts_12_against_duncan_2():
    outcome = winner(side("atreides", "duncan-idaho", 4), side("dispersion", "dama", 0))
    # base strengths: 8 against 2 (4 unmarked tokens, no spice) + 6 = 8: a tie the defender would win
    assert [s.total for s in outcome.sides] == [Fraction(2) + 2, Fraction(12)]
    assert outcome.winner == "dispersion"
    assert outcome.sides[0].bounty == 0 and outcome.sides[1].bounty == 0  # nobody died: bounties use base values


def test_DISPERSION_M3_dama_defending_counts_her_strength():
    values = leader_values(("dispersion", "atreides"), (leader_of("dispersion", "dama"),
                                                         leader_of("atreides", "duncan-idaho")), 0)
    assert values == (8, 2)  # M3 only as attacker (G-6); M1 and P2 still on a male opponent


def test_DISPERSION_P2_an_honored_matre_lowers_a_male_leader_by_2_a_fanatic_does_not():
    duncan = leader_of("atreides", "duncan-idaho")
    murbella = leader_of("dispersion", "murbella")
    stilgar = leader_of("dispersion", "stilgar")
    assert leader_values(("atreides", "dispersion"), (duncan, murbella), 0) == (4, 12)  # DISPERSION-L01-b: 12 attacking
    assert leader_values(("atreides", "dispersion"), (duncan, stilgar), 0)[0] == 6  # L701: no House powers
    jessica = leader_of("atreides", "jessica")
    assert leader_values(("atreides", "dispersion"), (jessica, murbella), 0)[0] == 6  # female: untouched
    # the outcome changes: Murbella's 8 + 1 against Duncan's 4 + 4 (6 + 4 would have won)
    outcome = winner(side("atreides", "duncan-idaho", 8), side("dispersion", "murbella", 2))
    assert outcome.winner == "dispersion"


def test_DISPERSION_M1_P2_floor_at_zero():
    yueh = leader_of("atreides", "yueh")  # strength 1
    assert leader_values(("atreides", "dispersion"), (yueh, leader_of("dispersion", "dama")), 0)[0] == 0


def test_ATREIDES_M1_a_slow_poison_does_not_kill_paul_a_fast_one_does():
    slow = winner(side("atreides", "paul", 2), side("harkonnen", "feyd-rautha", 2, weapon="poison-slow"))
    assert slow.sides[0].leader_fate == "alive" and slow.winner == "atreides"  # 1 + 8 against 1 + 6
    fast = winner(side("atreides", "paul", 2), side("harkonnen", "feyd-rautha", 2, weapon="poison-fast"))
    assert fast.sides[0].leader_fate == "dead" and fast.winner == "harkonnen"
    gurney = winner(side("atreides", "gurney", 2), side("harkonnen", "feyd-rautha", 2, weapon="poison-slow"))
    assert gurney.sides[0].leader_fate == "dead"  # a main-leader power: only Paul


CASE = {
    "format": "dunenb.battle/1", "territory": "arsunt", "defender": "atreides",
    "sides": [
        {"house": "atreides", "tokens": {"regular": 4, "elite": 0}, "dial": {"regular": 4, "elite": 0, "spice": 0},
         "leader": "duncan-idaho", "weapon": None, "defense": None},
        {"house": "dispersion", "tokens": {"regular": 4, "elite": 0}, "dial": {"regular": 0, "elite": 0, "spice": 0},
         "leader": "dama", "weapon": None, "defense": None},
    ],
}


def test_DISPERSION_M3_a_battle_case_and_the_analyzer_apply_the_values():
    case = parse_case(copy.deepcopy(CASE))
    dist = resolve_battle(case.battle)
    assert all(o.winner == "dispersion" for _p, o in dist)  # 12 against 2 + 2
    matrix = plan_matrix(case)
    for i in range(0, len(matrix.rows.plans), 5):
        for j in range(0, len(matrix.columns.plans), 5):
            exact = resolve_battle(case.with_plans(matrix.rows.plans[i], matrix.columns.plans[j]))
            win = sum((p for p, o in exact if o.winner == "atreides"), Fraction(0))
            assert math.isclose(matrix.win_first.iat[i, j], float(win), abs_tol=1e-12)
