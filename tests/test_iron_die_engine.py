"""The rules engine: flow of a round, chance nodes, purity and illegal actions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dunenb.errors import IllegalActionError, InputError
from dunenb.iron_die.actions import (
    ChooseFirst,
    Declare,
    Keep,
    Roll,
    Stand,
    action_from_dict,
    parse_action,
)
from dunenb.iron_die.engine import (
    advance,
    apply_action,
    chance_outcomes,
    legal_actions,
    new_game,
    propose_chance,
)
from dunenb.iron_die.state import IronDieState


def play(state: IronDieState, *notations: str) -> IronDieState:
    for notation in notations:
        state = apply_action(state, parse_action(notation))
    return state


def test_round_flow_two_players() -> None:
    state = new_game(["Stark", "Lannister"], seed=0)
    state = play(state, "first 1", "roll 6,6,4,4,2")
    assert state.current_player == 1 and state.is_initiator_turn and state.rolls_left == 2
    state = play(state, "keep 6,6,4,4", "roll 4")
    assert state.dice == (6, 6, 4, 4, 4) and state.rolls_left == 1
    state = play(state, "declare intrigue")
    assert state.challenge == "intrigue" and state.current_player == 0 and state.phase == "roll"
    assert state.bar is not None and state.bar.notation == "full-house:4,4,4,6,6"
    state = play(state, "roll 5,5,5,5,1", "keep 5,5,5,5", "roll 2", "keep 5,5,5,5", "roll 5")
    # the third roll ends the challenger's turn automatically; five of a kind beats the full house
    assert state.power == (1, 0) and state.history[-1].winner == 0
    assert state.history[-1].finals == ((1, (6, 6, 4, 4, 4)), (0, (5, 5, 5, 5, 5)))
    # least power goes first next round: Lannister (seat 1) has 0
    assert state.first_player == 1 and state.phase == "roll" and state.round_number == 2


def test_chance_outcomes_are_exact_and_sum_to_one() -> None:
    state = new_game(["A", "B", "C"], seed=1)
    outcomes = chance_outcomes(state)
    assert [p for _, p in outcomes] == [Fraction(1, 3)] * 3
    state = play(state, "first 2", "roll 6,6,6,1,2", "keep 6,6,6")
    outcomes = chance_outcomes(state)
    assert len(outcomes) == 21 and sum(p for _, p in outcomes) == 1
    assert dict(outcomes)[Roll((1, 1))] == Fraction(1, 36)
    assert dict(outcomes)[Roll((2, 1))] == Fraction(2, 36)
    assert chance_outcomes(play(state, "roll 1,1")) == ()


def test_proposals_come_from_the_seeded_generator_in_the_state() -> None:
    first = advance(new_game(["A", "B"], seed=42))
    second = advance(new_game(["A", "B"], seed=42))
    assert first == second and first.dice == second.dice
    other = advance(new_game(["A", "B"], seed=43))
    assert other.rng != first.rng
    # whatever outcome is applied, the generator advances the same way (replay never re-rolls)
    state = new_game(["A", "B"], seed=42)
    proposed = apply_action(state, propose_chance(state))
    forced = apply_action(state, ChooseFirst(1 - proposed.first_player))
    assert proposed.rng == forced.rng


def test_propose_at_a_decision_node_is_refused() -> None:
    state = play(new_game(["A", "B"], seed=0), "first 0", "roll 1,2,3,4,5")
    with pytest.raises(IllegalActionError) as info:
        propose_chance(state)
    assert info.value.code == "iron-die/not-chance"


def test_legal_actions() -> None:
    state = play(new_game(["A", "B"], seed=0), "first 0", "roll 6,6,4,4,2")
    actions = legal_actions(state)
    assert Declare("faith") in actions and Stand() not in actions
    assert Keep((6, 6, 4, 4)) in actions and Keep(()) in actions
    assert Keep((6, 6, 4, 4, 2)) not in actions
    assert len([a for a in actions if isinstance(a, Keep)]) == 3 * 3 * 2 - 1
    state = play(state, "keep none", "roll 1,1,1,1,1", "keep none", "roll 1,1,1,1,1")
    assert legal_actions(state) == (Declare("military"), Declare("faith"), Declare("intrigue"))
    state = play(state, "declare military", "roll 2,2,2,2,2")
    assert Stand() in legal_actions(state) and not any(isinstance(a, Declare) for a in legal_actions(state))


ILLEGAL = [
    # (setup notations, illegal action, code, words in the message)
    ((), "roll 1,2,3,4,5", "wrong-phase", "chance"),
    ((), "first 5", "not-a-candidate", "seat 5"),
    (("first 0",), "keep 6", "wrong-phase", "A"),
    (("first 0",), "roll 1,2,3", "bad-roll", "expected 5 faces"),
    (("first 0", "roll 6,6,4,4,2"), "keep 5", "not-held", "6,6,4,4,2"),
    (("first 0", "roll 6,6,4,4,2"), "keep 6,6,4,4,2", "keep-all", "declare"),
    (("first 0", "roll 6,6,4,4,2"), "stand", "wrong-phase", "declaring"),
    (("first 0", "roll 6,6,4,4,2"), "first 1", "wrong-phase", "decision"),
    (
        ("first 0", "roll 6,6,4,4,2", "keep none", "roll 1,1,1,1,1", "keep none", "roll 1,1,1,1,1"),
        "keep 1",
        "no-rolls-left",
        "three rolls",
    ),
    (
        ("first 0", "roll 6,6,4,4,2", "declare faith", "roll 1,1,1,1,1"),
        "declare faith",
        "wrong-phase",
        "only the first player",
    ),
    (("first 0", "roll 6,6,4,4,2", "declare faith", "roll 1,1,1,1,1"), "keep 1,1,1,1,1", "keep-all", "stand"),
]


@pytest.mark.parametrize(("setup", "notation", "code", "words"), ILLEGAL)
def test_illegal_actions_are_rejected_with_codes_and_leave_the_state_unchanged(
    setup: tuple[str, ...], notation: str, code: str, words: str
) -> None:
    state = play(new_game(["A", "B"], seed=0), *setup)
    snapshot = play(new_game(["A", "B"], seed=0), *setup)
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, parse_action(notation))
    assert info.value.code == f"iron-die/{code}"
    written = parse_action(notation).notation
    assert words in info.value.message
    assert info.value.message.startswith(f"{written} by {state.actor_name()}: ")
    assert state == snapshot


def test_unknown_challenge_and_non_actions() -> None:
    state = play(new_game(["A", "B"], seed=0), "first 0", "roll 6,6,4,4,2")
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, Declare("magic"))
    assert (
        info.value.code == "iron-die/unknown-challenge" and "military, faith, intrigue" in info.value.message
    )
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, "keep 6")  # type: ignore[arg-type]
    assert info.value.code == "iron-die/not-an-action"
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, Keep((7,)))
    assert info.value.code == "iron-die/not-held"


def test_game_over_rejects_everything() -> None:
    state = new_game(["A", "B"], seed=0)
    state = advance(state)
    from dunenb.iron_die.bots import OptimalBot
    from dunenb.iron_die.simulate import play_game

    final = play_game(["A", "B"], 0, [OptimalBot(), OptimalBot()])
    assert final.is_over and final.winner is not None and max(final.power) == 5
    assert legal_actions(final) == () and chance_outcomes(final) == ()
    with pytest.raises(IllegalActionError) as info:
        apply_action(final, Stand())
    assert info.value.code == "iron-die/game-over" and "won" in info.value.message


def test_new_game_validates_players_and_seed() -> None:
    for players in (["A"], ["A", "A"], ["A", ""], "AB", [1, 2]):
        with pytest.raises(InputError) as info:
            new_game(players, 0)  # type: ignore[arg-type]
        assert info.value.code == "iron-die/players" and "2 or more distinct" in info.value.message
    for seed in (-1, 1.5, True, "3"):
        with pytest.raises(InputError) as info:
            new_game(["A", "B"], seed)  # type: ignore[arg-type]
        assert info.value.code == "iron-die/seed"


def test_actions_round_trip_through_dicts_and_notation() -> None:
    for action in (ChooseFirst(2), Roll((1, 6, 3)), Keep(()), Keep((2, 6)), Stand(), Declare("intrigue")):
        assert action_from_dict(action.to_dict()) == action
        assert parse_action(action.notation) == action
    with pytest.raises(InputError) as info:
        parse_action("jump 3")
    assert info.value.code == "iron-die/notation" and "declare military|faith|intrigue" in info.value.message


def test_summary_is_json_friendly() -> None:
    import json

    state = play(
        new_game(["A", "B"], seed=0), "first 0", "roll 6,6,4,4,2", "declare military", "roll 1,1,1,1,1"
    )
    summary = state.summary()
    assert summary["to_beat"] == "22" and summary["current_player"] == "B" and summary["rolls_left"] == 2
    json.dumps(summary)
