"""leaders.md K-24 INHERIT: while a source leader is dead, his heir also holds all his powers.

Three entries name a source and an heir of the same House (X-6: fixed copies): G11-a "Esmar → Staban", B03-c
"Alma → Lucille" (both on the heir) and H03-d "Rabban → Feyd H01" (on the source). While the source is in his
House's tanks (the battle fact ``dead``), the heir holds every **power** of the source, under the source's power
IDs; the source's **traits** (LC-10: RESTRICTION, EXCLUSIVE, INHERIT, DISARM on self, a WHEEL_VALUE below the
source's base strength, entries marked *trait*) stay his. If the source comes back (a revival, a ghola), they go
back to him. An inherited power is a power of the heir: it acts in battles the heir leads, is off while a
foreign House plays him (LC-9, D-14), and a Karama blocks it under its ID (LC-11).

Not here: D01-c and E12-c follow G-7 (:func:`dunenb.powers.holders.acting_main_leader`); D02-d (the Weapon passes
"for good" to the strongest living Honored Matre) is a game record (:mod:`dunenb.rules.leader_inherit`).

>>> from dunenb.battle.roster import load_roster
>>> staban = load_roster().find("Staban")
>>> [power.id for power in held_powers(staban, frozenset({"esmar"}))][-3:]  # G10-d (3 < 5) is Esmar's trait
['GUILD-L10-a', 'GUILD-L10-b', 'GUILD-L10-c']
>>> len(held_powers(staban, frozenset())) == len(staban.powers)
True
"""

from __future__ import annotations

import re
from functools import lru_cache

from dunenb.battle.leader_traits import is_trait  # LC-10: an heir never receives a trait
from dunenb.battle.roster import Leader, Power, fold, load_roster
from dunenb.errors import RulesDataError
from dunenb.powers.leader_effects import Effect

_PAIR = re.compile(r"^\s*(.+?)\s*→\s*(.+?)\s*$")
_BLOCK = re.compile(r"\s+[A-Z]\d\d$")  # "Feyd H01": the block reference after the name


def _named(house: str, name: str, where: str) -> Leader:
    """The secondary leader of ``house`` that an INHERIT entry names (a word of his name: "Rabban")."""
    wanted = fold(_BLOCK.sub("", name))
    found = [leader for leader in load_roster().of_house(house)
             if not leader.main and (leader.id == wanted or wanted in fold(leader.name).split("-"))]
    if len(found) != 1:
        raise RulesDataError("leaders/inherit", f"{where}: {name!r} names {len(found)} leaders of {house}; an "
                                                "INHERIT entry names one leader of its own House (X-6)")
    return found[0]


@lru_cache(maxsize=1)
def sources() -> dict[str, tuple[tuple[Leader, str], ...]]:
    """Heir key (``house:id``) -> the (source leader, INHERIT power ID) pairs of ``data/leaders.json``."""
    found: dict[str, list[tuple[Leader, str]]] = {}
    for leader in load_roster().leaders:
        for power in leader.powers:
            if power.kind != "INHERIT" or not isinstance(power.effect, Effect) or leader.house is None:
                continue
            match = _PAIR.match(power.effect.args[0]) if power.effect.args else None
            if match is None:
                continue  # "successor of ..." (G-7) and "the Weapon passes" (D02-d) are not source -> heir
            source = _named(leader.house, match.group(1), power.id)
            heir = _named(leader.house, match.group(2), power.id)
            found.setdefault(heir.key, []).append((source, power.id))
    return {key: tuple(pairs) for key, pairs in found.items()}


def inherited(leader: Leader | None, dead: frozenset[str]) -> tuple[tuple[Power, str], ...]:
    """The source powers ``leader`` holds now (K-24), each with the INHERIT entry that gives it; ``dead`` are
    the ids of the dead leaders (a battle's ``dead`` fact)."""
    if leader is None:
        return ()
    return tuple((power, inherit) for source, inherit in _sources_of(leader) if source.id in dead
                 for power in source.powers if not is_trait(power, source))


def inheritable(leader: Leader) -> tuple[Power, ...]:
    """Every power ``leader`` could inherit (K-24), whoever is dead: those of :func:`inherited` with all his
    sources dead."""
    return tuple(power for source, _inherit in _sources_of(leader) for power in source.powers
                 if not is_trait(power, source))


def _sources_of(leader: Leader) -> tuple[tuple[Leader, str], ...]:
    """The (source leader, INHERIT power ID) pairs ``leader`` inherits from (:func:`sources`)."""
    key = f"{leader.transferred_from}:{leader.id}" if leader.transferred_from else leader.key  # fixed copies
    return sources().get(key, ())


def held_powers(leader: Leader, dead: frozenset[str]) -> tuple[Power, ...]:
    """``leader``'s own entries, then the powers he inherits now (K-24)."""
    extra = inherited(leader, dead)
    return leader.powers + tuple(power for power, _inherit in extra) if extra else leader.powers
