"""Who may use a power now: :func:`is_in_play`, :func:`holder`, :func:`holds_power`.

* A House is **in play** when it sits at the table (``config.houses``) and is not eliminated (VICTORY-2, GAP-47).
* A power's **holder** is its owner (``data/powers.json``) while the owner is in play; during a lend in force
  (ALLIANCE-12, houses.md G-10) it is the borrower, if the borrower is in play. Once the owner is eliminated the
  power is nobody's (``None``): an eliminated Fremen House no longer moves the storm (STORM-3, TURN-1 a).
* A **main-leader power** (X-M*) is nobody's once that House's main leader is dead (houses.md G-7: a successor
  inherits no main-leader power; the House powers go on).
* A **Karama in force** against the power (``GameState.suppressions``, :mod:`dunenb.powers.karama`) makes it
  nobody's for as long as the use lasts; it applies to a borrower too (G-10).

>>> from dunenb.engine import new_game
>>> state = new_game(["fremen", "emperor"], seed=1)
>>> is_in_play(state, "fremen"), holder(state, "FREMEN-P1"), holder(state, "GUILD-P1")
(True, 'fremen', None)
>>> import dataclasses
>>> fallen = dataclasses.replace(state, eliminated=("fremen",))
>>> is_in_play(fallen, "fremen"), holder(fallen, "FREMEN-P1"), holds_power(fallen, "fremen", "FREMEN-P1")
(False, None, False)
"""

from __future__ import annotations

from functools import lru_cache

from dunenb.powers.karama import is_suppressed
from dunenb.powers.registry import load_powers, power
from dunenb.state import GameState, LentPower
from dunenb.state_memo import per_state


def is_in_play(state: GameState, house: str) -> bool:
    """Whether ``house`` plays this game and is not eliminated (VICTORY-2, GAP-47)."""
    return house in state.config.houses and house not in state.eliminated


def active_lend(state: GameState, power_id: str) -> LentPower | None:
    """The lend of ``power_id`` in force this turn (ALLIANCE-12), if any."""
    for lend in state.lent_powers:
        if lend.power == power_id and lend.first_turn <= state.turn <= lend.last_turn:
            return lend
    return None


@lru_cache(maxsize=16)
def main_leader(house: str) -> str:
    """The id of ``house``'s main leader (data/leaders.json)."""
    from dunenb.battle.roster import load_roster

    return load_roster().main_leader(house).id


def main_leader_alive(state: GameState, house: str) -> bool:
    """houses.md G-7: whether ``house``'s main leader is not in its tanks."""
    return main_leader(house) not in state.houses[house].leader_tanks


def dead_leaders(state: GameState, house: str) -> frozenset[str]:
    """The ids of ``house``'s dead leaders: in its own tanks, or in those of a House he served under an
    ``"owner:id"`` key (GAP-19)."""
    own = frozenset(state.houses[house].leader_tanks)
    prefix = f"{house}:"
    served: list[str] = []  # issue 14 item 4: a loop (no generator); a leader served under a key is rare
    for other, hs in state.houses.items():
        if other != house:
            for key in hs.leader_tanks:
                if key.startswith(prefix):
                    served.append(key[len(prefix):])
    return own | frozenset(served) if served else own


def acting_main_leader(state: GameState, house: str) -> str | None:
    """houses.md G-7: the id of the leader who is ``house``'s main leader now, for elimination (VICTORY-2) and
    BATTLE-16: its main leader while he lives (captured or not: HARKONNEN-P4), else the living successor of the
    dead one (``succeeds`` in data/leaders.json: Farad'N for Shaddam, L449; Murbella for Dama, L617), and so on;
    ``None`` when that line is dead (the House falls, unless its main leader regenerates: TLEILAX-M2). A main
    leader brought back from the tanks takes his place again (GAP-88; leaders.md K-24: "if the source comes
    back, they go back to him"). The successor keeps his own powers and inherits no main-leader power
    (:func:`holder` keeps the X-M* powers to the main leader himself).

    >>> from dunenb.engine import new_game
    >>> from dunenb.rules.common import edit_house
    >>> state = new_game(["emperor", "atreides"], seed=1)
    >>> acting_main_leader(state, "emperor")
    'shaddam-iv'
    >>> hs = state.houses["emperor"]
    >>> fallen = edit_house(state, "emperor", leaders=tuple(x for x in hs.leaders if x != "shaddam-iv"),
    ...                     leader_tanks=("shaddam-iv",))
    >>> acting_main_leader(fallen, "emperor"), acting_main_leader(fallen, "atreides")
    ('farad-n', 'paul')
    """
    return _acting_main(house, dead_leaders(state, house))


@lru_cache(maxsize=1024)
def _acting_main(house: str, dead: frozenset[str]) -> str | None:
    """The roster's G-7 line for ``house`` given its dead leaders (issue 14 item 4: a function of these two alone,
    asked by every leader menu of a battle; the shipped roster is loaded once)."""
    from dunenb.battle.roster import load_roster

    return load_roster().acting_main(house, dead)


def is_acting_main(state: GameState, house: str, leader_id: str) -> bool:
    """Whether ``house``'s leader ``leader_id`` is its main leader now (:func:`acting_main_leader`, G-7)."""
    return acting_main_leader(state, house) == leader_id


@per_state  # issue 14 item 4: the rules ask the same powers of one state many times
def holder(state: GameState, power_id: str) -> str | None:
    """The House that uses ``power_id`` now: the borrower during a lend in force, else the owner, or ``None``
    when the owner is not in play (absent from the table or eliminated), when a main-leader power's leader is
    dead (G-7) or when a Karama use blocks the power now.

    >>> from dunenb.engine import new_game
    >>> holder(new_game(["emperor", "atreides"], seed=1), "EMPEROR-P1")
    'emperor'
    """
    return _holder(state, power_id)


def _holder(state: GameState, power_id: str) -> str | None:
    """:func:`holder`, computed."""
    house, main_power = _sheet(power_id)
    if house not in state.config.houses or house in state.eliminated:  # is_in_play, inlined (called very often)
        return None
    if state.suppressions and is_suppressed(state, power_id):
        return None
    if main_power and not main_leader_alive(state, house):
        return None
    lend = active_lend(state, power_id) if state.lent_powers else None
    return lend.borrower if lend is not None and is_in_play(state, lend.borrower) else house


def _sheet(power_id: str) -> tuple[str, bool]:
    """The owner of ``power_id`` by its sheet and whether it is a main-leader power (G-7), read from the powers
    table. issue 14 item 4: kept per power for the table loaded now (looked up again if another is loaded); an
    undeclared ID raises as :func:`~dunenb.powers.registry.power` does, and is not kept."""
    global _sheets
    table = load_powers()
    if _sheets[0] is not table:
        _sheets = (table, {})
    found = _sheets[1].get(power_id)
    if found is None:
        spec = power(power_id)
        found = _sheets[1][power_id] = (spec.holder, spec.is_main_leader_power)
    return found


_sheets: tuple[object, dict[str, tuple[str, bool]]] = (None, {})


def holds_power(state: GameState, house: str, power_id: str) -> bool:
    """Whether ``house`` uses ``power_id`` now (see :func:`holder`).

    >>> from dunenb.engine import new_game
    >>> state = new_game(["fremen", "guild"], seed=1)
    >>> holds_power(state, "fremen", "FREMEN-P4"), holds_power(state, "guild", "FREMEN-P4")
    (True, False)
    """
    return holder(state, power_id) == house
