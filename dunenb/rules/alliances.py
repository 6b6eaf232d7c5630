"""Alliance windows (ALLIANCE-1 to ALLIANCE-13, GAP-19) and the Bene Gesserit peace/war declaration (TURN-1 g,
BG-P3).

**Alliance windows.** Two worms in a row during the spice blow open an alliance window; a run of n worms opens
n-1 windows (``GameState.alliance_windows``, set by :mod:`dunenb.rules.spice`). The windows are played right
after the spice blow, before the auction (GAP-19a). Deals are binding only when made in a window (GAP-19b) and
there is no shared victory (GAP-19c: nothing here touches victory). Each window ends the clauses of the one before
(ALLIANCE-2, ALLIANCE-4, GAP-19d): goods still set aside for a later turn go back to their giver (see the
deferred terms below), and the event says so.

In a window the Houses act in storm order (eliminated and outlawed Houses are skipped, ALLIANCE-5). The House to
act may make an :class:`Offer` to another House or close its part of the window with :class:`EndWindow`. An offer
is a deal between two Houses (ALLIANCE-3): the giver hands over ``amount`` of ``what`` (the goods below); the
receiver gives ``price`` of ``back_what`` back at once (spice by default: ALLIANCE-11 "spice for a card / a
leader / some enemy tokens"; goods for goods is a swap, ALLIANCE-11 "on troque"; a price of 0 is a gift, as the
leader Lucille in ALLIANCE-13). The receiver answers with :class:`AcceptOffer` or :class:`DeclineOffer` (both
Houses must consent). Offers, answers and transfers are public events (ALLIANCE-6: "clearly defined and known to
all").

The goods (GAP-19, ALLIANCE-3 "powers, wealth, cards and tokens", ALLIANCE-11; dunenb design where the seed is
silent):

* ``"spice"``: ``amount`` spice (``item="spice"``).
* ``"card"``: the treachery card ``item`` (``amount=1``). It may not overflow the receiver's hand (HAND-1).
* ``"leader"``: the living leader the giver keeps under the key ``item`` (``amount=1``). He serves his new House in
  its battles; he stays the same person, so traitor slips naming him still work (TRAITOR-8) and his bounty is his
  own strength. The receiver keeps him under the key ``"owner:id"`` (:func:`dunenb.rules.traitors.leader_ref`).
  Main leaders never change hands (houses.md G-7: their death eliminates their House).
* ``"token"``: ``amount`` regular tokens from the giver's reserve (off-planet) to the receiver's, where they serve
  the receiver like its own (it lands them by the normal rules, LAND-1..7). Marked tokens keep their House (their
  strength is a House trait, G-3). ``GameState.tokens_traded`` keeps the count, so that every token stays
  accounted for (G-1: 20 per House at the start, plus received, minus given).
* ``"power"``: the House power ``item`` lent for ``amount`` turns, starting now (ALLIANCE-11 "buy an enemy power
  for 1 turn / several turns", ALLIANCE-12: the deal states the number of turns; G-10). Only the income powers the
  engine applies can be lent (:mod:`dunenb.rules.lent_powers`: GUILD-P1, EMPEROR-P1, TLEILAX-P1), only by their
  owner, and a lend ends sooner when a new window opens (ALLIANCE-4). ALLIANCE-13's "karate for 3 spice a turn"
  is this deal with a price.
* ``"revival"`` (TLEILAX-P5, only by the House holding it, to another House): the giver revives ``amount`` of the
  receiver's dead tokens (``item`` ``"regular"`` or ``"marked"``; any number, beyond REVIVAL-1's 3 a turn and
  G-3's 1 marked) into the receiver's reserve, or its dead leader ``item`` (a key of its tanks, ``amount=1``) back
  to its leaders; the price is what the deal says. It is done at the deal, never put off (GAP-77: a slower pace
  is several deals, one per window).

**Deferred terms (ALLIANCE-8).** ``delay`` (0 to :data:`MAX_DELAY` turns) puts the giver's side off to a later
turn: the goods are set aside at once (``GameState.deferred_terms``, so the promise can always be kept, ALLIANCE-6,
ALLIANCE-7) and handed over when turn ``turn + delay`` begins (:func:`deliver_terms`, called by
:func:`dunenb.engine.end_turn`); the receiver pays at once (ALLIANCE-13: "10 spice payable at once"). Whatever
its clauses, a deal is broken when a new alliance window opens (ALLIANCE-4, GAP-19d): goods still set aside then go
back to their giver and what was paid stays paid. A card handed over to a full hand goes to the discard pile
(HAND-1, GAP-27). An eliminated House's clauses end at its elimination (:func:`end_clauses`, GAP-47, GAP-51).

Design limits: powers the engine does not apply in games (the Voice, prescience, karate... see the House-powers
work) cannot be lent yet; information (ALLIANCE-11 "true, proven information") stays table talk, and so do
multi-House bundles: a deal with several Houses is several offers (ALLIANCE-9). Each House makes at most
:data:`MAX_OFFERS` offers per window (design), so every window ends under random play. The listed menu is small
(see :func:`window_decisions`); any other amount, price, swap or delay is accepted by the rule check.

**Peace and war (TURN-1 g, BG-P3).** After the harvest declarations and before the battles, if the Bene Gesserit
play and are not eliminated, they declare their tokens at peace or at war in each territory outside the North
Pole that they share with another House, one territory at a time in board order. Peace adds (BG, territory) to
``GameState.at_peace``: those tokens do not fight (:func:`dunenb.rules.battle_phase.arenas`), own nothing and do
not harvest (:mod:`dunenb.rules.collection`, which clears the list at the end of the turn). Tokens already at
peace when step g) begins (a landing in peace, BG-P2) must stay at peace. A BG army alone is at war and is not
asked. Before the first declaration, every House with a hand may play KARAMA-27 (GAP-63; the Bene Gesserit too,
on themselves, L1563): then no peace is declared this turn and every BG token fights, those bound to peace by a
landing (BG-P2) included (the BG's entries of ``at_peace`` are dropped).

>>> MAX_OFFERS, TRANSFERABLE, MAX_DELAY
(2, ('spice', 'card', 'leader', 'token', 'power', 'revival'), 5)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from dunenb.actions import Action, menu_maker
from dunenb.errors import IllegalActionError
from dunenb.powers import holder, owner
from dunenb.powers.holders import acting_main_leader
from dunenb.powers.karama import is_suppressed
from dunenb.powers.registry import offered_by
from dunenb.powers.registry import power as power_spec
from dunenb.rules import flow
from dunenb.rules.bidding import hand_limit
from dunenb.rules.common import Handler, Pledge, edit_house, event, pending, rules, storm_order, with_events
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.rules.lent_powers import LENDABLE_POWERS, MAX_LEND_TURNS, expire_lends, power_holder
from dunenb.rules.traitors import LEADER_KEY_SEPARATOR, leader_key, leader_of, leader_ref
from dunenb.state import DeferredTerm, GameState, LentPower, Tokens, evolve

MAX_OFFERS = 2  # design: offers per House per window, so that random play always ends the window
TRANSFERABLE = ("spice", "card", "leader", "token", "power", "revival")  # GAP-19, ALLIANCE-3/11/12, TLEILAX-P5
MAX_DELAY = 5  # design: ALLIANCE-6 "limited in time"; a term is put off by at most 5 turns (ALLIANCE-8)
MENU_SPICE = (1, 2, 5)  # design: the listed gifts of spice
MENU_CARD_PRICE = 2  # design: the listed price of a card sold (besides the gift)
MENU_LEADER_PRICE = 3  # design: the listed price of a leader sold (besides the gift)
MENU_TOKENS = 2  # design: the listed number of tokens sold, for 1 spice each (or given)
MENU_POWER_PRICE = 3  # design: the listed price of a power lent for 1 turn (ALLIANCE-13: karate, 3 a turn)
MENU_REVIVAL = 4  # design: the listed number of dead tokens revived by the Tleilax (L1919: 4 a turn), 2 spice each
MENU_REVIVAL_PRICE = 2  # design: the listed price per token revived (L1919: 12 tokens for 8 spice; REVIVAL-1: 1)


# --- actions --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Offer(Action):
    """ALLIANCE-3, ALLIANCE-8, ALLIANCE-11: ``house`` offers ``receiver`` ``amount`` of ``what`` (``item`` names
    the card or the leader's key; ``"spice"`` or ``"regular"`` otherwise), handed over ``delay`` turns later, for
    ``price`` of ``back_what`` (``back_item``) given back at once by the receiver.

    >>> Offer("bene-gesserit", "atreides", "leader", "lucille", 1, price=4).to_dict()["back_what"]
    'spice'
    """

    kind: ClassVar[str] = "offer"
    house: str
    receiver: str
    what: str
    item: str
    amount: int
    price: int = 0
    delay: int = 0
    back_what: str = "spice"
    back_item: str = "spice"


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
    state = evolve(state, phase="alliance")
    if state.alliance_windows <= 0:
        return flow.after_phase(state, "alliance")
    return _open_window(state, 1)


def begin_chance_windows(state: GameState, first: int) -> GameState:
    """ALLIANCE-1 "or when certain Chance cards say so", GAP-19a: windows ``first`` to ``alliance_windows``,
    opened by Chance cards at step h), are played at once; the turn then goes on with the battles."""
    return _open_window(evolve(state, phase="alliance"), first, resume="chance-cards")


def _open_window(state: GameState, window: int, resume: str = "alliance") -> GameState:
    total = state.alliance_windows
    state = break_terms(evolve(state, windows_opened=state.windows_opened + 1))
    breaks = (f"; it ends the clauses of window {window - 1} (ALLIANCE-4, GAP-19d; transfers already made stand)"
              if window > 1 else "")
    state = with_events(state, event(
        "alliance-window-open", f"Alliance window {window} of {total} opens (ALLIANCE-1, GAP-19a){breaks}",
        window=window, windows=total))
    return _next_dealer(state, window, 0, 0, resume)


def _next_dealer(state: GameState, window: int, index: int, offers: int, resume: str) -> GameState:
    """``resume``: the phase the windows follow (``"alliance"`` after the spice blow, ``"chance-cards"``)."""
    order = dealers(state)
    if index < len(order):
        return evolve(state, pending=pending("alliance", order[index], window=window, index=index,
                                             offers=offers, resume=resume))
    state = with_events(state, event("alliance-window-closed", f"Alliance window {window} closes",
                                     window=window))
    if window < state.alliance_windows:
        return _open_window(state, window + 1, resume)
    state = evolve(state, pending=None)
    return flow.after_phase(state, resume)


def _partners(state: GameState, house: str) -> tuple[str, ...]:
    return tuple(h for h in dealers(state) if h != house)


def _tradeable_leaders(state: GameState, house: str) -> tuple[str, ...]:
    """The keys of ``house``'s living leaders who may change hands: every one but a main leader (G-7) and a
    captured leader (HARKONNEN-P4: he is a prisoner, not a good; GAP-77). A successor in his main leader's place
    is the main leader (G-7, GAP-88)."""
    return _tradeable(house, state.houses[house].leaders, acting_main_leader(state, house), state.captured)


@functools.lru_cache(maxsize=1024)
def _tradeable(house: str, leaders: tuple[str, ...], acting: str | None,
               captured: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """:func:`_tradeable_leaders` as a pure function of the facts it reads (issue 14: the roster lookups of each
    leader are made once for these facts, not at every listing of an alliance window)."""
    return tuple(key for key in leaders if not leader_of(house, key).main
                 and key != acting and leader_ref(house, key) not in captured)


def owned_powers(state: GameState, house: str) -> tuple[str, ...]:
    """The lendable powers ``house`` owns and holds now (not lent out, ALLIANCE-7)."""
    return tuple(p for p, owner in LENDABLE_POWERS.items() if owner == house and power_holder(state, p) == house)


#: The offers of the menu, built once each (issue 14 item 4): an offer is a value, and a House making several
#: offers in a window, or the same Houses in the next window, is listed the same offers again; building each anew
#: (with its field checks) made the alliance window the dearest menu of a bot game.
_menu_offer = functools.lru_cache(maxsize=4096, typed=True)(Offer)
_menu_end_window = menu_maker(EndWindow, 64)  # issue 14: the answers of every window, built once a House
_menu_accept = menu_maker(AcceptOffer, 64)
_menu_decline = menu_maker(DeclineOffer, 64)


def window_decisions(state: GameState) -> list[Action]:
    """The menu: :class:`EndWindow` first, then a few offers to each partner: spice gifts (1, 2, 5, and 5 next
    turn), each card and each non-main leader held (as a gift or for 2 and 3 spice), 2 reserve tokens (as a gift
    or for 2 spice)."""
    assert state.pending is not None
    house = state.pending.actor
    options: list[Action] = [_menu_end_window(house)]
    if state.pending.detail["offers"] >= MAX_OFFERS:
        return options
    hs = state.houses[house]
    # issue 14: what the House can give is the same for every partner, so it is looked up once
    cards, leaders, powers = tuple(sorted(set(hs.hand))), _tradeable_leaders(state, house), owned_powers(state, house)
    reviver = holder(state, revival_power()) == house  # issue 14: asked once, not for each partner
    for partner in _partners(state, house):
        their_spice = state.houses[partner].spice
        room = bool(cards) and len(state.houses[partner].hand) < hand_limit(state, partner)
        # issue 14: the offers read the two purses only through the listed sums and prices, so each is capped at
        # the largest of them (the same comparisons, the same offers): purses that differ above it share a cache
        options += _goods_offers(house, partner, min(hs.spice, _SPICE_READ), cards if room else (), leaders, powers,
                                 min(their_spice, _PRICE_READ))
        if reviver:
            options += _revival_offers(state, house, partner)
        if hs.reserve.regular >= MENU_TOKENS:
            options.append(_menu_offer(house, partner, "token", "regular", MENU_TOKENS))
            if their_spice >= MENU_TOKENS:
                options.append(_menu_offer(house, partner, "token", "regular", MENU_TOKENS, MENU_TOKENS))
    return options


#: The largest spice sum and the largest price :func:`_goods_offers` compares a purse with (issue 14).
_SPICE_READ = max(MENU_SPICE)
_PRICE_READ = max(MENU_CARD_PRICE, MENU_LEADER_PRICE, MENU_POWER_PRICE)


def _goods_offers(house: str, partner: str, spice: int, cards: tuple[str, ...], leaders: tuple[str, ...],
                  powers: tuple[str, ...], their_spice: int) -> tuple[Action, ...]:
    """The menu's offers of ``house`` to ``partner`` of spice, cards (``cards``: those it may give now), leaders and
    powers, a pure function of these facts (issue 14 item 4: a window lists the same offers again and again; each
    kind of goods is cached on the facts it reads, so a change of hand does not rebuild the spice offers)."""
    return (_spice_offers(house, partner, spice)
            + _item_offers(house, partner, "card", cards, their_spice >= MENU_CARD_PRICE, MENU_CARD_PRICE)
            + _item_offers(house, partner, "leader", leaders, their_spice >= MENU_LEADER_PRICE, MENU_LEADER_PRICE)
            + _item_offers(house, partner, "power", powers, their_spice >= MENU_POWER_PRICE, MENU_POWER_PRICE))


@functools.lru_cache(maxsize=1024)
def _spice_offers(house: str, partner: str, spice: int) -> tuple[Action, ...]:
    """The spice gifts listed (1, 2, 5, and 5 next turn, ALLIANCE-8) for a giver with ``spice``."""
    options: list[Action] = [_menu_offer(house, partner, "spice", "spice", n) for n in MENU_SPICE if n <= spice]
    if MENU_SPICE[-1] <= spice:
        options.append(_menu_offer(house, partner, "spice", "spice", MENU_SPICE[-1], delay=1))  # ALLIANCE-8
    return tuple(options)


@functools.lru_cache(maxsize=4096)
def _item_offers(house: str, partner: str, what: str, items: tuple[str, ...], sold: bool,
                 price: int) -> tuple[Action, ...]:
    """Each of ``items`` (cards, leaders or powers) as a gift and, if the partner can pay (``sold``), for
    ``price`` spice."""
    options: list[Action] = []
    for item in items:
        options.append(_menu_offer(house, partner, what, item, 1))
        if sold:
            options.append(_menu_offer(house, partner, what, item, 1, price))
    return tuple(options)


def revival_power() -> str:
    """The power whose holder may revive other Houses' dead in a deal (TLEILAX-P5, read from powers.json)."""
    return offered_by("deal", "revive-others")


def _revival_offers(state: GameState, house: str, partner: str) -> list[Action]:
    """TLEILAX-P5 in the menu: up to 4 of the partner's dead regular tokens for 2 spice each, and each of its
    dead leaders for 3 spice, when the partner can pay."""
    if holder(state, revival_power()) != house:
        return []
    ps = state.houses[partner]
    count = min(MENU_REVIVAL, ps.tanks.regular, ps.spice // MENU_REVIVAL_PRICE)
    offers: list[Action] = []
    if count:
        offers.append(Offer(house, partner, "revival", "regular", count, MENU_REVIVAL_PRICE * count))
    if ps.spice >= MENU_LEADER_PRICE:
        offers += [Offer(house, partner, "revival", key, 1, MENU_LEADER_PRICE) for key in ps.leader_tanks]
    return offers


def _check_revival(state: GameState, giver: str, receiver: str, item: str, amount: int,
                   delay: int) -> IllegalActionError | None:
    """TLEILAX-P5: only its holder revives, another House's dead, at the deal (GAP-77)."""
    power_id = revival_power()
    if holder(state, power_id) != giver:
        return IllegalActionError("alliance/power", f"{giver} does not hold {power_id}: only its holder revives "
                                  "another House's dead in a deal")
    if receiver == giver:
        return IllegalActionError("alliance/revival-own", f"{power_id} revives another House's dead")
    if delay:
        return IllegalActionError("alliance/delay", "a revival is done at the deal (no delay, GAP-77)")
    tanks = state.houses[receiver]
    if item in ("regular", "marked"):
        dead = tanks.tanks.regular if item == "regular" else tanks.tanks.marked
        if not 1 <= amount <= dead:
            return IllegalActionError("alliance/amount", f"{receiver} has {dead} dead {item} token(s); a revival "
                                      f"names 1 to {dead}")
        return None
    if item not in tanks.leader_tanks or amount != 1:
        return IllegalActionError("alliance/not-owned", f"{item!r}: a revival names 'regular', 'marked' or one of "
                                  f"{receiver}'s dead leaders ({', '.join(tanks.leader_tanks) or 'none'}), "
                                  "amount 1")
    return None


def check_goods(state: GameState, giver: str, receiver: str, what: str, item: str, amount: int, *,
                delay: int = 0, field: str = "what") -> IllegalActionError | None:
    """Name what is wrong with ``giver`` handing ``amount`` of ``what`` (``item``) to ``receiver`` (codes
    ``alliance/...``; ALLIANCE-7: nobody promises what it does not have), or return ``None``."""
    hs = state.houses[giver]
    if what not in TRANSFERABLE:
        return IllegalActionError("alliance/not-transferable", f"{field} {what!r} cannot change hands; allowed: "
                                  f"{', '.join(TRANSFERABLE)} (ALLIANCE-3, GAP-19)")
    if what == "revival":
        return _check_revival(state, giver, receiver, item, amount, delay)
    if what == "spice":
        if item != "spice" or amount < 1:
            return IllegalActionError("alliance/amount", "spice is offered as 'spice' with an amount of 1 or more")
        if amount > hs.spice:
            return IllegalActionError("alliance/not-owned", f"{giver} has {hs.spice} spice and cannot promise "
                                      f"{amount} (ALLIANCE-7)")
    elif what == "power":
        if item not in LENDABLE_POWERS:
            return IllegalActionError("alliance/power", f"{item!r} cannot be lent; lendable powers: "
                                      f"{', '.join(LENDABLE_POWERS)} (ALLIANCE-12, GAP-19)")
        if item not in owned_powers(state, giver):
            return IllegalActionError("alliance/not-owned", f"{giver} does not hold {item} now and cannot lend it "
                                      "(ALLIANCE-7: only its owner lends a power, and not twice at once)")
        if not 1 <= amount <= MAX_LEND_TURNS:
            return IllegalActionError("alliance/amount", f"a power is lent for 1 to {MAX_LEND_TURNS} turns "
                                      f"(ALLIANCE-12: the deal states them), not {amount}")
        if delay:
            return IllegalActionError("alliance/delay", "a power is lent from the deal on (no delay)")
    elif what == "token":
        if item != "regular" or amount < 1:
            return IllegalActionError("alliance/amount", "tokens are offered as 'regular' with an amount of 1 or "
                                      "more (marked tokens keep their House, GAP-19)")
        if amount > hs.reserve.regular:
            return IllegalActionError("alliance/not-owned", f"{giver} has {hs.reserve.regular} regular token(s) in "
                                      f"its reserve and cannot promise {amount} (ALLIANCE-7; tokens change hands "
                                      "off-planet, GAP-19)")
    else:
        if amount != 1:
            return IllegalActionError("alliance/amount", f"a {what} is offered one at a time (amount 1)")
        if what == "card":
            if item not in hs.hand:
                return IllegalActionError("alliance/not-owned", f"{giver} does not hold the card {item!r} and "
                                          "cannot promise it (ALLIANCE-7)")
            if delay == 0 and len(state.houses[receiver].hand) >= hand_limit(state, receiver):
                return IllegalActionError("alliance/hand-full", f"{receiver}'s hand is full (HAND-1)")
        else:
            if item not in hs.leaders:
                held = ", ".join(hs.leaders) or "none"
                return IllegalActionError("alliance/not-owned", f"{giver} has no living leader {item!r} to promise "
                                          f"(ALLIANCE-7); its leaders: {held}")
            if leader_of(giver, item).main or item == acting_main_leader(state, giver):  # G-7, GAP-88
                return IllegalActionError("alliance/main-leader", f"{item} is {giver}'s main leader: main leaders "
                                          "never change hands (houses.md G-7)")
            if leader_ref(giver, item) in state.captured:
                return IllegalActionError("alliance/captive", f"{item} is a captured leader (HARKONNEN-P4): a "
                                          "prisoner is not a good to trade (GAP-77)")
    return None


def check_window(state: GameState, action: Action) -> IllegalActionError | None:
    """Name what is wrong with an offer (codes ``alliance/...``), or return ``None``."""
    assert state.pending is not None
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
    if not 0 <= action.delay <= MAX_DELAY:
        return IllegalActionError("alliance/delay", f"delay must be 0 to {MAX_DELAY} turns (ALLIANCE-6, "
                                  f"ALLIANCE-8), not {action.delay}")
    error = check_goods(state, house, receiver, action.what, action.item, action.amount, delay=action.delay)
    if error is not None:
        return error
    if action.price < 0:
        return IllegalActionError("alliance/amount", f"the price must be 0 or more, not {action.price}")
    if action.price == 0:
        if (action.back_what, action.back_item) != ("spice", "spice"):
            return IllegalActionError("alliance/amount", "a swap names a price of 1 or more in its back_what")
        return None
    return check_goods(state, receiver, house, action.back_what, action.back_item, action.price, field="back_what")


def _dead(item: str, amount: int) -> str:
    return f"{amount} dead {item} token(s)" if item in ("regular", "marked") else f"the dead leader {item}"


def _goods(what: str, item: str, amount: int) -> str:
    if what == "spice":
        return f"{amount} spice"
    if what == "token":
        return f"{amount} token(s)"
    if what == "power":
        return f"the power {item} for {amount} turn(s) (ALLIANCE-12)"
    if what == "revival":
        return f"the revival of {_dead(item, amount)} (TLEILAX-P5)"
    if what == "leader":
        owner, sep, leader_id = item.partition(LEADER_KEY_SEPARATOR)
        return f"the leader {leader_id} (of {owner})" if sep else f"the leader {item}"
    return f"the card {item}"


def _describe(offer: Offer) -> str:
    given = _goods(offer.what, offer.item, offer.amount)
    later = f", handed over in {offer.delay} turn(s) (ALLIANCE-8)" if offer.delay else ""
    price = f" for {_goods(offer.back_what, offer.back_item, offer.price)}" if offer.price else " as a gift"
    return f"{offer.house} offers {offer.receiver} {given}{later}{price}"


def apply_window(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    if isinstance(action, EndWindow):
        state = with_events(state, event("alliance-end", f"{action.house} makes no more offers in window "
                                         f"{detail['window']}", house=action.house, window=detail["window"]))
        return _next_dealer(state, detail["window"], detail["index"] + 1, 0, detail["resume"])
    assert isinstance(action, Offer)
    state = with_events(state, event("alliance-offer", f"{_describe(action)} (ALLIANCE-6: public)",
                                     house=action.house, receiver=action.receiver, what=action.what,
                                     item=action.item, amount=action.amount, price=action.price, delay=action.delay,
                                     back_what=action.back_what, back_item=action.back_item))
    return evolve(state, pending=pending(
        "alliance-answer", action.receiver, window=detail["window"], index=detail["index"],
        offers=detail["offers"] + 1, offer=tuple(getattr(action, name) for name in _OFFER_FIELDS),
        resume=detail["resume"]))


_OFFER_FIELDS = tuple(f.name for f in dataclasses.fields(Offer))  # issue 14: read once, in field order


def pending_offer(state: GameState) -> Offer:
    """The offer on the table at an ``alliance-answer`` node."""
    assert state.pending is not None
    fields = state.pending.detail["offer"]
    try:  # issue 14: the listed offer is asked again at its answer (its pledge, its apply): one object serves them
        return _menu_offer(*fields)
    except TypeError:  # an unhashable field: built, and checked, as before (its error raised by Offer itself)
        return Offer(*fields)



def answer_pledge(state: GameState, house: str) -> Pledge:
    """GAP-57: the House answering an offer keeps the price asked of it (spice or a card) while it answers."""
    try:
        offer = pending_offer(state)
    except TypeError:  # a malformed offer (a hand-built node) promises nothing readable
        return Pledge()
    if not offer.price:
        return Pledge()
    if offer.back_what == "spice":
        return Pledge(spice=offer.price)
    return Pledge(cards=(offer.back_item,)) if offer.back_what == "card" else Pledge()


def answer_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    house = state.pending.actor
    return [_menu_accept(house), _menu_decline(house)]


# --- moving goods ----------------------------------------------------------------------------------------

def take_goods(state: GameState, house: str, what: str, item: str, amount: int) -> GameState:
    """Remove goods from ``house`` (checked beforehand by :func:`check_goods`)."""
    hs = state.houses[house]
    if what in ("power", "revival"):
        return state  # lent or done by the giver, not taken: see give_goods
    if what == "spice":
        return edit_house(state, house, spice=hs.spice - amount)
    if what == "card":
        hand = list(hs.hand)
        hand.remove(item)
        return edit_house(state, house, hand=tuple(hand))
    if what == "leader":
        return edit_house(state, house, leaders=tuple(key for key in hs.leaders if key != item))
    return edit_house(state, house, reserve=hs.reserve - Tokens(regular=amount))


def give_goods(state: GameState, house: str, what: str, item: str, amount: int, *, source: str) -> GameState:
    """Add goods taken from ``source`` to ``house``. ``item`` of a leader is ``source``'s key for him; a card
    that would overflow the hand goes to the discard pile (HAND-1, GAP-27)."""
    hs = state.houses[house]
    if what == "revival":  # TLEILAX-P5: the receiver's dead come back
        if item in ("regular", "marked"):
            back = Tokens(amount, 0) if item == "regular" else Tokens(0, amount)
            state = edit_house(state, house, tanks=hs.tanks - back, reserve=hs.reserve + back)
        else:
            state = edit_house(state, house, leader_tanks=tuple(k for k in hs.leader_tanks if k != item),
                               leaders=hs.leaders + (item,))
        return with_events(state, event("revived-by-deal", f"{source} revive {_dead(item, amount)} of {house} "
                                        f"({revival_power()})", house=house, by=source, item=item,
                                        amount=amount, powers=(revival_power(),)))
    if what == "power":
        lend = LentPower(item, source, house, state.turn, state.turn + amount - 1, state.windows_opened)
        return evolve(state, lent_powers=state.lent_powers + (lend,))
    if what == "spice":
        return edit_house(state, house, spice=hs.spice + amount)
    if what == "card":
        if len(hs.hand) >= hand_limit(state, house):
            state = with_events(state, event("card-discarded", f"{house}'s hand is full: the card {item} goes to "
                                             "the discard pile (HAND-1, GAP-27)", house=house, card=item))
            return evolve(state, treachery_discard=state.treachery_discard + (item,))
        return edit_house(state, house, hand=hs.hand + (item,))
    if what == "leader":
        return edit_house(state, house, leaders=hs.leaders + (leader_key(house, *leader_ref(source, item)),))
    if source != house:
        traded = state.tokens_traded
        traded = traded.set(source, traded.get(source, 0) - amount).set(house, traded.get(house, 0) + amount)
        state = evolve(state, tokens_traded=traded)
    return edit_house(state, house, reserve=state.houses[house].reserve + Tokens(regular=amount))


def transfer(state: GameState, giver: str, receiver: str, what: str, item: str, amount: int) -> GameState:
    """Hand goods from ``giver`` to ``receiver`` now."""
    return give_goods(take_goods(state, giver, what, item, amount), receiver, what, item, amount, source=giver)


def apply_answer(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    offer = pending_offer(state)
    giver, receiver = offer.house, offer.receiver
    if isinstance(action, AcceptOffer):
        if offer.delay:
            state = take_goods(state, giver, offer.what, offer.item, offer.amount)
            item = LEADER_KEY_SEPARATOR.join(leader_ref(giver, offer.item)) if offer.what == "leader" else offer.item
            term = DeferredTerm(giver, receiver, offer.what, item, offer.amount, state.turn + offer.delay,
                                state.windows_opened)
            state = evolve(state, deferred_terms=state.deferred_terms + (term,))
        else:
            state = transfer(state, giver, receiver, offer.what, offer.item, offer.amount)
        if offer.price:
            state = transfer(state, receiver, giver, offer.back_what, offer.back_item, offer.price)
        state = with_events(state, event(
            "alliance-deal", f"{receiver} accepts: {_describe(offer)} — done (ALLIANCE-3, binding in the window, "
            "GAP-19b)", house=giver, receiver=receiver, what=offer.what, item=offer.item, amount=offer.amount,
            price=offer.price, delay=offer.delay, back_what=offer.back_what, back_item=offer.back_item,
            window=detail["window"]))
    else:
        state = with_events(state, event("alliance-declined", f"{receiver} declines: no deal", house=giver,
                                         receiver=receiver, window=detail["window"]))
    return evolve(state, pending=pending("alliance", giver, window=detail["window"], index=detail["index"],
                                         offers=detail["offers"], resume=detail["resume"]))


# --- ALLIANCE-8 and ALLIANCE-4: deferred terms --------------------------------------------------------------

def _release(state: GameState, term: DeferredTerm, to: str) -> GameState:
    item = term.item
    if term.what == "leader":
        owner, leader_id = leader_ref(term.giver, item)
        item = leader_key(term.giver, owner, leader_id)  # give_goods reads the key as the giver's
    return give_goods(state, to, term.what, item, term.amount, source=term.giver)


def deliver_terms(state: GameState) -> GameState:
    """ALLIANCE-8: hand over the goods due this turn (called when a turn begins). ALLIANCE-12: powers lent for
    turns now over return to their owner."""
    for lend in state.lent_powers:
        if lend.last_turn < state.turn:
            state = with_events(state, event("power-returned", f"{lend.power} lent to {lend.borrower} returns to "
                                             f"{lend.owner}: its turns are over (ALLIANCE-12)", house=lend.owner,
                                             borrower=lend.borrower, power=lend.power))
    state = evolve(state, lent_powers=expire_lends(state))
    due = tuple(t for t in state.deferred_terms if t.due_turn <= state.turn)
    if not due:
        return state
    state = evolve(state, deferred_terms=tuple(t for t in state.deferred_terms if t.due_turn > state.turn))
    for term in due:  # an eliminated party's terms were ended at its elimination (end_clauses, GAP-51)
        state = _release(state, term, term.receiver)
        text = (f"{term.giver} hands {_goods(term.what, term.item, term.amount)} over to {term.receiver}, as agreed "
                "(ALLIANCE-8)")
        state = with_events(state, event("alliance-term-delivered", text, house=term.giver, receiver=term.receiver,
                                         what=term.what, item=term.item, amount=term.amount))
    return state


def _end_deals(state: GameState, *, ends_lend: Callable[[LentPower], bool], lend_text: Callable[[LentPower], str],
               ends_term: Callable[[DeferredTerm], bool], term_kind: str,
               term_text: Callable[[DeferredTerm], str], **term_fields: object) -> GameState:
    """The one way deals end before their time (ALLIANCE-4/5, GAP-19d, GAP-47/51, GAP-55c): each lent power that
    ``ends_lend`` picks returns to its owner, and the goods of each deferred term that ``ends_term`` picks go back
    to their giver (what was paid stays paid), each with a public event."""
    for lend in state.lent_powers:
        if ends_lend(lend):
            state = with_events(state, event("power-returned", lend_text(lend), house=lend.owner,
                                             borrower=lend.borrower, power=lend.power))
    state = evolve(state, lent_powers=tuple(x for x in state.lent_powers if not ends_lend(x)))
    ended = tuple(t for t in state.deferred_terms if ends_term(t))
    if not ended:
        return state
    state = evolve(state, deferred_terms=tuple(t for t in state.deferred_terms if t not in ended))
    for term in ended:
        state = _release(state, term, term.giver)
        state = with_events(state, event(term_kind, term_text(term), house=term.giver, receiver=term.receiver,
                                         what=term.what, item=term.item, amount=term.amount, **term_fields))
    return state


def break_terms(state: GameState) -> GameState:
    """ALLIANCE-4, GAP-19d: a new alliance window breaks the clauses of the earlier deals: goods still set aside
    go back to their giver and lent powers to their owner (what was paid stays paid)."""
    opened = state.windows_opened
    return _end_deals(
        state, ends_lend=lambda lend: lend.window < opened,
        lend_text=lambda lend: (f"A new alliance ends the lend of {lend.power} to {lend.borrower}: it returns to "
                                f"{lend.owner} (ALLIANCE-4)"),
        ends_term=lambda term: term.window < opened, term_kind="alliance-term-broken",
        term_text=lambda term: (f"A new alliance breaks the deal of {term.giver} with {term.receiver}: "
                                f"{_goods(term.what, term.item, term.amount)} go back to {term.giver} (ALLIANCE-4)"))


def end_clauses(state: GameState, house: str) -> GameState:
    """GAP-47, GAP-51: ``house`` is being eliminated: its alliance clauses end now, as a new window would end them
    (ALLIANCE-4), and what was paid stays paid.

    * Goods it promised for a later turn are never delivered: they go back to it at once, and then follow its own
      goods under GAP-47 (spice to the Bank, a card to the discard pile, tokens and leaders out of play with it).
      Call this before the rest of the elimination clean-up, which does that.
    * Goods promised to it go back to their giver at once (not at the due turn).
    * Powers it lent or borrowed return to their owner (ALLIANCE-12; an eliminated owner's power is nobody's,
      :func:`dunenb.powers.holder`).
    """
    def text(term: DeferredTerm) -> str:
        goods = _goods(term.what, term.item, term.amount)
        if term.giver == house:
            return (f"{house} is eliminated: its promise of {goods} to {term.receiver} ends undelivered; the goods "
                    "go back to it and leave the game with it (GAP-47, GAP-51)")
        return f"{house} is eliminated: {goods} promised to it go back to {term.giver} (GAP-47, GAP-51)"

    return _end_deals(
        state, ends_lend=lambda lend: house in (lend.owner, lend.borrower),
        lend_text=lambda lend: (f"{house} is eliminated: the lend of {lend.power} to {lend.borrower} ends "
                                "(GAP-47, GAP-51)"),
        ends_term=lambda term: house in (term.giver, term.receiver), term_kind="alliance-term-ended",
        term_text=text, eliminated=house)


def outlaw(state: GameState, house: str, *, cause: str) -> GameState:
    """CARD-ATOMICS-4, ALLIANCE-5, GAP-29c, GAP-55c: flag ``house`` as outlawed. No alliance may be made with it,
    and the deals it is in end at once, as a new alliance would end them (ALLIANCE-4): lent powers go back to
    their owner, goods still set aside go back to their giver (what was paid stays paid). It may no longer buy
    treachery cards (:func:`dunenb.rules.bidding.bid_limit`) and no other House can win while it is in the game
    (VICTORY-4, :func:`dunenb.rules.collection.decide_winner`)."""
    if house in state.outlawed:
        return state
    state = evolve(state, outlawed=state.outlawed + (house,))
    state = with_events(state, event("outlawed", f"{house} {cause}: outlawed; no alliance with it, no treachery "
                                     "card for it, no victory for anyone while it plays (CARD-ATOMICS-4, GAP-29c, "
                                     "GAP-55c)", house=house))
    return _end_deals(
        state, ends_lend=lambda lend: house in (lend.owner, lend.borrower),
        lend_text=lambda lend: (f"The lend of {lend.power} to {lend.borrower} ends: it returns to {lend.owner} "
                                "(ALLIANCE-5)"),
        ends_term=lambda term: house in (term.giver, term.receiver), term_kind="alliance-term-broken",
        term_text=lambda term: (f"The deal of {term.giver} with {term.receiver} ends (ALLIANCE-5): "
                                f"{_goods(term.what, term.item, term.amount)} go back to {term.giver}"))


# --- TURN-1 g): Bene Gesserit peace and war -------------------------------------------------------------

def shared_territories(state: GameState, house: str | None = None) -> tuple[str, ...]:
    """BG-P3: territories outside the North Pole where ``house``'s tokens (by default the holder of BG-P3) stand
    with another (not eliminated) House."""
    house = house or holder(state, "BG-P3")
    board = rules().board
    found = []
    for area in board.areas:
        if area.kind == "pole":
            continue
        present = {h for (h, a, _s), t in state.forces.items() if a == area.id and t.total > 0
                   and h not in state.eliminated}
        if house in present and len(present) > 1:
            found.append(area.id)
    return tuple(found)


PEACE = "BG-P3"  # its holder declares peace or war in step g) (data/powers.json)


def begin_bg_declaration(state: GameState) -> GameState:
    """TURN-1 g): the Bene Gesserit, if in play, declare each shared army at peace or at war (BG-P3); before
    that, the Karama against peace (KARAMA-27) is asked where there is something to declare (GAP-63)."""
    state = evolve(state, phase="bg-declaration")
    bg = holder(state, PEACE)  # None: the BG not in play or eliminated (data/powers.json)
    if bg is None or not shared_territories(state, bg):
        return _declarations(state)
    uses = tuple(use.id for use in power_spec(PEACE).karama if use.moment == "peace-declaration")
    return open_window(state, uses, "bg-declaration")


def _declarations(state: GameState, data: object = None) -> GameState:
    bg = holder(state, PEACE)
    if bg is None:
        bound = owner(PEACE)
        if is_suppressed(state, PEACE) and any(h == bound for h, _a in state.at_peace):  # KARAMA-27: all fight
            state = evolve(state, at_peace=tuple(p for p in state.at_peace if p[0] != bound))
            state = with_events(state, event("peace-blocked", "KARAMA-27: no peace this turn; every Bene Gesserit "
                                             "token fights, those landed in peace too", house=bound, powers=(PEACE,)))
        return flow.after_phase(state, "bg-declaration")
    return _next_territory(state, bg, shared_territories(state, bg), 0)


def _next_territory(state: GameState, bg: str, areas: tuple[str, ...], index: int) -> GameState:
    if index < len(areas):
        return evolve(state, pending=pending("bg-declaration", bg, areas=areas, index=index))
    state = evolve(state, pending=None)
    return flow.after_phase(state, "bg-declaration")


def bg_decisions(state: GameState) -> list[Action]:
    """Peace or war in the current territory; peace only if the tokens are already bound to peace (BG-P2)."""
    assert state.pending is not None
    detail = state.pending.detail
    area, bg = detail["areas"][detail["index"]], state.pending.actor
    options: list[Action] = [DeclarePeace(bg, area)]
    if (bg, area) not in state.at_peace:
        options.append(DeclareWar(bg, area))
    return options


def check_bg(state: GameState, action: Action) -> IllegalActionError | None:
    assert state.pending is not None
    detail = state.pending.detail
    area = detail["areas"][detail["index"]]
    if getattr(action, "area", None) != area:
        return IllegalActionError("peace/territory", f"the declaration now is for {area} (territories in board "
                                  f"order: {', '.join(detail['areas'])})")
    if isinstance(action, DeclareWar) and (state.pending.actor, area) in state.at_peace:
        return IllegalActionError("peace/bound", f"the Bene Gesserit tokens in {area} landed in peace and must stay "
                                  "at peace (BG-P2, BG-P3)")
    return None


def apply_bg(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    area, bg = action.area, state.pending.actor  # type: ignore[attr-defined]
    name = rules().board.area(area).name
    if isinstance(action, DeclarePeace):
        if (bg, area) not in state.at_peace:
            state = evolve(state, at_peace=state.at_peace + ((bg, area),))
        state = with_events(state, event("peace", f"The Bene Gesserit in {name} are at peace: they do not fight, "
                                         "own or harvest this turn (BG-P3)", house=bg, area=area, powers=("BG-P3",)))
    else:
        state = with_events(state, event("war", f"The Bene Gesserit in {name} are at war (BG-P3)",
                                         house=bg, area=area, powers=("BG-P3",)))
    return _next_territory(state, bg, detail["areas"], detail["index"] + 1)


register_resume("bg-declaration", _declarations)

HANDLERS: dict[str, Handler] = {
    "alliance": Handler(apply=apply_window, decisions=window_decisions, check=check_window,
                        accepts=(Offer, EndWindow)),
    "alliance-answer": Handler(apply=apply_answer, decisions=answer_decisions, pledged=answer_pledge,
                               always=(AcceptOffer, DeclineOffer)),
    "bg-declaration": Handler(apply=apply_bg, decisions=bg_decisions, check=check_bg,
                              accepts=(DeclarePeace, DeclareWar)),
}
