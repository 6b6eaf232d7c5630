"""Exact optimal play: the dynamic programme against independent brute-force enumeration.

The brute force keeps dice by *position* (all 32 subsets of the five dice, duplicates included) and
enumerates every ordered reroll (6 ** k sequences, grouped once with a Counter); it uses none of the
solver's multiset tables or matrices. Values are exact integers over 7,776 ** rolls, compared as fractions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pytest

from dunenb.iron_die.dice import OUTCOMES
from dunenb.iron_die.initiator import TURN_DENOMINATOR, initiator_policy
from dunenb.iron_die.results import CHALLENGES, parse_result, result_of
from dunenb.iron_die.solver import (
    backward,
    beat_policy,
    beat_probability,
    clear_caches,
    reply_numerators,
    score_policy,
    strengths,
)


@cache
def _rerolls(count: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every ordered roll of ``count`` dice, grouped: (sorted faces, number of sequences)."""
    grouped = Counter(tuple(sorted(seq)) for seq in product(range(1, 7), repeat=count))
    return tuple(grouped.items())


def brute_force(terminal: Callable[[tuple[int, ...]], int]) -> list[dict[tuple[int, ...], Fraction]]:
    """Optimal value of every hand with 1 and with 2 rerolls left, by plain enumeration."""
    table: dict[tuple[int, ...], int] = {tuple(sorted(d)): terminal(tuple(sorted(d))) for d in OUTCOMES}
    levels = []
    for level in (1, 2):
        previous = table
        table = {}
        expectations: dict[tuple[int, ...], int] = {}
        for hand in previous:
            best = None
            for mask in range(32):
                kept = tuple(hand[i] for i in range(5) if mask >> i & 1)
                if kept not in expectations:
                    expectations[kept] = sum(
                        ways * 6 ** len(kept) * previous[tuple(sorted(kept + rolled))]
                        for rolled, ways in _rerolls(5 - len(kept))
                    )
                total = expectations[kept]
                best = total if best is None or total > best else best
            table[hand] = best
        levels.append({hand: Fraction(value, 7776**level) for hand, value in table.items()})
    return levels


def _check(
    policy_value: Callable[[tuple[int, ...], int], object], terminal: Callable, scale: int = 1
) -> None:
    for rolls, expected in enumerate(brute_force(terminal), start=1):
        for hand, value in expected.items():
            assert policy_value(hand, rolls) == value / scale, (hand, rolls)


@pytest.mark.parametrize("challenge", CHALLENGES)
def test_expected_score_policy_matches_brute_force(challenge: str) -> None:
    policy = score_policy(challenge)
    _check(policy.value, lambda hand: result_of(challenge, hand).value[0])


@pytest.mark.parametrize(
    ("challenge", "target"),
    [
        ("military", "24"),
        ("faith", "2/3"),
        ("faith", "2"),
        ("intrigue", "full-house"),
        ("intrigue", "two-pairs:5,5,3,3,6"),
    ],
)
def test_beat_policy_matches_brute_force(challenge: str, target: str) -> None:
    bar = parse_result(challenge, target)
    policy = beat_policy(challenge, bar)
    _check(policy.value, lambda hand: int(result_of(challenge, hand).beats(bar)))


def test_yahtzee_figure_five_of_a_kind_in_three_rolls() -> None:
    policy = beat_policy("intrigue", parse_result("intrigue", "five-of-a-kind"))
    assert policy.start_value() == Fraction(2_783_176, 60_466_176)
    assert beat_probability("intrigue", parse_result("intrigue", "five-of-a-kind")) == Fraction(
        2_783_176, 60_466_176
    )


def test_military_expected_sum_is_five_times_the_one_die_value() -> None:
    # One die, three rolls, optimal: reroll below 5 on the first reroll, below 4 on the last: 14/3.
    assert score_policy("military").start_value() == 5 * Fraction(14, 3)


def test_start_value_is_the_average_over_the_first_roll() -> None:
    policy = score_policy("faith")
    weights = Counter(tuple(sorted(seq)) for seq in product(range(1, 7), repeat=5))
    total = sum(ways * policy.value(hand, 2) for hand, ways in weights.items())
    assert policy.start_value() == total / 7776


def test_ranked_keeps_are_sorted_and_best_keep_is_first() -> None:
    policy = score_policy("intrigue")
    for hand in OUTCOMES[::7]:
        for rolls in (1, 2):
            ranked = policy.ranked_keeps(hand, rolls)
            values = [choice.value for choice in ranked]
            assert values == sorted(values, reverse=True)
            assert ranked[0].keep == policy.best_keep(hand, rolls)
            assert ranked[0].value == policy.value(hand, rolls)
            assert len({choice.keep for choice in ranked}) == len(ranked)


def test_ties_prefer_keeping_more_dice() -> None:
    # already unbeatable for a sum above 23: stop (keep all five) rather than reroll anything
    policy = beat_policy("military", parse_result("military", "23"))
    assert policy.best_keep((6, 6, 6, 6, 6), 2) == (6, 6, 6, 6, 6)
    assert policy.value((6, 6, 6, 6, 6), 2) == 1


def test_reply_numerators_match_single_solves() -> None:
    for challenge in CHALLENGES:
        numerators = reply_numerators(challenge)
        for index in range(0, 252, 25):
            bar = result_of(challenge, OUTCOMES[index])
            assert Fraction(int(numerators[index]), TURN_DENOMINATOR) == beat_probability(challenge, bar)


def test_initiator_terminal_is_the_best_challenge_against_optimal_replies() -> None:
    policy = initiator_policy(2)
    for index in range(0, 252, 9):
        hand = OUTCOMES[index]
        values = {c: 1 - beat_probability(c, result_of(c, hand)) for c in CHALLENGES}
        assert policy.challenge_values(hand) == values
        assert policy.value(hand, 0) == max(values.values())
        assert values[policy.declare_for(hand)] == max(values.values())


def test_initiator_recursion_matches_brute_force() -> None:
    policy = initiator_policy(2)
    numerators = {tuple(sorted(OUTCOMES[i])): int(policy.policy.values[0][i]) for i in range(252)}
    _check(policy.value, lambda hand: numerators[hand], scale=policy.policy.denominator)


def test_initiator_with_three_players() -> None:
    two, three = initiator_policy(2), initiator_policy(3)
    hand = (5, 5, 5, 2, 1)
    for challenge, value in three.challenge_values(hand).items():
        assert value == two.challenge_values(hand)[challenge] ** 2
    assert three.start_value() < two.start_value()
    floats = initiator_policy(3, exact=False)
    assert abs(floats.start_value() - float(three.start_value())) < 1e-12
    for hand in OUTCOMES[::11]:
        assert floats.best_keep(hand, 2) == three.best_keep(hand, 2)


def test_vectorised_backward_equals_column_by_column() -> None:
    own = strengths("military")
    terminal = np.stack([(own > t).astype(np.int64) for t in (15, 20, 25)], axis=1)
    values, _ = backward(terminal)
    for column, t in enumerate((15, 20, 25)):
        single, _ = backward((own > t).astype(np.int64))
        assert np.array_equal(values[2][:, column], single[2])


def test_final_distribution_under_the_policy() -> None:
    policy = score_policy("faith")
    weights, denominator = policy.final_distribution()
    sevens = np.array([result_of("faith", d).value[0] for d in OUTCOMES])
    assert Fraction(int((weights * sevens).sum()), denominator) == policy.start_value()


def test_clear_caches_then_solve_again_gives_the_same_values() -> None:
    before = score_policy("intrigue").start_value()
    first = initiator_policy(2).start_value()
    clear_caches()
    assert score_policy("intrigue").start_value() == before
    assert initiator_policy(2).start_value() == first
