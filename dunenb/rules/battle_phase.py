"""TURN-1 i): battles in every territory holding two armies (BATTLE-1 to BATTLE-18), in storm order.

Until battles are played by the engine, the flow passes straight on.
"""

from __future__ import annotations

from dunenb.rules import flow
from dunenb.state import GameState


def begin_phase(state: GameState) -> GameState:
    return flow.after_phase(state, "battle")


HANDLERS: dict = {}
