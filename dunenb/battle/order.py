"""Which battles are fought, in which order, and who may lead them (BATTLE-1 to BATTLE-3, BATTLE-14 to BATTLE-18).

These are pure functions over plain data: ``storm_order`` lists the Houses from the one just after the storm,
counterclockwise (BATTLE-3); ``presence`` maps each territory to the Houses that have fighting tokens there
(a BG army at peace and the North Pole are left out by the caller or by :func:`contested_territories`).

>>> presence = {"arrakeen": ["atreides", "harkonnen", "fremen"], "carthag": ["harkonnen", "emperor"],
...             "pole-nord": ["guild", "fremen"]}
>>> contested = contested_territories(presence, pole="pole-nord")
>>> sorted(contested)
['arrakeen', 'carthag']
>>> turn = next_battle_turn(["fremen", "harkonnen", "atreides", "emperor"], contested)
>>> turn.chooser, turn.choices
('fremen', (('arrakeen', 'harkonnen'), ('arrakeen', 'atreides')))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from dunenb.errors import IllegalActionError


def contested_territories(
    presence: Mapping[str, Iterable[str]], *, pole: str | None = "pole-nord", at_peace: Mapping[str, str] | None = None
) -> dict[str, tuple[str, ...]]:
    """Territories where two or more Houses must fight (BATTLE-1): never at the North Pole, and a BG army
    declared at peace (``at_peace``: territory -> House) does not fight there."""
    result: dict[str, tuple[str, ...]] = {}
    for territory, houses in presence.items():
        if territory == pole:
            continue
        fighting = tuple(dict.fromkeys(h for h in houses if not at_peace or at_peace.get(territory) != h))
        if len(fighting) >= 2:
            result[territory] = fighting
    return result


def defender_of(storm_order: Sequence[str], first: str, second: str) -> str:
    """The defender is the House nearer after the storm (BATTLE-14, by position: GAP-34a); it wins ties.

    >>> defender_of(["guild", "atreides", "harkonnen"], "harkonnen", "atreides")
    'atreides'
    """
    for house in storm_order:
        if house in (first, second):
            return house
    raise IllegalActionError("battle/storm-order", f"neither {first} nor {second} is in the storm order")


@dataclass(frozen=True)
class BattleTurn:
    """The House whose turn it is to fight (BATTLE-3) and the (territory, opponent) pairs it may choose from.
    The chooser is always the defender of the battle it picks (BATTLE-14: "he is also the one who chose")."""

    chooser: str
    choices: tuple[tuple[str, str], ...]


def next_battle_turn(storm_order: Sequence[str], contested: Mapping[str, Sequence[str]]) -> BattleTurn | None:
    """The first House in storm order still involved in a battle, with its choices; None when all are fought.

    BATTLE-3: that House resolves all its battles, choosing territory and opponent each time, before play passes
    on. BATTLE-17: every battle is compulsory, so the phase ends only when no territory holds two Houses.
    """
    for house in storm_order:
        choices = tuple(
            (territory, other)
            for territory, houses in contested.items() if house in houses
            for other in _in_storm_order(storm_order, houses) if other != house
        )
        if choices:
            return BattleTurn(house, choices)
    return None


def after_battle(
    contested: Mapping[str, Sequence[str]], territory: str, *, removed: Iterable[str]
) -> dict[str, tuple[str, ...]]:
    """The contested territories once a battle's losers (and any House left with no token there) are gone."""
    gone = set(removed)
    result = {name: tuple(houses) for name, houses in contested.items()}
    remaining = tuple(h for h in result.get(territory, ()) if h not in gone)
    if len(remaining) >= 2:
        result[territory] = remaining
    else:
        result.pop(territory, None)
    return result


def battle_order(
    storm_order: Sequence[str], contested: Mapping[str, Sequence[str]]
) -> tuple[tuple[str, str, str], ...]:
    """A default full order (territory, defender, attacker) assuming every chooser takes its first choice and
    every defender wins, so that each territory's attackers are met one by one (BATTLE-2, BATTLE-3).

    The true order depends on results and choices: use :func:`next_battle_turn` and :func:`after_battle`
    step by step in a game. This helper is for teaching and tests.

    >>> battle_order(["harkonnen", "atreides", "fremen"], {"arrakeen": ["atreides", "fremen", "harkonnen"]})
    (('arrakeen', 'harkonnen', 'atreides'), ('arrakeen', 'harkonnen', 'fremen'))
    """
    order: list[tuple[str, str, str]] = []
    remaining = {name: tuple(houses) for name, houses in contested.items()}
    while (turn := next_battle_turn(storm_order, remaining)) is not None:
        territory, opponent = turn.choices[0]
        order.append((territory, turn.chooser, opponent))
        remaining = after_battle(remaining, territory, removed=[opponent])
    return tuple(order)


def can_lead(
    leader_id: str, territory: str, *, is_main: bool, alive: bool, committed: Mapping[str, str]
) -> bool:
    """Whether a leader may lead a battle in ``territory`` this turn (BATTLE-15, BATTLE-16).

    ``committed`` maps the leaders who already fought this turn to their territory. A leader cannot be in two
    territories, but may fight again in the same one while alive; the main leader may fight anywhere.

    >>> can_lead("gurney", "carthag", is_main=False, alive=True, committed={"gurney": "arrakeen"})
    False
    >>> can_lead("gurney", "arrakeen", is_main=False, alive=True, committed={"gurney": "arrakeen"})
    True
    >>> can_lead("paul", "carthag", is_main=True, alive=True, committed={"paul": "arrakeen"})
    True
    """
    if not alive:
        return False
    if is_main:
        return True
    return committed.get(leader_id, territory) == territory


def _in_storm_order(storm_order: Sequence[str], houses: Iterable[str]) -> tuple[str, ...]:
    wanted = set(houses)
    return tuple(house for house in storm_order if house in wanted)
