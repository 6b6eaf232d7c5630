"""TURN-1 e): each House in storm order revives, lands, then moves (REVIVAL, LAND, MOVE, CARD-HAJJ).

The phase gives every House in storm order (TURN-2, TURN-3, ``common.storm_order``) one **slot**: a pending
node ``movement`` where that House acts until it plays ``end-slot``. In its slot a House may:

* ``revive`` (REVIVAL-1, GAP-25a, G-2, G-3): buy back up to 3 tokens a turn from its tanks at 1 spice each,
  at most 1 marked token a turn; only **before** it lands or moves (GAP-25a: revival opens the slot; design:
  several ``revive`` actions are allowed as long as the turn's totals hold). Revived tokens go to the reserve
  (G-2). The money goes to the Bene Tleilax if they play, else to the Bank (REVIVAL-1; the Tleilax reviving
  themselves pay the Bank, TLEILAX-P1).
* ``land`` (LAND-1, LAND-2, LAND-5, LAND-7, STORM-8, GAP-26b): once per turn (twice with the Hajj), one group
  from the reserve into one (area, sector), at 1 spice a token into a city or Sietch and 2 elsewhere (the North
  Pole included). The landing must come before the territory move (TURN-1 e: "lands, then moves"). Tokens
  landed in a storm sector are paid for and destroyed (they go to the tanks), except at the North Pole. The
  payment goes to the Guild if it plays and is not the lander, else to the Bank (LAND-7, GAP-26b).
* ``emerge`` (FREMEN-P4, LAND-6): the Fremen never land. In place of a landing, once a turn, they put any
  number of reserve tokens, free, into one Sietch or desert adjacent to a Sietch, in a sector that is not a
  storm sector. Nobody is paid.
* ``move`` (MOVE-1, MOVE-2, MOVE-4b, MOVE-6, MOVE-7, GAP-10, GAP-21, GAP-50): once per turn, one army (the
  tokens of one House in one (area, sector)), all of it or part of it, along a path of 1 territory, or up to 3
  if the House has ornithopters. GAP-21: it has them if, when it makes the move (the start of its movement,
  after its landing), it has at least one token in a city or Sietch (or the North Pole Chance card, GAP-20);
  the moving group need not start there. GAP-50: that answer is fixed for the turn when the move is made (or
  when the slot ends without a move) and the harvest of step j) uses it (``dunenb.rules.ornithopters``).
* ``reposition`` (MOVE-4a, GAP-22): the "move of 0", any number of times in the slot: tokens of one army go
  to another sector of the same territory. It may not enter or cross a storm sector (GAP-22, GAP-10); it is
  refused rather than destroying the tokens. Inside a Sietch on the double-storm sector no move of 0 is allowed
  at all that turn (STORM-15, GAP-11). The menu lists moves of 0 only until the first one of the slot
  (the check accepts any number; design, so that the menus form no cycle a random or seeded bot could loop in:
  every other listed action is once per slot or costs spice).
* ``hajj`` (CARD-HAJJ-1, CARD-HAJJ-2, LAND-4, MOVE-8, GAP-57): the House plays the Hajj card in its own slot
  ("during landing and movement"), at any point of it: one more landing and one more move this slot. The extra
  landing pays LAND-1 like any other and goes to the same payee; the extra move may take the army that already
  moved (doubling its move) or another, each move within its own range (MOVE-4b). The rule "lands, then moves"
  holds per round: a landing is allowed while the House has landings and moves left, so land-move-land-move and
  land-land-move-move are both fine, but no landing comes after the last move. The Fremen never land: the Hajj
  gives them the extra move only (FREMEN-P4, L1479); emergence stays once a turn. The card is discarded (GAP-27).
* Buying and selling harvesters (HARVEST-3, HARVEST-4) and the ghola card are played whenever the House is to
  act, here as in every phase (GAP-48, GAP-57): see :mod:`dunenb.rules.anytime`.
* ``end-slot``: the next House in storm order plays; after the last, the flow goes on (TURN-1 f).

**Sector geometry of a move** (MAP-7, MOVE-4b: "les secteurs ne comptent pas, mais il faut faire attention aux
tempêtes"; GAP-49, ``data/decisions/GAP-49.json``; GAP-10). Movement counts territories, not sectors: any route
of adjacent territories within the range is legal, whatever sectors the group starts from or passes. A token
still always lies in one sector (MAP-3b) and the storms sweep sectors, so a move names, for every territory it
enters, **the sector it uses there**: ``path`` is a list of ``(area, sector)``, the destination last. For a
crossed territory that is the sector the group passes through (the mover chooses any sector of it); for the
destination, the sector where it stops. Only those sectors are exposed (GAP-49): the group is not in danger in
the sector it leaves from, nor between the sectors named. Every territory on the path counts as one square
whatever its size (MAP-7, MOVE-4b), may not be entered twice ("once an army has entered a territory, it must
pass through it"), and the origin territory may not be re-entered. GAP-10: if any sector named is a storm
sector (main or secondary) outside the North Pole, the whole moving group is destroyed there (MOVE-7,
STORM-8), whatever the territory; so a territory whose every sector is under a storm cannot be crossed or
entered safely. The menu lists, for each territory within range, a shortest safe route of territories (each
crossed territory passed through its first storm-free sector) ending in each storm-free sector of it: at most
one move per (territory, sector) of the board and per group size, as before GAP-49; and, for teaching, one
storm entry per army. ``check`` accepts any well-formed path.

**The North Pole** spans all 24 sectors; an army there stands in its first sector, ``POLE_SECTOR`` (as the
setup step places it), and actions name that sector (design; MAP-3b: all sectors meet there).

**House powers** (``data/powers.json``, through :mod:`dunenb.powers`; this module never tests a House name):

* hooks ``landing.free`` (GUILD-M1: the first 5 tokens of the Guild's normal landing land free) and
  ``landing.price`` (GUILD-P2: the Guild pays half, rounded up), ``landing.payee`` (GUILD-P1), ``revival.payee``
  (TLEILAX-P1); ``storm.losses`` (FREMEN-P3, a group moving into a storm) and ``tokens.destroyed`` (TLEILAX-P2).
* Karama windows (:mod:`dunenb.rules.karama_window`, GAP-63): when a landing is announced, the uses against the
  powers that would change it (KARAMA-14, KARAMA-15, KARAMA-17); when a revival pays the Tleilax, the payer may
  play KARAMA-36; at the start of step e), KARAMA-16 (GUILD-P3) and KARAMA-26 (BG-P2). A landing whose price a
  Karama raised lands only the tokens its House can pay for; the others stay in the reserve (KARAMA-15).
* GUILD-P3 (choice of slot): the holder plays outside the storm order: before each other House's slot (and
  before the first) it is asked ``take-slot`` (play now) or ``pass`` (wait); when all others are done it plays.
* BG-P2 b (advisors): each time another House completes a landing, the holder may land 1 reserve token free in
  that territory (a storm-free sector) or at the North Pole; those tokens are at peace this turn (GAP-64).
* BG-P2 a (``land-in-peace``): the holder may declare its own landing in peace when making it: a ``land`` in
  every other respect (price, payee, Karama uses), after which its tokens in that territory are at peace this
  turn, as an advisor's are (GAP-64, GAP-83). The menu lists it only where another House already stands (peace
  changes nothing elsewhere); any other well-formed one is checked and accepted.
The per-turn revival counters are reset when this phase begins (design: REVIVAL-1 only happens here; the ghola,
played at any time, is not bound by them, GAP-57).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, ClassVar

from dunenb.actions import Action, Pass, menu_maker
from dunenb.errors import IllegalActionError
from dunenb.powers import applied, holder, holds_power
from dunenb.powers.registry import power
from dunenb.rules import flow
from dunenb.rules.anytime import BuyHarvester as BuyHarvester  # re-exported: played at any time now (GAP-57)
from dunenb.rules.anytime import SellHarvester as SellHarvester
from dunenb.rules.common import (
    Handler,
    double_storm_sietch,
    event,
    pending,
    rules,
    send_to_tanks,
    storm_losses,
    storm_order,
    with_events,
)
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.rules.ornithopters import fix_for_turn, has_ornithopters
from dunenb.state import GameState, Tokens, evolve

POLE = "pole-nord"
POLE_SECTOR = 1  # design: the Pole's army stands in its first sector, as setup places it
LAND_PRICE_SETTLEMENT = 1  # LAND-1: a city or a Sietch
LAND_PRICE_ELSEWHERE = 2  # LAND-1: mountain, desert or North Pole
REVIVAL_LIMIT = 3  # REVIVAL-1: up to 3 tokens a turn
REVIVAL_PRICE = 1  # REVIVAL-1: 1 spice a token
MARKED_REVIVAL_LIMIT = 1  # houses.md G-3: at most 1 marked token a turn
HAJJ = "hajj"  # CARD-HAJJ-1
RANGE_ON_FOOT = 1  # MOVE-4b
RANGE_WITH_ORNITHOPTERS = 3  # MOVE-4b, MOVE-5
NATIVES = "FREMEN-P4"  # LAND-6: its holder emerges instead of landing (data/powers.json)
SLOT_CHOICE = "GUILD-P3"  # its holder chooses when to play its slot (data/powers.json)
ADVISORS = "BG-P2"  # its holder may land an advisor after another House's landing (data/powers.json)
PHASE = "movement"


# --- actions --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Revive(Action):
    """REVIVAL-1, G-3, GAP-25a: buy back ``regular`` + ``marked`` tokens from the tanks (1 spice each)."""

    kind: ClassVar[str] = "revive"
    house: str
    regular: int
    marked: int = 0


@dataclass(frozen=True)
class Land(Action):
    """LAND-1, LAND-2: land one group from the reserve into (``area``, ``sector``)."""

    kind: ClassVar[str] = "land"
    house: str
    area: str
    sector: int
    regular: int
    marked: int = 0


@dataclass(frozen=True)
class Emerge(Action):
    """FREMEN-P4: the Fremen bring reserve tokens, free, into a Sietch or a desert next to one."""

    kind: ClassVar[str] = "emerge"
    house: str
    area: str
    sector: int
    regular: int
    marked: int = 0


@dataclass(frozen=True)
class Move(Action):
    """MOVE-1, MOVE-2, MOVE-4b: move tokens of the army at (``area``, ``sector``) along ``path``.

    ``path`` lists every territory entered with the sector the group uses there (passes through, or stops in for
    the destination, which comes last): any sector of the territory (MAP-7, GAP-49); storms strike there (GAP-10).
    """

    kind: ClassVar[str] = "move"
    house: str
    area: str
    sector: int
    path: tuple[tuple[str, int], ...]
    regular: int
    marked: int = 0


@dataclass(frozen=True)
class Reposition(Action):
    """MOVE-4a, GAP-22: a move of 0: tokens go to another sector of the same territory."""

    kind: ClassVar[str] = "reposition"
    house: str
    area: str
    from_sector: int
    to_sector: int
    regular: int
    marked: int = 0


@dataclass(frozen=True)
class PlayHajj(Action):
    """CARD-HAJJ-2, LAND-4, MOVE-8: play the Hajj in the House's slot: one more landing and one more move."""

    kind: ClassVar[str] = "hajj"
    house: str


@dataclass(frozen=True)
class EndSlot(Action):
    """End the House's landing-and-movement slot (TURN-1 e)."""

    kind: ClassVar[str] = "end-slot"
    house: str


@dataclass(frozen=True)
class LandAdvisor(Action):
    """BG-P2 b: after another House's landing, 1 reserve token lands free, in peace, in that territory or at the
    North Pole."""

    kind: ClassVar[str] = "advisor"
    house: str
    area: str
    sector: int
    regular: int
    marked: int = 0


@dataclass(frozen=True)
class LandInPeace(Land):
    """BG-P2 a: the holder's own landing, declared in peace when it is made (LAND-1 otherwise)."""

    kind: ClassVar[str] = "land-in-peace"


@dataclass(frozen=True)
class TakeSlot(Action):
    """GUILD-P3: the holder plays its landing-and-movement slot now, before the next House in storm order."""

    kind: ClassVar[str] = "take-slot"
    house: str


SLOT_ACTIONS: tuple[type[Action], ...] = (Revive, Land, LandInPeace, Emerge, Move, Reposition, PlayHajj, EndSlot)


# --- rule helpers ---------------------------------------------------------------------------------------

@cache
def _area(area_id: str):
    return rules().board.area(area_id)


@cache
def landing_price_per_token(area_id: str) -> int:
    """LAND-1: 1 spice a token into a city or Sietch, 2 elsewhere (mountain, desert, North Pole).

    >>> landing_price_per_token("gara-kulon"), landing_price_per_token("grande-etendue")
    (1, 2)
    """
    return LAND_PRICE_SETTLEMENT if _area(area_id).is_settlement else LAND_PRICE_ELSEWHERE


def landing_cost(area_id: str, count: int) -> int:
    """LAND-1, LAND-3: the price of landing ``count`` tokens in an area.

    >>> landing_cost("gara-kulon", 5), landing_cost("grande-etendue", 5)
    (5, 10)
    """
    return landing_price_per_token(area_id) * count



def landing_payee(state: GameState, house: str) -> str | None:
    """LAND-7, GAP-26b, GUILD-P1: who receives a landing payment: the Guild if it plays (and is not the lander),
    or the House it lent its landing income to (ALLIANCE-12), else the Bank (``None``): hook ``landing.payee``."""
    return applied(state, "landing.payee", None, {"house": house})[0]


def revival_payee(state: GameState, house: str) -> str | None:
    """REVIVAL-1, TLEILAX-P1: the Bene Tleilax if they play (and do not revive themselves), else the Bank: hook
    ``revival.payee``."""
    return applied(state, "revival.payee", None, {"house": house})[0]


def landing_price(state: GameState, house: str, area_id: str, count: int, *, first: bool = True,
                  ) -> tuple[int, tuple[str, ...]]:
    """LAND-1 for ``house`` landing ``count`` tokens, with the powers in force and their IDs: hook
    ``landing.free`` (GUILD-M1: the first 5 tokens of the normal landing, ``first``, are free) then
    ``landing.price`` (GUILD-P2: half the price of the rest, rounded up).

    >>> from dunenb.engine import new_game
    >>> state = new_game(["guild", "atreides"], seed=1)
    >>> landing_price(state, "guild", "grande-etendue", 7), landing_price(state, "atreides", "grande-etendue", 7)
    ((2, ('GUILD-M1', 'GUILD-P2')), (14, ()))
    """
    ctx = {"house": house, "first": first, "area": area_id}
    free, ids = applied(state, "landing.free", 0, ctx)
    paid = max(0, count - free)
    price, more = applied(state, "landing.price", landing_price_per_token(area_id) * paid, ctx)
    return price, ids + more


def affordable_landing(state: GameState, house: str, area_id: str, *, first: bool = True) -> int:
    """The most reserve tokens ``house`` can pay to land in ``area_id`` now (the price grows with the count)."""
    hs = state.houses[house]
    low, high = 0, hs.reserve.total
    if not landing_price(state, house, area_id, high, first=first)[1]:  # no power: LAND-1's plain rate
        return min(high, hs.spice // landing_price_per_token(area_id))
    while low < high:
        middle = (low + high + 1) // 2
        if landing_price(state, house, area_id, middle, first=first)[0] <= hs.spice:
            low = middle
        else:
            high = middle - 1
    return low


def _blocking_uses(ids: tuple[str, ...], moments: tuple[str, ...]) -> tuple[str, ...]:
    """The implemented Karama uses, played at one of ``moments``, that block the powers ``ids``."""
    return tuple(use.id for pid in ids for use in power(pid).karama
                 if use.status == "implemented" and use.moment in moments)


def is_storm_sector(state: GameState, area_id: str, sector: int) -> bool:
    """STORM-8, LAND-5, MOVE-7, GAP-10: whether entering (area, sector) meets a storm (never at the Pole)."""
    return area_id != POLE and sector in state.storm_sectors()


def move_range(state: GameState, house: str) -> int:
    """MOVE-4b: 3 territories with ornithopters (GAP-21, fixed for the turn by GAP-50), else 1."""
    return RANGE_WITH_ORNITHOPTERS if has_ornithopters(state, house) else RANGE_ON_FOOT


def area_sectors(area_id: str) -> tuple[int, ...]:
    """The sectors an army may stand in: the area's sectors, only ``POLE_SECTOR`` at the North Pole.

    MAP-7, MOVE-4b, GAP-49: they are also the sectors a moving group may use to cross the area or stop in it,
    whatever sector it comes from (sectors do not count in movement).

    >>> area_sectors("grande-etendue"), area_sectors("pole-nord")
    ((16, 17, 18, 19), (1,))
    """
    return (POLE_SECTOR,) if area_id == POLE else _area(area_id).sectors


def entry_sectors(from_area: str, from_sector: int, to_area: str) -> tuple[int, ...]:
    """The sectors of ``to_area`` a group at (from_area, from_sector) may use when it enters it: all of them
    (MAP-7, MOVE-4b, GAP-49: sectors do not count; the arguments of the group's position are kept for callers).

    >>> entry_sectors("grande-etendue", 16, "chaine-de-sihaya")
    (19, 20, 21)
    """
    del from_area, from_sector  # GAP-49: where the group comes from does not restrict the sector it uses
    return area_sectors(to_area)


def safe_sectors(state: GameState, area_id: str) -> tuple[int, ...]:
    """GAP-10, GAP-49: the sectors of ``area_id`` a moving group may use without meeting a storm (all of them
    at the North Pole; none in a territory the storms cover wholly)."""
    return _safe_sectors(area_id, frozenset(state.storm_sectors()))


@lru_cache(maxsize=4096)
def _safe_sectors(area_id: str, storms: frozenset[int]) -> tuple[int, ...]:
    if area_id == POLE:
        return (POLE_SECTOR,)  # STORM-8, MOVE-7: the storm never reaches the Pole
    return tuple(s for s in _area(area_id).sectors if s not in storms)


def reposition_route(area_id: str, from_sector: int, to_sector: int) -> tuple[int, ...]:
    """MOVE-4a: the sectors a 0-move crosses and enters inside one territory (the start excluded)."""
    sectors = _area(area_id).sectors
    i, j = sectors.index(from_sector), sectors.index(to_sector)
    return sectors[j:i] if j < i else sectors[i + 1:j + 1]


@lru_cache(maxsize=1)
def emergence_areas() -> tuple[str, ...]:
    """FREMEN-P4: the Sietchs and the deserts adjacent to a Sietch."""
    board = rules().board
    result = []
    for area in board.areas:
        if area.kind == "sietch" or (area.is_desert and any(board.area(a).kind == "sietch" for a in area.adjacent)):
            result.append(area.id)
    return tuple(result)


def armies(state: GameState, house: str) -> list[tuple[str, int, Tokens]]:
    """The House's armies: (area, sector, tokens), in a stable order."""
    return sorted((a, s, t) for (h, a, s), t in state.forces.items() if h == house)


def _split(tokens: Tokens, count: int) -> Tokens:
    """``count`` tokens taken from ``tokens``, unmarked first (menu convention)."""
    regular = min(tokens.regular, count)
    return Tokens(regular, count - regular)


def _pay(state: GameState, house: str, amount: int, payee: str | None) -> GameState:
    houses = state.houses
    houses = houses.set(house, evolve(houses[house], spice=houses[house].spice - amount))
    if payee is None:
        return evolve(state, houses=houses, bank=state.bank + amount)
    houses = houses.set(payee, evolve(houses[payee], spice=houses[payee].spice + amount))
    return evolve(state, houses=houses)


def _edit(state: GameState, house: str, **changes: Any) -> GameState:
    return evolve(state, houses=state.houses.set(house, evolve(state.houses[house], **changes)))


def _add(state: GameState, house: str, area: str, sector: int, tokens: Tokens) -> GameState:
    key = (house, area, sector)
    return evolve(state, forces=state.forces.set(key, state.forces.get(key, Tokens()) + tokens))


def _remove(state: GameState, house: str, area: str, sector: int, tokens: Tokens) -> GameState:
    key = (house, area, sector)
    left = state.forces[key] - tokens
    forces = state.forces.without(key) if left.is_empty() else state.forces.set(key, left)
    return evolve(state, forces=forces)


def _name(area_id: str) -> str:
    return _area(area_id).name


def _payee_name(payee: str | None) -> str:
    return "the Bank" if payee is None else f"the {payee}"


# --- the phase ------------------------------------------------------------------------------------------

def begin_phase(state: GameState) -> GameState:
    """TURN-1 e): reset the turn's revival counters; ask the Karama uses of the start of step e) (KARAMA-16,
    KARAMA-26, GAP-63); then open the first slot."""
    houses = state.houses
    for house, hs in houses.items():
        if hs.revived_this_turn or hs.revived_marked_this_turn:
            houses = houses.set(house, evolve(hs, revived_this_turn=0, revived_marked_this_turn=0))
    state = evolve(state, phase=PHASE, houses=houses)
    order = storm_order(state)
    state = with_events(state, event("movement-phase", "Landing and movement, in storm order: " + ", ".join(order),
                                     order=order))
    uses = _blocking_uses(tuple(p for p in (SLOT_CHOICE, ADVISORS) if holder(state, p) is not None),
                          ("movement-start",))
    if uses:
        return open_window(evolve(state, pending=None), uses, "movement-start")
    return _start_slots(state)


def _start_slots(state: GameState, data: Any = None) -> GameState:
    """The slots in storm order; the holder of GUILD-P3 (if any) waits outside it and chooses when to play."""
    order = storm_order(state)
    chooser = holder(state, SLOT_CHOICE)
    if chooser in order:
        others = tuple(h for h in order if h != chooser)
        return _ask_chooser(state, others, 0, chooser)
    return _open_slot(state, order, 0)


def _ask_chooser(state: GameState, order: tuple[str, ...], index: int, chooser: str | None) -> GameState:
    """GUILD-P3: before the slot ``index`` of ``order``, ask the waiting chooser; after the last, it plays."""
    if chooser is None or holder(state, SLOT_CHOICE) != chooser:
        return _open_slot(state, order, index)  # it has played (or lost the power): the storm order goes on
    if index >= len(order):
        return _open_slot(state, order, index, chooser=chooser)
    return evolve(state, pending=pending("slot-choice", chooser, order=order, index=index))


def _slot_choice_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    house = state.pending.actor
    return [Pass(house), TakeSlot(house)]


def _apply_slot_choice(state: GameState, action: TakeSlot | Pass) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    order, index = detail["order"], detail["index"]
    if isinstance(action, TakeSlot):
        nxt = order[index] if index < len(order) else None
        state = with_events(state, event(
            "slot-choice", f"{action.house} choose to play now" + (f", before {nxt}" if nxt else "") +
            " (GUILD-P3)", house=action.house, powers=(SLOT_CHOICE,)))
        return _open_slot(state, order, index, chooser=action.house)
    return _open_slot(state, order, index, waiting=action.house)


def _open_slot(state: GameState, order: tuple[str, ...], index: int, *, chooser: str | None = None,
               waiting: str | None = None) -> GameState:
    """Open the slot of ``order[index]``, or of ``chooser`` (GUILD-P3) who plays before it; ``waiting`` is a
    chooser who has not played yet and is asked again before the next slot."""
    if chooser is None and index >= len(order):
        state = evolve(state, pending=None)
        return flow.after_phase(state, PHASE)
    house = chooser if chooser is not None else order[index]
    state = with_events(state, event("movement-slot", f"{house} revives, lands and moves (TURN-1 e)", house=house))
    return evolve(state, pending=pending(
        PHASE, house, order=order, index=index, landed=0, moved=0, repositions=0, rounds=1, emerged=False,
        chosen=chooser is not None, waiting=waiting))


def _slot(state: GameState) -> Any:
    assert state.pending is not None
    return state.pending.detail


def slot_rounds(slot: Any) -> int:
    """LAND-2, MOVE-1: one landing and one move a turn; each Hajj played adds one of each (CARD-HAJJ-2)."""
    return slot.get("rounds", 1)


def can_land_now(slot: Any) -> bool:
    """A landing is left, and a move after it (TURN-1 e "lands, then moves", per round with the Hajj, GAP-57)."""
    rounds = slot_rounds(slot)
    return slot["landed"] < rounds and slot["moved"] < rounds


def can_move_now(slot: Any) -> bool:
    """A territory move is left this slot (MOVE-1; one more per Hajj, MOVE-8)."""
    return slot["moved"] < slot_rounds(slot)


def _update_slot(state: GameState, **changes: Any) -> GameState:
    assert state.pending is not None
    return evolve(state, pending=evolve(state.pending, detail=state.pending.detail.updated(changes)))


# --- menus ----------------------------------------------------------------------------------------------

#: The last menu built, as [(state, menu)]: states are immutable, so the menu of the very same state object is
#: reused (``legal_actions`` and ``check_action`` each ask for it; design, a speed-up only).
_LAST_MENU: list[tuple[GameState, tuple[Action, ...]] | None] = [None]


#: The landings, moves and repositionings of the menus, each built once (issue 14 item 4): actions are values,
#: and the menus of a game list the same ones slot after slot; building each anew (with its field checks, the
#: path tuple's by its text) was most of the cost of a movement menu.
_menu_land = lru_cache(maxsize=4096, typed=True)(Land)
_menu_move = lru_cache(maxsize=8192, typed=True)(Move)
_menu_reposition = lru_cache(maxsize=2048, typed=True)(Reposition)
_menu_end_slot = menu_maker(EndSlot, 64)
_menu_hajj = menu_maker(PlayHajj, 64)


def _slot_decisions(state: GameState) -> list[Action]:
    """The menu: end the slot (first, the passive default), revivals, landings or emergences, moves,
    repositionings, harvester trades. Any other well-formed action of these kinds is checked by ``check``."""
    cached = _LAST_MENU[0]
    if cached is not None and cached[0] is state:
        return list(cached[1])
    menu = _build_menu(state)
    _LAST_MENU[0] = (state, tuple(menu))
    return menu


def _build_menu(state: GameState) -> list[Action]:
    assert state.pending is not None
    house = state.pending.actor
    slot = _slot(state)
    hs = state.houses[house]
    menu: list[Action] = [_menu_end_slot(house)]
    if not slot["landed"] and not slot["moved"]:
        menu += _revival_menu(state, house)
    if can_land_now(slot):
        menu += _emergence_menu(state, house) if holds_power(state, house, NATIVES) else _landing_menu(state, house)
    if can_move_now(slot):
        menu += _move_menu(state, house)
    if slot["repositions"] == 0:
        menu += _reposition_menu(state, house)
    if HAJJ in hs.hand:
        menu.append(_menu_hajj(house))  # CARD-HAJJ-1: during landing and movement
    for extra in SLOT_MENUS:  # House powers acting in the slot (dunenb.rules.kynes: FREMEN-M1, FREMEN-M2)
        menu += extra(state, house)
    return menu


def _revival_menu(state: GameState, house: str) -> list[Action]:
    hs = state.houses[house]
    room = min(REVIVAL_LIMIT - hs.revived_this_turn, hs.tanks.total, hs.spice // REVIVAL_PRICE)
    marked_room = min(MARKED_REVIVAL_LIMIT - hs.revived_marked_this_turn, hs.tanks.marked)
    menu: list[Action] = []
    for count in range(1, room + 1):
        if hs.tanks.regular >= count:
            menu.append(Revive(house, count, 0))
        if marked_room >= 1 and hs.tanks.regular >= count - 1:
            menu.append(Revive(house, count - 1, 1))
    return menu


@lru_cache(maxsize=64)
def _counts(most: int) -> tuple[int, ...]:
    """The group sizes a menu lists for at most ``most`` tokens: all of them, 1 and half, largest first."""
    return tuple(sorted({n for n in (most, 1, most // 2) if 1 <= n <= most}, reverse=True))


@lru_cache(maxsize=1)
def _rate_areas() -> tuple[str, ...]:
    """The first area of the board of each LAND-1 rate, in board order: the area whose affordable landing the menu
    computes for every area of that rate (the price depends on the area only through the rate)."""
    first: dict[int, str] = {}
    for area in rules().board.areas:
        first.setdefault(landing_price_per_token(area.id), area.id)
    return tuple(first.values())


def _landing_menu(state: GameState, house: str) -> list[Action]:
    hs = state.houses[house]
    if hs.reserve.total == 0:
        return []
    first = _slot(state)["landed"] == 0
    # the price depends on the area only through LAND-1's rate per token: the most affordable at each rate, read
    # in the first area of that rate (issue 14: the areas the loop of _landings asked, each rate's first one)
    most = tuple((landing_price_per_token(area_id), affordable_landing(state, house, area_id, first=first))
                 for area_id in _rate_areas())
    menu: list[Action] = list(_landings(house, hs.reserve.regular, hs.reserve.marked, state.storm_sectors(), most))
    if holds_power(state, house, ADVISORS):
        menu += _peace_landing_menu(state, house, menu)
    return menu


@lru_cache(maxsize=1024)
def _landings(house: str, regular: int, marked: int, storms: tuple[int, ...],
              most: tuple[tuple[int, int], ...]) -> tuple[Action, ...]:
    """The menu's landings of ``house`` with ``regular`` + ``marked`` reserve tokens, ``most`` the most it can pay
    for at each LAND-1 rate: in each area and each sector outside the storms (all, 1 and half of what it can pay
    for, unmarked first), then, for teaching, 1 token into each storm sector (LAND-5). A pure function of these
    facts and the board (issue 14: cached; the counts and token splits of a rate are computed once)."""
    reserve = Tokens(regular, marked)
    most_by_price = dict(most)
    splits: dict[int, list[Tokens]] = {}  # the groups listed, by the most affordable
    menu: list[Action] = []
    for area in rules().board.areas:
        top = most_by_price[landing_price_per_token(area.id)]
        if top < 1:
            continue
        if top not in splits:
            splits[top] = [_split(reserve, count) for count in _counts(top)]
        groups = splits[top]
        for sector in area_sectors(area.id):
            if area.id != POLE and sector in storms:
                continue
            for tokens in groups:
                menu.append(_menu_land(house, area.id, sector, tokens.regular, tokens.marked))
    # LAND-5 for teaching: one token into the storm. Such a landing (outside the Pole, in a storm sector) is never
    # one of the landings above, which avoid the storm sectors: only the storm landings themselves may repeat
    # (both storms on one sector), so the check for a repeat reads them alone (issue 14: not the whole menu)
    storm_landings: list[Action] = []
    for sector in storms:
        area = next(a for a in rules().board.areas_in_sector(sector) if a.id != POLE)
        if most_by_price.get(landing_price_per_token(area.id), 0) >= 1:
            tokens = _split(reserve, 1)
            action = _menu_land(house, area.id, sector, tokens.regular, tokens.marked)
            if action not in storm_landings:
                storm_landings.append(action)
    return tuple(menu + storm_landings)


def _peace_landing_menu(state: GameState, house: str, landings: list[Action]) -> list[Action]:
    """BG-P2 a: the holder's landings into a territory another House holds, declared in peace (GAP-83)."""
    shared = {a for (h, a, _s), t in state.forces.items() if h != house and t.total > 0 and a != POLE
              and h not in state.eliminated}
    return [LandInPeace(house, a.area, a.sector, a.regular, a.marked) for a in landings
            if isinstance(a, Land) and a.area in shared and not is_storm_sector(state, a.area, a.sector)]


#: issue 14: the menu's emergences built once each (dunenb.actions.menu_maker)
_menu_emerge = menu_maker(Emerge)


def _emergence_menu(state: GameState, house: str) -> list[Action]:
    reserve = state.houses[house].reserve
    slot = _slot(state)
    if reserve.total == 0 or slot.get("emerged", slot["landed"]):  # once a turn, Hajj or not (FREMEN-P4)
        return []
    return list(_emergences(house, reserve.regular, reserve.marked, frozenset(state.storm_sectors())))


@lru_cache(maxsize=512)
def _emergences(house: str, regular: int, marked: int, storms: frozenset[int]) -> tuple[Action, ...]:
    """FREMEN-P4: the menu's emergences of ``regular`` + ``marked`` reserve tokens (all, 1 and half, unmarked first)
    into each sector outside ``storms`` of each emergence area; a pure function of these facts (issue 14: cached,
    the splits computed once rather than per sector)."""
    reserve = Tokens(regular, marked)
    groups = [_split(reserve, count) for count in _counts(reserve.total)]
    menu: list[Action] = []
    for area_id in emergence_areas():
        for sector in area_sectors(area_id):
            if sector in storms:
                continue
            for tokens in groups:
                menu.append(_menu_emerge(house, area_id, sector, tokens.regular, tokens.marked))
    return tuple(menu)


def safe_paths(state: GameState, area: str, sector: int, steps: int) -> dict[tuple[str, int], tuple]:
    """Storm-free paths from (area, sector) to every (area, sector) within ``steps`` territories (MAP-7, GAP-49).

    The route of territories is a shortest one (breadth first over the adjacency, board order breaking ties)
    through territories that keep a storm-free sector; each crossed territory is passed through its first
    storm-free sector; the destination gets one path per storm-free sector. ``sector`` is not needed (sectors do
    not count, MOVE-4b) and is kept for the callers."""
    del sector  # GAP-49: the sector the group leaves from does not restrict its route
    return dict(_safe_routes(area, steps, _storms_near(area, steps, state.storm_sectors())))


@lru_cache(maxsize=1024)
def _reach_sectors(area: str, steps: int) -> frozenset[int]:
    """The sectors of the territories within ``steps`` territories of ``area`` on the board without storms, the
    North Pole's excepted (storms never touch it).

    issue 14: these are the only storm sectors the routes from ``area`` and its first storm entry can meet. Storms
    only remove territories from the breadth-first search of :func:`_safe_routes` (a blocked territory is never
    expanded), so every territory whose safe sectors it reads is within ``steps`` territories of ``area`` on the
    storm-free board; :func:`_first_storm_entry` reads the neighbours' sectors, at distance 1."""
    sectors: set[int] = set()
    seen, frontier = {area}, [area]
    for _ in range(steps):
        following = []
        for here in frontier:
            for neighbour in _area(here).adjacent:
                if neighbour not in seen:
                    seen.add(neighbour)
                    following.append(neighbour)
                    if neighbour != POLE:
                        sectors.update(_area(neighbour).sectors)
        frontier = following
    return frozenset(sectors)


def _storms_near(area: str, steps: int, storms: Iterable[int]) -> frozenset[int]:
    """issue 14: the storm sectors that can matter to a move of ``steps`` territories from ``area`` (see
    :func:`_reach_sectors`): the routes, and so the menu's moves, of two storm sets with the same such sectors are
    the same, so the caches key on these alone and a storm far away does not rebuild them."""
    return _reach_sectors(area, steps).intersection(storms)


#: issue 14: one tuple object per distinct path of the menus. A move's path tuple is checked field by field once
#: per object (dunenb.actions: a tuple met again by identity is not checked again, an equal new one is compared by
#: its text), and the storms change the routes every turn: routes rebuilt for new storms hand out the same path
#: objects again. Equal values, so the moves listed are the same; bounded: emptied when full.
_PATHS: dict[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = {}
MAX_PATHS = 16384


def _interned(path: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """The one stored tuple equal to ``path`` (``path`` itself the first time)."""
    found = _PATHS.get(path)
    if found is None:
        if len(_PATHS) >= MAX_PATHS:
            _PATHS.clear()
        found = _PATHS[path] = path
    return found


@lru_cache(maxsize=4096)
def _safe_routes(area: str, steps: int, storms: frozenset[int]) -> tuple[tuple[tuple[str, int], tuple], ...]:
    """``safe_paths`` as a pure function of the board, the start territory, the range and the storms (cached:
    the menu of every army asks for it, and the storms change once a turn)."""
    found: dict[tuple[str, int], tuple] = {}
    seen = {area}
    frontier: list[tuple[str, tuple]] = [(area, ())]
    for _ in range(steps):
        following = []
        for here, path in frontier:
            for neighbour in _area(here).adjacent:
                if neighbour in seen:
                    continue
                seen.add(neighbour)
                usable = _safe_sectors(neighbour, storms)
                if not usable:
                    continue  # GAP-10, GAP-49: wholly under a storm, no safe way in or through
                for entry in usable:
                    found[(neighbour, entry)] = _interned(path + ((neighbour, entry),))
                following.append((neighbour, path + ((neighbour, usable[0]),)))
        frontier = following
    return tuple(found.items())


def _move_menu(state: GameState, house: str) -> list[Action]:
    steps = move_range(state, house)
    storms = state.storm_sectors()
    menu: list[Action] = []
    for area, sector, tokens in armies(state, house):
        # issue 14: an army's moves are a pure function of these facts, cached (the armies that did not move and
        # that no storm came near list the same moves turn after turn); _army_moves builds them as this loop did
        menu += _army_moves(house, area, sector, tokens.regular, tokens.marked, steps,
                            _storms_near(area, steps, storms))
    return menu


@lru_cache(maxsize=2048)
def _army_moves(house: str, area: str, sector: int, regular: int, marked: int, steps: int,
                storms: frozenset[int]) -> tuple[Action, ...]:
    """The menu's moves of one army: all of it, then half of it (unmarked first), along each safe route of
    :func:`_safe_routes`, then, for teaching, all of it into the first storm sector next to it (MOVE-7, GAP-10).
    ``storms``: the storm sectors near it (:func:`_storms_near`), all that the routes and the storm entry read."""
    tokens = Tokens(regular, marked)
    groups = [tokens] + ([_split(tokens, tokens.total // 2)] if tokens.total >= 2 else [])
    routes = _safe_routes(area, steps, storms)  # = safe_paths, without copying the cached answer
    moves: list[Action] = []
    for group in groups:
        for _destination, path in routes:
            moves.append(_menu_move(house, area, sector, path, group.regular, group.marked))
    storm_entry = _storm_entry(area, storms)  # MOVE-7, GAP-10 for teaching
    if storm_entry is not None:
        moves.append(_menu_move(house, area, sector, _interned((storm_entry,)), tokens.regular, tokens.marked))
    return tuple(moves)


def _storm_entry(area: str, storms: frozenset[int]) -> tuple[str, int] | None:
    """MOVE-7, GAP-10: the first storm sector (of ``storms``) of a territory next to ``area``, any of its sectors
    (GAP-49: whatever sector the group leaves from), never at the North Pole; ``None`` if there is none."""
    if not storms:
        return None
    for neighbour in _area(area).adjacent:
        if neighbour == POLE:
            continue  # MOVE-7: never a storm at the North Pole
        for entry in area_sectors(neighbour):
            if entry in storms:
                return neighbour, entry
    return None


def _reposition_menu(state: GameState, house: str) -> list[Action]:
    """MOVE-4a: each army, all of it, to each other sector of its territory it can reach without crossing a storm.

    Listed only until the House has made one move of 0 in the slot; any further one is still accepted by the
    check (design: a menu graph without cycles keeps random play and seeded bots from looping forever)."""
    menu: list[Action] = []
    storms = frozenset(state.storm_sectors())
    for area, sector, tokens in armies(state, house):
        if area == POLE or double_storm_sietch(state, area, sector):
            continue  # STORM-15, GAP-11: no 0-move inside a Sietch under the double storm
        for target in _reposition_targets(area, sector, storms):
            menu.append(_menu_reposition(house, area, sector, target, tokens.regular, tokens.marked))
    return menu


@lru_cache(maxsize=2048)
def _reposition_targets(area: str, sector: int, storms: frozenset[int]) -> tuple[int, ...]:
    """MOVE-4a, GAP-22: the other sectors of ``area`` a move of 0 from ``sector`` reaches without entering or
    crossing a sector of ``storms``, in the area's order (issue 14: a pure function of the board and the storms,
    cached)."""
    return tuple(target for target in area_sectors(area) if target != sector
                 and not any(s in storms for s in reposition_route(area, sector, target)))


# --- checks ---------------------------------------------------------------------------------------------

def _error(code: str, message: str) -> IllegalActionError:
    return IllegalActionError(code, message)


def _is_int(*values: object) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _check_counts(
    prefix: str, regular: object, marked: object, available: Tokens, where: str
) -> IllegalActionError | None:
    if (not (isinstance(regular, int) and isinstance(marked, int) and _is_int(regular, marked))
            or regular < 0 or marked < 0 or regular + marked < 1):
        return _error(f"{prefix}/count", f"regular and marked must be integers >= 0 with at least 1 token; "
                      f"got regular={regular!r}, marked={marked!r}")
    if regular > available.regular or marked > available.marked:
        return _error(f"{prefix}/too-many", f"{where} holds {available.regular} unmarked and {available.marked} "
                      f"marked token(s); asked for {regular} and {marked}")
    return None


def _check_place(prefix: str, area: object, sector: object) -> IllegalActionError | None:
    board = rules().board
    if not isinstance(area, str) or area not in board.area_ids:
        return _error(f"{prefix}/area", f"area {area!r} is unknown; allowed: {', '.join(board.area_ids)}")
    allowed = area_sectors(area)
    if not _is_int(sector) or sector not in allowed:
        note = " (at the North Pole an army stands in sector 1, design)" if area == POLE else ""
        return _error(f"{prefix}/sector", f"sector {sector!r} is not a sector of {area}; allowed: "
                      f"{list(allowed)}{note}")
    return None


def _check_revive(state: GameState, action: Revive) -> IllegalActionError | None:
    slot = _slot(state)
    if slot["landed"] or slot["moved"]:
        return _error("revive/after-landing", "revival comes before landing and moving in the slot (GAP-25a)")
    hs = state.houses[action.house]
    error = _check_counts("revive", action.regular, action.marked, hs.tanks, "the tanks")
    if error:
        return error
    count = action.regular + action.marked
    if hs.revived_this_turn + count > REVIVAL_LIMIT:
        return _error("revive/too-many", f"at most {REVIVAL_LIMIT} tokens a turn (REVIVAL-1); "
                      f"{hs.revived_this_turn} already revived, so at most {REVIVAL_LIMIT - hs.revived_this_turn}")
    if hs.revived_marked_this_turn + action.marked > MARKED_REVIVAL_LIMIT:
        return _error("revive/marked", f"at most {MARKED_REVIVAL_LIMIT} marked token a turn (G-3); "
                      f"{hs.revived_marked_this_turn} already revived")
    if count * REVIVAL_PRICE > hs.spice:
        return _error("revive/cost", f"{count} token(s) cost {count * REVIVAL_PRICE} spice (REVIVAL-1); "
                      f"{action.house} has {hs.spice}")
    return None


def _check_land(state: GameState, action: Land) -> IllegalActionError | None:
    if isinstance(action, LandInPeace) and not holds_power(state, action.house, ADVISORS):
        return _error("land/no-peace", f"{action.house} may not land in peace now: only the holder of BG-P2 may, "
                      "and not in a turn a Karama blocks it (KARAMA-26); use 'land'")
    if holds_power(state, action.house, NATIVES):
        return _error("land/fremen", "the Fremen never land (LAND-6, FREMEN-P4): use 'emerge'")
    slot = _slot(state)
    if slot["landed"] >= slot_rounds(slot):
        return _error("land/once-per-turn", "a House lands once per turn, one group only (LAND-2); the Hajj "
                      "gives one more landing (CARD-HAJJ-2)")
    if not can_land_now(slot):
        return _error("land/after-move", "the landing comes before the move (TURN-1 e: lands, then moves; with the "
                      "Hajj, no landing after the last move, GAP-57)")
    error = _check_place("land", action.area, action.sector)
    if error:
        return error
    hs = state.houses[action.house]
    error = _check_counts("land", action.regular, action.marked, hs.reserve, "the reserve")
    if error:
        return error
    count = action.regular + action.marked
    cost, ids = landing_price(state, action.house, action.area, count, first=slot["landed"] == 0)
    if cost > hs.spice:
        per = landing_price_per_token(action.area)
        powers = f", {', '.join(ids)}" if ids else ""
        return _error("land/cost", f"{count} token(s) into {action.area} cost {cost} spice ({per} a token, LAND-1"
                      f"{powers}); {action.house} has {hs.spice}, enough for "
                      f"{affordable_landing(state, action.house, action.area, first=slot['landed'] == 0)}")
    return None


def _check_emerge(state: GameState, action: Emerge) -> IllegalActionError | None:
    if not holds_power(state, action.house, NATIVES):
        return _error("emerge/not-fremen", "only the Fremen emerge (FREMEN-P4); other Houses 'land'")
    slot = _slot(state)
    if slot.get("emerged", slot["landed"]):
        return _error("emerge/once-per-turn", "the Fremen emerge once per turn, into one territory (FREMEN-P4; the "
                      "Hajj gives them the extra move only)")
    if not can_land_now(slot):
        return _error("emerge/after-move", "emergence takes the landing's place, before the move (TURN-1 e)")
    allowed = emergence_areas()
    if action.area not in allowed:
        return _error("emerge/area", f"{action.area!r} is not a Sietch or a desert next to one (FREMEN-P4); "
                      f"allowed: {', '.join(allowed)}")
    error = _check_place("emerge", action.area, action.sector)
    if error:
        return error
    if action.sector in state.storm_sectors():
        return _error("emerge/storm-sector", f"sector {action.sector} is a storm sector (FREMEN-P4); "
                      f"storms: {list(state.storm_sectors())}")
    return _check_counts("emerge", action.regular, action.marked, state.houses[action.house].reserve, "the reserve")


def _check_move(state: GameState, action: Move) -> IllegalActionError | None:
    if not can_move_now(_slot(state)):
        return _error("move/once-per-turn", "a House moves one army once per turn (MOVE-1, MOVE-4b; one more with "
                      "the Hajj, MOVE-8); moves of 0 are 'reposition'")
    key = (action.house, action.area, action.sector)
    if key not in state.forces:
        places = [f"{a}:{s}" for a, s, _ in armies(state, action.house)]
        return _error("move/no-army", f"{action.house} has no army at {action.area} sector {action.sector}; "
                      f"armies: {', '.join(places) or 'none'}")
    error = _check_counts("move", action.regular, action.marked, state.forces[key], f"the army at {action.area}")
    if error:
        return error
    path = action.path
    if not path:
        return _error("move/path", "path must list at least one (area, sector) entered, the destination last")
    steps = move_range(state, action.house)
    if len(path) > steps:
        why = ("with ornithopters (GAP-21)" if steps == RANGE_WITH_ORNITHOPTERS
               else "without ornithopters: no token in a city or Sietch (MOVE-6, GAP-21)")
        return _error("move/too-far", f"the path enters {len(path)} territories; at most {steps} {why}")
    here = action.area
    entered = {here}
    board = rules().board
    for index, step in enumerate(path):
        area, sector = step
        error = _check_place("move", area, sector)
        if error:
            return _error(error.code, f"path[{index}]: {error.message}")
        if area not in board.area(here).adjacent:
            return _error("move/not-adjacent", f"path[{index}]: {area} is not adjacent to {here}; adjacent: "
                          f"{', '.join(board.area(here).adjacent)}")
        if area in entered:
            return _error("move/revisit", f"path[{index}]: {area} was already entered or left (MOVE-4b)")
        # MAP-7, MOVE-4b, GAP-49: any sector of the territory may be named, whatever sector the group came from
        entered.add(area)
        here = area
    return None


def _check_reposition(state: GameState, action: Reposition) -> IllegalActionError | None:
    key = (action.house, action.area, action.from_sector)
    if key not in state.forces:
        places = [f"{a}:{s}" for a, s, _ in armies(state, action.house)]
        return _error("reposition/no-army", f"{action.house} has no army at {action.area} sector "
                      f"{action.from_sector}; armies: {', '.join(places) or 'none'}")
    if action.area == POLE:
        return _error("reposition/pole", "at the North Pole all sectors meet: there is nowhere to reposition to")
    if double_storm_sietch(state, action.area, action.from_sector):
        return _error("reposition/double-storm", f"both storms are on sector {action.from_sector}: nobody may make "
                      f"a move of 0 inside {action.area} this turn (STORM-15, GAP-11)")
    sectors = area_sectors(action.area)
    if not _is_int(action.to_sector) or action.to_sector not in sectors or action.to_sector == action.from_sector:
        others = [s for s in sectors if s != action.from_sector]
        return _error("reposition/sector", f"to_sector {action.to_sector!r} must be another sector of "
                      f"{action.area}; allowed: {others}")
    error = _check_counts("reposition", action.regular, action.marked, state.forces[key],
                          f"the army at {action.area}")
    if error:
        return error
    crossed = [s for s in reposition_route(action.area, action.from_sector, action.to_sector)
               if s in state.storm_sectors()]
    if crossed:
        return _error("reposition/storm-sector", f"a move of 0 may not enter or cross a storm sector (GAP-22): "
                      f"sector(s) {crossed}")
    return None


def _check_hajj(state: GameState, action: PlayHajj) -> IllegalActionError | None:
    if HAJJ not in state.houses[action.house].hand:
        return _error("hajj/no-card", f"{action.house} holds no Hajj card (CARD-HAJJ-1)")
    return None


_CHECKS: dict[type, Any] = {
    Revive: _check_revive, Land: _check_land, LandInPeace: _check_land, Emerge: _check_emerge, Move: _check_move,
    Reposition: _check_reposition, PlayHajj: _check_hajj,
}
#: Slot actions of House powers, registered by their modules (dunenb.rules.kynes): menus, checks, applies.
SLOT_MENUS: list[Any] = []


def register_slot_action(kind: type, check: Any, apply: Any, menu: Any) -> None:
    """Let a power module add an action to the movement slot (its menu, check and apply)."""
    _CHECKS[kind] = check
    _APPLY[kind] = apply
    SLOT_MENUS.append(menu)
    # issue 14 item 2: ``check`` allows only what the menu then lists some action of this kind for (Handler.checked),
    # so the engine tests such an action by its rule instead of building the slot's whole menu to look for it (a
    # replayed FREMEN-M2 worm call: 5.6 ms); a refusal is explained as before, by the menu and then the check
    handler = HANDLERS[PHASE]
    HANDLERS[PHASE] = evolve(handler, checked=handler.checked + (kind,))


def check_slot_action(state: GameState, action: Action) -> IllegalActionError | None:
    """Validate any well-formed slot action; the error names the field and what is allowed."""
    checker = _CHECKS.get(type(action))
    if checker is None:
        if isinstance(action, EndSlot):
            return None
        return _error("action/wrong-kind", f"{action.kind!r} is not a movement-slot action")
    return checker(state, action)


# --- applying -------------------------------------------------------------------------------------------

def _apply_revive(state: GameState, action: Revive) -> GameState:
    """REVIVAL-1; a revival that pays TLEILAX-P1 first asks the payer about KARAMA-36 (paid to the Bank)."""
    ids = applied(state, "revival.payee", None, {"house": action.house})[1]
    uses = _blocking_uses(ids, ("revival",))
    if uses:
        cost = (action.regular + action.marked) * REVIVAL_PRICE
        return open_window(state, uses, "movement-revival", only=(action.house,), pledges=((action.house, cost),),
                           action=action)
    return _resolve_revive(state, action)


def _resume_revive(state: GameState, data: Any) -> GameState:
    from dunenb.powers.karama import lift

    return lift(_resolve_revive(state, data["action"]), "action")


def _resolve_revive(state: GameState, action: Revive) -> GameState:
    hs = state.houses[action.house]
    # a ghola played while the KARAMA-36 window was open may have emptied the tanks: revive what is left there
    tokens = Tokens(min(action.regular, hs.tanks.regular), min(action.marked, hs.tanks.marked))
    if tokens.is_empty():
        return state
    payee, ids = applied(state, "revival.payee", None, {"house": action.house})
    state = _edit(state, action.house, tanks=hs.tanks - tokens, reserve=hs.reserve + tokens,
                  revived_this_turn=hs.revived_this_turn + tokens.total,
                  revived_marked_this_turn=hs.revived_marked_this_turn + tokens.marked)
    cost = tokens.total * REVIVAL_PRICE
    state = _pay(state, action.house, cost, payee)
    return with_events(state, event(
        "revive", f"{action.house} revives {tokens.total} token(s) for {cost} spice, paid to {_payee_name(payee)} "
        f"(REVIVAL-1{''.join(', ' + i for i in ids)})", house=action.house, count=tokens.total,
        marked=tokens.marked, cost=cost, payee=payee or "bank", powers=ids))


def _apply_land(state: GameState, action: Land) -> GameState:
    """LAND-1: the landing is announced; the Karama uses against the powers that change it are asked first
    (KARAMA-14, KARAMA-15, KARAMA-17; GAP-63), then it is paid and made."""
    first = _slot(state)["landed"] == 0
    count = action.regular + action.marked
    ids = landing_price(state, action.house, action.area, count, first=first)[1]
    ids += applied(state, "landing.payee", None, {"house": action.house})[1]
    uses = _blocking_uses(ids, ("landing", "guild-landing"))
    if uses:
        state = with_events(state, event(
            "land-announced", f"{action.house} announces a landing of {count} token(s) in {_name(action.area)} "
            f"(sector {action.sector})", house=action.house, area=action.area, sector=action.sector, count=count))
        price = landing_price(state, action.house, action.area, count, first=first)[0]
        return open_window(state, uses, "movement-landing", pledges=((action.house, price),), action=action)
    return _resolve_land(state, action)


def _resume_land(state: GameState, data: Any) -> GameState:
    from dunenb.powers.karama import lift

    return lift(_resolve_land(state, data["action"]), "action")


def _resolve_land(state: GameState, action: Land) -> GameState:
    first = _slot(state)["landed"] == 0
    tokens = Tokens(action.regular, action.marked)
    cost, ids = landing_price(state, action.house, action.area, tokens.total, first=first)
    hs = state.houses[action.house]
    if cost > hs.spice:  # KARAMA-15/17 raised the price: the tokens it cannot pay for stay in the reserve
        most = affordable_landing(state, action.house, action.area, first=first)
        kept = tokens.total - most
        tokens = Tokens(max(0, tokens.regular - kept), tokens.marked - max(0, kept - tokens.regular))
        cost, ids = landing_price(state, action.house, action.area, tokens.total, first=first)
        played = sorted({s.karama for s in state.suppressions if s.scope == "action"})  # this landing's window
        state = with_events(state, event(
            "land-reduced", f"{action.house} cannot pay for {kept} token(s): they stay in the reserve "
            f"({', '.join(played + ['LAND-3'])})", house=action.house, count=kept))
    payee, payee_ids = applied(state, "landing.payee", None, {"house": action.house})
    ids += payee_ids
    state = _edit(state, action.house, reserve=hs.reserve - tokens)
    state = _pay(state, action.house, cost, payee)
    state = _update_slot(state, landed=_slot(state)["landed"] + 1)
    if tokens.is_empty():
        return state
    state = with_events(state, event(
        "land", f"{action.house} lands {tokens.total} token(s) in {_name(action.area)} (sector {action.sector}) "
        f"for {cost} spice, paid to {_payee_name(payee)} (LAND-1, LAND-7{''.join(', ' + i for i in ids)})",
        house=action.house, area=action.area, sector=action.sector, count=tokens.total, cost=cost,
        payee=payee or "bank", powers=ids))
    if is_storm_sector(state, action.area, action.sector):
        state = with_events(state, event(
            "tokens-destroyed", f"landing in the storm: {tokens.total} {action.house} token(s) destroyed in "
            f"{_name(action.area)} (sector {action.sector}) (LAND-5, STORM-8)", house=action.house,
            area=action.area, sector=action.sector, count=tokens.total, cause="landing in the storm"))
        state = send_to_tanks(state, action.house, tokens)
    else:
        state = _add(state, action.house, action.area, action.sector, tokens)
        if isinstance(action, LandInPeace):
            state = _declare_peace_landing(state, action)
    return _offer_advisor(state, action.house, action.area)


def _declare_peace_landing(state: GameState, action: LandInPeace) -> GameState:
    """BG-P2 a: the landed tokens, and so every token of the House in that territory, are at peace this turn
    (L757; recorded by territory as for the advisors, GAP-64). At the North Pole, where nobody fights, nothing is
    recorded (GAP-83)."""
    if action.area == POLE:
        return state
    if (action.house, action.area) not in state.at_peace:
        state = evolve(state, at_peace=state.at_peace + ((action.house, action.area),))
    return with_events(state, event(
        "land-in-peace", f"{action.house} declare their landing in {_name(action.area)} in peace: their tokens "
        "there do not fight, own or harvest this turn (BG-P2)", house=action.house, area=action.area,
        powers=(ADVISORS,)))


def advisor_places(state: GameState, area_id: str) -> tuple[tuple[str, int], ...]:
    """BG-P2 b: where an advisor may land after a landing in ``area_id``: a storm-free sector of it, or the Pole."""
    places = [] if area_id == POLE else [(area_id, s) for s in area_sectors(area_id)
                                         if not is_storm_sector(state, area_id, s)]
    return tuple(places) + ((POLE, POLE_SECTOR),)


def _offer_advisor(state: GameState, lander: str, area_id: str) -> GameState:
    """BG-P2 b: after another House completes a landing, the holder may land 1 reserve token free, in peace."""
    bg = holder(state, ADVISORS)
    if bg is None or bg == lander or state.houses[bg].reserve.total == 0:
        return state
    return evolve(state, pending=pending("advisor", bg, area=area_id, prior=state.pending))


def _advisor_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    bg, reserve = state.pending.actor, state.houses[state.pending.actor].reserve
    token = _split(reserve, 1)
    return [Pass(bg)] + [LandAdvisor(bg, a, s, token.regular, token.marked)
                         for a, s in advisor_places(state, state.pending.detail["area"])]


def _apply_advisor(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    prior = state.pending.detail["prior"]
    if isinstance(action, LandAdvisor):
        tokens = Tokens(action.regular, action.marked)
        state = _edit(state, action.house, reserve=state.houses[action.house].reserve - tokens)
        state = _add(state, action.house, action.area, action.sector, tokens)
        if action.area != POLE and (action.house, action.area) not in state.at_peace:  # GAP-64
            state = evolve(state, at_peace=state.at_peace + ((action.house, action.area),))
        state = with_events(state, event(
            "advisor", f"{action.house} land 1 advisor free, in peace, in {_name(action.area)} (BG-P2)",
            house=action.house, area=action.area, sector=action.sector, powers=(ADVISORS,)))
    return evolve(state, pending=prior)


def _apply_emerge(state: GameState, action: Emerge) -> GameState:
    tokens = Tokens(action.regular, action.marked)
    hs = state.houses[action.house]
    state = _edit(state, action.house, reserve=hs.reserve - tokens)
    state = _add(state, action.house, action.area, action.sector, tokens)
    state = _update_slot(state, landed=_slot(state)["landed"] + 1, emerged=True)
    return with_events(state, event(
        "emerge", f"{action.house} bring {tokens.total} token(s) from the deep desert into {_name(action.area)} "
        f"(sector {action.sector}), free (FREMEN-P4)", house=action.house, area=action.area, sector=action.sector,
        count=tokens.total, powers=(NATIVES,)))


def _apply_move(state: GameState, action: Move) -> GameState:
    """MOVE-1; a move into a storm sector by a House whose losses a power halves (FREMEN-P3) first asks KARAMA-7
    (GAP-63: the whole group is then lost)."""
    tokens = Tokens(action.regular, action.marked)
    if any(is_storm_sector(state, a, s) for a, s in action.path):
        uses = _blocking_uses(storm_losses(state, action.house, tokens)[1], ("storm-event",))
        if uses:
            return open_window(state, uses, "movement-move", action=action)
    return _resolve_move(state, action)


def _resume_move(state: GameState, data: Any) -> GameState:
    from dunenb.powers.karama import lift

    return lift(_resolve_move(state, data["action"]), "event")


def _resolve_move(state: GameState, action: Move) -> GameState:
    tokens = Tokens(action.regular, action.marked)
    state = fix_for_turn(state, action.house)  # GAP-50: the turn's ornithopters, as the movement starts
    ornithopters = has_ornithopters(state, action.house)
    state = _remove(state, action.house, action.area, action.sector, tokens)
    state = _update_slot(state, moved=_slot(state)["moved"] + 1)
    route = " → ".join(f"{_name(a)} ({s})" for a, s in action.path)
    state = with_events(state, event(
        "move", f"{action.house} moves {tokens.total} token(s) from {_name(action.area)} (sector {action.sector}) "
        f"to {route}" + (" by ornithopter" if ornithopters else ""), house=action.house, area=action.area,
        sector=action.sector, path=action.path, count=tokens.total, ornithopters=ornithopters))
    for area, sector in action.path:
        if is_storm_sector(state, area, sector):
            lost, ids = storm_losses(state, action.house, tokens)  # FREMEN-P3: half, rounded up
            state = with_events(state, event(
                "tokens-destroyed", f"moving into the storm: {lost.total} {action.house} token(s) destroyed in "
                f"{_name(area)} (sector {sector}) (MOVE-7, GAP-10{''.join(', ' + i for i in ids)})",
                house=action.house, area=area, sector=sector, count=lost.total, cause="moving into the storm",
                powers=ids))
            state = send_to_tanks(state, action.house, lost)
            tokens = tokens - lost
            if tokens.is_empty():
                return state
    destination, sector = action.path[-1]
    return _add(state, action.house, destination, sector, tokens)


def _apply_reposition(state: GameState, action: Reposition) -> GameState:
    tokens = Tokens(action.regular, action.marked)
    state = _remove(state, action.house, action.area, action.from_sector, tokens)
    state = _add(state, action.house, action.area, action.to_sector, tokens)
    state = _update_slot(state, repositions=_slot(state)["repositions"] + 1)
    return with_events(state, event(
        "reposition", f"{action.house} moves {tokens.total} token(s) within {_name(action.area)} from sector "
        f"{action.from_sector} to {action.to_sector} (MOVE-4a)", house=action.house, area=action.area,
        from_sector=action.from_sector, to_sector=action.to_sector, count=tokens.total))


def _apply_hajj(state: GameState, action: PlayHajj) -> GameState:
    hand = list(state.houses[action.house].hand)
    hand.remove(HAJJ)
    state = _edit(state, action.house, hand=tuple(hand))
    state = evolve(state, treachery_discard=state.treachery_discard + (HAJJ,))  # GAP-27
    state = _update_slot(state, rounds=slot_rounds(_slot(state)) + 1)
    return with_events(state, event(
        "hajj", f"{action.house} plays the Hajj: one more landing and one more move this turn (CARD-HAJJ-2, "
        "LAND-4, MOVE-8; the Fremen, who never land, get the move, FREMEN-P4)", house=action.house))


def _apply_end(state: GameState, action: EndSlot) -> GameState:
    slot = _slot(state)
    state = fix_for_turn(state, action.house)  # GAP-50: no move was made: its tokens are as its movement began
    state = with_events(state, event("slot-end", f"{action.house} ends its slot", house=action.house))
    if slot.get("chosen"):  # GUILD-P3: the chooser has played; the House it went before plays now
        return _open_slot(state, slot["order"], slot["index"])
    return _ask_chooser(state, slot["order"], slot["index"] + 1, slot.get("waiting"))


_APPLY: dict[type, Any] = {
    Revive: _apply_revive, Land: _apply_land, LandInPeace: _apply_land, Emerge: _apply_emerge, Move: _apply_move,
    Reposition: _apply_reposition, PlayHajj: _apply_hajj, EndSlot: _apply_end,
}


def _apply_slot_action(state: GameState, action: Action) -> GameState:
    return _APPLY[type(action)](state, action)


def slot_kinds() -> Iterable[str]:
    """The action kinds of a movement slot (for documentation and UIs)."""
    return tuple(cls.kind for cls in SLOT_ACTIONS)


register_resume("movement-start", _start_slots)
register_resume("movement-landing", _resume_land)
register_resume("movement-revival", _resume_revive)
register_resume("movement-move", _resume_move)

HANDLERS = {
    # ``accepts``: a second landing gets the precise "land/once-per-turn" error even when no landing is listed
    PHASE: Handler(apply=_apply_slot_action, decisions=_slot_decisions, check=check_slot_action,
                   accepts=SLOT_ACTIONS),
    "slot-choice": Handler(apply=_apply_slot_choice, decisions=_slot_choice_decisions,  # GUILD-P3
                           always=(Pass, TakeSlot)),
    "advisor": Handler(apply=_apply_advisor, decisions=_advisor_decisions, always=(Pass,)),  # BG-P2 b
}
