"""leaders.md K-25 S-4 (EMPEROR-L03-c Burseg, L373) in the battle library: a leader sheltered from the explosion.

In his battle in an ``open`` territory (LC-3: neither a city nor a sietch), battle Atomics or a lasgun-shield
explosion (CARD-ATOMICS-3, CARD-LASGUN-1) does not kill him nor destroy his House's tokens there; everything
else happens as usual: the opposing leader dies, the other tokens there are destroyed, every card on both wheels
and the wheel spice are lost (GAP-133). His House wins, loses the tokens it dialled as any winner, and receives
the dead opposing leader's bounty (D-22: GAP-29b does not apply when a winner survives). A sanction for illegal
Atomics still applies. The loss of 2 points of base strength is a game fact (:mod:`dunenb.rules.leader_specials`,
``GameState.strength_lost``), applied to his later battles by :func:`dunenb.rules.battle_phase.own_house_leader`.

A power (LC-10): only while his own House plays him (LC-9, D-14) and no Karama blocks it (LC-11). The parameters
(terrain, strength loss) are those of ``data/leader_specials.json`` rule ``explosion_shelter``.

>>> from dunenb.battle.roster import load_roster
>>> burseg = load_roster().find("Burseg", house="emperor")
>>> sheltered(("emperor", "fremen"), (burseg, None), (frozenset(), frozenset()), "erg-mineur")
(0, 'EMPEROR-L03-c')
>>> sheltered(("emperor", "fremen"), (burseg, None), (frozenset(), frozenset()), "arrakeen") is None
True
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from dunenb.battle.roster import Leader

RULE = "explosion_shelter"


def _terrain_holds(word: str, territory: str) -> bool:
    """LC-3 for the special's terrain word (``open``: neither city nor sietch)."""
    from dunenb.battle.leader_powers import terrain_kind

    kind = terrain_kind(territory)
    if word == "open":
        return kind is not None and kind not in ("city", "sietch")
    return kind == word


def sheltered(houses: Sequence[str], leaders: Sequence[Leader | None], blocked: Sequence[Collection[str]],
              territory: str) -> tuple[int, str] | None:
    """The side (0 or 1) whose leader an explosion in ``territory`` spares (S-4), with the power that does, or
    ``None``. ``leaders`` are the leaders who fight (after a traitor swap), ``blocked`` each side's blocked
    powers (LC-11)."""
    from dunenb.rules.leader_specials import load_specials

    for special in load_specials():
        if special.rule != RULE:
            continue
        for me in (0, 1):
            leader = leaders[me]
            if leader is None or leader.house != houses[me] or (leader.house, leader.id) != special.holder:
                continue  # a power: his own House only (LC-9, D-14)
            if special.power not in blocked[me] and _terrain_holds(special.terrain or "open", territory):
                return me, special.power
    return None
