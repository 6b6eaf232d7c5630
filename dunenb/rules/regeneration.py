"""TLEILAX-P3, leader regeneration, at the start of each turn (the trigger ``turn.start`` of data/powers.json).

A killed secondary leader of the House holding TLEILAX-P3 (its own leaders, dead in its own tanks) comes back to
it at the start of the **next** turn if his leader block regenerates (``REGENERATES`` in data/leaders.json:
Scytale, Torg, Mirlat, Domel), else at the start of the **second** turn after his death. The engine notices a
death at the start of the turn that follows it (leaders die during a turn, in battle), so each dead leader is
recorded in ``GameState.regenerations`` as (leader, the turn he comes back). When he would come back, every
other House with a card may play KARAMA-35 (GAP-63): he then stays dead for good and only a ghola can bring him
back (he is recorded with turn 0). A leader brought back meanwhile by a ghola is simply dropped. The main leader
(Waff, TLEILAX-M2) is not concerned.

>>> from dunenb.engine import new_game
>>> return_delay("scytale"), return_delay("goose")
(1, 2)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from dunenb.powers import holder
from dunenb.powers.karama import lift
from dunenb.powers.registry import implemented_uses, power
from dunenb.rules.common import edit_house, event, with_events
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.state import GameState, evolve

POWER = "TLEILAX-P3"
FAST = 1  # REGENERATES: "régénère le tour de jeu suivant" (L889, L899, L909, L919)
SLOW = 2  # the others: the second turn after their death (houses.md TLEILAX-P3, DESIGN)


@lru_cache(maxsize=256)
def return_delay(leader_id: str) -> int:
    """Turns after his death that a leader of the holder comes back (1 with a REGENERATES block, else 2)."""
    from dunenb.battle.roster import load_roster

    leader = next((x for x in load_roster().leaders if x.id == leader_id and x.house == power(POWER).holder), None)
    if leader is None:
        return SLOW
    return FAST if any(p.kind == "REGENERATES" for p in leader.powers) else SLOW


def _is_main(leader_id: str) -> bool:
    from dunenb.powers.holders import main_leader

    return leader_id == main_leader(power(POWER).holder)


def begin_turn(state: GameState) -> GameState:
    """Record the holder's leaders who died last turn, bring back those due now (after KARAMA-35), then the
    storm phase (TURN-1 a)."""
    from dunenb.rules.battle_powers import main_leaders_return

    state = main_leaders_return(state)  # TLEILAX-M2: a main leader who spent a regeneration comes back
    house = holder(state, POWER)
    if house is None:
        return _storm(state)
    tanks = state.houses[house].leader_tanks
    known = {leader for leader, _turn in state.regenerations}
    kept = tuple(r for r in state.regenerations if r[0] in tanks)  # a ghola brought him back: dropped
    fresh = tuple((leader, state.turn - 1 + return_delay(leader)) for leader in tanks
                  if ":" not in leader and leader not in known and not _is_main(leader))
    state = evolve(state, regenerations=kept + fresh)
    return _next_return(state)


def _next_return(state: GameState) -> GameState:
    house = holder(state, POWER)
    due = [leader for leader, turn in state.regenerations if 0 < turn <= state.turn]
    if house is None or not due:
        return _storm(state)
    uses = implemented_uses(POWER)
    return open_window(evolve(state, pending=None), uses, "regeneration", leader=due[0], house=house)


def _resume(state: GameState, data: Any) -> GameState:
    leader, house = data["leader"], data["house"]
    rest = tuple(r for r in state.regenerations if r[0] != leader)
    if holder(state, POWER) == house:
        hs = state.houses[house]
        state = edit_house(state, house, leaders=hs.leaders + (leader,),
                           leader_tanks=tuple(x for x in hs.leader_tanks if x != leader))
        state = evolve(state, regenerations=rest)
        state = with_events(state, event("leader-regenerated", f"{leader} regenerates and comes back to {house} "
                                         f"({POWER})", house=house, leader=leader, powers=(POWER,)))
    else:  # KARAMA-35: he stays dead; only a ghola brings him back
        state = evolve(state, regenerations=rest + ((leader, 0),))
        state = with_events(state, event("leader-not-regenerated", f"KARAMA-35: {leader} stays dead ({POWER} "
                                         "blocked)", house=house, leader=leader, powers=(POWER,)))
    return _next_return(lift(state, "event", "action"))


def _storm(state: GameState) -> GameState:
    from dunenb.rules import storm

    return storm.begin_phase(state)


register_resume("regeneration", _resume)
