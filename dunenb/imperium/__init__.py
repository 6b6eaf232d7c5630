"""Dune: Imperium (2020 base game) as a companion engine: rounds, agents, influence, conflicts and
deck-building, with chance nodes, saves, bots, exact draw odds and conflict placements.

Sources: seed 001 (a French rules summary) for the rules; the published base game's cards, spaces and
leaders as data in ``data/imperium.json`` (uncertain facts marked ``"certain": false``; design decisions
``IMP-GAP-n`` listed there). Modules: :mod:`~dunenb.imperium.rules_data`, :mod:`~dunenb.imperium.state`,
:mod:`~dunenb.imperium.actions`, :mod:`~dunenb.imperium.effects`, :mod:`~dunenb.imperium.engine`,
:mod:`~dunenb.imperium.combat`, :mod:`~dunenb.imperium.odds`, :mod:`~dunenb.imperium.save`,
:mod:`~dunenb.imperium.record`, :mod:`~dunenb.imperium.bots`, :mod:`~dunenb.imperium.simulate`,
:mod:`~dunenb.imperium.cli`.

>>> from dunenb.imperium import advance, new_game, placements
>>> advance(new_game(["A", "B"], seed=1, leaders=["paul_atreides", "leto_atreides"])).pending.kind
'turn'
>>> placements([9, 5, 5, 0])
[1, 3, 3, None]
"""

from dunenb.imperium.actions import (
    Agent,
    Buy,
    Chance,
    Choose,
    First,
    Pass,
    PlayIntrigue,
    Reveal,
    action_from_dict,
    parse_action,
)
from dunenb.imperium.combat import placements, strength
from dunenb.imperium.effects import victory_points
from dunenb.imperium.engine import advance, apply_action, chance_outcomes, legal_actions, new_game, propose_chance
from dunenb.imperium.odds import card_odds, hand_odds
from dunenb.imperium.save import from_save, load_game, save_game, to_save, view
from dunenb.imperium.state import ImperiumState

__all__ = [
    "Agent",
    "Buy",
    "Chance",
    "Choose",
    "First",
    "ImperiumState",
    "Pass",
    "PlayIntrigue",
    "Reveal",
    "action_from_dict",
    "advance",
    "apply_action",
    "card_odds",
    "chance_outcomes",
    "from_save",
    "hand_odds",
    "legal_actions",
    "load_game",
    "new_game",
    "parse_action",
    "placements",
    "propose_chance",
    "save_game",
    "strength",
    "to_save",
    "victory_points",
    "view",
]
