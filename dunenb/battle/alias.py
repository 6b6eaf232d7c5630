"""leaders.md K-25 S-3 (BG-L01-c, L781): "Alma as X", one leader key for a composite leader.

At B0 the House that keeps Alma may commit "Alma as X", X a living, uncaptured secondary leader of Alma's own
House (the BG), who is not engaged by it and may fight elsewhere. The wheel shows "Alma as X"; no treachery may be
called on her, as Alma or as X; she is worth Alma's base strength, with Alma's entries plus X's powers (never X's
traits: LC-10, :func:`dunenb.battle.leader_traits.is_trait`). Only Alma can die; the bounty and the shield pass
use her base strength.

GAP-141 (dunenb design): the composite is named by one plain leader key, ``"<body>+<x>"`` (``"alma+jessica"``):
the two roster ids of the House's own keys joined by ``+`` (roster ids are slugs of letters, digits and ``-``, and
an ``owner:id`` key of GAP-19 never holds a ``+``). It is what a plan, a disclosure and a battle outcome name; the
roster lookup (:func:`dunenb.rules.traitors.leader_of`) resolves it to :func:`composite`, so the values, the
powers before and after the battle and the texts all read one :class:`~dunenb.battle.roster.Leader`. Where the
person matters (the tanks, a capture, the turn's commitments, BATTLE-15), :func:`body` gives Alma's key.

>>> key = alias_key("alma", "jessica")
>>> key, is_alias(key), members(key), body(key), body("jessica")
('alma+jessica', True, ('alma', 'jessica'), 'alma', 'jessica')
>>> binds("jessica", key), binds("alma", key), binds("lucille", key), binds("alma", "alma")
(True, True, False, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import lru_cache

from dunenb.battle.roster import Leader
from dunenb.errors import InputError

#: GAP-141: the separator of a composite leader key (S-3)
ALIAS_SEPARATOR = "+"
#: the K-25 SPECIAL that lets its holder be committed as another leader
ALIAS_SPECIAL = "S-3"


def is_alias(key: str | None) -> bool:
    """Whether ``key`` names an S-3 composite ("Alma as X")."""
    return key is not None and ALIAS_SEPARATOR in key


def alias_key(body_key: str, other_key: str) -> str:
    """The composite key of ``body_key`` committed as ``other_key`` (GAP-141)."""
    return f"{body_key}{ALIAS_SEPARATOR}{other_key}"


def members(key: str) -> tuple[str, ...]:
    """The keys a leader key stands for: ``(body, x)`` for a composite, ``(key,)`` otherwise."""
    if not is_alias(key):
        return (key,)
    first, _sep, second = key.partition(ALIAS_SEPARATOR)
    if not first or not second or ALIAS_SEPARATOR in second:
        raise InputError("leader/alias", f"leader {key!r} is not a composite key 'alma+x' (leaders.md S-3, GAP-141); "
                         "allowed: two leader ids joined by '+'")
    return first, second


def body(key: str) -> str:
    """The person who fights: Alma's key for a composite (S-3: only Alma can die, go to the tanks or be taken),
    the key itself otherwise."""
    return members(key)[0]


def binds(shown: str, key: str) -> bool:
    """GAP-142: a leader disclosed before the plans (LC-5 B1) binds the plan to ``key`` when ``key`` is that
    leader or a composite he is a member of (the power used is Alma's or X's, and both are on that wheel)."""
    return shown == key or shown in members(key)


def alias_power(leader: Leader) -> str | None:
    """The ID of ``leader``'s K-25 SPECIAL S-3 entry (BG-L01-c), if he has one (powers are data)."""
    return next((power.id for power in leader.powers if power.kind == "SPECIAL" and power.effect is not None
                 and tuple(getattr(power.effect, "args", ()))[:1] == (ALIAS_SPECIAL,)), None)


@lru_cache(maxsize=256)
def composite(alma: Leader, other: Leader) -> Leader:
    """S-3: "Alma as X": Alma's id-key, House, sex and base strength (bounty, shield pass: 4), named
    "Alma as X", with Alma's entries plus X's powers that are not LC-10 traits; never a traitor (no treachery
    may be called on her, as Alma or as X)."""
    from dunenb.battle.leader_traits import is_trait

    powers = alma.powers + tuple(power for power in other.powers if not is_trait(power, other))
    return dataclasses.replace(
        alma, id=alias_key(alma.id, other.id), name=f"{alma.name} as {other.name}", powers=powers,
        never_traitor=True, never_traitor_of=(), always_traitor_of=(), on_traitor_call=(), aliases=(),
        spec_id=None, guess=None, succeeds=None, succession_power=None)


def offered(available: Iterable[str], candidates: Iterable[str], lookup: Callable[[str], Leader],
            blocked: Collection[str] = ()) -> tuple[str, ...]:
    """The composite keys a House may commit (S-3): for each ``available`` key whose leader holds S-3 (not
    voided: ``blocked``), one per ``candidates`` key X that is another secondary leader of the same own House.
    ``available`` are the House's own keys who may lead this battle (Alma must be one); ``candidates`` its own
    living, uncaptured keys (X may be engaged elsewhere: S-3 "X is not engaged")."""
    # GAP-141: ``lookup`` gives roster entries, so an heir holding Alma's powers while she is dead (K-24 B03-c,
    # Lucille) is never committed "as X": S-3 is Alma's own (her base, her death)
    found = []
    others = tuple(candidates)
    for key in available:
        if is_alias(key) or ":" in key:
            continue
        alma = lookup(key)
        power = alias_power(alma)
        if power is None or power in blocked:
            continue
        for other_key in others:
            if other_key == key or ":" in other_key or is_alias(other_key):
                continue
            other = lookup(other_key)
            if not other.main and other.house == alma.house:
                found.append(alias_key(key, other_key))
    return tuple(found)


def bound(shown: Iterable[str], leaders: Sequence[str]) -> tuple[str, ...]:
    """The ``leaders`` a House may still choose once the leaders ``shown`` were disclosed before the plans
    (GAP-79, LC-5 B1): those every disclosure binds (GAP-142: a composite is bound by Alma's and by X's); all of
    ``leaders`` when no disclosure names one of them.

    >>> bound(["alma"], ["alma", "jessica", "alma+jessica"]), bound(["alma", "jessica"], ["alma", "alma+jessica"])
    (('alma', 'alma+jessica'), ('alma+jessica',))
    >>> bound([], ["alma", "jessica"]), bound(["paul"], ["paul", "duncan-idaho"])
    (('alma', 'jessica'), ('paul',))
    """
    here = [leader for leader in dict.fromkeys(shown) if any(binds(leader, key) for key in leaders)]
    if not here:
        return tuple(leaders)
    every = tuple(key for key in leaders if all(binds(leader, key) for leader in here))
    return every or tuple(key for key in leaders if binds(here[0], key))
