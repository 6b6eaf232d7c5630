"""Conflict strength and placements (seed: Ajuster la force, Résolution et récompenses).

Strength is 2 per troop in the conflict plus 1 per sword, and 0 with no troop. The strongest player takes
the first reward and the second the second; only at 4 players does the third take the third; a player at
strength 0 takes nothing. A tie for first gives each tied player the second reward, a tie for second the
third, a tie for third nothing (IMP-GAP-3 for the rank of the player after a tied group).

>>> strength(3, 1), strength(0, 4), strength(2, 0)
(7, 0, 4)
>>> placements([9, 5, 5, 0])
[1, 3, 3, None]
>>> placements([9, 9, 5, 3])
[2, 2, 3, None]
>>> placements([9, 9, 5])
[2, 2, None]
"""

from __future__ import annotations

from collections.abc import Sequence

from dunenb.errors import InputError

TROOP_STRENGTH = 2
SWORD_STRENGTH = 1


def strength(troops: int, swords: int) -> int:
    """Combat strength: ``2 * troops + swords``, or 0 without a troop in the conflict."""
    if troops <= 0:
        return 0
    return TROOP_STRENGTH * troops + SWORD_STRENGTH * swords


def rewards_in_play(players: int) -> int:
    """How many rewards a conflict pays: 3 at 4 players, else 2 (seed: 'À 4 joueurs uniquement')."""
    return 3 if players >= 4 else 2


def placements(strengths: Sequence[int], players: int | None = None) -> list[int | None]:
    """The reward (1, 2, 3 or ``None``) of each player, in input order; ``players`` defaults to the count given.

    Competition ranking over the strengths above 0 (IMP-GAP-3): a lone player at rank k takes reward k, a
    tied group at rank k takes reward k+1 each; the next rank counts every tied player.
    """
    values = list(strengths)
    count = len(values) if players is None else players
    if not 2 <= count <= 4 or len(values) > count:
        raise InputError("imperium/players", f"players: expected 2 to 4 strengths, got {len(values)}")
    if any(type(v) is not int or v < 0 for v in values):
        raise InputError("imperium/strength", f"strengths: expected integers >= 0, got {values!r}")
    available = rewards_in_play(count)
    result: list[int | None] = [None] * len(values)
    rank = 1
    for value in sorted({v for v in values if v > 0}, reverse=True):
        group = [i for i, v in enumerate(values) if v == value]
        reward = rank if len(group) == 1 else rank + 1
        for i in group:
            result[i] = reward if reward <= available else None
        rank += len(group)
    return result
