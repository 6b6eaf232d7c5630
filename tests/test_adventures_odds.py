"""Exact odds of 2d20 tests, checked against an independent brute-force enumeration of every die outcome."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from dunenb.adventures.exact_odds import TestOdds, odds, odds_for, odds_table
from dunenb.adventures.skill_test import Assist, SkillTest
from dunenb.errors import InputError


def brute_face(face: int, target: int, skill: int, focus: bool, comp_range: int) -> tuple[int, int]:
    """The scoring rule written out plainly (seed lines 37-39, 57, 228): independent of the library."""
    if face == 1:
        successes = 2
    elif focus and face <= skill:
        successes = 2
    elif face <= target:
        successes = 1
    else:
        successes = 0
    complication = 1 if face >= 21 - comp_range else 0
    return successes, complication


def brute_counts(
    skill: int,
    drive: int,
    focus: bool,
    dice: int,
    comp_range: int,
    assist: tuple[int, int, bool] | None = None,
    leader_needed: bool = False,
    auto_one: bool = False,
) -> dict[tuple[int, int], int]:
    """Enumerate all 20^n outcomes (n = rolled dice + the assist die) and count (successes, complications)."""
    counts: dict[tuple[int, int], int] = {}
    rolled = dice - (1 if auto_one else 0)
    faces_lists = [range(1, 21)] * rolled + ([range(1, 21)] if assist else [])
    for outcome in itertools.product(*faces_lists):
        leader = outcome[:rolled] + ((1,) if auto_one else ())
        s = c = 0
        for face in leader:
            ds, dc = brute_face(face, skill + drive, skill, focus, comp_range)
            s, c = s + ds, c + dc
        if assist:
            a_skill, a_drive, a_focus = assist
            ds, dc = brute_face(outcome[-1], a_skill + a_drive, a_skill, a_focus, comp_range)
            c += dc
            if s > 0 or not leader_needed:
                s += ds
        counts[(s, c)] = counts.get((s, c), 0) + 1
    return counts


def assert_matches(result: TestOdds, brute: dict[tuple[int, int], int]) -> None:
    total = sum(brute.values())
    assert result.total == total
    for (s, c), n in np.ndenumerate(result.counts):
        assert brute.get((s, c), 0) == n, (s, c)
    assert sum(brute.values()) == int(result.counts.sum())


@pytest.mark.parametrize("skill", [4, 6, 8])
@pytest.mark.parametrize("drive", [4, 7, 8])
@pytest.mark.parametrize("focus", [False, True])
@pytest.mark.parametrize("comp_range", [1, 2, 5])
def test_seed_lines_37_39_57_228_two_dice_exact_against_all_400_outcomes(skill, drive, focus, comp_range):
    result = odds(skill, drive, focus, 0, comp_range)
    assert_matches(result, brute_counts(skill, drive, focus, 2, comp_range))


@pytest.mark.parametrize(
    "skill,drive,focus,comp_range",
    [(4, 4, False, 1), (7, 7, False, 1), (7, 7, True, 1), (8, 8, True, 3), (5, 8, False, 5), (6, 4, True, 2)],
)
def test_seed_line_204_three_dice_exact_against_all_8000_outcomes(skill, drive, focus, comp_range):
    result = odds(skill, drive, focus, 1, comp_range)
    assert_matches(result, brute_counts(skill, drive, focus, 3, comp_range))


def test_design_max_dice_four_dice_exact_against_all_outcomes():
    assert_matches(odds(6, 7, True, 2, 2), brute_counts(6, 7, True, 4, 2))


@pytest.mark.parametrize("leader_needed", [False, True])
def test_seed_line_352_assist_die_exact_against_all_outcomes(leader_needed):
    result = odds(5, 5, False, 0, 2, Assist(8, 7, True), assist_requires_leader_success=leader_needed)
    assert_matches(result, brute_counts(5, 5, False, 2, 2, (8, 7, True), leader_needed))


def test_seed_line_352_assist_with_three_dice_exact_against_all_160000_outcomes():
    result = odds(7, 6, True, 1, 1, Assist(4, 6, False), assist_requires_leader_success=True)
    assert_matches(result, brute_counts(7, 6, True, 3, 1, (4, 6, False), True))


def test_design_determination_automatic_one_exact_against_all_outcomes():
    result = odds(6, 6, False, 1, 1, auto_one=True)
    assert_matches(result, brute_counts(6, 6, False, 3, 1, auto_one=True))
    assert result.p_success(2) == 1.0


def test_five_dice_probabilities_sum_to_one_and_match_a_vectorised_enumeration():
    result = odds(8, 6, True, 3, 4)
    faces = np.stack(np.meshgrid(*[np.arange(1, 21)] * 5, indexing="ij"), axis=-1).reshape(-1, 5)
    successes = np.where((faces == 1) | (faces <= 8), 2, (faces <= 14).astype(int)).sum(axis=1)
    complications = (faces >= 17).sum(axis=1)
    brute = np.zeros_like(result.counts)
    np.add.at(brute, (successes, complications), 1)
    assert (brute == result.counts).all()


@pytest.mark.parametrize("extra", [0, 1, 2, 3])
@pytest.mark.parametrize("focus", [False, True])
def test_distributions_sum_to_one(extra, focus):
    result = odds(7, 5, focus, extra, 3, Assist(6, 6))
    assert result.successes().sum() == pytest.approx(1.0, abs=1e-12)
    assert result.complications().sum() == pytest.approx(1.0, abs=1e-12)
    assert result.joint().to_numpy().sum() == pytest.approx(1.0, abs=1e-12)


def test_seed_line_194_p_success_is_the_tail_of_the_success_distribution():
    result = odds(6, 7, False, 2)
    dist = result.successes()
    for difficulty in range(0, 6):
        assert result.p_success(difficulty) == pytest.approx(dist[dist.index >= difficulty].sum())
    assert result.p_success(0) == 1.0  # difficulty 0 always passes (seed line 196)
    assert result.p_success(99) == 0.0


def test_seed_line_202_expected_momentum_matches_direct_sum():
    result = odds(7, 7, True, 1)
    dist = result.successes()
    for difficulty in range(0, 6):
        direct = sum(p * max(0, s - difficulty) for s, p in dist.items())
        assert result.expected_momentum(difficulty) == pytest.approx(direct)


def test_seed_line_182_natalia_two_dice_against_14_by_hand():
    result = odds(7, 7)
    # one die: 0 successes 6/20, 1 success 13/20, 2 successes (the 1) 1/20; complication on a 20 only
    assert result.exact_successes() == {0: (36, 400), 1: (156, 400), 2: (181, 400), 3: (26, 400), 4: (1, 400)}
    assert Fraction(int(result.counts[:, 1:].sum()), 400) == 1 - Fraction(19, 20) ** 2


def test_returns_pandas_objects_with_named_axes():
    result = odds(6, 6)
    assert isinstance(result.successes(), pd.Series) and result.successes().index.name == "successes"
    assert isinstance(result.complications(), pd.Series)
    assert isinstance(result.joint(), pd.DataFrame) and result.joint().columns.name == "complications"
    table = result.p_success_table()
    assert list(table.index) == [0, 1, 2, 3, 4, 5]
    frame = odds_table(6, 6)
    assert list(frame.columns) == ["2d20", "3d20", "4d20", "5d20"]
    assert (frame.diff(axis=1).iloc[:, 1:] >= 0).all().all()  # more dice never hurt


def test_to_dict_is_plain_json():
    payload = odds(7, 7, True, 3).to_dict(2)
    assert set(payload) == {"successes", "complications", "p_success", "expected_momentum"}
    assert all(isinstance(k, str) for k in payload["successes"])
    assert sum(payload["successes"].values()) == pytest.approx(1.0)


def test_queries_are_cached_and_read_only():
    assert odds(6, 5, True, 2) is odds(6, 5, True, 2)
    assert odds_for(SkillTest(6, 5, True, 2, difficulty=4)) is odds_for(
        SkillTest(6, 5, True, 2, difficulty=1)
    )
    with pytest.raises(ValueError):
        odds(6, 5).counts[0, 0] = 1


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"skill": 3}, "skill"),
        ({"drive": 9}, "drive"),
        ({"extra_dice": 4}, "extra_dice"),
        ({"complication_range": 6}, "complication_range"),
        ({"focus": "yes"}, "focus"),
    ],
)
def test_bad_odds_arguments_raise_input_error_naming_the_field(kwargs, field):
    args = {"skill": 6, "drive": 6, **kwargs}
    with pytest.raises(InputError) as info:
        odds(**args)
    assert field in info.value.message


@pytest.mark.parametrize("focus", [False, True])
def test_seed_lines_194_202_p_success_and_momentum_are_exact_fractions_of_the_enumeration(focus):
    result = odds(6, 7, focus, 1, 2)
    brute = brute_counts(6, 7, focus, 3, 2)
    for difficulty in range(0, 6):
        passing = sum(n for (s, _), n in brute.items() if s >= difficulty)
        momentum = sum(n * max(0, s - difficulty) for (s, _), n in brute.items())
        assert result.p_success(difficulty) == float(Fraction(passing, 8000))
        assert result.expected_momentum(difficulty) == float(Fraction(momentum, 8000))
    complicated = sum(n for (_, c), n in brute.items() if c > 0)
    assert result.p_complication() == float(Fraction(complicated, 8000))


# -- several helpers, the automatic 1 with helpers, opposed tests (seed lines 288, 336, 352) ------------
def brute_helpers(
    skill: int, drive: int, focus: bool, dice: int, helpers: list[tuple[int, int, bool]], leader_needed: bool,
    auto_one: bool = False, comp_range: int = 1,
) -> dict[tuple[int, int], int]:
    """Enumerate the leader's rolled dice and one die per helper, plainly."""
    counts: dict[tuple[int, int], int] = {}
    rolled = dice - (1 if auto_one else 0)
    for outcome in itertools.product(range(1, 21), repeat=rolled + len(helpers)):
        leader = outcome[:rolled] + ((1,) if auto_one else ())
        s = c = 0
        for face in leader:
            ds, dc = brute_face(face, skill + drive, skill, focus, comp_range)
            s, c = s + ds, c + dc
        extra = 0
        for face, (h_skill, h_drive, h_focus) in zip(outcome[rolled:], helpers, strict=True):
            ds, dc = brute_face(face, h_skill + h_drive, h_skill, h_focus, comp_range)
            extra, c = extra + ds, c + dc
        if s > 0 or not leader_needed:
            s += extra
        counts[(s, c)] = counts.get((s, c), 0) + 1
    return counts


@pytest.mark.parametrize("leader_needed", [False, True])
def test_seed_line_352_two_helpers_exact_against_all_160000_outcomes(leader_needed):
    """Seed line 352: "ajoutant les réussites obtenues sur un seul dé" - one die per helper, several helpers."""
    helpers = (Assist(6, 6, True), Assist(4, 5))
    result = odds(5, 6, False, 0, 2, helpers[0], assist_requires_leader_success=leader_needed, helpers=helpers[1:])
    brute = brute_helpers(5, 6, False, 2, [(6, 6, True), (4, 5, False)], leader_needed, comp_range=2)
    assert_matches(result, brute)
    only_helpers = odds(5, 6, False, 0, 2, None, assist_requires_leader_success=leader_needed, helpers=helpers)
    assert (only_helpers.counts == result.counts).all()


def test_design_automatic_one_with_two_helpers_exact_against_all_outcomes():
    result = odds(7, 5, True, 1, 1, auto_one=True, helpers=(Assist(5, 5), Assist(8, 8, True)))
    assert_matches(result, brute_helpers(7, 5, True, 3, [(5, 5, False), (8, 8, True)], False, auto_one=True))


def brute_opposed(attacker: tuple[int, int, bool, int], defender: tuple[int, int, bool, int], base: int) -> Fraction:
    """P(attacker successes >= defender successes + base) by enumerating both pools together."""
    a_skill, a_drive, a_focus, a_dice = attacker
    d_skill, d_drive, d_focus, d_dice = defender
    wins = total = 0
    for outcome in itertools.product(range(1, 21), repeat=a_dice + d_dice):
        a = sum(brute_face(f, a_skill + a_drive, a_skill, a_focus, 1)[0] for f in outcome[:a_dice])
        d = sum(brute_face(f, d_skill + d_drive, d_skill, d_focus, 1)[0] for f in outcome[a_dice:])
        wins += a >= d + base
        total += 1
    return Fraction(wins, total)


@pytest.mark.parametrize(
    "attacker,defender,base",
    [
        ((7, 7, False, 2), (5, 5, False, 2), 0),
        ((6, 5, True, 2), (8, 8, True, 2), 0),
        ((7, 6, False, 2), (6, 6, False, 2), 2),
    ],
)
def test_seed_lines_288_336_opposed_test_exact_against_all_160000_outcomes(attacker, defender, base):
    """Seed line 288: "Effectuez votre test en opposition contre la cible"; the defender's successes are the
    attacker's difficulty (design contest_difficulty_from_defender), + 2 for a wielded asset (2D20-GAP-3)."""
    from dunenb.adventures.exact_odds import opposed_odds

    a_skill, a_drive, a_focus, a_dice = attacker
    d_skill, d_drive, d_focus, d_dice = defender
    contest = opposed_odds(
        SkillTest(a_skill, a_drive, a_focus, a_dice - 2), SkillTest(d_skill, d_drive, d_focus, d_dice - 2), base=base
    )
    assert contest.exact_p_success() == brute_opposed(attacker, defender, base)
    assert contest.total == 20**4 and int(contest.counts.sum()) == 20**4


def test_opposed_momentum_and_difficulty_distribution_are_exact():
    from dunenb.adventures.exact_odds import opposed_odds

    contest = opposed_odds(SkillTest(7, 7), SkillTest(5, 5), modifier=1)
    momentum = shortfall = 0
    for outcome in itertools.product(range(1, 21), repeat=4):
        a = sum(brute_face(f, 14, 7, False, 1)[0] for f in outcome[:2])
        d = sum(brute_face(f, 10, 5, False, 1)[0] for f in outcome[2:])
        momentum += max(0, a - d - 1)
        shortfall += max(0, d + 1 - a)
    assert contest.expected_momentum() == float(Fraction(momentum, 20**4))
    assert contest.expected_defender_momentum() == float(Fraction(shortfall, 20**4))
    assert min(contest.difficulty_distribution()) == 1
