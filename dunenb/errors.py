"""Errors raised by dunenb. Every error carries a stable machine-readable ``code``.

>>> err = IllegalActionError("move/storm-sector", "sector 3 is under the storm")
>>> err.code, str(err)
('move/storm-sector', '[move/storm-sector] sector 3 is under the storm')
"""

from __future__ import annotations


class DuneError(Exception):
    """Base class of every dunenb error; ``code`` is stable across versions (e.g. ``"save/field"``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message


class IllegalActionError(DuneError):
    """An action that the rules do not allow in this state. The state is left unchanged."""


class RulesDataError(DuneError):
    """The rules data (board, decks, houses) failed validation."""


class SaveFormatError(DuneError):
    """A saved game could not be read: the message names the field and what is allowed."""


class InputError(DuneError):
    """Bad user input (a CLI argument, a battle case, a widget value)."""
