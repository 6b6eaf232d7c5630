"""Alliance windows (ALLIANCE-1 to ALLIANCE-13, GAP-19) and the Bene Gesserit peace/war declaration (TURN-1 g,
BG-P3).

**Alliance windows.** Two worms in a row during the spice blow open an alliance window; a run of n worms opens
n-1 windows (``GameState.alliance_windows``, set by :mod:`dunenb.rules.spice`). The windows are played right
after the spice blow, before the auction (GAP-19a). Deals are binding only when made in a window (GAP-19b) and
there is no shared victory (GAP-19c: nothing here touches victory). Each window ends the clauses of the one before
(ALLIANCE-2, ALLIANCE-4, GAP-19d); since this version models immediate transfers only, an ended window leaves
nothing to undo, and the event says so.

In a window the Houses act in storm order (eliminated and outlawed Houses are skipped, ALLIANCE-5). The House to
act may make an :class:`Offer` to another House or close its part of the window with :class:`EndWindow`. An offer
is a deal between two Houses (ALLIANCE-3): the giver hands ``amount`` spice, or the treachery card ``item``, to the
receiver, who pays ``price`` spice back (ALLIANCE-11 "spice for a card chosen from a player's hand", or a gift
when the price is 0). The receiver answers with :class:`AcceptOffer` or :class:`DeclineOffer` (both Houses must
consent). Offers, answers and transfers are public events (ALLIANCE-6: "clearly defined and known to all").

Design limits (GAP-19, ALLIANCE-11):

* Only spice and treachery cards change hands. Tokens keep their House (houses.md G-1: every House owns exactly
  20), so "tokens" are not transferable; leaders changing House, lent powers (ALLIANCE-12, G-10), information,
  deferred terms (ALLIANCE-8) and multi-House bundles are not modelled: a deal with several Houses is several
  offers (ALLIANCE-9). Such deals stay table talk.
* A House may not promise what it does not have (ALLIANCE-7): the giver must hold the spice or card, and the
  receiver the price. A card may not overflow the receiver's hand (HAND-1).
* Each House makes at most :data:`MAX_OFFERS` offers per window (design), so every window ends under random play.
  The listed menu is small (spice 1/2/5; each card held, as a gift or for 2 spice); any other amount or price is
  accepted by the rule check.

**Peace and war (TURN-1 g, BG-P3).** After the harvest declarations and before the battles, if the Bene Gesserit
play and are not eliminated, they declare their tokens at peace or at war in each territory outside the North
Pole that they share with another House, one territory at a time in board order. Peace adds (BG, territory) to
``GameState.at_peace``: those tokens do not fight (:func:`dunenb.rules.battle_phase.arenas`), own nothing and do
not harvest (:mod:`dunenb.rules.collection`, which clears the list at the end of the turn). Tokens already at
peace when step g) begins (a landing in peace, BG-P2) must stay at peace. A BG army alone is at war and is not
asked. The Karama against peace (KARAMA-27) is not modelled here.

>>> MAX_OFFERS, TRANSFERABLE
(2, ('spice', 'card'))
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from dunenb.actions import Action
from dunenb.errors import IllegalActionError
from dunenb.rules import flow
from dunenb.rules.common import Handler, edit_house, event, pending, rules, storm_order, with_events
from dunenb.state import GameState

MAX_OFFERS = 2  # design: offers per House per window, so that random play always ends the window
TRANSFERABLE = ("spice", "card")  # GAP-19, houses.md G-1: tokens keep their House; leaders are not modelled
MENU_SPICE = (1, 2, 5)  # design: the listed gifts of spice
MENU_CARD_PRICE = 2  # design: the listed price of a card sold (besides the gift)
BENE_GESSERIT = "bene-gesserit"


# --- actions --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Offer(Action):
    """ALLIANCE-3, ALLIANCE-11: ``house`` offers ``receiver`` ``amount`` spice (``what="spice"``, ``item="spice"``)
    or the card ``item`` (``what="card"``, ``amount=1``), for ``price`` spice paid back by the receiver."""

    kind: ClassVar[str] = "offer"
    house: str
    receiver: str
    what: str
    item: str
    amount: int
    price: int = 0


@dataclass(frozen=True)
class AcceptOffer(Action):
    """The receiver accepts the offer on the table: both transfers happen at once (ALLIANCE-6)."""

    kind: ClassVar[str] = "accept-offer"
    house: str


@dataclass(frozen=True)
class DeclineOffer(Action):
    """The receiver declines the offer on the table: nothing changes hands (ALLIANCE-13: "No deal")."""

    kind: ClassVar[str] = "decline-offer"
    house: str


@dataclass(frozen=True)
class EndWindow(Action):
    """The House makes no more offers in this alliance window."""

    kind: ClassVar[str] = "end-window"
    house: str


@dataclass(frozen=True)
class DeclarePeace(Action):
    """BG-P3: the Bene Gesserit tokens in ``area`` are at peace this turn."""

    kind: ClassVar[str] = "peace"
    house: str
    area: str


@dataclass(frozen=True)
class DeclareWar(Action):
    """BG-P3: the Bene Gesserit tokens in ``area`` are at war this turn (they fight)."""

    kind: ClassVar[str] = "war"
    house: str
    area: str


# --- alliance windows -----------------------------------------------------------------------------------

def dealers(state: GameState) -> tuple[str, ...]:
    """The Houses that may deal, in storm order: not eliminated, not outlawed (ALLIANCE-5)."""
    return tuple(h for h in storm_order(state) if h not in state.outlawed)


def begin_phase(state: GameState) -> GameState:
    """GAP-19a: the alliance windows of this turn, right after the spice blow; none means straight on."""
    state = dataclasses.replace(state, phase="alliance")
    if state.alliance_windows <= 0:
        return flow.after_phase(state, "alliance")
    return _open_window(state, 1)


def _open_window(state: GameState, window: int) -> GameState:
    total = state.alliance_windows
    breaks = (f"; it ends the clauses of window {window - 1} (ALLIANCE-4, GAP-19d; transfers already made stand)"
              if window > 1 else "")
    state = with_events(state, event(
        "alliance-window-open", f"Alliance window {window} of {total} opens (ALLIANCE-1, GAP-19a){breaks}",
        window=window, windows=total))
    return _next_dealer(state, window, 0, 0)


def _next_dealer(state: GameState, window: int, index: int, offers: int) -> GameState:
    order = dealers(state)
    if index < len(order):
        return dataclasses.replace(state, pending=pending("alliance", order[index], window=window, index=index,
                                                          offers=offers))
    state = with_events(state, event("alliance-window-closed", f"Alliance window {window} closes",
                                     window=window))
    if window < state.alliance_windows:
        return _open_window(state, window + 1)
    state = dataclasses.replace(state, pending=None)
    return flow.after_phase(state, "alliance")


def _partners(state: GameState, house: str) -> tuple[str, ...]:
    return tuple(h for h in dealers(state) if h != house)


def window_decisions(state: GameState) -> list[Action]:
    """The menu: :class:`EndWindow` first, then a few offers to each partner (see the module)."""
    from dunenb.rules.bidding import hand_limit

    house = state.pending.actor
    options: list[Action] = [EndWindow(house)]
    if state.pending.detail["offers"] >= MAX_OFFERS:
        return options
    hs = state.houses[house]
    for partner in _partners(state, house):
        options += [Offer(house, partner, "spice", "spice", n) for n in MENU_SPICE if n <= hs.spice]
        if len(state.houses[partner].hand) >= hand_limit(state, partner):
            continue
        for card in sorted(set(hs.hand)):
            options.append(Offer(house, partner, "card", card, 1))
            if state.houses[partner].spice >= MENU_CARD_PRICE:
                options.append(Offer(house, partner, "card", card, 1, MENU_CARD_PRICE))
    return options


def check_window(state: GameState, action: Action) -> IllegalActionError | None:
    """Name what is wrong with an offer (codes ``alliance/...``), or return ``None``."""
    from dunenb.rules.bidding import hand_limit

    if not isinstance(action, Offer):
        return None if isinstance(action, EndWindow) else IllegalActionError("alliance/illegal", "not a window action")
    house, receiver = action.house, action.receiver
    if house in state.outlawed or receiver in state.outlawed:
        who = house if house in state.outlawed else receiver
        return IllegalActionError("alliance/outlawed", f"{who} used Atomics illegally: no alliance may be made with "
                                  "it (ALLIANCE-5, CARD-ATOMICS-4)")
    if receiver not in _partners(state, house):
        allowed = ", ".join(_partners(state, house)) or "none"
        return IllegalActionError("alliance/receiver", f"{receiver!r} cannot receive an offer from {house}; "
                                  f"possible: {allowed}")
    if state.pending.detail["offers"] >= MAX_OFFERS:
        return IllegalActionError("alliance/offer-cap", f"{house} has made its {MAX_OFFERS} offers in this window "
                                  "(design cap): end the window")
    if action.what not in TRANSFERABLE:
        return IllegalActionError("alliance/not-transferable", f"{action.what!r} cannot change hands in this "
                                  f"version (tokens keep their House, G-1; leaders are not modelled); "
                                  f"allowed: {', '.join(TRANSFERABLE)}")
    if action.price < 0:
        return IllegalActionError("alliance/amount", f"the price must be 0 or more, not {action.price}")
    if action.what == "spice":
        if action.item != "spice" or action.amount < 1:
            return IllegalActionError("alliance/amount", "a spice offer is 'spice' with an amount of 1 or more")
        if action.amount > state.houses[house].spice:
            return IllegalActionError("alliance/not-owned", f"{house} has {state.houses[house].spice} spice and "
                                      f"cannot promise {action.amount} (ALLIANCE-7)")
    else:
        if action.amount != 1:
            return IllegalActionError("alliance/amount", "a card offer is for exactly 1 card")
        if action.item not in state.houses[house].hand:
            return IllegalActionError("alliance/not-owned", f"{house} does not hold the card {action.item!r} and "
                                      "cannot promise it (ALLIANCE-7)")
        if len(state.houses[receiver].hand) >= hand_limit(state, receiver):
            return IllegalActionError("alliance/hand-full", f"{receiver}'s hand is full (HAND-1)")
    if action.price > state.houses[receiver].spice:
        return IllegalActionError("alliance/not-owned", f"{receiver} has {state.houses[receiver].spice} spice and "
                                  f"cannot pay {action.price} (ALLIANCE-7)")
    return None


def _describe(offer: Offer) -> str:
    given = f"{offer.amount} spice" if offer.what == "spice" else f"the card {offer.item}"
    price = f" for {offer.price} spice" if offer.price else " as a gift"
    return f"{offer.house} offers {offer.receiver} {given}{price}"


def apply_window(state: GameState, action: Action) -> GameState:
    detail = state.pending.detail
    if isinstance(action, EndWindow):
        state = with_events(state, event("alliance-end", f"{action.house} makes no more offers in window "
                                         f"{detail['window']}", house=action.house, window=detail["window"]))
        return _next_dealer(state, detail["window"], detail["index"] + 1, 0)
    assert isinstance(action, Offer)
    state = with_events(state, event("alliance-offer", f"{_describe(action)} (ALLIANCE-6: public)",
                                     house=action.house, receiver=action.receiver, what=action.what,
                                     item=action.item, amount=action.amount, price=action.price))
    return dataclasses.replace(state, pending=pending(
        "alliance-answer", action.receiver, window=detail["window"], index=detail["index"],
        offers=detail["offers"] + 1,
        offer=(action.house, action.receiver, action.what, action.item, action.amount, action.price)))


def _offer(state: GameState) -> Offer:
    return Offer(*state.pending.detail["offer"])


def answer_decisions(state: GameState) -> list[Action]:
    house = state.pending.actor
    return [AcceptOffer(house), DeclineOffer(house)]


def apply_answer(state: GameState, action: Action) -> GameState:
    detail = state.pending.detail
    offer = _offer(state)
    giver, receiver = offer.house, offer.receiver
    if isinstance(action, AcceptOffer):
        if offer.what == "spice":
            state = edit_house(state, giver, spice=state.houses[giver].spice - offer.amount)
            state = edit_house(state, receiver, spice=state.houses[receiver].spice + offer.amount)
        else:
            hand = list(state.houses[giver].hand)
            hand.remove(offer.item)
            state = edit_house(state, giver, hand=tuple(hand))
            state = edit_house(state, receiver, hand=state.houses[receiver].hand + (offer.item,))
        if offer.price:
            state = edit_house(state, receiver, spice=state.houses[receiver].spice - offer.price)
            state = edit_house(state, giver, spice=state.houses[giver].spice + offer.price)
        state = with_events(state, event(
            "alliance-deal", f"{receiver} accepts: {_describe(offer)} — done (ALLIANCE-3, binding in the window, "
            "GAP-19b)", house=giver, receiver=receiver, what=offer.what, item=offer.item, amount=offer.amount,
            price=offer.price, window=detail["window"]))
    else:
        state = with_events(state, event("alliance-declined", f"{receiver} declines: no deal", house=giver,
                                         receiver=receiver, window=detail["window"]))
    return dataclasses.replace(state, pending=pending("alliance", giver, window=detail["window"],
                                                      index=detail["index"], offers=detail["offers"]))


# --- TURN-1 g): Bene Gesserit peace and war -------------------------------------------------------------

def shared_territories(state: GameState) -> tuple[str, ...]:
    """BG-P3: territories outside the North Pole where BG tokens stand with another (not eliminated) House."""
    board = rules().board
    found = []
    for area in board.areas:
        if area.kind == "pole":
            continue
        present = {h for (h, a, _s), t in state.forces.items() if a == area.id and t.total > 0
                   and h not in state.eliminated}
        if BENE_GESSERIT in present and len(present) > 1:
            found.append(area.id)
    return tuple(found)


def begin_bg_declaration(state: GameState) -> GameState:
    """TURN-1 g): the Bene Gesserit, if in play, declare each shared army at peace or at war (BG-P3)."""
    state = dataclasses.replace(state, phase="bg-declaration")
    if BENE_GESSERIT not in state.config.houses or BENE_GESSERIT in state.eliminated:
        return flow.after_phase(state, "bg-declaration")
    return _next_territory(state, shared_territories(state), 0)


def _next_territory(state: GameState, areas: tuple[str, ...], index: int) -> GameState:
    if index < len(areas):
        return dataclasses.replace(state, pending=pending("bg-declaration", BENE_GESSERIT, areas=areas,
                                                          index=index))
    state = dataclasses.replace(state, pending=None)
    return flow.after_phase(state, "bg-declaration")


def bg_decisions(state: GameState) -> list[Action]:
    """Peace or war in the current territory; peace only if the tokens are already bound to peace (BG-P2)."""
    detail = state.pending.detail
    area = detail["areas"][detail["index"]]
    options: list[Action] = [DeclarePeace(BENE_GESSERIT, area)]
    if (BENE_GESSERIT, area) not in state.at_peace:
        options.append(DeclareWar(BENE_GESSERIT, area))
    return options


def check_bg(state: GameState, action: Action) -> IllegalActionError | None:
    detail = state.pending.detail
    area = detail["areas"][detail["index"]]
    if getattr(action, "area", None) != area:
        return IllegalActionError("peace/territory", f"the declaration now is for {area} (territories in board "
                                  f"order: {', '.join(detail['areas'])})")
    if isinstance(action, DeclareWar) and (BENE_GESSERIT, area) in state.at_peace:
        return IllegalActionError("peace/bound", f"the Bene Gesserit tokens in {area} landed in peace and must stay "
                                  "at peace (BG-P2, BG-P3)")
    return None


def apply_bg(state: GameState, action: Action) -> GameState:
    detail = state.pending.detail
    area = action.area  # type: ignore[attr-defined]
    name = rules().board.area(area).name
    if isinstance(action, DeclarePeace):
        if (BENE_GESSERIT, area) not in state.at_peace:
            state = dataclasses.replace(state, at_peace=state.at_peace + ((BENE_GESSERIT, area),))
        state = with_events(state, event("peace", f"The Bene Gesserit in {name} are at peace: they do not fight, "
                                         "own or harvest this turn (BG-P3)", house=BENE_GESSERIT, area=area))
    else:
        state = with_events(state, event("war", f"The Bene Gesserit in {name} are at war (BG-P3)",
                                         house=BENE_GESSERIT, area=area))
    return _next_territory(state, detail["areas"], detail["index"] + 1)


HANDLERS: dict[str, Handler] = {
    "alliance": Handler(apply=apply_window, decisions=window_decisions, check=check_window,
                        accepts=(Offer, EndWindow)),
    "alliance-answer": Handler(apply=apply_answer, decisions=answer_decisions),
    "bg-declaration": Handler(apply=apply_bg, decisions=bg_decisions, check=check_bg,
                              accepts=(DeclarePeace, DeclareWar)),
}
