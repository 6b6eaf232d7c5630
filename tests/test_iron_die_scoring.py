"""Scoring rules of Le Dé de Fer: the seed's examples, brute-force checks and the result notation."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from dunenb.errors import InputError
from dunenb.iron_die.dice import OUTCOMES
from dunenb.iron_die.faith import evaluate_grouping, faith_claim
from dunenb.iron_die.hands import HAND_NAMES, intrigue_hand
from dunenb.iron_die.results import CHALLENGES, Result, parse_dice, parse_result, result_of, score_of

# ------------------------------------------------------------------------------------------- military


def test_military_seed_example() -> None:
    first = result_of("military", (5, 5, 6, 4, 3))
    second = result_of("military", (6, 6, 6, 5, 4))
    assert first.value == (23,) and second.value == (27,)
    assert second.beats(first) and not first.beats(second)


# ---------------------------------------------------------------------------------------------- faith


def test_faith_seed_example_announced_groupings() -> None:
    # First player: 4+3=7 and 6+1=7, a 2 left. Second player: 6+1=7 and 5+4-2=7, nothing left.
    assert evaluate_grouping((4, 6, 3, 2, 1), [(4, 3), (6, 1)]) == (2, (2,))
    assert evaluate_grouping((5, 4, 1, 6, 2), [(6, 1), (5, 4, -2)]) == (2, ())
    assert Result("faith", (2, 2)).beats(Result("faith", (2, 0)))


def test_faith_seed_example_best_claims_first_player_wins() -> None:
    first = faith_claim((4, 6, 3, 2, 1))
    second = faith_claim((5, 4, 1, 6, 2))
    assert (first.sevens, first.unused) == (2, (2,))
    # The second player's best claim is 6+1 and 5+2 keeping a 4 - the seed still gives the tie to the 2.
    assert (second.sevens, second.unused) == (2, (4,))
    assert result_of("faith", (4, 6, 3, 2, 1)).beats(result_of("faith", (5, 4, 1, 6, 2)))
    assert not result_of("faith", (5, 4, 1, 6, 2)).beats(result_of("faith", (4, 6, 3, 2, 1)))


def test_faith_grouping_rejects_wrong_groups() -> None:
    with pytest.raises(ValueError, match="makes 8"):
        evaluate_grouping((4, 6, 3, 2, 1), [(4, 4)])
    with pytest.raises(ValueError, match="not available"):
        evaluate_grouping((4, 6, 3, 2, 1), [(5, 2)])


def _brute_faith(dice: tuple[int, ...]) -> tuple[int, int, int]:
    """Independent brute force: label every die unused / group A / group B, try every sign."""
    best = (0, 1, -sum(dice))
    for labels in product((0, 1, 2), repeat=5):
        groups = [[d for d, label in zip(dice, labels, strict=True) if label == g] for g in (1, 2)]
        if any(len(group) == 1 for group in groups) or not groups[0]:
            continue
        if groups[1] and not groups[0]:
            continue
        sevens = 0
        ok = True
        for group in groups:
            if not group:
                continue
            if any(
                sum(v * s for v, s in zip(group, signs, strict=True)) == 7
                for signs in product((1, -1), repeat=len(group))
            ):
                sevens += 1
            else:
                ok = False
        if not ok:
            continue
        unused = sum(d for d, label in zip(dice, labels, strict=True) if label == 0)
        best = max(best, (sevens, 1 if unused else 0, -unused))
    return best


def test_faith_claims_match_brute_force_on_all_252_hands() -> None:
    for dice in OUTCOMES:
        claim = faith_claim(dice)
        key = (claim.sevens, 1 if claim.unused else 0, -claim.unused_total)
        assert key == _brute_faith(dice), dice
        assert evaluate_grouping(dice, [_signed(g) for g in claim.groups]) == (claim.sevens, claim.unused)


def _signed(expression: str) -> tuple[int, ...]:
    values = []
    for index, part in enumerate(expression.replace("-", "+-").split("+")):
        if part:
            values.append(int(part))
        assert index == 0 or part
    return tuple(values)


def test_faith_never_more_than_two_sevens_and_all_even_dice_make_none() -> None:
    assert max(faith_claim(d).sevens for d in OUTCOMES) == 2
    assert faith_claim((6, 6, 4, 4, 2)).sevens == 0


# ------------------------------------------------------------------------------------------- intrigue

SEED_HANDS = [
    ((6, 6, 3, 2, 5), "one-pair"),
    ((6, 6, 3, 3, 5), "two-pairs"),
    ((5, 5, 5, 4, 1), "three-of-a-kind"),
    ((2, 3, 4, 5, 6), "straight"),
    ((4, 4, 4, 1, 1), "full-house"),
    ((2, 2, 2, 2, 4), "four-of-a-kind"),
    ((3, 3, 3, 3, 3), "five-of-a-kind"),
]


@pytest.mark.parametrize(("dice", "name"), SEED_HANDS)
def test_intrigue_seed_examples(dice: tuple[int, ...], name: str) -> None:
    assert intrigue_hand(dice).name == name


def test_intrigue_seed_order_is_increasing() -> None:
    results = [result_of("intrigue", dice) for dice, _ in SEED_HANDS]
    for weaker, stronger in zip(results, results[1:], strict=False):
        assert stronger.beats(weaker)
    # every hand of a higher rank beats every hand of a lower rank
    by_rank: dict[int, list[int]] = {}
    for dice in OUTCOMES:
        result = result_of("intrigue", dice)
        by_rank.setdefault(result.value[0], []).append(result.strength)
    for rank in range(7):
        assert max(by_rank[rank]) < min(by_rank[rank + 1])


def _brute_rank(dice: tuple[int, ...]) -> str:
    distinct = len(set(dice))
    top = max(Counter(dice).values())
    if top == 5:
        return "five-of-a-kind"
    if top == 4:
        return "four-of-a-kind"
    if top == 3:
        return "full-house" if distinct == 2 else "three-of-a-kind"
    if top == 2:
        return "two-pairs" if distinct == 3 else "one-pair"
    return "straight" if max(dice) - min(dice) == 4 else "nothing"


def test_intrigue_ranks_match_brute_force() -> None:
    names = Counter(intrigue_hand(d).name for d in OUTCOMES)
    for dice in OUTCOMES:
        assert intrigue_hand(dice).name == _brute_rank(dice)
    assert set(names) == set(HAND_NAMES)
    assert names["straight"] == 2 and names["five-of-a-kind"] == 6


def test_scores() -> None:
    assert score_of("military", (6, 6, 4, 4, 2)) == 22
    assert score_of("faith", (4, 6, 3, 2, 1)) == 2
    assert score_of("intrigue", (3, 3, 3, 3, 3)) == 7


# ------------------------------------------------------------------------------------------- notation


@pytest.mark.parametrize("challenge", CHALLENGES)
def test_notation_round_trips_for_every_hand(challenge: str) -> None:
    for dice in OUTCOMES:
        result = result_of(challenge, dice)
        assert parse_result(challenge, result.notation) == result
        assert parse_result(challenge, ",".join(map(str, dice))) == result


def test_threshold_notations() -> None:
    at_least_two = parse_result("faith", "2")
    assert at_least_two.threshold
    assert result_of("faith", (6, 1, 6, 3, 2)).beats(at_least_two)  # 2 sevens, nothing unused
    assert not result_of("faith", (6, 1, 1, 1, 1)).beats(at_least_two)
    full = parse_result("intrigue", "full")
    assert result_of("intrigue", (1, 1, 1, 2, 2)).beats(full)
    assert not result_of("intrigue", (6, 6, 6, 5, 4)).beats(full)
    assert parse_result("intrigue", "Four_Of_A_Kind").notation == "four-of-a-kind"


@pytest.mark.parametrize(
    ("challenge", "text", "fragment"),
    [
        ("military", "31", "a sum 5-30"),
        ("military", "x", "a sum 5-30"),
        ("faith", "3", "S 0-2"),
        ("faith", "2/0", "S/U"),
        ("faith", "0/-", "S/U"),
        ("intrigue", "flush", "full-house"),
        ("intrigue", "full-house:6,6,6,5,4", "make a three-of-a-kind, not a full-house"),
        ("intrigue", "6,6,6,5", "five dice"),
        # str.isdigit accepts a superscript two, int() does not (GAP-59): refused, never a ValueError
        ("military", "\u00b2", "a sum 5-30"),
        ("faith", "\u00b2", "S 0-2"),
        ("faith", "1/\u00b2", "S/U"),
    ],
)
def test_bad_results_name_the_argument_and_allowed_values(challenge: str, text: str, fragment: str) -> None:
    with pytest.raises(InputError) as info:
        parse_result(challenge, text, "--target")
    assert info.value.code == "iron-die/result"
    assert "--target" in info.value.message and fragment in info.value.message


def test_bad_dice() -> None:
    for text in ("", "1,2,3", "1,2,3,4,7", "a,b,c,d,e", "1,2,3,4,5,6"):
        with pytest.raises(InputError, match="--dice: expected 5 faces"):
            parse_dice(text, "--dice")


def test_results_of_different_challenges_do_not_compare() -> None:
    with pytest.raises(ValueError):
        result_of("military", (6, 6, 6, 6, 6)).beats(result_of("faith", (6, 6, 6, 6, 6)))
