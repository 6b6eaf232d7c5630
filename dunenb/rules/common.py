"""Shared helpers for the phase modules: sectors, storm order, handlers, state edits, destruction.

>>> steps_from(24, 3)
(1, 2, 3)
>>> sector_distance_ccw(22, 2)
4
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from dunenb.actions import Action
from dunenb.board import SHIELD_WALL
from dunenb.errors import IllegalActionError
from dunenb.powers import applied, is_in_play
from dunenb.ruleset import Ruleset, load_ruleset
from dunenb.shares import chance_share
from dunenb.state import Event, FrozenDict, GameState, Pending, Tokens, evolve

SECTORS = 24
STORMS = ("main", "secondary")
WEATHER_CONTROL = "weather-control"


def rules() -> Ruleset:
    return load_ruleset()


def advance_sector(sector: int, steps: int) -> int:
    """Move ``steps`` sectors counterclockwise (STORM-2: counting "1" per sector)."""
    return ((sector - 1 + steps) % SECTORS) + 1


def steps_from(sector: int, steps: int) -> tuple[int, ...]:
    """The sectors a storm passes over and stops on when it moves ``steps`` from ``sector`` (STORM-18)."""
    return tuple(advance_sector(sector, k) for k in range(1, steps + 1))


def sector_distance_ccw(start: int, end: int) -> int:
    """How many sectors counterclockwise from ``start`` to ``end``."""
    return (end - start) % SECTORS


def storm_order(state: GameState) -> tuple[str, ...]:
    """TURN-2, TURN-3, GAP-38: Houses in playing order, counterclockwise from the main storm.

    Start position ``p`` is the line between sectors ``p`` and ``p+1``. The first House is the one whose
    position is the first line met counterclockwise from the storm's sector (the storm's leading edge);
    a position on the storm's trailing edge plays last (design, recorded as part of GAP-38).
    Eliminated Houses are skipped (VICTORY-2, GAP-47).
    """
    last = _LAST_ORDER
    houses, eliminated, config = state.houses, state.eliminated, state.config
    if last[0] is houses and last[1] is eliminated and last[2] is config and last[3] == state.storm_main:
        return last[4]  # issue 14 item 4: the very same (immutable) facts as the last call, the same order
    storm = state.storm_main or 1
    positions = {h: p for h in state.config.houses
                 if (p := state.houses[h].start_position) is not None and is_in_play(state, h)}
    order = tuple(sorted(positions, key=lambda h: (positions[h] - storm) % SECTORS))
    _LAST_ORDER[:] = [houses, eliminated, config, state.storm_main, order]
    return order


#: issue 14 item 4: the facts :func:`storm_order` read at its last call (the Houses' mapping, the eliminated Houses
#: and the configuration, held as the objects themselves: all immutable, so the same objects mean the same start
#: positions and players; and the storm's sector) and its answer. An alliance window, a bid round or a battle step
#: asks it at every action of states that share these objects; the first change of any of them computes it anew.
_LAST_ORDER: list[Any] = [None, None, None, None, ()]


@dataclass(frozen=True)
class Pledge:
    """What a House has already promised at the pending node and may not spend on an action played "at any
    time" (:mod:`dunenb.rules.anytime`, GAP-57): ``spice`` (a bid to pay, spice on a battle wheel, the price of an
    offer being answered) and ``cards`` (a Karama that must settle a bid, a card offered back)."""

    spice: int = 0
    cards: tuple[str, ...] = ()


NO_PLEDGE = Pledge()


@dataclass(frozen=True)
class Handler:
    """How to play one kind of pending node.

    ``options`` lists the legal decisions (or, for chance nodes, the outcomes with probabilities);
    ``check`` validates actions whose space is too large to list (returns an error or None);
    ``apply`` plays an already-validated action.

    Two optional shortcuts let :func:`dunenb.engine.check_action` test an action by the rule instead of building
    the whole list and searching it (issue 14: replaying a save). Each may only say "legal": when it does not,
    the list is built as before, so the verdict and the error are unchanged.
    ``is_outcome(state, action)`` is true only for an outcome ``outcomes`` lists; ``always`` names action types
    whose only field is the House and that the menu lists for the House to act at every such node (a ``Pass``
    that is always open).
    """

    apply: Callable[[GameState, Any], GameState]
    decisions: Callable[[GameState], list[Action]] | None = None
    outcomes: Callable[[GameState], list[tuple[Action, Fraction]]] | None = None
    check: Callable[[GameState, Any], IllegalActionError | None] | None = None
    accepts: tuple[type, ...] = ()  # action types ``check`` explains even when none is listed now
    pledged: Callable[[GameState, str], Pledge] | None = None  # GAP-57: what the actor may not spend at any time
    is_outcome: Callable[[GameState, Any], bool] | None = None  # a chance outcome tested by its rule
    always: tuple[type, ...] = ()  # ``T(actor)`` is always in the menu (checked by a test over whole games)
    #: issue 14 item 2: action types whose ``check`` answering None means legal (it is as strict as the menu: the
    #: menu then lists some action of the type, which is all the fallback of ``check_action`` asks before trusting
    #: ``check``), so such an action is tested by the rule first; a refusal is explained as before (the menu, then
    #: ``check``), its error unchanged. Checked by a test over whole games.
    checked: tuple[type, ...] = ()

    @property
    def is_chance(self) -> bool:
        return self.outcomes is not None


def node(state: GameState) -> Pending:
    """The pending node of a state that waits for a decision or a chance outcome (typed: never ``None``)."""
    if state.pending is None:
        raise IllegalActionError("game/over", "the game is over: no node is pending")
    return state.pending


def menu_error(action: Action, menu: Sequence[Action], code: str, when: str) -> IllegalActionError | None:
    """``None`` if ``action`` is one of ``menu``, else the error ``code`` saying it "is not a choice ``when``" and
    listing the choices (for the small closed menus whose only rule is their list, e.g. the K-17 choices)."""
    if action in menu:
        return None
    allowed = ", ".join(a.notation() for a in menu)
    return IllegalActionError(code, f"{action.notation()!r} is not a choice {when}; allowed: {allowed}")


_new = object.__new__
_owning = FrozenDict._owning


def pending(kind: str, actor: str, **detail: Any) -> Pending:
    """``Pending(kind, actor, FrozenDict(detail))``. issue 14 item 4: built as :func:`dunenb.state.evolve` builds
    a record, its three fields written as one dict (the frozen ``__init__`` sets them one by one), and the
    keyword dict, made for this call only, taken as the mapping without a copy: the same record."""
    made = _new(Pending)
    fields = made.__dict__  # filled in place, in field order, as __init__ would (a dict sharing the class's keys)
    fields["kind"], fields["actor"], fields["detail"] = kind, actor, _owning(detail)
    return made


def with_events(state: GameState, *events: Event) -> GameState:
    return evolve(state, events=state.events + events)


def event(kind: str, text: str, **data: Any) -> Event:
    """``Event(kind, text, FrozenDict(data))``, built as :func:`pending` builds its node (issue 14 item 4)."""
    made = _new(Event)
    fields = made.__dict__
    fields["kind"], fields["text"], fields["data"] = kind, text, _owning(data)
    return made


def edit_house(state: GameState, house: str, **changes: Any) -> GameState:
    return evolve(state, houses=state.houses.set(house, evolve(state.houses[house], **changes)))


def add_forces(state: GameState, house: str, area: str, sector: int, tokens: Tokens) -> GameState:
    key = (house, area, sector)
    current = state.forces.get(key, Tokens())
    return evolve(state, forces=state.forces.set(key, current + tokens))


def double_storm_sector(state: GameState) -> int | None:
    """STORM-15, GAP-11: the sector where both storms ended their move this turn (an "Arrière Arrière Grand
    Mère"), else ``None``."""
    if state.config.secondary_storm and state.storm_main is not None and state.storm_main == state.storm_secondary:
        return state.storm_main
    return None


def double_storm_sietch(state: GameState, area_id: str, sector: int) -> bool:
    """STORM-15, GAP-11: whether (``area_id``, ``sector``) is inside a Sietch on the double-storm sector, where
    nobody may make a 0-move or fight this turn (the tokens there are spared, not free)."""
    return sector == double_storm_sector(state) and rules().board.area(area_id).kind == "sietch"


def is_exposed_to_storm(state: GameState, area_id: str, *, double: bool = False) -> bool:
    """GAP-9, STORM-7, GAP-11, GAP-30: whether a storm in this area's sector destroys what is there.

    Deserts are exposed; mountains protected; Sietchs always protected; cities protected while the
    Shield Wall stands; a blasted Shield Wall is desert. A double storm spares only Sietchs and the Pole.
    """
    area = rules().board.area(area_id)
    if area.kind == "pole":
        return False
    if double:
        return area.kind != "sietch"
    if area.kind == "desert":
        return True
    if area.kind == "city":
        return not state.shield_wall_standing
    if area.id == SHIELD_WALL:
        return not state.shield_wall_standing
    return False


def destroy_in_sector(
    state: GameState, sector: int, *, cause: str, double: bool = False, areas: Sequence[str] | None = None
) -> GameState:
    """STORM-6, STORM-9, GAP-9, GAP-17: destroy exposed tokens, spice and committed harvesters in a sector."""
    board = rules().board
    for area in board.areas_in_sector(sector):
        if areas is not None and area.id not in areas:
            continue
        if not is_exposed_to_storm(state, area.id, double=double):
            continue
        for (house, area_id, force_sector), tokens in list(state.forces.items()):
            if area_id == area.id and force_sector == sector:
                lost, ids = storm_losses(state, house, tokens, double=double, area=area.id)
                state = with_events(state, event(
                    "tokens-destroyed", f"{cause}: {lost.total} {house} token(s) destroyed in {area.name} "
                    f"(sector {sector})" + (f"; {tokens.total - lost.total} survive ({', '.join(ids)})" if ids
                                            else ""),
                    house=house, area=area.id, sector=sector, count=lost.total, cause=cause, powers=ids))
                state = kill_tokens(state, house, area.id, sector, lost)
        for (house, area_id, force_sector), count in list(state.committed_harvesters.items()):
            if area_id == area.id and force_sector == sector:
                state = dataclasses.replace(
                    state, committed_harvesters=state.committed_harvesters.without((house, area_id, force_sector))
                )
                state = with_events(state, event(
                    "harvester-destroyed", f"{cause}: {count} {house} harvester(s) destroyed in {area.name}",
                    house=house, area=area.id, count=count, cause=cause))
        if area.spice_sector == sector and state.spice_on_map.get(area.id, 0) > 0:
            state = remove_spice(state, area.id, cause=cause)
    return state


def take_tokens(tokens: Tokens, count: int) -> Tokens:
    """``count`` of ``tokens``, unmarked first: the House keeps its marked tokens as long as it can (GAP-65, the
    Fremen's choice under FREMEN-P3 made for them: a marked token is worth 1 on the wheel, WHEEL-2)."""
    regular = min(tokens.regular, count)
    return Tokens(regular, min(tokens.marked, count - regular))


def storm_losses(state: GameState, house: str, tokens: Tokens, *, double: bool = False,
                 area: str | None = None) -> tuple[Tokens, tuple]:
    """STORM-6, GAP-9, STORM-8: the tokens a storm destroys in one group of ``house``, and the powers that spared
    some (hook ``storm.losses``: FREMEN-P3 half, rounded up, except in the double storm, STORM-15; with ``area``,
    leaders.md S-2 too)."""
    count, ids = applied(state, "storm.losses", tokens.total, {"house": house, "double": double})
    if area is not None and state.battles_led:
        from dunenb.rules import leader_specials

        count, more = leader_specials.storm_losses(state, house, area, count, tokens.total, double=double)
        ids = tuple(ids) + more
    return take_tokens(tokens, count), ids


def send_to_tanks(state: GameState, house: str, tokens: Tokens) -> GameState:
    """Destroyed tokens (already off the map) go to the House's tanks (REVIVAL-5, GAP-25b), or where the hook
    ``tokens.destroyed`` sends them (TLEILAX-P2: back to the reserve at once), with an event naming the power."""
    if tokens.is_empty():
        return state
    where, ids = applied(state, "tokens.destroyed", "tanks", {"house": house})
    hs = state.houses[house]
    if where == "reserve":
        state = edit_house(state, house, reserve=hs.reserve + tokens)
        return with_events(state, event(
            "tokens-recovered", f"{house} recover {tokens.total} destroyed token(s) into their reserve at once "
            f"({', '.join(ids)})", house=house, count=tokens.total, regular=tokens.regular, marked=tokens.marked,
            powers=ids))  # KARAMA-34 is asked once the action is settled (dunenb.rules.recovery)
    return edit_house(state, house, tanks=hs.tanks + tokens)


def kill_tokens(state: GameState, house: str, area: str, sector: int, tokens: Tokens) -> GameState:
    """Move tokens from the map to the House's tanks (REVIVAL-5, GAP-25b; :func:`send_to_tanks`)."""
    if tokens.is_empty():
        return state
    key = (house, area, sector)
    left = state.forces[key] - tokens
    forces = state.forces.without(key) if left.is_empty() else state.forces.set(key, left)
    state = evolve(state, forces=forces)
    return send_to_tanks(state, house, tokens)


def remove_spice(state: GameState, area_id: str, *, cause: str) -> GameState:
    amount = state.spice_on_map.get(area_id, 0)
    name = rules().board.area(area_id).name
    state = evolve(state, spice_on_map=state.spice_on_map.without(area_id), bank=state.bank + amount)
    return with_events(state, event(
        "spice-destroyed", f"{cause}: {amount} spice lost in {name}", area=area_id, amount=amount, cause=cause))


def uniform(actions: Sequence[Action]) -> list[tuple[Action, Fraction]]:
    share = chance_share(1, len(actions))
    return [(a, share) for a in actions]


@lru_cache(maxsize=64)
def dice_sum_distribution(dice: int, faces: int) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``dice`` fair dice with faces 1..faces.

    >>> dice_sum_distribution(3, 10)[3], dice_sum_distribution(3, 10)[16]
    (Fraction(1, 1000), Fraction(3, 40))
    """
    ways = {0: 1}  # issue 14: integer counts of the ways to make each total, one exact division at the end
    for _ in range(dice):
        following: dict[int, int] = {}
        for total, count in ways.items():
            for face in range(1, faces + 1):
                following[total + face] = following.get(total + face, 0) + count
        ways = following
    outcomes = faces ** dice
    return {total: Fraction(count, outcomes) for total, count in ways.items()}
