"""Lent House powers (ALLIANCE-11 "spice to buy an enemy power for 1 turn / several turns", ALLIANCE-12,
houses.md G-10): who holds a power right now.

The powers that can be lent are those this version applies in games and that make sense in other hands: the
three income powers (dunenb design, GAP-19):

* ``GUILD-P1`` landing income: spice paid for landings (LAND-1) goes to the holder;
* ``EMPEROR-P1`` auction income: spice paid for treachery cards (BID-7) goes to the holder;
* ``TLEILAX-P1`` revival income: spice paid for revivals (REVIVAL-1) goes to the holder.

The borrower "uses the power as written" (G-10): while it holds the power, payments that the text sends to the
owner go to the borrower, and the borrower's own payments go to the Bank, as the owner's own would. The owner
does not use the power meanwhile (an income cannot be paid twice). A lend states its number of turns
(ALLIANCE-12, at most :data:`MAX_LEND_TURNS`) and ends sooner when a new alliance window opens (ALLIANCE-4).
Only a power's owner lends it (a borrower may not re-lend, ALLIANCE-7). The Karama uses against a power still
apply to the borrower (G-10); this version does not model those Karama uses in games.

>>> sorted(LENDABLE_POWERS.items())[0]
('EMPEROR-P1', 'emperor')
"""

from __future__ import annotations

from dunenb.state import GameState, LentPower

LENDABLE_POWERS: dict[str, str] = {  # power id -> owning House (houses.md)
    "GUILD-P1": "guild",
    "EMPEROR-P1": "emperor",
    "TLEILAX-P1": "bene-tleilax",
}
MAX_LEND_TURNS = 5  # design: ALLIANCE-6 "limited in time"


def active_lend(state: GameState, power: str) -> LentPower | None:
    """The lend of ``power`` in force this turn, if any."""
    for lend in state.lent_powers:
        if lend.power == power and lend.first_turn <= state.turn <= lend.last_turn:
            return lend
    return None


def power_holder(state: GameState, power: str) -> str | None:
    """Who uses ``power`` now: its borrower during a lend, else its owner if in play and not eliminated, else
    ``None``.

    >>> from dunenb.engine import new_game
    >>> power_holder(new_game(["emperor", "atreides"], seed=1), "EMPEROR-P1")
    'emperor'
    """
    owner = LENDABLE_POWERS[power]
    if owner not in state.config.houses or owner in state.eliminated:
        return None
    lend = active_lend(state, power)
    return lend.borrower if lend is not None and lend.borrower not in state.eliminated else owner


def income_payee(state: GameState, power: str, payer: str) -> str | None:
    """Who receives a payment by ``payer`` under an income power: its holder, unless the holder pays itself
    (then the Bank, ``None``)."""
    holder = power_holder(state, power)
    return None if holder is None or holder == payer else holder


def expire_lends(state: GameState) -> tuple[LentPower, ...]:
    """The lends still running or to come at the current turn (ended ones dropped)."""
    return tuple(lend for lend in state.lent_powers if lend.last_turn >= state.turn)
