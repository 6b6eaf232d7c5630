"""One copy per character (leaders.md section 3, X-1 to X-6): which House keeps a character found in several Houses.

21 characters have a block in more than one House (``data/characters.json``). The allocation is a pure function
of the line-up, so nothing is stored in the game state (X-4: it is never redone):

* **X-1** for each character, the first House **in play** on its precedence list keeps its copy; every other
  copy is out of the game (never drawn as a traitor, revived or played);
* **X-2** the first copy of a list is the home copy: it always plays when its House is in play;
* **X-3** a ghola copy plays only if no House in play holds a real copy; an ``enters_later`` copy (the Atreides
  Idaho-Ghola A11, S-6) never starts in play;
* **X-6** since at most one copy is in play, a name names that copy (:func:`copy_in_play`).

>>> allocation = allocate(["atreides", "bene-gesserit", "fremen"])
>>> sorted(lid for house, lid in allocation.out_of_game if house == "fremen")
['alia', 'ghanima', 'jessica', 'leto-ii', 'siona']
>>> len(leaders_in_game("fremen", ["atreides", "bene-gesserit", "fremen"]))
8
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dunenb.battle.roster import HOUSES, Leader, Roster, fold, load_roster
from dunenb.board import read_data_file
from dunenb.errors import InputError, RulesDataError

CHARACTERS_FORMAT = "dunenb.characters/1"
LeaderRef = tuple[str, str]  # (house, roster id)


@dataclass(frozen=True)
class Character:
    """One character with copies in several Houses: ``copies`` in precedence order (home copy first), an
    optional Tleilax ``ghola`` (X-3) and copies that only ``enters_later`` (S-6)."""

    name: str
    copies: tuple[LeaderRef, ...]
    ghola: LeaderRef | None = None
    enters_later: tuple[LeaderRef, ...] = ()

    @property
    def all_copies(self) -> tuple[LeaderRef, ...]:
        return self.copies + ((self.ghola,) if self.ghola else ()) + self.enters_later


@dataclass(frozen=True)
class OutOfGame:
    """Why a copy is out of the game: the rule (X-1, X-3) and the copy in play instead, if any."""

    house: str
    id: str
    rule: str
    instead: LeaderRef | None

    def to_json(self) -> dict[str, Any]:
        return {"house": self.house, "id": self.id, "rule": self.rule,
                "instead": None if self.instead is None else {"house": self.instead[0], "id": self.instead[1]}}


@dataclass(frozen=True)
class Allocation:
    """The allocation for one line-up: the copies out of the game, with their reasons."""

    houses: tuple[str, ...]
    removed: tuple[OutOfGame, ...]

    @property
    def out_of_game(self) -> frozenset[LeaderRef]:
        return frozenset((item.house, item.id) for item in self.removed)

    def in_game(self, leader: Leader) -> bool:
        """True for a leader of a House in play whose copy is not out of the game (inline leaders: True)."""
        if leader.house is None:
            return True
        return leader.house in self.houses and (leader.house, leader.id) not in self.out_of_game

    def reason(self, house: str, leader_id: str) -> OutOfGame | None:
        return next((item for item in self.removed if (item.house, item.id) == (house, leader_id)), None)


def parse_characters(raw: Any, roster: Roster) -> tuple[Character, ...]:
    """Build and validate the characters from their JSON form (copies named by spec_id)."""
    if not isinstance(raw, dict) or raw.get("format") != CHARACTERS_FORMAT:
        raise RulesDataError("characters/format", f"character data must be an object with format "
                                                  f"{CHARACTERS_FORMAT!r}")
    by_spec = {leader.spec_id: (leader.house, leader.id) for leader in roster.leaders if leader.spec_id}
    seen: set[LeaderRef] = set()
    characters = []
    for index, entry in enumerate(raw.get("characters", [])):
        def ref(spec: Any, *, at: int = index) -> LeaderRef:
            if spec not in by_spec:
                raise RulesDataError("characters/copy", f"characters[{at}]: {spec!r} is no leader's spec_id")
            return by_spec[spec]  # type: ignore[return-value]

        try:
            character = Character(
                name=str(entry["name"]), copies=tuple(ref(spec) for spec in entry["copies"]),
                ghola=ref(entry["ghola"]) if entry.get("ghola") else None,
                enters_later=tuple(ref(spec) for spec in entry.get("enters_later", ())),
            )
        except (KeyError, TypeError) as error:
            raise RulesDataError("characters/entry", f"characters[{index}]: missing or bad field ({error})") from None
        if len(character.all_copies) < 2:
            raise RulesDataError("characters/copies", f"characters[{index}]: a character needs two copies or more")
        if seen & set(character.all_copies):
            raise RulesDataError("characters/duplicate", f"characters[{index}]: a copy is listed twice")
        seen |= set(character.all_copies)
        characters.append(character)
    return tuple(characters)


@lru_cache(maxsize=1)
def load_characters() -> tuple[Character, ...]:
    """The shipped characters (``data/characters.json``), validated against the roster (cached)."""
    return parse_characters(read_data_file("characters.json"), load_roster())


def check_line_up(houses: Iterable[str]) -> tuple[str, ...]:
    """The line-up as a tuple; unknown or repeated Houses raise :class:`InputError` naming the allowed ones."""
    line_up = tuple(houses)
    unknown = [house for house in line_up if house not in HOUSES]
    if unknown:
        raise InputError("houses/unknown", f"houses: unknown {unknown}; allowed: {', '.join(HOUSES)}")
    if len(set(line_up)) != len(line_up):
        raise InputError("houses/repeated", "houses: each House may play once")
    return line_up


def allocate(houses: Iterable[str]) -> Allocation:
    """X-1 to X-3: the copies out of the game for this line-up (order of ``houses`` does not matter)."""
    return _allocate(frozenset(check_line_up(houses)), tuple(houses))


@lru_cache(maxsize=512)
def _allocate(in_play: frozenset[str], houses: tuple[str, ...]) -> Allocation:
    removed: list[OutOfGame] = []
    for character in load_characters():
        present = [copy for copy in character.copies if copy[0] in in_play]
        keeper = present[0] if present else None
        for copy in present[1:]:
            removed.append(OutOfGame(copy[0], copy[1], "X-1", keeper))  # precedence, X-2: home copy first
        if character.ghola and character.ghola[0] in in_play and keeper is not None:
            removed.append(OutOfGame(*character.ghola, "X-3", keeper))  # a real copy is in play
        for copy in character.enters_later:
            if copy[0] in in_play:
                removed.append(OutOfGame(*copy, "X-3", keeper))  # A11 never starts in play (S-6)
    return Allocation(houses=houses, removed=tuple(removed))


def leaders_in_game(house: str, houses: Iterable[str]) -> tuple[Leader, ...]:
    """The leaders ``house`` fields at setup in this line-up (main leader first), after X-1 to X-3."""
    allocation = allocate(houses)
    return tuple(leader for leader in load_roster().of_house(house) if allocation.in_game(leader))


def copy_in_play(name: str, houses: Iterable[str]) -> Leader:
    """X-6: the copy in play of the character ``name`` (id or display name) for this line-up.

    >>> copy_in_play("Gurney", ["guild", "harkonnen"]).key, copy_in_play("gurney", ["guild", "atreides"]).key
    ('guild:gurney', 'atreides:gurney')
    """
    allocation = allocate(houses)
    wanted = fold(name)
    matches = [leader for leader in load_roster().leaders if wanted in leader.names() and allocation.in_game(leader)]
    if len(matches) != 1:
        raise InputError("leader/not-in-game", f"{name!r} names no leader in play for the Houses "
                                               f"{', '.join(allocation.houses)}")
    return matches[0]


def line_up_json(houses: Iterable[str]) -> dict[str, Any]:
    """``dunenb rules leaders --houses a,b --json``: the roster form of :func:`dunenb.battle.roster.roster_as_json`
    restricted to the leaders in play for that line-up, plus ``houses`` and ``out_of_game`` (each copy left out,
    its rule and the copy in play instead).

    >>> data = line_up_json(["atreides", "guild"])
    >>> [(item["house"], item["id"], item["rule"]) for item in data["out_of_game"]]
    [('guild', 'gurney', 'X-1'), ('atreides', 'idaho-ghola', 'X-3')]
    >>> len(data["leaders"])
    24
    """
    from dunenb.battle.roster import roster_as_json

    allocation = allocate(houses)
    data = roster_as_json()
    data["leaders"] = [entry for entry, leader in zip(data["leaders"], load_roster().leaders, strict=True)
                       if leader.house in allocation.houses and allocation.in_game(leader)]
    data["houses"] = list(allocation.houses)
    data["out_of_game"] = [item.to_json() for item in allocation.removed]
    return data
