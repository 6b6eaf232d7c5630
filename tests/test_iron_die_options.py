"""Le Dé de Fer table options (IRON-GAP-17, IRON-GAP-18) checked against independent brute force.

The brute force here shares no code with :mod:`dunenb.iron_die.faith`: groups are evaluated by trying every
order of the dice and every bracketing (a left-to-right fold over binary splits of an ordered list), and the
best claim is found by trying every way of dealing the five dice into groups and leftovers.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest

from dunenb.iron_die.dice import OUTCOMES
from dunenb.iron_die.faith import faith_claim
from dunenb.iron_die.options import DEFAULT_OPTIONS, TableOptions
from dunenb.iron_die.results import result_of
from dunenb.iron_die.solver import beat_policy, reply_numerators, strengths

ARITHMETIC = TableOptions(faith_operations="arithmetic")
HIGH = TableOptions(faith_tiebreak="high")
BOTH = TableOptions("arithmetic", "high")


@cache
def ordered_values(values: tuple[int, ...], arithmetic: bool) -> set[Fraction]:
    """Every value of the ordered list with every bracketing (signs/operators between neighbours)."""
    if len(values) == 1:
        return {Fraction(values[0])}
    out: set[Fraction] = set()
    for cut in range(1, len(values)):
        for x in ordered_values(values[:cut], arithmetic):
            for y in ordered_values(values[cut:], arithmetic):
                out |= {x + y, x - y}
                if arithmetic:
                    out.add(x * y)
                    if y:
                        out.add(x / y)
    return out


def makes_seven(group: tuple[int, ...], arithmetic: bool) -> bool:
    return _makes_seven(tuple(sorted(group)), arithmetic)


@cache
def _makes_seven(group: tuple[int, ...], arithmetic: bool) -> bool:
    if len(group) < 2:
        return False
    if not arithmetic:  # each die added or subtracted (IRON-GAP-4)
        return any(
            sum(v * s for v, s in zip(group, signs, strict=True)) == 7
            for signs in itertools.product((1, -1), repeat=len(group))
        )
    return any(7 in ordered_values(order, True) for order in set(itertools.permutations(group)))


@cache
def brute_best(dice: tuple[int, ...], arithmetic: bool, tiebreak: str) -> tuple[int, int]:
    """(sevens, unused total) of the best claim: deal each die to group 0, group 1 or unused."""
    best: tuple[tuple[int, int, int], tuple[int, int]] | None = None
    for labels in itertools.product((0, 1, 2), repeat=5):
        groups = [tuple(d for d, lab in zip(dice, labels, strict=True) if lab == g) for g in (0, 1)]
        if not all(not g or makes_seven(g, arithmetic) for g in groups):
            continue
        sevens = sum(1 for g in groups if g)
        unused = sum(d for d, lab in zip(dice, labels, strict=True) if lab == 2)
        if tiebreak == "low":
            key = (sevens, 1 if unused else 0, -unused)
        else:
            key = (sevens, 0, unused)
        if best is None or key > best[0]:
            best = (key, (sevens, unused))
    assert best is not None
    return best[1]


@pytest.mark.parametrize("options", [DEFAULT_OPTIONS, ARITHMETIC, HIGH, BOTH], ids=str)
def test_seed_line_12_faith_claims_of_all_252_hands_match_brute_force(options: TableOptions) -> None:
    """Seed line 12: "obtenir par calcul le plus de 7 ... Chaque dé ne peut être utilisé que dans une seule
    opération"; seed line 14: the unused die breaks ties (both readings)."""
    arithmetic = options.faith_operations == "arithmetic"
    for dice in OUTCOMES:
        claim = faith_claim(dice, options)
        assert (claim.sevens, claim.unused_total) == brute_best(dice, arithmetic, options.faith_tiebreak), dice


def test_seed_line_12_arithmetic_gives_more_sevens_in_58_of_252_hands() -> None:
    better = [d for d in OUTCOMES if faith_claim(d, ARITHMETIC).sevens > faith_claim(d).sevens]
    assert len(better) == 58
    assert all(faith_claim(d, ARITHMETIC).sevens >= faith_claim(d).sevens for d in OUTCOMES)


@pytest.mark.parametrize("options", [HIGH, ARITHMETIC], ids=str)
def test_seed_line_14_result_order_matches_the_brute_force_key(options: TableOptions) -> None:
    arithmetic = options.faith_operations == "arithmetic"
    keyed = []
    for dice in OUTCOMES:
        sevens, unused = brute_best(dice, arithmetic, options.faith_tiebreak)
        key = (sevens, 1 if unused else 0, -unused) if options.faith_tiebreak == "low" else (sevens, unused)
        keyed.append((key, result_of("faith", dice, options)))
    for (key_a, a), (key_b, b) in itertools.combinations(keyed[::7], 2):
        assert a.beats(b) == (key_a > key_b) and b.beats(a) == (key_b > key_a)


def test_options_only_change_faith_tables() -> None:
    for challenge in ("military", "intrigue"):
        assert strengths(challenge, BOTH) is strengths(challenge)
        assert reply_numerators(challenge, BOTH) is reply_numerators(challenge)
    assert not (strengths("faith", HIGH) == strengths("faith")).all()


def test_beat_policy_follows_the_options_of_its_target() -> None:
    target_low = result_of("faith", (4, 6, 3, 2, 1))
    target_high = result_of("faith", (4, 6, 3, 2, 1), HIGH)
    p_low = beat_policy("faith", target_low).start_value()
    p_high = beat_policy("faith", target_high).start_value()
    assert p_low != p_high and 0 < p_low < 1 and 0 < p_high < 1


@pytest.mark.parametrize("options", [ARITHMETIC, HIGH], ids=str)
def test_seed_line_8_beat_policy_last_reroll_is_exact_under_the_options(options: TableOptions) -> None:
    """Seed line 8 (reroll any dice): with one roll left, the solver's optimal chance of beating 2/3 equals a
    plain enumeration of every keep and every reroll, scored with the brute-force claims above."""
    arithmetic = options.faith_operations == "arithmetic"

    def key(dice: tuple[int, ...]) -> tuple[int, int, int]:
        sevens, unused = brute_best(tuple(sorted(dice, reverse=True)), arithmetic, options.faith_tiebreak)
        return (sevens, 1 if unused else 0, -unused) if options.faith_tiebreak == "low" else (sevens, 0, unused)

    target_dice = (5, 4, 2, 1, 1)  # the result these dice make is the bar to beat
    bar = key(target_dice)
    policy = beat_policy("faith", result_of("faith", target_dice, options))
    for hand in ((6, 6, 4, 4, 2), (6, 5, 3, 2, 1)):
        best = Fraction(0)
        for size in range(6):
            for keep in set(itertools.combinations(hand, size)):
                wins = sum(
                    key(keep + extra) > bar for extra in itertools.product(range(1, 7), repeat=5 - size)
                )
                best = max(best, Fraction(wins, 6 ** (5 - size)))
        assert policy.value(hand, 1) == best, hand
