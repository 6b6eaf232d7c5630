"""Argument helpers shared by every ``dunenb`` subcommand: strict integers and the ``--force`` rule.

Integers are ASCII digits only (``str.isdigit`` also accepts ``²`` or ``٣``, which ``int`` refuses or reads
differently), with an optional sign, at most :data:`MAX_DIGITS` digits, inside the option's range (GAP-59).

>>> parse_int("12", "--games", low=1)
12
>>> parse_int("²", "--players", low=2, high=20, code="iron-die/argument")
Traceback (most recent call last):
...
dunenb.errors.InputError: [iron-die/argument] --players must be an integer from 2 to 20, got '²'
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable

from dunenb.errors import InputError

#: The most digits an integer argument may have (GAP-59): past every range the CLI accepts.
MAX_DIGITS = 18
_ASCII_INTEGER = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")


def shown(text: object, limit: int = 60) -> str:
    """``repr(text)``, cut to about ``limit`` characters: an error names a huge argument without echoing it.

    >>> shown("12")
    "'12'"
    >>> shown("9" * 5000)
    "'999999999999999999999999999999999999999... (5000 characters)"
    """
    text_repr = repr(text)
    if len(text_repr) <= limit:
        return text_repr
    return f"{text_repr[:40]}... ({len(str(text))} characters)"


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"an integer from {low} to {high}"
    if low is not None:
        return f"an integer >= {low}"
    return "an integer"


def parse_int(text: str | None, option: str, *, low: int | None = None, high: int | None = None,
              code: str = "cli/argument") -> int:
    """``text`` as an integer in ``low..high``; anything else raises :class:`InputError` naming the option."""
    allowed = _range_text(low, high)
    stripped = text.strip() if isinstance(text, str) else ""
    if not _ASCII_INTEGER.fullmatch(stripped):
        raise InputError(code, f"{option} must be {allowed}, got {shown(text)}")
    value = int(stripped)
    if (low is not None and value < low) or (high is not None and value > high):
        raise InputError(code, f"{option} must be {allowed}, got {value}")
    return value


def int_type(option: str, *, low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` for :func:`parse_int`: a bad value is an argparse error (``cli/usage``)."""

    def convert(text: str) -> int:
        try:
            return parse_int(text, option, low=low, high=high)
        except InputError as error:
            raise argparse.ArgumentTypeError(error.message.removeprefix(f"{option} ")) from None

    convert.__name__ = "integer"  # argparse names the type in its messages
    return convert


def refuse_existing(path: str | os.PathLike[str], force: bool, option: str, code: str = "cli/out-exists") -> None:
    """Refuse to overwrite an existing ``path`` unless ``--force`` was given (nothing is written then)."""
    if os.path.lexists(path) and not force:
        raise InputError(code, f"{option} {os.fsdecode(path)} exists; choose another path or pass --force")

