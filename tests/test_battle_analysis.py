"""Exact analysis: outcome tables, sensible plans, plan matrices (checked against resolution) and the LP."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from dunenb.analysis.battle_odds import (
    _block,
    _dial_arrays,
    case_outcomes_of,
    optimal_plans,
    outcome_table,
    plan_matrix,
    sensible_plans,
    win_probabilities,
)
from dunenb.analysis.equilibrium import reduce_game, solve_zero_sum
from dunenb.battle.case import load_example_case
from dunenb.battle.resolve import fates_distribution, resolve_battle
from dunenb.battle.wheel import Dial
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


# ------------------------------------------------------------------ issue 14: the fast path against the plain one
def _reference_max_min(payoff: np.ndarray) -> tuple[np.ndarray, float]:
    """The pre-issue-14 solver, kept as a reference: the row player's LP on the whole, unreduced matrix."""
    from scipy.optimize import linprog

    rows, columns = payoff.shape
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0
    upper = np.hstack([-payoff.T, np.ones((columns, 1))])
    equality = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    result = linprog(objective, A_ub=upper, b_ub=np.zeros(columns), A_eq=equality, b_eq=[1.0],
                     bounds=[(0.0, None)] * rows + [(None, None)], method="highs")
    assert result.success
    mix = np.clip(result.x[:rows], 0.0, None)
    return mix / mix.sum(), float(result.x[-1])


def _reference_value(payoff: np.ndarray) -> float:
    """Two LPs on the whole matrix (one per side), as before issue 14; they must agree."""
    _, value = _reference_max_min(payoff)
    _, negated = _reference_max_min(-payoff.T)
    assert math.isclose(value, -negated, abs_tol=1e-7)
    return value


def _reference_matrix(case, rows, columns) -> list[np.ndarray]:
    """The pre-issue-14 matrix build: every (combo, combo) block resolved anew, four full arrays."""
    arrays = (_dial_arrays(rows.dials), _dial_arrays(columns.dials))
    totals = (case.sides[0].side.tokens.total, case.sides[1].side.tokens.total)
    defender_first = case.defender == case.houses[0]
    n_a, n_b = len(rows.dials), len(columns.dials)
    results = [np.zeros((len(rows.combos) * n_a, len(columns.combos) * n_b)) for _ in range(4)]
    for (i, combo_a), (j, combo_b) in itertools.product(enumerate(rows.combos), enumerate(columns.combos)):
        battle = case.with_plans(rows.plan(Dial(), combo_a), columns.plan(Dial(), combo_b))
        block = [np.zeros((n_a, n_b)) for _ in range(4)]
        for probability, fates in fates_distribution(battle):
            sides = (case.sides[0].side, case.sides[1].side)  # the case's battle facts, as plan_matrix passes them
            parts = _block(fates, float(probability), (combo_a[0], combo_b[0]), arrays, totals, defender_first,
                           case.houses, dead=(sides[0].dead, sides[1].dead), blocked=(sides[0].blocked,
                                                                                     sides[1].blocked),
                           territory=case.territory, shield_wall_standing=case.shield_wall_standing,
                           voices=(sides[0].voices_against, sides[1].voices_against))
            for total, part in zip(block, parts, strict=True):
                total += part
        for result, part in zip(results, block, strict=True):
            result[i * n_a:(i + 1) * n_a, j * n_b:(j + 1) * n_b] = part
    return results


@pytest.mark.parametrize("name", ["analysis_arrakeen", "traitor_idaho", "traitor_against_traitor", "lasgun_shield"])
def test_issue14_block_cached_matrix_is_bitwise_the_plain_build(name):
    case = load_example_case(name)
    matrix = plan_matrix(case, allow_atomics=True)
    reference = _reference_matrix(case, matrix.rows, matrix.columns)
    assert len(matrix.blocks) < matrix.grid.size or matrix.grid.size <= 4  # equal blocks are shared
    for part, expected in zip(("win_first", "win_second", "spice", "tokens"), reference, strict=True):
        assert np.array_equal(matrix.array(part), expected)
        assert np.array_equal(getattr(matrix, part).to_numpy(), expected)
        assert list(getattr(matrix, part).index) == list(matrix.rows.labels)
    assert np.array_equal(matrix.payoff_array("win"), reference[0] - reference[1])
    assert np.array_equal(matrix.payoff("win").to_numpy(), reference[0] - reference[1])


@pytest.mark.parametrize("metric", ["win", "spice", "tokens"])
def test_issue14_optimal_value_equals_two_lps_on_the_whole_matrix(metric):
    case = load_example_case("analysis_arrakeen")
    matrix = plan_matrix(case)
    eq = optimal_plans(case, metric=metric, matrix=matrix)
    payoff = matrix.payoff(metric).to_numpy()
    assert math.isclose(eq.value, _reference_value(payoff), abs_tol=1e-7)
    # both mixes are optimal in the whole game, the second side's read from the dual
    first = np.array([eq.first["probability"].get(label, 0.0) for label in matrix.rows.labels])
    second = np.array([eq.second["probability"].get(label, 0.0) for label in matrix.columns.labels])
    assert (first @ payoff).min() >= eq.value - 1e-7 and (payoff @ second).max() <= eq.value + 1e-7
    win_first = float(first @ matrix.win_first.to_numpy() @ second)
    assert math.isclose(eq.first_win_probability, win_first, abs_tol=1e-9)


def _random_game(rng: np.random.Generator, rows: int, columns: int) -> np.ndarray:
    """A small integer game padded with duplicate and dominated rows and columns (ties are common)."""
    core = rng.integers(-3, 4, size=(rows, columns)).astype(float)
    padded = np.vstack([core, core[rng.integers(0, rows, 3)], core[rng.integers(0, rows, 3)] - 1])
    return np.hstack([padded, padded[:, rng.integers(0, columns, 3)],
                      padded[:, rng.integers(0, columns, 2)] + rng.integers(0, 2, (len(padded), 2))])


def test_issue14_reduction_is_exact_on_random_games():
    rng = np.random.default_rng(14)
    for _ in range(40):
        game = _random_game(rng, int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        rows, columns = reduce_game(game)
        kept = game[np.ix_(rows, columns)]
        # only weakly dominated (or duplicate) plans are removed: each is, on what is left, at most a kept row /
        # at least a kept column; no kept plan is dominated by another kept one
        for i in set(range(len(game))) - set(rows):
            assert (kept >= game[i, columns]).all(axis=1).any()
        for j in set(range(game.shape[1])) - set(columns):
            assert (kept <= game[rows, j][:, None]).all(axis=0).any()
        for a, b in itertools.permutations(range(len(rows)), 2):
            assert not (kept[a] >= kept[b]).all()
        for a, b in itertools.permutations(range(len(columns)), 2):
            assert not (kept[:, a] <= kept[:, b]).all()
        eq = solve_zero_sum(game)
        assert math.isclose(eq.value, _reference_value(game), abs_tol=1e-7)
        assert (eq.row @ game).min() >= eq.value - 1e-7 and (game @ eq.column).max() <= eq.value + 1e-7


def test_issue14_unique_equilibrium_keeps_its_support():
    # [[2, -1], [-1, 1]] has the unique equilibrium (2/5, 3/5) x (2/5, 3/5); pad it with a duplicate row, a
    # dominated row, a duplicate column and a dominated column: the support and the mixes stay.
    game = np.array([[2.0, -1.0, -1.0, 3.0], [-1.0, 1.0, 1.0, 1.0], [2.0, -1.0, -1.0, 3.0], [-2.0, -1.0, -1.0, 0.0]])
    eq = solve_zero_sum(game)
    assert math.isclose(eq.value, 0.2, abs_tol=1e-9)
    assert np.allclose(eq.row, [0.4, 0.6, 0, 0]) and np.allclose(eq.column, [0.4, 0.6, 0, 0])
    reference, _ = _reference_max_min(game[[0, 1, 3]][:, [0, 1, 3]])
    assert np.allclose(reference, [0.4, 0.6, 0])


def test_issue14_leader_names_are_folded_once():
    from dunenb.battle.resolve import _fates_distribution
    from dunenb.battle.roster import _names

    case = load_example_case("analysis_arrakeen")
    _fates_distribution.cache_clear()
    _names.cache_clear()
    plan_matrix(case)
    names = _names.cache_info()
    # a few leaders, each one's names folded once however many chance leaves ask them (the traitor checks)
    assert names.misses <= 10 < names.hits


# ---- leaders.md S-4 (EMPEROR-L03-c Burseg, GAP-133) and K-24 (DISPERSION-L02-d, GAP-134) in the analysis ----
def _cells_agree(case, matrix):
    """Every matrix cell equals the exact resolution of its two plans (the resolver's outcome)."""
    for i, j in itertools.product(range(len(matrix.rows.plans)), range(len(matrix.columns.plans))):
        dist = resolve_battle(case.with_plans(matrix.rows.plans[i], matrix.columns.plans[j]))
        win = [sum((p for p, o in dist if o.winner == house), Fraction(0)) for house in case.houses]
        tokens = sum(p * (o.sides[1].tokens_lost.total - o.sides[0].tokens_lost.total) for p, o in dist)
        spice = sum(p * ((o.sides[0].bounty - o.sides[0].spice_lost) - (o.sides[1].bounty - o.sides[1].spice_lost))
                    for p, o in dist)
        for part, value in (("win_first", win[0]), ("win_second", win[1]), ("tokens", tokens), ("spice", spice)):
            assert math.isclose(matrix.array(part)[i, j], float(value), abs_tol=1e-12), (part, i, j)


def _burseg_case(territory):
    from dunenb.battle.case import parse_case

    return parse_case({
        "format": "dunenb.battle/1", "territory": territory, "defender": "emperor",
        "sides": [{"house": "emperor", "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": "burseg",
                   "hand": ["shield"], "leaders": ["burseg"], "spice": 0},
                  {"house": "fremen", "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": "otheym",
                   "hand": ["lasgun"], "leaders": ["otheym"], "spice": 0}]})


def test_emperor_l03_c_analysis_burseg_wins_the_explosion_in_an_open_territory():
    """S-4 (GAP-133): Burseg's shield against a lasgun in an open territory: the resolver gives the Emperor the win,
    his dialled tokens lost only and Otheym's bounty; the plan matrix cell says the same (before: nobody won),
    and in a city the explosion still has no winner."""
    case = _burseg_case("erg-mineur")
    matrix = plan_matrix(case)
    _cells_agree(case, matrix)
    rows = [i for i, plan in enumerate(matrix.rows.plans) if plan.defense == "shield"]
    cols = [j for j, plan in enumerate(matrix.columns.plans) if plan.weapon == "lasgun"]
    dist = resolve_battle(case.with_plans(matrix.rows.plans[rows[0]], matrix.columns.plans[cols[0]]))
    assert [(o.winner, o.explosion, o.sides[0].powers) for _p, o in dist] == [
        ("emperor", "lasgun-shield", ("EMPEROR-L03-c",))]
    assert all(matrix.win_first.iat[i, j] == 1.0 for i in rows for j in cols)
    city = _burseg_case("arrakeen")
    in_city = plan_matrix(city)
    _cells_agree(city, in_city)
    assert all(in_city.win_first.iat[i, j] == 0.0 == in_city.win_second.iat[i, j] for i in rows for j in cols)


def _weapon_case(passed):
    from dunenb.battle.case import parse_case

    extra = {"passed": {"DISPERSION-L02-c": passed}} if passed else {}
    return parse_case({
        "format": "dunenb.battle/1", "territory": "mesa-molle", "defender": "atreides",
        "sides": [{"house": "atreides", "tokens": {"regular": 8}, "dial": {"regular": 1}, "leader": "paul",
                   "hand": ["shield"], "leaders": ["paul"], "spice": 0},
                  {"house": "dispersion", "tokens": {"regular": 2, "elite": 3}, "dial": {"elite": 1},
                   "leader": "hellica", "hand": [], "leaders": ["hellica"], "spice": 0, "dead": ["logno"], **extra}]})


def test_dispersion_l02_d_gap_146_analysis_the_heir_holding_logno_s_weapon_counts_every_token_1():
    """K-24 D02-d (GAP-134, GAP-146): the case states that Logno's Weapon (DISPERSION-L02-c, TROOPS_WORTH_ONE)
    passed to Hellica; the resolver lists it among her side's powers, and the plan matrix, built from the same
    leaders, counts every Dispersion token 1 (before, the analysis read the roster, where Logno holds it)."""
    case, plain = _weapon_case("hellica"), _weapon_case(None)
    assert "DISPERSION-L02-c" in {power.id for power in case.sides[1].plan.leader.powers}
    assert "DISPERSION-L02-c" in case_outcomes_of(case)[0][1].sides[1].powers
    matrix, before = plan_matrix(case), plan_matrix(plain)
    _cells_agree(case, matrix)
    assert matrix.shape == before.shape
    assert (matrix.array("win_second") > before.array("win_second")).any()
    assert not (matrix.array("win_second") < before.array("win_second")).any()
    # Paul's shield stops the karate (DISPERSION-P1); only the Weapon's full tokens turn the battle
    assert (optimal_plans(plain).value, optimal_plans(case).value) == pytest.approx((1.0, -1.0))


def test_fremen_l05_c_analysis_the_exchange_voids_every_cell():
    """K-18 leader_exchange (FREMEN-L05-c, D-29): Siona against a captured Léto II the Fremen cannot call: every
    plan pair is void in the resolver, and the matrix reads the same (no win, no loss, no spice)."""
    from dunenb.battle.case import parse_case

    case = parse_case({
        "format": "dunenb.battle/1", "territory": "mesa-molle", "defender": "fremen",
        "sides": [{"house": "fremen", "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": "siona",
                   "hand": ["poison-fast"], "leaders": ["siona"], "spice": 1},
                  {"house": "harkonnen", "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": "fremen:leto-ii",
                   "captured": True, "traitors": ["fremen:leto-ii"], "hand": ["lasgun"],
                   "leaders": ["fremen:leto-ii"], "spice": 1}]})
    matrix = plan_matrix(case)
    _cells_agree(case, matrix)
    assert not any(matrix.array(part).any() for part in ("win_first", "win_second", "spice", "tokens"))
