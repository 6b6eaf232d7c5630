"""Le Dé de Fer: a rules engine, exact optimal play and bots for Alexandre Romani's dice game.

Five dice each, up to three rolls keeping any dice; the first player declares a challenge after his rolls
(military: sum; faith: sevens made with + and -; intrigue: poker-dice hands) and the others must beat
him; each challenge is worth one power point and the first to 5 power wins. Where the seed is silent the
choices are design decisions ``IRON-GAP-n`` listed in ``data/iron_die.json``.

Modules: :mod:`~dunenb.iron_die.dice` (multisets and roll probabilities), :mod:`~dunenb.iron_die.faith`,
:mod:`~dunenb.iron_die.hands` and :mod:`~dunenb.iron_die.results` (scoring), :mod:`~dunenb.iron_die.actions`,
:mod:`~dunenb.iron_die.state`, :mod:`~dunenb.iron_die.engine`, :mod:`~dunenb.iron_die.save` (the game),
:mod:`~dunenb.iron_die.solver` and :mod:`~dunenb.iron_die.initiator` (exact optimal play),
:mod:`~dunenb.iron_die.bots`, :mod:`~dunenb.iron_die.simulate`, :mod:`~dunenb.iron_die.cli` and
:mod:`~dunenb.widgets.iron_die` (notebook widgets).

>>> from dunenb.iron_die import advance, new_game, result_of
>>> state = advance(new_game(["Stark", "Lannister"], seed=1))
>>> state.phase, len(state.dice)
('decide', 5)
>>> result_of("faith", (4, 6, 3, 2, 1)).describe()
'2 sevens, unused dice total 2'
"""

from dunenb.iron_die.actions import ChooseFirst, Declare, Keep, Roll, Stand, action_from_dict, parse_action
from dunenb.iron_die.engine import (
    advance,
    apply_action,
    chance_outcomes,
    legal_actions,
    new_game,
    propose_chance,
)
from dunenb.iron_die.results import CHALLENGES, Result, parse_result, result_of
from dunenb.iron_die.save import from_save, load_game, replay, save_game, to_save
from dunenb.iron_die.state import IronDieState

__all__ = [
    "CHALLENGES",
    "ChooseFirst",
    "Declare",
    "IronDieState",
    "Keep",
    "Result",
    "Roll",
    "Stand",
    "action_from_dict",
    "advance",
    "apply_action",
    "chance_outcomes",
    "from_save",
    "legal_actions",
    "load_game",
    "new_game",
    "parse_action",
    "parse_result",
    "propose_chance",
    "replay",
    "result_of",
    "save_game",
    "to_save",
]
