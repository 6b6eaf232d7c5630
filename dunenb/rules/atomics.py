"""Atomics against the Shield Wall (CARD-ATOMICS-1, CARD-ATOMICS-2, GAP-30, STORM-7) and the outlaw
(CARD-ATOMICS-4, GAP-29c).

* **Who may** (CARD-ATOMICS-2, GAP-30): a House holding the Atomics card with at least 1 token on the Shield Wall
  or in a territory adjacent to it ("1 square next to it"), while the wall stands.
* **When** (GAP-55, design): in the storm phase, after the storm's movement is known and before the storm moves,
  at the same node as weather control (:mod:`dunenb.rules.storm`): the seed names "just before the storm moves"
  as the moment the card is made for (L1449, CARD-WEATHER-3: "combined with Atomics").
* **Effect** (CARD-ATOMICS-2, GAP-30): the card goes to the discard pile; every token on the Shield Wall dies
  (any House; adjacent tokens survive); the wall becomes a barren desert, and from then on the three cities
  lie open to the storm as desert does (CARD-ATOMICS-1, :func:`dunenb.rules.common.is_exposed_to_storm`).
  This use is legal: it makes no outlaw (only Atomics on the battle wheel do, CARD-ATOMICS-3/4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dunenb.actions import Action
from dunenb.board import SHIELD_WALL
from dunenb.errors import IllegalActionError
from dunenb.rules.common import edit_house, event, kill_tokens, rules, with_events
from dunenb.state import GameState, evolve

ATOMICS = "atomics"


@dataclass(frozen=True)
class BlowShieldWall(Action):
    """CARD-ATOMICS-2: ``house`` plays the Atomics card on the Shield Wall."""

    kind: ClassVar[str] = "atomics"
    house: str


def qualifying_areas() -> frozenset[str]:
    """GAP-30: the Shield Wall and the territories adjacent to it, where a token lets its House use Atomics."""
    return frozenset((SHIELD_WALL,) + tuple(rules().board.area(SHIELD_WALL).adjacent))


def can_blow_shield_wall(state: GameState, house: str) -> bool:
    """CARD-ATOMICS-2: the wall stands, ``house`` holds Atomics and has a token on or next to the wall."""
    if not state.shield_wall_standing or ATOMICS not in state.houses[house].hand:
        return False
    areas = qualifying_areas()
    return any(h == house and area in areas and not tokens.is_empty()
               for (h, area, _sector), tokens in state.forces.items())


def check_blow(state: GameState, house: str) -> IllegalActionError | None:
    """Why ``house`` may not blow the Shield Wall now, or ``None``."""
    if not state.shield_wall_standing:
        return IllegalActionError("atomics/no-wall", "the Shield Wall is already destroyed (CARD-ATOMICS-2)")
    if ATOMICS not in state.houses[house].hand:
        return IllegalActionError("atomics/not-held", f"{house} holds no Atomics card")
    if not can_blow_shield_wall(state, house):
        return IllegalActionError("atomics/too-far", f"{house} needs a token on the Shield Wall or in a territory "
                                  f"next to it (CARD-ATOMICS-2, GAP-30): {', '.join(sorted(qualifying_areas()))}")
    return None


def blow_shield_wall(state: GameState, house: str, *, power: str | None = None) -> GameState:
    """CARD-ATOMICS-2, GAP-30: discard the card, kill every token on the wall, leave a desert behind. With
    ``power`` (leaders.md S-5, ATREIDES-L01-c) no card is played: the leader's power does it."""
    if power is None:
        hand = list(state.houses[house].hand)
        hand.remove(ATOMICS)
        state = edit_house(state, house, hand=tuple(hand))
        state = evolve(state, treachery_discard=state.treachery_discard + (ATOMICS,))
    state = evolve(state, shield_wall_standing=False)
    name = rules().board.area(SHIELD_WALL).name
    how = "plays Atomics" if power is None else f"blows up the Shield Wall with no card ({power})"
    state = with_events(state, event(
        "shield-wall-destroyed", f"{house} {how}: {name} is blown up and becomes a desert; Arrakeen, "
        "Carthag and Arsunt are now exposed to the storm (CARD-ATOMICS-1, CARD-ATOMICS-2, GAP-30)", house=house,
        **({"powers": (power,)} if power else {})))
    for (owner, area, sector), tokens in list(state.forces.items()):
        if area == SHIELD_WALL:
            state = kill_tokens(state, owner, area, sector, tokens)
            state = with_events(state, event(
                "tokens-destroyed", f"Atomics: {tokens.total} {owner} token(s) destroyed on {name} (sector {sector})",
                house=owner, area=area, sector=sector, count=tokens.total, cause="atomics"))
    return state
