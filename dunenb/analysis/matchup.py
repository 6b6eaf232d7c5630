"""Which powers act in one battle, and why (issue 11 item 5, notebook 02's wheel explorer).

For each side: the leader's wheel value after the powers (the value the resolver uses, LC-6) beside his
strength, and each power that acted, with its plain-words rule and how often it acted over the battle's exact
outcome distribution (a power behind a d10 acts in some outcomes only). The power IDs are the ones the resolver
itself reports (``SideOutcome.powers``, ``dunenb battle``'s ``"powers"``) and the value powers of
:func:`dunenb.battle.powers.battle_values`, so nothing is decided here.

>>> from dunenb.battle.case import load_example_case
>>> first, second = matchup(load_example_case("traitor_idaho").battle)
>>> first.house, first.leader, first.strength, first.value
('atreides', 'Duncan Idaho', 6, 4)
>>> second.summary()  # DISPERSION-P2 lowers a male opposing leader by 2
'Murbella 12 (strength 8): DISPERSION-P2, DISPERSION-L01-b'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dunenb.battle.plans import Battle
from dunenb.battle.powers import battle_values
from dunenb.battle.resolve import Distribution
from dunenb.errors import DuneError
from dunenb.rules_reference import lookup


@dataclass(frozen=True)
class ActingPower:
    """One power that acted for a side: its ID, its rule in plain words, and the probability that it acted
    (1 when it acts whatever the dice)."""

    power: str
    words: str
    probability: Fraction


@dataclass(frozen=True)
class SidePowers:
    """One side of the matchup: its leader's strength and wheel value, and the powers that acted."""

    house: str
    leader: str | None
    strength: int | None
    value: int | None
    disarmed: bool
    powers: tuple[ActingPower, ...]

    def summary(self) -> str:
        """One line, e.g. ``Stilgar 11 (strength 7): FREMEN-L01-a``."""
        if self.leader is None:
            head = "no leader"
        elif self.value == self.strength:
            head = f"{self.leader} {self.value}"
        else:
            head = f"{self.leader} {self.value} (strength {self.strength})"
        return head + (": " + ", ".join(p.power for p in self.powers) if self.powers else ": no power acts")


def _words(power_id: str) -> str:
    try:
        return lookup(power_id).text
    except DuneError:
        return ""


def matchup(battle: Battle, distribution: Distribution = ()) -> tuple[SidePowers, SidePowers]:
    """The two sides' leader values and acting powers; ``distribution`` (the battle's outcomes, e.g.
    :func:`dunenb.battle.case.case_outcomes`) adds the powers the resolver reports and how often they acted."""
    houses = battle.houses
    leaders = tuple(side.plan.leader for side in battle.sides)
    values = battle_values(houses, leaders, battle.index(battle.defender), territory=battle.territory,
                           dead=[side.dead for side in battle.sides], blocked=[side.blocked for side in battle.sides],
                           shield_wall_standing=battle.shield_wall_standing)
    result = []
    for index, house in enumerate(houses):
        leader = leaders[index]
        acted: dict[str, Fraction] = dict.fromkeys(values[index].powers, Fraction(1))
        if distribution:
            seen: dict[str, Fraction] = {}
            for probability, outcome in distribution:
                for power in outcome.side(house).powers:
                    seen[power] = seen.get(power, Fraction(0)) + probability
            acted.update({power: max(acted.get(power, Fraction(0)), share) for power, share in seen.items()})
        powers = tuple(ActingPower(power, _words(power), share) for power, share in acted.items())
        value = values[index].leader_value
        result.append(SidePowers(house, leader.name if leader else None, leader.strength if leader else None,
                                 int(value) if leader else None, values[index].disarmed, powers))
    return result[0], result[1]
