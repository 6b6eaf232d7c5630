"""TURN-1 e): each House in storm order revives, lands, then moves (REVIVAL, LAND, MOVE, HARVEST-3/4).

The phase gives every House in storm order (TURN-2, TURN-3, ``common.storm_order``) one **slot**: a pending
node ``movement`` where that House acts until it plays ``end-slot``. In its slot a House may:

* ``revive`` (REVIVAL-1, GAP-25a, G-2, G-3): buy back up to 3 tokens a turn from its tanks at 1 spice each,
  at most 1 marked token a turn; only **before** it lands or moves (GAP-25a: revival opens the slot; design:
  several ``revive`` actions are allowed as long as the turn's totals hold). Revived tokens go to the reserve
  (G-2). The money goes to the Bene Tleilax if they play, else to the Bank (REVIVAL-1; the Tleilax reviving
  themselves pay the Bank, TLEILAX-P1).
* ``land`` (LAND-1, LAND-2, LAND-5, LAND-7, STORM-8, GAP-26b): once per turn, one group from the reserve into
  one (area, sector), at 1 spice a token into a city or Sietch and 2 elsewhere (the North Pole included).
  The landing must come before the territory move (TURN-1 e: "lands, then moves"). Tokens landed in a storm
  sector are paid for and destroyed (they go to the tanks), except at the North Pole. The payment goes to the
  Guild if it plays and is not the lander, else to the Bank (LAND-7, GAP-26b).
* ``emerge`` (FREMEN-P4, LAND-6): the Fremen never land. In place of a landing, once a turn, they put any
  number of reserve tokens, free, into one Sietch or desert adjacent to a Sietch, in a sector that is not a
  storm sector. Nobody is paid.
* ``move`` (MOVE-1, MOVE-2, MOVE-4b, MOVE-6, MOVE-7, GAP-10, GAP-21): once per turn, one army (the tokens of
  one House in one (area, sector)), all of it or part of it, along a path of 1 territory, or up to 3 if the
  House has ornithopters. GAP-21: it has them if, when it makes the move (the start of its movement, after
  its landing), it has at least one token in a city or Sietch; the moving group need not start there. The
  North Pole ornithopters of a Chance card are not modelled (the Chance module is off, GAP-20).
* ``reposition`` (MOVE-4a, GAP-22): the "move of 0", any number of times in the slot: tokens of one army go
  to another sector of the same territory. It may not enter or cross a storm sector (GAP-22, GAP-10); it is
  refused rather than destroying the tokens. Inside a Sietch on the double-storm sector no move of 0 is allowed
  at all that turn (STORM-15, GAP-11). The menu lists moves of 0 only until the first one of the slot
  (the check accepts any number; design, so that the menus form no cycle a random or seeded bot could loop in:
  every other listed action is once per slot or costs spice).
* ``buy-harvester`` / ``sell-harvester`` (HARVEST-3, HARVEST-4, GAP-48): "at any time" is offered as any
  time in the House's own movement slot (design): buy from the Bank for 5, sell to the Bank for 3. Only
  uncommitted harvesters (``HouseState.harvesters``) can be sold.
* ``end-slot``: the next House in storm order plays; after the last, the flow goes on (TURN-1 f).

**Sector geometry of a move** (design, recorded with GAP-1 and GAP-10). The board data gives adjacency per
territory, not the borders' sectors, and a token always lies in one sector (MAP-3b). So a move names, for every
territory it enters (the intermediate ones and the destination), the **sector it enters**: ``path`` is a list
of ``(area, sector)``. Each sector entered must touch the sector the group leaves: the same sector or a
neighbouring one (cyclic distance at most 1); the North Pole touches every sector. The group leaves each
intermediate territory from the sector it entered it by; to leave a territory elsewhere, reposition first
(MOVE-4a). Every territory on the path counts as one square whatever its size (MAP-7, MOVE-4b), may not be
entered twice, and the origin territory may not be re-entered. GAP-10: if any sector entered is a storm sector
(main or secondary) outside the North Pole, the whole moving group is destroyed there (MOVE-7, STORM-8),
whatever the territory. The menu lists the safe shortest paths (one per destination sector, choosing in each
intermediate territory the first safe sector that touches the previous one) and, for teaching, one storm entry
per army; ``check`` accepts any well-formed path.

**The North Pole** spans all 24 sectors; an army there stands in its first sector, ``POLE_SECTOR`` (as the
setup step places it), and actions name that sector (design; MAP-3b: all sectors meet there).

Out of scope here (House powers, a later issue): FREMEN-P3 (half losses to the storm when moving), GUILD-P2
(half price), GUILD-M1 (5 free tokens), GUILD-P3 (choice of slot), BG-P2 (advisors and landing in peace),
TLEILAX-P2 (own tokens back), KARAMA-14/15/17/36, the Hajj (LAND-4, MOVE-8) and the ghola card.
The per-turn revival counters are reset when this phase begins (design: revival only happens here for now;
move the reset to the turn's end when the ghola card can revive at other moments).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, ClassVar

from dunenb.actions import Action
from dunenb.errors import IllegalActionError
from dunenb.powers import holds_power
from dunenb.rules import flow
from dunenb.rules.common import SECTORS, Handler, double_storm_sietch, event, pending, rules, storm_order, with_events
from dunenb.rules.lent_powers import income_payee
from dunenb.state import GameState, Tokens

POLE = "pole-nord"
POLE_SECTOR = 1  # design: the Pole's army stands in its first sector, as setup places it
LAND_PRICE_SETTLEMENT = 1  # LAND-1: a city or a Sietch
LAND_PRICE_ELSEWHERE = 2  # LAND-1: mountain, desert or North Pole
REVIVAL_LIMIT = 3  # REVIVAL-1: up to 3 tokens a turn
REVIVAL_PRICE = 1  # REVIVAL-1: 1 spice a token
MARKED_REVIVAL_LIMIT = 1  # houses.md G-3: at most 1 marked token a turn
HARVESTER_PRICE = 5  # HARVEST-3
HARVESTER_RESALE = 3  # HARVEST-4
RANGE_ON_FOOT = 1  # MOVE-4b
RANGE_WITH_ORNITHOPTERS = 3  # MOVE-4b, MOVE-5
NATIVES = "FREMEN-P4"  # LAND-6: its holder emerges instead of landing (data/powers.json)
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

    ``path`` lists every territory entered with the sector entered, the destination last (GAP-10).
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
class BuyHarvester(Action):
    """HARVEST-3: buy ``count`` harvesters from the Bank at 5 spice each."""

    kind: ClassVar[str] = "buy-harvester"
    house: str
    count: int = 1


@dataclass(frozen=True)
class SellHarvester(Action):
    """HARVEST-4: sell ``count`` uncommitted harvesters to the Bank at 3 spice each."""

    kind: ClassVar[str] = "sell-harvester"
    house: str
    count: int = 1


@dataclass(frozen=True)
class EndSlot(Action):
    """End the House's landing-and-movement slot (TURN-1 e)."""

    kind: ClassVar[str] = "end-slot"
    house: str


SLOT_ACTIONS: tuple[type[Action], ...] = (Revive, Land, Emerge, Move, Reposition, BuyHarvester, SellHarvester,
                                          EndSlot)


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
    or the House it lent its landing income to (ALLIANCE-12), else the Bank (``None``)."""
    return income_payee(state, "GUILD-P1", house)  # GUILD-P1, lent by ALLIANCE-12


def revival_payee(state: GameState, house: str) -> str | None:
    """REVIVAL-1, TLEILAX-P1: the Bene Tleilax if they play (and do not revive themselves), else the Bank."""
    return income_payee(state, "TLEILAX-P1", house)  # TLEILAX-P1, lent by ALLIANCE-12


def is_storm_sector(state: GameState, area_id: str, sector: int) -> bool:
    """STORM-8, LAND-5, MOVE-7, GAP-10: whether entering (area, sector) meets a storm (never at the Pole)."""
    return area_id != POLE and sector in state.storm_sectors()


def has_ornithopters(state: GameState, house: str) -> bool:
    """GAP-21, MOVE-6: the House has at least one token in a city or a Sietch."""
    return any(h == house and _area(a).is_settlement for (h, a, _s) in state.forces)


def move_range(state: GameState, house: str) -> int:
    """MOVE-4b: 3 territories with ornithopters (GAP-21), else 1."""
    return RANGE_WITH_ORNITHOPTERS if has_ornithopters(state, house) else RANGE_ON_FOOT


def sectors_touch(first: int, second: int) -> bool:
    """The same sector or neighbours on the 24-sector ring (design, see the module docstring).

    >>> sectors_touch(24, 1), sectors_touch(3, 5)
    (True, False)
    """
    gap = (first - second) % SECTORS
    return min(gap, SECTORS - gap) <= 1


def area_sectors(area_id: str) -> tuple[int, ...]:
    """The sectors an army may stand in: the area's sectors, only ``POLE_SECTOR`` at the North Pole."""
    return (POLE_SECTOR,) if area_id == POLE else _area(area_id).sectors


@cache
def entry_sectors(from_area: str, from_sector: int, to_area: str) -> tuple[int, ...]:
    """The sectors of ``to_area`` a group at (from_area, from_sector) may enter (design geometry)."""
    if to_area == POLE:
        return (POLE_SECTOR,)
    sectors = _area(to_area).sectors
    if from_area == POLE:
        return sectors
    return tuple(s for s in sectors if sectors_touch(from_sector, s))


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
    houses = houses.set(house, dataclasses.replace(houses[house], spice=houses[house].spice - amount))
    if payee is None:
        return dataclasses.replace(state, houses=houses, bank=state.bank + amount)
    houses = houses.set(payee, dataclasses.replace(houses[payee], spice=houses[payee].spice + amount))
    return dataclasses.replace(state, houses=houses)


def _edit(state: GameState, house: str, **changes: Any) -> GameState:
    return dataclasses.replace(
        state, houses=state.houses.set(house, dataclasses.replace(state.houses[house], **changes)))


def _add(state: GameState, house: str, area: str, sector: int, tokens: Tokens) -> GameState:
    key = (house, area, sector)
    return dataclasses.replace(state, forces=state.forces.set(key, state.forces.get(key, Tokens()) + tokens))


def _remove(state: GameState, house: str, area: str, sector: int, tokens: Tokens) -> GameState:
    key = (house, area, sector)
    left = state.forces[key] - tokens
    forces = state.forces.without(key) if left.is_empty() else state.forces.set(key, left)
    return dataclasses.replace(state, forces=forces)


def _name(area_id: str) -> str:
    return _area(area_id).name


def _payee_name(payee: str | None) -> str:
    return "the Bank" if payee is None else f"the {payee}"


# --- the phase ------------------------------------------------------------------------------------------

def begin_phase(state: GameState) -> GameState:
    """TURN-1 e): reset the turn's revival counters and open the first House's slot."""
    houses = state.houses
    for house, hs in houses.items():
        if hs.revived_this_turn or hs.revived_marked_this_turn:
            houses = houses.set(house, dataclasses.replace(hs, revived_this_turn=0, revived_marked_this_turn=0))
    state = dataclasses.replace(state, phase=PHASE, houses=houses)
    order = storm_order(state)
    state = with_events(state, event("movement-phase", "Landing and movement, in storm order: " + ", ".join(order),
                                     order=order))
    return _open_slot(state, order, 0)


def _open_slot(state: GameState, order: tuple[str, ...], index: int) -> GameState:
    if index >= len(order):
        state = dataclasses.replace(state, pending=None)
        return flow.after_phase(state, PHASE)
    house = order[index]
    state = with_events(state, event("movement-slot", f"{house} revives, lands and moves (TURN-1 e)", house=house))
    return dataclasses.replace(state, pending=pending(
        PHASE, house, order=order, index=index, landed=False, moved=False, repositions=0))


def _slot(state: GameState) -> Any:
    return state.pending.detail


def _update_slot(state: GameState, **changes: Any) -> GameState:
    return dataclasses.replace(state, pending=dataclasses.replace(
        state.pending, detail=state.pending.detail.updated(changes)))


# --- menus ----------------------------------------------------------------------------------------------

#: The last menu built, as [(state, menu)]: states are immutable, so the menu of the very same state object is
#: reused (``legal_actions`` and ``check_action`` each ask for it; design, a speed-up only).
_LAST_MENU: list[tuple[GameState, tuple[Action, ...]] | None] = [None]


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
    house = state.pending.actor
    slot = _slot(state)
    hs = state.houses[house]
    menu: list[Action] = [EndSlot(house)]
    if not slot["landed"] and not slot["moved"]:
        menu += _revival_menu(state, house)
        menu += _emergence_menu(state, house) if holds_power(state, house, NATIVES) else _landing_menu(state, house)
    if not slot["moved"]:
        menu += _move_menu(state, house)
    if slot["repositions"] == 0:
        menu += _reposition_menu(state, house)
    if hs.spice >= HARVESTER_PRICE:
        menu.append(BuyHarvester(house))
    if hs.harvesters >= 1:
        menu.append(SellHarvester(house))
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


def _counts(most: int) -> list[int]:
    return sorted({n for n in (most, 1, most // 2) if 1 <= n <= most}, reverse=True)


def _landing_menu(state: GameState, house: str) -> list[Action]:
    hs = state.houses[house]
    menu: list[Action] = []
    if hs.reserve.total == 0:
        return menu
    storms = state.storm_sectors()
    for area in rules().board.areas:
        most = min(hs.reserve.total, hs.spice // landing_price_per_token(area.id))
        if most < 1:
            continue
        counts = _counts(most)
        for sector in area_sectors(area.id):
            if area.id != POLE and sector in storms:
                continue
            for count in counts:
                tokens = _split(hs.reserve, count)
                menu.append(Land(house, area.id, sector, tokens.regular, tokens.marked))
    for sector in state.storm_sectors():  # LAND-5 for teaching: one token into the storm
        area = next(a for a in rules().board.areas_in_sector(sector) if a.id != POLE)
        if hs.spice >= landing_price_per_token(area.id):
            tokens = _split(hs.reserve, 1)
            action = Land(house, area.id, sector, tokens.regular, tokens.marked)
            if action not in menu:
                menu.append(action)
    return menu


def _emergence_menu(state: GameState, house: str) -> list[Action]:
    reserve = state.houses[house].reserve
    menu: list[Action] = []
    if reserve.total == 0:
        return menu
    for area_id in emergence_areas():
        for sector in area_sectors(area_id):
            if sector in state.storm_sectors():
                continue
            for count in _counts(reserve.total):
                tokens = _split(reserve, count)
                menu.append(Emerge(house, area_id, sector, tokens.regular, tokens.marked))
    return menu


def safe_paths(state: GameState, area: str, sector: int, steps: int) -> dict[tuple[str, int], tuple]:
    """Shortest storm-free paths from (area, sector) to every (area, sector) within ``steps`` territories."""
    storms = set(state.storm_sectors())
    found: dict[tuple[str, int], tuple] = {}
    seen = {(area, sector)}
    frontier: list[tuple[tuple[str, int], tuple]] = [((area, sector), ())]
    for _ in range(steps):
        following = []
        for (here, at), path in frontier:
            visited = {area, *(a for a, _ in path)}
            for neighbour in _area(here).adjacent:
                if neighbour in visited:
                    continue
                for entry in entry_sectors(here, at, neighbour):
                    key = (neighbour, entry)
                    if key in seen or (neighbour != POLE and entry in storms):
                        continue
                    seen.add(key)
                    found[key] = path + (key,)
                    following.append((key, path + (key,)))
        frontier = following
    return found


def _move_menu(state: GameState, house: str) -> list[Action]:
    steps = move_range(state, house)
    menu: list[Action] = []
    for area, sector, tokens in armies(state, house):
        groups = [tokens] + ([_split(tokens, tokens.total // 2)] if tokens.total >= 2 else [])
        paths = safe_paths(state, area, sector, steps)
        for group in groups:
            for path in paths.values():
                menu.append(Move(house, area, sector, path, group.regular, group.marked))
        storm_entry = _first_storm_entry(state, area, sector)  # MOVE-7, GAP-10 for teaching
        if storm_entry is not None:
            menu.append(Move(house, area, sector, (storm_entry,), tokens.regular, tokens.marked))
    return menu


def _first_storm_entry(state: GameState, area: str, sector: int) -> tuple[str, int] | None:
    storms = state.storm_sectors()
    if not storms:
        return None
    for neighbour in _area(area).adjacent:
        for entry in entry_sectors(area, sector, neighbour):
            if neighbour != POLE and entry in storms:
                return neighbour, entry
    return None


def _reposition_menu(state: GameState, house: str) -> list[Action]:
    """MOVE-4a: each army, all of it, to each other sector of its territory it can reach without crossing a storm.

    Listed only until the House has made one move of 0 in the slot; any further one is still accepted by the
    check (design: a menu graph without cycles keeps random play and seeded bots from looping forever)."""
    menu: list[Action] = []
    for area, sector, tokens in armies(state, house):
        if area == POLE or double_storm_sietch(state, area, sector):
            continue  # STORM-15, GAP-11: no 0-move inside a Sietch under the double storm
        for target in area_sectors(area):
            if target == sector:
                continue
            if any(s in state.storm_sectors() for s in reposition_route(area, sector, target)):
                continue
            menu.append(Reposition(house, area, sector, target, tokens.regular, tokens.marked))
    return menu


# --- checks ---------------------------------------------------------------------------------------------

def _error(code: str, message: str) -> IllegalActionError:
    return IllegalActionError(code, message)


def _is_int(*values: object) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _check_counts(
    prefix: str, regular: object, marked: object, available: Tokens, where: str
) -> IllegalActionError | None:
    if not _is_int(regular, marked) or regular < 0 or marked < 0 or regular + marked < 1:
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
    if holds_power(state, action.house, NATIVES):
        return _error("land/fremen", "the Fremen never land (LAND-6, FREMEN-P4): use 'emerge'")
    slot = _slot(state)
    if slot["landed"]:
        return _error("land/once-per-turn", "a House lands once per turn, one group only (LAND-2)")
    if slot["moved"]:
        return _error("land/after-move", "the landing comes before the move (TURN-1 e: lands, then moves)")
    error = _check_place("land", action.area, action.sector)
    if error:
        return error
    hs = state.houses[action.house]
    error = _check_counts("land", action.regular, action.marked, hs.reserve, "the reserve")
    if error:
        return error
    count = action.regular + action.marked
    cost = landing_cost(action.area, count)
    if cost > hs.spice:
        per = landing_price_per_token(action.area)
        return _error("land/cost", f"{count} token(s) into {action.area} cost {cost} spice ({per} a token, LAND-1); "
                      f"{action.house} has {hs.spice}, enough for {hs.spice // per}")
    return None


def _check_emerge(state: GameState, action: Emerge) -> IllegalActionError | None:
    if not holds_power(state, action.house, NATIVES):
        return _error("emerge/not-fremen", "only the Fremen emerge (FREMEN-P4); other Houses 'land'")
    slot = _slot(state)
    if slot["landed"]:
        return _error("emerge/once-per-turn", "the Fremen emerge once per turn, into one territory (FREMEN-P4)")
    if slot["moved"]:
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
    if _slot(state)["moved"]:
        return _error("move/once-per-turn", "a House moves one army once per turn (MOVE-1, MOVE-4b); "
                      "moves of 0 are 'reposition'")
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
    here, at = action.area, action.sector
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
        allowed = entry_sectors(here, at, area)
        if sector not in allowed:
            return _error("move/sector-gap", f"path[{index}]: from {here} sector {at} the group can enter {area} "
                          f"only in sector(s) {list(allowed)} (sectors entered must touch, design)")
        entered.add(area)
        here, at = area, sector
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


def _check_buy(state: GameState, action: BuyHarvester) -> IllegalActionError | None:
    if not _is_int(action.count) or action.count < 1:
        return _error("harvester/count", f"count must be an integer >= 1, not {action.count!r}")
    cost = HARVESTER_PRICE * action.count
    spice = state.houses[action.house].spice
    if cost > spice:
        return _error("harvester/cost", f"{action.count} harvester(s) cost {cost} spice (HARVEST-3); "
                      f"{action.house} has {spice}")
    return None


def _check_sell(state: GameState, action: SellHarvester) -> IllegalActionError | None:
    if not _is_int(action.count) or action.count < 1:
        return _error("harvester/count", f"count must be an integer >= 1, not {action.count!r}")
    owned = state.houses[action.house].harvesters
    if action.count > owned:
        return _error("harvester/none", f"{action.house} has {owned} uncommitted harvester(s) to sell (HARVEST-4)")
    return None


_CHECKS = {
    Revive: _check_revive, Land: _check_land, Emerge: _check_emerge, Move: _check_move,
    Reposition: _check_reposition, BuyHarvester: _check_buy, SellHarvester: _check_sell,
}


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
    tokens = Tokens(action.regular, action.marked)
    hs = state.houses[action.house]
    payee = revival_payee(state, action.house)
    state = _edit(state, action.house, tanks=hs.tanks - tokens, reserve=hs.reserve + tokens,
                  revived_this_turn=hs.revived_this_turn + tokens.total,
                  revived_marked_this_turn=hs.revived_marked_this_turn + tokens.marked)
    cost = tokens.total * REVIVAL_PRICE
    state = _pay(state, action.house, cost, payee)
    return with_events(state, event(
        "revive", f"{action.house} revives {tokens.total} token(s) for {cost} spice, paid to {_payee_name(payee)} "
        "(REVIVAL-1)", house=action.house, count=tokens.total, marked=tokens.marked, cost=cost,
        payee=payee or "bank"))


def _apply_land(state: GameState, action: Land) -> GameState:
    tokens = Tokens(action.regular, action.marked)
    cost = landing_cost(action.area, tokens.total)
    payee = landing_payee(state, action.house)
    hs = state.houses[action.house]
    state = _edit(state, action.house, reserve=hs.reserve - tokens)
    state = _pay(state, action.house, cost, payee)
    state = _update_slot(state, landed=True)
    state = with_events(state, event(
        "land", f"{action.house} lands {tokens.total} token(s) in {_name(action.area)} (sector {action.sector}) "
        f"for {cost} spice, paid to {_payee_name(payee)} (LAND-1, LAND-7)", house=action.house, area=action.area,
        sector=action.sector, count=tokens.total, cost=cost, payee=payee or "bank"))
    if is_storm_sector(state, action.area, action.sector):
        state = _edit(state, action.house, tanks=state.houses[action.house].tanks + tokens)
        return with_events(state, event(
            "tokens-destroyed", f"landing in the storm: {tokens.total} {action.house} token(s) destroyed in "
            f"{_name(action.area)} (sector {action.sector}) (LAND-5, STORM-8)", house=action.house,
            area=action.area, sector=action.sector, count=tokens.total, cause="landing in the storm"))
    return _add(state, action.house, action.area, action.sector, tokens)


def _apply_emerge(state: GameState, action: Emerge) -> GameState:
    tokens = Tokens(action.regular, action.marked)
    hs = state.houses[action.house]
    state = _edit(state, action.house, reserve=hs.reserve - tokens)
    state = _add(state, action.house, action.area, action.sector, tokens)
    state = _update_slot(state, landed=True)
    return with_events(state, event(
        "emerge", f"{action.house} bring {tokens.total} token(s) from the deep desert into {_name(action.area)} "
        f"(sector {action.sector}), free (FREMEN-P4)", house=action.house, area=action.area, sector=action.sector,
        count=tokens.total))


def _apply_move(state: GameState, action: Move) -> GameState:
    tokens = Tokens(action.regular, action.marked)
    ornithopters = has_ornithopters(state, action.house)
    state = _remove(state, action.house, action.area, action.sector, tokens)
    state = _update_slot(state, moved=True)
    route = " → ".join(f"{_name(a)} ({s})" for a, s in action.path)
    state = with_events(state, event(
        "move", f"{action.house} moves {tokens.total} token(s) from {_name(action.area)} (sector {action.sector}) "
        f"to {route}" + (" by ornithopter" if ornithopters else ""), house=action.house, area=action.area,
        sector=action.sector, path=action.path, count=tokens.total, ornithopters=ornithopters))
    for area, sector in action.path:
        if is_storm_sector(state, area, sector):
            state = _edit(state, action.house, tanks=state.houses[action.house].tanks + tokens)
            return with_events(state, event(
                "tokens-destroyed", f"moving into the storm: {tokens.total} {action.house} token(s) destroyed in "
                f"{_name(area)} (sector {sector}) (MOVE-7, GAP-10)", house=action.house, area=area, sector=sector,
                count=tokens.total, cause="moving into the storm"))
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


def _apply_buy(state: GameState, action: BuyHarvester) -> GameState:
    cost = HARVESTER_PRICE * action.count
    state = _pay(state, action.house, cost, None)
    state = _edit(state, action.house, harvesters=state.houses[action.house].harvesters + action.count)
    return with_events(state, event(
        "harvester-bought", f"{action.house} buys {action.count} harvester(s) from the Bank for {cost} spice "
        "(HARVEST-3)", house=action.house, count=action.count, cost=cost))


def _apply_sell(state: GameState, action: SellHarvester) -> GameState:
    price = HARVESTER_RESALE * action.count
    state = _pay(state, action.house, -price, None)
    state = _edit(state, action.house, harvesters=state.houses[action.house].harvesters - action.count)
    return with_events(state, event(
        "harvester-sold", f"{action.house} sells {action.count} harvester(s) to the Bank for {price} spice "
        "(HARVEST-4)", house=action.house, count=action.count, price=price))


def _apply_end(state: GameState, action: EndSlot) -> GameState:
    slot = _slot(state)
    state = with_events(state, event("slot-end", f"{action.house} ends its slot", house=action.house))
    return _open_slot(state, slot["order"], slot["index"] + 1)


_APPLY = {
    Revive: _apply_revive, Land: _apply_land, Emerge: _apply_emerge, Move: _apply_move,
    Reposition: _apply_reposition, BuyHarvester: _apply_buy, SellHarvester: _apply_sell, EndSlot: _apply_end,
}


def _apply_slot_action(state: GameState, action: Action) -> GameState:
    return _APPLY[type(action)](state, action)


def slot_kinds() -> Iterable[str]:
    """The action kinds of a movement slot (for documentation and UIs)."""
    return tuple(cls.kind for cls in SLOT_ACTIONS)


HANDLERS = {
    # ``accepts``: a second landing gets the precise "land/once-per-turn" error even when no landing is listed
    PHASE: Handler(apply=_apply_slot_action, decisions=_slot_decisions, check=check_slot_action,
                   accepts=SLOT_ACTIONS),
}
