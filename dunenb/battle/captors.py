"""Who may hold a captured leader, read from the powers (houses.md HARKONNEN-P4; leaders.md K-17 ``capture``,
BG-L03-b Lucille, D-28; GAP-145).

A House holds captives by one of its capture sources:

* a House power that offers the ``capture`` action after a battle (``data/powers.json``: HARKONNEN-P4). It may take
  any leader of another House (the main leader too, when he is the only one eligible, L1243);
* a K-17 ``capture`` entry of one of its own leaders (BG-L03-b Lucille, D-28): only a male leader of another
  House who is not a main leader, and only while that leader lives (his captives go home when he dies).

The game (:mod:`dunenb.rules.leader_capture`) and the battle cases (``captured``, :mod:`dunenb.battle.case`) read
these sources here, so both agree on who may hold whom.

>>> [(c.power, c.leader) for c in captors("harkonnen")]
[('HARKONNEN-P4', None)]
>>> [(c.power, c.leader) for c in captors("bene-gesserit")]
[('BG-L03-b', 'lucille')]
>>> captors("fremen")
()
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from dunenb.battle.leader_after import KIND, action_of
from dunenb.battle.roster import Leader, load_roster

CAPTURE = "capture"
#: D-28: Lucille captures "son ennemi si c'est un mâle" (L793).
MALE = "M"


@dataclass(frozen=True)
class Captor:
    """One capture source of ``house``: the ``power`` ID, and the ``leader`` id whose K-17 entry it is (``None``
    for a House power)."""

    power: str
    house: str
    leader: str | None = None

    def refusal(self, captive: Leader, dead: Collection[str] = ()) -> str | None:
        """Why this source cannot hold ``captive`` (``None``: it can). ``dead``: ``house``'s leaders in its tanks
        (D-28: a K-17 capturer's captives go home when he dies)."""
        if captive.house in (None, self.house):
            return "a captive is a roster leader of another House"
        if self.leader is None:
            return None
        if self.leader in dead:
            return f"{self.leader} is dead, and her captives have gone home (D-28)"
        if captive.sex != MALE:
            return f"{self.power} captures only a male leader (D-28, L793)"
        if captive.main:
            return f"{self.power} never captures a main leader (D-28)"
        return None


@lru_cache(maxsize=32)
def captors(house: str) -> tuple[Captor, ...]:
    """``house``'s capture sources: its House power offering ``capture`` (HARKONNEN-P4), then its own leaders'
    K-17 ``capture`` entries (BG-L03-b)."""
    from dunenb.powers.registry import offered_by, owner

    found = []
    power = offered_by("battle.after", CAPTURE)
    if owner(power) == house:
        found.append(Captor(power, house))
    found += [Captor(entry.id, house, leader.id) for leader in load_roster().leaders if leader.house == house
              for entry in leader.powers if entry.kind == KIND and action_of(entry)[0] == CAPTURE]
    return tuple(found)


def may_hold(house: str, captive: Leader, dead: Collection[str] = ()) -> tuple[Captor | None, tuple[str, ...]]:
    """GAP-145: the first of ``house``'s capture sources that may hold ``captive`` (``None`` if none), with the
    reasons each other source gives."""
    reasons = []
    for source in captors(house):
        why = source.refusal(captive, dead)
        if why is None:
            return source, ()
        reasons.append(f"{source.power}: {why}")
    return None, tuple(reasons)
