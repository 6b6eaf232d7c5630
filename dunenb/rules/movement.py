"""TURN-1 e): each House in storm order revives (REVIVAL-1, GAP-25a), lands (LAND-1 to LAND-7) and moves
(MOVE-1 to MOVE-8).

Until this step is played by the engine, the flow passes straight on.
"""

from __future__ import annotations

from dunenb.rules import flow
from dunenb.state import GameState


def begin_phase(state: GameState) -> GameState:
    return flow.after_phase(state, "movement")


HANDLERS: dict = {}
