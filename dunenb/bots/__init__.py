"""Bots choose among legal actions; they never bypass the rules.

>>> sorted(BOTS)
['heuristic', 'random']
>>> make_bot("random", seed=2).name
'random'
"""

from __future__ import annotations

from dunenb.bots.heuristic import HeuristicBot
from dunenb.bots.random_bot import RandomBot
from dunenb.errors import InputError

BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, *, seed: int = 0):
    """Build a bot by name (``random``, ``heuristic``)."""
    try:
        return BOTS[name](seed=seed)
    except KeyError:
        raise InputError("bot/unknown", f"unknown bot {name!r}; allowed: {', '.join(BOTS)}") from None


__all__ = ["BOTS", "HeuristicBot", "RandomBot", "make_bot"]
