"""The order of play: the setup steps and the turn phases, with automatic transitions (boardgame.io style).

Each step's module exposes ``begin(state)``; when a step is over its module calls :func:`after_setup_step` or
:func:`after_phase` with its own name, and the flow begins the next one. Setup follows SETUP-1 with GAP-4c
(roll and choose positions first); per GAP-13, setup e)-g) stand for turn 1's steps a)-c), so turn 1
continues with the phase after the spice blow. The turn follows TURN-1 a) to j).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from dunenb.state import GameState

#: (name, "module:function") in order. SETUP-1 c), d), e), f), g), h).
SETUP_STEPS: tuple[tuple[str, str], ...] = (
    ("prediction", "dunenb.rules.traitors:begin_prediction"),
    ("traitors", "dunenb.rules.traitors:begin_draw"),
    ("storm-dial", "dunenb.rules.setup:begin_storm_dials"),
    ("storm-tokens", "dunenb.rules.setup:begin_first_storm_tokens"),
    ("forces", "dunenb.rules.setup:begin_forces"),
    ("spice", "dunenb.rules.spice:begin_setup_blow"),
    ("free-cards", "dunenb.rules.bidding:begin_free_cards"),
)

#: TURN-1 a) to j).
TURN_PHASES: tuple[tuple[str, str], ...] = (
    ("storm", "dunenb.rules.storm:begin_phase"),
    ("spice-blow", "dunenb.rules.spice:begin_blow"),
    ("alliance", "dunenb.rules.alliances:begin_phase"),
    ("bidding", "dunenb.rules.bidding:begin_phase"),
    ("movement", "dunenb.rules.movement:begin_phase"),
    ("harvest-declaration", "dunenb.rules.collection:begin_declarations"),
    ("bg-declaration", "dunenb.rules.alliances:begin_bg_declaration"),
    ("chance-cards", "dunenb.rules.chance:begin_phase"),  # TURN-1 h), CHANCE-2; optional (GAP-20)
    ("battle", "dunenb.rules.battle_phase:begin_phase"),
    ("collection", "dunenb.rules.collection:begin_collection"),
)


def _resolve(target: str) -> Callable[[GameState], GameState]:
    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)


def after_setup_step(state: GameState, name: str) -> GameState:
    """Begin the setup step after ``name``; after the last, turn 1 goes on after its spice blow (GAP-13)."""
    names = [step for step, _ in SETUP_STEPS]
    index = names.index(name) + 1 if name in names else 0
    if index < len(SETUP_STEPS):
        return _resolve(SETUP_STEPS[index][1])(state)
    return after_phase(state, "spice-blow")


def after_phase(state: GameState, name: str) -> GameState:
    """Begin the turn phase after ``name``; after the last, the turn ends (victory, turn limit, next turn)."""
    names = [phase for phase, _ in TURN_PHASES]
    index = names.index(name) + 1
    if index < len(TURN_PHASES):
        return _resolve(TURN_PHASES[index][1])(state)
    from dunenb.engine import end_turn

    return end_turn(state)
