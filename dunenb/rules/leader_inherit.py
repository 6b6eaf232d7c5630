"""leaders.md K-24 INHERIT in a game, for a power that passes for good (D02-d: Logno's Weapon, L629).

``data/leader_inherit.json`` names the INHERIT entry, the power that passes (DISPERSION-L02-c, TROOPS_WORTH_ONE
"the Weapon") and the leaders who may receive it (Dama or D01..D08, not D04). While it has never passed, its own
leader holds it. When its holder dies in a battle, it passes at once, for good, to the strongest living heir
(base strength; alive and not captured in the House's own leaders): the House chooses among equals (an
``inherit-choice`` decision, before the B10 effects); with no heir alive it is lost for good (GAP-134). The holder
is ``GameState.powers_passed``; :func:`held_by` gives a leader's powers with it (added to the heir, taken from an
earlier holder), which :func:`dunenb.rules.battle_phase.own_house_leader` applies to each battle.

>>> [entry.power for entry in load_passes()]
['DISPERSION-L02-d']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from dunenb.actions import Action
from dunenb.battle.roster import Leader, Power
from dunenb.board import read_data_file
from dunenb.errors import IllegalActionError, RulesDataError
from dunenb.rules.common import Handler, event, pending, with_events
from dunenb.state import GameState

if TYPE_CHECKING:
    from dunenb.battle.resolve import BattleOutcome
    from dunenb.rules.battle_context import BattleContext

INHERIT_FORMAT = "dunenb.leader_inherit/1"
CHOICE = "inherit-choice"


@dataclass(frozen=True)
class Passing:
    """One power that passes for good: the INHERIT entry ``power``, the power ``passes`` (of leader ``source``),
    the ``house`` whose leaders hold it and the ``heirs`` (leader ids) who may receive it."""

    power: str
    passes: str
    source: str
    house: str
    heirs: tuple[str, ...]

    def entry(self) -> Power:
        """The roster entry that passes (the source's own)."""
        from dunenb.rules.traitors import leader_of

        return next(power for power in leader_of(self.house, self.source).powers if power.id == self.passes)


@lru_cache(maxsize=1)
def load_passes() -> tuple[Passing, ...]:
    """The shipped entries, checked against the roster (an unknown power or leader is a load error)."""
    from dunenb.battle.roster import load_roster

    raw = read_data_file("leader_inherit.json")
    if not isinstance(raw, dict) or raw.get("format") != INHERIT_FORMAT:
        raise RulesDataError("inherit/format", f"leader_inherit.json must have format {INHERIT_FORMAT!r}")
    roster = load_roster()
    owners = {power.id: leader for leader in roster.leaders for power in leader.powers if leader.house is not None}
    found = []
    for item in raw.get("passes", []):
        where = f"leader_inherit.json {item.get('power')!r}"
        if item.get("power") not in owners or item.get("passes") not in owners:
            raise RulesDataError("inherit/power", f"{where}: 'power' and 'passes' must be leader power IDs")
        source = owners[item["passes"]]
        house = str(item.get("house"))
        ids = {leader.id for leader in roster.of_house(house)}
        heirs = tuple(str(lid) for lid in item.get("heirs", ()))
        if source.house != house or not heirs or set(heirs) - ids:
            raise RulesDataError("inherit/heirs", f"{where}: heirs {sorted(set(heirs) - ids)} are no leaders of "
                                                  f"{house}; allowed: {', '.join(sorted(ids))}")
        found.append(Passing(item["power"], item["passes"], source.id, house, heirs))
    return tuple(found)


def holder(state: GameState, passing: Passing) -> str | None:
    """The leader id who holds the power now ("" once lost for good; the source while it never passed)."""
    return holder_in(state.powers_passed, passing)


def holder_in(passed: Sequence[tuple[str, str, str]], passing: Passing) -> str:
    """:func:`holder` from a record of passed powers, (power, House, holder id) as ``GameState.powers_passed``
    (a battle case's ``passed``, GAP-146)."""
    return next((heir for power, _house, heir in passed if power == passing.passes), passing.source)


def held_by(state: GameState, leader: Leader) -> Leader:
    """``leader`` with the passed powers as they stand: the power added to its holder, taken from its source
    once it has passed on (K-24 "for good")."""
    return with_passed(state.powers_passed, leader)


def with_passed(passed: Sequence[tuple[str, str, str]], leader: Leader) -> Leader:
    """:func:`held_by` from a record of passed powers (the game's ``GameState.powers_passed``, a battle case's
    ``passed`` field, the planner's view: one rule for all, GAP-146)."""
    if not passed or leader.house is None:
        return leader
    powers = leader.powers
    for passing in load_passes():
        if leader.house != passing.house:
            continue
        held = holder_in(passed, passing) == leader.id
        has = any(power.id == passing.passes for power in powers)
        if has and not held:
            powers = tuple(power for power in powers if power.id != passing.passes)
        elif held and not has:
            powers = powers + (passing.entry(),)
    return leader if powers == leader.powers else dataclasses.replace(leader, powers=powers)


def _candidates(state: GameState, passing: Passing, dead: str) -> tuple[str, ...]:
    """The strongest living heirs (ties all listed), the dead holder excepted."""
    from dunenb.rules.traitors import leader_of

    if passing.house not in state.houses or passing.house in state.eliminated:
        return ()
    own = state.houses[passing.house].leaders
    alive = [lid for lid in passing.heirs if lid != dead and lid in own and (passing.house, lid) not in state.captured]
    if not alive:
        return ()
    best = max(leader_of(passing.house, lid).strength for lid in alive)
    return tuple(lid for lid in alive if leader_of(passing.house, lid).strength == best)


def _record(state: GameState, passing: Passing, heir: str, dead: str) -> GameState:
    kept = tuple(entry for entry in state.powers_passed if entry[0] != passing.passes)
    state = dataclasses.replace(state, powers_passed=kept + ((passing.passes, passing.house, heir),))
    text = (f"{passing.passes} passes from {dead} to {heir} for good ({passing.power})" if heir else
            f"{passing.passes} is lost for good: no heir of {dead} is alive ({passing.power}, GAP-134)")
    return with_events(state, event("power-passed", text, house=passing.house, leader=heir, source=dead,
                                    power=passing.passes, powers=(passing.power,)))


@dataclass(frozen=True)
class ChooseHeir(Action):
    """K-24 (D02-d): ``house`` names which of its equally strong heirs receives ``power``."""

    kind: ClassVar[str] = "inherit-choice"
    house: str
    leader: str
    power: str


def after_battle(state: GameState, ctx: BattleContext, outcome: BattleOutcome,
                 killed: tuple[tuple[str, str], ...], done: tuple[str, ...] = ()) -> GameState:
    """After a battle's deaths (``killed``: owner House, id): each passing power whose holder died passes (a
    decision among equals); then the B10 effects (:func:`dunenb.rules.leader_after_battle.begin`)."""
    from dunenb.rules.leader_after_battle import begin

    for passing in load_passes():
        dead = holder(state, passing)
        if passing.passes in done or not dead or (passing.house, dead) not in killed:
            continue
        heirs = _candidates(state, passing, dead)
        if len(heirs) > 1:
            return dataclasses.replace(state, pending=pending(CHOICE, passing.house, battle=ctx, outcome=outcome,
                                                              killed=killed, done=done, power=passing.passes,
                                                              heirs=heirs, source=dead))
        state = _record(state, passing, heirs[0] if heirs else "", dead)
    return begin(state, ctx, outcome)


def _decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    detail = state.pending.detail
    return [ChooseHeir(state.pending.actor, lid, detail["power"]) for lid in detail["heirs"]]


def _check(state: GameState, action: Action) -> IllegalActionError | None:
    if action not in _decisions(state):
        assert state.pending is not None
        return IllegalActionError("battle/inherit-choice", f"{action.notation()!r}: the power passes to one of the "
                                  f"strongest living heirs (leaders.md K-24); allowed: "
                                  f"{', '.join(state.pending.detail['heirs'])}")
    return None


def _apply(state: GameState, action: Action) -> GameState:
    assert state.pending is not None and isinstance(action, ChooseHeir)
    detail = state.pending.detail
    passing = next(p for p in load_passes() if p.passes == action.power)
    state = _record(dataclasses.replace(state, pending=None), passing, action.leader, detail["source"])
    return after_battle(state, detail["battle"], detail["outcome"], detail["killed"],
                        detail["done"] + (action.power,))


HANDLERS = {CHOICE: Handler(apply=_apply, decisions=_decisions, check=_check, accepts=(ChooseHeir,))}
