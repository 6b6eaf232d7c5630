"""leaders.md LC-5 B10 in a game: the after-battle effects of the two fighting leaders (K-17, K-15 fine).

The resolver decides what fires (:mod:`dunenb.battle.leader_after`: the outcome's ``after_battle`` IDs per
side, and the ``bounty_fine`` of K-15); this module applies it to the game, once per battle, right after the
deaths and bounties are settled (:func:`dunenb.rules.battle_phase.apply_outcome`), the winner's side first:

* **K-15 killer_pays(n)** (HARKONNEN-L11-d): having received his bounty, the killer's House pays n to the Bank,
  as far as it can (LC-8).
* **keep** (EMPEROR-L03-b, -L05-c, -L06-c): the outcome already left those cards out of the loser's
  ``cards_lost``; the event names the power.
* **gain_spice(n)** (EMPEROR-L05-d): the Bank pays n.
* **heal(n)** (ATREIDES-L09-c, HARKONNEN-L10-b): up to n of his House's tokens lost in this battle come back
  from the tanks, free, into the territory after a win, to the reserve after a loss (D-27). GAP-107: always as
  many as allowed, marked tokens first (the owner gains by every token; a marked one is worth more, WHEEL-2).
* **half_losses** (BG-L10-a, HARKONNEN-L09-b): the outcome already spared floor(n/2) dialled tokens
  (:func:`dunenb.battle.leader_after.saved_tokens`, GAP-109); after a loss they go to the reserve here.
* **destroy_tanks(1d3 | 1)** (TLEILAX-L03-d, -L04-d, ``self_dies``): up to that many of the enemy's tokens
  leave the tanks for good, a d3 then a choice (:mod:`dunenb.rules.leader_tanks`, GAP-130).
* **torture** (BG-L09-b, ``enemy_dies+alive``): a d10 ≤ the dead enemy's base strength, then one truth trance
  question to his House, at once (:mod:`dunenb.rules.leader_torture`, D-23, GAP-128).
* **capture** (BG-L03-b, ``win+alive``): the BG may try, then a d10 > the opposing male secondary leader's base
  strength captures him (:mod:`dunenb.rules.leader_capture`, D-28).
* **lose_tokens(n, territory)** (HARKONNEN-L09-d, a trait): up to n tokens of his House in that territory go to
  the tanks. GAP-108: unmarked tokens first, stacks in sector order (the cheapest loss for the owner).

* **see_traitor(X)** (DISPERSION-L07-d on ``win ∧ opp of BG``, DISPERSION-L08-d on ``win ∧ opp of Atreides``):
  House X shows its traitor slip to this House privately: a ``show-slip`` decision of X (:class:`ShowSlip`,
  secret, seen by the two Houses only); X picks which slip when it holds several (GAP-110); nothing when X
  holds none or is out of the game.
* **see_spice** (ATREIDES-L08-b, ``win``): the loser shows his spice to the winner; an event (every House's
  spice is public in this engine's views, so it tells the Atreides nothing new).
* **draw(n, shown)** (HARKONNEN-L01-b, ``win``: 2 cards, the first shown to the Atreides, the second not;
  HARKONNEN-L06-c, ``win``: 1 card, shown unless 2 spice are paid to the Bank, a decision first): free cards
  from the deck (each a chance node, ``after-battle-draw``), as many as the hand limit (HAND-1) leaves room
  for. "Shown" means seen as every card drawn from the deck is (ATREIDES-P2 b: by the Atreides); a card not
  shown is seen by its drawer alone (:func:`shown_to_all_viewers`, read by :mod:`dunenb.rules.secrecy`).
* **chosen_capture** (HARKONNEN-L07-c, ``win``): the capture after this battle (HARKONNEN-P4) is a choice of
  the captor among the same leaders, not a draw (:func:`capture_by_choice`, read by
  :mod:`dunenb.rules.battle_powers`).
* **steal_random(n)** (EMPEROR-L04-b on ``win``, BG-L08-c on ``win+alive``): n cards at random from the enemy's
  hand, each a chance node, then a discard down to the hand limit: the draws of
  :mod:`dunenb.rules.on_call` (:func:`card_draws`), played once the winner has settled his cards (BATTLE-10).

Effects with a choice are decision nodes (kind ``after-battle``), asked in the same order; a menu with one
option is played without asking:

* **discard_free(1)** (EMPEROR-L06-d on ``any``, EMPEROR-L10-c on ``win``): pass, or discard one card of his
  hand that was not on his wheel in this battle (:class:`DiscardFree`).
* **give_card** (EMPEROR-L04-c, ``lose``): one card of his lost wheel cards (taken back from the discard pile)
  or of his hand goes to the winner, who then discards down to his limit (HAND-1, the discard that
  :func:`dunenb.rules.on_call.begin_draws` asks of the two Houses of the battle). GAP-110: the giver chooses.
* **ration** (HARKONNEN-L03-c, ``win``): send any number of his tokens left in the territory to the reserve,
  2 spice each from the Bank (:class:`MoveTokens`, every count of unmarked and marked tokens, 0 included).
* **ship** (DISPERSION-L06-c, ``win``): a d10, on 1..6 a second d10 = N (public chance nodes, LC-1), then
  the choice of up to N reserve tokens (any mix the spice allows, 0 included) that land in the battle's arena for
  half the LAND-1 price, rounded up, paid to the Bank; no normal landing (no BG advisor); LAND-5: landed on a
  storm sector they are destroyed.
* **extra_revival(3)** (BG-L11-a, ``win``): revive 0 to 3 tokens at 1 spice each, beyond REVIVAL-1's 3 and not
  counted there, paid to whoever REVIVAL-1 pays; houses.md G-3's one marked token a turn still holds. GAP-110:
  it is offered once, at B10, rather than at any moment before the end of the turn.
* **reinforce(value 2)** (EMPEROR-L09-c, ``win``): free reserve tokens worth 2 on the wheel (marked 1,
  unmarked ½) into the territory, even with none of his left there. GAP-110: the menu is every mix worth at most
  2 to which no further reserve token can be added (so 2 marked, 1 marked + 2 unmarked, 4 unmarked when the
  reserve allows; less when it does not); the tokens go where :func:`_into_arena` says.

"His House" is the House that plays him (LC-9). A House eliminated by this battle gets no effect.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from dunenb.actions import Action, Pass
from dunenb.battle.leader_after import action_of
from dunenb.battle.leader_bounty import effect_args
from dunenb.battle.resolve import BattleOutcome, SideOutcome
from dunenb.battle.roster import Power
from dunenb.battle.wheel import Dial, army_value
from dunenb.errors import IllegalActionError
from dunenb.powers.leader_effects import TERRITORIES, _plain
from dunenb.rules import leader_capture, leader_tanks, leader_torture
from dunenb.rules.battle_context import BattleContext
from dunenb.rules.common import (
    Handler,
    edit_house,
    event,
    kill_tokens,
    menu_error,
    node,
    pending,
    rules,
    uniform,
    with_events,
)
from dunenb.rules.traitors import leader_of
from dunenb.state import GameState, Tokens


def begin(state: GameState, ctx: BattleContext, outcome: BattleOutcome) -> GameState:
    """B10: the fines, then each side's after-battle effects, the winner's side first (LC-5); an effect with a
    choice is a decision node; then the battle phase goes on
    (:func:`dunenb.rules.battle_phase.after_leader_effects`)."""
    sides = sorted(outcome.sides, key=lambda side: side.house != outcome.winner)
    for side in sides:
        if side.bounty_fine and side.house not in state.eliminated:
            state = _pay_fine(state, side, outcome)
    queue = tuple((side.house, power.id) for side in sides for power in _fired(side))
    return _next(state, ctx, outcome, queue)


def _fired(side: SideOutcome) -> tuple[Power, ...]:
    if side.leader is None or side.leader_owner is None:
        return ()
    return tuple(power for power in leader_of(side.leader_owner, side.leader).powers if power.id in side.after_battle)


def _power(outcome: BattleOutcome, house: str, power_id: str) -> tuple[SideOutcome, Power]:
    side = outcome.side(house)
    return side, next(power for power in _fired(side) if power.id == power_id)


def _next(state: GameState, ctx: BattleContext, outcome: BattleOutcome, queue: tuple) -> GameState:
    """Play the queued effects in turn; stop at the first one that asks a decision."""
    from dunenb.rules.battle_phase import after_leader_effects

    while queue:
        (house, power_id), queue = queue[0], queue[1:]
        if house in state.eliminated:
            continue  # a House eliminated by this battle gets no effect
        side, power = _power(outcome, house, power_id)
        if action_of(power)[0] == "draw":
            drawn = _begin_draw(state, ctx, outcome, queue, side, power)
            if drawn is not None:
                return drawn
            continue
        if action_of(power)[0] == "ship":  # d10 <= 6, then 1d10 (LC-1: public chance nodes)
            return dataclasses.replace(state, pending=pending(DIE, "chance", battle=ctx, outcome=outcome,
                                                              queue=queue, power=power_id, house=house,
                                                              step="active"))
        if action_of(power)[0] in OWN_MODULES:  # played in their own modules (destroy_tanks, torture)
            started = OWN_MODULES[action_of(power)[0]].begin(state, ctx, outcome, queue, side, power)
            if started is not None:
                return started
            continue
        if action_of(power)[0] == "see_traitor":
            shown = _begin_show(state, ctx, outcome, queue, side, power)
            if shown is not None:
                return shown
            continue
        if action_of(power)[0] in CHOICES:
            menu = _menu(state, ctx, side, power)
            if len(menu) > 1:
                return dataclasses.replace(state, pending=pending(KIND, house, battle=ctx, outcome=outcome,
                                                                  power=power_id, queue=queue))
            if menu:
                state = _apply_choice(state, ctx, menu[0])
            continue
        state = _effect(state, ctx, outcome, side, power)
    return after_leader_effects(state, ctx, outcome)


#: K-17 actions played in their own modules: TLEILAX-L03-d/-L04-d, BG-L09-b, BG-L03-b (each ``begin`` returns
#: the state at its first node, or ``None`` when there is nothing to do)
OWN_MODULES: dict[str, Any] = {"destroy_tanks": leader_tanks, "torture": leader_torture, "capture": leader_capture}


def resume(state: GameState, ctx: BattleContext, outcome: BattleOutcome, queue: tuple) -> GameState:
    """Go on with the queued after-battle effects (for the effects played in their own modules:
    :mod:`dunenb.rules.leader_tanks`)."""
    return _next(state, ctx, outcome, queue)


KIND = "after-battle"


@dataclass(frozen=True)
class DiscardFree(Action):
    """K-17 discard_free (EMPEROR-L06-d, EMPEROR-L10-c): ``house`` discards ``card``, a card of its hand that was
    not on its wheel in this battle (``Pass`` declines)."""

    kind: ClassVar[str] = "after-battle-discard"
    house: str
    power: str
    card: str


@dataclass(frozen=True)
class MoveTokens(Action):
    """K-17 tokens moved by ``power``: ``ration`` (HARKONNEN-L03-c: from the territory to the reserve, 2 spice
    each from the Bank) or ``reinforce`` (EMPEROR-L09-c: free from the reserve into the territory)."""

    kind: ClassVar[str] = "after-battle-tokens"
    house: str
    power: str
    what: str
    regular: int
    marked: int


@dataclass(frozen=True)
class PayUnseen(Action):
    """K-17 draw ``shown unless 2 paid`` (HARKONNEN-L06-c): ``house`` pays ``price`` to the Bank so that the
    card it draws is not shown to the Atreides (``Pass``: it is shown, ATREIDES-P2 b)."""

    kind: ClassVar[str] = "after-battle-unseen"
    house: str
    power: str
    price: int


@dataclass(frozen=True)
class ShowSlip(Action):
    """K-17 see_traitor (DISPERSION-L07-d, -L08-d): ``house`` shows ``to`` privately its traitor slip on
    ``leader_house``'s ``leader`` (secret: seen by the two Houses only, :mod:`dunenb.rules.secrecy`)."""

    kind: ClassVar[str] = "after-battle-slip"  # (K-18's own "show-slip" is dunenb.rules.leader_deals.ShowSlip)
    house: str
    to: str
    power: str
    leader_house: str
    leader: str


@dataclass(frozen=True)
class LeaderDie(Action):
    """A d10 rolled for a K-17 effect (LC-1: public): ``step`` ``active`` (DISPERSION-L06-c acts on 1..6) or
    ``count`` (1d10 = how many tokens may land)."""

    kind: ClassVar[str] = "after-battle-d10"
    is_chance: ClassVar[bool] = True
    house: str
    power: str
    step: str
    value: int


DRAW = "after-battle-draw"
SHOW = "after-battle-slip"
DIE = "after-battle-d10"
SHIP_ACTIVE = 6  # DISPERSION-L06-c: "d10 ≤ 6"
UNSEEN_PRICE = 2  # K-17 HARKONNEN-L06-c: "shown unless 2 spice are paid to the Bank"


@dataclass(frozen=True)
class GiveCard(Action):
    """K-17 give_card (EMPEROR-L04-c): ``house`` gives ``card`` to ``to``, taken from its ``source``: ``wheel``
    (a card it lost on the wheel of this battle, back from the discard pile) or ``hand``."""

    kind: ClassVar[str] = "after-battle-give"
    house: str
    power: str
    to: str
    card: str
    source: str


#: The K-17 actions that ask a decision (a node of kind :data:`KIND`).
CHOICES = ("discard_free", "ration", "reinforce", "extra_revival", "give_card")
REVIVAL_PRICE = 1  # K-17 extra_revival: 1 spice a token, paid as REVIVAL-1
RATION_PRICE = 2  # K-17 ration: spice from the Bank per token sent back


def _menu(state: GameState, ctx: BattleContext, side: SideOutcome, power: Power) -> list[Action]:
    action, params = action_of(power)
    house = side.house
    hs = state.houses[house]
    if action == "draw":  # HARKONNEN-L06-c: pay 2 to the Bank so that the card is not shown
        return [Pass(house), PayUnseen(house, power.id, UNSEEN_PRICE)]
    if action == "give_card":  # GAP-110: the giver chooses, among his lost wheel cards and his hand
        winner = ctx.opponent(house)
        wheel = [card for card in dict.fromkeys(side.cards_lost) if _on_pile(state, card)]
        return [*(GiveCard(house, power.id, winner, card, "wheel") for card in wheel),
                *(GiveCard(house, power.id, winner, card, "hand") for card in sorted(set(hs.hand)))]
    if action == "discard_free":
        free = Counter(hs.hand) - Counter(side.cards_played)  # never a card that was on his wheel
        return [Pass(house), *(DiscardFree(house, power.id, card) for card in sorted(free))]
    if action == "ration":  # any of his tokens left in the territory (none: nothing to choose)
        here = _arena(state, ctx, house)
        return [MoveTokens(house, power.id, action, regular, marked) for regular in range(here.regular + 1)
                for marked in range(here.marked + 1)]
    if action == "reinforce":  # tokens worth 2 (S = 1, unmarked = ½), the Emperor's choice (GAP-110)
        worth = int(params[1])
        fits = [(regular, marked) for regular in range(hs.reserve.regular + 1)
                for marked in range(hs.reserve.marked + 1)
                if army_value(Dial(regular, marked)) <= worth]
        best = [(r, m) for r, m in fits if (r + 1, m) not in fits and (r, m + 1) not in fits]
        return [MoveTokens(house, power.id, action, regular, marked) for regular, marked in best
                if regular or marked]
    if action == "extra_revival":  # 0..n tokens from the tanks, G-3's one marked token a turn, as he can pay
        from dunenb.rules.movement import MARKED_REVIVAL_LIMIT

        most = min(int(params[0]), hs.spice // REVIVAL_PRICE)
        marked_room = min(MARKED_REVIVAL_LIMIT - hs.revived_marked_this_turn, hs.tanks.marked)
        return [MoveTokens(house, power.id, action, regular, marked) for marked in range(max(0, marked_room) + 1)
                for regular in range(min(hs.tanks.regular, most - marked) + 1) if regular + marked <= most]
    raise AssertionError(action)


def _begin_show(state: GameState, ctx: BattleContext, outcome: BattleOutcome, queue: tuple, side: SideOutcome,
                power: Power) -> GameState | None:
    """K-17 see_traitor(X): House X shows one of its slips to this side's House (GAP-110: X picks which, when it
    holds several). ``None``: X is not in play or holds no slip."""
    from dunenb.powers.leader_effects import HOUSE_WORDS

    shower = HOUSE_WORDS[action_of(power)[1][0].lower()]
    if shower not in state.houses or shower in state.eliminated or not state.houses[shower].traitors:
        return None
    return dataclasses.replace(state, pending=pending(SHOW, shower, battle=ctx, outcome=outcome, queue=queue,
                                                      power=power.id, to=side.house))


def _show_decisions(state: GameState) -> list[Action]:
    detail = node(state).detail
    house = node(state).actor
    return [ShowSlip(house, detail["to"], detail["power"], owner, leader)
            for owner, leader in dict.fromkeys(state.houses[house].traitors)]


def _apply_show(state: GameState, action: Action) -> GameState:
    assert isinstance(action, ShowSlip)
    detail = node(state).detail
    state = with_events(state, event("slip-shown", f"{action.house} show {action.to} one of their traitor slips, "
                                     f"privately ({action.power}, K-17)", house=action.house, to=action.to,
                                     secret=True, powers=(action.power,)))
    return _next(state, detail["battle"], detail["outcome"], tuple(detail["queue"]))


def _die_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    return uniform([LeaderDie(detail["house"], detail["power"], detail["step"], face) for face in range(1, 11)])


def _apply_die(state: GameState, action: Action) -> GameState:
    """K-17 ship (DISPERSION-L06-c): on 1..6 the second d10 says how many tokens may land; then a decision."""
    assert isinstance(action, LeaderDie)
    detail = dict(node(state).detail)
    ctx, outcome, queue = detail["battle"], detail["outcome"], tuple(detail["queue"])
    what = "acts" if action.value <= SHIP_ACTIVE else "fails"
    text = (f"{action.house} roll {action.value}: {action.power} {what} (d10 ≤ {SHIP_ACTIVE})"
            if action.step == "active" else f"{action.house} roll {action.value}: up to {action.value} token(s) "
            f"may land ({action.power})")
    state = with_events(state, event("after-battle-d10", text + " (K-17, LC-1)", house=action.house,
                                     value=action.value, powers=(action.power,)))
    if action.step == "active":
        if action.value > SHIP_ACTIVE:
            return _next(state, ctx, outcome, queue)
        return dataclasses.replace(state, pending=pending(DIE, "chance", **{**detail, "step": "count"}))
    menu = _ship_menu(state, ctx, action.house, action.power, action.value)
    if len(menu) > 1:
        return dataclasses.replace(state, pending=pending(KIND, action.house, battle=ctx, outcome=outcome,
                                                          queue=queue, power=action.power, most=action.value))
    return _next(state, ctx, outcome, queue)


def ship_price(area: str, count: int) -> int:
    """K-17 ship: half the LAND-1 price, rounded up."""
    from dunenb.rules.movement import landing_cost

    return -(-landing_cost(area, count) // 2)


def _ship_menu(state: GameState, ctx: BattleContext, house: str, power: str, most: int) -> list[Action]:
    hs = state.houses[house]
    return [MoveTokens(house, power, "ship", regular, marked) for regular in range(min(most, hs.reserve.regular) + 1)
            for marked in range(min(most - regular, hs.reserve.marked) + 1)
            if ship_price(ctx.area, regular + marked) <= hs.spice]


def _ship(state: GameState, ctx: BattleContext, house: str, moved: Tokens, power: str) -> GameState:
    """K-17 ship: the tokens land in the arena, paying half the LAND-1 price to the Bank; no normal landing (no
    BG advisor); LAND-5: a storm sector destroys them."""
    cost = ship_price(ctx.area, moved.total)
    hs = state.houses[house]
    state = edit_house(state, house, reserve=hs.reserve - moved, spice=hs.spice - cost)
    state = dataclasses.replace(state, bank=state.bank + cost)
    state = _into_arena(state, ctx, house, moved)
    name = rules().board.area(ctx.area).name
    state = with_events(state, event("tokens-shipped", f"{house} land {moved.total} token(s) in {name} for {cost} "
                                     f"spice to the Bank ({power}, K-17)", house=house, count=moved.total,
                                     cost=cost, powers=(power,)))
    sector = next(s for s in ctx.sectors if (house, ctx.area, s) in state.forces)
    if sector in state.storm_sectors() and rules().board.area(ctx.area).kind != "pole":  # LAND-5
        state = kill_tokens(state, house, ctx.area, sector, moved)
        state = with_events(state, event("tokens-lost", f"{house} loses {moved.total} token(s) landed in the storm "
                                         f"(LAND-5, {power})", house=house, area=ctx.area, count=moved.total,
                                         powers=(power,)))
    return state


def _draw_count(state: GameState, house: str, power: Power) -> int:
    """K-17 draw(n): free cards within the hand limit (HAND-1; the Harkonnen's 8), while the deck (or the
    discard pile, GAP-27) has cards."""
    from dunenb.rules.bidding import can_draw, hand_limit

    count = min(int(action_of(power)[1][0]), hand_limit(state, house) - len(state.houses[house].hand))
    return count if count > 0 and can_draw(state) else 0


def _begin_draw(state: GameState, ctx: BattleContext, outcome: BattleOutcome, queue: tuple, side: SideOutcome,
                power: Power) -> GameState | None:
    """K-17 draw: HARKONNEN-L01-b, 2 cards, the first shown to the Atreides (ATREIDES-P2 b), the second not;
    HARKONNEN-L06-c, 1 card, shown unless 2 spice are paid to the Bank (a decision first). ``None``: no card."""
    count = _draw_count(state, side.house, power)
    if not count:
        return None
    mode = effect_args(power)[2] if len(effect_args(power)) > 2 else ""
    data = {"battle": ctx, "outcome": outcome, "queue": queue, "power": power.id}
    if mode.startswith("shown unless") and state.houses[side.house].spice >= UNSEEN_PRICE:
        return dataclasses.replace(state, pending=pending(KIND, side.house, **data))
    shown = (True,) + (False,) * (count - 1) if mode == "first shown" else (True,) * count
    return _next_card(state, side.house, shown, data)


def _next_card(state: GameState, house: str, shown: tuple[bool, ...], data: dict[str, Any]) -> GameState:
    from dunenb.rules.bidding import can_draw

    if shown and can_draw(state):
        return dataclasses.replace(state, pending=pending(DRAW, "chance", house=house, shown=shown, **data))
    return _next(state, data["battle"], data["outcome"], tuple(data["queue"]))


def _card_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    from dunenb.rules.bidding import DrawTreacheryCard, draw_probabilities

    house = node(state).detail["house"]
    return [(DrawTreacheryCard(house, card), chance) for card, chance in draw_probabilities(state)]


def _apply_card(state: GameState, action: Action) -> GameState:
    from dunenb.rules.bidding import DrawTreacheryCard, take_card

    assert isinstance(action, DrawTreacheryCard)
    detail = dict(node(state).detail)
    shown = tuple(detail.pop("shown"))
    house = detail.pop("house")
    state = take_card(state, action.card)
    state = edit_house(state, house, hand=state.houses[house].hand + (action.card,))
    seen = "" if shown[0] else ", not shown to the Atreides"
    state = with_events(state, event("after-battle-card", f"{house} draw a free treachery card ({detail['power']}, "
                                     f"K-17{seen})", house=house, secret=True, powers=(detail["power"],)))
    return _next_card(state, house, shown[1:], detail)


def shown_to_all_viewers(state: GameState) -> bool:
    """Whether the card the pending K-17 draw gives is seen as any drawn card (ATREIDES-P2 b), or by its drawer
    alone (:mod:`dunenb.rules.secrecy`)."""
    return state.pending is None or state.pending.kind != DRAW or bool(state.pending.detail["shown"][0])


def _on_pile(state: GameState, card: str) -> bool:
    return card in state.treachery_discard


def _arena(state: GameState, ctx: BattleContext, house: str) -> Tokens:
    total = Tokens()
    for sector in ctx.sectors:
        total = total + state.forces.get((house, ctx.area, sector), Tokens())
    return total


def _decisions(state: GameState) -> list[Action]:
    detail = node(state).detail
    if "most" in detail:  # K-17 ship, after its two d10
        return _ship_menu(state, detail["battle"], node(state).actor, detail["power"], detail["most"])
    side, power = _power(detail["outcome"], node(state).actor, detail["power"])
    return _menu(state, detail["battle"], side, power)


def _check(state: GameState, action: Action) -> IllegalActionError | None:
    return menu_error(action, _decisions(state), "after-battle/choice",
                      f"of {node(state).detail['power']} now (leaders.md K-17)")


def _apply(state: GameState, action: Action) -> GameState:
    detail = node(state).detail
    side, power = _power(detail["outcome"], node(state).actor, detail["power"])
    if action_of(power)[0] == "draw" and not isinstance(action, MoveTokens):
        data = {key: detail[key] for key in ("battle", "outcome", "queue", "power")}
        if isinstance(action, PayUnseen):
            state = edit_house(state, side.house, spice=state.houses[side.house].spice - action.price)
            state = dataclasses.replace(state, bank=state.bank + action.price)
            state = with_events(state, event("after-battle-unseen", f"{side.house} pay the Bank {action.price} "
                                             f"spice: the card they draw is not shown ({power.id}, K-17)",
                                             house=side.house, amount=action.price, powers=(power.id,)))
        count = _draw_count(state, side.house, power)
        return _next_card(state, side.house, (not isinstance(action, PayUnseen),) * count, data)
    state = _apply_choice(state, detail["battle"], action)
    return _next(state, detail["battle"], detail["outcome"], tuple(detail["queue"]))


def _apply_choice(state: GameState, ctx: BattleContext, action: Action) -> GameState:
    if isinstance(action, DiscardFree):
        hand = list(state.houses[action.house].hand)
        hand.remove(action.card)
        state = edit_house(state, action.house, hand=tuple(hand))
        state = dataclasses.replace(state, treachery_discard=state.treachery_discard + (action.card,))
        return with_events(state, event("cards-discarded", f"{action.house} discards {action.card} "
                                        f"({action.power}, K-17)", house=action.house, cards=(action.card,),
                                        powers=(action.power,)))
    if isinstance(action, GiveCard):
        if action.source == "wheel":
            pile = list(state.treachery_discard)
            del pile[len(pile) - 1 - pile[::-1].index(action.card)]  # the copy just discarded from his wheel
            state = dataclasses.replace(state, treachery_discard=tuple(pile))
        else:
            hand = list(state.houses[action.house].hand)
            hand.remove(action.card)
            state = edit_house(state, action.house, hand=tuple(hand))
        state = edit_house(state, action.to, hand=state.houses[action.to].hand + (action.card,))
        # the winner then discards down to his limit: dunenb.rules.on_call.begin_draws asks it (HAND-1)
        return with_events(state, event("card-given", f"{action.house} give {action.to} a card from their "
                                        f"{action.source} ({action.power}, K-17)", house=action.house,
                                        to=action.to, powers=(action.power,)))
    if isinstance(action, MoveTokens):
        moved = Tokens(action.regular, action.marked)
        if moved.is_empty():
            return state
        if action.what == "ration":
            return _ration(state, ctx, action.house, moved, action.power)
        if action.what == "ship":
            return _ship(state, ctx, action.house, moved, action.power)
        if action.what == "extra_revival":
            return _revive(state, action.house, moved, action.power)
        return _reinforce(state, ctx, action.house, moved, action.power)
    return state  # Pass: the optional effect is not used


def _ration(state: GameState, ctx: BattleContext, house: str, moved: Tokens, power: str) -> GameState:
    """K-17 ration: the tokens leave the territory for the reserve; the Bank pays 2 spice for each."""
    regular, marked = moved.regular, moved.marked
    for sector in ctx.sectors:
        key = (house, ctx.area, sector)
        stack = state.forces.get(key)
        if stack is None:
            continue
        take = Tokens(min(regular, stack.regular), min(marked, stack.marked))
        left = stack - take
        state = dataclasses.replace(state, forces=state.forces.without(key) if left.is_empty()
                                    else state.forces.set(key, left))
        regular, marked = regular - take.regular, marked - take.marked
    amount = RATION_PRICE * moved.total
    state = edit_house(state, house, reserve=state.houses[house].reserve + moved,
                       spice=state.houses[house].spice + amount)
    state = dataclasses.replace(state, bank=state.bank - amount)
    return with_events(state, event("tokens-rationed", f"{house} send {moved.total} token(s) back to the reserve "
                                    f"and the Bank pays {amount} spice ({power}, K-17)", house=house,
                                    count=moved.total, amount=amount, powers=(power,)))


def _revive(state: GameState, house: str, moved: Tokens, power: str) -> GameState:
    """K-17 extra_revival: tokens from the tanks to the reserve beyond REVIVAL-1's 3 (not counted there), 1 spice
    each, paid to whoever REVIVAL-1 pays (``revival.payee``: TLEILAX-P1, or the Bank)."""
    from dunenb.rules.movement import revival_payee

    hs = state.houses[house]
    cost = REVIVAL_PRICE * moved.total
    payee = revival_payee(state, house)
    state = edit_house(state, house, tanks=hs.tanks - moved, reserve=hs.reserve + moved, spice=hs.spice - cost,
                       revived_marked_this_turn=hs.revived_marked_this_turn + moved.marked)  # G-3 still counts
    if payee is None:
        state = dataclasses.replace(state, bank=state.bank + cost)
    else:
        state = edit_house(state, payee, spice=state.houses[payee].spice + cost)
    to = "the Bank" if payee is None else f"the {payee}"
    return with_events(state, event("revive", f"{house} revive {moved.total} token(s) beyond REVIVAL-1 for {cost} "
                                    f"spice, paid to {to} ({power}, K-17)", house=house, count=moved.total,
                                    marked=moved.marked, cost=cost, payee=payee or "bank", powers=(power,)))


def _reinforce(state: GameState, ctx: BattleContext, house: str, moved: Tokens, power: str) -> GameState:
    """K-17 reinforce: free reserve tokens into the territory, even if none of his is left there."""
    state = edit_house(state, house, reserve=state.houses[house].reserve - moved)
    state = _into_arena(state, ctx, house, moved)
    return with_events(state, event("tokens-reinforced", f"{house} bring {moved.total} token(s) from the reserve "
                                    f"into {rules().board.area(ctx.area).name} for free ({power}, K-17)",
                                    house=house, count=moved.total, powers=(power,)))


def _into_arena(state: GameState, ctx: BattleContext, house: str, tokens: Tokens) -> GameState:
    """Tokens put into the battle's arena: its first sector where the House has tokens, else its first sector
    (GAP-107)."""
    sector = next((s for s in ctx.sectors if (house, ctx.area, s) in state.forces), ctx.sectors[0])
    key = (house, ctx.area, sector)
    return dataclasses.replace(state, forces=state.forces.set(key, state.forces.get(key, Tokens()) + tokens))


def capture_by_choice(outcome: BattleOutcome) -> str:
    """K-17 chosen_capture (HARKONNEN-L07-c): the ID of the winner's entry that makes HARKONNEN-P4's capture
    after this battle a choice instead of a draw, or ``""``."""
    if outcome.winner is None:
        return ""
    side = outcome.side(outcome.winner)
    return next((power.id for power in _fired(side) if action_of(power)[0] == "chosen_capture"), "")


def card_draws(outcome: BattleOutcome) -> tuple[tuple[str, str, str, int], ...]:
    """K-17 steal_random as on-call draws (power, House, source, count), the winner's side first."""
    found = []
    for side in sorted(outcome.sides, key=lambda side: side.house != outcome.winner):
        if side.leader is None or side.leader_owner is None:
            continue
        enemy = next(other for other in outcome.sides if other is not side)
        for power in leader_of(side.leader_owner, side.leader).powers:
            action, params = action_of(power)
            if power.id in side.after_battle and action == "steal_random":
                found.append((power.id, side.house, enemy.house, int(params[0])))
    return tuple(found)


def _pay_fine(state: GameState, side: SideOutcome, outcome: BattleOutcome) -> GameState:
    victim = next(other for other in outcome.sides if other is not side)
    amount = min(side.bounty_fine, state.houses[side.house].spice)  # LC-8: as far as it can
    power = _fine_power(victim)
    state = edit_house(state, side.house, spice=state.houses[side.house].spice - amount)
    state = dataclasses.replace(state, bank=state.bank + amount)
    return with_events(state, event("bounty-fine", f"{side.house} pay the Bank {amount} spice for killing "
                                    f"{victim.leader} ({power}, K-15, LC-8)", house=side.house, amount=amount,
                                    powers=(power,)))


def _fine_power(victim: SideOutcome) -> str:
    assert victim.leader is not None and victim.leader_owner is not None
    leader = leader_of(victim.leader_owner, victim.leader)
    return next(p.id for p in leader.powers if p.kind == "BOUNTY" and effect_args(p)
                and effect_args(p)[0].startswith("killer_pays"))


def _effect(state: GameState, ctx: BattleContext, outcome: BattleOutcome, side: SideOutcome,
            power: Power) -> GameState:
    action, params = action_of(power)
    house = side.house
    if action == "keep":
        kept = ", ".join(c for c in side.cards_played if c not in side.cards_lost) or "nothing"
        return with_events(state, event("cards-kept", f"{house} take back {kept} ({power.id}, K-17)",
                                        house=house, powers=(power.id,)))
    if action == "see_spice":
        enemy = next(other for other in outcome.sides if other is not side)
        amount = state.houses[enemy.house].spice
        return with_events(state, event("spice-shown", f"{enemy.house} show their spice ({amount}) to the {house} "
                                        f"({power.id}, K-17)", house=enemy.house, to=house, amount=amount,
                                        powers=(power.id,)))
    if action == "chosen_capture":  # HARKONNEN-P4 asks it (dunenb.rules.battle_powers: capture by choice)
        return state
    if action == "steal_random":  # played as on-call draws (card_draws), after the winner's discard
        return state
    if action == "half_losses":
        return _to_reserve(state, ctx, side, power.id, won=outcome.winner == house)
    if action == "gain_spice":
        amount = int(params[0])
        state = edit_house(state, house, spice=state.houses[house].spice + amount)
        state = dataclasses.replace(state, bank=state.bank - amount)
        return with_events(state, event("after-battle-spice", f"The Bank pays {house} {amount} spice "
                                        f"({power.id}, K-17)", house=house, amount=amount, powers=(power.id,)))
    if action == "heal":
        return _heal(state, ctx, house, int(params[0]), side, won=outcome.winner == house, power=power.id)
    if action == "lose_tokens":
        area = TERRITORIES[_plain(" ".join(params[1:]))]
        return _lose(state, house, area, int(params[0]), power.id)
    raise AssertionError(f"{power.id}: {action} is not an applied action")  # leader_after.APPLIED_ACTIONS


def _heal(state: GameState, ctx: BattleContext, house: str, most: int, side: SideOutcome, *, won: bool,
          power: str) -> GameState:
    """K-17 heal, D-27, GAP-107: marked tokens first, as many as allowed."""
    hs = state.houses[house]
    lost = Tokens(side.tokens_lost.regular, side.tokens_lost.elite)
    marked = min(most, lost.marked, hs.tanks.marked)
    regular = min(most - marked, lost.regular, hs.tanks.regular)
    back = Tokens(regular, marked)
    if back.is_empty():
        return state
    state = edit_house(state, house, tanks=hs.tanks - back)
    if won:  # D-27: into the territory after a win
        state = _into_arena(state, ctx, house, back)
        where = rules().board.area(ctx.area).name
    else:  # D-27: to the reserve after a loss
        state = edit_house(state, house, reserve=state.houses[house].reserve + back)
        where = "the reserve"
    return with_events(state, event("tokens-healed", f"{back.total} of {house}'s tokens lost in the battle come "
                                    f"back to {where} ({power}, K-17, D-27)", house=house, count=back.total,
                                    powers=(power,)))


def _to_reserve(state: GameState, ctx: BattleContext, side: SideOutcome, power: str, *, won: bool) -> GameState:
    """K-17 half_losses after a loss (GAP-109): the saved tokens leave the territory for the reserve; after a
    win they simply stayed there (the outcome did not count them as lost)."""
    saved = Tokens(side.tokens_saved.regular, side.tokens_saved.elite)
    if saved.is_empty():
        return state if not won else with_events(state, event(
            "tokens-saved", f"{side.house} are spared half of their dialled tokens (rounded down), which stay in "
            f"the territory ({power}, K-17)", house=side.house, powers=(power,)))
    regular, marked = saved.regular, saved.marked
    for sector in ctx.sectors:
        stack = state.forces.get((side.house, ctx.area, sector))
        if stack is None:
            continue
        take = Tokens(min(regular, stack.regular), min(marked, stack.marked))
        left = stack - take
        key = (side.house, ctx.area, sector)
        state = dataclasses.replace(state, forces=state.forces.without(key) if left.is_empty()
                                    else state.forces.set(key, left))
        state = edit_house(state, side.house, reserve=state.houses[side.house].reserve + take)
        regular, marked = regular - take.regular, marked - take.marked
    return with_events(state, event("tokens-saved", f"{saved.total} of {side.house}'s dialled tokens go back to "
                                    f"the reserve instead of the tanks ({power}, K-17)", house=side.house,
                                    count=saved.total, powers=(power,)))


def _lose(state: GameState, house: str, area: str, most: int, power: str) -> GameState:
    """K-17 lose_tokens, GAP-108: unmarked tokens first, stacks in sector order."""
    left = most
    for sector in rules().board.area(area).sectors:
        stack = state.forces.get((house, area, sector))
        if stack is None or left <= 0:
            continue
        regular = min(left, stack.regular)
        take = Tokens(regular, min(left - regular, stack.marked))
        state = kill_tokens(state, house, area, sector, take)
        left -= take.total
    if left == most:
        return state
    name = rules().board.area(area).name
    return with_events(state, event("tokens-lost", f"{house} loses {most - left} token(s) in {name} ({power}, "
                                    "K-17)", house=house, area=area, count=most - left, powers=(power,)))


HANDLERS = {
    KIND: Handler(apply=_apply, decisions=_decisions, check=_check,
                  accepts=(DiscardFree, MoveTokens, PayUnseen, GiveCard)),
    DRAW: Handler(apply=_apply_card, outcomes=_card_outcomes),
    SHOW: Handler(apply=_apply_show, decisions=_show_decisions),
    DIE: Handler(apply=_apply_die, outcomes=_die_outcomes),
    **leader_tanks.HANDLERS,  # K-17 destroy_tanks
    **leader_torture.HANDLERS,  # K-17 torture
    **leader_capture.HANDLERS,  # K-17 capture
}
