"""Treachery cards: the free cards at setup (SETUP-1 h) and the auction (BID-1 to BID-15, GAP-33).

Until the auction is played by the engine, the flow passes straight on.
"""

from __future__ import annotations

from dunenb.rules import flow
from dunenb.state import GameState


def begin_free_cards(state: GameState) -> GameState:
    """SETUP-1 h): one free treachery card each, two for the Harkonnen."""
    return flow.after_setup_step(state, "free-cards")


def begin_phase(state: GameState) -> GameState:
    """TURN-1 d): the auction."""
    return flow.after_phase(state, "bidding")


HANDLERS: dict = {}
