"""Bots for Le Dé de Fer: the exact optimal bot and a naive, human-like bot.

* :class:`OptimalBot` - as first player it follows :func:`~dunenb.iron_die.initiator.initiator_policy`
  (keeps and the declared challenge that maximise the chance of winning the point); as a challenger it
  follows :func:`~dunenb.iron_die.solver.beat_policy` against the best result so far.
* :class:`NaiveBot` - rules of thumb: keep 5s and 6s for military, pairs making 7 for faith,
  the biggest group of equal faces (or a straight draw) for intrigue; stop when the hand looks good or
  already beats the result to beat; as first player it aims at and declares the challenge its dice
  suit best (three of a kind or better: intrigue; two sevens: faith; a sum of 20 or more: military ...).

>>> from dunenb.iron_die.engine import apply_action, new_game
>>> from dunenb.iron_die.actions import ChooseFirst, Roll
>>> state = apply_action(apply_action(new_game(["A", "B"], seed=0), ChooseFirst(0)), Roll((6, 6, 6, 5, 5)))
>>> OptimalBot().choose(state), NaiveBot().choose(state)
(Declare(challenge='military'), Declare(challenge='intrigue'))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Protocol

from dunenb.errors import IllegalActionError, InputError
from dunenb.iron_die.actions import Action, Declare, Keep, Stand
from dunenb.iron_die.dice import normalise
from dunenb.iron_die.faith import TARGET, faith_claim
from dunenb.iron_die.hands import intrigue_hand
from dunenb.iron_die.initiator import initiator_policy
from dunenb.iron_die.results import Result, result_of
from dunenb.iron_die.solver import beat_policy
from dunenb.iron_die.state import IronDieState


class Bot(Protocol):
    """Anything that picks an action at a decision node."""

    name: str

    def choose(self, state: IronDieState) -> Action:
        """The action to play for the current player (the state must be at a decision node)."""
        ...


def _require_decision(state: IronDieState, bot: str) -> None:
    if state.phase != "decide":
        raise IllegalActionError("iron-die/not-a-decision", f"{bot} bot: no decision pending ({state.phase})")


class OptimalBot:
    """Plays the exact optimal policies (per challenge point, IRON-GAP-16)."""

    name = "optimal"

    def choose(self, state: IronDieState) -> Action:
        """The optimal action for the current player."""
        _require_decision(state, self.name)
        if state.is_initiator_turn:
            policy = initiator_policy(len(state.players), options=state.options)
            keep = policy.best_keep(state.dice, state.rolls_left)
            if keep == state.dice:
                return Declare(policy.declare_for(state.dice))
            return Keep(keep)
        assert state.challenge is not None and state.bar is not None
        keep = beat_policy(state.challenge, state.bar).best_keep(state.dice, state.rolls_left)
        return Stand() if keep == state.dice else Keep(keep)


def naive_plan(dice: Iterable[int]) -> str:
    """The challenge a casual first player would aim at (and declare) with these dice.

    >>> naive_plan((1, 1, 1, 4, 2)), naive_plan((6, 1, 5, 2, 3)), naive_plan((6, 6, 5, 5, 4))
    ('intrigue', 'faith', 'military')
    """
    dice = normalise(dice)
    hand = intrigue_hand(dice)
    sevens = faith_claim(dice).sevens
    if hand.rank >= 3:
        return "intrigue"
    if sevens == 2:
        return "faith"
    if sum(dice) >= 20:
        return "military"
    if hand.rank >= 1:
        return "intrigue"
    return "faith" if sevens == 1 else "military"


def naive_looks_good(challenge: str, dice: Iterable[int]) -> bool:
    """Whether a casual first player would stop rolling with this hand.

    >>> naive_looks_good("military", (6, 6, 5, 4, 4)), naive_looks_good("intrigue", (3, 3, 3, 2, 1))
    (True, False)
    """
    dice = normalise(dice)
    if challenge == "military":
        return sum(dice) >= 25
    if challenge == "faith":
        return faith_claim(dice).sevens == 2
    return intrigue_hand(dice).rank >= 4


def naive_keep(challenge: str, dice: Iterable[int], rolls_left: int) -> tuple[int, ...]:
    """The dice a casual player keeps when aiming at ``challenge`` (may be all five: stop).

    >>> naive_keep("military", (6, 5, 3, 2, 1), 2), naive_keep("faith", (6, 1, 4, 4, 2), 2)
    ((6, 5), (6, 1))
    >>> naive_keep("intrigue", (4, 4, 2, 2, 6), 2), naive_keep("intrigue", (1, 2, 3, 4, 6), 1)
    ((4, 4, 2, 2), (4, 3, 2, 1))
    """
    dice = normalise(dice)
    if challenge == "military":
        floor = 5 if rolls_left > 1 else 4
        return tuple(face for face in dice if face >= floor)
    if challenge == "faith":
        if faith_claim(dice).sevens == 2:
            return dice
        left = Counter(dice)
        kept: list[int] = []
        for high in (6, 5, 4):
            low = TARGET - high
            while left[high] and left[low]:
                kept += [high, low]
                left[high] -= 1
                left[low] -= 1
        if kept:
            return normalise(kept)
        return (dice[0],) if dice[0] > 3 else ()
    hand = intrigue_hand(dice)
    if hand.rank in (4, 5, 7):
        return dice
    counts = Counter(dice)
    if hand.rank == 0:
        faces = set(dice)
        for low in (3, 2, 1):
            run = set(range(low, low + 4))
            if run <= faces:
                return normalise(run)
        return (max(dice),)
    if hand.rank == 2:
        return tuple(face for face in dice if counts[face] == 2)
    top = hand.tiebreak[0]
    return tuple(face for face in dice if face == top)


class NaiveBot:
    """A simple human-like heuristic (see the module docstring)."""

    name = "naive"

    def choose(self, state: IronDieState) -> Action:
        """The naive action for the current player."""
        _require_decision(state, self.name)
        dice = state.dice
        if state.is_initiator_turn:
            plan = naive_plan(dice)
            if state.rolls_left == 0 or naive_looks_good(plan, dice):
                return Declare(plan)
            keep = naive_keep(plan, dice, state.rolls_left)
            return Declare(plan) if len(keep) == len(dice) else Keep(keep)
        assert state.challenge is not None and state.bar is not None
        bar: Result = state.bar
        if result_of(state.challenge, dice, state.options).beats(bar):
            return Stand()
        keep = naive_keep(state.challenge, dice, state.rolls_left)
        return Stand() if len(keep) == len(dice) else Keep(keep)


#: Bot classes by name.
BOTS: dict[str, type] = {"optimal": OptimalBot, "naive": NaiveBot}


def make_bot(name: str, argument: str = "bot") -> Bot:
    """A bot by name; raises :class:`InputError` naming ``argument`` and the allowed names.

    >>> make_bot("optimal").name
    'optimal'
    """
    if name not in BOTS:
        raise InputError("iron-die/bot", f"{argument}: {name!r} is not a bot (allowed: {', '.join(BOTS)})")
    return BOTS[name]()


__all__ = ["BOTS", "Bot", "NaiveBot", "OptimalBot", "make_bot", "naive_keep", "naive_plan"]
