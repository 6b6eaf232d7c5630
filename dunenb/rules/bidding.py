"""Treachery cards: the deck (GAP-26, GAP-27), the free cards (SETUP-1 h, HAND-2) and the auction (TURN-1 d).

The deck is kept as counts of unseen cards (``GameState.treachery_deck``), so every draw is a chance node whose
outcomes are the distinct cards left, weighted by their counts (as the territory deck in ``spice.py``). When it
runs out, the face-up discard pile is reshuffled into it (GAP-27).

The free cards are drawn in storm order, the Harkonnen's two in a row (design: the order changes no odds).

The auction (BID-1 to BID-15 with GAP-33):

* As many cards are put up as there are Houses without a full hand (BID-1); a hand is full at its limit,
  4 cards, 8 for the Harkonnen (HAND-1, GAP-33a). The count is fixed when the auction starts.
* Card k is drawn (chance) and opened by the k-th House in storm order, full hands included (BID-3, BID-8,
  GAP-33c). Only the opener (and the Atreides, ATREIDES-P2a) may see it: the card is kept in the pending
  node's ``secrets``, which ``engine.view`` hides from the others.
* The open outcry is played as rounds of raise-or-pass in storm order starting with the opener (GAP-33):
  each House in turn either passes ("0") or bids more than the high bid. A winning bid is at least 1
  (GAP-33b). The bidding ends when every other House has passed since the last raise; the high bidder wins
  (BID-5, BID-9). Two equal sums can never both stand: the House that speaks first in this order holds the
  sum, which is how BID-10/BID-11's tie-break by storm order is played here.
* A House bids at most the spice it owns (BID-4). A House holding a Karama may bid any sum, even with a full
  hand (BID-4, KARAMA-4), up to a design cap (``karama_bid_cap``, 99, or its spice if higher). A full hand
  without a Karama may only pass (BID-4, GAP-33a). So may a House outlawed for Atomics in battle: the other
  Houses keep it from buying treachery cards (CARD-ATOMICS-4, GAP-55c).
* Every House is asked in its turn, even one that can only pass, so that the questions themselves reveal
  nobody's Karama (design; BID-6's tells come only from the bids).
* The winner settles (a decision, asked even when paying is his only choice, for the same reason): he pays
  his bid in spice, or plays a Karama and pays nobody (BID-14, KARAMA-11); a full hand or a bid above his
  spice must be settled with the Karama. The Karama played is discarded (KARAMA-2).
  Spice goes to the Emperor if he plays, to the Bank when the Emperor buys himself or does not play
  (BID-7, EMPEROR-P1, GAP-33d).
* A card nobody bids on goes to the discard pile, so it can come back after a reshuffle (BID-13, GAP-27).

For the Bene Gesserit every worthless card is also a Karama (BG-P5), for the Bene Tleilax every ghola card
(TLEILAX-P4); both count as Karama for BID-4 and may settle a purchase.

House powers (``data/powers.json``, through :mod:`dunenb.powers`; no House name is tested here):

* hooks ``hand.limit`` (HARKONNEN-P2: 8; EMPEROR-M1: 6 while Shaddam lives) and ``auction.payee`` (EMPEROR-P1);
* HARKONNEN-P3: each time the holder wins a card (paid or with a Karama) and then holds fewer than its limit,
  it takes the top card of the deck free (a chance draw), unless KARAMA-46 is played (asked of every other House
  with a hand, GAP-63; it blocks the power for the rest of the turn);
* EMPEROR-M1: at the end of the auction, once per turn, after the KARAMA-12 window, the holder may draw cards up
  to its limit of 6 at 2 spice a card, paid to the Bank (``imperial-fill``; ``pass`` draws none).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar

from dunenb.actions import Action, Pass, menu_maker, menu_pass
from dunenb.battle.cards import BATTLE_CARDS, OTHER_CARDS
from dunenb.board import read_data_file
from dunenb.errors import IllegalActionError, RulesDataError
from dunenb.powers import applied, holder, modify, owner
from dunenb.powers.karama import lift
from dunenb.powers.registry import implemented_uses, power
from dunenb.rules import flow
from dunenb.rules.common import (
    Handler,
    Pledge,
    edit_house,
    event,
    node,
    pending,
    rules,
    storm_order,
    with_events,
)
from dunenb.rules.karama_window import open_window, register_resume, substitute_cancelled, substitute_uses
from dunenb.shares import chance_share
from dunenb.state import FrozenDict, GameState, evolve

KARAMA = "karama"
AUCTION_SUBSTITUTE = "auction-karama-substitute"
WORTHLESS = "worthless"
CARD_IDS: tuple[str, ...] = BATTLE_CARDS + (WORTHLESS,) + OTHER_CARDS
MENU_RUN = 20  # design: consecutive bids listed in the menu before it thins out to multiples of 10
TOP_CARD = "HARKONNEN-P3"  # data/powers.json: a free top card after each purchase
IMPERIAL_FILL = "EMPEROR-M1"  # data/powers.json: fill the hand at the end of the auction


# --- actions --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DrawTreacheryCard(Action):
    """SETUP-1 h, HAND-2: a free treachery card drawn from the deck for ``house`` (secret)."""

    kind: ClassVar[str] = "treachery-card"
    is_chance: ClassVar[bool] = True
    house: str
    card: str


@dataclass(frozen=True)
class AuctionCard(Action):
    """BID-3, BID-8: card ``number`` of the auction drawn from the deck (seen by its opener and the Atreides)."""

    kind: ClassVar[str] = "auction-card"
    is_chance: ClassVar[bool] = True
    number: int
    card: str


@dataclass(frozen=True)
class ImperialFill(Action):
    """EMPEROR-M1: draw ``count`` cards from the deck (up to a hand of 6) at 2 spice a card, paid to the Bank."""

    kind: ClassVar[str] = "imperial-fill"
    house: str
    count: int


@dataclass(frozen=True)
class Bid(Action):
    """BID-4, BID-5: raise the high bid to ``amount`` spice (at least 1, GAP-33b); ``pass`` says "0"."""

    kind: ClassVar[str] = "bid"
    house: str
    amount: int


@dataclass(frozen=True)
class PayBid(Action):
    """BID-7: the winner pays his bid in spice (to the Emperor, or to the Bank, GAP-33d)."""

    kind: ClassVar[str] = "pay-bid"
    house: str


@dataclass(frozen=True)
class KaramaBid(Action):
    """BID-14, KARAMA-4, KARAMA-11: the winner plays ``card`` as a Karama and pays nobody; the card is discarded."""

    kind: ClassVar[str] = "karama-bid"
    house: str
    card: str


# --- rules data -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TreacheryRules:
    """The deck (GAP-26), the hand limits (HAND-1) and the auction settings read from ``treachery_deck.json``."""

    counts: FrozenDict[str, int]
    worthless_names: tuple[str, ...]
    hand_limit: int
    hand_limits: FrozenDict[str, int]
    karama_substitutes: FrozenDict[str, str]
    karama_bid_cap: int

    @property
    def size(self) -> int:
        return sum(self.counts.values())


def _positive_int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RulesDataError("treachery-deck/count", f"{where} must be a positive integer, not {value!r}")
    return value


@lru_cache(maxsize=1)
def load_treachery_rules() -> TreacheryRules:
    """Load and validate ``treachery_deck.json``.

    >>> deck = load_treachery_rules()
    >>> deck.size, deck.counts["karama"], deck.hand_limit, len(deck.worthless_names)
    (61, 2, 4, 8)
    """
    raw = read_data_file("treachery_deck.json")
    counts: dict[str, int] = {}
    names: tuple[str, ...] = ()
    for entry in raw["cards"]:
        card = entry["id"]
        if card not in CARD_IDS:
            raise RulesDataError("treachery-deck/id", f"unknown card id {card!r}; allowed: {', '.join(CARD_IDS)}")
        if card in counts:
            raise RulesDataError("treachery-deck/id", f"card id {card!r} is listed twice")
        counts[card] = _positive_int(entry["count"], f"cards.{card}.count")
        if card == WORTHLESS:
            names = tuple(entry["names"])
            if len(names) != counts[card]:
                raise RulesDataError("treachery-deck/names", "worthless: one name per card (CARD-WORTHLESS-1)")
    limits = raw["hand_limits"]
    substitutes = {h: c for h, c in raw["karama_substitutes"].items() if h != "rule"}
    for house, card in substitutes.items():
        if card not in counts:
            raise RulesDataError("treachery-deck/karama", f"{house}: substitute {card!r} is not a card of the deck")
    return TreacheryRules(
        counts=FrozenDict(counts), worthless_names=names, hand_limit=_positive_int(limits["default"], "hand_limits"),
        hand_limits=FrozenDict({h: _positive_int(n, f"hand_limits.{h}") for h, n in limits.items()
                                if h not in ("default", "rule")}),
        karama_substitutes=FrozenDict(substitutes),
        karama_bid_cap=_positive_int(raw["auction"]["karama_bid_cap"], "auction.karama_bid_cap"),
    )


def initial_deck() -> FrozenDict[str, int]:
    """The full treachery deck as counts (GAP-26: 61 cards)."""
    return load_treachery_rules().counts


# --- hands ----------------------------------------------------------------------------------------------

def hand_limit(state: GameState, house: str) -> int:
    """HAND-1: 4 cards, changed by the powers at hook ``hand.limit`` (HARKONNEN-P2: 8; EMPEROR-M1: 6 while
    Shaddam lives), plus any Chance-card slots (CHANCE-5, GAP-20)."""
    deck = load_treachery_rules()
    base = deck.hand_limits.get(house, deck.hand_limit)
    return modify(state, "hand.limit", base, {"house": house}) + state.houses[house].extra_card_slots


def has_full_hand(state: GameState, house: str) -> bool:
    """BID-1, GAP-33a: the House holds at least its own limit."""
    return len(state.houses[house].hand) >= hand_limit(state, house)


def karama_cards(state: GameState, house: str) -> tuple[str, ...]:
    """The distinct cards in the hand that can act as a Karama: the Karama, plus worthless cards for the
    Bene Gesserit (BG-P5) and ghola cards for the Bene Tleilax (TLEILAX-P4)."""
    return _karama_cards(house, state.houses[house].hand)


@lru_cache(maxsize=4096)
def _karama_cards(house: str, hand: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`karama_cards` of ``house`` holding ``hand``. issue 14 item 4: memoized (asked at every Karama window,
    bid and any-time menu, some 2,500 times a game, of few distinct hands): the answer depends only on the House,
    its hand (a tuple of strings) and the shipped deck rules, loaded once."""
    usable = {KARAMA}
    substitute = load_treachery_rules().karama_substitutes.get(house)
    if substitute:
        usable.add(substitute)
    return tuple(sorted(set(hand) & usable))


def bid_limit(state: GameState, house: str) -> int:
    """The highest bid the House may make: its spice (BID-4), any sum up to the design cap with a Karama
    (BID-4, KARAMA-4), nothing with a full hand and no Karama (BID-4, GAP-33a), nothing for an outlaw
    (CARD-ATOMICS-4, GAP-55c: the other Houses keep it from buying treachery cards)."""
    if house in state.outlawed:
        return 0
    spice = state.houses[house].spice
    if karama_cards(state, house):
        return max(spice, load_treachery_rules().karama_bid_cap)
    if has_full_hand(state, house):
        return 0
    return spice


def bidders(state: GameState) -> tuple[str, ...]:
    """The Houses taking part in the auction, in storm order (TURN-2); eliminated Houses are out (GAP-47)."""
    return tuple(h for h in storm_order(state) if h not in state.eliminated)



# --- the deck -------------------------------------------------------------------------------------------

def deck_for_draw(state: GameState) -> FrozenDict[str, int]:
    """The counts a draw is made from: the deck, or the discard pile once the deck is empty (GAP-27)."""
    if sum(state.treachery_deck.values()) > 0:
        return state.treachery_deck
    return FrozenDict(Counter(state.treachery_discard))


def can_draw(state: GameState) -> bool:
    return sum(deck_for_draw(state).values()) > 0


def draw_probabilities(state: GameState) -> list[tuple[str, Fraction]]:
    """The cards a draw can give now, with their exact probabilities (summing to 1)."""
    counts = {card: n for card, n in deck_for_draw(state).items() if n > 0}
    total = sum(counts.values())
    return [(card, chance_share(n, total)) for card, n in sorted(counts.items())]


def _in_draw(state: GameState, card: str) -> bool:
    """Whether a draw can give ``card`` now (the rule behind :func:`draw_probabilities`, without listing)."""
    return deck_for_draw(state).get(card, 0) > 0


def take_card(state: GameState, card: str) -> GameState:
    """Remove one ``card`` from the deck, reshuffling the discard pile into it first if it is empty (GAP-27)."""
    if sum(state.treachery_deck.values()) == 0:
        state = evolve(state, treachery_deck=deck_for_draw(state), treachery_discard=())
        state = with_events(state, event("treachery-reshuffle", "The treachery deck is empty: the discard pile is "
                                         "reshuffled into it (GAP-27)", size=sum(state.treachery_deck.values())))
    deck = state.treachery_deck
    left = deck[card] - 1
    deck = deck.set(card, left) if left else deck.without(card)
    return evolve(state, treachery_deck=deck)


def discard(state: GameState, card: str) -> GameState:
    """Put a card face up on the discard pile (GAP-27)."""
    return evolve(state, treachery_discard=state.treachery_discard + (card,))


def card_census(state: GameState) -> Counter[str]:
    """Every treachery card by id, wherever it is: deck, discard pile, hands, cards set aside in an alliance deal
    (ALLIANCE-8) and the card up for auction.

    The census always equals the initial deck (cards are conserved).
    """
    census: Counter[str] = Counter(state.treachery_deck)
    census.update(state.treachery_discard)
    for hs in state.houses.values():
        census.update(hs.hand)
    census.update(term.item for term in state.deferred_terms if term.what == "card")  # ALLIANCE-8: set aside
    card = auction_card(state)
    if card is not None:
        census[card] += 1
    return census


# --- SETUP-1 h: free cards ------------------------------------------------------------------------------

def begin_free_cards(state: GameState) -> GameState:
    """SETUP-1 h), HAND-2: one free treachery card each, two for the Harkonnen, drawn in storm order (design)."""
    queue = tuple(h for h in storm_order(state) for _ in range(rules().house(h).free_cards))
    return _next_free_card(state, queue)


def _next_free_card(state: GameState, queue: tuple[str, ...]) -> GameState:
    if not queue or not can_draw(state):
        return flow.after_setup_step(state, "free-cards")
    return evolve(state, pending=pending("free-card", "chance", house=queue[0], queue=queue[1:]))


#: issue 14: the menu's card draws, auction cards and bids built once each (dunenb.actions.menu_maker)
_menu_draw = menu_maker(DrawTreacheryCard)
_menu_auction_card = menu_maker(AuctionCard)
_menu_bid = menu_maker(Bid)


def _free_card_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    assert state.pending is not None
    house = state.pending.detail["house"]
    return [(_menu_draw(house, card), p) for card, p in draw_probabilities(state)]


def _is_house_draw(state: GameState, action: Action) -> bool:
    """A card the drawing House can get now (the rule of the free-card and power-card outcomes)."""
    return (type(action) is DrawTreacheryCard and action.house == node(state).detail["house"]
            and _in_draw(state, action.card))


def _apply_free_card(state: GameState, action: DrawTreacheryCard) -> GameState:
    assert state.pending is not None
    state = take_card(state, action.card)
    state = edit_house(state, action.house, hand=state.houses[action.house].hand + (action.card,))
    state = with_events(state, event("free-card", f"{action.house} receives a free treachery card (SETUP-1 h)",
                                     house=action.house, secret=True))
    assert state.pending is not None
    return _next_free_card(state, state.pending.detail["queue"])


# --- TURN-1 d): the auction -----------------------------------------------------------------------------

def begin_phase(state: GameState) -> GameState:
    """TURN-1 d), BID-1: announce the full hands and put up one card per House without a full hand."""
    state = evolve(state, phase="bidding")
    houses = bidders(state)
    full = tuple(h for h in houses if has_full_hand(state, h))
    count = len(houses) - len(full)
    said = f" ({', '.join(full)} announce a full hand)" if full else ""
    state = with_events(state, event("auction", f"Auction: {count} treachery card(s) up for sale{said} (BID-1)",
                                     count=count, full_hands=full))
    return _next_card(state, 1, count)


def _next_card(state: GameState, number: int, count: int) -> GameState:
    if number > count:
        return _finish(state)
    if not can_draw(state):
        state = with_events(state, event("auction-stopped", "No treachery card is left in the deck or the discard "
                                         "pile: the auction stops", number=number, count=count))
        return _finish(state)
    houses = bidders(state)
    opener = houses[(number - 1) % len(houses)]  # GAP-33c: card k is opened by the k-th House in storm order
    return evolve(state, pending=pending("auction-card", "chance", number=number, count=count,
                                                      opener=opener))


def _finish(state: GameState) -> GameState:
    """The auction is over: EMPEROR-M1's fill (after the KARAMA-12 window, GAP-63), then the next phase."""
    state = evolve(state, pending=None)
    if _fill_room(state) > 0:
        uses = implemented_uses(IMPERIAL_FILL)
        return open_window(state, uses, "auction-end")
    return flow.after_phase(state, "bidding")


def _fill_room(state: GameState) -> int:
    """EMPEROR-M1: how many cards the holder may draw now (room in its hand, spice at the price, cards left)."""
    house = holder(state, IMPERIAL_FILL)
    if house is None:
        return 0
    price = _fill_price()
    hs = state.houses[house]
    return max(0, min(hand_limit(state, house) - len(hs.hand), hs.spice // price, sum(deck_for_draw(state).values())))


@lru_cache(maxsize=1)
def _fill_price() -> int:
    """EMPEROR-M1's price per card (data/powers.json, the act at trigger ``auction.end``)."""
    return next(int(a.params["price"]) for a in power(IMPERIAL_FILL).acts if a.trigger == "auction.end")


def _resume_fill(state: GameState, data: object) -> GameState:
    state = lift(state, "action")
    if _fill_room(state) == 0:  # KARAMA-12 played: no fill this turn
        return flow.after_phase(state, "bidding")
    house = holder(state, IMPERIAL_FILL)
    assert house is not None  # _fill_room is 0 without a holder
    return evolve(state, pending=pending("imperial-fill", house))


def _fill_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    house = state.pending.actor
    return [Pass(house)] + [ImperialFill(house, n) for n in range(1, _fill_room(state) + 1)]


def _apply_fill(state: GameState, action: ImperialFill | Pass) -> GameState:
    if not isinstance(action, ImperialFill):
        state = with_events(state, event("imperial-fill", f"{action.house} draws no card (EMPEROR-M1)",
                                         house=action.house, count=0, powers=(IMPERIAL_FILL,)))
        return flow.after_phase(evolve(state, pending=None), "bidding")
    cost = action.count * _fill_price()
    state = edit_house(state, action.house, spice=state.houses[action.house].spice - cost)
    state = evolve(state, bank=state.bank + cost)
    state = with_events(state, event(
        "imperial-fill", f"{action.house} fills its hand: {action.count} card(s) for {cost} spice, paid to the Bank "
        "(EMPEROR-M1)", house=action.house, count=action.count, cost=cost, powers=(IMPERIAL_FILL,)))
    return _next_extra_card(state, (action.house,) * action.count, None)


def _next_extra_card(state: GameState, queue: tuple[str, ...], then: tuple[int, int] | None) -> GameState:
    """Draw the power cards in ``queue`` (chance); then the next auction card ``then`` = (number, count), or the
    end of the phase."""
    if queue and can_draw(state):
        return evolve(state, pending=pending("power-card", "chance", house=queue[0], queue=queue[1:],
                                                          then=then))
    if then is None:
        return flow.after_phase(evolve(state, pending=None), "bidding")
    return _next_card(evolve(state, pending=None), then[0], then[1])


def _power_card_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    assert state.pending is not None
    house = state.pending.detail["house"]
    return [(_menu_draw(house, card), p) for card, p in draw_probabilities(state)]


def _apply_power_card(state: GameState, action: DrawTreacheryCard) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    state = take_card(state, action.card)
    state = edit_house(state, action.house, hand=state.houses[action.house].hand + (action.card,))
    ids = (TOP_CARD,) if detail["then"] is not None else (IMPERIAL_FILL,)
    state = with_events(state, event("power-card", f"{action.house} draws a treachery card ({ids[0]})",
                                     house=action.house, secret=True, powers=ids))
    return _next_extra_card(state, detail["queue"], detail["then"])


def _after_purchase(state: GameState, house: str, number: int, count: int) -> GameState:
    """HARKONNEN-P3: the holder, after winning a card, takes the top card free while under its limit (after the
    KARAMA-46 window, GAP-63); then the next card."""
    state = evolve(state, pending=None)
    if holder(state, TOP_CARD) == house and len(state.houses[house].hand) < hand_limit(state, house) \
            and can_draw(state):
        uses = implemented_uses(TOP_CARD)
        return open_window(state, uses, "auction-top-card", house=house, number=number, count=count)
    return _next_card(state, number + 1, count)


def _resume_top_card(state: GameState, data: FrozenDict) -> GameState:
    house, number, count = data["house"], data["number"], data["count"]
    if holder(state, TOP_CARD) != house:  # KARAMA-46: no extra card for the rest of the turn
        return _next_card(state, number + 1, count)
    return _next_extra_card(state, (house,), (number + 1, count))


def _auction_card_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    assert state.pending is not None
    number = state.pending.detail["number"]
    return [(_menu_auction_card(number, card), p) for card, p in draw_probabilities(state)]


def _is_auction_card(state: GameState, action: Action) -> bool:
    """BID-3: the card put up as number ``number`` is one the deck can give now (rule of the outcomes above)."""
    return (type(action) is AuctionCard and action.number == node(state).detail["number"]
            and _in_draw(state, action.card))


def _apply_auction_card(state: GameState, action: AuctionCard) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    opener, count = detail["opener"], detail["count"]
    state = take_card(state, action.card)
    houses = bidders(state)
    start = houses.index(opener)
    order = houses[start:] + houses[:start]
    state = with_events(state, event(
        "auction-card", f"Card {action.number} of {count} is put up: {opener} looks at it and opens the bidding "
        "(BID-3, BID-8)", number=action.number, count=count, opener=opener, secret=True))
    return evolve(state, pending=pending(
        "bid", opener, number=action.number, count=count, opener=opener, order=order, index=0, high=0,
        high_bidder="", passes=0, secrets=tuple((h, action.card) for h in auction_viewers(state, opener))))


def _bid_menu(state: GameState, house: str, high: int) -> list[int]:
    low, top = max(1, high + 1), bid_limit(state, house)
    if top < low:
        return []
    run_end = min(top, low + MENU_RUN - 1)
    amounts = list(range(low, run_end + 1))
    amounts += [a for a in range((run_end // 10 + 1) * 10, top, 10)]
    if amounts[-1] != top:
        amounts.append(top)
    return amounts


def _bid_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    house, high = state.pending.actor, state.pending.detail["high"]
    return [menu_pass(house)] + [_menu_bid(house, amount) for amount in _bid_menu(state, house, high)]


def check_bid(state: GameState, action: Bid) -> IllegalActionError | None:
    """Validate a bid that is not in the listed menu (BID-4, GAP-33a/b, KARAMA-4)."""
    assert state.pending is not None
    house, high = action.house, state.pending.detail["high"]
    hs = state.houses[house]
    if house in state.outlawed:
        return IllegalActionError(
            "bid/outlawed", f"{house} used Atomics illegally: the other Houses keep it from buying treachery cards "
            "(CARD-ATOMICS-4, GAP-55c); it may only pass")
    if has_full_hand(state, house) and not karama_cards(state, house):
        return IllegalActionError(
            "bid/full-hand", f"{house} holds {len(hs.hand)} cards, a full hand (limit {hand_limit(state, house)}, "
            "HAND-1): without a Karama it may only pass, saying '0' (BID-4)")
    low = max(1, high + 1)
    if action.amount < low:
        return IllegalActionError(
            "bid/too-low", f"bid {action.amount}: the high bid is {high}, so bid at least {low} or pass "
            "(a winning bid is at least 1 and '0' is a pass, GAP-33b)")
    top = bid_limit(state, house)
    if action.amount > top:
        if karama_cards(state, house):
            return IllegalActionError(
                "bid/too-high", f"bid {action.amount}: with a Karama any sum may be bid, up to {top} (design cap)")
        return IllegalActionError(
            "bid/too-high", f"bid {action.amount}: {house} owns {hs.spice} spice, so bid {low} to {top} or pass; "
            "only a Karama holder may bid more than he owns (BID-4, KARAMA-4)")
    return None


def _apply_bid(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    order, house = detail["order"], state.pending.actor
    high, high_bidder, passes = detail["high"], detail["high_bidder"], detail["passes"]
    if isinstance(action, Bid):
        high, high_bidder, passes = action.amount, house, 0
        state = with_events(state, event("bid", f"{house} bids {high}", house=house, amount=high,
                                         number=detail["number"]))
    else:
        passes += 1
        state = with_events(state, event("bid-pass", f"{house} passes ('0')", house=house, number=detail["number"]))
    if high_bidder and passes >= len(order) - 1:
        return _sold(state, high_bidder, high)
    if not high_bidder and passes >= len(order):
        return _unsold(state)
    index = (detail["index"] + 1) % len(order)
    changes = dict(detail, index=index, high=high, high_bidder=high_bidder, passes=passes)
    return evolve(state, pending=pending("bid", order[index], **changes))


def _unsold(state: GameState) -> GameState:
    assert state.pending is not None
    detail, card = state.pending.detail, auction_card(state)
    assert card is not None  # a bid node always holds its card
    state = discard(state, card)
    state = with_events(state, event(
        "card-unsold", f"Nobody bids on card {detail['number']}: it goes face up to the discard pile (BID-13, "
        f"GAP-27): {card}", number=detail["number"], card=card))
    return _next_card(evolve(state, pending=None), detail["number"] + 1, detail["count"])


def _sold(state: GameState, winner: str, price: int) -> GameState:
    assert state.pending is not None
    detail = dict(state.pending.detail, winner=winner, price=price)
    state = with_events(state, event("bid-won", f"{winner} wins card {detail['number']} for {price} (BID-5)",
                                     house=winner, price=price, number=detail["number"]))
    return evolve(state, pending=pending("bid-payment", winner, **detail))


def must_use_karama(state: GameState, house: str, price: int) -> bool:
    """A full hand, or a bid above the House's spice, can only be settled with a Karama (BID-4)."""
    return has_full_hand(state, house) or price > state.houses[house].spice


def _payment_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    house, price = state.pending.actor, state.pending.detail["price"]
    options: list[Action] = [] if must_use_karama(state, house, price) else [PayBid(house)]
    return options + [KaramaBid(house, card) for card in karama_cards(state, house)]


def bid_pledge(state: GameState, house: str) -> Pledge:
    """GAP-57: while the auction goes on, the high bidder owes its bid (asked at any time in a Karama window opened
    at a bid, e.g. by a truth trance of BG-M1, it may not spend it)."""
    detail = node(state).detail
    if detail.get("high_bidder") != house:
        return Pledge()
    if must_use_karama(state, house, detail["high"]):  # BID-4: only a Karama can settle that bid
        return Pledge(cards=karama_cards(state, house))
    return Pledge(spice=detail["high"])


def payment_pledge(state: GameState, house: str) -> Pledge:
    """GAP-57: the winner owes its price; when only a Karama can settle the bid (BID-4), its Karama cards."""
    assert state.pending is not None
    price = state.pending.detail["price"]
    if must_use_karama(state, house, price):
        return Pledge(cards=karama_cards(state, house))
    return Pledge(spice=price)


def _apply_payment(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    house = state.pending.detail["winner"]
    if isinstance(action, KaramaBid):
        hand = list(state.houses[house].hand)
        hand.remove(action.card)
        state = discard(edit_house(state, house, hand=tuple(hand)), action.card)  # KARAMA-2, GAP-27
        against = substitute_uses(state, house, action.card)
        if against:  # KARAMA-29 (GAP-124): a real Karama may cancel a worthless card played as one (BG-P5)
            return open_window(state, against, AUCTION_SUBSTITUTE, house=house, card=action.card)
    return _settle_payment(state, action)


def _substitute_asked(state: GameState, data: FrozenDict) -> GameState:
    """GAP-124: after the KARAMA-29 window, the purchase goes through, or the card played was void: the winner
    settles the bid again (spice or another Karama card), or, unable to, does not get the card (GAP-27)."""
    house, card = data["house"], data["card"]
    state, cancelled = substitute_cancelled(state, house, card)
    if not cancelled:
        return _settle_payment(state, KaramaBid(house, card))
    if _payment_decisions(state):
        return state  # the payment node is asked again
    assert state.pending is not None
    detail, lot = state.pending.detail, auction_card(state)
    assert lot is not None
    state = with_events(discard(state, lot), event(
        "card-unsold", f"{house} cannot settle its bid once its {card} is cancelled (KARAMA-29): card "
        f"{detail['number']} goes face up to the discard pile (GAP-124, GAP-27): {lot}", number=detail["number"],
        card=lot, house=house))
    return _next_card(evolve(state, pending=None), detail["number"] + 1, detail["count"])


def _settle_payment(state: GameState, action: Action) -> GameState:
    """BID-5, BID-14: the winner pays (or has played its Karama: already discarded) and takes the card."""
    assert state.pending is not None
    detail, card = state.pending.detail, auction_card(state)
    house, price, number = detail["winner"], detail["price"], detail["number"]
    if isinstance(action, KaramaBid):
        text = (f"{house} plays a Karama ({action.card}): card {number} is bought without paying anyone "
                "(BID-14, KARAMA-11); the Karama is discarded")
        recipient = "nobody"
    else:
        state = edit_house(state, house, spice=state.houses[house].spice - price)
        payee = modify(state, "auction.payee", None, {"house": house})  # EMPEROR-P1, lent by ALLIANCE-12
        if payee is not None:
            state = edit_house(state, payee, spice=state.houses[payee].spice + price)
            lent = "" if payee == owner("EMPEROR-P1") else " lent (ALLIANCE-12)"
            recipient, why = payee, "BID-7, EMPEROR-P1" + lent
        else:
            state = evolve(state, bank=state.bank + price)
            recipient = "bank"
            income = holder(state, "EMPEROR-P1")
            why = ("no Emperor in play, GAP-33d" if income is None else "the Emperor buys himself, BID-7"
                   if income == owner("EMPEROR-P1") else f"{house} holds EMPEROR-P1 by ALLIANCE-12 and pays the Bank")
        to = "Bank" if recipient == "bank" else ("Emperor" if recipient == owner("EMPEROR-P1") else recipient)
        text = f"{house} pays {price} spice to the {to} ({why})"
    state = edit_house(state, house, hand=state.houses[house].hand + (card,))
    ids = ("EMPEROR-P1",) if recipient not in ("bank", "nobody") else ()  # issue 10 item 6: the power named
    state = with_events(state, event("card-bought", text, house=house, price=price, recipient=recipient,
                                     number=number, karama=action.card if isinstance(action, KaramaBid) else None,
                                     powers=ids))
    return _after_purchase(state, house, number, detail["count"])


# --- hidden information ---------------------------------------------------------------------------------

def auction_viewers(state: GameState, opener: str) -> tuple[str, ...]:
    """BID-3, BID-8: the opener looks at the card; the Atreides, if in play, see every card (ATREIDES-P2a)."""
    viewers = applied(state, "auction.viewers", (opener,), {"house": opener})[0]  # ATREIDES-P2 a
    return tuple(v for v in viewers if v == opener or v in bidders(state))


def auction_card(state: GameState) -> str | None:
    """The card up for auction (god view), or None outside the bidding on a card.

    It is kept only in the pending node's ``secrets`` (one entry per House allowed to see it), which
    ``engine.view`` hides from every other House; during a Karama window opened at the bid, in the node it
    interrupts.
    """
    node = state.pending
    while node is not None and node.kind == "karama-window":  # a window waits over the bid (a ghola's KARAMA-36)
        node = node.detail["prior"]
    if node is None or node.kind not in ("bid", "bid-payment"):
        return None
    return node.detail["secrets"][0][1]


register_resume("auction-end", _resume_fill)
register_resume(AUCTION_SUBSTITUTE, _substitute_asked)  # KARAMA-29 at the auction (GAP-124)
register_resume("auction-top-card", _resume_top_card)

HANDLERS = {
    "free-card": Handler(apply=_apply_free_card, outcomes=_free_card_outcomes, is_outcome=_is_house_draw),
    "power-card": Handler(apply=_apply_power_card, outcomes=_power_card_outcomes,  # HARKONNEN-P3, EMPEROR-M1
                          is_outcome=_is_house_draw),
    "imperial-fill": Handler(apply=_apply_fill, decisions=_fill_decisions, always=(Pass,)),  # EMPEROR-M1
    "auction-card": Handler(apply=_apply_auction_card, outcomes=_auction_card_outcomes,
                            is_outcome=_is_auction_card),
    "bid": Handler(apply=_apply_bid, decisions=_bid_decisions, check=check_bid, pledged=bid_pledge,
                   always=(Pass,),  # BID-4: pass
                   checked=(Bid,)),  # a bid check_bid allows lies in the menu's range of amounts (issue 14 item 2)
    "bid-payment": Handler(apply=_apply_payment, decisions=_payment_decisions, pledged=payment_pledge),
}
