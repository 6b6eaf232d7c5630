"""Secondary leaders' pre-battle actions: leaders.md K-16 PRE_BATTLE at LC-5 B1 (issue 11 item 2).

After the leader disclosures of houses.md G-9 step 1 (BG-M2) and before the Voices, each side, defender first,
is asked in turn (pass first) when one of the leaders it may lead with here holds a K-16 entry of an action
below that acts (:func:`dunenb.battle.leader_powers.acting`: LC-9 not while a foreign House plays him, LC-11 not
while a Karama blocks it, the entry's own condition; GAP-113: the leaders a House may lead with are public, so
being asked tells nothing). Its menu lists each use it can make now; it is asked again after each use, until it
passes. Each entry acts once per battle.

**Using one shows the leader** (K-16, LC-5 B1): the House names the leader, who is then bound to lead this
battle (:class:`~dunenb.rules.battle_context.LeaderShown`, shown to all: the plan must name him,
``battle/leader-disclosed``). A House whose leader is already bound (BG-M2's commitment) may only use his.

The actions applied (the others stay not-yet, see ``dunenb rules coverage``):

* ``see_leader`` (HARKONNEN-L04-c Piter; LC-5 B0, asked here with the B1 actions, before any Voice): as BG-M2,
  the opponent commits his leader at once (:class:`~dunenb.rules.pre_battle.CommitLeader`, shown to this House
  only) and must fight with him; then the step goes on from the defender (GAP-113).

* ``gain_spice n`` (GUILD-L04-d Ludwic, 2 at Gara Kulon) from the Bank; ``gain_spice 1d2`` (HARKONNEN-L12-c
  Ziarenko): a public chance node, 1 or 2 (LC-1).
* ``lock_spice`` (BG-L09-a Wensicia): the opponent announces now the spice he will dial
  (:class:`AnnounceSpice`, 0 to what he can dial: his spice and one per token there, GAP-42); his plan must dial
  exactly that (``battle/spice-locked``), and his menu lists only such dials.
* ``reinforce ×2`` / ``reinforce +2`` (TLEILAX-L01-d Scytale, TLEILAX-L02-d Torg): free tokens from the reserve
  into the sector of his army (the first of the arena's sectors that holds his tokens), as many as his House has
  in the territory (×2) or 2, limited by the reserve; not a landing (GAP-113: unmarked tokens first, then
  marked).
* ``swap_card`` (EMPEROR-L12-a Farad'N): one card of the hand for one of the discard pile (GAP-27), both named
  in the public event.
* ``buy_card`` (EMPEROR-L11-b Ziarenko): the top card of the deck for 3 spice to the Bank, seen by the Atreides
  (ATREIDES-P2 b), or for 5, not seen; only below the hand limit (``choice`` ``"3"`` or ``"5"``).
* ``fill_hand 6`` (EMPEROR-L12-b Farad'N): draw free from the deck up to 6 cards (the Atreides see them); after
  the battle's settlement a hand above the Emperor's limit of the moment is discarded down to it
  (:func:`dunenb.rules.on_call.begin_draws`, EMPEROR-M1). GAP-113: it may be used with or without the swap.
* ``traitor_draw`` (HARKONNEN-L08-c Yhékem): one of the opponent's own leaders (alive, held by it, not its main
  leader, not ``never_traitor``, not ``never_traitor_of`` this House) drawn at random, a secret chance node seen
  by the two Houses (``leader-traitor-draw``): this House may call treachery on him in this battle only, as if it
  held his slip (:func:`drawn_traitor`, read by :func:`dunenb.rules.battle_phase.may_call`).
* ``estimate`` (ATREIDES-L07-a army ±1, ATREIDES-L07-b leader ±2; LC-5 B3, once the prescience questions are
  answered, before the plans): the opponent names a number (D-34: his choice; :class:`NameEstimate`), which
  binds his plan (``battle/bound-by-voice`` names the breach): the army value of his dial (BATTLE-13 a-c,
  WHEEL-2, before leader powers: GAP-114) within ±1 of it, his leader's base strength within ±2 (D-34). His menu
  lists only dials that keep it.
* ``sense_karama`` (TLEILAX-L10-e, ATREIDES-L11-d; asked at B3 with the estimates): GAP-115: the opponent then
  sets its plan first, and once it is set says truthfully, in a public ``karama-sensed`` event, whether its
  wheel holds a Karama (LC-5 B4); the user plans after that.
* ``see_storm`` (GUILD-L11-c Staban, vs Fremen): 1 spice to the Fremen, then their storm tokens for next turn
  (FREMEN-P1) are shown to this House: a secret chance node with one outcome (``leader-see-storm``), seen by
  the two Houses.
* ``see_card`` (BG-L08-b Margot): one card drawn at random from the opponent's hand (a secret chance node seen
  by the two Houses, :mod:`dunenb.rules.secrecy` ``leader-see-card``), looked at and given back.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

from dunenb.actions import Action, Pass
from dunenb.battle import alias
from dunenb.battle.roster import Power, load_roster
from dunenb.errors import IllegalActionError
from dunenb.rules.battle_context import BattleContext, LeaderShown, context_of
from dunenb.rules.common import Handler, add_forces, edit_house, event, node, pending, with_events
from dunenb.rules.karama_window import register_resume
from dunenb.rules.leader_deals import args, entries
from dunenb.rules.traitors import LEADER_KEY_SEPARATOR, leader_of, leader_ref
from dunenb.shares import chance_share
from dunenb.state import FrozenDict, GameState, Tokens, evolve

NONE = "none"
KIND = "PRE_BATTLE"
#: The K-16 actions applied at LC-5 B1 (first word of the entry's parameter).
B1_ACTIONS = ("see_leader", "gain_spice", "lock_spice", "reinforce", "swap_card", "fill_hand", "buy_card",
              "see_card", "traitor_draw", "see_storm")
#: The K-16 actions of each step (LC-5): B1 before the Voices, B3 after the prescience questions and answers.
STEPS: dict[str, tuple[str, ...]] = {"B1": B1_ACTIONS, "B3": ("estimate", "sense_karama")}
#: K-16 ``estimate``: the margin of each estimate (A07-a army ±1, A07-b leader ±2).
MARGINS = {"army": 1, "leader": 2}
#: K-16 ``buy_card``: its price -> whether the Atreides see the card (ATREIDES-P2 b; EMPEROR-L11-b).
BUY_PRICES = {3: True, 5: False}
SWAP = ">"
#: K-16 ``see_storm`` (GUILD-L11-c): the spice paid to the Fremen.
STORM_PRICE = 1
SLIP = ":"


@dataclass(frozen=True)
class UsePreBattle(Action):
    """leaders.md K-16: ``house`` uses its leader ``leader``'s ``power`` (showing that he leads this battle).
    ``choice``: for ``swap_card``, ``"hand-card>discard-card"``; else ``none``."""

    kind: ClassVar[str] = "leader-pre-battle"
    house: str
    leader: str
    power: str
    choice: str = NONE


@dataclass(frozen=True)
class AnnounceSpice(Action):
    """K-16 ``lock_spice``: ``house`` announces the spice it will dial in this battle; its plan is bound to it."""

    kind: ClassVar[str] = "lock-spice"
    house: str
    spice: int


@dataclass(frozen=True)
class PreBattleDraw(Action):
    """A chance outcome of a K-16 action: ``value`` rolled (``gain_spice 1d2``) or the card drawn from
    ``source``'s hand (``see_card``)."""

    kind: ClassVar[str] = "leader-pre-battle-draw"
    is_chance: ClassVar[bool] = True
    house: str
    power: str
    value: str
    source: str = NONE


@dataclass(frozen=True)
class SeeCard(PreBattleDraw):
    """K-16 ``see_card``: the card ``house`` draws at random from ``source``'s hand, looks at and gives back
    (secret: seen by the two Houses)."""

    kind: ClassVar[str] = "leader-see-card"


# --- entries -------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _powers() -> dict[str, Power]:
    return {power.id: power for leader in load_roster().leaders for power in leader.powers}


def action_of(power: Power | str) -> str:
    """The K-16 action of an entry (``gain_spice``, ``lock_spice``...)."""
    found = _powers()[power] if isinstance(power, str) else power
    return args(found)[0].split()[0] if args(found) else ""


def _leaders(state: GameState, ctx: BattleContext, house: str) -> tuple[str, ...]:
    """The leaders ``house`` may lead with here; only the bound one once a leader is shown (BG-M2, K-16); at B3,
    only those whose wheel can still give the prescience answers ``house`` gave (GAP-138: using a power shows
    its leader, who must lead; e.g. after 'projectile+atomics', which only Waff's pistol and an Atomics card
    show, TLEILAX-M1, the Idaho-Ghola's sense_karama would leave no legal plan)."""
    from dunenb.rules.battle_phase import available_leaders
    from dunenb.rules.pre_battle import answering_leaders

    leaders = available_leaders(state, house, ctx.area, ctx.committed)
    shown = [s.leader for s in ctx.shown if s.house == house]
    if any(alias.binds(leader, key) for leader in shown for key in leaders):
        return alias.bound(shown, leaders)  # leaders.md S-3, GAP-142: a composite is bound by Alma's and X's
    return answering_leaders(state, ctx, house, leaders)


def _used(ctx: BattleContext, house: str, power: str) -> bool:
    return any(h == house and p == power for h, p, _v in ctx.leader_acts)


def _entries(state: GameState, ctx: BattleContext, house: str, step: str = "B1") -> list[tuple[str, Power]]:
    """(leader, entry) for each entry of ``step`` that acts for ``house`` now, unused in this battle."""
    return [(lid, power) for lid in _leaders(state, ctx, house)
            for power in entries(state, ctx, house, lid, KIND)
            if action_of(power) in STEPS[step] and not _used(ctx, house, power.id)]


def _reinforcement(state: GameState, ctx: BattleContext, house: str, power: Power) -> int:
    from dunenb.rules.battle_phase import arena_tokens

    word = args(power)[0].split()[1]
    wanted = arena_tokens(state, house, ctx.area, ctx.sectors).total if word == "×2" else int(word.lstrip("+"))
    return min(wanted, state.houses[house].reserve.total)


def _uses(state: GameState, ctx: BattleContext, house: str, step: str = "B1") -> list[UsePreBattle]:
    """The menu of K-16 uses of ``house`` now (an action that can do nothing now is left out)."""
    found: list[UsePreBattle] = []
    hs = state.houses[house]
    for lid, power in _entries(state, ctx, house, step):
        action = action_of(power)
        if action == "swap_card":
            found += [UsePreBattle(house, lid, power.id, f"{mine}{SWAP}{theirs}")
                      for mine in dict.fromkeys(hs.hand) for theirs in dict.fromkeys(state.treachery_discard)
                      if mine != theirs]
        elif action == "buy_card":
            found += [UsePreBattle(house, lid, power.id, str(price)) for price in BUY_PRICES
                      if hs.spice >= price and len(hs.hand) < _limit(state, house) and can_draw(state)]
        elif action == "fill_hand":
            if len(hs.hand) < _fill_to(power) and can_draw(state):
                found.append(UsePreBattle(house, lid, power.id))
        elif action == "see_storm" and (hs.spice < STORM_PRICE or not state.storm_tokens):
            continue
        elif action == "traitor_draw" and not traitor_pool(state, ctx, house):
            continue
        elif action == "see_card" and not state.houses[ctx.opponent(house)].hand:
            continue
        elif action == "see_leader" and any(s.house == ctx.opponent(house) for s in ctx.shown):
            continue  # the opposing leader is already committed
        elif action == "reinforce" and not _reinforcement(state, ctx, house, power):
            continue
        else:
            found.append(UsePreBattle(house, lid, power.id))
    return found


# --- the step ------------------------------------------------------------------------------------------

def begin(state: GameState, ctx: BattleContext, start: int = 0, step: str = "B1") -> GameState:
    """LC-5 B1 (then the Voices, G-9) or B3 (then the plans): ask each side in turn from ``start`` (defender
    first)."""
    from dunenb.rules import pre_battle

    for index in range(start, len(ctx.houses)):
        house = ctx.houses[index]
        if _entries(state, ctx, house, step):
            return evolve(state, pending=pending("leader-pre-battle", house, battle=ctx, index=index,
                                                              step=step))
    if step == "B3":
        return evolve(state, pending=pending("battle-plan", ctx.order[0], battle=ctx))
    return pre_battle._start_sequence(state, ctx)


def _step_now(state: GameState) -> str:
    return str(node(state).detail.get("step", "B1"))


def _decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [Pass(house), *_uses(state, context_of(state), house, _step_now(state))]


def _check(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, UsePreBattle) and action not in _uses(state, context_of(state), action.house,
                                                                _step_now(state)):
        uses = _uses(state, context_of(state), action.house, _step_now(state))
        shown = ", ".join(dict.fromkeys(f"{u.power} ({u.leader})" for u in uses)) or "none"
        return IllegalActionError("battle/pre-battle", f"{action.power} by {action.leader!r}"
                                  + (f" choosing {action.choice!r}" if action.choice != NONE else "")
                                  + f": not a pre-battle power {action.house} may use now (its leader's, once a "
                                  f"battle, a card held for one in the discard pile; leaders.md K-16); allowed: pass, "
                                  f"{shown}")
    return None


def _show(state: GameState, ctx: BattleContext, action: UsePreBattle) -> tuple[GameState, BattleContext]:
    """K-16: using a power shows the leader; he must lead this battle."""
    acts = ctx.leader_acts + ((action.house, action.power, ""),)
    ctx = evolve(ctx, leader_acts=acts)
    # shown once; leaders.md S-3, GAP-142: "Alma as X" using a power after Alma or X was shown narrows it to her
    if any(s.house == action.house and (s.leader == action.leader or not alias.binds(s.leader, action.leader))
           for s in ctx.shown):
        return state, ctx
    ctx = evolve(ctx, shown=ctx.shown + (LeaderShown(action.house, action.leader, action.power),))
    return with_events(state, event(
        "leader-disclosed", f"{action.house} shows that {action.leader} leads this battle: it uses {action.power} "
        "(leaders.md K-16, LC-5 B1)", house=action.house, leader=action.leader, power=action.power,
        powers=(action.power,))), ctx


def _again(state: GameState, ctx: BattleContext, house: str, step: str = "B1") -> GameState:
    return begin(state, ctx, ctx.houses.index(house), step)


def _apply(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    if not isinstance(action, UsePreBattle):
        return begin(state, ctx, node(state).detail["index"] + 1, _step_now(state))
    state, ctx = _show(state, ctx, action)
    state = _pay(state, ctx, action)
    from dunenb.rules.leader_karama_before import ask_before_use

    # leaders.md LC-11 a (GAP-151): a Karama against the leader, once the action is declared and paid
    return ask_before_use(state, ctx, action.house, action.power, DECLARED, action=action)


DECLARED = "leader-pre-battle-declared"


def _pay(state: GameState, ctx: BattleContext, action: UsePreBattle) -> GameState:
    """What the K-16 action costs, paid when it is declared (kept if a Karama then cancels it, LC-11 a): the
    price of ``buy_card`` to the Bank, of ``see_storm`` to the Fremen."""
    what = action_of(_powers()[action.power])
    house, other = action.house, ctx.opponent(action.house)
    if what == "buy_card":
        price = int(action.choice)
        state = edit_house(state, house, spice=state.houses[house].spice - price)
        return evolve(state, bank=state.bank + price)
    if what == "see_storm":  # pay the Fremen (the opponent: condition vs Fremen), then see their tokens
        state = edit_house(state, house, spice=state.houses[house].spice - STORM_PRICE)
        state = edit_house(state, other, spice=state.houses[other].spice + STORM_PRICE)
        return with_events(state, event(
            "leader-see-storm", f"{house} pay {other} {STORM_PRICE} spice to see their storm tokens for next turn "
            f"({action.power}, leaders.md K-16, FREMEN-P1)", house=house, source=other, price=STORM_PRICE,
            power=action.power, powers=(action.power,)))
    return state


def _declared(state: GameState, data: FrozenDict) -> GameState:
    """The K-16 action declared (after the LC-11 a window): cancelled if a Karama voids it, else carried out."""
    from dunenb.rules.leader_karama_before import cancelled

    ctx: BattleContext = data["battle"]
    action: UsePreBattle = data["action"]
    state, void = cancelled(state, action.house, action.power, "pre-battle action")
    if void:
        return _again(state, ctx, action.house)
    return _carry_out(state, ctx, action)


register_resume(DECLARED, _declared)


def _carry_out(state: GameState, ctx: BattleContext, action: UsePreBattle) -> GameState:
    """The effect of the K-16 action ``action`` (its price already paid, :func:`_pay`)."""
    power = _powers()[action.power]
    what = action_of(power)
    house, other = action.house, ctx.opponent(action.house)
    if what == "sense_karama":  # GAP-115: the opponent plans first, then says whether his wheel holds a Karama
        return _again(state, evolve(ctx, order=(other, house)), house, "B3")
    if what == "estimate":  # B3: the opponent names his estimate (D-34: his choice), which binds his plan
        return evolve(state, pending=pending("leader-estimate", other, battle=ctx, power=action.power,
                                                          what=args(power)[0].split()[1]))
    if what == "gain_spice":
        amount = args(power)[0].split()[1]
        if amount == "1d2":
            return evolve(state, pending=pending("leader-pre-battle-roll", "chance", battle=ctx,
                                                              house=house, power=action.power))
        return _gain(state, ctx, house, action.power, int(amount))
    if what == "see_leader":  # as BG-M2: the opponent commits his leader, shown to this House only
        from dunenb.rules.pre_battle import _leaders as wheel_leaders

        if not wheel_leaders(state, ctx, other):
            return _again(state, ctx, house)  # GAP-43: no leader to commit
        return evolve(state, pending=pending("battle-commit-leader", other, battle=ctx,
                                                          power=action.power))
    if what == "lock_spice":
        return evolve(state, pending=pending("lock-spice", other, battle=ctx, power=action.power))
    if what == "see_card":
        return evolve(state, pending=pending("leader-see-card", "chance", battle=ctx, house=house,
                                                          power=action.power))
    if what == "buy_card":
        price = int(action.choice)
        return _draw(state, ctx, house, action.power, 1, seen=BUY_PRICES[price], paid=price)
    if what == "fill_hand":
        count = _fill_to(power) - len(state.houses[house].hand)
        return _draw(state, ctx, house, action.power, count, seen=True)
    if what == "see_storm":  # paid when declared (:func:`_pay`); now they see the Fremen's tokens
        return evolve(state, pending=pending("leader-see-storm", "chance", battle=ctx, house=house,
                                                          power=action.power))
    if what == "traitor_draw":
        return evolve(state, pending=pending("leader-traitor-draw", "chance", battle=ctx, house=house,
                                                          power=action.power))
    if what == "reinforce":
        return _again(_reinforce(state, ctx, house, power), ctx, house)
    return _again(_swap(state, house, action), ctx, house)


def _gain(state: GameState, ctx: BattleContext, house: str, power: str, amount: int) -> GameState:
    state = edit_house(state, house, spice=state.houses[house].spice + amount)
    state = evolve(state, bank=state.bank - amount)
    state = with_events(state, event("leader-spice", f"{house} receive {amount} spice from the Bank ({power}, "
                                     "leaders.md K-16)", house=house, amount=amount, power=power, powers=(power,)))
    return _again(state, ctx, house)


def _reinforce(state: GameState, ctx: BattleContext, house: str, power: Power) -> GameState:
    """K-16 ``reinforce``: free reserve tokens into his army's sector (not a landing; GAP-113: unmarked first)."""
    count = _reinforcement(state, ctx, house, power)
    reserve = state.houses[house].reserve
    regular = min(count, reserve.regular)
    tokens = Tokens(regular, count - regular)
    sector = next((s for s in ctx.sectors if state.forces.get((house, ctx.area, s), Tokens()).total),
                  ctx.sectors[0])
    state = edit_house(state, house, reserve=reserve - tokens)
    state = add_forces(state, house, ctx.area, sector, tokens)
    return with_events(state, event(
        "leader-reinforce", f"{house} bring {count} token(s) from the reserve into {ctx.area} (sector {sector}), "
        f"free and not a landing ({power.id}, leaders.md K-16)", house=house, area=ctx.area, sector=sector,
        regular=tokens.regular, marked=tokens.marked, power=power.id, powers=(power.id,)))


def _swap(state: GameState, house: str, action: UsePreBattle) -> GameState:
    """K-16 ``swap_card``: one card of the hand for one of the discard pile (GAP-27), shown to all."""
    mine, theirs = action.choice.split(SWAP)
    hand = list(state.houses[house].hand)
    hand.remove(mine)
    discard = list(state.treachery_discard)
    discard.remove(theirs)
    state = edit_house(state, house, hand=tuple(hand) + (theirs,))
    state = evolve(state, treachery_discard=tuple(discard) + (mine,))
    return with_events(state, event(
        "leader-swap-card", f"{house} swap {mine} from its hand for {theirs} from the discard pile ({action.power}, "
        "leaders.md K-16)", house=house, given=mine, taken=theirs, power=action.power, powers=(action.power,)))


def _limit(state: GameState, house: str) -> int:
    from dunenb.rules.bidding import hand_limit

    return hand_limit(state, house)


def _fill_to(power: Power) -> int:
    """K-16 ``fill_hand 6``: the hand size it fills up to."""
    return int(args(power)[0].split()[1])


def can_draw(state: GameState) -> bool:
    from dunenb.rules.bidding import can_draw as deck_has_cards

    return deck_has_cards(state)


def _draw(state: GameState, ctx: BattleContext, house: str, power: str, count: int, *, seen: bool,
          paid: int = 0) -> GameState:
    """K-16 ``buy_card`` / ``fill_hand``: ``count`` cards drawn from the deck, one chance node each (secret; the
    Atreides see them when ``seen``, ATREIDES-P2 b)."""
    state = with_events(state, event(
        "leader-cards", f"{house} draw {count} card(s) from the deck" + (f" for {paid} spice to the Bank" if paid
                                                                         else " free")
        + (", seen by the Atreides" if seen else ", not seen") + f" ({power}, leaders.md K-16)", house=house,
        count=count, paid=paid, power=power, powers=(power,)))
    return _next_card(state, ctx, house, power, count, seen)


def _next_card(state: GameState, ctx: BattleContext, house: str, power: str, left: int, seen: bool) -> GameState:
    if left <= 0 or not can_draw(state):
        return _again(state, ctx, house)
    return evolve(state, pending=pending("leader-card", "chance", battle=ctx, house=house, power=power,
                                                      left=left, seen=seen))


@dataclass(frozen=True)
class LeaderCard(Action):
    """K-16 ``buy_card`` / ``fill_hand``: ``card`` drawn from the deck for ``house`` (secret, see
    :mod:`dunenb.rules.secrecy` ``leader-card``)."""

    kind: ClassVar[str] = "leader-card"
    is_chance: ClassVar[bool] = True
    house: str
    card: str


def _card_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    from dunenb.rules.bidding import draw_probabilities

    house = node(state).detail["house"]
    return [(LeaderCard(house, card), p) for card, p in draw_probabilities(state)]


def _apply_card(state: GameState, action: Action) -> GameState:
    from dunenb.rules.bidding import take_card

    assert isinstance(action, LeaderCard)
    detail = node(state).detail
    state = take_card(state, action.card)
    state = edit_house(state, action.house, hand=state.houses[action.house].hand + (action.card,))
    return _next_card(state, context_of(state), action.house, detail["power"], detail["left"] - 1, detail["seen"])


def card_viewers(state: GameState, house: str) -> tuple[str, ...]:
    """Who sees a ``leader-card`` drawn now: ``house``, and the Houses the ``draw.viewers`` hook adds (ATREIDES-P2
    b) unless the card was bought unseen (EMPEROR-L11-b for 5)."""
    from dunenb.powers import applied

    if state.pending is not None and not state.pending.detail.get("seen", True):
        return (house,)
    return tuple(applied(state, "draw.viewers", (house,), {"house": house})[0])


@dataclass(frozen=True)
class LeaderTraitorDraw(Action):
    """K-16 ``traitor_draw``: ``leader`` of ``source`` drawn at random: a traitor of ``house`` for this battle
    (secret: seen by the two Houses)."""

    kind: ClassVar[str] = "leader-traitor-draw"
    is_chance: ClassVar[bool] = True
    house: str
    power: str
    source: str
    leader: str


def traitor_pool(state: GameState, ctx: BattleContext, house: str) -> tuple[str, ...]:
    """K-16 ``traitor_draw``: the opponent's own leaders alive and held by it (so not captured), not its main
    leader, who may be ``house``'s traitors (never_traitor, never_traitor_of: K-21)."""
    from dunenb.battle.traitors import can_be_traitor_of

    other = ctx.opponent(house)
    return tuple(lid for lid in state.houses[other].leaders if LEADER_KEY_SEPARATOR not in lid
                 and can_be_traitor_of(leader_of(other, lid), house))


def _traitor_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    ctx = context_of(state)
    pool = traitor_pool(state, ctx, detail["house"])
    return [(LeaderTraitorDraw(detail["house"], detail["power"], ctx.opponent(detail["house"]), lid),
             chance_share(1, len(pool))) for lid in pool]


def _apply_traitor(state: GameState, action: Action) -> GameState:
    assert isinstance(action, LeaderTraitorDraw)
    ctx = context_of(state)
    value = f"{action.source}{SLIP}{action.leader}"
    acts = tuple((h, p, value) if (h, p) == (action.house, action.power) else (h, p, v)
                 for h, p, v in ctx.leader_acts)
    ctx = evolve(ctx, leader_acts=acts)
    state = with_events(state, event(
        "leader-traitor-drawn", f"{action.house} draw one of {action.source}'s leaders at random: a traitor for "
        f"this battle only ({action.power}, leaders.md K-16; only the two Houses see which)", house=action.house,
        source=action.source, secret=True, power=action.power, powers=(action.power,)))
    return _again(state, ctx, action.house)


def acts_seen_by(ctx: BattleContext, house: str) -> tuple[tuple[str, str, str], ...]:
    """GAP-58: the K-16 uses of this battle as ``house`` sees them: the leader drawn by ``traitor_draw`` is seen
    by the two Houses of the battle only (``hidden`` for the others)."""
    if house in ctx.houses:
        return ctx.leader_acts
    return tuple((h, p, "hidden" if v and action_of(p) == "traitor_draw" else v) for h, p, v in ctx.leader_acts)


def drawn_traitor(state: GameState, caller: str, owner: str, leader: str) -> bool:
    """Whether ``caller`` drew ``owner``'s ``leader`` by ``traitor_draw`` in the battle pending now (TRAITOR-8)."""

    if state.pending is None or not isinstance(state.pending.detail.get("battle"), BattleContext):
        return False
    own, lid = leader_ref(owner, leader)
    return any(h == caller and v == f"{own}{SLIP}{lid}" and action_of(p) == "traitor_draw"
               for h, p, v in state.pending.detail["battle"].leader_acts)


# --- B3: Tufir's estimates -----------------------------------------------------------------------------

@dataclass(frozen=True)
class NameEstimate(Action):
    """K-16 ``estimate``: ``house`` names ``value`` (its army value within ±1, or its leader's base strength within
    ±2, D-34); its plan is bound to it."""

    kind: ClassVar[str] = "estimate"
    house: str
    value: int


def _max_army(state: GameState, ctx: BattleContext, house: str) -> int:
    from dunenb.battle.wheel import Dial, army_value
    from dunenb.rules.battle_phase import arena_tokens

    tokens = arena_tokens(state, house, ctx.area, ctx.sectors)
    spice = min(state.houses[house].spice, tokens.total)
    return int(army_value(Dial(tokens.regular, tokens.marked, spice)))


def _strengths(state: GameState, ctx: BattleContext, house: str) -> tuple[int, ...]:

    return tuple(sorted({leader_of(house, lid).strength for lid in _leaders(state, ctx, house)})) or (0,)


def estimate_choices(state: GameState, ctx: BattleContext, house: str, what: str) -> tuple[int, ...]:
    """What ``house`` may name: an army value from 0 to its largest dial (GAP-114), or a strength within 2 of a
    leader it may lead with (0 with none, GAP-43)."""
    if what == "army":
        return tuple(range(_max_army(state, ctx, house) + 1))
    return tuple(sorted({y for s in _strengths(state, ctx, house) for y in range(max(0, s - 2), s + 3)}))


def _estimate_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [NameEstimate(house, v) for v in estimate_choices(state, context_of(state), house,
                                                             node(state).detail["what"])]


def _check_estimate(state: GameState, action: Action) -> IllegalActionError | None:
    if not isinstance(action, NameEstimate):
        return None
    what = node(state).detail["what"]
    allowed = estimate_choices(state, context_of(state), action.house, what)
    if action.value not in allowed:
        return IllegalActionError("battle/estimate", f"estimate {action.value}: {action.house} name its {what} "
                                  f"{'value' if what == 'army' else 'base strength'} within ±{MARGINS[what]} "
                                  f"(leaders.md K-16 estimate, D-34); allowed: {', '.join(map(str, allowed))}")
    return None


def _apply_estimate(state: GameState, action: Action) -> GameState:
    assert isinstance(action, NameEstimate)
    ctx = context_of(state)
    power, what = node(state).detail["power"], node(state).detail["what"]
    user = ctx.opponent(action.house)
    acts = tuple((h, p, f"{what}{SLIP}{action.value}") if (h, p) == (user, power) else (h, p, v)
                 for h, p, v in ctx.leader_acts)
    ctx = evolve(ctx, leader_acts=acts)
    state = with_events(state, event(
        "estimate", f"{action.house} name {action.value} as its {what} {'value' if what == 'army' else 'strength'}"
        f" (within ±{MARGINS[what]}; {power}, leaders.md K-16): its plan is bound to it", house=action.house,
        what=what, value=action.value, power=power, powers=(power,)))
    return _again(state, ctx, user, "B3")


def estimates_on(ctx: BattleContext, house: str) -> dict[str, int]:
    """The estimates ``house`` named in this battle (``army`` / ``leader`` -> value)."""
    found = {}
    for user, power, value in ctx.leader_acts:
        if user != house and value and action_of(power) == "estimate":
            what, _sep, number = value.partition(SLIP)
            found[what] = int(number)
    return found


def _army(regular: int, marked: int, spice: int) -> Fraction:
    from dunenb.battle.wheel import Dial, army_value

    return army_value(Dial(regular, marked, spice))


def after_plan(state: GameState, ctx: BattleContext, house: str) -> GameState:
    """K-16 ``sense_karama`` (LC-5 B4): once ``house`` has set its plan, if its opponent used the power, it says
    truthfully (a public event) whether its wheel holds a Karama."""
    plan = ctx.plan_of(house)
    for user, power, _value in ctx.leader_acts:
        if user == ctx.opponent(house) and action_of(power) == "sense_karama" and plan is not None:
            holds = plan.karama != NONE
            state = with_events(state, event(
                "karama-sensed", f"{house} say{'' if holds else ' not'} that their wheel holds a Karama: "
                f"{'yes' if holds else 'no'} ({power}, leaders.md K-16; truthful)", house=house, to=user,
                karama=holds, power=power, powers=(power,)))
    return state


@dataclass(frozen=True)
class SeeStorm(Action):
    """K-16 ``see_storm``: the storm tokens ``tokens`` (``storm=move`` joined by commas) of ``source`` that
    ``house`` sees (its only outcome: a secret action seen by the two Houses)."""

    kind: ClassVar[str] = "leader-see-storm"
    is_chance: ClassVar[bool] = True
    house: str
    power: str
    source: str
    tokens: str


def _storm_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    tokens = ",".join(f"{storm}={move}" for storm, move in sorted(state.storm_tokens.items()))
    source = context_of(state).opponent(detail["house"])
    return [(SeeStorm(detail["house"], detail["power"], source, tokens), Fraction(1))]


def _apply_storm(state: GameState, action: Action) -> GameState:
    assert isinstance(action, SeeStorm)
    return _again(state, context_of(state), action.house)


# --- chance nodes and the announcement -------------------------------------------------------------------

def _roll_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    return [(PreBattleDraw(detail["house"], detail["power"], str(v)), Fraction(1, 2)) for v in (1, 2)]


def _apply_roll(state: GameState, action: Action) -> GameState:
    assert isinstance(action, PreBattleDraw)
    return _gain(state, context_of(state), action.house, action.power, int(action.value))


def _see_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    source = context_of(state).opponent(detail["house"])
    hand = Counter(state.houses[source].hand)
    total = sum(hand.values())
    return [(SeeCard(detail["house"], detail["power"], card, source), chance_share(count, total))
            for card, count in sorted(hand.items())]


def _apply_see(state: GameState, action: Action) -> GameState:
    assert isinstance(action, SeeCard)
    state = with_events(state, event(
        "leader-see-card", f"{action.house} draw a card at random from {action.source}'s hand, look at it and give "
        f"it back ({action.power}, leaders.md K-16; only they and {action.source} see which)", house=action.house,
        source=action.source, secret=True, power=action.power, powers=(action.power,)))
    return _again(state, context_of(state), action.house)


def lock_limit(state: GameState, ctx: BattleContext, house: str) -> int:
    """The most spice ``house`` can dial here: its spice, one per token in the arena (GAP-42)."""
    from dunenb.rules.battle_phase import arena_tokens

    return min(state.houses[house].spice, arena_tokens(state, house, ctx.area, ctx.sectors).total)


def _announce_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [AnnounceSpice(house, n) for n in range(lock_limit(state, context_of(state), house) + 1)]


def _check_announce(state: GameState, action: Action) -> IllegalActionError | None:
    if not isinstance(action, AnnounceSpice):
        return None
    limit = lock_limit(state, context_of(state), action.house)
    if not 0 <= action.spice <= limit:
        return IllegalActionError("battle/spice-locked", f"spice {action.spice}: {action.house} announce the spice "
                                  f"it will dial (leaders.md K-16 lock_spice); allowed: 0..{limit}")
    return None


def _apply_announce(state: GameState, action: Action) -> GameState:
    assert isinstance(action, AnnounceSpice)
    ctx = context_of(state)
    power = node(state).detail["power"]
    user = ctx.opponent(action.house)
    acts = tuple((h, p, str(action.spice)) if (h, p) == (user, power) else (h, p, v) for h, p, v in ctx.leader_acts)
    ctx = evolve(ctx, leader_acts=acts)
    state = with_events(state, event(
        "spice-locked", f"{action.house} announce {action.spice} spice on its wheel and may not change it "
        f"({power}, leaders.md K-16)", house=action.house, spice=action.spice, power=power, powers=(power,)))
    return _again(state, ctx, user)


def locked_spice(ctx: BattleContext, house: str) -> int | None:
    """The spice ``house`` announced under ``lock_spice`` in this battle, or ``None``."""
    for user, power, value in ctx.leader_acts:
        if value and user != house and action_of(power) == "lock_spice":
            return int(value)
    return None


def binds_plans(ctx: BattleContext, house: str) -> bool:
    """Whether a K-16 binding (``lock_spice``, ``estimate``) is in force on ``house``'s plan: without one
    :func:`plan_problems` finds nothing (issue 14 item 4, :func:`dunenb.rules.pre_battle.may_be_bound`)."""
    return locked_spice(ctx, house) is not None or bool(estimates_on(ctx, house))


def plan_problems(ctx: BattleContext, plan: Any) -> tuple[str, ...]:
    """What in ``plan`` breaks a K-16 binding (``lock_spice``, ``estimate``), for
    :func:`dunenb.rules.pre_battle.violations`."""

    problems = []
    locked = locked_spice(ctx, plan.house)
    if locked is not None and plan.spice != locked:
        problems.append(f"it announced {locked} spice on its wheel (K-16 lock_spice) but dials {plan.spice}")
    named = estimates_on(ctx, plan.house)
    if "army" in named and abs(_army(plan.regular, plan.marked, plan.spice) - named["army"]) > MARGINS["army"]:
        problems.append(f"it named {named['army']} as its army value (K-16 estimate, ±1) but dials "
                        f"{float(_army(plan.regular, plan.marked, plan.spice)):g}")
    if "leader" in named:
        strength = 0 if plan.leader == NONE else leader_of(plan.house, plan.leader).strength
        if abs(strength - named["leader"]) > MARGINS["leader"]:
            problems.append(f"it named {named['leader']} as its leader's strength (K-16 estimate, ±2) but "
                            f"{plan.leader} is {strength}")
    return tuple(problems)


def locked_dials(ctx: BattleContext, house: str,
                 dials: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, int, int], ...]:
    """The plan menu's dials kept within the K-16 bindings: the spice announced under ``lock_spice`` (where
    enough tokens are dialled) and the army value named under ``estimate`` (±1); when none of the menu's dials
    does, the smallest dials that do (from the largest dial, the last of the menu)."""
    locked = locked_spice(ctx, house)
    army = estimates_on(ctx, house).get("army")
    if locked is None and army is None:
        return dials

    def fits(r: int, m: int, s: int) -> bool:
        return (locked is None or s == locked) and (army is None or abs(_army(r, m, s) - army) <= MARGINS["army"])
    kept = tuple(dict.fromkeys((r, m, s if locked is None else locked) for r, m, s in dials
                               if r + m >= (locked or 0) and fits(r, m, s if locked is None else locked)))
    if kept:
        return kept
    top_r, top_m, top_s = dials[-1]
    spices = range(top_s + 1) if locked is None else (locked,)
    found = [(r, m, s) for r in range(top_r + 1) for m in range(top_m + 1) for s in spices
             if s <= r + m and fits(r, m, s)]
    return tuple(found[:3])


HANDLERS = {
    "leader-pre-battle": Handler(apply=_apply, decisions=_decisions, check=_check, accepts=(UsePreBattle,),
                                 always=(Pass,)),
    "leader-pre-battle-roll": Handler(apply=_apply_roll, outcomes=_roll_outcomes),
    "leader-see-card": Handler(apply=_apply_see, outcomes=_see_outcomes),
    "leader-card": Handler(apply=_apply_card, outcomes=_card_outcomes),
    "leader-traitor-draw": Handler(apply=_apply_traitor, outcomes=_traitor_outcomes),
    "leader-see-storm": Handler(apply=_apply_storm, outcomes=_storm_outcomes),
    "leader-estimate": Handler(apply=_apply_estimate, decisions=_estimate_decisions, check=_check_estimate,
                               accepts=(NameEstimate,)),
    "lock-spice": Handler(apply=_apply_announce, decisions=_announce_decisions, check=_check_announce,
                          accepts=(AnnounceSpice,)),
}
