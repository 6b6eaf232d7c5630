"""Secondary-leader powers in battles: the condition evaluator and the value kinds K-1..K-5 (issue 11 item 2).

A battle's *scene* is what the leaders.md conditions read, from the battle's own facts only (so games,
``dunenb battle`` cases and the analyzer apply them alike): the territory and its MAP-6 kind (LC-3), who
defends (LC-2), the two Houses and the two leaders on the wheels (LC-4), and the dead leaders of both sides
(``X dead``; :class:`~dunenb.battle.plans.BattleSide` ``dead``).

Which entries act (LC-9, LC-10, LC-12): only the entries of the two leaders who fight. A leader played by a
House other than his own (captured, TRAITOR-12 swap) keeps his *traits* only (D-14), by the one LC-10 test
(:func:`dunenb.battle.leader_traits.is_trait`): among the kinds read here, DISARM ``on self``, a WHEEL_VALUE below
his base strength and an entry marked *(trait)* (H09-d); his RESTRICTION entries act through
:mod:`dunenb.battle.leader_traits` for whoever plays him. A power whose ID is in the holder side's ``blocked`` (a
Karama for this battle) does not act; traits cannot be blocked. WHEEL_MODIFIER
``on Vladimir`` (H05-d, H06-b, H08-b) is the minions' bonus that HARKONNEN-M3 applies through ``data/powers.json``
(``add_per_living``): it is not applied a second time from here (GAP-90). WHEEL_MODIFIER ``per voice_command``
(D01..D08-a, D-24) multiplies its delta by the Voice commands given against the side in this battle
(``BattleSide.voices_against``, counted from the battle's Voices in games and cases).

>>> from dunenb.battle.roster import load_roster
>>> roster = load_roster()
>>> stilgar, paul = roster.find("Stilgar", house="fremen"), roster.find("Paul")
>>> scene = Scene.of("bassin-du-bouclier", ("fremen", "atreides"), (stilgar, paul), defender=1)
>>> [power.id for power in acting(scene, 0, "WHEEL_VALUE")]
['FREMEN-L01-a']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from dunenb.battle.leader_traits import is_trait  # leaders.md LC-10, the one test (LC-9, D-14: what he keeps)
from dunenb.battle.roster import Leader, Power
from dunenb.board import SHIELD_WALL
from dunenb.errors import DuneError
from dunenb.powers.inheritance import held_powers
from dunenb.powers.leader_effects import AllOf, AnyOf, Condition, Word

NO_FACTS: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())


@dataclass(frozen=True)
class ClosedSet:
    """A D-13 closed set of leaders (LC-4 opponent words ``reverend-mother``, ``mentat``, ``polymorph``): every
    leader of ``houses``, every copy of ``characters``, and the leader blocks ``leaders`` (spec IDs)."""

    houses: frozenset[str]
    characters: frozenset[str]
    leaders: frozenset[str]

    def holds(self, leader: Leader) -> bool:
        return leader.house in self.houses or leader.id in self.characters or leader.spec_id in self.leaders


@lru_cache(maxsize=1)
def closed_sets() -> dict[str, ClosedSet]:
    """The D-13 closed sets of ``data/leader_sets.json``, by opponent word."""
    from dunenb.board import read_data_file

    return {word: ClosedSet(frozenset(entry.get("houses", ())), frozenset(entry.get("characters", ())),
                            frozenset(entry.get("leaders", ())))
            for word, entry in read_data_file("leader_sets.json")["sets"].items()}


@lru_cache(maxsize=256)
def terrain_kind(territory: str) -> str | None:
    """The MAP-6 kind of a battle territory (``None`` for a name the board does not know, e.g. a planner's
    abstract arena: then no terrain condition holds)."""
    from dunenb.board import load_board

    try:
        return load_board().area(territory).kind
    except (DuneError, KeyError, ValueError):
        return None


@dataclass(frozen=True)
class Scene:
    """The facts the conditions read (side order as in the battle)."""

    territory: str
    kind: str | None
    houses: tuple[str, str]
    leaders: tuple[Leader | None, Leader | None]
    defender: int
    dead: frozenset[str] = frozenset()
    blocked: tuple[frozenset[str], frozenset[str]] = NO_FACTS

    @classmethod
    def of(cls, territory: str, houses: Sequence[str], leaders: Sequence[Leader | None], *, defender: int,
           dead: Sequence[frozenset[str]] = NO_FACTS, blocked: Sequence[frozenset[str]] = NO_FACTS,
           shield_wall_standing: bool = True) -> Scene:
        """Build a scene; ``dead`` and ``blocked`` per side, as :class:`~dunenb.battle.plans.BattleSide`. LC-3:
        the Shield Wall (``bouclier``) counts as a desert once blasted (GAP-30)."""
        kind = terrain_kind(territory)
        if territory == SHIELD_WALL and not shield_wall_standing:
            kind = "desert"
        return cls(territory, kind, (houses[0], houses[1]), (leaders[0], leaders[1]),
                   defender, frozenset(dead[0]) | frozenset(dead[1]), (frozenset(blocked[0]), frozenset(blocked[1])))


def opponent_is(word: str, opp: Leader | None) -> bool:
    """LC-4 opponent words for the opposing leader ``opp`` (none: no opponent word holds, GAP-89)."""
    if opp is None:
        return False
    if word.startswith("leader:"):
        return opp.id == word[7:]
    if word.startswith("of:"):
        return opp.house == word[3:]  # his own House (LC-9, D-12)
    if word == "any":
        return True
    if word == "main":
        return opp.main
    if word in ("male", "female"):
        return opp.sex == ("M" if word == "male" else "F")
    if word in closed_sets():  # D-13: Reverend Mothers, Mentats, Polymorphs
        return closed_sets()[word].holds(opp)
    raise ValueError(f"unknown opponent word {word!r}")


def _word_holds(word: Word, scene: Scene, me: int) -> bool:
    if word.kind == "terrain":
        kind = scene.kind
        if word.arg == "open":
            return kind is not None and kind not in ("city", "sietch")
        if word.arg == "desert+mountain":
            return kind in ("desert", "mountain")
        return kind == word.arg
    if word.kind == "territory":
        return scene.territory == word.arg
    if word.kind == "role":
        return (me == scene.defender) == (word.arg == "defender")
    if word.kind == "vs":
        return scene.houses[1 - me] == word.arg
    if word.kind == "opp":
        return opponent_is(word.arg, scene.leaders[1 - me])
    if word.kind == "dead":
        return word.arg in scene.dead  # GAP-89: the dead leaders of the two Houses in this battle
    raise ValueError(f"unknown condition word kind {word.kind!r}")


def holds(condition: Condition | None, scene: Scene, me: int) -> bool:
    """Whether ``condition`` holds for the leader of side ``me`` (no condition: always)."""
    if condition is None:
        return True
    if isinstance(condition, Word):
        return _word_holds(condition, scene, me)
    if isinstance(condition, AllOf):
        return all(holds(part, scene, me) for part in condition.parts)
    if isinstance(condition, AnyOf):
        return any(holds(part, scene, me) for part in condition.parts)
    raise TypeError(condition)


# issue 14 item 4: a pure function of frozen facts; the d10 branches of one leader step repeat it. 512 entries hold
# those repeats (ten bot games: 13,059 hits at 512, 13,233 at 16,384) without keeping thousands of scenes that
# every full garbage collection walks (34,000 objects at 16,384)
@lru_cache(maxsize=512)
def acting(scene: Scene, me: int, kind: str) -> tuple[Power, ...]:
    """The entries of kind ``kind`` of side ``me``'s fighting leader that act in this scene (LC-9/10/11/12).

    Cached: a pure function of the scene, and the leader step asks it at every chance leaf (issue 14)."""
    leader = scene.leaders[me]
    if leader is None:
        return ()
    foreign = leader.house is not None and leader.house != scene.houses[me]
    found = []
    own = len(leader.powers)
    for index, power in enumerate(held_powers(leader, scene.dead)):  # K-24 INHERIT: a dead source's powers too
        if power.kind != kind or power.effect is None:
            continue
        trait = index < own and is_trait(power, leader)  # an inherited entry is always a power (K-24)
        if not trait and (foreign or power.id in scene.blocked[me]):
            continue  # D-14: a foreign House plays him without his powers; a Karama blocks a power (LC-11)
        if holds(power.effect.when, scene, me):
            found.append(power)
    return tuple(found)
