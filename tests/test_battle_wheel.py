"""WHEEL-1 to WHEEL-4 and the seed's seven wheel examples (seed 000 L1679-1707), GAP-41, GAP-42."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dunenb.battle.wheel import Dial, Tokens, all_dials, army_value, cheapest_dials, check_dial, pareto_dials
from dunenb.errors import IllegalActionError

# (regular, elite, spice) -> the number the seed shows on the wheel (WHEEL-3, L1693-1705)
SEED_WHEEL_EXAMPLES = [
    ((2, 0, 0), Fraction(1)),
    ((2, 0, 1), Fraction(3, 2)),
    ((3, 0, 1), Fraction(2)),
    ((3, 0, 2), Fraction(5, 2)),
    ((1, 1, 0), Fraction(3, 2)),
    ((1, 1, 1), Fraction(5, 2)),
    ((3, 2, 3), Fraction(6)),
]


@pytest.mark.parametrize(("dial", "shown"), SEED_WHEEL_EXAMPLES)
def test_WHEEL_3_seed_wheel_examples(dial, shown):
    assert army_value(Dial(*dial)) == shown


def test_WHEEL_1_values_go_by_halves():
    values = {army_value(d) for d in all_dials(Tokens(regular=6, elite=3), spice=4)}
    assert all((2 * v).denominator == 1 for v in values)
    assert Fraction(1, 2) in values and Fraction(0) in values


def test_WHEEL_2_unmarked_token_worth_half():
    assert army_value(Dial(regular=1)) == Fraction(1, 2)


def test_WHEEL_2_marked_tokens_count_one():
    assert army_value(Dial(elite=1)) == 1
    assert army_value(Dial(elite=3)) == 3


def test_WHEEL_2_one_spice_doubles_one_token():
    assert army_value(Dial(regular=1, spice=1)) == 1
    assert army_value(Dial(elite=1, spice=1)) == 2


def test_WHEEL_3_spice_goes_to_marked_tokens_first():
    # "il est plus rentable d'attribuer l'épice au pion marqué" (L1703)
    assert army_value(Dial(regular=1, elite=1, spice=1)) == Fraction(5, 2)


def test_WHEEL_4_cheapest_dials_use_spice_and_marked_tokens():
    # "il faut commencer par jouer les pions marqués" (L1707): with a marked token left, unmarked ones are
    # dominated; a shown 2 costs a single token when spice goes on the marked one.
    best = cheapest_dials(2, Tokens(regular=4, elite=1), spice=1)
    assert Dial(0, 1, 1) in best
    assert Dial(4, 0, 0) not in best and Dial(2, 1, 0) in best  # spice against tokens: both kept
    assert Dial(2, 0, 0) not in pareto_dials(Tokens(regular=2, elite=1), spice=0)


def test_GAP_42_at_most_one_spice_per_token():
    with pytest.raises(IllegalActionError) as error:
        check_dial(Dial(regular=2, spice=3))
    assert error.value.code == "battle/dial-spice"


def test_GAP_41_no_cap_at_30():
    assert army_value(Dial(elite=30, spice=30)) == 60


def test_dial_cannot_exceed_tokens_in_territory():
    with pytest.raises(IllegalActionError) as error:
        check_dial(Dial(regular=5), Tokens(regular=4))
    assert error.value.code == "battle/dial-tokens"


def test_pareto_dials_are_not_dominated():
    dials = pareto_dials(Tokens(regular=5, elite=2), spice=3)
    for first in dials:
        for second in dials:
            if first == second:
                continue
            no_worse = (second.regular + second.elite <= first.regular + first.elite
                        and second.spice <= first.spice and army_value(second) >= army_value(first))
            assert not no_worse
