"""House powers (DESIGN.md "Powers"): one place that answers "who may use this power now".

This is the start of the powers framework. Each power is declared once, with the House that holds it, in
``data/powers.json`` (:mod:`dunenb.powers.registry`); :mod:`dunenb.powers.holders` answers, for a game state,
whether a House is still in play and who holds a power now (elimination and lent powers, ALLIANCE-12, taken
into account). Rules modules ask these helpers and never test a House name.

>>> from dunenb.engine import new_game
>>> state = new_game(["fremen", "guild"], seed=1)
>>> holder(state, "FREMEN-P1"), holds_power(state, "guild", "FREMEN-P1"), is_in_play(state, "emperor")
('fremen', False, False)
"""

from __future__ import annotations

from dunenb.powers.holders import active_lend, holder, holds_power, is_in_play
from dunenb.powers.registry import PowerSpec, lendable_powers, load_powers, owner

__all__ = [
    "PowerSpec", "active_lend", "holder", "holds_power", "is_in_play", "lendable_powers", "load_powers", "owner",
]
