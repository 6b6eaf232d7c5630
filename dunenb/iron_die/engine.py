"""The rules engine of Le Dé de Fer: a pure, checked ``apply_action`` and the chance nodes.

A round: the first player rolls his five dice, keeps any and rerolls up to twice, then declares the
challenge (IRON-GAP-12); every other player, in seat order after him (IRON-GAP-3), rolls knowing the
challenge and the best result so far (IRON-GAP-13) and must strictly beat it (IRON-GAP-1, IRON-GAP-2).
The best result wins one power point; the first to 5 power wins the game (IRON-GAP-14). The next first
player has the least power, then is the last winner, then is drawn at random (IRON-GAP-11).

>>> state = new_game(["Stark", "Lannister"], seed=1)
>>> [(a.notation, str(p)) for a, p in chance_outcomes(state)]
[('first 0', '1/2'), ('first 1', '1/2')]
>>> state = apply_action(state, ChooseFirst(1))
>>> state = apply_action(state, Roll((6, 6, 4, 4, 2)))
>>> state.current_player, state.dice, state.rolls_left
(1, (6, 6, 4, 4, 2), 2)
>>> apply_action(state, Stand())
Traceback (most recent call last):
...
dunenb.errors.IllegalActionError: [iron-die/wrong-phase] stand by Lannister: the first player ends \
his rolls by declaring a challenge (declare military|faith|intrigue), not by standing
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from dunenb.errors import IllegalActionError, InputError
from dunenb.iron_die.actions import Action, ChooseFirst, Declare, Keep, Roll, Stand
from dunenb.iron_die.dice import (
    N_DICE,
    is_submultiset,
    is_valid_dice,
    normalise,
    roll_distribution,
    sub_multisets,
)
from dunenb.iron_die.options import DEFAULT_OPTIONS, TableOptions
from dunenb.iron_die.results import CHALLENGES, result_of
from dunenb.iron_die.rng import draw_index, draw_roll, initial_rng
from dunenb.iron_die.rules_data import load_rules
from dunenb.iron_die.state import IronDieState, RoundRecord


def check_players(players: object) -> tuple[str, ...]:
    """Return the names as a tuple, or raise :class:`InputError` (2 to 20 distinct non-empty names, GAP-59)."""
    minimum, maximum = load_rules().min_players, load_rules().max_players
    if (
        not isinstance(players, (list, tuple))
        or not minimum <= len(players) <= maximum
        or not all(isinstance(name, str) and name.strip() for name in players)
        or len(set(players)) != len(players)
    ):
        raise InputError(
            "iron-die/players",
            f"players: expected {minimum} or more distinct non-empty names (at most {maximum}, GAP-59), "
            f"got {players!r}",
        )
    return tuple(players)


def check_seed(seed: object) -> int:
    """Return the seed, or raise :class:`InputError` (a non-negative integer)."""
    if type(seed) is not int or seed < 0:
        raise InputError("iron-die/seed", f"seed: expected a non-negative integer, got {seed!r}")
    return seed


def new_game(players: Sequence[str], seed: int, options: TableOptions | None = None) -> IronDieState:
    """A new game: everyone at 0 power, the first player still to be drawn (IRON-GAP-11); ``options`` are
    the table's faith readings (IRON-GAP-17, IRON-GAP-18; default readings when omitted).

    >>> new_game(["A"], seed=0)
    Traceback (most recent call last):
    ...
    dunenb.errors.InputError: [iron-die/players] players: expected 2 or more distinct non-empty names \
(at most 20, GAP-59), got ['A']
    """
    names = check_players(players if isinstance(players, (str, list, tuple)) else list(players))
    seed = check_seed(seed)
    if options is not None and not isinstance(options, TableOptions):
        raise InputError("iron-die/option", f"options: expected a TableOptions, got {options!r}")
    return IronDieState(
        players=names,
        seed=seed,
        rng=initial_rng(seed),
        power=(0,) * len(names),
        phase="first",
        round_number=1,
        candidates=tuple(range(len(names))),
        first_player=None,
        order=(),
        turn=0,
        dice=(),
        kept=(),
        rolls_used=0,
        challenge=None,
        finals=(),
        leader=None,
        last_winner=None,
        history=(),
        winner=None,
        actions=(),
        options=DEFAULT_OPTIONS if options is None else options,
    )


# ----------------------------------------------------------------------------------------------- queries


def chance_outcomes(state: IronDieState) -> tuple[tuple[Action, Fraction], ...]:
    """Every outcome of the pending chance node with its exact probability (empty at a decision node).

    >>> state = apply_action(new_game(["A", "B"], seed=0), ChooseFirst(0))
    >>> outcomes = chance_outcomes(state)
    >>> len(outcomes), sum(p for _, p in outcomes)
    (252, Fraction(1, 1))
    """
    if state.phase == "first":
        share = Fraction(1, len(state.candidates))
        return tuple((ChooseFirst(player), share) for player in state.candidates)
    if state.phase == "roll":
        return _roll_outcomes(N_DICE - len(state.kept))
    return ()


@cache
def _roll_outcomes(count: int) -> tuple[tuple[Action, Fraction], ...]:
    return tuple((Roll(dice), p) for dice, p in roll_distribution(count))


def legal_actions(state: IronDieState) -> tuple[Action, ...]:
    """The legal actions: the chance outcomes at a chance node, the player's choices otherwise.

    >>> state = apply_action(new_game(["A", "B"], seed=0), ChooseFirst(0))
    >>> state = apply_action(state, Roll((6, 6, 1, 1, 1)))
    >>> [a.notation for a in legal_actions(state)][:4], len(legal_actions(state))
    (['keep 6,6,1,1', 'keep 6,1,1,1', 'keep 6,6,1', 'keep 6,1,1'], 14)
    """
    if state.is_chance:
        return tuple(action for action, _ in chance_outcomes(state))
    if state.phase != "decide":
        return ()
    actions: list[Action] = []
    if state.rolls_left > 0:
        actions += [Keep(keep) for keep in sub_multisets(state.dice) if len(keep) < N_DICE]
    if state.is_initiator_turn:
        actions += [Declare(challenge) for challenge in CHALLENGES]
    else:
        actions.append(Stand())
    return tuple(actions)


def propose_chance(state: IronDieState) -> Action:
    """The outcome that the state's seeded generator proposes for the pending chance node.

    >>> state = new_game(["A", "B"], seed=5)
    >>> propose_chance(state) == propose_chance(state)
    True
    """
    if state.phase == "first":
        index, _ = draw_index(state.rng, len(state.candidates))
        return ChooseFirst(state.candidates[index])
    if state.phase == "roll":
        dice, _ = draw_roll(state.rng, N_DICE - len(state.kept))
        return Roll(dice)
    raise IllegalActionError(
        "iron-die/not-chance", f"propose by {state.actor_name()}: no chance node pending"
    )


def advance(state: IronDieState) -> IronDieState:
    """Resolve chance nodes with the proposed outcomes until a player must decide or the game is over."""
    while state.is_chance:
        state = apply_action(state, propose_chance(state))
    return state


# ----------------------------------------------------------------------------------------------- actions


def _illegal(state: IronDieState, action: Action, code: str, reason: str) -> IllegalActionError:
    notation = getattr(action, "notation", repr(action))
    return IllegalActionError(f"iron-die/{code}", f"{notation} by {state.actor_name()}: {reason}")


def apply_action(state: IronDieState, action: Action) -> IronDieState:
    """Return the state after ``action``; an illegal action raises :class:`IllegalActionError`.

    The input state is never changed (states are immutable). The error's message names the action, the
    player (or ``chance``) and the reason; its code is one of ``iron-die/game-over``,
    ``iron-die/wrong-phase``, ``iron-die/not-a-candidate``, ``iron-die/bad-roll``,
    ``iron-die/no-rolls-left``, ``iron-die/not-held``, ``iron-die/keep-all``, ``iron-die/unknown-challenge``
    or ``iron-die/not-an-action``.
    """
    if state.phase == "over":
        winner = state.players[state.winner] if state.winner is not None else "?"
        raise _illegal(state, action, "game-over", f"the game is over ({winner} won)")
    if not isinstance(action, (ChooseFirst, Roll, Keep, Stand, Declare)):
        raise _illegal(state, action, "not-an-action", "not an Iron Die action")
    if state.phase == "first":
        new = _apply_first(state, action)
    elif state.phase == "roll":
        new = _apply_roll(state, action)
    else:
        new = _apply_decision(state, action)
    return new.evolve(actions=state.actions + (action,))


def _apply_first(state: IronDieState, action: Action) -> IronDieState:
    if not isinstance(action, ChooseFirst):
        raise _illegal(
            state, action, "wrong-phase", "the first player must be drawn first (a 'first N' action)"
        )
    if action.player not in state.candidates:
        allowed = ", ".join(map(str, state.candidates))
        raise _illegal(
            state, action, "not-a-candidate", f"seat {action.player} is not among the tied seats {allowed}"
        )
    _, rng = draw_index(state.rng, len(state.candidates))
    return _start_round(state.evolve(rng=rng), action.player)


def _apply_roll(state: IronDieState, action: Action) -> IronDieState:
    count = N_DICE - len(state.kept)
    if not isinstance(action, Roll):
        raise _illegal(
            state, action, "wrong-phase", f"{count} dice are being rolled (a 'roll' action is expected)"
        )
    if not is_valid_dice(action.dice, count):
        raise _illegal(state, action, "bad-roll", f"expected {count} faces 1-6, got {len(action.dice)} dice")
    _, rng = draw_roll(state.rng, count)
    state = state.evolve(
        rng=rng,
        dice=normalise(state.kept + action.dice),
        kept=(),
        rolls_used=state.rolls_used + 1,
        phase="decide",
    )
    if not state.is_initiator_turn and state.rolls_left == 0:
        return _end_challenger_turn(state)
    return state


def _apply_decision(state: IronDieState, action: Action) -> IronDieState:
    initiator = state.is_initiator_turn
    if isinstance(action, Keep):
        if state.rolls_left == 0:
            raise _illegal(state, action, "no-rolls-left", "all three rolls are used: declare a challenge")
        if not is_valid_dice(action.dice) or not is_submultiset(action.dice, state.dice):
            have = ",".join(map(str, state.dice))
            raise _illegal(state, action, "not-held", f"those dice are not among the player's dice {have}")
        if len(action.dice) == N_DICE:
            alternative = "declare a challenge" if initiator else "stand"
            raise _illegal(
                state, action, "keep-all", f"keeping all five dice rerolls nothing: {alternative} instead"
            )
        return state.evolve(phase="roll", kept=action.dice)
    if isinstance(action, Stand):
        if initiator:
            raise _illegal(
                state,
                action,
                "wrong-phase",
                f"the first player ends his rolls by declaring a challenge (declare {'|'.join(CHALLENGES)}), "
                "not by standing",
            )
        return _end_challenger_turn(state)
    if isinstance(action, Declare):
        if not initiator:
            raise _illegal(
                state,
                action,
                "wrong-phase",
                f"only the first player declares; {state.challenge} was declared",
            )
        if action.challenge not in CHALLENGES:
            raise _illegal(state, action, "unknown-challenge", f"allowed challenges: {', '.join(CHALLENGES)}")
        player = state.order[0]
        state = state.evolve(challenge=action.challenge, finals=((player, state.dice),), leader=player)
        return _start_turn(state, 1)
    raise _illegal(state, action, "wrong-phase", "a player decision is expected (keep, stand or declare)")


def _start_round(state: IronDieState, first: int) -> IronDieState:
    count = len(state.players)
    order = tuple((first + offset) % count for offset in range(count))
    state = state.evolve(
        first_player=first, order=order, candidates=(), challenge=None, finals=(), leader=None
    )
    return _start_turn(state, 0)


def _start_turn(state: IronDieState, turn: int) -> IronDieState:
    return state.evolve(phase="roll", turn=turn, dice=(), kept=(), rolls_used=0)


def _end_challenger_turn(state: IronDieState) -> IronDieState:
    player = state.order[state.turn]
    assert state.challenge is not None and state.leader is not None
    bar = result_of(state.challenge, dict(state.finals)[state.leader], state.options)
    leader = player if result_of(state.challenge, state.dice, state.options).beats(bar) else state.leader
    state = state.evolve(finals=state.finals + ((player, state.dice),), leader=leader)
    if state.turn + 1 < len(state.order):
        return _start_turn(state, state.turn + 1)
    return _finish_round(state)


def _finish_round(state: IronDieState) -> IronDieState:
    assert state.leader is not None and state.first_player is not None and state.challenge is not None
    winner = state.leader
    power = tuple(p + (1 if seat == winner else 0) for seat, p in enumerate(state.power))
    record = RoundRecord(state.round_number, state.first_player, state.challenge, state.finals, winner)
    state = state.evolve(power=power, history=state.history + (record,), last_winner=winner)
    if power[winner] >= load_rules().power_to_win:
        return state.evolve(phase="over", winner=winner, dice=(), kept=(), rolls_used=0, turn=0)
    least = min(power)
    tied = tuple(seat for seat, p in enumerate(power) if p == least)
    state = state.evolve(round_number=state.round_number + 1)
    if len(tied) == 1:
        return _start_round(state, tied[0])
    if winner in tied:
        return _start_round(state, winner)
    return state.evolve(
        phase="first",
        candidates=tied,
        first_player=None,
        order=(),
        turn=0,
        dice=(),
        kept=(),
        rolls_used=0,
        challenge=None,
        finals=(),
        leader=None,
    )
