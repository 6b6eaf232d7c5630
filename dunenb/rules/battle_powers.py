"""Battle-step powers of the main leaders and the capture (houses.md HARKONNEN-P4, -M1, -M2, TLEILAX-M1, -M2).

Each power is found by where ``data/powers.json`` declares it (its trigger and offered action), never by a House
name; :func:`dunenb.powers.holder` says who may use it now, and its Karama uses are asked in a window
(:mod:`dunenb.rules.karama_window`, GAP-63) at the moment the cross-reference gives.

* **Battle Karamas** (moment ``battle``): when a battle starts, every House that may play a use against a power
  the resolver applies (``leader.value``/``leader.immune``/``leader.weapons``) and held by one of the two sides is
  asked (KARAMA-37: Waff has no pistol in this battle). The suppression lasts the battle; the battle's sides carry
  the blocked powers (:attr:`dunenb.battle.plans.BattleSide.blocked`).
* **Buy-off** (``battle.reveal``, HARKONNEN-M2): in a battle its main leader leads, after the reveal and the
  traitor calls, the holder may pay the opponent 2 x the base strength of the opposing leader (not offered when
  the opponent has no leader, nor when it cannot pay: GAP-74). KARAMA-49 may follow the announcement: the battle is
  then resolved normally and nothing is paid. Otherwise the battle is void: nothing is lost, nobody dies, both
  leaders count as having fought there (BATTLE-15, GAP-74) and the holder's tokens there are at peace for the turn.
* **Capture** (``battle.after``, HARKONNEN-P4; seed 003 FAQ 15-21): once a battle the holder won is settled, after
  KARAMA-47 is asked, one leader is drawn at random (a chance node) among the loser's own leaders alive, not
  captured, not committed in another territory this turn (FAQ 16), the main leader (or a successor in his place,
  GAP-88) only if he is the only one. KARAMA-47 later: at the start of each battle the captor or a captive's House
  fights, one window per captive; a Karama sends him home at once (GAP-87).
  When the winner's leader has leaders.md K-17 ``chosen_capture`` (HARKONNEN-L07-c, Lingar), the holder picks
  him among the same leaders instead (a ``capture-choice`` decision, L1243).
  The holder keeps him (under the key ``"owner:id"``, recorded in ``GameState.captured``) or kills him for 2 spice
  from the Bank (FAQ 18; a main leader cannot be killed so). A captured leader goes home once he has fought in one
  of the holder's battles and lives (L1167), when none of the holder's own leaders lives (FAQ 21), or when the
  holder is eliminated; if he dies he goes to his own House's tanks, and a captured main leader's death eliminates
  his House (VICTORY-2). His own House may call treachery on him unless the holder holds him as a traitor (FAQ
  19-20, TRAITOR-13, GAP-35c: :func:`dunenb.rules.battle_phase.may_call`). His identity is public (GAP-75).
* **A new traitor** (``battle.end``, HARKONNEN-M1): at the end of the battle step the holder may discard one of its
  slips; after KARAMA-48 is asked (played, the slip stays and nothing is drawn: GAP-76), it draws 2 leaders at
  random among those eligible (alive; not main leaders; not its own; able to be its traitors; not on its slips;
  not the one just discarded) and keeps 1 on a new secret slip.
* **Regenerations** (``leader.death``, TLEILAX-M2): a main leader whose power has regenerations left does not
  eliminate his House when he dies: one is spent and he comes back at the start of the next turn. KARAMA-38 is
  asked before the death is settled: it destroys one extra regeneration; if none is left for this death, the House
  is eliminated.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

from dunenb.actions import Action, Pass, menu_maker
from dunenb.battle.powers import battle_acts
from dunenb.battle.traitors import can_be_traitor_of
from dunenb.errors import IllegalActionError
from dunenb.powers import holder, is_in_play
from dunenb.powers.holders import acting_main_leader, is_acting_main
from dunenb.powers.karama import is_suppressed, lift
from dunenb.powers.registry import PowerSpec, implemented_uses, load_powers, offered_by
from dunenb.rules.battle_context import BattleContext, context_of
from dunenb.rules.common import Handler, edit_house, event, node, pending, uniform, with_events
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.rules.leader_karama import blocked_leader_powers
from dunenb.rules.traitors import LEADER_KEY_SEPARATOR, holder_of, leader_key, leader_of, leader_ref
from dunenb.state import Event, GameState, evolve

NONE = "none"
#: FAQ 18: killing a captured leader at once earns 2 spice, whatever his strength (paid by the Bank: design).
KILL_PRICE = 2
#: HARKONNEN-M2: the buy-off costs this many times the opposing leader's base strength (L1607).
BUY_OFF_FACTOR = 2
#: HARKONNEN-M1: leaders drawn for a new slip, of whom one is kept.
NEW_TRAITOR_DRAWS = 2
BATTLE_HOOKS = ("leader.value", "leader.immune", "leader.weapons")


# --- where the powers are declared ------------------------------------------------------------------------

def offering(trigger: str, action: str) -> str:
    """The ID of the power that offers ``action`` at ``trigger`` in data/powers.json (e.g. the capture)."""
    return offered_by(trigger, action)


def capture_power() -> str:
    return offering("battle.after", "capture")


def buy_off_power() -> str:
    return offering("battle.reveal", "buy-off")


def new_traitor_power() -> str:
    return offering("battle.end", "new-traitor")


@lru_cache(maxsize=16)
def regeneration_power(house: str) -> PowerSpec | None:
    """The main-leader power of ``house`` that counts its main leader's regenerations (a ``leader.death`` trigger
    with a ``count``: TLEILAX-M2), or ``None``."""
    for spec in load_powers().values():
        if spec.holder == house and spec.is_main_leader_power and spec.status == "implemented" and any(
                a.trigger == "leader.death" and "count" in a.params for a in spec.acts):
            return spec
    return None


def regenerations_left(state: GameState, house: str) -> int | None:
    """How many regenerations ``house``'s main leader has left (TLEILAX-M2), or ``None`` if it has none to count."""
    spec = regeneration_power(house)
    if spec is None:
        return None
    count = next(int(a.params["count"]) for a in spec.acts if a.trigger == "leader.death" and "count" in a.params)
    return max(0, count - dict(state.main_regenerations).get(house, 0))


def blocked_in_battle(state: GameState, house: str) -> frozenset[str]:
    """The battle powers of ``house`` it does not hold now (a Karama in force, its main leader dead, G-7): the
    :attr:`~dunenb.battle.plans.BattleSide.blocked` of its side."""
    last = _LAST_BLOCKED[0]
    if last is None or last[0] is not state:
        last = _LAST_BLOCKED[0] = (state, {})
    found = last[1].get(house)
    if found is None:
        house_powers = frozenset(act.power for act in battle_acts() if act.holder == house
                                 and holder(state, act.power) != house)
        # LC-11: a Karama against a secondary leader
        found = last[1][house] = house_powers | blocked_leader_powers(state, house)
    return found


#: issue 14 item 4: the answers of :func:`blocked_in_battle` for the last (immutable) state object asked about, by
#: House: a plan menu asks them for every leader and every check, a leader's scene for both sides.
_LAST_BLOCKED: list[tuple[GameState, dict[str, frozenset[str]]] | None] = [None]


def own_dead(state: GameState, house: str) -> frozenset[str]:
    """The ids of ``house``'s own leaders in its tanks (the :attr:`~dunenb.battle.plans.BattleSide.dead` fact)."""
    return frozenset(key for key in state.houses[house].leader_tanks if LEADER_KEY_SEPARATOR not in key)


# --- the start of a battle: captives sent home (KARAMA-47 later), then houses.md G-9 -------------------------

def begin_battle(state: GameState, ctx: BattleContext) -> GameState:
    """Ask KARAMA-47 for each captive concerned (:func:`ask_releases`), then the pre-battle sequence (houses.md
    G-9, whose first window asks the open battle Karamas, KARAMA-37 among them)."""
    return ask_releases(state, ctx, ())


def ask_releases(state: GameState, ctx: BattleContext, asked: tuple[tuple[str, str], ...]) -> GameState:
    """KARAMA-47, its later form (HARKONNEN-P4: "or later, he goes home at once"; GAP-87): at the start of each
    battle that the captor or a captive's own House fights, one Karama window per captive, in the order of their
    capture, each about that one captive (the window's ``owner`` and ``leader``). A Karama played in a window sends
    that captive home at once; a House may send several home with several Karamas. ``asked``: the captives whose
    window this battle has had."""
    keeper = _keeper(state)
    for person in keeper_captives(state):  # KARAMA-47 does not apply to BG-L03-b's captives (D-28)
        if person in asked or (keeper not in ctx.houses and person[0] not in ctx.houses):
            continue
        return open_window(state, implemented_uses(capture_power()), "captive-release", battle=ctx, owner=person[0],
                           leader=person[1], asked=asked + (person,))
    return _pre_battle(state, ctx)


def _resume_release(state: GameState, data: Any) -> GameState:
    ctx: BattleContext = data["battle"]
    power_id = capture_power()
    played = next((s for s in state.suppressions if s.power == power_id and s.karama == "KARAMA-47"), None)
    if played is not None and (data["owner"], data["leader"]) in state.captured:
        state = release(lift(state, "action"), data["owner"], data["leader"],
                        why=f"{played.by} play a Karama (KARAMA-47, GAP-87)")
    return ask_releases(state, ctx, tuple(data["asked"]))


register_resume("captive-release", _resume_release)


def _pre_battle(state: GameState, ctx: BattleContext) -> GameState:
    from dunenb.rules import pre_battle

    return pre_battle.begin(state, ctx)


# --- after the calls: the buy-off (HARKONNEN-M2, KARAMA-49) ---------------------------------------------------

@dataclass(frozen=True)
class BuyOff(Action):
    """HARKONNEN-M2: ``house`` pays the opponent ``price`` (2 x the opposing leader's base strength): the battle is
    void (``Pass`` declines)."""

    kind: ClassVar[str] = "buy-off"
    house: str
    price: int


def buy_off_price(state: GameState, ctx: BattleContext) -> tuple[str, int] | None:
    """(buyer, price) when the buy-off may be offered now, else ``None`` (GAP-74: not against no leader, not
    when the buyer cannot pay)."""
    buyer = holder(state, buy_off_power())
    if buyer not in ctx.houses:
        return None
    plans = dict(ctx.plans)
    own, other = plans[buyer].leader, plans[ctx.opponent(buyer)].leader
    if own == NONE or other == NONE or LEADER_KEY_SEPARATOR in own or not leader_of(buyer, own).main:
        return None
    price = BUY_OFF_FACTOR * leader_of(ctx.opponent(buyer), other).strength
    return (buyer, price) if state.houses[buyer].spice >= price else None


def after_calls(state: GameState, ctx: BattleContext) -> GameState:
    """After the traitor calls (LC-5 B8): the alliance offers instead of the battle (leaders.md K-18,
    :mod:`dunenb.rules.leader_deals`), which go on to :func:`offer_buy_off`."""
    from dunenb.rules import leader_deals

    return leader_deals.avoidance(state, ctx)


def offer_buy_off(state: GameState, ctx: BattleContext) -> GameState:
    """HARKONNEN-M2 (LC-5 B8, after K-18): offer the buy-off, else resolve the battle."""
    offer = buy_off_price(state, ctx)
    if offer is None:
        return _resolve(state, ctx)
    return evolve(state, pending=pending("buy-off", offer[0], battle=ctx, price=offer[1]))


def _resolve(state: GameState, ctx: BattleContext) -> GameState:
    from dunenb.rules import battle_phase

    return battle_phase.resolve(state, ctx)


def _plan_pledge(state: GameState, house: str) -> Any:
    from dunenb.rules.battle_phase import plan_pledge

    return plan_pledge(state, house)  # GAP-57: the dial and the cards on the wheel stay pledged


def _buy_off_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [Pass(house), BuyOff(house, node(state).detail["price"])]


def _check_buy_off(state: GameState, action: Action) -> IllegalActionError | None:
    price = node(state).detail["price"]
    if isinstance(action, BuyOff) and action.price != price:
        return IllegalActionError("buy-off/price", f"price {action.price}: the buy-off costs {price} (2 x the "
                                  "opposing leader's base strength, HARKONNEN-M2); allowed: pass or that price")
    return None


def _apply_buy_off(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    if not isinstance(action, BuyOff):
        return _resolve(state, ctx)
    power_id = buy_off_power()
    state = with_events(state, event("buy-off-declared", f"{action.house} offer {ctx.opponent(action.house)} "
                                     f"{action.price} spice to call the battle off ({power_id})", house=action.house,
                                     price=action.price, powers=(power_id,)))
    return open_window(state, implemented_uses(power_id), "buy-off", pledges=((action.house, action.price),),
                       battle=ctx, house=action.house, price=action.price)


def _resume_buy_off(state: GameState, data: Any) -> GameState:

    ctx: BattleContext = data["battle"]
    buyer, price = data["house"], data["price"]
    power_id = buy_off_power()
    if holder(state, power_id) != buyer:  # KARAMA-49: fought normally, nothing paid
        state = with_events(state, event("buy-off-blocked", f"A Karama forces {buyer} to fight: nothing is paid "
                                         f"({power_id}, KARAMA-49)", house=buyer, powers=(power_id,)))
        return _resolve(state, ctx)
    return pay_off(state, ctx, buyer, price, power_id)


def pay_off(state: GameState, ctx: BattleContext, buyer: str, price: int, power_id: str) -> GameState:
    """The buy-off's effect (HARKONNEN-M2, and leaders.md K-19 BUY_OFF at B5): ``buyer`` pays the opponent
    ``price`` spice and the battle is void, ``buyer``'s tokens at peace there (:func:`void_battle`)."""
    other = ctx.opponent(buyer)
    state = edit_house(state, buyer, spice=state.houses[buyer].spice - price)
    state = edit_house(state, other, spice=state.houses[other].spice + price)
    return void_battle(state, ctx, buyer, event(
        "battle-bought-off", f"{buyer} pay {other} {price} spice: the battle is void; nothing is lost, nobody dies, "
        f"and {buyer}'s tokens there are at peace this turn ({power_id}, GAP-74)", house=buyer, opponent=other,
        price=price, area=ctx.area, powers=(power_id,)))


def void_battle(state: GameState, ctx: BattleContext, peace: str, said: Event) -> GameState:
    """A battle called off (HARKONNEN-M2 and leaders.md K-18/K-19): nothing is lost, nobody dies, both leaders
    count as having fought there (BATTLE-15, GAP-74), ``peace``'s tokens there are at peace for the rest of the
    turn (ALLIANCE-11); ``said`` is the event that says why. The plans may still be secret (K-19 at B5)."""
    from dunenb.rules import battle_phase

    state = evolve(state, at_peace=state.at_peace + ((peace, ctx.area),))
    state = with_events(state, said)
    leaders = {h: ctx.plan_of(h).leader for h in ctx.houses if ctx.plan_of(h) is not None}
    committed = ctx.committed + tuple((h, lid, ctx.area) for h, lid in leaders.items() if lid != NONE)
    return battle_phase.continue_after_battle(state, {"battle": BattleContext(committed=committed, last=ctx.houses)})


register_resume("buy-off", _resume_buy_off)


# --- the settlement: a main leader's death (TLEILAX-M2, KARAMA-38) and captured leaders -----------------------

def before_outcome(state: GameState, ctx: BattleContext, outcome: Any) -> GameState:
    """Ask KARAMA-38 when a main leader with regenerations left dies, then apply the outcome."""
    from dunenb.rules import battle_phase

    uses: list[str] = []
    for side in outcome.sides:
        if side.leader_fate != "dead" or side.leader is None or side.leader_owner is None:
            continue
        spec = regeneration_power(side.leader_owner)
        if spec is not None and holder(state, spec.id) == side.leader_owner and leader_of(
                side.leader_owner, side.leader).main and regenerations_left(state, side.leader_owner):
            uses += implemented_uses(spec.id)
    if uses:
        return open_window(state, tuple(uses), "main-death", battle=ctx, outcome=outcome)
    return battle_phase.apply_outcome(state, ctx, outcome)


def _resume_main_death(state: GameState, data: Any) -> GameState:
    from dunenb.rules import battle_phase

    return battle_phase.apply_outcome(state, data["battle"], data["outcome"])


register_resume("main-death", _resume_main_death)


def main_leader_died(state: GameState, house: str) -> GameState:
    """VICTORY-2, G-7: ``house``'s main leader is dead. With a regeneration left (TLEILAX-M2) one is spent (after
    KARAMA-38 destroys one more) and he comes back next turn; else the House is eliminated."""
    from dunenb.rules.battle_phase import eliminate

    heir = acting_main_leader(state, house) if is_in_play(state, house) else None
    if heir is not None:  # houses.md G-7: a living successor takes the place (L449, L617); no elimination
        return succession(state, house, heir)
    spec = regeneration_power(house)
    left = regenerations_left(state, house)
    if spec is None or not left or not is_in_play(state, house):
        return eliminate(state, house, cause="its main leader was killed (VICTORY-2)")
    spent = dict(state.main_regenerations).get(house, 0)
    destroyed = 1 if is_suppressed(state, spec.id) else 0  # KARAMA-38: one extra regeneration destroyed
    state = lift(state, "event")
    if left - destroyed <= 0:
        state = _set_spent(state, house, spent + destroyed)
        return eliminate(state, house, cause=f"its main leader was killed and a Karama destroyed his last "
                         f"regeneration ({spec.id}, KARAMA-38, VICTORY-2)")
    state = _set_spent(state, house, spent + destroyed + 1)
    state = evolve(state, main_returns=state.main_returns + ((house, state.turn + 1),))
    return with_events(state, event(
        "main-leader-regenerates", f"{house}'s main leader spends a regeneration"
        + (" (a Karama destroyed another, KARAMA-38)" if destroyed else "")
        + f": he comes back next turn, {regenerations_left(state, house)} left ({spec.id})", house=house,
        powers=(spec.id,)))


def succession(state: GameState, house: str, heir: str) -> GameState:
    """houses.md G-7: ``heir`` (Farad'N for Shaddam, L449; Murbella for Dama, L617) is ``house``'s main leader now
    for elimination (VICTORY-2) and BATTLE-16 (:func:`dunenb.powers.holders.acting_main_leader` reads it from the
    tanks). He keeps his own powers and inherits no main-leader power: the X-M* powers lapse with their leader
    (:func:`dunenb.powers.holder`); the House powers go on. A hand above the limit that a lapsed power raised
    (EMPEROR-M1: 6, back to 4) is discarded down to it at the end of the battle's settlement, the House choosing
    the cards (houses.md EMPEROR-M1 note; :func:`dunenb.rules.on_call.begin_draws`)."""
    from dunenb.battle.roster import load_roster

    person = leader_of(house, heir)
    ids = (person.succession_power,) if person.succession_power else ()
    lapsed = tuple(spec.id for spec in load_powers().values() if spec.holder == house and spec.is_main_leader_power
                   and spec.status == "implemented")
    main = load_roster().main_leader(house)
    return with_events(state, event(
        "main-leader-succeeded", f"{main.name} is dead: {person.name} takes his place as {house}'s main leader "
        f"({', '.join(ids) or 'G-7'}, houses.md G-7); {house} stays in the game, without "
        f"{', '.join(lapsed) or 'main-leader powers'}", house=house, leader=heir, powers=ids))


def _set_spent(state: GameState, house: str, spent: int) -> GameState:
    rest = tuple(entry for entry in state.main_regenerations if entry[0] != house)
    return evolve(state, main_regenerations=rest + ((house, spent),))


def main_leaders_return(state: GameState) -> GameState:
    """TLEILAX-M2: at the start of a turn, the main leaders due come back from the tanks (a ghola may have
    brought one back already: dropped)."""
    if not state.main_returns:
        return state
    from dunenb.powers.holders import main_leader

    kept = []
    for house, turn in state.main_returns:
        if turn > state.turn:
            kept.append((house, turn))
            continue
        leader = main_leader(house)
        hs = state.houses[house]
        if leader in hs.leader_tanks and is_in_play(state, house):
            state = edit_house(state, house, leaders=hs.leaders + (leader,),
                               leader_tanks=tuple(x for x in hs.leader_tanks if x != leader))
            spec = regeneration_power(house)
            ids = (spec.id,) if spec is not None else ()
            state = with_events(state, event("main-leader-back", f"{leader} regenerates and comes back to {house} "
                                             f"({', '.join(ids)})", house=house, leader=leader, powers=ids))
    return evolve(state, main_returns=tuple(kept))


def is_captured(state: GameState, owner: str, leader_id: str) -> bool:
    return (owner, leader_id) in state.captured


def bury_captive(state: GameState, owner: str, leader_id: str) -> GameState:
    """A captured leader killed: to his own House's tanks (HARKONNEN-P4), no longer captured."""
    keeper = keeper_of(state, (owner, leader_id))
    key = leader_key(keeper, owner, leader_id)
    held = state.houses[keeper].leaders
    if key in held:
        state = edit_house(state, keeper, leaders=tuple(x for x in held if x != key))
    hs = state.houses[owner]
    state = edit_house(state, owner, leader_tanks=hs.leader_tanks + (leader_id,))
    return evolve(state, captured=tuple(c for c in state.captured if c != (owner, leader_id)))


def _keeper(state: GameState) -> str:
    from dunenb.powers.registry import owner

    return owner(capture_power())


# ---- leaders.md K-17 capture (BG-L03-b, D-28: dunenb.rules.leader_capture): captives of another captor
def keeper_of(state: GameState, person: tuple[str, str]) -> str:
    """The House that holds the captive ``person`` (HARKONNEN-P4's holder, or the BG after BG-L03-b)."""
    found = holder_of(state, *person)
    return found[0] if found is not None and found[0] != person[0] else _keeper(state)


def keeper_captives(state: GameState) -> tuple[tuple[str, str], ...]:
    """The captives of HARKONNEN-P4's holder (L1167, FAQ 21 and KARAMA-47 are about them only, D-28)."""
    keeper = _keeper(state)
    return tuple(person for person in state.captured if keeper_of(state, person) == keeper)
# ---- end K-17 capture


def release(state: GameState, owner: str, leader_id: str, *, why: str, power: str = "") -> GameState:
    """A captured leader goes home (alive); ``power``: the capture's power (HARKONNEN-P4 unless said)."""
    keeper = keeper_of(state, (owner, leader_id))
    power = power or capture_power()
    key = leader_key(keeper, owner, leader_id)
    hs = state.houses[keeper]
    if key in hs.leaders:
        state = edit_house(state, keeper, leaders=tuple(x for x in hs.leaders if x != key))
        state = edit_house(state, owner, leaders=state.houses[owner].leaders + (leader_id,))
    state = evolve(state, captured=tuple(c for c in state.captured if c != (owner, leader_id)))
    return with_events(state, event("captive-released", f"{leader_id} goes back to {owner}: {why} "
                                    f"({power})", house=owner, leader=leader_id, powers=(power,)))


def after_settlement(state: GameState, ctx: BattleContext) -> GameState:
    """Once a battle's deaths are settled: each captured leader who fought in it and lives goes home (L1167), and
    every captive goes home when none of the keeper's own leaders lives (FAQ 21)."""
    plans = dict(ctx.plans)
    for house in ctx.houses:
        key = plans[house].leader if house in plans else NONE
        if key == NONE:
            continue
        person = leader_ref(house, key)
        if person in keeper_captives(state) and key in state.houses[house].leaders:
            state = release(state, *person, why="he has fought once in a battle of his captor (L1167)")
    return release_orphans(state)


def release_orphans(state: GameState) -> GameState:
    """FAQ 21: when none of the keeper's own leaders lives, or the keeper is out, every captive goes home."""
    if not state.captured:
        return state
    keeper = _keeper(state)
    own = [key for key in state.houses[keeper].leaders if LEADER_KEY_SEPARATOR not in key]
    if own and is_in_play(state, keeper):
        return state
    for person in keeper_captives(state):
        state = release(state, *person, why="none of his captor's own leaders lives (FAQ 21)")
    return state


# --- after a won battle: the capture (HARKONNEN-P4, KARAMA-47) ---------------------------------------------

@dataclass(frozen=True)
class CaptureDraw(Action):
    """HARKONNEN-P4, FAQ 16: ``house`` draws ``owner``'s leader ``leader`` at random (chance)."""

    kind: ClassVar[str] = "capture-draw"
    is_chance: ClassVar[bool] = True
    house: str
    owner: str
    leader: str


@dataclass(frozen=True)
class Captive(Action):
    """HARKONNEN-P4: ``house`` keeps (``keep``) the leader it drew, or kills him for 2 spice (``kill``, FAQ 18)."""

    kind: ClassVar[str] = "captive"
    house: str
    owner: str
    leader: str
    choice: str


def capture_pool(state: GameState, loser: str, area: str, committed: tuple) -> tuple[str, ...]:
    """FAQ 16, L1243: the loser's own leaders alive, not captured, not committed in another territory this turn;
    the main leader only when no other is eligible."""
    elsewhere = {leader for h, leader, where in committed if h == loser and where != area}
    alive = [key for key in state.houses[loser].leaders if LEADER_KEY_SEPARATOR not in key and key not in elsewhere]
    acting = acting_main_leader(state, loser)  # GAP-88: a successor in his main leader's place counts as main
    others = tuple(key for key in alive if not leader_of(loser, key).main and key != acting)
    return others or tuple(alive)


def after_battle(state: GameState, ctx: BattleContext) -> GameState:
    """After a battle is fully settled: the capture, then the next battle."""
    if len(ctx.victor) == 3:
        winner, loser, area = ctx.victor
        capturer = holder(state, capture_power())
        if capturer == winner and is_in_play(state, loser) and capture_pool(state, loser, area, ctx.committed):
            rest = dataclasses.replace(ctx, victor=(), capture_by_choice="")
            return open_window(state, implemented_uses(capture_power()), "capture", battle=rest, house=capturer,
                               loser=loser, area=area, chosen=ctx.capture_by_choice)
    return _next_battle(state, ctx)


def _next_battle(state: GameState, ctx: BattleContext) -> GameState:
    from dunenb.rules import battle_phase, leader_capture

    state = leader_capture.release_freed(state)  # D-28: a BG-L03-b captive goes home once Lucille is dead

    return battle_phase.next_battle(state, committed=ctx.committed, last=ctx.last)


def _resume_capture(state: GameState, data: Any) -> GameState:
    ctx: BattleContext = data["battle"]
    house, power_id = data["house"], capture_power()
    if holder(state, power_id) != house:  # KARAMA-47 at the capture: no capture
        state = with_events(state, event("capture-blocked", f"A Karama stops {house}'s capture ({power_id}, "
                                         "KARAMA-47)", house=house, powers=(power_id,)))
        return _next_battle(lift(state, "action"), ctx)
    if data.get("chosen"):  # leaders.md K-17 chosen_capture: a choice, not a draw
        return evolve(state, pending=pending("capture-choice", house, battle=ctx, house=house,
                                                          loser=data["loser"], area=data["area"],
                                                          power=data["chosen"]))
    return evolve(state, pending=pending("capture-draw", "chance", battle=ctx, house=house,
                                                      loser=data["loser"], area=data["area"]))


register_resume("capture", _resume_capture)


def _draw_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    pool = capture_pool(state, detail["loser"], detail["area"], detail["battle"].committed)
    return uniform([CaptureDraw(detail["house"], detail["loser"], key) for key in pool])


def _apply_draw(state: GameState, action: CaptureDraw | ChooseCaptive) -> GameState:
    detail = node(state).detail
    how = "FAQ 16" if isinstance(action, CaptureDraw) else f"by choice, {action.power}, leaders.md K-17"
    powers = (capture_power(),) if isinstance(action, CaptureDraw) else (capture_power(), action.power)
    state = with_events(state, event("capture-drawn", f"{action.house} capture {action.leader} of {action.owner} "
                                     f"({capture_power()}, {how})", house=action.house, owner=action.owner,
                                     leader=action.leader, powers=powers))
    return evolve(state, pending=pending("captive", action.house, battle=detail["battle"],
                                                      owner=action.owner, leader=action.leader))


# leaders.md K-17 chosen_capture (HARKONNEN-L07-c, L1243): the captor chooses among the same leaders


@dataclass(frozen=True)
class ChooseCaptive(Action):
    """K-17 chosen_capture: ``house`` takes ``owner``'s leader ``leader`` by choice (``power``: the entry)."""

    kind: ClassVar[str] = "capture-choice"
    house: str
    owner: str
    leader: str
    power: str


def _choice_decisions(state: GameState) -> list[Action]:
    detail = node(state).detail
    pool = capture_pool(state, detail["loser"], detail["area"], detail["battle"].committed)
    return [ChooseCaptive(detail["house"], detail["loser"], key, detail["power"]) for key in pool]


def _captive_decisions(state: GameState) -> list[Action]:
    detail = node(state).detail
    house, owner, leader = node(state).actor, detail["owner"], detail["leader"]
    menu: list[Action] = [Captive(house, owner, leader, "keep")]
    # DESIGN (houses.md P4): a main leader may not be killed this way; GAP-88: nor a successor in his place (G-7)
    if not leader_of(owner, leader).main and not is_acting_main(state, owner, leader):
        menu.append(Captive(house, owner, leader, "kill"))
    return menu


def _check_captive(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, Captive) and action not in _captive_decisions(state):
        allowed = ", ".join(a.choice for a in _captive_decisions(state) if isinstance(a, Captive))
        return IllegalActionError("capture/choice", f"{action.choice!r} for {action.leader}: allowed {allowed} "
                                  "(a main leader may not be killed, HARKONNEN-P4)")
    return None


def _apply_captive(state: GameState, action: Captive) -> GameState:
    ctx: BattleContext = node(state).detail["battle"]
    house, owner, leader = action.house, action.owner, action.leader
    power_id = capture_power()
    loser = state.houses[owner]
    state = edit_house(state, owner, leaders=tuple(x for x in loser.leaders if x != leader))
    if action.choice == "kill":  # FAQ 18: 2 spice from the Bank (design), whatever his strength
        state = edit_house(state, owner, leader_tanks=state.houses[owner].leader_tanks + (leader,))
        state = edit_house(state, house, spice=state.houses[house].spice + KILL_PRICE)
        state = evolve(state, bank=state.bank - KILL_PRICE)
        state = with_events(state, event("captive-killed", f"{house} kill {leader} of {owner} and take "
                                         f"{KILL_PRICE} spice from the Bank ({power_id}, FAQ 18)", house=house,
                                         owner=owner, leader=leader, powers=(power_id,)))
    else:
        key = leader_key(house, owner, leader)
        state = edit_house(state, house, leaders=state.houses[house].leaders + (key,))
        state = evolve(state, captured=state.captured + ((owner, leader),))
        state = with_events(state, event("captive-kept", f"{house} keep {leader} of {owner} among their leaders "
                                         f"({power_id})", house=house, owner=owner, leader=leader,
                                         powers=(power_id,)))
    return _next_battle(lift(state, "action"), ctx)


# --- the end of the battle step: a new traitor (HARKONNEN-M1, KARAMA-48) -------------------------------------

@dataclass(frozen=True)
class DiscardSlip(Action):
    """HARKONNEN-M1: ``house`` discards its slip on ``leader_house``'s ``leader`` to draw 2 leaders and keep 1
    (``Pass`` declines)."""

    kind: ClassVar[str] = "traitor-discard"
    house: str
    leader_house: str
    leader: str


@dataclass(frozen=True)
class NewTraitorDraw(Action):
    """HARKONNEN-M1: ``house`` draws ``leader_house``'s leader ``leader`` face down (chance)."""

    kind: ClassVar[str] = "new-traitor-draw"
    is_chance: ClassVar[bool] = True
    house: str
    leader_house: str
    leader: str


@dataclass(frozen=True)
class KeepNewTraitor(Action):
    """HARKONNEN-M1: ``house`` keeps one of the two leaders it drew as a new secret traitor."""

    kind: ClassVar[str] = "new-traitor-keep"
    house: str
    leader_house: str
    leader: str


def new_traitor_pool(state: GameState, house: str,
                     exclude: Iterable[tuple[str, str]] = ()) -> tuple[tuple[str, str], ...]:
    """HARKONNEN-M1: leaders alive in any House's hands, not main leaders, not ``house``'s own, able to be its
    traitors, not on its slips (nor ``exclude``: the slip just discarded, those drawn), as (owner, id)."""
    skip = frozenset(state.houses[house].traitors).union(exclude)
    holdings = tuple((other, hs.leaders) for other, hs in state.houses.items() if is_in_play(state, other))
    return _new_traitor_pool(house, holdings, skip)


@lru_cache(maxsize=512)
def _new_traitor_pool(house: str, holdings: tuple[tuple[str, tuple[str, ...]], ...],
                      skip: frozenset[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """:func:`new_traitor_pool` from the facts it reads: the leaders each House in play holds (``holdings``) and
    the leaders to leave out (``skip``); issue 14 item 4: cached, a battle phase asks it at every slip, draw and
    check, and the roster facts it reads (:func:`leader_of`, :func:`can_be_traitor_of`) are fixed."""
    found = []
    for other, leaders in holdings:
        for key in leaders:
            person = leader_ref(other, key)
            leader = leader_of(other, key)
            if person[0] != house and not leader.main and person not in skip and can_be_traitor_of(leader, house):
                found.append(person)
    return tuple(sorted(set(found)))


def end_of_battles(state: GameState) -> GameState:
    """HARKONNEN-M1 at the end of the battle step, then the next phase."""
    house = holder(state, new_traitor_power())
    # GAP-62: asked whenever the holder has a slip (their number is public), even when no leader is left to draw
    # for one of them (its menu is then the pass alone): the pool excludes the leaders on its secret slips, so
    # asking by the pool would tell the table about them
    if house is not None and state.houses[house].traitors:
        return evolve(state, pending=pending("traitor-discard", house))
    return _after_phase(state)


def _after_phase(state: GameState) -> GameState:
    from dunenb.rules import flow

    return flow.after_phase(state, "battle")


def _discard_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    # only with a leader left to draw. issue 14 item 4: the pool is built once, not once per slip: the pool less
    # one slip is the whole pool, since it never holds a leader on the House's slips (the discarded one included)
    slips = state.houses[house].traitors
    return [Pass(house), *(DiscardSlip(house, lh, lid) for lh, lid in slips)] if slips and new_traitor_pool(
        state, house) else [Pass(house)]


def _apply_discard(state: GameState, action: Action) -> GameState:
    if not isinstance(action, DiscardSlip):
        return _after_phase(state)
    power_id = new_traitor_power()
    state = with_events(state, event("new-traitor-declared", f"{action.house} will change one traitor slip "
                                     f"({power_id})", house=action.house, powers=(power_id,)))
    return open_window(state, implemented_uses(power_id), "new-traitor", house=action.house,
                       slip=(action.leader_house, action.leader))


def _resume_new_traitor(state: GameState, data: Any) -> GameState:
    house, slip, power_id = data["house"], tuple(data["slip"]), new_traitor_power()
    if holder(state, power_id) != house:  # KARAMA-48: no new traitor; the slip stays (GAP-76)
        state = with_events(state, event("new-traitor-blocked", f"A Karama stops {house} choosing a new traitor "
                                         f"({power_id}, KARAMA-48)", house=house, powers=(power_id,)))
        return _after_phase(lift(state, "action"))
    hs = state.houses[house]
    state = edit_house(state, house, traitors=tuple(t for t in hs.traitors if t != slip))
    state = with_events(state, event("traitor-slip-discarded", f"{house} discard one traitor slip ({power_id})",
                                     house=house, secret=True, powers=(power_id,)))
    return _next_draw(state, house, slip, ())


register_resume("new-traitor", _resume_new_traitor)


def _next_draw(state: GameState, house: str, slip: tuple, secrets: tuple) -> GameState:
    drawn = tuple(person for _h, person in secrets)
    if len(drawn) < NEW_TRAITOR_DRAWS and new_traitor_pool(state, house, (slip, *drawn)):
        return evolve(state, pending=pending("new-traitor-draw", "chance", house=house, slip=slip,
                                                          secrets=secrets))
    if not drawn:
        return _after_phase(lift(state, "action"))
    return evolve(state, pending=pending("new-traitor-keep", house, slip=slip, secrets=secrets))


#: issue 14 item 4: the outcomes' draws built once each (dunenb.actions.menu_maker): the pool lists the same leaders
#: draw after draw
_outcome_new_draw = menu_maker(NewTraitorDraw, 1024)


def _new_draw_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    drawn = tuple(person for _h, person in detail["secrets"])
    pool = new_traitor_pool(state, detail["house"], (detail["slip"], *drawn))
    return uniform([_outcome_new_draw(detail["house"], lh, lid) for lh, lid in pool])


def _is_new_draw(state: GameState, action: Action) -> bool:
    """HARKONNEN-M1: the House drawing turns a leader of the pool its outcomes draw from (the rule of
    :func:`_new_draw_outcomes`; issue 14 item 2: a replayed draw is checked without listing every outcome)."""
    detail = node(state).detail
    if type(action) is not NewTraitorDraw or action.house != detail["house"]:
        return False
    drawn = tuple(person for _h, person in detail["secrets"])
    return (action.leader_house, action.leader) in new_traitor_pool(state, detail["house"], (detail["slip"], *drawn))


def _apply_new_draw(state: GameState, action: NewTraitorDraw) -> GameState:
    detail = node(state).detail
    state = with_events(state, event("new-traitor-drawn", f"{action.house} draw a face-down leader "
                                     f"({new_traitor_power()})", house=action.house, secret=True))
    secrets = detail["secrets"] + ((action.house, (action.leader_house, action.leader)),)
    return _next_draw(state, action.house, detail["slip"], secrets)


def _keep_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [KeepNewTraitor(house, lh, lid) for drawer, (lh, lid) in _seen(state) if drawer == house]


def _seen(state: GameState) -> tuple:
    return tuple(entry for entry in node(state).detail["secrets"] if entry[1] != "hidden")


def _apply_keep(state: GameState, action: KeepNewTraitor) -> GameState:
    hs = state.houses[action.house]
    state = edit_house(state, action.house, traitors=hs.traitors + ((action.leader_house, action.leader),))
    state = with_events(state, event("new-traitor-kept", f"{action.house} write a new traitor on a secret slip "
                                     f"({new_traitor_power()})", house=action.house, secret=True,
                                     powers=(new_traitor_power(),)))
    return _after_phase(lift(state, "action"))


HANDLERS = {
    "buy-off": Handler(apply=_apply_buy_off, decisions=_buy_off_decisions, check=_check_buy_off, accepts=(BuyOff,),
                       pledged=lambda state, house: _plan_pledge(state, house)),
    "capture-draw": Handler(apply=_apply_draw, outcomes=_draw_outcomes),
    "capture-choice": Handler(apply=_apply_draw, decisions=_choice_decisions),  # K-17 chosen_capture
    "captive": Handler(apply=_apply_captive, decisions=_captive_decisions, check=_check_captive,
                       accepts=(Captive,)),
    "traitor-discard": Handler(apply=_apply_discard, decisions=_discard_decisions),
    "new-traitor-draw": Handler(apply=_apply_new_draw, outcomes=_new_draw_outcomes, is_outcome=_is_new_draw),
    "new-traitor-keep": Handler(apply=_apply_keep, decisions=_keep_decisions),
}
