"""Input checks shared by the 2d20 modules: every failure names the field and the allowed values.

>>> check_int("skill", 6, 4, 8)
6
>>> check_int("skill", 9, 4, 8)
Traceback (most recent call last):
...
dunenb.errors.InputError: [2d20/skill] skill must be an integer from 4 to 8, got 9
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dunenb.errors import InputError


def _code(field: str) -> str:
    return "2d20/" + field.replace(" ", "-").replace("_", "-").lstrip("-")


def check_int(field: str, value: Any, low: int, high: int | None = None) -> int:
    """Return ``value`` if it is an int in ``[low, high]`` (``high=None``: no upper bound), else raise.

    >>> check_int("quality", 0, 0)
    0
    """
    allowed = f"from {low} to {high}" if high is not None else f"of at least {low}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(_code(field), f"{field} must be an integer {allowed}, got {value!r}")
    if value < low or (high is not None and value > high):
        raise InputError(_code(field), f"{field} must be an integer {allowed}, got {value}")
    return value


def check_choice(field: str, value: Any, allowed: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``allowed``, else raise naming every allowed value.

    >>> check_choice("drive", "faith", ["duty", "faith"])
    'faith'
    """
    options = tuple(allowed)
    if value not in options:
        raise InputError(_code(field), f"{field} must be one of {', '.join(options)}; got {value!r}")
    return str(value)


def check_bool(field: str, value: Any) -> bool:
    """Return ``value`` if it is a bool, else raise.

    >>> check_bool("focus", True)
    True
    """
    if not isinstance(value, bool):
        raise InputError(_code(field), f"{field} must be true or false, got {value!r}")
    return value
