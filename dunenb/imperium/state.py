"""The immutable state of a Dune: Imperium game.

A state holds the board, one :class:`PlayerState` per seat and a *queue* of :class:`Task` values: the
engine resolves automatic tasks itself and stops at the first task that needs a chance outcome or a player
decision; that task is ``state.pending``. Hidden zones (hands, decks, intrigue cards) are sorted tuples
of card ids: a face-down deck is an unordered multiset (IMP-GAP-2).

>>> from dunenb.imperium.engine import new_game
>>> state = new_game(["A", "B"], seed=1, leaders=["paul_atreides", "glossu_rabban"])
>>> state.pending.kind, state.players[1].spice, state.players[1].solari
('row', 1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dunenb.iron_die.rng import RngState

#: Pending task kinds resolved by a chance action.
CHANCE_TASKS: frozenset[str] = frozenset({"first", "draw", "intrigue", "row", "conflict", "steal", "peek"})
#: Pending task kinds resolved by a player decision.
CHOICE_TASKS: frozenset[str] = frozenset(
    {
        "turn",
        "order",
        "optional",
        "faction",
        "trash",
        "one_of",
        "deploy",
        "buy",
        "combat_turn",
        "secret_factions",
        "reserve",
    }
)


@dataclass(frozen=True)
class Task:
    """One step of the engine's queue: ``kind``, the seat concerned (-1 for none) and arguments."""

    kind: str
    player: int = -1
    data: tuple[Any, ...] = ()


@dataclass(frozen=True)
class PlayerState:
    """A seat's resources, tracks, troops, cards and per-round counters."""

    leader: str
    solari: int
    spice: int
    water: int
    score: int
    influence: tuple[int, ...]
    bonus_taken: tuple[bool, ...]
    garrison: int
    conflict: int
    supply: int
    hand: tuple[str, ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    played: tuple[str, ...]
    revealed: tuple[str, ...]
    intrigues: tuple[str, ...]
    trashed: tuple[str, ...]
    agents: int
    placed: int
    swordmaster: bool
    council: bool
    mentat: bool
    mentat_next: bool
    done: bool
    persuasion: int
    swords: int
    recruited: int
    deploy_base: int
    #: The known top card of the deck, not in ``deck`` (Prescience, IMP-GAP-33).
    deck_top: tuple[str, ...] = ()
    #: Row cards set aside for this player (Manipulate, IMP-GAP-36).
    reserved: tuple[str, ...] = ()
    #: Factions chosen secretly at setup (Masterstroke, IMP-GAP-35) and whether they are shown.
    secret_factions: tuple[str, ...] = ()
    secret_shown: bool = False
    #: Once-per-game powers already used.
    used_powers: tuple[str, ...] = ()

    def evolve(self, **changes: Any) -> PlayerState:
        """A copy with some fields changed."""
        new = object.__new__(PlayerState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    @property
    def agents_left(self) -> int:
        """Agents still on the leader (the Mentat counts while held, IMP-GAP-11)."""
        return self.agents + (1 if self.mentat else 0) - self.placed

    def resource(self, name: str) -> int:
        return int(getattr(self, name))

    def owned(self) -> tuple[str, ...]:
        """Every card the player owns (hand, deck, discard, in play; not the row cards set aside)."""
        return self.hand + self.deck_top + self.deck + self.discard + self.played + self.revealed

    @property
    def deck_size(self) -> int:
        """Cards in the deck, the known top card included."""
        return len(self.deck) + len(self.deck_top)


@dataclass(frozen=True)
class ImperiumState:
    """A game position; build it with :func:`dunenb.imperium.engine.new_game` and change it only with
    :func:`dunenb.imperium.engine.apply_action` (which returns a new state)."""

    names: tuple[str, ...]
    seed: int
    rng: RngState
    round: int
    first: int
    current: int
    phase: str
    players: tuple[PlayerState, ...]
    row: tuple[str, ...]
    imperium_deck: tuple[str, ...]
    reserve: tuple[tuple[str, int], ...]
    intrigue_deck: tuple[str, ...]
    intrigue_discard: tuple[str, ...]
    conflict: str | None
    conflicts_seen: tuple[str, ...]
    occupied: tuple[int, ...]
    bonus_spice: tuple[int, ...]
    alliances: tuple[int, ...]
    control: tuple[int, ...]
    combat_order: tuple[int, ...]
    combat_index: int
    combat_passes: int
    queue: tuple[Task, ...]
    winners: tuple[int, ...]
    history: tuple[dict[str, Any], ...]
    actions: tuple[Any, ...]

    def evolve(self, **changes: Any) -> ImperiumState:
        """A copy with some fields changed (a fast ``dataclasses.replace`` for the engine's own use)."""
        new = object.__new__(ImperiumState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def with_player(self, seat: int, **changes: Any) -> ImperiumState:
        """A copy with one seat's fields changed."""
        players = list(self.players)
        players[seat] = players[seat].evolve(**changes)
        return self.evolve(players=tuple(players))

    @property
    def pending(self) -> Task | None:
        """The task waiting for an action (``None`` once the game is over)."""
        return self.queue[0] if self.queue else None

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def is_chance(self) -> bool:
        """True when the next action is a chance outcome."""
        return bool(self.queue) and self.queue[0].kind in CHANCE_TASKS

    @property
    def actor(self) -> int | None:
        """The seat that decides now (``None`` at a chance node or at the end)."""
        task = self.pending
        if task is None or task.kind in CHANCE_TASKS:
            return None
        return task.player

    @property
    def leaders(self) -> tuple[str, ...]:
        return tuple(p.leader for p in self.players)

    def actor_name(self) -> str:
        actor = self.actor
        if actor is not None:
            return self.names[actor]
        return "chance" if self.queue else "nobody"
