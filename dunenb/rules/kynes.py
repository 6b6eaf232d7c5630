"""Liet Kynes' powers in the Fremen slot of step e) (houses.md FREMEN-M1, FREMEN-M2), through the framework.

* ``local-storm`` (FREMEN-M1): once per turn, in the holder's slot, a storm strikes one sector ``s`` that holds
  one of its tokens outside the North Pole or is next to such a sector (s ± 1). It destroys as the main storm
  stopping on ``s`` (GAP-9: tokens, spice and committed harvesters in the exposed parts of ``s``); the holder's
  groups lose half (FREMEN-P3, hook ``storm.losses``). No storm token, no effect on the turn order. The other
  Houses with a card may first play KARAMA-8 (GAP-63): no local storm this turn.
* ``call-worm`` (FREMEN-M2): once per turn, **instead of the emergence** (FREMEN-P4), a worm fetches one of the
  holder's armies standing in a desert, not in a storm sector, and carries some or all of it to a storm-free
  sector of another desert territory. It devours nothing and opens no alliance window. After it arrives the
  other Houses may play KARAMA-9: it then devours that group and nothing else (the Fremen keep their move).

Both are main-leader powers: they lapse when Kynes dies (G-7, :func:`dunenb.powers.holder`).

>>> from dunenb.engine import new_game
>>> state = new_game(["fremen", "atreides"], seed=1)
>>> local_storm_sectors(state, "fremen")  # no Fremen token on Dune yet
()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from dunenb.actions import Action, menu_maker
from dunenb.errors import IllegalActionError
from dunenb.powers import holder, holds_power
from dunenb.powers.karama import lift
from dunenb.powers.registry import implemented_uses
from dunenb.rules import movement
from dunenb.rules.common import (
    SECTORS,
    add_forces,
    advance_sector,
    destroy_in_sector,
    event,
    is_exposed_to_storm,
    kill_tokens,
    rules,
    storm_losses,
    with_events,
)
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.rules.worm_riding import ride_destinations
from dunenb.state import GameState, Tokens, evolve

LOCAL_STORM = "FREMEN-M1"
CALL_WORM = "FREMEN-M2"
HALF_LOSSES = "FREMEN-P3"


@dataclass(frozen=True)
class LocalStorm(Action):
    """FREMEN-M1: Kynes raises a local storm on ``sector``."""

    kind: ClassVar[str] = "local-storm"
    house: str
    sector: int


@dataclass(frozen=True)
class CallWorm(Action):
    """FREMEN-M2: a called worm carries tokens of the army at (``area``, ``sector``) to (``to_area``,
    ``to_sector``), a desert, instead of the emergence."""

    kind: ClassVar[str] = "call-worm"
    house: str
    area: str
    sector: int
    to_area: str
    to_sector: int
    regular: int
    marked: int = 0


def local_storm_sectors(state: GameState, house: str) -> tuple[int, ...]:
    """FREMEN-M1: the sectors ``house`` may strike: those of its tokens outside the North Pole, and their
    neighbours."""
    own = {s for (h, a, s) in state.forces if h == house and a != movement.POLE}
    near = own | {advance_sector(s, 1) for s in own} | {advance_sector(s, SECTORS - 1) for s in own}
    return tuple(sorted(near))


def _callable_armies(state: GameState, house: str) -> list[tuple[str, int, Tokens]]:
    storms = state.storm_sectors()
    return [(a, s, t) for a, s, t in movement.armies(state, house)
            if rules().board.area(a).is_desert and s not in storms]


#: issue 14: the menu's local storms and worm calls built once each (dunenb.actions.menu_maker)
_menu_local_storm = menu_maker(LocalStorm)
_menu_call_worm = menu_maker(CallWorm)


#: issue 14 item 4: the last menu of :func:`_menu`, for the very same (immutable) state object: the slot's menu asks
#: it twice (its local storms, then its worm calls).
_LAST_MENU: list[tuple[GameState, str, tuple[Action, ...]] | None] = [None]


def _menu(state: GameState, house: str) -> list[Action]:
    last = _LAST_MENU[0]
    if last is not None and last[0] is state and last[1] == house:
        return list(last[2])
    menu = _build_menu(state, house)
    _LAST_MENU[0] = (state, house, tuple(menu))
    return menu


def _build_menu(state: GameState, house: str) -> list[Action]:
    slot = state.pending.detail  # type: ignore[union-attr]
    menu: list[Action] = []
    if holds_power(state, house, LOCAL_STORM) and not slot.get("local_storm"):
        menu += [_menu_local_storm(house, s) for s in local_storm_sectors(state, house)]
    if holds_power(state, house, CALL_WORM) and not slot.get("emerged") and movement.can_land_now(slot):
        for area, sector, tokens in _callable_armies(state, house):
            for to_area, to_sector in ride_destinations(state, area):
                menu.append(_menu_call_worm(house, area, sector, to_area, to_sector, tokens.regular, tokens.marked))
    return menu


def _check_local_storm(state: GameState, action: LocalStorm) -> IllegalActionError | None:
    if not holds_power(state, action.house, LOCAL_STORM):
        return IllegalActionError("local-storm/power", f"{action.house} does not hold FREMEN-M1 now")
    if state.pending.detail.get("local_storm"):  # type: ignore[union-attr]
        return IllegalActionError("local-storm/once-per-turn", "one local storm per turn (FREMEN-M1)")
    allowed = local_storm_sectors(state, action.house)
    if action.sector not in allowed:
        return IllegalActionError("local-storm/sector", f"sector {action.sector!r}: a sector with a token of "
                                  f"{action.house} outside the Pole or next to one; allowed: {list(allowed)}")
    return None


def _check_call_worm(state: GameState, action: CallWorm) -> IllegalActionError | None:
    slot = state.pending.detail  # type: ignore[union-attr]
    if not holds_power(state, action.house, CALL_WORM):
        return IllegalActionError("call-worm/power", f"{action.house} does not hold FREMEN-M2 now")
    if slot.get("emerged") or not movement.can_land_now(slot):
        return IllegalActionError("call-worm/once-per-turn", "the called worm replaces the emergence, once a turn, "
                                  "before the move (FREMEN-M2)")
    armies = {(a, s): t for a, s, t in _callable_armies(state, action.house)}
    if (action.area, action.sector) not in armies:
        return IllegalActionError("call-worm/army", f"no army of {action.house} in a desert outside the storm at "
                                  f"{action.area} sector {action.sector}")
    if (action.to_area, action.to_sector) not in ride_destinations(state, action.area):
        return IllegalActionError("call-worm/destination", f"{action.to_area} sector {action.to_sector} is not a "
                                  "storm-free sector of another desert")
    army = armies[(action.area, action.sector)]
    if action.regular < 0 or action.marked < 0 or action.regular + action.marked < 1 \
            or action.regular > army.regular or action.marked > army.marked:
        return IllegalActionError("call-worm/count", f"the army holds {army.regular} unmarked and {army.marked} "
                                  "marked token(s)")
    return None


def _apply_local_storm(state: GameState, action: LocalStorm) -> GameState:
    state = movement._update_slot(state, local_storm=True)
    state = with_events(state, event("local-storm-announced", f"Liet Kynes raises a local storm on sector "
                                     f"{action.sector} (FREMEN-M1)", house=action.house, sector=action.sector,
                                     powers=(LOCAL_STORM,)))
    uses = implemented_uses(LOCAL_STORM)
    if any(storm_losses(state, h, t)[1] for (h, a, sec), t in state.forces.items()
           if sec == action.sector and is_exposed_to_storm(state, a)):  # a group FREMEN-P3 would half spare
        uses += implemented_uses(HALF_LOSSES)  # KARAMA-7
    return open_window(state, uses, "kynes-local-storm", action=action)


def _resume_local_storm(state: GameState, data: Any) -> GameState:
    action: LocalStorm = data["action"]
    if holder(state, LOCAL_STORM) == action.house:
        state = with_events(state, event("local-storm", f"The local storm strikes sector {action.sector} "
                                         "(FREMEN-M1)", house=action.house, sector=action.sector,
                                         powers=(LOCAL_STORM,)))
        state = destroy_in_sector(state, action.sector, cause="local storm (FREMEN-M1)")
    return lift(state, "action", "event")


def _apply_call_worm(state: GameState, action: CallWorm) -> GameState:
    tokens = Tokens(action.regular, action.marked)
    state = movement._update_slot(state, landed=movement._slot(state)["landed"] + 1, emerged=True)
    key = (action.house, action.area, action.sector)
    left = state.forces[key] - tokens
    forces = state.forces.without(key) if left.is_empty() else state.forces.set(key, left)
    state = add_forces(evolve(state, forces=forces), action.house, action.to_area, action.to_sector,
                       tokens)
    board = rules().board
    state = with_events(state, event(
        "call-worm", f"Liet Kynes calls a worm: {tokens.total} token(s) ride from {board.area(action.area).name} to "
        f"{board.area(action.to_area).name} (sector {action.to_sector}) (FREMEN-M2)", house=action.house,
        area=action.area, to_area=action.to_area, count=tokens.total, powers=(CALL_WORM,)))
    return open_window(state, implemented_uses(CALL_WORM), "kynes-call-worm", action=action)


def _resume_call_worm(state: GameState, data: Any) -> GameState:
    action: CallWorm = data["action"]
    if holder(state, CALL_WORM) != action.house:  # KARAMA-9: the worm devours that group and nothing else
        tokens = Tokens(action.regular, action.marked)
        state = with_events(state, event(
            "tokens-destroyed", f"KARAMA-9: the called worm devours the {tokens.total} riding {action.house} "
            "token(s)", house=action.house, area=action.to_area, sector=action.to_sector, count=tokens.total,
            cause="called worm", powers=(CALL_WORM,)))
        state = kill_tokens(state, action.house, action.to_area, action.to_sector, tokens)
    return lift(state, "action")


movement.register_slot_action(LocalStorm, _check_local_storm, _apply_local_storm,
                              lambda state, house: [a for a in _menu(state, house) if isinstance(a, LocalStorm)])
movement.register_slot_action(CallWorm, _check_call_worm, _apply_call_worm,
                              lambda state, house: [a for a in _menu(state, house) if isinstance(a, CallWorm)])
register_resume("kynes-local-storm", _resume_local_storm)
register_resume("kynes-call-worm", _resume_call_worm)
