"""The leader roster as data: the 8 main leaders and the 96 secondary leaders (``data/leaders.json``).

Each leader has an ``id`` (the ASCII slug of his name, leaders.md D-1), a ``house``, a base ``strength``, a ``sex``
and a ``main`` flag. A character with copies in several Houses (leaders.md section 3) has one entry per copy,
so ``(house, id)`` is the unique key. Each secondary leader's ``powers`` carry their parsed ``effect`` in the
vocabulary of leaders.md section 1 (:mod:`dunenb.powers.leader_effects`); battles apply the value kinds K-1..K-5
(:mod:`dunenb.battle.leader_powers`), the other kinds are data until later sessions implement them.

>>> roster = load_roster()
>>> len(roster.leaders), sum(leader.main for leader in roster.leaders)
(104, 8)
>>> duncan = roster.find("Duncan Idaho", house="atreides")
>>> duncan.id, duncan.strength, duncan.sex, duncan.main
('duncan-idaho', 6, 'M', False)
>>> roster.find("Léto II", house="atreides").id
'leto-ii'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dunenb.board import read_data_file
from dunenb.errors import InputError, RulesDataError
from dunenb.hashing import hash_once
from dunenb.powers.leader_effects import LeaderEffect, is_applied, parse_effect

#: The format of ``data/leaders.json``: ``/2`` adds each power's structured ``effect`` (issue 11).
LEADERS_FORMAT = "dunenb.leaders/2"

#: The eight House ids, in the order the roster lists them.
HOUSES: tuple[str, ...] = (
    "atreides", "harkonnen", "fremen", "emperor", "guild", "dispersion", "bene-gesserit", "bene-tleilax",
)


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Case-, accent- and punctuation-insensitive form of a name; equal to the slug of a display name.

    Cached: traitor checks fold leader names at every chance leaf of a battle (issue 14).

    >>> fold("Léto II"), fold("Farad'N"), fold("duncan-idaho")
    ('leto-ii', 'farad-n', 'duncan-idaho')
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return "-".join(plain.replace("'", " ").replace("-", " ").replace("_", " ").split())


@dataclass(frozen=True)
class Power:
    """One leader power of leaders.md: its ID, kind, spec text and, for a secondary leader's power, its parsed
    ``effect`` in the K vocabulary (:mod:`dunenb.powers.leader_effects`; the value kinds K-1..K-5 act in battles
    through :mod:`dunenb.battle.powers`)."""

    id: str
    kind: str
    text: str
    effect: LeaderEffect | None = None


#: The on-call effect kinds the engine applies (leaders.md K-21): the Bank pays the leader's own House
#: (EMPEROR-L11-a), or that House draws random cards from the caller's hand (BG-L10-b).
ON_CALL_KINDS: tuple[str, ...] = ("bank_pays_owner", "draw_from_caller")


@dataclass(frozen=True)
class OnCall:
    """An effect of calling an ``always_traitor_of`` leader by that House (leaders.md K-21), declared as data
    (``traitor_traits.on_call`` in ``data/leaders.json``) and applied by :func:`dunenb.battle.resolve.settle`."""

    power: str
    kind: str
    spice: int = 0
    cards: int = 0


@hash_once  # issue 14 item 4: the battle caches key on leaders (nested powers): hashed once each
@dataclass(frozen=True)
class Leader:
    """A leader who can lead a battle (BATTLE-5). ``strength`` is the base combat value: it sets the wheel
    value while leader powers are not implemented, the bounty (BATTLE-13 f3) and the shield pass (GAP-28a).

    An inline leader of a battle case has ``house=None`` and no powers.
    """

    id: str
    name: str
    strength: int
    house: str | None = None
    sex: str | None = None
    main: bool = False
    spec_id: str | None = None
    guess: str | None = None
    never_traitor: bool = False
    never_traitor_of: tuple[str, ...] = ()
    always_traitor_of: tuple[str, ...] = ()
    on_traitor_call: tuple[OnCall, ...] = ()
    aliases: tuple[str, ...] = ()
    powers: tuple[Power, ...] = ()
    succeeds: str | None = None  # houses.md G-7: the main leader whose place he takes at his death (L449, L617)
    succession_power: str | None = None  # the leader power that says so (EMPEROR-L12-c, DISPERSION-L01-c)
    #: leaders.md LC-9: the House he came from when a permanent transfer (a deal, ALLIANCE-11; L1925) made
    #: ``house`` his own House; slips, keys and burial still name that House (GAP-19). ``None``: never moved.
    transferred_from: str | None = None

    @property
    def key(self) -> str:
        """Unique key ``house:id`` (``inline:id`` for an inline leader)."""
        return f"{self.house or 'inline'}:{self.id}"

    def names(self) -> tuple[str, ...]:
        """Every folded form by which this leader may be named."""
        return _names(self.id, self.name, self.aliases)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id, "name": self.name, "house": self.house, "strength": self.strength, "sex": self.sex,
            "main": self.main,
        }
        if self.spec_id:
            data["spec_id"] = self.spec_id
        if self.guess:
            data["guess"] = self.guess
        if self.aliases:
            data["aliases"] = list(self.aliases)
        data["powers"] = [{"id": p.id, "kind": p.kind, "text": p.text} for p in self.powers]
        data["powers_implemented"] = not self.main and all(is_applied(p.effect) for p in self.powers)
        return data


@lru_cache(maxsize=4096)
def _names(leader_id: str, name: str, aliases: tuple[str, ...]) -> tuple[str, ...]:
    """:meth:`Leader.names`, cached: traitor checks ask it at every chance leaf of a battle (issue 14)."""
    return tuple(dict.fromkeys([leader_id, fold(name), *(fold(alias) for alias in aliases)]))


def inline_leader(name: str, strength: int) -> Leader:
    """A leader given only by name and strength (a battle case's inline leader): no House, no powers.

    >>> inline_leader("Any Name", 5).id
    'any-name'
    """
    return Leader(id=fold(name), name=name, strength=strength)


@dataclass(frozen=True)
class Roster:
    """Every leader of the eight Houses."""

    leaders: tuple[Leader, ...]
    source: str = ""

    def of_house(self, house: str) -> tuple[Leader, ...]:
        """The leaders of one House, main leader first."""
        return tuple(leader for leader in self.leaders if leader.house == house)

    def main_leader(self, house: str) -> Leader:
        return next(leader for leader in self.leaders if leader.house == house and leader.main)

    def successor(self, house: str, leader_id: str) -> Leader | None:
        """houses.md G-7: the leader of ``house`` who takes ``leader_id``'s place at his death (``succeeds`` in
        data/leaders.json), if any.

        >>> load_roster().successor("emperor", "shaddam-iv").id, load_roster().successor("atreides", "paul")
        ('farad-n', None)
        """
        return next((leader for leader in self.leaders if leader.house == house and leader.succeeds == leader_id),
                    None)

    def acting_main(self, house: str, dead: Collection[str]) -> str | None:
        """houses.md G-7: the id of ``house``'s main leader now, given the ids of its ``dead`` leaders: the main
        leader, else his successor (and so on) if alive; ``None`` once that line is dead.

        >>> load_roster().acting_main("emperor", {"shaddam-iv"}), load_roster().acting_main("dispersion", {"dama",
        ... "murbella"})
        ('farad-n', None)
        """
        current: str | None = self.main_leader(house).id
        seen: set[str] = set()
        while current is not None and current in dead and current not in seen:
            seen.add(current)
            heir = self.successor(house, current)
            current = heir.id if heir is not None else None
        return None if current in seen else current

    def find(self, name: str, *, house: str | None = None) -> Leader:
        """Find a leader by id or display name (accent-insensitive). With ``house``, that House's copy is
        preferred; without it, a name held by several Houses' copies is an error listing them.

        >>> load_roster().find("gurney")
        Traceback (most recent call last):
        dunenb.errors.InputError: [leader/ambiguous] 'gurney' names several leaders: atreides:gurney, \
guild:gurney; give the House
        """
        wanted = fold(name)
        matches = [leader for leader in self.leaders if wanted in leader.names()]
        if house is not None:
            own = [leader for leader in matches if leader.house == house]
            if own:
                return own[0]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            scope = f" of {house}" if house else ""
            known = ", ".join(leader.id for leader in (self.of_house(house) if house else self.leaders))
            raise InputError("leader/unknown", f"unknown leader {name!r}{scope}; known: {known}")
        raise InputError(
            "leader/ambiguous",
            f"{name!r} names several leaders: {', '.join(leader.key for leader in matches)}; give the House",
        )


def _on_call(raw: Any) -> OnCall:
    """One ``traitor_traits.on_call`` entry (raises :class:`RulesDataError` for a kind the engine lacks)."""
    kind = str(raw["kind"])
    if kind not in ON_CALL_KINDS:
        raise RulesDataError("leaders/on-call", f"on_call kind {kind!r} is not one of {', '.join(ON_CALL_KINDS)} "
                                                "(mark it \"implemented\": false)")
    return OnCall(power=str(raw["power"]), kind=kind, spice=int(raw.get("spice", 0)), cards=int(raw.get("cards", 0)))


def _power(raw: Any, leader: Any) -> Power:
    """One ``powers`` entry; a secondary leader's entry must carry its ``effect`` (leaders.md K-1..K-25), parsed
    here so that a bad one is a load error naming the leader and the entry."""
    power_id, kind = str(raw["id"]), str(raw["kind"])
    where = f"leader {leader.get('id')!r} ({leader.get('house')}), power {power_id}"
    effect = None
    if kind != "MAIN_POWER":
        if "effect" not in raw:
            raise RulesDataError("leaders/effect", f"{where}: missing 'effect' (run tools/leader_effects.py)")
        effect = parse_effect(raw["effect"], where=where)
        if effect.kind != kind:
            raise RulesDataError("leaders/effect", f"{where}: kind {kind!r} but effect kind {effect.kind!r}")
    return Power(power_id, kind, str(raw["text"]), effect)


def parse_roster(raw: Any) -> Roster:
    """Build and validate a :class:`Roster` from its JSON form (raises :class:`RulesDataError`)."""
    if not isinstance(raw, dict) or raw.get("format") != LEADERS_FORMAT:
        raise RulesDataError("leaders/format", f"leader data must be an object with format {LEADERS_FORMAT!r}")
    leaders = []
    for index, entry in enumerate(raw.get("leaders", [])):
        try:
            traits = entry.get("traitor_traits", {})
            leader = Leader(
                id=str(entry["id"]), name=str(entry["name"]), strength=int(entry["strength"]),
                house=str(entry["house"]), sex=str(entry["sex"]), main=bool(entry["main"]),
                spec_id=entry.get("spec_id"), guess=entry.get("guess"),
                never_traitor=bool(traits.get("never_traitor", False)),
                never_traitor_of=tuple(traits.get("never_traitor_of", ())),
                always_traitor_of=tuple(traits.get("always_traitor_of", ())),
                on_traitor_call=tuple(_on_call(effect) for effect in traits.get("on_call", ())
                                      if effect.get("implemented", True)),
                aliases=tuple(entry.get("aliases", ())),
                succeeds=entry["succeeds"]["leader"] if "succeeds" in entry else None,
                succession_power=entry["succeeds"]["power"] if "succeeds" in entry else None,
                powers=tuple(_power(p, entry) for p in entry["powers"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise RulesDataError("leaders/entry", f"leaders[{index}]: missing or bad field ({error})") from None
        if leader.house not in HOUSES:
            raise RulesDataError("leaders/house", f"leaders[{index}]: house {leader.house!r} not in {HOUSES}")
        if leader.sex not in ("M", "F"):
            raise RulesDataError("leaders/sex", f"leaders[{index}]: sex must be 'M' or 'F'")
        leaders.append(leader)
    keys = [leader.key for leader in leaders]
    if len(set(keys)) != len(keys):
        raise RulesDataError("leaders/duplicate", "two leaders share a (house, id) key")
    mains = {(leader.house, leader.id) for leader in leaders if leader.main}
    for leader in leaders:
        if leader.succeeds is not None and (leader.main or (leader.house, leader.succeeds) not in mains):
            raise RulesDataError("leaders/succeeds", f"{leader.key}: 'succeeds' names {leader.succeeds!r}, which "
                                 f"is not the {leader.house} main leader (houses.md G-7: a secondary leader "
                                 "succeeds his own House's main leader)")
    for house in HOUSES:
        own = [leader for leader in leaders if leader.house == house]
        if len(own) != 13 or sum(leader.main for leader in own) != 1:
            raise RulesDataError("leaders/count", f"{house} needs 1 main and 12 secondary leaders")
    return Roster(leaders=tuple(leaders), source=str(raw.get("source", "")))


@lru_cache(maxsize=1)
def load_roster() -> Roster:
    """Load and validate the shipped roster (cached)."""
    return parse_roster(read_data_file("leaders.json"))


def roster_as_json() -> dict[str, Any]:
    """The roster in the documented ``dunenb rules leaders --json`` form.

    >>> data = roster_as_json()
    >>> sorted(data["leaders"][0])[:6]
    ['house', 'id', 'main', 'name', 'powers', 'powers_implemented']
    >>> len(data["leaders"])
    104
    """
    roster = load_roster()
    return {
        "leaders": [leader.to_dict() for leader in roster.leaders],
        "source": roster.source,
        "note": "battles apply the leader value powers WHEEL_VALUE, WHEEL_MODIFIER, DISARM, TROOPS_WORTH_ONE and "
                "ARMY_BONUS (leaders.md K-1..K-5, LC-6), the K-21 on-call effects of an always-traitor "
                "(traitor_traits.on_call), and the traits and specials of K-20..K-25 that powers_implemented "
                "counts (dunenb.powers.leader_effects.APPLIED_TRAITS); the other kinds are descriptive so far",
    }
