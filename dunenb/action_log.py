"""Replaying the action list of a companion engine's save (Le Dé de Fer, Dune: Imperium), with one error form.

>>> replay_action_log(0, [{"n": 2}, {"n": 3}], lambda raw, where: raw["n"], lambda state, n: state + n)
5
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from dunenb.errors import IllegalActionError, SaveFormatError

S = TypeVar("S")


def replay_action_log(state: S, raw_actions: list[Any], parse: Callable[[Any, str], Any],
                      apply: Callable[[S, Any], S]) -> S:
    """Parse each saved action (``parse(raw, "actions[i]")`` raises a :class:`SaveFormatError` naming it) and
    play it; an action the rules refuse is ``save/illegal-action`` naming its index and the reason."""
    for index, raw in enumerate(raw_actions):
        action = parse(raw, f"actions[{index}]")
        try:
            state = apply(state, action)
        except IllegalActionError as error:
            raise SaveFormatError(
                "save/illegal-action", f"actions[{index}]: {action.notation!r} cannot be replayed: {error}"
            ) from None
    return state
