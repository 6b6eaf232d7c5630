"""Issue 14 part 1 with the leader powers on: the faster plan matrix and equilibrium give bitwise the values of the
implementation before it (commit bcdbb5e), on battles whose leaders have powers: conditions (LC-2..LC-4), extra
slots and built-ins (K-6, K-7), worn shields (K-8), card rules (K-9), immunities (K-10), KILL (K-14), bounties
(K-15), blasts (K-17), restrictions (K-21), traitors.

The pins (:data:`PINS`) were computed by that implementation: per case the SHA-256 of the four plan-matrix arrays,
and per metric the equilibrium value (``float.hex``). The value of a zero-sum game is unique; its optimal mixed
plans need not be (ties), and which optimum the LP solver returns changes with its version (scipy 1.17's HiGHS
returns other optima than the one pinned before for three of these cases, same values): so the plans are not
pinned, each side's is checked to be optimal, guaranteeing the value against every plan of the other side, and
the win probabilities to be those of the two plans. A rules change that moves the pins on purpose re-pins them
with ``python tests/test_battle_analysis_powers.py`` (it prints the table).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dunenb.analysis import equilibrium
from dunenb.analysis.battle_odds import BattleEquilibrium, PlanMatrix, _block, _dial_arrays, optimal_plans, plan_matrix
from dunenb.battle.case import BattleCase, parse_case
from dunenb.battle.resolve import fates_distribution
from dunenb.battle.wheel import Dial

GOAL = Path(__file__).resolve().parents[1] / "benchmarks" / "goal_battle.json"


def _side(house: str, tokens: tuple[int, int], leader: str, traitors: list[str], hand: list[str],
          leaders: list[str], spice: int) -> dict[str, Any]:
    return {"house": house, "tokens": {"regular": tokens[0], "elite": tokens[1]},
            "dial": {"regular": 2, "elite": 0, "spice": 0}, "leader": leader, "traitors": traitors, "hand": hand,
            "leaders": leaders, "spice": spice}


def _case(territory: str, defender: str, *sides: dict[str, Any]) -> dict[str, Any]:
    return {"format": "dunenb.battle/1", "territory": territory, "defender": defender, "sides": list(sides)}


#: Battle cases with the leader powers on.
CASES: dict[str, dict[str, Any]] = {
    # the benchmark's leaders and cards with a smaller army: Gurney's and Duncan's conditions, Piter's two
    # attacks, Feyd's Kindjal beside his card, Iakin's fast-as-slow rule and slow-poison immunity, Alia, Jessica
    "goal_small": _case(
        "arrakeen", "atreides",
        _side("atreides", (4, 0), "gurney", ["piter"], ["projectile-contact", "poison-fast", "shield", "snooper"],
              ["gurney", "duncan-idaho", "tufir", "alia", "jessica"], 3),
        _side("harkonnen", (4, 0), "feyd-rautha", ["Duncan Idaho"],
              ["poison-fast", "projectile-distance", "shield", "snooper"],
              ["feyd-rautha", "piter", "glossu-rabban", "zebataleh", "iakin-nefud"], 3)),
    # worn shields rolled (Edric, Tolric), Tolric's blast, Hasimir's two distinct attacks; Stilgar's desert value
    # and tokens worth one, Chani, Otheym, Korba, Jessica's poison immunity
    "guild_fremen_desert": _case(
        "bassin-du-bouclier", "fremen",
        _side("guild", (4, 0), "edric", ["otheym"], ["projectile-contact", "projectile-distance", "poison-slow",
                                                     "shield"], ["edric", "tolric", "hasimir"], 2),
        _side("fremen", (3, 1), "stilgar", ["tolric"], ["projectile-contact", "poison-fast", "snooper", "shield"],
              ["stilgar", "chani", "otheym", "korba", "jessica"], 2)),
    # Shaddam, Hasimir, Tyekanik's worn shield and sietch value, Caid, Levenbrech; the Bene Gesserit's Irulan (slow
    # poison acts as fast; disarmed against Shaddam), Bellonda's army bonus, Margot, Murbella's karate, Darwi
    "emperor_bg_sietch": _case(
        "sietch-tarb", "bene-gesserit",
        _side("emperor", (3, 1), "tyekanik", ["margot"], ["lasgun", "poison-slow", "projectile-contact", "snooper"],
              ["shaddam-iv", "hasimir", "levenbrech", "tyekanik", "caid"], 2),
        _side("bene-gesserit", (4, 0), "bellonda", ["caid"],
              ["poison-slow", "projectile-distance", "shield", "snooper"],
              ["bellonda", "irulan", "margot", "murbella", "darwi"], 2)),
    # the Tleilaxu defend a mountain (army bonuses), Waff's built-in projectile, Hwi Noree's two defences, Goose,
    # Chani ghola; Paul, Leto I's worn shield, Yueh's slow poison in his slot and his KILL, Ghanima, Duncan
    "atreides_tleilax_mountain": _case(
        "faille-rouge", "bene-tleilax",
        _side("atreides", (4, 0), "leto-i", ["hwi-noree"], ["projectile-contact", "poison-fast", "shield", "snooper"],
              ["paul", "leto-i", "yueh", "ghanima", "duncan-idaho"], 2),
        _side("bene-tleilax", (4, 0), "scytale", ["yueh"], ["projectile-distance", "poison-slow", "shield", "snooper"],
              ["tylwyth-waff", "scytale", "hwi-noree", "goose", "chani-ghola"], 2)),
}

#: name -> (matrix shape, matrix digest, {metric: value.hex()}), from commit bcdbb5e.
PINS: dict[str, tuple[tuple[int, int], str, dict[str, str]]] = {
    'goal_small': ((686, 770), 'd047d9fb5a187fab82ffde3f086c63ce90eb91a23f1acd0e7d5169b25191b582', {
        'win': '0x0.0p+0',
        'spice': '-0x1.0ba2e8ba2e8b8p+1',
        'tokens': '-0x1.f2df2df2df2dap-2',
    }),
    'guild_fremen_desert': ((312, 540), 'bee0a04f6c9a5fd941c0ce9be1a60e58772d7ac84ce76ad966e02a6556ac9518', {
        'win': '-0x1.0000000000000p+0',
        'spice': '-0x1.3d410e5ceff28p+1',
        'tokens': '-0x1.0000000000000p+2',
    }),
    'emperor_bg_sietch': ((516, 576), '96f66312e752e4d17842df0740cd76e04c2e9138fd535801ab5b13c49df9ac3e', {
        'win': '0x1.a0be82fa0be83p-2',
        'spice': '0x1.62aaaaaaaaaabp+0',
        'tokens': '0x1.7edc6a841fbc2p-1',
    }),
    'atreides_tleilax_mountain': ((504, 552), 'cd7b2670cc732de938666630a6af65a344d01c5a6c76be13b90ef460d54a0d70', {
        'win': '0x1.5555555555556p-1',
        'spice': '0x1.89d89d89d89d8p+0',
        'tokens': '0x1.0000000000000p+1',
    }),
    'goal': ((3234, 3630), '0f43d8a2d1f0582fc9c84ae674d98ea6e59c2420b86b54f91b51c0a9f42b4211', {
        'win': '0x0.0p+0',
        'spice': '-0x1.0ba2e8ba2e8b8p+1',
        'tokens': '-0x1.5f15f15f15f15p-2',
    }),
}

METRICS = ("win", "spice", "tokens")


def load(name: str) -> BattleCase:
    """A case of :data:`CASES`, or ``goal``: the benchmark's goal-size battle."""
    if name == "goal":
        return parse_case(json.loads(GOAL.read_text(encoding="utf-8")))
    return parse_case(CASES[name])


def matrix_digest(matrix: PlanMatrix) -> str:
    digest = hashlib.sha256()
    for part in ("win_first", "win_second", "spice", "tokens"):
        digest.update(matrix.array(part).tobytes())
    return digest.hexdigest()


def _mix(labels: tuple[str, ...], support: tuple[tuple[str, float], ...]) -> np.ndarray:
    """A side's support as a probability vector over its plans."""
    index = {label: i for i, label in enumerate(labels)}
    mix = np.zeros(len(labels))
    for label, probability in support:
        mix[index[label]] = probability
    return mix


def assert_optimal(matrix: PlanMatrix, eq: BattleEquilibrium, tolerance: float = 1e-7) -> None:
    """Both mixed plans are optimal for the metric: each guarantees the value against every plan of the other
    side (up to the LP tolerance), and the win probabilities are those of the two plans played together."""
    payoff = matrix.payoff_array(eq.metric)
    first, second = _mix(matrix.rows.labels, eq.first_plans), _mix(matrix.columns.labels, eq.second_plans)
    for mix in (first, second):
        assert (mix >= 0).all() and abs(mix.sum() - 1.0) < 1e-9
    assert (first @ payoff).min() >= eq.value - tolerance  # the first side gets at least the value
    assert (payoff @ second).max() <= eq.value + tolerance  # the second side concedes at most the value
    assert eq.first_win_probability == pytest.approx(first @ matrix.array("win_first") @ second, abs=1e-9)
    assert eq.second_win_probability == pytest.approx(first @ matrix.array("win_second") @ second, abs=1e-9)


def pins_of(name: str, *, check: bool = False) -> tuple[tuple[int, int], str, dict[str, str]]:
    """Shape and digest of the plan matrix and the value of each metric (``check``: the plans are optimal)."""
    case = load(name)
    matrix = plan_matrix(case)
    found = {}
    for metric in METRICS:
        eq = optimal_plans(case, metric=metric, matrix=matrix)
        if check:
            assert_optimal(matrix, eq)
        found[metric] = eq.value.hex()
    return matrix.shape, matrix_digest(matrix), found


def print_pins() -> None:
    """Print :data:`PINS` as computed by the code on the path (to re-pin after a deliberate rules change)."""
    print("PINS = {")
    for name in (*CASES, "goal"):
        shape, digest, found = pins_of(name)
        print(f"    {name!r}: ({shape!r}, {digest!r}, {{")
        for metric, pin in found.items():
            print(f"        {metric!r}: {pin!r},")
        print("    }),")
    print("}")


@pytest.mark.parametrize("name", [*CASES, "goal"])
def test_issue14_powers_on_matrix_and_equilibria_are_the_previous_ones(name):
    shape, digest, found = PINS[name]
    assert pins_of(name, check=True) == (shape, digest, found)


def _plain_matrix(case: BattleCase, matrix: PlanMatrix) -> list[np.ndarray]:
    """The plain build: every (combo, combo) cell resolved through ``case.with_plans`` and ``_block``."""
    rows, columns = matrix.rows, matrix.columns
    arrays = (_dial_arrays(rows.dials), _dial_arrays(columns.dials))
    totals = (case.sides[0].side.tokens.total, case.sides[1].side.tokens.total)
    sides = (case.sides[0].side, case.sides[1].side)
    n_a, n_b = len(rows.dials), len(columns.dials)
    results = [np.zeros(matrix.shape) for _ in range(4)]
    for (i, combo_a), (j, combo_b) in itertools.product(enumerate(rows.combos), enumerate(columns.combos)):
        block = [np.zeros((n_a, n_b)) for _ in range(4)]
        for probability, fates in fates_distribution(case.with_plans(rows.plan(Dial(), combo_a),
                                                                     columns.plan(Dial(), combo_b))):
            parts = _block(fates, float(probability), (combo_a[0], combo_b[0]), arrays, totals,
                           case.defender == case.houses[0], case.houses, dead=(sides[0].dead, sides[1].dead),
                           blocked=(sides[0].blocked, sides[1].blocked), territory=case.territory,
                           shield_wall_standing=case.shield_wall_standing,
                           voices=(sides[0].voices_against, sides[1].voices_against))
            for total, part in zip(block, parts, strict=True):
                total += part
        for result, part in zip(results, block, strict=True):
            result[i * n_a:(i + 1) * n_a, j * n_b:(j + 1) * n_b] = part
    return results


@pytest.mark.parametrize("name", list(CASES))
def test_issue14_powers_on_matrix_is_bitwise_the_plain_build(name):
    case = load(name)
    matrix = plan_matrix(case)
    for part, expected in zip(("win_first", "win_second", "spice", "tokens"), _plain_matrix(case, matrix),
                              strict=True):
        assert np.array_equal(matrix.array(part), expected)
    assert np.array_equal(matrix.payoff_array("win"), matrix.array("win_first") - matrix.array("win_second"))


def _previous_undominated(vectors: np.ndarray) -> np.ndarray:
    """equilibrium._undominated before the equal rows were dropped first (commit bcdbb5e), kept as a reference."""
    count = len(vectors)
    sums = vectors.sum(axis=1)
    margins = 1e-9 * (np.abs(vectors).sum(axis=1) + 1.0)
    order = np.lexsort((-np.arange(count), -sums))
    keep = np.ones(count, dtype=bool)
    for position in order:
        ordered = order[keep[order]]
        candidates = ordered[sums[ordered] >= sums[position] - margins[position]]
        candidates = candidates[candidates != position]
        start, size = 0, 8
        while start < len(candidates):
            chunk = candidates[start:start + size]
            if (vectors[chunk] >= vectors[position]).all(axis=1).any():
                keep[position] = False
                break
            start, size = start + size, 2 * size
    return np.flatnonzero(keep)


def test_issue14_dropping_equal_rows_first_keeps_the_same_rows():
    rng = np.random.default_rng(1414)
    for _ in range(60):
        rows, columns = int(rng.integers(1, 12)), int(rng.integers(1, 6))
        core = rng.integers(-2, 3, size=(rows, columns)).astype(float)
        game = core[rng.integers(0, rows, int(rng.integers(rows, 4 * rows)))]  # many equal rows
        game[rng.random(game.shape) < 0.2] *= -1.0  # a zero's sign flips: -0.0 equals 0.0 but not in bytes
        assert np.array_equal(equilibrium._undominated(game), _previous_undominated(game))
        assert np.array_equal(equilibrium._undominated(np.ascontiguousarray(-game.T)),
                              _previous_undominated(np.ascontiguousarray(-game.T)))
    payoff = plan_matrix(load("goal_small")).payoff_array("win")
    assert np.array_equal(equilibrium._undominated(payoff), _previous_undominated(payoff))


def _cells(case: BattleCase):
    """The (stripped) leader-step key of every (combo, combo) cell of the case's plan matrix."""
    from dunenb.analysis.battle_odds import sensible_plans
    from dunenb.battle.resolve import _strip, without_disarmed_attacks

    rows, columns = sensible_plans(case, 0), sensible_plans(case, 1)
    for combo_a, combo_b in itertools.product(rows.combos, columns.combos):
        battle = without_disarmed_attacks(case.with_plans(rows.plan(Dial(), combo_a), columns.plan(Dial(), combo_b)))
        yield (_strip(battle.sides[0]), _strip(battle.sides[1]))


def _plain_merge(key) -> tuple:
    from dunenb.battle.resolve import _fates_distribution

    merged: dict = {}
    for probability, fates, _rolls in _fates_distribution(key):
        merged[fates] = merged.get(fates, 0) + probability
    return tuple((probability, fates) for fates, probability in merged.items())


@pytest.mark.parametrize("name", ["guild_fremen_desert", "goal_small"])
def test_issue14_faces_compared_alike_are_enumerated_once(name):
    # worn shields (K-8), shield passes, Tolric's blast: the merged distribution of every cell is the plain one,
    # same fractions in the same order, from fewer runs of the leader step (dunenb.battle.dice_classes)
    from dunenb.battle import resolve
    from dunenb.battle.dice_classes import merged_leaves

    fewer = 0
    for key in _cells(load(name)):
        assert resolve._merged_fates(key) == _plain_merge(key)
        runs = [0]

        def counted(roll, key=key, runs=runs):
            runs[0] += 1
            return resolve.leader_step(key, roll)

        merged_leaves(counted, (key[0].dice, key[1].dice), resolve._NeedRoll)
        full = len(resolve._fates_distribution(key))
        assert runs[0] <= 2 * full  # each leaf once, plus the runs that stop at a new d10
        fewer += runs[0] < full
    assert fewer > 0


def test_issue14_a_face_used_otherwise_than_compared_enumerates_every_face(monkeypatch):
    from dunenb.battle import resolve

    key = next(iter(_cells(load("goal_small"))))
    plain = resolve.leader_step

    def adding(sides, roll, **kwargs):  # a leader step that adds to a d10 (no power does so today)
        if roll(0) + 0 > 10:
            raise AssertionError("a d10 shows 1 to 10")
        return plain(sides, roll, **kwargs)

    monkeypatch.setattr(resolve, "leader_step", adding)
    resolve._fates_distribution.cache_clear()
    try:
        merged = resolve._merged_fates(key)
        assert merged == _plain_merge(key) and sum(p for p, _ in merged) == 1
    finally:  # no cached answer of the patched step is left for other tests
        resolve._fates_distribution.cache_clear()

if __name__ == "__main__":
    print_pins()
