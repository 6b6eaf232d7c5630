"""Bots choose among legal actions; they never bypass the rules."""

from dunenb.bots.random_bot import RandomBot

__all__ = ["RandomBot"]
