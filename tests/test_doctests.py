"""Run the ``>>>`` examples of every dunenb module (the public API's docstrings are tested, not just read)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import dunenb

MODULES = sorted(name for _, name, _ in pkgutil.walk_packages(dunenb.__path__, prefix="dunenb."))


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
