"""leaders.md K-17 ``spare(4)`` in a game (GUILD-L06-d Olmric, LC-5 B9 after G05-d; not after a treachery).

"Olmric peut épargner sa victime en obtenant 4 épices de son ennemi. Cela affecte la résolution du combat sur les
roues. De plus, le Leader ennemi peut refuser." (L537). When the opposing leader is about to die of the attacks of
Olmric's side, the resolution pauses at B9 (:func:`ask`, called by :func:`dunenb.rules.battle_phase._resolve` once
every d10 of the leader step is rolled):

1. Olmric's House decides: pass, or offer to spare him (:class:`OfferSpare`);
2. on an offer, the opposing House decides: refuse (``Pass``: the leader dies), or accept and pay 4 to Olmric's
   House (:class:`AcceptSpare`): the leader lives with his value (LC-6) and the battle is settled so.

The answers are kept in the battle's context (``BattleContext.spare_answers``) and read back by
:func:`agreed` when the battle is built (``BattleSide.spare``), so that the resolver decides the result
(:func:`dunenb.battle.leader_after.spared`), as in a battle case; the outcome's ``spare_paid`` is paid by
:func:`pay` when the outcome is applied.

GAP-131: the leader must die of Olmric's side's attacks only (LC-7: cards and built-ins), not also of a K-14
KILL or a K-21 dies_in; Olmric's own fate does not matter (the deaths of B9 are simultaneous); the offer is asked
only when the opposing House can pay 4 beside the spice it dialled (its wheel spice is pledged, GAP-57), so that
accepting is possible; the spare itself is no bounty and no leader of the payer dies, so no bounty is paid for him.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from dunenb.actions import Action, Pass
from dunenb.battle.leader_after import spare_ids, spare_price
from dunenb.battle.plans import Battle
from dunenb.battle.resolve import BattleOutcome, Fates
from dunenb.errors import IllegalActionError
from dunenb.rules.battle_context import BattleContext
from dunenb.rules.common import Handler, edit_house, event, menu_error, node, pending, with_events
from dunenb.state import GameState

ASK = "leader-spare"
REPLY = "leader-spare-reply"
OFFERED, ACCEPTED, REFUSED, PASSED = "offer", "accept", "refuse", "pass"


@dataclass(frozen=True)
class OfferSpare(Action):
    """K-17 spare (GUILD-L06-d): ``house`` offers to spare the opposing leader for ``price`` spice."""

    kind: ClassVar[str] = ASK
    house: str
    power: str
    price: int


@dataclass(frozen=True)
class AcceptSpare(Action):
    """K-17 spare: ``house`` accepts the offer and pays ``price`` spice to ``to`` for its leader's life."""

    kind: ClassVar[str] = "leader-spare-accept"
    house: str
    power: str
    to: str
    price: int


def agreed(ctx: BattleContext) -> bool:
    """Whether both Houses agreed to the spare in this battle (``BattleSide.spare`` of both sides)."""
    return ctx.spare_answers == (OFFERED, ACCEPTED)


def ask(state: GameState, ctx: BattleContext, battle: Battle, fates: Fates) -> GameState | None:
    """B9: the spare's decision node when the opposing leader would die of Olmric's side's attacks and has not
    been answered yet; ``None`` otherwise (the resolution goes on)."""
    if ctx.spare_answers or fates.explosion is not None or fates.traitor_called_by:
        return None
    leaders = (battle.sides[0].plan.leader, battle.sides[1].plan.leader)
    if fates.swapped:
        leaders = (leaders[1], leaders[0])
    if not any(spare_ids(battle.houses, leaders, (battle.sides[0].blocked, battle.sides[1].blocked))):
        return None  # no spare entry acts in this battle (the common case: no second leader step)
    from dunenb.rules.battle_phase import fates_with_rolls

    offered = dataclasses.replace(battle, sides=tuple(dataclasses.replace(side, spare=True)  # type: ignore[arg-type]
                                                      for side in battle.sides))
    spares = fates_with_rolls(offered, ctx.rolls).spared
    for me, power in enumerate(spares):
        if power is None:
            continue
        holder, foe = battle.sides[me].house, battle.sides[1 - me].house
        price = spare_price(power, leaders[me])
        if state.houses[foe].spice - battle.sides[1 - me].plan.dial.spice < price:
            return None  # GAP-131: he could not accept
        return dataclasses.replace(state, pending=pending(ASK, holder, battle=ctx, power=power, foe=foe,
                                                          price=price))
    return None


def _decisions(state: GameState) -> list[Action]:
    detail, actor = node(state).detail, node(state).actor
    if node(state).kind == ASK:
        return [Pass(actor), OfferSpare(actor, detail["power"], detail["price"])]
    return [Pass(actor), AcceptSpare(actor, detail["power"], detail["holder"], detail["price"])]


def _check(state: GameState, action: Action) -> IllegalActionError | None:
    return menu_error(action, _decisions(state), "battle/spare",
                      f"now (leaders.md K-17 spare, {node(state).detail['power']})")


def _apply(state: GameState, action: Action) -> GameState:
    from dunenb.rules.battle_phase import resolve_now

    detail: dict[str, Any] = dict(node(state).detail)
    ctx: BattleContext = detail.pop("battle")
    if isinstance(action, OfferSpare):
        ctx = dataclasses.replace(ctx, spare_answers=(OFFERED,))
        state = with_events(state, event("spare-offered", f"{action.house} offer to spare the {detail['foe']}'s "
                                         f"leader for {action.price} spice ({action.power}, K-17)",
                                         house=action.house, to=detail["foe"], powers=(action.power,)))
        return dataclasses.replace(state, pending=pending(REPLY, detail["foe"], battle=ctx, power=action.power,
                                                          holder=action.house, price=action.price))
    if node(state).kind == ASK:
        return resolve_now(state, dataclasses.replace(ctx, spare_answers=(PASSED,)))
    answer = ACCEPTED if isinstance(action, AcceptSpare) else REFUSED
    text = "accept and pay" if answer == ACCEPTED else "refuse to pay"
    state = with_events(state, event("spare-answered", f"{node(state).actor} {text} {detail['price']} spice for "
                                     f"their leader's life ({detail['power']}, K-17)", house=node(state).actor,
                                     answer=answer, powers=(detail["power"],)))
    return resolve_now(state, dataclasses.replace(ctx, spare_answers=(OFFERED, answer)))


def pay(state: GameState, house: str, outcome: BattleOutcome) -> GameState:
    """The outcome's ``spare_paid`` of ``house``: the spared leader's House pays the opposing House (K-17 spare;
    the holder's side lists the power among its ``powers``)."""
    side = outcome.side(house)
    holder = next(other for other in outcome.sides if other is not side)
    power = next((p for p in holder.powers if p in _spare_powers()), "")
    state = edit_house(state, house, spice=state.houses[house].spice - side.spare_paid)
    state = edit_house(state, holder.house, spice=state.houses[holder.house].spice + side.spare_paid)
    return with_events(state, event("spare-paid", f"{house} pay {holder.house} {side.spare_paid} spice: their leader "
                                    f"{side.leader} is spared ({power}, K-17)", house=house, to=holder.house,
                                    amount=side.spare_paid, powers=(power,)))


def _spare_powers() -> frozenset[str]:
    """Every roster power ID whose K-17 action is ``spare``."""
    from dunenb.battle.leader_after import action_of
    from dunenb.battle.roster import load_roster

    return frozenset(power.id for leader in load_roster().leaders for power in leader.powers
                     if power.kind == "POST_BATTLE" and action_of(power)[0] == "spare")


HANDLERS = {
    ASK: Handler(apply=_apply, decisions=_decisions, check=_check, accepts=(OfferSpare,)),
    REPLY: Handler(apply=_apply, decisions=_decisions, check=_check, accepts=(AcceptSpare,)),
}
