"""House powers (DESIGN.md "Powers"): one framework for every House power and main-leader power.

Each power is declared once in ``data/powers.json`` (:mod:`dunenb.powers.registry`) with its holder, where it
acts (a value **hook** or a **trigger** point), its effect kind (:mod:`dunenb.powers.effects`) and parameters, the
Karama uses that block it and its status. :func:`holder` is the one answer to "who may use this power now"
(elimination, lent powers ALLIANCE-12, a main leader's death G-7, a Karama in force: :mod:`dunenb.powers.karama`).
A rules module computes a value and asks :func:`modify` to apply every power in force at that hook; it never tests
a House name.

>>> from dunenb.engine import new_game
>>> state = new_game(["fremen", "guild"], seed=1)
>>> holder(state, "FREMEN-P1"), holds_power(state, "guild", "FREMEN-P1"), is_in_play(state, "emperor")
('fremen', False, False)
>>> modify(state, "landing.price", 5, {"house": "guild"}), modify(state, "landing.price", 5, {"house": "fremen"})
(3, 5)
>>> modify(state, "landing.payee", None, {"house": "fremen"}), modify(state, "landing.payee", None, {"house": "guild"})
('guild', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dunenb.powers.conditions import holds
from dunenb.powers.effects import EFFECTS
from dunenb.powers.holders import (
    acting_main_leader,
    active_lend,
    holder,
    holds_power,
    is_acting_main,
    is_in_play,
    main_leader_alive,
)
from dunenb.powers.registry import PowerSpec, lendable_powers, load_powers, owner, powers_at
from dunenb.state import GameState

__all__ = [
    "PowerSpec", "acting_main_leader", "active_lend", "applied", "holder", "holds_power", "is_acting_main",
    "is_in_play", "lendable_powers", "load_powers", "main_leader_alive", "modify", "owner",
]


def applied(state: GameState, hook: str, value: Any, ctx: Mapping[str, Any]) -> tuple[Any, tuple[str, ...]]:
    """:func:`modify`, also returning the IDs of the powers that acted (for the events, issue 10 item 6).

    ``ctx["house"]`` is the House whose value it is (the lander, the payer, the hand's owner...); an act with
    ``applies_to`` ``"holder"`` changes only its holder's values, ``"others"`` only the other Houses', ``"any"``
    everyone's. Powers act in file order.
    """
    acting = powers_at(hook)
    if not acting:
        return value, ()
    ids: list[str] = []
    subject = ctx.get("house")
    for spec, act in acting:
        house = holder(state, spec.id)
        if house is None:
            continue
        if act.applies_to == "holder" and subject != house or act.applies_to == "others" and subject == house:
            continue
        if act.when and not holds(act.when, ctx):
            continue
        changed = EFFECTS[act.effect](value, act.params, house, ctx)
        if changed != value:
            ids.append(spec.id)
        value = changed
    return value, tuple(ids)


def modify(state: GameState, hook: str, value: Any, ctx: Mapping[str, Any]) -> Any:
    """Apply every power in force at value hook ``hook`` (``data/powers.json``) to ``value`` and return it.

    Hooks (registry.HOOKS): ``landing.price`` (the LAND-1 price of a landing), ``landing.free`` (tokens landing
    free), ``landing.payee`` / ``revival.payee`` / ``auction.payee`` (who is paid, ``None`` = the Bank),
    ``auction.viewers``, ``hand.limit``, ``storm.losses`` (tokens a storm takes from one group), ``worm.victims``
    (Houses a worm devours), ``tokens.destroyed`` (where destroyed tokens go), ``collection.income``, and the
    battle hooks a later session fills (``leader.value``, ``token.value``, ``bounty``).
    """
    return applied(state, hook, value, ctx)[0]
