"""The rules constants of the 2d20 system, read once from ``dunenb.data/adventures_2d20.json``.

Every constant is stored with the place it comes from: a line of the seed text, or a design choice
naming the published core book when the seed lost the number.

>>> rule("momentum_pool_max")
6
>>> source("momentum_pool_max")
'seed line 206'
>>> rule("extra_dice_costs")
(1, 2, 3)
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from dunenb.errors import RulesDataError

RULES_FILE = "adventures_2d20.json"


@functools.cache
def rules_table() -> dict[str, dict[str, Any]]:
    """Return the whole rules table ``{id: {"value": ..., "source": ...}}`` (read once, then cached).

    >>> sorted(rules_table()["threat_start"])
    ['source', 'value']
    """
    text = (resources.files("dunenb.data") / RULES_FILE).read_text(encoding="utf-8")
    table = json.loads(text)
    for key, entry in table.items():
        if not isinstance(entry, dict) or set(entry) != {"value", "source"}:
            raise RulesDataError("rules/entry", f"{RULES_FILE}: entry {key!r} must be {{'value', 'source'}}")
        if not isinstance(entry["source"], str) or not entry["source"]:
            raise RulesDataError("rules/source", f"{RULES_FILE}: entry {key!r} has no source")
    return table


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    return value


@functools.cache
def rule(key: str) -> Any:
    """Return the value of one rules constant (lists come back as tuples, so callers cannot mutate them).

    >>> rule("threat_start")
    2
    """
    table = rules_table()
    if key not in table:
        raise RulesDataError("rules/missing", f"{RULES_FILE}: no rule {key!r}")
    return _freeze(table[key]["value"])


def source(key: str) -> str:
    """Return where a rules constant comes from (``"seed line N"`` or ``"design: ..."``).

    >>> source("extra_dice_costs").startswith("design: published 2d20 rules")
    True
    """
    rule(key)
    return str(rules_table()[key]["source"])


SKILLS: tuple[str, ...] = rule("skills")
DRIVES: tuple[str, ...] = rule("drives")
