"""TURN-1 f) harvest declarations (HARVEST-10) and j) harvests and taxes (HARVEST-7, TAX-1, GAP-23, GAP-36).

Until these steps are played by the engine, the flow passes straight on.
"""

from __future__ import annotations

from dunenb.rules import flow
from dunenb.state import GameState


def begin_declarations(state: GameState) -> GameState:
    return flow.after_phase(state, "harvest-declaration")


def begin_collection(state: GameState) -> GameState:
    return flow.after_phase(state, "collection")


HANDLERS: dict = {}
