"""Treachery cards that can go on the battle wheel (CARD-3, CARD-POISON-1 .. CARD-LASGUN-1).

Card ids are lowercase slugs. A weapon fills the attack slot, a defence the defence slot, and a worthless card
may fill either (CARD-WORTHLESS-2, BATTLE-6).

>>> WEAPONS
('poison-fast', 'poison-slow', 'projectile-distance', 'projectile-contact', 'lasgun', 'atomics', 'worthless')
>>> card_kind("poison-slow"), card_kind("projectile-contact"), card_kind("worthless")
('poison', 'projectile', 'worthless')
>>> is_instant("poison-slow"), is_instant("poison-fast")
(False, True)
"""

from __future__ import annotations

from functools import lru_cache

#: Cards allowed in the attack slot (BATTLE-6: at most one; a worthless card may stand in).
WEAPONS: tuple[str, ...] = (
    "poison-fast", "poison-slow", "projectile-distance", "projectile-contact", "lasgun", "atomics", "worthless",
)
#: Cards allowed in the defence slot (BATTLE-6: at most one; a worthless card may stand in).
DEFENCES: tuple[str, ...] = ("snooper", "shield", "worthless")
#: Every card id known to battle resolution (a hand may also hold cards that never go on the wheel).
BATTLE_CARDS: tuple[str, ...] = WEAPONS[:-1] + DEFENCES
#: Cards that exist but never go in the attack or defence slot; accepted in a case's ``hand``.
OTHER_CARDS: tuple[str, ...] = ("karama", "ghola", "truth-trance", "hajj", "weather-control")
#: Built-in weapons (houses.md G-4): no cards; a House power puts one in the attack slot (DISPERSION-P1 karate),
#: it is never taken from or lost from a hand, and the Voice acts on cards only (it can neither forbid nor force
#: one); a prescience answer names it by kind (karate: projectile).
BUILT_IN_WEAPONS: tuple[str, ...] = ("karate", "krys", "kindjal", "gom-jabbar", "poison-slow-built-in")
#: leaders.md K-7: the card each built-in weapon acts as (LC-7: "CARD-SHIELD-2's fast/slow rule applies to built-in
#: poisons too"); karate is its own attack (DISPERSION-P1: any Shield stops it).
BUILT_IN_ACTS_AS: dict[str, str] = {
    "karate": "karate", "krys": "projectile-contact", "kindjal": "projectile-contact",
    "gom-jabbar": "poison-fast", "poison-slow-built-in": "poison-slow",
}
#: Attacks any Shield card stops outright, with no passing roll (CARD-SHIELD-1; DISPERSION-P1 karate, L1927).
SHIELD_STOPS: tuple[str, ...] = ("projectile-distance", "karate")
#: Cards that may be added on the wheel as a Karama (KARAMA-3): the Karama, and the cards that count as one for
#: a House (BG-P5 worthless, TLEILAX-P4 ghola; ``treachery_deck.json`` ``karama_substitutes``).
KARAMA_CARDS: tuple[str, ...] = ("karama", "worthless", "ghola")

_KIND = {
    "poison-fast": "poison", "poison-slow": "poison",
    "projectile-distance": "projectile", "projectile-contact": "projectile",
    "lasgun": "lasgun", "atomics": "atomics", "worthless": "worthless",
    "snooper": "snooper", "shield": "shield", "karate": "projectile",
    "krys": "projectile", "kindjal": "projectile", "gom-jabbar": "poison", "poison-slow-built-in": "poison",
}

#: Display names (English; the seed's French names in brackets for the teaching notebook).
CARD_NAMES = {
    "poison-fast": "Fast poison (poison rapide)",
    "poison-slow": "Slow poison (poison lent)",
    "projectile-distance": "Distance projectile (projectile de distance)",
    "projectile-contact": "Contact projectile (projectile de contact)",
    "lasgun": "Lasgun (laser)",
    "atomics": "Atomics (atomiques)",
    "worthless": "Worthless card (carte sans valeur)",
    "snooper": "Snooper (goûte-poison)",
    "shield": "Shield (bouclier)",
    "karate": "Karate (pied/poing: built in, no card)",
    "krys": "Krys (contact projectile: built in, no card)",
    "kindjal": "Kindjal (contact projectile: built in, no card)",
    "gom-jabbar": "Gom Jabbar (fast poison: built in, no card)",
    "poison-slow-built-in": "Slow poison (poison lent: built in, no card)",
}


def card_kind(card: str) -> str:
    """The kind of a card, as the Voice and prescience name it (BG-P1: fast and slow poison are one kind).

    >>> card_kind("projectile-distance")
    'projectile'
    """
    return _KIND[card]


def is_instant(weapon: str) -> bool:
    """True if the weapon kills at once (CARD-POISON-1, CARD-PROJ-1); only the slow poison leaves a respite.

    A killed leader whose death is instant has no time to try to pass a shield (CARD-SHIELD-2 example 1).
    The lasgun is treated as instant (note: the seed says only that it "always kills", CARD-LASGUN-1).
    """
    return weapon != "poison-slow"


def stops(defence: str | None, weapon: str) -> bool:
    """Whether a defence card stops a weapon outright (no shield roll involved).

    A snooper stops every poison (CARD-SNOOPER-1, CARD-POISON-2); a shield stops every distance projectile
    (CARD-SHIELD-1); nothing stops a lasgun (CARD-LASGUN-1) or battle Atomics (CARD-ATOMICS-3). A contact
    projectile against a shield is not stopped outright: the attacker may try to pass it (CARD-SHIELD-3).

    >>> stops("snooper", "poison-slow"), stops("shield", "projectile-distance"), stops("shield", "lasgun")
    (True, True, False)
    """
    kind = card_kind(weapon)
    if kind == "poison":
        return defence == "snooper"
    if weapon in SHIELD_STOPS:
        return defence == "shield"
    return False


def wheel_karama_power(house: str) -> str | None:
    """The House power behind ``house``'s traitor calls that a Karama on the opposing wheel blocks, or ``None``
    (KARAMA-45, houses.md HARKONNEN-P1 and G-5; data: ``treachery_deck.json`` ``wheel_karama.blocks``).

    >>> wheel_karama_power("harkonnen"), wheel_karama_power("atreides")
    ('HARKONNEN-P1', None)
    """
    return _wheel_karama_blocks().get(house)


@lru_cache(maxsize=1)
def _wheel_karama_blocks() -> dict[str, str]:
    from dunenb.board import read_data_file

    blocks = read_data_file("treachery_deck.json").get("wheel_karama", {}).get("blocks", [])
    return {entry["holder"]: entry["power"] for entry in blocks}
