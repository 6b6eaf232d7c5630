"""Exact analysis: outcome tables, sensible plans, plan matrices (checked against resolution) and the LP."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from dunenb.analysis.battle_odds import (
    optimal_plans,
    outcome_table,
    plan_matrix,
    sensible_plans,
    win_probabilities,
)
from dunenb.analysis.equilibrium import solve_zero_sum
from dunenb.battle.case import load_example_case
from dunenb.battle.resolve import resolve_battle
from dunenb.errors import InputError


def test_lp_matching_pennies():
    eq = solve_zero_sum([[1, -1], [-1, 1]])
    assert math.isclose(eq.value, 0.0, abs_tol=1e-9)
    assert np.allclose(eq.row, [0.5, 0.5]) and np.allclose(eq.column, [0.5, 0.5])


def test_lp_rock_paper_scissors():
    eq = solve_zero_sum([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert math.isclose(eq.value, 0.0, abs_tol=1e-9)
    assert np.allclose(eq.row, [1 / 3] * 3) and np.allclose(eq.column, [1 / 3] * 3)


def test_lp_known_asymmetric_game_and_saddle_point():
    # [[2, -1], [-1, 1]]: row plays (2/5, 3/5), value 1/5
    eq = solve_zero_sum([[2, -1], [-1, 1]])
    assert math.isclose(eq.value, 0.2, abs_tol=1e-9)
    assert np.allclose(eq.row, [0.4, 0.6]) and np.allclose(eq.column, [0.4, 0.6])
    saddle = solve_zero_sum([[3, 5], [1, 2]])
    assert math.isclose(saddle.value, 3.0) and np.allclose(saddle.row, [1, 0]) and np.allclose(saddle.column, [1, 0])


def test_lp_rejects_bad_matrix():
    with pytest.raises(InputError):
        solve_zero_sum([[np.nan]])


def test_outcome_table_and_win_probabilities():
    dist = resolve_battle(load_example_case("shield_example_4").battle)
    table = outcome_table(dist)
    assert math.isclose(table["probability"].sum(), 1.0)
    assert win_probabilities(dist) == {"atreides": 0.8, "harkonnen": 0.2}


def test_sensible_plans_cover_leaders_cards_and_undominated_dials():
    case = load_example_case("analysis_arrakeen")
    plans = sensible_plans(case, "atreides")
    leaders = {combo[0].id for combo in plans.combos}
    assert leaders == {"gurney", "duncan-idaho", "tufir"}
    weapons = {combo[1] for combo in plans.combos}
    assert weapons == {None, "projectile-contact"}  # the worthless card does what an empty slot does
    assert {combo[2] for combo in plans.combos} == {None, "shield", "snooper"}
    assert all(dial.spice <= 3 for dial in plans.dials)
    assert len(plans.plans) == len(plans.combos) * len(plans.dials) == len(set(plans.labels))


def test_plan_matrix_cells_agree_with_exact_resolution():
    case = load_example_case("analysis_arrakeen")
    matrix = plan_matrix(case)
    rng = np.random.default_rng(3)
    rows = rng.choice(len(matrix.rows.plans), size=12, replace=False)
    cols = rng.choice(len(matrix.columns.plans), size=12, replace=False)
    first, second = case.houses
    for i, j in itertools.product(rows[:6], cols[:6]):
        plan_a, plan_b = matrix.rows.plans[i], matrix.columns.plans[j]
        dist = resolve_battle(case.with_plans(plan_a, plan_b))
        win_a = sum((p for p, o in dist if o.winner == first), Fraction(0))
        win_b = sum((p for p, o in dist if o.winner == second), Fraction(0))
        spice = sum(p * ((o.sides[0].bounty - o.sides[0].spice_lost) - (o.sides[1].bounty - o.sides[1].spice_lost))
                    for p, o in dist)
        tokens = sum(p * (o.sides[1].tokens_lost.total - o.sides[0].tokens_lost.total) for p, o in dist)
        assert math.isclose(matrix.win_first.iat[i, j], float(win_a), abs_tol=1e-12)
        assert math.isclose(matrix.win_second.iat[i, j], float(win_b), abs_tol=1e-12)
        assert math.isclose(matrix.spice.iat[i, j], float(spice), abs_tol=1e-12)
        assert math.isclose(matrix.tokens.iat[i, j], float(tokens), abs_tol=1e-12)


@pytest.mark.parametrize("name", ["traitor_idaho", "traitor_against_traitor", "lasgun_shield", "shield_example_3"])
def test_plan_matrix_matches_resolution_on_special_cases(name):
    case = load_example_case(name)
    matrix = plan_matrix(case, allow_atomics=True)
    for i, j in itertools.product(range(0, len(matrix.rows.plans), 3), range(0, len(matrix.columns.plans), 3)):
        dist = resolve_battle(case.with_plans(matrix.rows.plans[i], matrix.columns.plans[j]))
        win_a = sum((p for p, o in dist if o.winner == case.houses[0]), Fraction(0))
        tokens = sum(p * (o.sides[1].tokens_lost.total - o.sides[0].tokens_lost.total) for p, o in dist)
        spice = sum(p * ((o.sides[0].bounty - o.sides[0].spice_lost) - (o.sides[1].bounty - o.sides[1].spice_lost))
                    for p, o in dist)
        assert math.isclose(matrix.win_first.iat[i, j], float(win_a), abs_tol=1e-12)
        assert math.isclose(matrix.tokens.iat[i, j], float(tokens), abs_tol=1e-12)
        assert math.isclose(matrix.spice.iat[i, j], float(spice), abs_tol=1e-12)


def test_win_probabilities_are_probabilities():
    matrix = plan_matrix(load_example_case("analysis_arrakeen"))
    total = matrix.win_first.to_numpy() + matrix.win_second.to_numpy()
    assert (total <= 1 + 1e-12).all() and (matrix.win_first.to_numpy() >= 0).all()


def test_optimal_plans_are_mixed_strategies_and_value_is_consistent():
    case = load_example_case("analysis_arrakeen")
    matrix = plan_matrix(case)
    eq = optimal_plans(case, matrix=matrix)
    assert math.isclose(eq.first["probability"].sum(), 1.0) and math.isclose(eq.second["probability"].sum(), 1.0)
    assert -1 <= eq.value <= 1
    assert math.isclose(eq.value, eq.first_win_probability - eq.second_win_probability, abs_tol=1e-6)
    # no pure plan of the first side does better against the second side's optimal mix
    payoff = matrix.payoff("win").to_numpy()
    column = np.zeros(payoff.shape[1])
    for label, p in eq.second["probability"].items():
        column[list(matrix.columns.labels).index(label)] = p
    assert (payoff @ column).max() <= eq.value + 1e-6


def test_traitor_knowledge_is_part_of_the_case():
    case = load_example_case("analysis_arrakeen")
    matrix = plan_matrix(case)
    duncan_rows = [i for i, label in enumerate(matrix.rows.labels) if label.startswith("duncan-idaho")]
    # the Harkonnen hold Duncan's slip: every plan with Duncan loses
    assert np.allclose(matrix.win_first.to_numpy()[duncan_rows], 0.0)
    with pytest.raises(InputError):
        matrix.payoff("glory")
