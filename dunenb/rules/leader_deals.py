"""Avoiding the battle with a secondary leader's power: leaders.md K-19 BUY_OFF (LC-5 B5) and K-18
ALLIANCE_INSTEAD_OF_BATTLE (LC-5 B8), issue 11 item 2.

Both end the battle the way HARKONNEN-M2's buy-off does, through the one mechanism of
:mod:`dunenb.rules.battle_powers` (:func:`~dunenb.rules.battle_powers.pay_off`,
:func:`~dunenb.rules.battle_powers.void_battle`): the battle is void (cards, dialled tokens and wheel spice stay
with their Houses, nobody dies, no bounty), both leaders count as having fought there (BATTLE-15), and the
buyer's (K-19) or the proposer's (K-18) tokens there are at peace for the rest of the turn (ALLIANCE-11).

Which entries act: those of the leader on the House's wheel, read by
:func:`dunenb.battle.leader_powers.acting` (LC-9: none while a foreign House plays him; LC-11: none blocked by a
Karama in force; the kind's own condition).

* **K-19 BUY_OFF(cost → enemy)** (BG-L11-b Talamane 3, HARKONNEN-L07-b Lingar 5), at B5: once both plans are
  set and before the reveal, each side (defender first) whose wheel could hold such a leader is asked (GAP-111:
  the leaders a House may put on its wheel are public, so asking tells nothing the table does not know; the
  menu, which only that House sees, offers the buy-off only when its plan's leader holds it). Paying shows the
  buyer's leader (K-16: "using one shows the leader"); the cost must be payable, and it cannot be refused.
* **K-18** at B8, skipped after a treachery (LC-5): each side (defender first) whose revealed leader holds an
  entry whose partner condition matches the opposing leader (D-30: read against his own House, LC-9) may make
  one proposal (:class:`ProposeAlliance`); the opponent accepts or refuses (:class:`AnswerAlliance`). Offers
  implemented: ``spice`` (k ≥ 1 paid at once, G10-b, G12-a/b) and ``revive`` (the Tleilax revive free, into
  the partner's reserve or leaders, beyond REVIVAL-1: T05..T08-d, T09-a; GAP-112: one proposal names one good,
  a number of dead tokens of one kind or one dead leader). Accepted, the deal is a logged alliance (GAP-19b, the
  ``leader-alliance`` event) and the battle is void with the proposer at peace; refused, the battle goes on.
  ``traitor`` (H11-b, H12-b; the Harkonnen must hold a slip naming a leader of the partner's own House):
  accepted, the Harkonnen pick the slip they show, a secret action seen by the two Houses (``show-slip``).
  ``prescience(k)`` (A01-a, A02-b): the partner borrows ATREIDES-P1 for k turns (1 to the lends' design limit
  of 5, ALLIANCE-12), chosen by the Atreides, as an ALLIANCE-11 lend (houses.md G-10: the partner asks in its
  battles, the Atreides do not meanwhile; a new alliance window ends it, ALLIANCE-4).
* **F05-c** (Siona against Léto II, automatic, D-29): at B8, before any proposal, the battle is void with the
  Fremen at peace, and each House (the Fremen first) gives the other one of its own living, uncaptured secondary
  leaders of its choice (:class:`GiveLeader`, an ALLIANCE-11 leader transfer, permanent: LC-9). GAP-112: the
  gifts are made at once, not later in the turn; a House with no such leader gives none. The further clauses
  D-29 allows stay table talk.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from dunenb.actions import Action, Pass
from dunenb.battle.leader_exchange import EXCHANGE, exchange_of, exchange_text, partner
from dunenb.battle.leader_exchange import offer_word as exchange_offer_word
from dunenb.battle.leader_powers import Scene, acting, holds
from dunenb.battle.roster import Leader, Power
from dunenb.errors import IllegalActionError
from dunenb.powers.karama import suppressed_powers
from dunenb.powers.leader_effects import Effect
from dunenb.rules.battle_context import BattleContext, context_of
from dunenb.rules.battle_powers import blocked_in_battle, own_dead
from dunenb.rules.common import Handler, edit_house, event, node, pending, with_events
from dunenb.rules.lent_powers import MAX_LEND_TURNS
from dunenb.rules.traitors import leader_of
from dunenb.state import GameState, LentPower, Tokens

NONE = "none"
BUY_OFF = "BUY_OFF"
ALLIANCE = "ALLIANCE_INSTEAD_OF_BATTLE"
#: K-18 offers this module applies (the others stay not-yet, see the module docstring).
OFFERS = ("spice", "revive", "traitor", "prescience")
#: A short menu of spice amounts for a K-18 spice offer (any other amount from 1 to the proposer's spice is legal).
MENU_SPICE = (1, 2, 3, 5)
ACCEPT, REFUSE = "accept", "refuse"
TRAITOR = "traitor"


# --- which entries act -------------------------------------------------------------------------------------

def blocked(state: GameState, house: str) -> frozenset[str]:
    """The powers ``house``'s side does not hold in this battle (a Karama in force, LC-11; G-7)."""
    return blocked_in_battle(state, house) | suppressed_powers(state)


def _leader(house: str, leader_id: str | None) -> Leader | None:
    return None if leader_id in (None, NONE) else leader_of(house, str(leader_id))


def scene(state: GameState, ctx: BattleContext, leaders: dict[str, str | None]) -> Scene:
    """The leaders.md scene of this battle with ``leaders`` (House -> leader id; ``None``: not known yet)."""
    houses = ctx.houses
    first, second = houses  # issue 14 item 4: the two sides written out (no generators; asked at every B-step)
    return Scene.of(ctx.area, houses, (_leader(first, leaders.get(first)), _leader(second, leaders.get(second))),
                    defender=0, dead=(own_dead(state, first), own_dead(state, second)),
                    blocked=(blocked(state, first), blocked(state, second)),
                    shield_wall_standing=state.shield_wall_standing)


def entries(state: GameState, ctx: BattleContext, house: str, leader_id: str | None, kind: str,
            opponent_leader: str | None = None) -> tuple[Power, ...]:
    """The entries of ``kind`` that act for ``house``'s leader ``leader_id`` in this battle now."""
    if leader_id in (None, NONE):
        return ()
    found = scene(state, ctx, {house: leader_id, ctx.opponent(house): opponent_leader})
    return acting(found, ctx.houses.index(house), kind)


def _wheel_leaders(state: GameState, ctx: BattleContext, house: str) -> tuple[str, ...]:
    from dunenb.rules.battle_phase import available_leaders

    return available_leaders(state, house, ctx.area, ctx.committed)


# --- K-19 BUY_OFF at B5 ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LeaderBuyOff(Action):
    """leaders.md K-19: ``house`` uses its wheel leader's ``power`` and pays the opposing House ``price``: the
    battle is void and ``house``'s tokens there are at peace (``Pass`` declines)."""

    kind: ClassVar[str] = "leader-buy-off"
    house: str
    power: str
    price: int


def args(power: Power) -> tuple[str, ...]:
    """The parameters of an entry of an untyped kind (K-16, K-18, K-19: :class:`Effect` ``args``)."""
    return power.effect.args if isinstance(power.effect, Effect) else ()


def buy_off_cost(power: Power) -> int:
    """The cost of a BUY_OFF entry (``"3 → enemy"``: 3)."""
    return int(args(power)[0].split()[0])


def _buy_off_offers(state: GameState, ctx: BattleContext, house: str) -> list[LeaderBuyOff]:
    """K-19 for ``house`` now: each BUY_OFF entry of its plan's leader that it can pay for."""
    plan = ctx.plan_of(house)
    if plan is None:
        return []
    spice = state.houses[house].spice
    return [LeaderBuyOff(house, power.id, buy_off_cost(power))
            for power in entries(state, ctx, house, plan.leader, BUY_OFF) if buy_off_cost(power) <= spice]


def _may_be_asked(state: GameState, ctx: BattleContext, house: str) -> bool:
    """GAP-111: ``house`` is asked at B5 when a leader it may put on its wheel here holds a BUY_OFF entry that
    acts (public knowledge)."""
    for lid in _wheel_leaders(state, ctx, house):  # issue 14 item 4: a loop, not any() over a generator
        if entries(state, ctx, house, lid, BUY_OFF):
            return True
    return False


def before_reveal(state: GameState, ctx: BattleContext, start: int = 0) -> GameState:
    """LC-5 B5: offer K-19 to each side in turn from ``start`` (defender first), then reveal the wheels."""
    from dunenb.rules import battle_phase

    for index in range(start, len(ctx.houses)):
        house = ctx.houses[index]
        if _may_be_asked(state, ctx, house):
            return dataclasses.replace(state, pending=pending("leader-buy-off", house, battle=ctx, index=index))
    return battle_phase.reveal(state, ctx)


def _buy_off_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [Pass(house), *_buy_off_offers(state, context_of(state), house)]


def _check_buy_off(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, LeaderBuyOff) and action not in _buy_off_offers(state, context_of(state), action.house):
        allowed = ", ".join(f"{o.power} for {o.price}" for o in _buy_off_offers(state, context_of(state),
                                                                                 action.house)) or "none"
        return IllegalActionError("buy-off/leader", f"{action.power} for {action.price}: a buy-off names a BUY_OFF "
                                  f"power of the leader on {action.house}'s wheel and its cost, which it must be "
                                  f"able to pay (leaders.md K-19); allowed: pass" + ("" if allowed == "none" else
                                                                                    f", {allowed}"))
    return None


def _apply_buy_off(state: GameState, action: Action) -> GameState:
    from dunenb.rules.battle_powers import pay_off

    ctx = context_of(state)
    if not isinstance(action, LeaderBuyOff):
        return before_reveal(state, ctx, node(state).detail["index"] + 1)
    leader = ctx.plan_of(action.house).leader
    state = with_events(state, event(
        "leader-shown", f"{action.house} shows its leader {leader} to use {action.power} (leaders.md K-16/K-19: "
        "using a power before the reveal shows the leader)", house=action.house, leader=leader,
        power=action.power, powers=(action.power,)))
    return pay_off(state, ctx, action.house, action.price, action.power)


# --- K-18 ALLIANCE_INSTEAD_OF_BATTLE at B8 -------------------------------------------------------------------

@dataclass(frozen=True)
class ProposeAlliance(Action):
    """leaders.md K-18: ``house`` proposes an alliance instead of the battle by its leader's ``power``: it offers
    ``amount`` of ``item`` (``spice``: ``item`` ``"spice"``; ``revive``: ``"regular"``, ``"marked"`` or a dead
    leader's key in the partner's tanks). ``Pass`` makes none."""

    kind: ClassVar[str] = "leader-alliance"
    house: str
    power: str
    item: str
    amount: int = 1


@dataclass(frozen=True)
class AnswerAlliance(Action):
    """leaders.md K-18: the partner ``house`` answers the proposal: ``accept`` or ``refuse``."""

    kind: ClassVar[str] = "leader-alliance-answer"
    house: str
    answer: str

    @property
    def accept(self) -> bool:
        return self.answer == ACCEPT


def offer_word(power: Power) -> str:
    """The offer of a K-18 entry (``spice``, ``revive``, ``traitor``, ``prescience``, ``leader_exchange``)."""
    return exchange_offer_word(power)  # one reading for the game and the resolver (dunenb.battle.leader_exchange)


def proposals(state: GameState, ctx: BattleContext, house: str) -> tuple[Power, ...]:
    """The K-18 entries of ``house``'s revealed leader whose partner condition holds against the opposing
    leader (D-30) and whose offer the engine applies, when both Houses may deal (ALLIANCE-5)."""
    plans = dict(ctx.plans)
    other = ctx.opponent(house)
    if house in state.outlawed or other in state.outlawed:
        return ()
    found = scene(state, ctx, {h: plans[h].leader for h in ctx.houses})
    me = ctx.houses.index(house)
    return tuple(power for power in acting(found, me, ALLIANCE)
                 if holds(partner(args(power)[0]), found, me) and offer_word(power) in OFFERS)


def _offers(state: GameState, ctx: BattleContext, house: str) -> list[ProposeAlliance]:
    """The listed menu of proposals (any other legal amount is accepted by the check)."""
    other = ctx.opponent(house)
    found: list[ProposeAlliance] = []
    for power in proposals(state, ctx, house):
        if offer_word(power) == "spice":
            spice = state.houses[house].spice
            found += [ProposeAlliance(house, power.id, "spice", k)
                      for k in sorted({k for k in (*MENU_SPICE, spice) if 1 <= k <= spice})]
        elif offer_word(power) == "traitor":
            found += [ProposeAlliance(house, power.id, TRAITOR)] if slips_on(state, house, other) else []
        elif offer_word(power) == "prescience":
            lent = lendable_prescience(state, house)
            found += [ProposeAlliance(house, power.id, lent, k) for k in range(1, MAX_LEND_TURNS + 1)] if lent else []
        else:
            tanks = state.houses[other]
            found += [ProposeAlliance(house, power.id, kind, count)
                      for kind, count in (("regular", tanks.tanks.regular), ("marked", tanks.tanks.marked)) if count]
            found += [ProposeAlliance(house, power.id, key, 1) for key in tanks.leader_tanks]
    return found


def _proposal_error(state: GameState, ctx: BattleContext, action: ProposeAlliance) -> str | None:
    power = next((p for p in proposals(state, ctx, action.house) if p.id == action.power), None)
    if power is None:
        names = ", ".join(p.id for p in proposals(state, ctx, action.house)) or "none"
        return f"{action.power} is no alliance power {action.house}'s leader may use here; allowed: {names}"
    other = state.houses[ctx.opponent(action.house)]
    if offer_word(power) == "prescience":
        lent = lendable_prescience(state, action.house)
        if lent is None or action.item != lent or not 1 <= action.amount <= MAX_LEND_TURNS:
            return (f"{action.power} lends {action.house}'s prescience for k turns: item {lent or '(none held now)'},"
                    f" amount 1 to {MAX_LEND_TURNS}")
        return None
    if offer_word(power) == "traitor":
        if action.item != TRAITOR or action.amount != 1:
            return f"{action.power} offers to show a traitor slip: item '{TRAITOR}', amount 1"
        if not slips_on(state, action.house, ctx.opponent(action.house)):
            return (f"{action.house} hold no traitor slip naming a leader of {ctx.opponent(action.house)} (it must "
                    "hold one to offer it)")
        return None
    if offer_word(power) == "spice":
        spice = state.houses[action.house].spice
        if action.item != "spice" or not 1 <= action.amount <= spice:
            return f"{action.power} offers spice: item 'spice', amount 1 to {spice} (paid at once)"
        return None
    have = {"regular": other.tanks.regular, "marked": other.tanks.marked}
    if action.item in have:
        if not 1 <= action.amount <= have[action.item]:
            return (f"{action.power} revives {action.item} tokens: amount 1 to {have[action.item]} (the partner's "
                    "dead)")
        return None
    if action.item not in other.leader_tanks or action.amount != 1:
        return (f"{action.power} revives 'regular' or 'marked' tokens or one dead leader of the partner "
                f"({', '.join(other.leader_tanks) or 'none'}), amount 1")
    return None


def avoidance(state: GameState, ctx: BattleContext, start: int = 0) -> GameState:
    """LC-5 B8: K-18 proposals, the defender's side first (none after a treachery), then HARKONNEN-M2."""
    from dunenb.rules.battle_powers import offer_buy_off

    if not ctx.calls:
        exchange = _exchange(state, ctx) if start == 0 else None
        if exchange is not None:  # F05-c: automatic, D-29
            return _begin_exchange(state, ctx, *exchange)
        for index in range(start, len(ctx.houses)):
            house = ctx.houses[index]
            if proposals(state, ctx, house):
                return dataclasses.replace(state, pending=pending("leader-alliance", house, battle=ctx,
                                                                  index=index))
    return offer_buy_off(state, ctx)


def _propose_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [Pass(house), *_offers(state, context_of(state), house)]


def _check_propose(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, ProposeAlliance):
        problem = _proposal_error(state, context_of(state), action)
        if problem:
            return IllegalActionError("alliance/leader-offer", f"{problem} (leaders.md K-18)")
    return None


def _describe(action: ProposeAlliance) -> str:
    if action.item in _prescience_powers():
        return f"to lend it {action.item} (prescience) for {action.amount} turn(s)"
    if action.item == TRAITOR:
        return "to show it privately one of its traitor slips naming one of its own leaders"
    if action.item == "spice":
        return f"{action.amount} spice"
    if action.item in ("regular", "marked"):
        return f"to revive {action.amount} of its dead {action.item} token(s) free"
    return f"to revive its dead leader {action.item} free"


def _apply_propose(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    index = node(state).detail["index"]
    if not isinstance(action, ProposeAlliance):
        return avoidance(state, ctx, index + 1)
    other = ctx.opponent(action.house)
    state = with_events(state, event(
        "leader-alliance-proposed", f"{action.house} propose {other} an alliance instead of the battle: "
        f"{_describe(action)} ({action.power}, leaders.md K-18)", house=action.house, partner=other,
        item=action.item, amount=action.amount, power=action.power, powers=(action.power,)))
    return dataclasses.replace(state, pending=pending("leader-alliance-answer", other, battle=ctx, index=index,
                                                      proposal=action))


def _answer_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [AnswerAlliance(house, REFUSE), AnswerAlliance(house, ACCEPT)]


def _deliver(state: GameState, proposal: ProposeAlliance, partner: str) -> GameState:
    """The proposer's side of the deal, at once."""
    from dunenb.rules.alliances import transfer

    if proposal.item == "spice":
        return transfer(state, proposal.house, partner, "spice", "spice", proposal.amount)
    if proposal.item in _prescience_powers():  # houses.md G-10: the partner uses it, the owner does not meanwhile
        lend = LentPower(proposal.item, proposal.house, partner, state.turn, state.turn + proposal.amount - 1,
                         state.windows_opened)
        return dataclasses.replace(state, lent_powers=state.lent_powers + (lend,))
    hs = state.houses[partner]
    if proposal.item in ("regular", "marked"):  # beyond REVIVAL-1's limits: free, into the reserve
        back = Tokens(proposal.amount, 0) if proposal.item == "regular" else Tokens(0, proposal.amount)
        return edit_house(state, partner, tanks=hs.tanks - back, reserve=hs.reserve + back)
    return edit_house(state, partner, leader_tanks=tuple(k for k in hs.leader_tanks if k != proposal.item),
                      leaders=hs.leaders + (proposal.item,))


def _apply_answer(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    proposal: ProposeAlliance = node(state).detail["proposal"]
    assert isinstance(action, AnswerAlliance)
    if not action.accept:
        state = with_events(state, event("leader-alliance-refused", f"{action.house} refuse: the battle goes on "
                                         f"({proposal.power}, leaders.md K-18)", house=proposal.house,
                                         partner=action.house, power=proposal.power, powers=(proposal.power,)))
        return avoidance(state, ctx, node(state).detail["index"] + 1)
    if proposal.item == TRAITOR:  # the proposer picks the slip it shows (a secret action)
        return dataclasses.replace(state, pending=pending("leader-show-slip", proposal.house, battle=ctx,
                                                          proposal=proposal))
    return _accepted(_deliver(state, proposal, action.house), ctx, proposal)


def _accepted(state: GameState, ctx: BattleContext, proposal: ProposeAlliance) -> GameState:
    from dunenb.rules.battle_powers import void_battle

    partner = ctx.opponent(proposal.house)
    return void_battle(state, ctx, proposal.house, event(
        "leader-alliance", f"{partner} accept the alliance of {proposal.house} ({_describe(proposal)}), a "
        f"logged alliance (GAP-19b): the battle is void, nothing is lost, nobody dies, and {proposal.house}'s "
        f"tokens there are at peace this turn ({proposal.power}, leaders.md K-18, ALLIANCE-11)",
        house=proposal.house, partner=partner, item=proposal.item, amount=proposal.amount, area=ctx.area,
        power=proposal.power, powers=(proposal.power,)))


@lru_cache(maxsize=1)
def _prescience_powers() -> tuple[str, ...]:
    """The House powers (not main-leader powers) that offer a prescience question (ATREIDES-P1)."""
    from dunenb.battle import facts
    from dunenb.powers.registry import load_powers

    return tuple(p for p, _owner, _when in facts.offering("prescience") if not load_powers()[p].is_main_leader_power)


def lendable_prescience(state: GameState, house: str) -> str | None:
    """K-18 ``prescience(k)`` (A01-a, A02-b): the prescience House power ``house`` owns and uses now, not lent
    already (ALLIANCE-7: nobody lends what it does not hold), or ``None``."""
    from dunenb.powers.holders import active_lend, holder
    from dunenb.powers.registry import load_powers

    return next((p for p in _prescience_powers() if load_powers()[p].holder == house and holder(state, p) == house
                 and active_lend(state, p) is None), None)


def slips_on(state: GameState, house: str, partner: str) -> tuple[tuple[str, str], ...]:
    """K-18 ``traitor``: ``house``'s traitor slips that name a leader of ``partner``'s own House."""
    return tuple(slip for slip in state.houses[house].traitors if slip[0] == partner)


@dataclass(frozen=True)
class ShowSlip(Action):
    """K-18 ``traitor``: ``house`` shows the partner its slip on ``owner``'s ``leader`` (secret: seen by the two
    Houses, :mod:`dunenb.rules.secrecy`)."""

    kind: ClassVar[str] = "show-slip"
    house: str
    owner: str
    leader: str


def _slip_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    partner = context_of(state).opponent(house)
    return [ShowSlip(house, owner, leader) for owner, leader in slips_on(state, house, partner)]


def _apply_slip(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    proposal: ProposeAlliance = node(state).detail["proposal"]
    assert isinstance(action, ShowSlip)
    state = with_events(state, event(
        "traitor-slip-shown", f"{action.house} show {ctx.opponent(action.house)} one of their traitor slips, "
        f"privately ({proposal.power}, leaders.md K-18)", house=action.house, to=ctx.opponent(action.house),
        secret=True, power=proposal.power, powers=(proposal.power,)))
    return _accepted(state, ctx, proposal)


# --- F05-c: the automatic leader exchange (D-29; its test and words: dunenb.battle.leader_exchange) ---------

@dataclass(frozen=True)
class GiveLeader(Action):
    """D-29 (FREMEN-L05-c): ``house`` gives the other House its own living, uncaptured secondary leader
    ``leader``, a permanent transfer (LC-9)."""

    kind: ClassVar[str] = "give-leader"
    house: str
    leader: str


def _exchange(state: GameState, ctx: BattleContext) -> tuple[str, str] | None:
    """(House, power) of an automatic K-18 entry (F05-c: Siona against Léto II) that acts in this battle."""
    plans = dict(ctx.plans)
    found = exchange_of(scene(state, ctx, {h: plans[h].leader for h in ctx.houses}))  # the resolver's own test
    return None if found is None else (ctx.houses[found[0]], found[1])


def giftable(state: GameState, house: str) -> tuple[str, ...]:
    """D-29: ``house``'s own living, uncaptured secondary leaders (it holds them under their own id)."""
    from dunenb.rules.traitors import LEADER_KEY_SEPARATOR

    return tuple(lid for lid in state.houses[house].leaders
                 if LEADER_KEY_SEPARATOR not in lid and not leader_of(house, lid).main)


def _begin_exchange(state: GameState, ctx: BattleContext, house: str, power: str) -> GameState:
    state = with_events(state, event(
        "leader-exchange", exchange_text(house, power), house=house,  # the words dunenb battle prints too
        partner=ctx.opponent(house), power=power, powers=(power,)))
    return _next_gift(state, ctx, house, power, (house, ctx.opponent(house)))


def _next_gift(state: GameState, ctx: BattleContext, house: str, power: str, givers: tuple[str, ...]) -> GameState:
    from dunenb.rules.battle_powers import void_battle

    for index, giver in enumerate(givers):
        if giftable(state, giver):
            return dataclasses.replace(state, pending=pending("give-leader", giver, battle=ctx, house=house,
                                                              power=power, givers=givers[index + 1:]))
    return void_battle(state, ctx, house, event(
        "leader-alliance", f"The battle is void, nothing is lost, nobody dies, and {house}'s tokens there are at "
        f"peace this turn ({power}, leaders.md K-18, D-29)", house=house, partner=ctx.opponent(house),
        item=EXCHANGE, amount=1, area=ctx.area, power=power, powers=(power,)))


def _gift_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [GiveLeader(house, lid) for lid in giftable(state, house)]


def _apply_gift(state: GameState, action: Action) -> GameState:
    from dunenb.rules.alliances import transfer

    assert isinstance(action, GiveLeader)
    ctx = context_of(state)
    detail = node(state).detail
    other = ctx.opponent(action.house)
    state = transfer(state, action.house, other, "leader", action.leader, 1)
    state = with_events(state, event(
        "leader-given", f"{action.house} give {other} their leader {action.leader} for good ({detail['power']}, "
        "D-29, LC-9)", house=action.house, receiver=other, leader=action.leader, power=detail["power"],
        powers=(detail["power"],)))
    return _next_gift(state, ctx, detail["house"], detail["power"], tuple(detail["givers"]))


def _pledged(state: GameState, house: str) -> Any:
    from dunenb.rules.battle_phase import plan_pledge

    return plan_pledge(state, house)  # GAP-57: the wheel stays pledged while the battle may go on


HANDLERS = {
    "leader-buy-off": Handler(apply=_apply_buy_off, decisions=_buy_off_decisions, check=_check_buy_off,
                              accepts=(LeaderBuyOff,), pledged=_pledged, always=(Pass,)),
    "leader-alliance": Handler(apply=_apply_propose, decisions=_propose_decisions, check=_check_propose,
                               accepts=(ProposeAlliance,), pledged=_pledged),
    "leader-alliance-answer": Handler(apply=_apply_answer, decisions=_answer_decisions, pledged=_pledged),
    "leader-show-slip": Handler(apply=_apply_slip, decisions=_slip_decisions, pledged=_pledged),
    "give-leader": Handler(apply=_apply_gift, decisions=_gift_decisions, pledged=_pledged),
}
