"""leaders.md K-25 SPECIAL in a game: the one-off leader rules whose parameters ``data/leader_specials.json`` gives.

* **S-7 Irulan leaves** (BG-L07-c, L829, a trait): when Paul or Shaddam dies, Irulan B07 leaves the game at once,
  wherever she is: alive (in any House's leaders, a captive too), or dead (in any House's tanks). Rule
  ``leaves_when_dead``; :func:`after_deaths` applies it after each battle's deaths (the only place where a
  leader dies in the engine). She never comes back (X-4: the allocation is not redone).

>>> [special.id for special in load_specials()]
['S-7']
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache

from dunenb.board import read_data_file
from dunenb.errors import RulesDataError
from dunenb.rules.common import edit_house, event, with_events
from dunenb.rules.traitors import leader_ref
from dunenb.state import GameState

SPECIALS_FORMAT = "dunenb.leader_specials/1"
RULES = ("leaves_when_dead",)


@dataclass(frozen=True)
class Special:
    """One K-25 rule: its S-n ``id``, the leader ``power`` that carries it, the ``holder`` (House, id) of that power,
    its ``rule`` and the (House, id) ``leaders`` it watches."""

    id: str
    power: str
    holder: tuple[str, str]
    rule: str
    leaders: tuple[tuple[str, str], ...] = ()


@lru_cache(maxsize=1)
def load_specials() -> tuple[Special, ...]:
    """The shipped K-25 parameters, checked against the roster (an unknown power, rule or leader is a load error)."""
    from dunenb.battle.roster import load_roster

    raw = read_data_file("leader_specials.json")
    if not isinstance(raw, dict) or raw.get("format") != SPECIALS_FORMAT:
        raise RulesDataError("specials/format", f"leader_specials.json must have format {SPECIALS_FORMAT!r}")
    roster = load_roster()
    holders = {power.id: (leader.house, leader.id) for leader in roster.leaders for power in leader.powers
               if leader.house is not None}
    keys = {(leader.house, leader.id) for leader in roster.leaders}
    found = []
    for entry in raw.get("specials", []):
        where = f"leader_specials.json {entry.get('id')!r}"
        if entry.get("power") not in holders:
            raise RulesDataError("specials/power", f"{where}: power {entry.get('power')!r} is no leader power ID")
        if entry.get("rule") not in RULES:
            raise RulesDataError("specials/rule", f"{where}: rule {entry.get('rule')!r}; allowed: {', '.join(RULES)}")
        leaders = tuple((str(house), str(lid)) for house, lid in entry.get("leaders", ()))
        unknown = [ref for ref in leaders if ref not in keys]
        if unknown:
            raise RulesDataError("specials/leader", f"{where}: {unknown} name no leader (House, id)")
        found.append(Special(str(entry["id"]), entry["power"], holders[entry["power"]], entry["rule"], leaders))
    return tuple(found)


def _dead(state: GameState, ref: tuple[str, str]) -> bool:
    from dunenb.powers.holders import dead_leaders

    house, lid = ref
    return house in state.houses and lid in dead_leaders(state, house)


def after_deaths(state: GameState) -> GameState:
    """S-7 (``leaves_when_dead``): each watched death makes the power's leader leave the game at once."""
    for special in load_specials():
        if special.rule != "leaves_when_dead" or not any(_dead(state, ref) for ref in special.leaders):
            continue
        state = _leave(state, special)
    return state


def _leave(state: GameState, special: Special) -> GameState:
    """Take the special's leader out of the game, wherever he is (nothing if he is not in it)."""
    person = special.holder
    found = False
    for house, hs in state.houses.items():
        leaders = tuple(key for key in hs.leaders if leader_ref(house, key) != person)
        tanks = tuple(key for key in hs.leader_tanks if leader_ref(house, key) != person)
        if leaders != hs.leaders or tanks != hs.leader_tanks:
            found = True
            state = edit_house(state, house, leaders=leaders, leader_tanks=tanks)
    if person in state.captured:
        found = True
        state = dataclasses.replace(state, captured=tuple(ref for ref in state.captured if ref != person))
    if not found:
        return state
    return with_events(state, event("leader-leaves", f"{person[1]} ({person[0]}) leaves the game ({special.id}, "
                                    f"{special.power})", house=person[0], leader=person[1], powers=(special.power,)))
