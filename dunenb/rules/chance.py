"""TURN-1 h): the Chance cards (CHANCE-1 to CHANCE-5), an optional module designed for GAP-20.

The seed's Chance cards are lost (CHANCE-3); only their effects are named elsewhere (CHANCE-5). Per the GAP-20
PROPOSAL the module is **optional and data-driven, off by default** (``GameConfig.chance_cards``):

* CHANCE-1, SETUP-6: one single pile, ``GameState.chance_deck`` (counts of unseen cards by id), filled from
  ``data/chance_deck.json`` by ``dunenb.engine.initial_state`` only when the option is on. When it is empty it is
  reshuffled: every card goes back (GAP-27 design; each effect is applied at once, so all drawn cards are discards).
* CHANCE-2: each turn, just before the battles (step h, phase ``chance-cards``), 2 cards are drawn, each a chance
  node whose outcomes are the card ids with exact probabilities ``count / remaining``.
* CHANCE-4, GAP-20 (an invention, the method is lost): card k of the turn (k = 1, 2) goes to the k-th House in
  storm order counted from the main storm (wrapping round when fewer Houses are left).
* Effects (CHANCE-5, each card's ``effect`` in the data):

  - ``harvester``: the House gets ``amount`` Ixian harvester(s) (HARVEST-2, L107), from the Bank's stock;
  - ``pole-ornithopters``: until the end of the turn, the House has ornithopters if it has tokens at the North
    Pole (MOVE-6, HARVEST-6, GAP-21; read by ``dunenb.rules.collection.has_ornithopters``);
  - ``extra-card-slot``: the House's hand limit rises by ``amount`` for the rest of the game (L1619; how long
    it lasts is a design choice, since the auction of the turn is already over at step h);
  - ``spice``: the Bank pays the House ``amount`` spice (L1813);
  - ``alliance-window``: an alliance window opens (ALLIANCE-1, L1867: "or when certain Chance cards say so"):
    ``state.alliance_windows`` goes up by one and an ``alliance-window`` event is recorded. Once the turn's
    Chance cards are drawn, the windows they opened are played at once (GAP-19a read for Chance cards: "deals
    are made then"), before the battles; a window from a Chance card breaks the terms of earlier deals, as any
    new alliance does (ALLIANCE-4).

When the option is off the phase passes straight on, without any node.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

from dunenb.actions import Action
from dunenb.board import read_data_file
from dunenb.errors import RulesDataError
from dunenb.rules import deck_tops
from dunenb.rules.common import Handler, edit_house, event, pending, storm_order, with_events
from dunenb.shares import chance_share
from dunenb.state import FrozenDict, GameState, evolve

PHASE = "chance-cards"
#: The Chance deck's name among the decks whose top may be held apart (ATREIDES-P2 d).
DECK = "chance"
NORTH_POLE = "pole-nord"
EFFECTS = ("harvester", "pole-ornithopters", "extra-card-slot", "spice", "alliance-window")
BENEFICIARY_RULES = ("storm-order",)


@dataclass(frozen=True)
class DrawChanceCard(Action):
    """CHANCE-2: the ``draw``-th Chance card of the turn (1 or 2) is ``card`` (a card id of the Chance deck)."""

    kind: ClassVar[str] = "chance-card"
    is_chance: ClassVar[bool] = True
    draw: int
    card: str


# --- rules data -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ChanceCard:
    id: str
    name: str
    count: int
    effect: str
    amount: int
    beneficiary: str


@dataclass(frozen=True)
class ChanceRules:
    cards: tuple[ChanceCard, ...]
    draws_per_turn: int

    def card(self, card_id: str) -> ChanceCard:
        return next(c for c in self.cards if c.id == card_id)

    @property
    def counts(self) -> FrozenDict[str, int]:
        return FrozenDict({c.id: c.count for c in self.cards})


def _positive(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RulesDataError("chance-deck/count", f"{where} must be a positive integer, not {value!r}")
    return value


@lru_cache(maxsize=1)
def load_chance_rules() -> ChanceRules:
    """Load and validate ``data/chance_deck.json`` (GAP-20 design).

    >>> deck = load_chance_rules()
    >>> sum(deck.counts.values()), deck.draws_per_turn, deck.card("spice-windfall-5").amount
    (14, 2, 5)
    """
    raw = read_data_file("chance_deck.json")
    cards: list[ChanceCard] = []
    for entry in raw["cards"]:
        card_id = entry["id"]
        if any(c.id == card_id for c in cards):
            raise RulesDataError("chance-deck/id", f"card id {card_id!r} is listed twice")
        if entry["effect"] not in EFFECTS:
            raise RulesDataError("chance-deck/effect", f"{card_id}: effect {entry['effect']!r} not in {EFFECTS}")
        if entry.get("beneficiary", "storm-order") not in BENEFICIARY_RULES:
            raise RulesDataError("chance-deck/beneficiary", f"{card_id}: beneficiary not in {BENEFICIARY_RULES}")
        amount = entry.get("amount", 1)
        cards.append(ChanceCard(
            id=card_id, name=entry["name"], count=_positive(entry["count"], f"cards.{card_id}.count"),
            effect=entry["effect"], amount=_positive(amount, f"cards.{card_id}.amount"),
            beneficiary=entry.get("beneficiary", "storm-order")))
    return ChanceRules(cards=tuple(cards), draws_per_turn=_positive(raw["draws_per_turn"], "draws_per_turn"))


def initial_deck() -> FrozenDict[str, int]:
    """CHANCE-1: the full Chance pile as counts of unseen cards."""
    return load_chance_rules().counts


# --- the phase ------------------------------------------------------------------------------------------

def begin_phase(state: GameState) -> GameState:
    """TURN-1 h), CHANCE-2: draw the turn's Chance cards, or pass straight on when the option is off."""
    if not state.config.chance_cards:
        return _done(state)
    state = evolve(state, phase=PHASE)
    return _next_draw(state, 1, state.alliance_windows)


def _done(state: GameState, windows_before: int | None = None) -> GameState:
    from dunenb.rules import alliances, flow

    if windows_before is not None and state.alliance_windows > windows_before:
        return alliances.begin_chance_windows(state, windows_before + 1)
    return flow.after_phase(state, PHASE)


def _next_draw(state: GameState, draw: int, windows_before: int) -> GameState:
    """``windows_before``: the alliance windows of the turn before this step's cards (to play the new ones)."""
    if draw > load_chance_rules().draws_per_turn or not storm_order(state):
        return _done(state, windows_before)
    if sum(state.chance_deck.values()) == 0 and deck_tops.top(state, DECK) is None:  # GAP-27: reshuffle the pile
        state = _refill(state)
    return evolve(state, pending=pending("chance-card", "chance", draw=draw,
                                                      windows_before=windows_before))


def beneficiary(state: GameState, draw: int) -> str:
    """CHANCE-4, GAP-20 (invention): the ``draw``-th House in storm order from the main storm."""
    order = storm_order(state)
    return order[(draw - 1) % len(order)]


def _outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    assert state.pending is not None
    draw = state.pending.detail["draw"]
    forced = deck_tops.top(state, DECK)  # ATREIDES-P2 d: the top held apart is drawn
    if forced is not None:
        return [(DrawChanceCard(draw, forced), Fraction(1))]
    deck = {card: n for card, n in state.chance_deck.items() if n > 0}
    total = sum(deck.values())
    return [(DrawChanceCard(draw, card), chance_share(n, total)) for card, n in deck.items()]


def _apply_draw(state: GameState, action: DrawChanceCard) -> GameState:
    assert state.pending is not None
    windows_before = state.pending.detail["windows_before"]
    card = load_chance_rules().card(action.card)
    state, was_top = deck_tops.take_top(state, DECK, card.id)
    if not was_top:
        count = state.chance_deck[card.id] - 1
        deck = state.chance_deck.set(card.id, count) if count else state.chance_deck.without(card.id)
        state = evolve(state, chance_deck=deck)
    # ATREIDES-P2 d: the next card is on top at once, before this one takes effect
    return deck_tops.ensure(state, (DECK,), "chance-card", draw=action.draw, card=card.id,
                            windows_before=windows_before)


def _drawn(state: GameState, detail: Mapping[str, Any]) -> GameState:
    """CHANCE-2, CHANCE-4, CHANCE-5: card ``detail["card"]``, the ``detail["draw"]``-th of the turn, takes
    effect for its beneficiary; then the next draw."""
    state = evolve(state, pending=None)
    card = load_chance_rules().card(detail["card"])
    action = DrawChanceCard(detail["draw"], card.id)
    house = beneficiary(state, action.draw)
    state = with_events(state, event(
        "chance-card", f"Chance card {action.draw}: {card.name}, for {house} (CHANCE-2; GAP-20: the House "
        f"number {action.draw} in storm order)", draw=action.draw, card=card.id, house=house, effect=card.effect))
    windows_before = detail["windows_before"]
    state = apply_effect(state, card, house)
    return _next_draw(state, action.draw + 1, windows_before)


def apply_effect(state: GameState, card: ChanceCard, house: str) -> GameState:
    """CHANCE-5: apply one card's effect for its beneficiary (GAP-20 design)."""
    hs = state.houses[house]
    if card.effect == "harvester":
        state = edit_house(state, house, harvesters=hs.harvesters + card.amount)
        text = f"{house} gets {card.amount} Ixian harvester(s) (HARVEST-2)"
    elif card.effect == "spice":
        state = edit_house(state, house, spice=hs.spice + card.amount)
        state = evolve(state, bank=state.bank - card.amount)
        text = f"The Bank pays {house} {card.amount} spice"
    elif card.effect == "extra-card-slot":
        state = edit_house(state, house, extra_card_slots=hs.extra_card_slots + card.amount)
        text = f"{house} may hold {card.amount} more treachery card(s) than its limit (L1619)"
    elif card.effect == "pole-ornithopters":
        if house not in state.pole_ornithopters:
            state = evolve(state, pole_ornithopters=state.pole_ornithopters + (house,))
        text = f"{house} has ornithopters at the North Pole this turn (MOVE-6, GAP-21)"
    else:  # alliance-window
        windows = state.alliance_windows + 1
        state = evolve(state, alliance_windows=windows)
        return with_events(state, event(
            "alliance-window", f"A Chance card opens an alliance window (ALLIANCE-1, drawn by {house})",
            cause="chance-card", house=house, window=windows))
    return with_events(state, event("chance-effect", text, house=house, card=card.id, effect=card.effect,
                                    amount=card.amount))


def has_pole_ornithopters(state: GameState, house: str) -> bool:
    """GAP-21 with GAP-20: the North Pole card is in force for the House and it has tokens at the Pole."""
    return house in state.pole_ornithopters and any(
        h == house and a == NORTH_POLE and t.total > 0 for (h, a, _s), t in state.forces.items())


def _refill(state: GameState) -> GameState:
    state = evolve(state, chance_deck=initial_deck())
    return with_events(state, event("chance-reshuffle", "The Chance pile is empty: it is reshuffled (GAP-27)"))


deck_tops.register_resume("chance-card", _drawn)
deck_tops.register_deck(DECK, deck_tops.Deck(
    in_use=lambda state: bool(state.config.chance_cards),
    counts=lambda state: state.chance_deck,
    with_counts=lambda state, counts: evolve(state, chance_deck=counts),
    refill=_refill,
))

HANDLERS = {
    "chance-card": Handler(apply=_apply_draw, outcomes=_outcomes),
}
