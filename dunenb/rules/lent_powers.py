"""Lent House powers (ALLIANCE-11 "spice to buy an enemy power for 1 turn / several turns", ALLIANCE-12,
houses.md G-10): who holds a power right now.

The powers that can be lent are those this version applies in games and that make sense in other hands: the
three income powers (dunenb design, GAP-19), marked ``lendable`` in ``data/powers.json``
(:mod:`dunenb.powers`, which also answers who holds a power now):

* ``GUILD-P1`` landing income: spice paid for landings (LAND-1) goes to the holder;
* ``EMPEROR-P1`` auction income: spice paid for treachery cards (BID-7) goes to the holder;
* ``TLEILAX-P1`` revival income: spice paid for revivals (REVIVAL-1) goes to the holder.

The borrower "uses the power as written" (G-10): while it holds the power, payments that the text sends to the
owner go to the borrower, and the borrower's own payments go to the Bank, as the owner's own would. The owner
does not use the power meanwhile (an income cannot be paid twice). A lend states its number of turns
(ALLIANCE-12, at most :data:`MAX_LEND_TURNS`) and ends sooner when a new alliance window opens (ALLIANCE-4).
Only a power's owner lends it (a borrower may not re-lend, ALLIANCE-7). The Karama uses against a power still
apply to the borrower (G-10): :func:`dunenb.powers.holder` answers ``None`` while one is in force (KARAMA-14,
KARAMA-36; the rules modules ask the hooks ``landing.payee``, ``auction.payee``, ``revival.payee``).

>>> sorted(LENDABLE_POWERS.items())[0]
('EMPEROR-P1', 'emperor')
"""

from __future__ import annotations

from dunenb.powers.holders import active_lend, holder
from dunenb.powers.registry import lendable_powers
from dunenb.state import GameState, LentPower

__all__ = ["LENDABLE_POWERS", "MAX_LEND_TURNS", "active_lend", "expire_lends", "income_payee", "power_holder"]

LENDABLE_POWERS: dict[str, str] = lendable_powers()  # power id -> owning House, from data/powers.json ("lendable")
MAX_LEND_TURNS = 5  # design: ALLIANCE-6 "limited in time"


def power_holder(state: GameState, power: str) -> str | None:
    """Who uses ``power`` now: :func:`dunenb.powers.holders.holder` (its borrower during a lend, else its owner
    if in play and not eliminated, else ``None``).

    >>> from dunenb.engine import new_game
    >>> power_holder(new_game(["emperor", "atreides"], seed=1), "EMPEROR-P1")
    'emperor'
    """
    return holder(state, power)


def income_payee(state: GameState, power: str, payer: str) -> str | None:
    """Who receives a payment by ``payer`` under an income power: its holder, unless the holder pays itself
    (then the Bank, ``None``)."""
    house = holder(state, power)
    return None if house is None or house == payer else house


def expire_lends(state: GameState) -> tuple[LentPower, ...]:
    """The lends still running or to come at the current turn (ended ones dropped)."""
    return tuple(lend for lend in state.lent_powers if lend.last_turn >= state.turn)
