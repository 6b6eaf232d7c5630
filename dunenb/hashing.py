"""Hash-once for deep frozen records (issue 14 item 4: game speed).

A frozen dataclass hashes the tuple of its fields at every call; a record holding nested tuples of other records
(a :class:`~dunenb.battle.roster.Leader` and his powers, their parsed effects and conditions) rehashes the whole
tree each time it keys a cache, and the battle code keys many (``lru_cache`` on leaders, sides and plans).
:func:`hash_once` keeps the value the dataclass computes (so sets and dicts of such records behave exactly as
before) and stores it in the instance the first time it is asked for. The stored value never travels: pickling
and copying drop it (string hashes differ between processes), and :func:`dunenb.state.evolve` drops it too.

>>> from dataclasses import dataclass
>>> @hash_once
... @dataclass(frozen=True)
... class Pair:
...     left: tuple
...     right: str
>>> pair = Pair((1, 2), "x")
>>> hash(pair) == hash(((1, 2), "x")) and HASH_KEY in pair.__dict__ and HASH_KEY not in pair.__getstate__()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

#: The instance attribute that holds the computed hash (outside the dataclass fields: equality, ``repr``,
#: ``dataclasses.fields``/``asdict``/``replace`` never see it).
HASH_KEY = "_hash_once"

_C = TypeVar("_C", bound=type)


def hash_once(cls: _C) -> _C:
    """Make the frozen dataclass ``cls`` compute its (unchanged) hash once per instance; returns ``cls``."""
    # the hash ``@dataclass(frozen=True)`` generated (read as a plain function of the instance)
    field_hash: Callable[[Any], int] = getattr(cls, "__hash__")  # noqa: B009

    def __hash__(self: Any) -> int:
        found = self.__dict__.get(HASH_KEY)
        if found is None:
            found = self.__dict__[HASH_KEY] = field_hash(self)  # frozen: write the dict, not the attribute
        return found

    def __getstate__(self: Any) -> dict[str, Any]:
        return {name: value for name, value in self.__dict__.items() if name != HASH_KEY}

    cls.__hash__ = __hash__  # type: ignore[assignment]
    cls.__getstate__ = __getstate__  # type: ignore[attr-defined]
    return cls
