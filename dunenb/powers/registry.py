"""The declared House powers: ``data/powers.json`` loaded and validated once.

Each entry names a power ID of houses.md, the House that holds it (its owner), and whether an alliance deal may
lend it (ALLIANCE-12, GAP-19). A bad file raises :class:`~dunenb.errors.RulesDataError` naming the entry.

>>> owner("FREMEN-P1"), owner("TLEILAX-P1")
('fremen', 'bene-tleilax')
>>> sorted(lendable_powers().items())[0]
('EMPEROR-P1', 'emperor')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dunenb.board import read_data_file
from dunenb.errors import RulesDataError
from dunenb.ruleset import HOUSE_IDS

FORMAT = "dunenb.powers/1"
POWER_ID = re.compile(r"^[A-Z]+-[PM][0-9]+$")  # houses.md: House powers P1.., main-leader powers M1..


@dataclass(frozen=True)
class PowerSpec:
    """One declared power: its houses.md ID, the House that holds it, its name, whether it may be lent."""

    id: str
    holder: str
    name: str
    lendable: bool
    used_by: str = ""


def parse_powers(raw: Any) -> dict[str, PowerSpec]:
    """Validate the powers data (format, IDs, Houses); return the powers by ID, in file order.

    >>> parse_powers({"format": "dunenb.powers/1", "powers": [{"id": "X-P1", "holder": "nobody", "name": "x"}]})
    Traceback (most recent call last):
    ...
    dunenb.errors.RulesDataError: [powers/holder] powers[0] X-P1: holder 'nobody' is not a House; allowed: ...
    """
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise RulesDataError("powers/format", f"powers data must be an object with format {FORMAT!r}")
    found: dict[str, PowerSpec] = {}
    for index, entry in enumerate(raw.get("powers", [])):
        where = f"powers[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not POWER_ID.match(entry["id"]):
            raise RulesDataError("powers/id", f"{where}: 'id' must be a houses.md power ID such as 'FREMEN-P1'")
        where += f" {entry['id']}"
        if entry["id"] in found:
            raise RulesDataError("powers/duplicate", f"{where}: declared twice (each power is declared once)")
        if entry.get("holder") not in HOUSE_IDS:
            raise RulesDataError("powers/holder", f"{where}: holder {entry.get('holder')!r} is not a House; "
                                 f"allowed: {', '.join(HOUSE_IDS)}")
        lendable = entry.get("lendable", False)
        if not isinstance(lendable, bool):
            raise RulesDataError("powers/lendable", f"{where}: 'lendable' must be true or false")
        found[entry["id"]] = PowerSpec(entry["id"], entry["holder"], str(entry.get("name", "")), lendable,
                                       str(entry.get("used_by", "")))
    return found


@lru_cache(maxsize=1)
def load_powers() -> dict[str, PowerSpec]:
    """The shipped powers (cached)."""
    return parse_powers(read_data_file("powers.json"))


def owner(power_id: str) -> str:
    """The House that holds ``power_id`` by its sheet (houses.md), whatever the state of a game."""
    powers = load_powers()
    if power_id not in powers:
        raise RulesDataError("powers/unknown", f"power {power_id!r} is not declared in powers.json; "
                             f"declared: {', '.join(powers)}")
    return powers[power_id].holder


def lendable_powers() -> dict[str, str]:
    """The powers an alliance deal may lend (ALLIANCE-12, GAP-19), each with its owner."""
    return {p.id: p.holder for p in load_powers().values() if p.lendable}
