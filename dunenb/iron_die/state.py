"""The immutable state of a game of Le Dé de Fer.

Phases: ``"first"`` (chance: draw the first player among ``candidates``), ``"roll"`` (chance: the dice
not in ``kept`` are rolled), ``"decide"`` (the player whose turn it is keeps, stands or declares) and
``"over"``. Dice are multisets written high to low. Every applied action is recorded in ``actions``.

>>> from dunenb.iron_die.engine import new_game
>>> state = new_game(["Stark", "Lannister"], seed=3)
>>> state.phase, state.candidates, state.power
('first', (0, 1), (0, 0))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dunenb.iron_die.actions import Action
from dunenb.iron_die.dice import ROLLS_PER_TURN
from dunenb.iron_die.options import DEFAULT_OPTIONS, TableOptions
from dunenb.iron_die.results import Result, result_of
from dunenb.iron_die.rng import RngState

#: Phases of a game.
PHASES: tuple[str, ...] = ("first", "roll", "decide", "over")


@dataclass(frozen=True)
class RoundRecord:
    """A finished challenge: who started, what was declared, every final hand (turn order) and the winner."""

    number: int
    first_player: int
    challenge: str
    finals: tuple[tuple[int, tuple[int, ...]], ...]
    winner: int

    def to_dict(self, players: tuple[str, ...], options: TableOptions = DEFAULT_OPTIONS) -> dict[str, Any]:
        """A JSON-friendly summary with player names and result notations (under the table ``options``)."""
        return {
            "round": self.number,
            "first_player": players[self.first_player],
            "challenge": self.challenge,
            "results": [
                {"player": players[p], "dice": list(d), "result": result_of(self.challenge, d, options).notation}
                for p, d in self.finals
            ],
            "winner": players[self.winner],
        }


@dataclass(frozen=True)
class IronDieState:
    """A game position. Build it with :func:`dunenb.iron_die.engine.new_game`; change it only with
    :func:`dunenb.iron_die.engine.apply_action` (which returns a new state). ``options`` are the table's
    readings of the faith challenge (IRON-GAP-17, IRON-GAP-18)."""

    players: tuple[str, ...]
    seed: int
    rng: RngState
    power: tuple[int, ...]
    phase: str
    round_number: int
    candidates: tuple[int, ...]
    first_player: int | None
    order: tuple[int, ...]
    turn: int
    dice: tuple[int, ...]
    kept: tuple[int, ...]
    rolls_used: int
    challenge: str | None
    finals: tuple[tuple[int, tuple[int, ...]], ...]
    leader: int | None
    last_winner: int | None
    history: tuple[RoundRecord, ...]
    winner: int | None
    actions: tuple[Action, ...]
    options: TableOptions = DEFAULT_OPTIONS

    def evolve(self, **changes: Any) -> IronDieState:
        """A copy with some fields changed (a fast ``dataclasses.replace`` for the engine's own use).

        >>> from dunenb.iron_die.engine import new_game
        >>> state = new_game(["A", "B"], seed=0)
        >>> state.evolve(round_number=2).round_number, state.round_number
        (2, 1)
        """
        unknown = set(changes) - set(self.__dict__)
        if unknown:
            raise TypeError(f"unknown state fields: {', '.join(sorted(unknown))}")
        new = object.__new__(IronDieState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    @property
    def is_over(self) -> bool:
        """True once a player has reached the power needed to win."""
        return self.phase == "over"

    @property
    def is_chance(self) -> bool:
        """True when the next action is drawn by chance (first-player draw or a roll)."""
        return self.phase in ("first", "roll")

    @property
    def current_player(self) -> int | None:
        """The seat rolling or deciding now (``None`` during a first-player draw or once the game is over)."""
        if self.phase in ("roll", "decide"):
            return self.order[self.turn]
        return None

    @property
    def is_initiator_turn(self) -> bool:
        """True during the first player's own rolls (before he declares)."""
        return self.phase in ("roll", "decide") and self.turn == 0

    @property
    def rolls_left(self) -> int:
        """How many more rolls the current player may make (0 to 3)."""
        return ROLLS_PER_TURN - self.rolls_used

    @property
    def bar(self) -> Result | None:
        """The result to beat: the best result of this round so far (``None`` before the declaration)."""
        if self.challenge is None or self.leader is None:
            return None
        return result_of(self.challenge, dict(self.finals)[self.leader], self.options)

    def actor_name(self) -> str:
        """Who acts now, for messages: a player's name, ``"chance"`` for a draw, ``"nobody"`` at the end."""
        player = self.current_player
        if player is not None:
            return self.players[player]
        return "chance" if self.phase == "first" else "nobody"

    def summary(self) -> dict[str, Any]:
        """A JSON-friendly summary of the position.

        >>> from dunenb.iron_die.engine import new_game
        >>> new_game(["A", "B"], seed=0).summary()["power"]
        {'A': 0, 'B': 0}
        """
        player = self.current_player
        bar = self.bar
        return {
            "players": list(self.players),
            "power": dict(zip(self.players, self.power, strict=True)),
            "phase": self.phase,
            "round": self.round_number,
            "first_player": None if self.first_player is None else self.players[self.first_player],
            "current_player": None if player is None else self.players[player],
            "dice": list(self.dice),
            "rolls_left": self.rolls_left if player is not None else None,
            "challenge": self.challenge,
            "to_beat": None if bar is None else bar.notation,
            "winner": None if self.winner is None else self.players[self.winner],
            "history": [record.to_dict(self.players, self.options) for record in self.history],
        }
