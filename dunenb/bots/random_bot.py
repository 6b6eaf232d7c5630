"""A bot that plays uniformly among the legal actions, deterministically for a seed.

>>> from dunenb.engine import new_game, play_until_decision
>>> state = play_until_decision(new_game(["atreides", "harkonnen"], seed=4))
>>> bot = RandomBot(seed=9)
>>> bot.choose(state) == bot.choose(state)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from dunenb.actions import Action
from dunenb.engine import legal_actions
from dunenb.errors import IllegalActionError
from dunenb.seeding import first_integer
from dunenb.state import GameState


@dataclass(frozen=True)
class RandomBot:
    """Uniform over legal actions; the choice depends only on the bot's seed and the position's counters."""

    seed: int = 0
    name: str = "random"

    def choose(self, state: GameState) -> Action:
        actions = legal_actions(state)
        if not actions:
            raise IllegalActionError("bot/no-action", "the game is over: nothing to choose")
        # the first draw of the generator seeded with these words (issue 14 item 4: no generator object built)
        return actions[first_integer((self.seed, state.rng_counter, state.turn, len(state.events)), len(actions))]
