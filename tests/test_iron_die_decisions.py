"""One test per design decision of data/iron_die.json (IRON-GAP-n), plus the rules data itself."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from dunenb.errors import RulesDataError
from dunenb.iron_die.actions import parse_action
from dunenb.iron_die.engine import apply_action, chance_outcomes, legal_actions, new_game
from dunenb.iron_die.initiator import initiator_policy
from dunenb.iron_die.results import parse_result, result_of
from dunenb.iron_die.rules_data import load_rules, parse_rules
from dunenb.iron_die.solver import beat_policy, beat_probability, score_policy
from dunenb.iron_die.state import IronDieState

#: Each decision id and the test that checks it.
DECISION_TESTS = {
    "IRON-GAP-1": "test_gap_1_equal_results_do_not_beat",
    "IRON-GAP-2": "test_gap_2_best_result_wins_the_only_point",
    "IRON-GAP-3": "test_gap_3_turn_order_follows_the_seats",
    "IRON-GAP-4": "test_gap_4_faith_groups_are_claimed_at_best",
    "IRON-GAP-5": "test_gap_5_faith_tie_break_by_the_unused_die",
    "IRON-GAP-6": "test_gap_6_faith_several_unused_dice_by_total",
    "IRON-GAP-7": "test_gap_7_nothing_ranks_below_a_pair",
    "IRON-GAP-8": "test_gap_8_both_straights_high_beats_low",
    "IRON-GAP-9": "test_gap_9_ties_inside_a_hand_rank",
    "IRON-GAP-10": "test_gap_10_military_equal_sums",
    "IRON-GAP-11": "test_gap_11_first_player",
    "IRON-GAP-12": "test_gap_12_rolling",
    "IRON-GAP-13": "test_gap_13_challengers_see_the_best_result",
    "IRON-GAP-14": "test_gap_14_first_to_five_power_wins_at_once",
    "IRON-GAP-15": "test_gap_15_expected_score_definitions",
    "IRON-GAP-16": "test_gap_16_optimal_play_with_more_players",
    "IRON-GAP-17": "test_gap_17_faith_operations_table_option",
    "IRON-GAP-18": "test_gap_18_faith_tiebreak_table_option",
}


def play(state: IronDieState, *notations: str) -> IronDieState:
    for notation in notations:
        state = apply_action(state, parse_action(notation))
    return state


def test_every_decision_is_in_the_data_and_tested() -> None:
    rules = load_rules()
    ids = [d.id for d in rules.decisions]
    assert ids == list(DECISION_TESTS)
    for decision in rules.decisions:
        assert decision.source == "design" and decision.text
        assert DECISION_TESTS[decision.id] in globals()


def test_gap_1_equal_results_do_not_beat() -> None:
    state = play(
        new_game(["A", "B"], seed=0), "first 0", "roll 6,5,4,3,1", "declare military", "roll 6,5,4,2,2"
    )
    state = play(state, "stand")
    assert state.history[-1].winner == 0  # 19 = 19: the initiator keeps the challenge
    assert not result_of("military", (6, 5, 4, 3, 1)).beats(result_of("military", (6, 5, 4, 2, 2)))


def test_gap_2_best_result_wins_the_only_point() -> None:
    state = new_game(["A", "B", "C"], seed=0)
    state = play(state, "first 0", "roll 3,3,3,2,2", "declare military")  # 13
    state = play(state, "roll 5,5,5,5,1", "stand")  # B: 21, beats A
    assert state.bar is not None and state.bar.notation == "21" and state.leader == 1
    state = play(state, "roll 6,5,5,4,1", "stand")  # C: 21, equal to B: does not beat
    record = state.history[-1]
    assert record.winner == 1 and state.power == (0, 1, 0)
    state = new_game(["A", "B", "C"], seed=0)
    state = play(state, "first 0", "roll 3,3,3,2,2", "declare military", "roll 5,5,5,5,1", "stand")
    state = play(state, "roll 6,6,5,5,1", "stand")  # C: 23 beats B's 21
    assert state.history[-1].winner == 2 and sum(state.power) == 1


def test_gap_3_turn_order_follows_the_seats() -> None:
    state = play(new_game(["A", "B", "C", "D"], seed=0), "first 2")
    assert state.order == (2, 3, 0, 1)
    state = play(state, "roll 1,1,1,1,1", "declare faith")
    assert state.current_player == 3


def test_gap_4_faith_groups_are_claimed_at_best() -> None:
    # 6+1 and 5+4-2 was announced in the seed; the best claim is 6+1 and 5+2 keeping a 4.
    assert result_of("faith", (5, 4, 1, 6, 2)).value == (2, 4)
    # subtraction is allowed, multiplication is not: 2 x 3 + 1 is not a seven, 6 + 3 - 2 is.
    assert result_of("faith", (2, 3, 1, 1, 1)).value[0] == 1  # 3+2+1+1 = 7 (one group)
    assert result_of("faith", (6, 3, 2, 5, 5)).value[0] == 1  # 6+3-2 (5,5 make 10 or 0)
    assert result_of("faith", (6, 6, 4, 4, 2)).value == (0, 22)  # all even: never 7


def test_gap_5_faith_tie_break_by_the_unused_die() -> None:
    seed_first = result_of("faith", (4, 6, 3, 2, 1))  # 2 sevens, a 2 left
    seed_second = result_of("faith", (5, 4, 1, 6, 2))  # 2 sevens, a 4 left at best
    assert seed_first.beats(seed_second)
    none_left = result_of("faith", (6, 1, 6, 3, 2))  # 6+1, 6+3-2: every die used
    assert none_left.value == (2, 0)
    assert seed_second.beats(none_left) and seed_first.beats(none_left)
    assert result_of("faith", (6, 1, 5, 2, 1)).notation == "2/1"  # the best possible faith result


def test_gap_6_faith_several_unused_dice_by_total() -> None:
    low = result_of("faith", (6, 6, 5, 3, 1))  # 6+6-5, unused 3 and 1 (total 4)
    high = result_of("faith", (6, 6, 5, 5, 1))  # 6+6-5, unused 5 and 1 (total 6)
    assert low.value == (1, 4) and high.value == (1, 6)
    assert low.beats(high) and not high.beats(low)
    # no seven at all: five unused dice, the lower total wins
    assert result_of("faith", (2, 1, 1, 1, 1)).beats(result_of("faith", (6, 6, 6, 6, 6)))
    # equal totals are equal results: (1 seven, unused 3+3) and (1 seven, unused 5+1)
    assert result_of("faith", (6, 6, 5, 3, 3)) == result_of("faith", (6, 6, 5, 5, 1))


def test_gap_7_nothing_ranks_below_a_pair() -> None:
    nothing = result_of("intrigue", (6, 5, 4, 3, 1))
    assert nothing.notation == "nothing:6,5,4,3,1"
    assert result_of("intrigue", (2, 2, 1, 3, 4)).beats(nothing)
    assert nothing.beats(result_of("intrigue", (6, 5, 4, 2, 1)))


def test_gap_8_both_straights_high_beats_low() -> None:
    low, high = result_of("intrigue", (1, 2, 3, 4, 5)), result_of("intrigue", (2, 3, 4, 5, 6))
    assert low.notation.startswith("straight") and high.notation.startswith("straight")
    assert high.beats(low) and low.beats(result_of("intrigue", (6, 6, 6, 5, 4)))


def test_gap_9_ties_inside_a_hand_rank() -> None:
    assert result_of("intrigue", (4, 4, 4, 1, 1)).beats(result_of("intrigue", (3, 3, 3, 6, 6)))
    assert result_of("intrigue", (6, 6, 1, 1, 2)).beats(result_of("intrigue", (5, 5, 4, 4, 6)))
    assert result_of("intrigue", (6, 6, 3, 3, 5)).beats(result_of("intrigue", (6, 6, 3, 3, 4)))
    assert result_of("intrigue", (2, 2, 6, 5, 4)).beats(result_of("intrigue", (1, 1, 6, 5, 4)))
    assert result_of("intrigue", (2, 2, 2, 2, 4)).beats(result_of("intrigue", (2, 2, 2, 2, 3)))
    same = result_of("intrigue", (5, 5, 3, 2, 1))
    assert same == result_of("intrigue", (1, 2, 3, 5, 5)) and not same.beats(same)


def test_gap_10_military_equal_sums() -> None:
    assert result_of("military", (6, 6, 1, 1, 1)) == result_of("military", (3, 3, 3, 3, 3))


def test_gap_11_first_player() -> None:
    state = new_game(["A", "B", "C"], seed=0)
    assert state.phase == "first" and state.candidates == (0, 1, 2)
    # round 1: A first, B wins -> A and C tied at 0, B (the winner) not among them -> draw between A and C
    state = play(state, "first 0", "roll 1,1,1,1,1", "declare military", "roll 6,6,6,6,6", "stand")
    state = play(state, "roll 1,1,1,1,2", "stand")
    assert state.power == (0, 1, 0) and state.phase == "first" and state.candidates == (0, 2)
    assert [p for _, p in chance_outcomes(state)] == [0.5, 0.5]
    # two players: the loser (least power) starts; at equal power the last winner starts
    duel = play(
        new_game(["A", "B"], seed=0), "first 0", "roll 6,6,6,6,6", "declare military", "roll 1,1,1,1,1"
    )
    duel = play(duel, "stand")
    assert duel.power == (1, 0) and duel.first_player == 1 and duel.phase == "roll"
    duel = play(duel, "roll 6,6,6,6,6", "declare military", "roll 1,1,1,1,1", "stand")
    assert duel.power == (1, 1) and duel.first_player == 1  # tied: B won the last challenge


def test_gap_12_rolling() -> None:
    state = play(new_game(["A", "B"], seed=0), "first 0")
    assert legal_actions(state)[0].kind == "roll" and len(chance_outcomes(state)) == 252  # all five dice
    state = play(state, "roll 6,5,4,3,2", "declare intrigue")  # the first player may declare after one roll
    state = play(state, "roll 1,1,2,2,3", "keep 1,1,2,2", "roll 1", "keep 1,1,1", "roll 2,2")
    # the challenger's third roll ended his turn (full house 1,1,1,2,2 beats the straight)
    assert state.history[-1].winner == 1 and state.history[-1].finals[-1] == (1, (2, 2, 1, 1, 1))


def test_gap_13_challengers_see_the_best_result() -> None:
    state = play(new_game(["A", "B", "C"], seed=0), "first 0", "roll 2,2,2,1,1", "declare military")
    assert state.bar is not None and state.bar.notation == "8" and state.summary()["to_beat"] == "8"
    state = play(state, "roll 6,6,6,6,5", "stand")
    assert state.summary()["to_beat"] == "29" and state.current_player == 2


def test_gap_14_first_to_five_power_wins_at_once() -> None:
    # every round the first player rolls five 6s and the others five 1s: the first player always wins
    state = new_game(["A", "B", "C"], seed=0)
    rounds = 0
    while not state.is_over:
        if state.phase == "first":
            state = apply_action(state, chance_outcomes(state)[0][0])
        state = play(
            state, "roll 6,6,6,6,6", "declare military", "roll 1,1,1,1,1", "stand", "roll 1,1,1,1,1", "stand"
        )
        rounds += 1
        assert rounds == len(state.history) and max(state.power) <= 5
    assert state.winner is not None and state.power[state.winner] == 5
    assert sorted(state.power) == [4, 4, 5] and rounds == 13
    assert legal_actions(state) == ()


def test_gap_15_expected_score_definitions() -> None:
    assert score_policy("military").start_value() == pytest.approx(70 / 3)
    assert 1.9 < score_policy("faith").start_value() < 2
    assert 0 < score_policy("intrigue").start_value() < 7
    assert score_policy("intrigue").value((3, 3, 3, 3, 3), 0) == 7


def test_gap_16_optimal_play_with_more_players() -> None:
    hand = (6, 6, 6, 5, 5)
    two, four = initiator_policy(2), initiator_policy(4)
    p = beat_probability("military", result_of("military", hand))
    assert two.challenge_values(hand)["military"] == 1 - p
    assert four.challenge_values(hand)["military"] == (1 - p) ** 3
    # challengers maximise the chance to strictly beat the best result so far
    policy = beat_policy("military", parse_result("military", "28"))
    assert policy.best_keep((6, 6, 6, 6, 1), 2) == (6, 6, 6, 6)


def test_rules_data_validation() -> None:
    raw = json.loads(resources.files("dunenb.data").joinpath("iron_die.json").read_text(encoding="utf-8"))
    assert parse_rules(raw).power_to_win == 5
    broken = copy.deepcopy(raw)
    broken["decisions"][2]["source"] = "seed"
    with pytest.raises(RulesDataError, match=r"decisions\[2\].source: expected 'design'"):
        parse_rules(broken)
    broken = copy.deepcopy(raw)
    broken["hands"][0]["id"] = "high-card"
    with pytest.raises(RulesDataError, match="hands"):
        parse_rules(broken)
    with pytest.raises(RulesDataError, match="sides: expected 6"):
        parse_rules({**raw, "sides": 8})


def test_gap_17_faith_operations_table_option() -> None:
    """Seed line 12 ("obtenir par calcul le plus de 7"): + and - by default, + - x / as a table option."""
    from dunenb.iron_die.options import TableOptions

    arithmetic = TableOptions(faith_operations="arithmetic")
    assert result_of("faith", (6, 6, 6, 6, 1)).value == (1, 6)  # 6+6+1-6, a 6 left
    assert result_of("faith", (6, 6, 6, 6, 1), arithmetic).value == (2, 0)  # 6+1 and 6+6/6
    # both of the seed's examples are the same under either reading
    for dice in ((4, 6, 3, 2, 1), (5, 4, 1, 6, 2)):
        assert result_of("faith", dice, arithmetic).value == result_of("faith", dice).value
    assert score_policy("faith", arithmetic).start_value() > score_policy("faith").start_value()
    state = new_game(["A", "B"], seed=0, options=arithmetic)
    state = play(state, "first 0", "roll 6,6,6,6,1", "declare faith", "roll 6,6,6,6,2", "stand")
    assert state.history[-1].to_dict(state.players, state.options)["results"][0]["result"] == "2/-"
    assert state.history[-1].winner == 0


def test_gap_18_faith_tiebreak_table_option() -> None:
    """Seed line 14 ("c'est la valeur du dé inutilisé dans les calculs qui départagera"): a lower unused
    die wins by default; a table may let a higher unused total win (then none counts 0)."""
    from dunenb.iron_die.options import TableOptions

    high = TableOptions(faith_tiebreak="high")
    first, second = (4, 6, 3, 2, 1), (5, 4, 1, 6, 2)  # the seed's example (seed lines 12-14)
    assert result_of("faith", first).beats(result_of("faith", second))  # default: the seed's verdict
    assert result_of("faith", second, high).beats(result_of("faith", first, high))  # 4 left beats 2 left
    assert result_of("faith", (6, 1, 6, 3, 2), high).notation == "2/-"
    assert result_of("faith", first, high).beats(result_of("faith", (6, 1, 6, 3, 2), high))
    assert parse_result("faith", "2", options=high).beats(parse_result("faith", "1/30", options=high))
    assert result_of("faith", (6, 1, 6, 3, 2), high).beats(parse_result("faith", "2", options=high))
    with pytest.raises(ValueError):
        result_of("faith", first, high).beats(result_of("faith", second))
    state = new_game(["A", "B"], seed=0, options=high)
    state = play(state, "first 0", "roll 4,6,3,2,1", "declare faith", "roll 5,4,1,6,2", "stand")
    assert state.history[-1].winner == 1
