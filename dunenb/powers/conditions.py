"""Named conditions an act of ``data/powers.json`` may require (``when``), each a predicate of the hook's context.

>>> CONDITIONS["first-landing"]({"first": True}), CONDITIONS["not-double-storm"]({"double": True})
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Condition = Callable[[Mapping[str, Any]], bool]

CONDITIONS: dict[str, Condition] = {
    # GUILD-M1: the Guild's normal landing of the turn (not a Hajj landing)
    "first-landing": lambda ctx: bool(ctx.get("first", False)),
    # FREMEN-P3, STORM-15: the double storm destroys everything, "même pour le peuple Fremen"
    "not-double-storm": lambda ctx: not ctx.get("double", False),
    # battle conditions: the battle hooks (leader.value, leader.immune) evaluate these from the battle's facts in
    # dunenb.battle.powers (the leaders on the wheels, who defends); the entries here serve other callers
    "male-leader": lambda ctx: ctx.get("opponent_sex") == "male",
    "attacker": lambda ctx: bool(ctx.get("attacker", False)),
    # GUILD-M2: the battle is fought in the holder's own battle turn (it chose it and defends, BATTLE-3, BATTLE-14);
    # evaluated before the plans by dunenb.rules.pre_battle
    "defender": lambda ctx: bool(ctx.get("defender", False)),
    "not-honored-matre": lambda ctx: not ctx.get("honored_matre", True),
    "honored-matre": lambda ctx: bool(ctx.get("honored_matre", True)),
    "main-leader-leads": lambda ctx: bool(ctx.get("main_leader_leads", False)),
    "minions-alive": lambda ctx: bool(ctx.get("minions_alive", False)),
}


def holds(names: tuple[str, ...], ctx: Mapping[str, Any]) -> bool:
    """Whether every named condition holds for ``ctx``."""
    return all(CONDITIONS[name](ctx) for name in names)
