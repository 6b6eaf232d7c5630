"""One memo for functions of a game state asked many times of the same state object (issue 14 item 4).

A state is frozen, so what a pure function of it answered stays its answer. :func:`per_state` keeps the answers
for the last state object asked, keyed by the other arguments, and drops them all when another state is asked:
listing a menu or scoring it asks the same questions of one state many times, then moves on. The memo holds the
state object itself (never its ``id``, which a new object could reuse), so an answer is never read for another
state, and it holds one state's answers at a time, so its memory is bounded.

>>> calls = []
>>> @per_state
... def doubled(state, n):
...     calls.append(n)
...     return 2 * n
>>> first, second = object(), object()
>>> doubled(first, 3), doubled(first, 3), doubled(second, 3), len(calls)
(6, 6, 6, 2)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

R = TypeVar("R")


def per_state(function: Callable[..., R]) -> Callable[..., R]:
    """``function(state, *args)`` memoized for the last state object, on ``args`` (hashable, positional)."""
    memo: list[Any] = [None, {}]  # [the state object, {args: answer}]

    @functools.wraps(function)
    def remembered(state: Any, *args: Hashable) -> R:
        if memo[0] is not state:
            memo[0], memo[1] = state, {}
        answers: dict[tuple[Hashable, ...], R] = memo[1]
        if args in answers:
            return answers[args]
        answer = answers[args] = function(state, *args)
        return answer

    return remembered
