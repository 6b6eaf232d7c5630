"""Setup c) and d): the Bene Gesserit prediction (BG-P6) and the traitor draw (TRAITOR-1 to TRAITOR-4).

Until these steps are played by the engine, the flow passes straight on (no prediction, no traitors).
"""

from __future__ import annotations

from dunenb.rules import flow
from dunenb.state import GameState


def begin_prediction(state: GameState) -> GameState:
    """SETUP-1 c): the Bene Gesserit prediction."""
    return flow.after_setup_step(state, "prediction")


def begin_draw(state: GameState) -> GameState:
    """SETUP-1 d): traitors are drawn."""
    return flow.after_setup_step(state, "traitors")


HANDLERS: dict = {}
