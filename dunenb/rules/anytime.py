"""Actions a House may play "at any time" (HARVEST-3, HARVEST-4, CARD-GHOLA-1, REVIVAL-2, GAP-48, GAP-57).

The seed lets a House buy a harvester from the Bank for 5 spice and sell one for 3 "at any time" (HARVEST-3,
HARVEST-4), and play the ghola card "at any time" (CARD-GHOLA-1). GAP-48 places them at any time; GAP-57 says
what "any time" is in a game where one House acts at once:

* **When.** Whenever the House is to act: it is the actor of the pending decision, in any phase of the turn
  (the auction, the battles, a harvest declaration...), from turn 1 on: the setup steps before turn 1 (start
  positions, traitors, the first forces) are the table being laid out, not play, and offer none.
  :func:`dunenb.engine.legal_actions` adds :func:`menu` to every decision's menu, once, for whichever node it
  is; :func:`dunenb.engine.apply_action` plays such an action without closing the node, which then waits for
  the same House again. At a chance node nobody acts, so none is offered. The engine plays the table's
  simultaneous decisions (bids, battle plans) one House after another; a House trades when its turn to speak
  comes, and only its own assets change, in public. A House that is not asked in a phase (e.g. no harvester
  to declare at step f) trades at its next decision.
* **What is promised stays promised.** At some nodes the House has already committed spice or a card: the
  winner of a bid owes its price, or, if only a Karama can settle it, its Karama cards (BID-4, BID-14); the
  spice dialled on its battle wheel is due to the Bank (GAP-42); a House answering an alliance offer owes the
  price asked (ALLIANCE-3). The node's handler states it (:class:`~dunenb.rules.common.Pledge`); these actions
  may spend only what is left, so no node is left without a way to settle.
* **No endless trading.** Buying costs 5 and selling brings 3, so every buy-sell round loses 2 spice, and the
  ghola card is spent when played: a House cannot trade for ever at one node, and random play always moves on.

The ghola (CARD-GHOLA-1, REVIVAL-2, TLEILAX-P1, GAP-57): one card buys back at once any number of the House's
dead tokens at 1 spice each and/or one dead leader for his combat value (his base strength, as GAP-28a reads
"force de combat"), paid to the Bene Tleilax if they play (to the Bank when they revive themselves). REVIVAL-1's
3 tokens a turn and houses.md G-3's one marked token a turn bound the normal revival only: the seed gives the
ghola "as many tokens as he likes". Revived tokens go to the reserve (G-2), the leader back to the House's
leaders; the card goes to the discard pile (GAP-27). The Bene Tleilax hold the ghola as a Karama (TLEILAX-P4)
and may use it as a ghola only on what has reached their tanks (KARAMA-34/35); since their own recovery
(TLEILAX-P2/P3) is not applied yet, whatever is in their tanks counts as such a case (GAP-57).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from dunenb.actions import Action, menu_maker
from dunenb.errors import IllegalActionError
from dunenb.powers import applied
from dunenb.powers.karama import lift
from dunenb.powers.registry import load_powers, power
from dunenb.rules.bidding import karama_cards
from dunenb.rules.common import NO_PLEDGE, Pledge, edit_house, event, with_events
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.rules.leader_specials import GholaReturn, apply_ghola_return, ghola_returns
from dunenb.state import FrozenDict, GameState, Tokens, evolve

HARVESTER_PRICE = 5  # HARVEST-3
HARVESTER_RESALE = 3  # HARVEST-4
GHOLA = "ghola"  # CARD-GHOLA-1
GHOLA_TOKEN_PRICE = 1  # CARD-GHOLA-1: still 1 spice a token
NONE = "none"


# --- actions --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BuyHarvester(Action):
    """HARVEST-3: buy ``count`` harvesters from the Bank at 5 spice each, whenever the House is to act."""

    kind: ClassVar[str] = "buy-harvester"
    house: str
    count: int = 1


@dataclass(frozen=True)
class SellHarvester(Action):
    """HARVEST-4: sell ``count`` uncommitted harvesters to the Bank at 3 spice each, whenever the House acts."""

    kind: ClassVar[str] = "sell-harvester"
    house: str
    count: int = 1


@dataclass(frozen=True)
class PlayGhola(Action):
    """CARD-GHOLA-1, REVIVAL-2: play a ghola card to buy back ``regular`` + ``marked`` dead tokens (1 spice each)
    and/or the dead ``leader`` (a key of the House's ``leader_tanks``, or ``none``) for his combat value."""

    kind: ClassVar[str] = "ghola"
    house: str
    regular: int = 0
    marked: int = 0
    leader: str = NONE


@dataclass(frozen=True)
class KaramaAnyTime(Action):
    """KARAMA-1: a Karama use whose moment is "any time" (KARAMA-41 against ATREIDES-P2), played with ``card`` (a
    Karama, or a card that counts as one for the House) whenever the House is to act (GAP-57)."""

    kind: ClassVar[str] = "karama-now"
    house: str
    use: str
    card: str


ANYTIME_ACTIONS: tuple[type[Action], ...] = (BuyHarvester, SellHarvester, PlayGhola, KaramaAnyTime, GholaReturn)
ANYTIME_KINDS: frozenset[str] = frozenset(cls.kind for cls in ANYTIME_ACTIONS)


#: issue 14 item 4: the menus' harvester actions built once per House (dunenb.actions.menu_maker)
_menu_buy = menu_maker(BuyHarvester)
_menu_sell = menu_maker(SellHarvester)


def is_anytime(action: object) -> bool:
    """Whether ``action`` is one of the actions a House may play whenever it is to act."""
    return type(action) in ANYTIME_ACTIONS


# --- rule helpers ---------------------------------------------------------------------------------------

def _error(code: str, message: str) -> IllegalActionError:
    return IllegalActionError(code, message)


def _is_int(*values: object) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


SETUP = "setup"  # the phase of the setup steps (SETUP-1), before turn 1


def is_open(state: GameState) -> bool:
    """GAP-57: any-time actions are played from turn 1 on, not while the table is being set up (SETUP-1)."""
    return state.phase != SETUP


def free_spice(state: GameState, house: str, pledge: Pledge = NO_PLEDGE) -> int:
    """The spice the House may spend now: what it owns less what it has promised at the pending node."""
    return max(0, state.houses[house].spice - pledge.spice)


def free_gholas(state: GameState, house: str, pledge: Pledge = NO_PLEDGE) -> int:
    """Ghola cards in the hand that are not promised at the pending node."""
    return max(0, state.houses[house].hand.count(GHOLA) - pledge.cards.count(GHOLA))


def leader_price(house: str, key: str) -> int:
    """CARD-GHOLA-1: a dead leader comes back for his combat value (base strength, GAP-28a, GAP-57)."""
    from dunenb.rules.traitors import leader_of

    return leader_of(house, key).strength


def ghola_cost(house: str, action: PlayGhola) -> int:
    """CARD-GHOLA-1: 1 spice per token plus the leader's combat value."""
    leader = 0 if action.leader == NONE else leader_price(house, action.leader)
    return GHOLA_TOKEN_PRICE * (action.regular + action.marked) + leader


def _counts(most: int) -> list[int]:
    return sorted({n for n in (most, 1, most // 2) if 1 <= n <= most}, reverse=True)


# --- menu -----------------------------------------------------------------------------------------------

def menu(state: GameState, house: str, pledge: Pledge = NO_PLEDGE) -> list[Action]:
    """The any-time actions listed for ``house`` (the actor): a harvester bought or sold, and ghola plays (all
    the affordable dead tokens, half of them, one; each affordable dead leader alone). Any other well-formed
    ghola play is accepted by :func:`check`."""
    if not is_open(state):
        return []
    hs = state.houses[house]
    budget = free_spice(state, house, pledge)
    options: list[Action] = []
    if budget >= HARVESTER_PRICE:
        options.append(_menu_buy(house))
    if hs.harvesters >= 1:
        options.append(_menu_sell(house))
    if free_gholas(state, house, pledge):
        for count in _counts(min(hs.tanks.total, budget // GHOLA_TOKEN_PRICE)):
            regular = min(hs.tanks.regular, count)
            options.append(PlayGhola(house, regular, count - regular))
        options += [PlayGhola(house, 0, 0, key) for key in hs.leader_tanks if leader_price(house, key) <= budget]
    if hs.hand:
        cards = _free_karamas(state, house, pledge)
        if cards:  # issue 14: the uses are looked for only when a card could play one
            options += [KaramaAnyTime(house, use, card) for use in any_time_uses(state, house) for card in cards]
    if state.leader_deaths:
        options += ghola_returns(state, house, budget)  # leaders.md S-6
    return options


#: issue 14: (the powers table, its implemented "any time" uses), computed again when the table is another one
_ANY_TIME_IDS: tuple[object, tuple[str, ...]] | None = None


def _any_time_ids() -> tuple[str, ...]:
    global _ANY_TIME_IDS
    powers = load_powers()
    if _ANY_TIME_IDS is None or _ANY_TIME_IDS[0] is not powers:
        _ANY_TIME_IDS = (powers, tuple(use.id for spec in powers.values() for use in spec.karama
                                       if use.moment == "any-time" and use.status == "implemented"))
    return _ANY_TIME_IDS[1]


def any_time_uses(state: GameState, house: str) -> tuple[str, ...]:
    """KARAMA-1, GAP-57: the implemented "any time" Karama uses ``house`` may play now: against a power another
    House holds now (KARAMA-41)."""
    from dunenb.rules.karama_window import usable

    return usable(state, house, _any_time_ids())


def _free_karamas(state: GameState, house: str, pledge: Pledge) -> tuple[str, ...]:
    """The distinct cards ``house`` may play as a Karama now, less those promised at the pending node (GAP-57)."""
    cards = karama_cards(state, house)  # distinct cards of the hand
    if not cards or not pledge.cards:
        return cards  # issue 14: nothing promised, nothing to take off
    left = Counter(state.houses[house].hand) - Counter(pledge.cards)
    return tuple(dict.fromkeys(c for c in cards if left[c] > 0))


# --- checks ---------------------------------------------------------------------------------------------

def _short_of(state: GameState, house: str, cost: int, pledge: Pledge, what: str, rule: str) -> str | None:
    budget = free_spice(state, house, pledge)
    if cost <= budget:
        return None
    promised = f", {pledge.spice} of it promised at this step (GAP-57)" if pledge.spice else ""
    return (f"{what} cost {cost} spice ({rule}); {house} has {state.houses[house].spice}{promised}, so at most "
            f"{budget} to spend")


def check(state: GameState, action: Action, pledge: Pledge = NO_PLEDGE) -> IllegalActionError | None:
    """Validate an any-time action for its House (the actor); the error names the field and what is allowed."""
    house = action.actor
    hs = state.houses[house]
    if not is_open(state):
        return _error("anytime/setup", f"{action.kind!r} is played from turn 1 on, not during the setup (GAP-57)")
    if isinstance(action, BuyHarvester | SellHarvester):
        if not _is_int(action.count) or action.count < 1:
            return _error("harvester/count", f"count must be an integer >= 1, not {action.count!r}")
        if isinstance(action, BuyHarvester):
            short = _short_of(state, house, HARVESTER_PRICE * action.count, pledge, f"{action.count} harvester(s)",
                              "HARVEST-3")
            return None if short is None else _error("harvester/cost", short)
        if action.count > hs.harvesters:
            return _error("harvester/none", f"{house} has {hs.harvesters} uncommitted harvester(s) to sell "
                          "(HARVEST-4; committed ones work their deposit until the next step f)")
        return None
    if isinstance(action, PlayGhola):
        return _check_ghola(state, action, pledge)
    if isinstance(action, KaramaAnyTime):
        if action.use not in any_time_uses(state, house):
            return _error("karama/use", f"{action.use!r} cannot be played now; uses playable at any time now: "
                          f"{', '.join(any_time_uses(state, house)) or 'none'}")
        if action.card not in _free_karamas(state, house, pledge):
            return _error("karama/card", f"{action.card!r} is not a card {house} may play as a Karama now; "
                          f"its free Karama cards: {', '.join(_free_karamas(state, house, pledge)) or 'none'}")
        return None
    if isinstance(action, GholaReturn):  # leaders.md S-6
        allowed = ghola_returns(state, house, free_spice(state, house, pledge))
        if action not in allowed:
            return _error("ghola-return/not-now", f"{house} cannot pay for {action.leader!r}'s ghola now "
                          f"({action.power}: from the 4th turn after his death, his disc in the tanks, the Tleilax "
                          "in play, 5 free spice); allowed now: " + (", ".join(a.leader for a in allowed) or "none"))
        return None
    return _error("action/wrong-kind", f"{action.kind!r} is not an action played at any time")


def _check_ghola(state: GameState, action: PlayGhola, pledge: Pledge) -> IllegalActionError | None:
    house = action.house
    hs = state.houses[house]
    if not free_gholas(state, house, pledge):
        why = " (the one held is promised at this step, GAP-57)" if GHOLA in hs.hand else ""
        return _error("ghola/no-card", f"{house} holds no ghola card to play{why} (CARD-GHOLA-1)")
    if not _is_int(action.regular, action.marked) or action.regular < 0 or action.marked < 0:
        return _error("ghola/count", f"regular and marked must be integers >= 0; got regular={action.regular!r}, "
                      f"marked={action.marked!r}")
    if action.regular > hs.tanks.regular or action.marked > hs.tanks.marked:
        return _error("ghola/too-many", f"{house}'s tanks hold {hs.tanks.regular} unmarked and {hs.tanks.marked} "
                      f"marked token(s); asked for {action.regular} and {action.marked}")
    if action.leader != NONE and action.leader not in hs.leader_tanks:
        dead = ", ".join(hs.leader_tanks) or "none"
        return _error("ghola/leader", f"leader {action.leader!r} is not one of {house}'s dead leaders; dead: {dead} "
                      "(or 'none')")
    if action.regular + action.marked == 0 and action.leader == NONE:
        return _error("ghola/nothing", "a ghola buys back at least one token or a dead leader (CARD-GHOLA-1)")
    short = _short_of(state, house, ghola_cost(house, action), pledge, "these revivals", "CARD-GHOLA-1: 1 a token, "
                      "a leader his combat value")
    return None if short is None else _error("ghola/cost", short)


# --- applying -------------------------------------------------------------------------------------------

def _pay(state: GameState, house: str, amount: int, payee: str | None) -> GameState:
    state = edit_house(state, house, spice=state.houses[house].spice - amount)
    if payee is None:
        return evolve(state, bank=state.bank + amount)
    return edit_house(state, payee, spice=state.houses[payee].spice + amount)


def apply(state: GameState, action: Action) -> GameState:
    """Play an already-checked any-time action; the pending node is left as it is (the House acts again)."""
    house = action.actor
    if isinstance(action, BuyHarvester):
        cost = HARVESTER_PRICE * action.count
        state = _pay(state, house, cost, None)
        state = edit_house(state, house, harvesters=state.houses[house].harvesters + action.count)
        return with_events(state, event(
            "harvester-bought", f"{house} buys {action.count} harvester(s) from the Bank for {cost} spice "
            "(HARVEST-3)", house=house, count=action.count, cost=cost))
    if isinstance(action, SellHarvester):
        price = HARVESTER_RESALE * action.count
        state = _pay(state, house, -price, None)
        state = edit_house(state, house, harvesters=state.houses[house].harvesters - action.count)
        return with_events(state, event(
            "harvester-sold", f"{house} sells {action.count} harvester(s) to the Bank for {price} spice "
            "(HARVEST-4)", house=house, count=action.count, price=price))
    if isinstance(action, KaramaAnyTime):
        return _apply_karama(state, action)
    if isinstance(action, GholaReturn):
        return apply_ghola_return(state, action)  # leaders.md S-6
    assert isinstance(action, PlayGhola)
    return _apply_ghola(state, action)


def _apply_karama(state: GameState, action: KaramaAnyTime) -> GameState:
    """The card is discarded (KARAMA-2, GAP-27) and the power blocked for the use's duration (KARAMA-41: 1 turn)."""
    from dunenb.powers.karama import suppress
    from dunenb.powers.registry import karama_use

    hand = list(state.houses[action.house].hand)
    hand.remove(action.card)
    state = edit_house(state, action.house, hand=tuple(hand))
    state = evolve(state, treachery_discard=state.treachery_discard + (action.card,))
    state = suppress(state, action.use, action.house)
    spec, use = karama_use(action.use)
    return with_events(state, event(
        "karama", f"{action.house} plays a Karama: {action.use} blocks {spec.id} ({spec.name}) for this {use.lasts} "
        "(KARAMA-1, KARAMA-2)", house=action.house, karama=action.use, power=spec.id, card=action.card,
        powers=(spec.id,)))


def _apply_ghola(state: GameState, action: PlayGhola) -> GameState:
    """The card is played and discarded at once (GAP-27); when the revival pays the holder of TLEILAX-P1, the payer
    is first asked about KARAMA-36 (REVIVAL-4: a Karama sends the money to the Bank, it does not make the
    revival free; GAP-63, as for a normal revival), then the dead come back and the money is paid."""
    house = action.house
    hand = list(state.houses[house].hand)
    hand.remove(GHOLA)
    state = edit_house(state, house, hand=tuple(hand))
    state = evolve(state, treachery_discard=state.treachery_discard + (GHOLA,))  # GAP-27
    ids = applied(state, "revival.payee", None, {"house": house})[1]
    uses = tuple(use.id for pid in ids for use in power(pid).karama
                 if use.status == "implemented" and use.moment == "revival")
    if uses:
        return open_window(state, uses, "ghola-payment", only=(house,),
                           pledges=((house, ghola_cost(house, action)),), action=action)
    return _settle_ghola(state, action)


def _resume_ghola(state: GameState, data: FrozenDict) -> GameState:
    return lift(_settle_ghola(state, data["action"]), "action")


def _settle_ghola(state: GameState, action: PlayGhola) -> GameState:
    house = action.house
    hs = state.houses[house]
    # a second ghola played while this one's KARAMA-36 window was open may have emptied the tanks: bring back what
    # is left there (as a revival does, dunenb.rules.movement._resolve_revive)
    action = dataclasses.replace(action, regular=min(action.regular, hs.tanks.regular),
                                 marked=min(action.marked, hs.tanks.marked),
                                 leader=action.leader if action.leader in hs.leader_tanks else NONE)
    tokens = Tokens(action.regular, action.marked)
    leaders, dead = hs.leaders, hs.leader_tanks
    if action.leader != NONE:
        leaders, dead = leaders + (action.leader,), tuple(k for k in dead if k != action.leader)
    state = edit_house(state, house, tanks=hs.tanks - tokens, reserve=hs.reserve + tokens,
                       leaders=leaders, leader_tanks=dead)
    cost = ghola_cost(house, action)
    payee, ids = applied(state, "revival.payee", None, {"house": house})  # TLEILAX-P1 (lent, ALLIANCE-12), or Bank
    state = _pay(state, house, cost, payee)
    back = [f"{tokens.total} token(s)"] if tokens.total else []
    back += [f"the leader {action.leader}"] if action.leader != NONE else []
    return with_events(state, event(
        "ghola", f"{house} plays a ghola card: {' and '.join(back)} come back for {cost} spice, paid to "
        f"{'the Bank' if payee is None else 'the ' + payee} (CARD-GHOLA-1, REVIVAL-2)", house=house,
        count=tokens.total, marked=tokens.marked, leader=action.leader, cost=cost, payee=payee or "bank",
        powers=ids))


register_resume("ghola-payment", _resume_ghola)
