"""Run the ``>>>`` examples of every dunenb.iron_die module."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import dunenb.iron_die

MODULES = sorted(
    name for _, name, _ in pkgutil.iter_modules(dunenb.iron_die.__path__, prefix="dunenb.iron_die.")
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
