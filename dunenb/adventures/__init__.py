"""dunenb.adventures: the 2d20 system of *Dune: Adventures in the Imperium*.

Small modules with one job each:

- :mod:`~dunenb.adventures.rules` - rules constants (with their source) from ``dunenb.data``;
- :mod:`~dunenb.adventures.characters` - skills, drives, focuses, traits;
- :mod:`~dunenb.adventures.focuses` - the focus list, each focus tied to its skill;
- :mod:`~dunenb.adventures.presets` - zones and assets for the five conflict types;
- :mod:`~dunenb.adventures.dice` and :mod:`~dunenb.adventures.skill_test` - scoring and resolving tests;
- :mod:`~dunenb.adventures.exact_odds` - exact odds by convolution;
- :mod:`~dunenb.adventures.pools` - Momentum, Threat, Determination;
- :mod:`~dunenb.adventures.assets`, :mod:`~dunenb.adventures.extended`, :mod:`~dunenb.adventures.conflict`
  and :mod:`~dunenb.adventures.actions` - conflicts;
- :mod:`~dunenb.adventures.cli` - the ``dunenb 2d20`` subcommand.

>>> from dunenb.adventures import odds
>>> odds(7, 7).p_success(1)
0.91
"""

from dunenb.adventures.characters import Character
from dunenb.adventures.exact_odds import OpposedOdds, TestOdds, odds, odds_for, odds_table, opposed_odds
from dunenb.adventures.pools import Pools, extra_dice_cost
from dunenb.adventures.skill_test import Assist, SkillTest, SkillTestResult, resolve_test, roll_test

__all__ = [
    "Assist",
    "Character",
    "OpposedOdds",
    "Pools",
    "SkillTest",
    "SkillTestResult",
    "TestOdds",
    "extra_dice_cost",
    "odds",
    "odds_for",
    "odds_table",
    "opposed_odds",
    "resolve_test",
    "roll_test",
]
