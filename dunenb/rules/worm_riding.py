"""FREMEN-P2 b, worm riding: right after a worm strikes territory T, before the next territory card, the House
holding FREMEN-P2 may move some or all of its tokens in T (none in a storm sector) to one desert territory not in
a storm sector, into one sector of it. A harvester it had committed in T goes with them, uncommitted. This is not
its movement for the turn; if a worm strikes T again in the same step, it may ride again (each strike asks).

The node ``ride`` is asked of the holder once per army (tokens of one sector) it has in T; ``pass`` keeps the
army where it is. Once one army has ridden, the others of T may only join it (one destination sector a strike).
A ride announced (riders and destination named) opens a Karama window for KARAMA-6 (ii) (GAP-63): played, the
riders still go, then the worm strikes the destination as :func:`dunenb.rules.spice.devour` does, sparing
nobody (every token there, the riders and the holder's included, the spice, the committed harvesters). That
strike is no territory card: it counts in no run of worms and opens no alliance window; the power stays
blocked for that worm, so no other army of T rides (GAP-150).

The menu lists, for each army, all of it or half of it to each storm-free sector of each other desert territory;
any other count is accepted by the check (houses.md FREMEN-P2; desert only: DESIGN; menus: GAP-65).

>>> from dunenb.engine import new_game
>>> state = new_game(["fremen", "atreides"], seed=1)
>>> len(ride_destinations(state, "grande-etendue")) > 10
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dunenb.actions import Action, Pass
from dunenb.errors import IllegalActionError
from dunenb.powers import holder
from dunenb.powers.karama import lift
from dunenb.powers.registry import implemented_uses
from dunenb.rules.common import Handler, add_forces, edit_house, event, node, pending, rules, with_events
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.state import FrozenDict, GameState, Pending, Tokens, evolve

POWER = "FREMEN-P2"
KIND = "ride"


@dataclass(frozen=True)
class RideWorm(Action):
    """FREMEN-P2 b: ride the worm from (``area``, ``sector``) to (``to_area``, ``to_sector``), a desert."""

    kind: ClassVar[str] = "ride"
    house: str
    area: str
    sector: int
    to_area: str
    to_sector: int
    regular: int
    marked: int = 0


def ride_destinations(state: GameState, origin: str) -> tuple[tuple[str, int], ...]:
    """The (desert territory, storm-free sector) pairs a ride from ``origin`` may end in."""
    storms = state.storm_sectors()
    return tuple((a.id, s) for a in rules().board.areas if a.is_desert and a.id != origin
                 for s in a.sectors if s not in storms)


def taming_uses(state: GameState, area: str) -> tuple[str, ...]:
    """KARAMA-6 (i): the uses to ask when a worm strikes ``area`` where the holder of FREMEN-P2 has tokens or a
    committed harvester (then its tokens and harvester there are devoured like the others, and it cannot ride)."""
    house = holder(state, POWER)
    if house is None or not (any(h == house and a == area for (h, a, _s) in state.forces)
                             or any(k[0] == house and k[1] == area for k in state.committed_harvesters)):
        return ()
    return implemented_uses(POWER)


def _riders(state: GameState, house: str, area: str, done: tuple[int, ...]) -> list[tuple[int, Tokens]]:
    storms = state.storm_sectors()
    return sorted((s, t) for (h, a, s), t in state.forces.items()
                  if h == house and a == area and s not in storms and s not in done and t.total > 0)


def offer_ride(state: GameState, area: str, following: Pending, done: tuple[int, ...] = (),
               to: tuple[str, int] | None = None) -> GameState:
    """After a worm strikes ``area``: ask the holder of FREMEN-P2 about its next army there, else go on with
    ``following`` (the next spice draw). ``to``: the destination of this strike's ride once an army has taken it
    (FREMEN-P2 b: the riders go to one desert territory, into one sector of it)."""
    house = holder(state, POWER)
    if house is not None and ride_destinations(state, area):
        riders = _riders(state, house, area, done)
        if riders:
            return evolve(state, pending=pending(
                KIND, house, area=area, sector=riders[0][0], done=done, following=following, to=to))
    return evolve(state, pending=following)


def _destinations(state: GameState) -> tuple[tuple[str, int], ...]:
    """The destinations open to the army asked about: every storm-free desert sector, or the one this strike's
    ride already goes to (FREMEN-P2 b: one territory, one sector)."""
    detail = node(state).detail
    to = detail.get("to")
    return ride_destinations(state, detail["area"]) if to is None else (tuple(to),)


def _decisions(state: GameState) -> list[Action]:
    detail, house = node(state).detail, node(state).actor
    tokens = state.forces[(house, detail["area"], detail["sector"])]
    groups = [tokens] + ([Tokens(tokens.total // 2, 0) if tokens.regular >= tokens.total // 2
                          else Tokens(tokens.regular, tokens.total // 2 - tokens.regular)]
                         if tokens.total >= 2 else [])
    menu: list[Action] = [Pass(house)]
    for to_area, to_sector in _destinations(state):
        for group in groups:
            menu.append(RideWorm(house, detail["area"], detail["sector"], to_area, to_sector, group.regular,
                                 group.marked))
    return menu


def _check(state: GameState, action: Action) -> IllegalActionError | None:
    if not isinstance(action, RideWorm):
        return None
    detail = node(state).detail
    if (action.area, action.sector) != (detail["area"], detail["sector"]):
        return IllegalActionError("ride/army", f"the army asked about is in {detail['area']} sector "
                                  f"{detail['sector']} (FREMEN-P2 b)")
    if detail.get("to") is not None and (action.to_area, action.to_sector) != tuple(detail["to"]):
        to_area, to_sector = detail["to"]
        return IllegalActionError("ride/destination", f"this worm's riders go to one sector of one territory "
                                  f"(FREMEN-P2 b): {to_area} sector {to_sector}, not {action.to_area} sector "
                                  f"{action.to_sector}")
    if (action.to_area, action.to_sector) not in ride_destinations(state, action.area):
        return IllegalActionError("ride/destination", f"{action.to_area} sector {action.to_sector} is not a "
                                  "storm-free sector of another desert territory (FREMEN-P2 b)")
    army = state.forces[(action.house, action.area, action.sector)]
    if (not all(isinstance(v, int) and not isinstance(v, bool) for v in (action.regular, action.marked))
            or action.regular < 0 or action.marked < 0 or action.regular + action.marked < 1
            or action.regular > army.regular or action.marked > army.marked):
        return IllegalActionError("ride/count", f"the army holds {army.regular} unmarked and {army.marked} marked "
                                  f"token(s); ride with at least 1 of them")
    return None


def _ride(state: GameState, action: RideWorm) -> GameState:
    """FREMEN-P2 b: the riders move to the destination; a harvester committed in T goes with them, uncommitted."""
    tokens = Tokens(action.regular, action.marked)
    key = (action.house, action.area, action.sector)
    left = state.forces[key] - tokens
    forces = state.forces.without(key) if left.is_empty() else state.forces.set(key, left)
    state = add_forces(evolve(state, forces=forces), action.house, action.to_area,
                       action.to_sector, tokens)
    board = rules().board
    state = with_events(state, event(
        "ride", f"{action.house} ride the worm: {tokens.total} token(s) from {board.area(action.area).name} to "
        f"{board.area(action.to_area).name} (sector {action.to_sector}) (FREMEN-P2)", house=action.house,
        area=action.area, to_area=action.to_area, to_sector=action.to_sector, count=tokens.total,
        powers=(POWER,)))
    for hkey, count in list(state.committed_harvesters.items()):
        if hkey[0] == action.house and hkey[1] == action.area:  # the harvester goes with them, uncommitted
            state = evolve(state, committed_harvesters=state.committed_harvesters.without(hkey))
            state = edit_house(state, action.house, harvesters=state.houses[action.house].harvesters + count)
    return state


def _apply(state: GameState, action: Action) -> GameState:
    detail = node(state).detail
    done = detail["done"] + (detail["sector"],)
    if isinstance(action, RideWorm):  # KARAMA-6 (ii) is asked once the riders and destination are named
        board = rules().board
        state = with_events(state, event(
            "ride-announced", f"{action.house} announce a ride of {action.regular + action.marked} token(s) from "
            f"{board.area(action.area).name} to {board.area(action.to_area).name} (sector {action.to_sector}) "
            "(FREMEN-P2 b)", house=action.house, area=action.area, to_area=action.to_area,
            to_sector=action.to_sector, powers=(POWER,)))
        return open_window(state, implemented_uses(POWER), "worm-ride", action=action, area=detail["area"],
                           following=detail["following"], done=done)
    return offer_ride(state, detail["area"], detail["following"], done, detail.get("to"))


def _resume_ride(state: GameState, data: FrozenDict) -> GameState:
    """After the KARAMA-6 (ii) window: the ride, or (Karama played) the ride and the worm striking its destination
    (GAP-150: no card, no run of worms, no alliance window; no further ride for that worm)."""
    from dunenb.rules.spice import devour

    action: RideWorm = data["action"]
    state = _ride(state, action)
    if holder(state, POWER) == action.house:  # the next armies of T may join this ride only (FREMEN-P2 b)
        return offer_ride(state, data["area"], data["following"], data["done"], (action.to_area, action.to_sector))
    state = devour(state, action.to_area, cause="Shai-Hulud ridden under a Karama (KARAMA-6)")
    return lift(evolve(state, pending=data["following"]), "event")


register_resume("worm-ride", _resume_ride)


HANDLERS = {KIND: Handler(apply=_apply, decisions=_decisions, check=_check, accepts=(RideWorm,), always=(Pass,))}
