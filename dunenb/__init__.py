"""dunenb: a rules engine and notebooks for the French fan variant of the Dune board game.

The engine (``dunenb.engine``) is pure: states are immutable, actions are values, chance is an action.
Companion systems live in ``dunenb.adventures`` (2d20) and ``dunenb.iron_die`` (Le Dé de Fer).
"""

__version__ = "0.1.0"

from dunenb import dataclass_code as _dataclass_code  # noqa: E402  (issue 14 part 3: before any dataclass)

_dataclass_code.install()
