"""One function per effect kind of ``data/powers.json`` (DESIGN.md "Powers").

A value effect takes the value a rules module computed at a hook, the act's parameters, the House that holds the
power now and the hook's context, and returns the new value. Trigger effects (``offer``, ``automatic``) change no
value: the rules module at the trigger point offers the power's action or applies it.

>>> scale(5, {"num": 1, "den": 2, "round": "up"}, "guild", {}), set_value(4, {"value": 8}, "harkonnen", {})
(3, 8)
>>> to_holder(None, {}, "guild", {}), spare_holder(("fremen", "atreides"), {}, "fremen", {})
('guild', ('atreides',))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Effect = Callable[[Any, Mapping[str, Any], str, Mapping[str, Any]], Any]


def scale(value: int, params: Mapping[str, Any], holder: str, ctx: Mapping[str, Any]) -> int:
    """``value × num ÷ den``, rounded up or down (GUILD-P2: half the landing price, rounded up; FREMEN-P3)."""
    num, den = params["num"], params["den"]
    return -((-value * num) // den) if params["round"] == "up" else (value * num) // den


def set_value(value: Any, params: Mapping[str, Any], holder: str, ctx: Mapping[str, Any]) -> Any:
    """Replace the value (HARKONNEN-P2: a hand of 8; TLEILAX-P2: destroyed tokens go to the reserve)."""
    return params["value"]


def add(value: int, params: Mapping[str, Any], holder: str, ctx: Mapping[str, Any]) -> int:
    """Add ``amount``, not below ``floor`` if given (BG-P4: 2 spice of charity)."""
    result = value + params["amount"]
    return max(result, params["floor"]) if "floor" in params else result


def add_per_living(value: int, params: Mapping[str, Any], holder: str, ctx: Mapping[str, Any]) -> int:
    """Add each amount of ``leaders`` (id -> amount) whose leader is not in ``ctx["dead"]`` (HARKONNEN-M3:
    Vladimir's +3/+2/+1 while his minions live; the battle hook applies it in :mod:`dunenb.battle.powers`)."""
    dead = ctx.get("dead", ())
    return value + sum(amount for lid, amount in params["leaders"].items() if lid not in dead)


def to_holder(value: Any, params: Mapping[str, Any], holder: str, ctx: Mapping[str, Any]) -> str:
    """The payment goes to the power's holder (the income powers EMPEROR-P1, GUILD-P1, TLEILAX-P1)."""
    return holder


def spare_holder(value: tuple[str, ...], params: Mapping[str, Any], holder: str,
                 ctx: Mapping[str, Any]) -> tuple[str, ...]:
    """The holder is left out of the victims (FREMEN-P2 a: the worm spares the Fremen)."""
    return tuple(h for h in value if h != holder)


def add_holder(value: tuple[str, ...], params: Mapping[str, Any], holder: str,
               ctx: Mapping[str, Any]) -> tuple[str, ...]:
    """The holder joins the Houses that see something (ATREIDES-P2 a: each auction card)."""
    return value if holder in value else value + (holder,)


EFFECTS: dict[str, Effect] = {
    "scale": scale, "set": set_value, "add": add, "add_per_living": add_per_living, "to_holder": to_holder,
    "spare_holder": spare_holder,
    "add_holder": add_holder,
}
