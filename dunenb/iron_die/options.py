"""Table options of Le Dé de Fer: the seed's open readings of the faith challenge (IRON-GAP-17, IRON-GAP-18).

The seed says a player makes his sevens "par calcul" and that "la valeur du dé inutilisé" breaks ties, but
not which operations are allowed nor whether a low or a high unused die wins. The defaults keep the
readings the engine always used (IRON-GAP-4, IRON-GAP-5, IRON-GAP-6); a table may pick the others:

* ``faith_operations``: ``"add-subtract"`` (default: each die added or subtracted) or ``"arithmetic"``
  (``+ - x /`` with any brackets, exact fractions in between; 58 of the 252 hands then make more sevens);
* ``faith_tiebreak``: ``"low"`` (default: a hand that leaves a die unused beats one that uses every die, and
  a lower unused total wins) or ``"high"`` (a higher unused total wins; using every die counts as 0).

>>> DEFAULT_OPTIONS
TableOptions(faith_operations='add-subtract', faith_tiebreak='low')
>>> TableOptions(faith_tiebreak="high").describe()
'faith: + and -, a higher unused total breaks ties'
>>> TableOptions(faith_operations="x")
Traceback (most recent call last):
...
dunenb.errors.InputError: [iron-die/option] faith_operations: 'x' is not allowed (allowed: add-subtract, \
arithmetic)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dunenb.errors import InputError

#: The operations a faith group may use (IRON-GAP-17); the first is the default.
FAITH_OPERATIONS: tuple[str, ...] = ("add-subtract", "arithmetic")
#: How unused dice break a tie on sevens (IRON-GAP-18); the first is the default.
FAITH_TIEBREAKS: tuple[str, ...] = ("low", "high")


def _check(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise InputError("iron-die/option", f"{name}: {value!r} is not allowed (allowed: {', '.join(allowed)})")
    return str(value)


@dataclass(frozen=True)
class TableOptions:
    """The table's choice of readings for the faith challenge (hashable: used as a cache key)."""

    faith_operations: str = FAITH_OPERATIONS[0]
    faith_tiebreak: str = FAITH_TIEBREAKS[0]

    def __post_init__(self) -> None:
        _check("faith_operations", self.faith_operations, FAITH_OPERATIONS)
        _check("faith_tiebreak", self.faith_tiebreak, FAITH_TIEBREAKS)

    @property
    def is_default(self) -> bool:
        """True for the engine's default readings."""
        return self == DEFAULT_OPTIONS

    def describe(self) -> str:
        """A short readable summary.

        >>> DEFAULT_OPTIONS.describe()
        'faith: + and -, a lower unused total breaks ties'
        """
        operations = "+ and -" if self.faith_operations == "add-subtract" else "+, -, x and /"
        return (
            f"faith: {operations}, a {'lower' if self.faith_tiebreak == 'low' else 'higher'} unused total breaks ties"
        )

    def to_dict(self) -> dict[str, str]:
        """JSON-friendly form (the keys of the CLI's ``options`` object)."""
        return {"faith_operations": self.faith_operations, "faith_tiebreak": self.faith_tiebreak}


#: The readings used when nothing else is asked for.
DEFAULT_OPTIONS = TableOptions()


def options_for(challenge: str, options: TableOptions | None) -> TableOptions:
    """The options that matter for ``challenge``: only faith depends on them, so the other challenges always
    get the defaults (their solved tables are then shared).

    >>> options_for("military", TableOptions(faith_tiebreak="high")).is_default
    True
    """
    if options is None or challenge != "faith":
        return DEFAULT_OPTIONS
    if not isinstance(options, TableOptions):
        raise InputError("iron-die/option", f"options: expected a TableOptions, got {options!r}")
    return options
