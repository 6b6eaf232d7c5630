"""The game state: frozen values, replaced and never mutated.

A :class:`GameState` is everything needed to continue a game: the configuration, the phase and what it
waits for, the board contents, each House's assets, the decks, and the seeded generator that proposes
chance outcomes. ``dataclasses.replace`` and :meth:`FrozenDict.set` build successors.

>>> tokens = Tokens(regular=3, marked=1)
>>> tokens.total, (tokens + Tokens(regular=2)).regular
(4, 5)
>>> FrozenDict({"a": 1}).set("b", 2)
FrozenDict({'a': 1, 'b': 2})
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from dunenb.records import evolve as evolve  # the engine's records are copied with it (re-exported)

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(Mapping[K, V], Generic[K, V]):
    """An immutable, hashable mapping; ``set``/``without`` return new mappings."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[K, V] | None = None) -> None:
        self._data: dict[K, V] = dict(data or {})
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    # issue 14 item 4: the reads below go straight to the inner dict, which nobody changes once the mapping is
    # made; ``Mapping``'s own versions give the same answers through ``__getitem__`` and ``__iter__``, a Python
    # call per key (a bot game reads these mappings about a million times).
    def __contains__(self, key: object) -> bool:
        return key in self._data

    def get(self, key: K, default: Any = None) -> Any:
        return self._data.get(key, default)

    def keys(self) -> KeysView[K]:
        return self._data.keys()

    def values(self) -> ValuesView[V]:
        return self._data.values()

    def items(self) -> ItemsView[K, V]:
        return self._data.items()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenDict):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenDict({self._data!r})"

    @classmethod
    def _owning(cls, data: dict[K, V]) -> FrozenDict[K, V]:
        """A mapping that takes ``data`` as it is (a fresh dict nobody else holds), without copying it again."""
        made: FrozenDict[K, V] = cls.__new__(cls)
        made._data = data
        made._hash = None
        return made

    def set(self, key: K, value: V) -> FrozenDict[K, V]:
        data = dict(self._data)
        data[key] = value
        return FrozenDict._owning(data)

    def without(self, key: K) -> FrozenDict[K, V]:
        data = dict(self._data)
        data.pop(key, None)
        return FrozenDict._owning(data)

    def updated(self, changes: Mapping[K, V]) -> FrozenDict[K, V]:
        data = dict(self._data)
        data.update(changes)
        return FrozenDict._owning(data)


@dataclass(frozen=True)
class Tokens:
    """A count of tokens: unmarked (worth 1/2 on the wheel) and marked F/S/A (worth 1, WHEEL-2)."""

    regular: int = 0
    marked: int = 0

    @property
    def total(self) -> int:
        return self.regular + self.marked

    def __add__(self, other: Tokens) -> Tokens:
        return Tokens(self.regular + other.regular, self.marked + other.marked)

    def __sub__(self, other: Tokens) -> Tokens:
        return Tokens(self.regular - other.regular, self.marked - other.marked)

    def is_empty(self) -> bool:
        return self.regular == 0 and self.marked == 0

    def to_list(self) -> list[int]:
        return [self.regular, self.marked]


#: Where a stack of tokens stands: (house, area id, sector). MAP-3b: one army lies in one sector.
ForceKey = tuple[str, str, int]


@dataclass(frozen=True)
class HouseState:
    """One House's assets off the map."""

    house: str
    spice: int
    reserve: Tokens
    tanks: Tokens = Tokens()
    harvesters: int = 0
    hand: tuple[str, ...] = ()
    rolls: tuple[int, ...] = ()  # SETUP-2: 3d10 totals, then re-rolls that broke ties (GAP-4a)
    start_position: int | None = None
    leaders: tuple[str, ...] = ()  # ids (dunenb.battle.roster, key within the House) alive and available
    leader_tanks: tuple[str, ...] = ()  # dead leaders (REVIVAL-2: only a ghola brings one back)
    traitors: tuple[tuple[str, str], ...] = ()  # TRAITOR-1: (house, leader id) held as traitors
    prediction: tuple[str, int] | None = None  # BG-P6: (House predicted to win, turn)
    revived_this_turn: int = 0  # REVIVAL-1: at most 3 per turn
    revived_marked_this_turn: int = 0  # houses.md G-3: at most 1 marked token revived per turn
    extra_card_slots: int = 0  # CHANCE-5 (L1619), GAP-20: cards allowed over the hand limit (Chance card)
    # CARD-TRUTH-1, GAP-56: the answers this House received, (turn, House asked, question id, subject, answer);
    # dunenb.engine.view shows them to this House only
    trance_answers: tuple[tuple[int, str, str, str, bool], ...] = ()
    # BG-M1: the turn of each truth trance this House asked without the card (a power's trances per turn)
    power_trances: tuple[int, ...] = ()


@dataclass(frozen=True)
class DeferredTerm:
    """ALLIANCE-8: goods promised in an alliance deal for a later turn. They are set aside when the deal is made
    (so the promise can always be kept, ALLIANCE-6/7) and handed over when turn ``due_turn`` begins, unless a new
    alliance window breaks the clauses first (ALLIANCE-4), which gives them back to ``giver``.

    ``what`` is ``"spice"`` (``amount`` units), ``"card"`` (the card ``item``), ``"leader"`` (``item`` is the
    leader's ``"owner:id"`` person) or ``"token"`` (``amount`` regular tokens)."""

    giver: str
    receiver: str
    what: str
    item: str
    amount: int
    due_turn: int
    window: int  # the window (counted over the whole game) whose deal made the term


@dataclass(frozen=True)
class LentPower:
    """ALLIANCE-12, houses.md G-10: ``owner`` lends its House power ``power`` to ``borrower`` for the turns
    ``first_turn`` to ``last_turn`` (the deal states the number of turns); a new alliance window ends it sooner
    (ALLIANCE-4)."""

    power: str
    owner: str
    borrower: str
    first_turn: int
    last_turn: int
    window: int


@dataclass(frozen=True)
class Suppression:
    """A Karama use in force (KARAMA-1, houses.md G-5, GAP-37b): ``power`` is blocked, whoever holds it.

    ``scope`` is the use's duration (``data/powers.json`` ``lasts``): ``"turn"`` and ``"game"`` lapse by
    themselves (a turn one once ``turn`` is over); ``"action"``, ``"event"`` and ``"battle"`` ones are lifted by
    the rules module when that action, event or battle is settled (:func:`dunenb.powers.karama.lift`)."""

    power: str
    karama: str
    by: str
    scope: str
    turn: int


@dataclass(frozen=True)
class GameConfig:
    """The table's choices made before play. Variant options live here, never in if-branches elsewhere."""

    houses: tuple[str, ...]
    seed: int
    secondary_storm: bool = False
    worm_option: str = "standard"
    turn_limit: int | None = None  # GAP-36c: no limit by default (GAP-60: still ends at the turn cap); 15 an option
    victory_target: int | None = None
    chance_cards: bool = False  # GAP-20: the Chance-card module (CHANCE-1..5) is optional, off by default

    def to_dict(self) -> dict[str, Any]:
        return {
            "houses": list(self.houses), "seed": self.seed, "secondary_storm": self.secondary_storm,
            "worm_option": self.worm_option, "turn_limit": self.turn_limit,
            "victory_target": self.victory_target, "chance_cards": self.chance_cards,
        }


@dataclass(frozen=True)
class Pending:
    """What the game waits for: ``kind`` of decision or chance, and who (a House or ``"chance"``)."""

    kind: str
    actor: str
    detail: FrozenDict[str, Any] = field(default_factory=FrozenDict)


@dataclass(frozen=True)
class SpiceDeck:
    """The mixed territory/worm deck (SPICE-1) as counts of unseen cards, plus the two piles (SPICE-4)."""

    remaining: FrozenDict[str, int]
    discard: FrozenDict[str, int]
    pile_tops: tuple[str | None, str | None] = (None, None)  # territory on top of each pile

    @property
    def remaining_count(self) -> int:
        return sum(self.remaining.values())


@dataclass(frozen=True)
class Event:
    """Something that happened during a transition, for logs, teaching and rendering."""

    kind: str
    text: str
    data: FrozenDict[str, Any] = field(default_factory=FrozenDict)


@dataclass(frozen=True)
class GameState:
    """A complete, immutable game position."""

    config: GameConfig
    phase: str
    turn: int
    pending: Pending | None
    houses: FrozenDict[str, HouseState]
    forces: FrozenDict[ForceKey, Tokens]
    committed_harvesters: FrozenDict[ForceKey, int]
    spice_on_map: FrozenDict[str, int]
    storm_main: int | None
    storm_secondary: int | None
    storm_tokens: FrozenDict[str, int]  # FREMEN-P1: the Fremen's secret next move per storm
    storm_moves: FrozenDict[str, int]  # this turn's movement per storm, once known
    spice_deck: SpiceDeck
    bank: int  # net spice the Bank has paid out is negative: total spice is conserved at 0
    shield_wall_standing: bool = True
    storm_dialers: tuple[str, ...] = ()  # GAP-7a/b: who dials the storm next turn
    worm_run: int = 0
    alliance_windows: int = 0
    rng_seed: int = 0
    rng_counter: int = 0
    treachery_deck: FrozenDict[str, int] = field(default_factory=FrozenDict)  # GAP-26: unseen cards by kind
    treachery_discard: tuple[str, ...] = ()  # GAP-27: face-up discard pile
    outlawed: tuple[str, ...] = ()  # CARD-ATOMICS-4, GAP-29c: Houses that used Atomics illegally
    eliminated: tuple[str, ...] = ()  # VICTORY-2, GAP-47
    events: tuple[Event, ...] = ()  # what the last transition did
    winner: str | None = None
    # BG-P3, HARKONNEN-M2: (house, territory) pairs whose tokens are at peace this turn: they neither fight, own
    # (GAP-36a, VICTORY-3) nor harvest there. Set by the phase that declares peace; read by dunenb.rules.collection.
    at_peace: tuple[tuple[str, str], ...] = ()
    chance_deck: FrozenDict[str, int] = field(default_factory=FrozenDict)  # CHANCE-1, GAP-20: unseen Chance cards
    deck_tops: FrozenDict[str, str] = field(default_factory=FrozenDict)  # ATREIDES-P2 c-d: tops held apart
    pole_ornithopters: tuple[str, ...] = ()  # CHANCE-5 (L183), GAP-21: Houses with the North Pole card this turn
    # GAP-19 (dunenb design): regular tokens received minus given in alliance deals, per House (G-1 counts 20 each
    # at the start; a deal moves tokens from one House's reserve to another's, where they serve their new House).
    tokens_traded: FrozenDict[str, int] = field(default_factory=FrozenDict)
    # ---- leaders.md K-17 destroy_tanks (TLEILAX-L03-d, -L04-d, GAP-130): per House, the tokens taken from its
    # tanks for good (no longer counted among its 20); left out of the digest while empty (older states' digests)
    tokens_destroyed: FrozenDict[str, Tokens] = field(default_factory=FrozenDict, metadata={"digest": "if-set"})
    deferred_terms: tuple[DeferredTerm, ...] = ()  # ALLIANCE-8: goods set aside for a later turn
    windows_opened: int = 0  # alliance windows opened so far in the game (ALLIANCE-4 ends the terms of earlier ones)
    lent_powers: tuple[LentPower, ...] = ()  # ALLIANCE-12: House powers lent for a number of turns
    # GAP-21, GAP-50 (dunenb.rules.ornithopters): House -> whether it had troop-transport ornithopters at the start
    # of its movement this turn; fixes its range (MOVE-4b) and harvest rate (HARVEST-7); emptied at the turn's end.
    ornithopters: FrozenDict[str, bool] = field(default_factory=FrozenDict)
    # KARAMA-1..50 (dunenb.powers.karama): the Karama uses in force; old saves load with none
    suppressions: tuple[Suppression, ...] = ()
    # TLEILAX-P3 (dunenb.rules.regeneration): (leader, turn he comes back; 0 = never, KARAMA-35)
    regenerations: tuple[tuple[str, int], ...] = ()
    # HARKONNEN-P4 (dunenb.rules.battle_powers): (owner House, leader id) of each leader held captured; he sits in
    # the capturer's ``leaders`` under the key "owner:id" until he goes home (played once, FAQ 21, KARAMA-47)
    captured: tuple[tuple[str, str], ...] = ()
    # TLEILAX-M2 (dunenb.rules.battle_powers): (House, regenerations of its main leader spent or destroyed)
    main_regenerations: tuple[tuple[str, int], ...] = ()
    # TLEILAX-M2: (House, turn at whose start its dead main leader comes back)
    main_returns: tuple[tuple[str, int], ...] = ()
    # leaders.md K-11 (dunenb.rules.pre_battle): (power ID, turn) of each use of a once-a-turn leader Voice (LC-12)
    leader_power_uses: tuple[tuple[str, int], ...] = ()
    # leaders.md S-8 (dunenb.rules.leader_specials): (House, leader key, territory) of each battle fought to its
    # outcome this turn, and the turn; emptied when a new turn's first battle is recorded
    battles_led: tuple[tuple[str, str, str, int], ...] = ()
    # leaders.md S-6 (dunenb.rules.leader_specials): (House, leader id, turn of his death) of the leaders whose death
    # starts a count (Duncan Idaho A02, the Idaho-Ghola A11); the last death of each only
    leader_deaths: tuple[tuple[str, str, int], ...] = ()
    # leaders.md S-4 (dunenb.rules.leader_specials): (House, leader id, points of base strength lost for the rest
    # of the game), Burseg after an explosion he survived
    strength_lost: tuple[tuple[str, str, int], ...] = field(default=(), metadata={"digest": "if-set"})
    # leaders.md K-24 D02-d (dunenb.rules.leader_inherit): (power passed, House, leader id holding it for good; ""
    # once lost), e.g. Logno's Weapon after her death
    powers_passed: tuple[tuple[str, str, str], ...] = field(default=(), metadata={"digest": "if-set"})

    def house_state(self, house: str) -> HouseState:
        return self.houses[house]

    def forces_in(self, area: str) -> dict[tuple[str, int], Tokens]:
        """Tokens in one area, keyed by (house, sector)."""
        return {(h, s): t for (h, a, s), t in self.forces.items() if a == area}

    def houses_in(self, area: str) -> tuple[str, ...]:
        return tuple(sorted({h for (h, a, _s) in self.forces if a == area}))

    def storm_sectors(self) -> tuple[int, ...]:
        return tuple(s for s in (self.storm_main, self.storm_secondary) if s is not None)

    @property
    def is_over(self) -> bool:
        return self.pending is None

    def total_spice(self) -> int:
        """Houses + map + spice set aside in deals + Bank balance: always 0 (spice is conserved; the Bank starts at
        minus the rest)."""
        return (sum(h.spice for h in self.houses.values()) + sum(self.spice_on_map.values()) + self.bank
                + sum(t.amount for t in self.deferred_terms if t.what == "spice"))

    def token_quota(self, house: str) -> int:
        """How many tokens ``house`` accounts for (board + reserve + tanks + tokens it set aside in a deal): 20
        (houses.md G-1) plus what it received minus what it gave in alliance deals (GAP-19),
        minus its tokens destroyed for good (K-17 destroy_tanks)."""
        destroyed = self.tokens_destroyed.get(house)  # K-17 destroy_tanks: gone for good
        return 20 + self.tokens_traded.get(house, 0) - (destroyed.total if destroyed is not None else 0)

    def tokens_set_aside(self, house: str) -> int:
        """Regular tokens ``house`` promised for a later turn (ALLIANCE-8), no longer in its reserve."""
        return sum(t.amount for t in self.deferred_terms if t.what == "token" and t.giver == house)


def _canonical(value: Any) -> Any:
    """A JSON-ready form of a state value that does not depend on insertion order: a dataclass as its class name
    and fields, a mapping as its items sorted by their canonical text, a tuple or list as a list, a scalar as
    itself (an unknown object as its ``repr``)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Mapping):
        items = [[_canonical(k), _canonical(v)] for k, v in value.items()]
        return {"map": sorted(items, key=lambda item: json.dumps(item, sort_keys=True))}
    if isinstance(value, (tuple, list)):
        return [_canonical(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"class": type(value).__name__,
                "fields": {f.name: _canonical(getattr(value, f.name)) for f in dataclasses.fields(value)
                           if f.metadata.get("digest") != "if-set" or getattr(value, f.name)}}
    return repr(value)


def state_digest(state: GameState) -> str:
    """SHA-256 of the whole state in a canonical form (issue 14 item 6): two equal states have the same digest,
    whatever order their mappings were filled in. The golden test of the shipped saves pins it
    (``tests/data/game_digests.json``, rewritten by ``python tools/pin_game_digests.py``).

    >>> from dunenb.engine import new_game
    >>> state_digest(new_game(["atreides", "fremen"], seed=1)) == state_digest(new_game(["atreides", "fremen"],
    ...                                                                                  seed=1))
    True
    """
    import hashlib  # issue 14 part 3: a replay needs no digest, so a new process does not import it

    text = json.dumps(_canonical(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
