"""leaders.md LC-11 in games: the Karama against a secondary leader (KARAMA-10/13/19/24/33/39/44/50, D-26) at its
three moments, and the Karamas shown with the wheels at the reveal (GAP-80; KARAMA-20 against karate).

* **(b) At B6, on the wheel** (GAP-122): a plan that can add a Karama card may hide it against the opposing leader
  (``SubmitPlan.against`` = the use of the opposing House's group, :func:`dunenb.rules.pre_battle.wheel_uses`).
  At the reveal (:func:`shown_with_wheel`) it voids every power of that leader, if he is a secondary leader of
  that House, for the rest of the battle: one suppression per power ID (:func:`dunenb.powers.karama.
  suppress_powers`, lifted when the battle is settled), and the resolver's B6 step reads the same use from the
  plan (:func:`dunenb.battle.leader_karama.with_wheel_karamas`). The uses before B6 stand, except a Voice of
  that leader, which the plan was free to disobey (:func:`dunenb.battle.facts.released_by`).
* **(a) Before B6** and **(c) outside battle**: :func:`ask_against_leader` opens a Karama window (GAP-63) offering
  the one use against a named leader at the moment he uses or declares a power (a), or when his effect would
  apply (c); a use played voids his powers as above (the rules module that asked reads
  :func:`dunenb.powers.karama.is_suppressed` for the power it was about to apply: the use is cancelled, nothing is
  refunded). Outside battle the caller gives the use's duration (``lasts`` ``"event"`` or ``"action"``: one S-2
  event, one S-8 tax) and lifts it once that use is settled (:func:`dunenb.powers.karama.lift`). KARAMA-50
  against a minion of Vladimir (HARKONNEN-M3, GAP-125) is asked this way before the resolution of a battle where
  his bonus applies (:func:`ask_minions`). Moment (a) is asked where a leader's Voice, question or K-16 action is
  used (:mod:`dunenb.rules.leader_karama_before`, GAP-151); moment (c) before an S-8 tax or an S-2 storm or worm
  (:mod:`dunenb.rules.leader_karama_events`, GAP-152).
* **KARAMA-29 on the wheel** (GAP-124): a card a House power lets count as a Karama (BG-P5: a worthless card),
  shown with a wheel, is asked in a window at the reveal, before any wheel Karama acts (:func:`after_reveal`).
* **KARAMA-20** (GAP-123): hidden against a House holding DISPERSION-P1 and shown at the reveal, it voids the
  karate on that wheel; useless, and lost, against any other attack.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from dunenb.battle.leader_karama import (
    group_of,
    is_leader_use,
    leader_of_power,
    use_against,
    voidable_powers,
    wheel_blocks,
)
from dunenb.battle.roster import Leader
from dunenb.powers.karama import suppress_powers, suppressed_powers
from dunenb.powers.registry import karama_use
from dunenb.rules.battle_context import BattleContext
from dunenb.rules.common import edit_house, event, with_events
from dunenb.rules.karama_window import open_window, register_resume, substitute_cancelled, substitute_uses
from dunenb.rules.traitors import leader_of
from dunenb.state import GameState

NONE = "none"


def _opposing_leader(ctx: BattleContext, house: str) -> tuple[str, Leader | None, Any]:
    opponent = ctx.opponent(house)
    plan = ctx.plan_of(opponent)
    leader = None if plan is None or plan.leader == NONE else leader_of(opponent, plan.leader)
    return opponent, leader, plan


def void_leader(state: GameState, use: str, by: str, leader: Leader, why: str, *, lasts: str = "battle") -> GameState:
    """LC-11: ``by``'s Karama ``use`` voids every power of ``leader`` for the rest of the battle (GAP-121), or, outside
    battle, for the one use ``lasts`` names (``"event"``, ``"action"``)."""
    powers = tuple(sorted(voidable_powers(leader)))
    state = suppress_powers(state, use, by, powers, scope=lasts)
    span = "the rest of this battle" if lasts == "battle" else f"this {lasts}"
    return with_events(state, event(
        "karama", f"{by} plays a Karama: {use} voids every power of {leader.name} ({leader.house}) for {span} "
        f"({', '.join(powers) or 'he has only traits'}; LC-11 {why}, KARAMA-2)", house=by,
        karama=use, leader=leader.id, owner=leader.house, powers=powers))


def shown_with_wheel(state: GameState, ctx: BattleContext, house: str, plan: Any) -> GameState:
    """GAP-80: the Karama hidden on ``house``'s wheel (``plan.against``) is shown at the reveal (B6): LC-11 b
    voids the opposing secondary leader's powers (GAP-122), KARAMA-20 the karate (GAP-123); the other uses
    released a Voice or an answer (KARAMA-25/43/40/18). The card is lost whatever it did (KARAMA-2)."""
    use = plan.against
    opponent, leader, other = _opposing_leader(ctx, house)
    blocks = wheel_blocks(use, leader, opponent)
    if is_leader_use(use):
        if leader is not None and blocks:
            return void_leader(state, use, house, leader, "b, shown with the wheel")
        return with_events(state, event(
            "karama", f"{house} shows a Karama with its wheel ({use}, against a {group_of(use)} secondary leader), "
            f"but {opponent} is not led by one: it does nothing and is lost (GAP-122, KARAMA-2)", house=house,
            karama=use, card=plan.karama, powers=()))
    spec, _declared = karama_use(use)
    from dunenb.battle.powers import slot_weapon_powers

    weapons = {power: weapon for power, _holder, weapon in slot_weapon_powers()}
    if spec.id in weapons:  # KARAMA-20 (GAP-123): against a built-in weapon on the opposing wheel
        if other is not None and other.weapon == weapons[spec.id] and spec.id in blocks:
            state = suppress_powers(state, use, house, (spec.id,), scope="battle")
            text = (f"{house} shows a Karama with its wheel: {use} voids {opponent}'s {weapons[spec.id]} "
                    f"({spec.id}): {opponent} has no attack in this battle (GAP-123, KARAMA-2)")
        else:
            text = (f"{house} shows a Karama with its wheel ({use}, against {spec.name}), but {opponent} does not "
                    f"attack with it: it is useless and lost (GAP-123, KARAMA-2)")
        return with_events(state, event("karama", text, house=house, karama=use, power=spec.id, card=plan.karama,
                                        powers=(spec.id,)))
    return with_events(state, event(
        "karama", f"{house} shows a Karama with its wheel: {use} blocks {spec.id} ({spec.name}); "
        f"{house} was free to disobey it (KARAMA-1, KARAMA-2)", house=house, karama=use,
        power=spec.id, card=plan.karama, powers=(spec.id,)))


def blocked_leader_powers(state: GameState, house: str) -> frozenset[str]:
    """The powers of ``house``'s own secondary leaders that a Karama in force voids now (LC-11), for its side's
    :attr:`~dunenb.battle.plans.BattleSide.blocked`."""
    found = set()
    for power in suppressed_powers(state):
        owner = leader_of_power(power)
        if owner is not None and owner.house == house:
            found.add(power)
    return frozenset(found)


def ask_against_leader(state: GameState, leader: Leader, resume: str, *, moment: str, lasts: str = "battle",
                       **data: Any) -> GameState:
    """LC-11 a/c: open a Karama window (GAP-63) offering the use against ``leader`` (a secondary leader about to
    use, or whose effect is about to apply: ``moment`` ``"a"`` or ``"c"``), then resume ``resume`` with
    ``data``; a use played voids his powers for ``lasts`` (the battle; outside battle ``"event"`` or ``"action"``,
    lifted by the caller). Nothing to ask (a main leader, no use): resume at once."""
    use = use_against(leader)
    if use is None:
        from dunenb.rules.karama_window import RESUMES
        from dunenb.state import FrozenDict

        return RESUMES[resume](state, FrozenDict(data))
    return open_window(state, (use,), resume, target=(leader.house, leader.id), moment=moment, lasts=lasts, **data)


# --- KARAMA-50 against a minion of Vladimir (LC-11 c, HARKONNEN-M3, GAP-125) ------------------------------

MINIONS = "minion-karama"


def _minion_bonuses(state: GameState, ctx: BattleContext) -> tuple[tuple[str, str], ...]:
    """(House, minion id) for each living leader whose bonus a House power adds to the revealed leader of this
    battle now (``add_per_living``: HARKONNEN-M3), in the order of the power's list, not voided yet."""
    from dunenb.battle.leader_karama import bonus_leaders
    from dunenb.rules.battle_phase import battle_of

    battle = battle_of(state, ctx)
    found = bonus_leaders(battle.houses, [side.plan.leader for side in battle.sides], battle.index(battle.defender),
                          territory=battle.territory, dead=(battle.sides[0].dead, battle.sides[1].dead),
                          blocked=(battle.sides[0].blocked, battle.sides[1].blocked),
                          shield_wall_standing=battle.shield_wall_standing)
    return tuple((battle.houses[me], lid) for me, lid in found
                 if lid in state.houses[battle.houses[me]].leaders)  # still with his House (not captured)


def ask_minions(state: GameState, ctx: BattleContext) -> GameState:
    """Before the resolution (after the calls and the buy-off: LC-11 c, "when the effect would apply"): GAP-125,
    one KARAMA-50 window per living minion whose bonus HARKONNEN-M3 adds to the revealed Vladimir; a use played
    voids that minion's powers (his bonus) for this battle. No window after a treachery (GAP-35b: no values are
    compared). Then the battle is resolved."""
    minions = () if ctx.calls else _minion_bonuses(state, ctx)
    return _next_minion(state, ctx, minions)


def _next_minion(state: GameState, ctx: BattleContext, minions: tuple[tuple[str, str], ...]) -> GameState:
    for index, (house, lid) in enumerate(minions):
        leader = leader_of(house, lid)
        if use_against(leader) is not None:
            return ask_against_leader(state, leader, MINIONS, moment="c, his bonus to the revealed leader",
                                      battle=ctx, minions=minions[index + 1:])
    from dunenb.rules.battle_phase import resolve_now

    return resolve_now(state, ctx)


def _minion_asked(state: GameState, data: Any) -> GameState:
    return _next_minion(state, data["battle"], data["minions"])


register_resume(MINIONS, _minion_asked)


# --- the reveal: KARAMA-29 against a card shown as a Karama, then the Karamas shown (GAP-124, GAP-80) -------

WHEEL_SUBSTITUTE = "wheel-karama-substitute"


def after_reveal(state: GameState, ctx: BattleContext) -> GameState:
    """B6, once the plans are revealed: for each wheel (defender first) holding a card played as a Karama by a
    House power (BG-P5: a worthless card), a KARAMA-29 window (GAP-124); then every Karama hidden with a wheel
    takes effect (:func:`shown_with_wheel`) and the traitor calls begin."""
    from dunenb.rules.battle_phase import begin_calls

    return _next_substitute(begin_calls(state, ctx), ctx, ctx.houses)


def _next_substitute(state: GameState, ctx: BattleContext, houses: tuple[str, ...]) -> GameState:
    for index, house in enumerate(houses):
        plan = ctx.plan_of(house)
        uses = () if plan is None or plan.karama == NONE else substitute_uses(state, house, plan.karama)
        if uses:
            return open_window(state, uses, WHEEL_SUBSTITUTE, battle=ctx, house=house, card=plan.karama,
                               rest=houses[index + 1:])
    from dunenb.rules.battle_phase import begin_calls

    for house in ctx.houses:
        plan = ctx.plan_of(house)
        if plan is not None and plan.against != NONE:
            state = shown_with_wheel(state, ctx, house, plan)
    return begin_calls(state, ctx)


def _substitute_asked(state: GameState, data: Any) -> GameState:
    ctx: BattleContext = data["battle"]
    state, cancelled = substitute_cancelled(state, data["house"], data["card"])
    if cancelled:
        state, ctx = _void_wheel_karama(state, ctx, data["house"])
    return _next_substitute(state, ctx, data["rest"])


def _void_wheel_karama(state: GameState, ctx: BattleContext, house: str) -> tuple[GameState, BattleContext]:
    """GAP-124: the card ``house`` showed as a Karama is void: it is discarded (KARAMA-2) and blocks nothing; a
    card of its wheel that broke a Voice or an answer it was meant to release goes back to its hand unplayed."""
    from dunenb.rules.battle_phase import begin_calls
    from dunenb.rules.pre_battle import violations

    plan = ctx.plan_of(house)
    hand = list(state.houses[house].hand)
    hand.remove(plan.karama)
    state = dataclasses.replace(state, treachery_discard=state.treachery_discard + (plan.karama,))
    state = edit_house(state, house, hand=tuple(hand))
    bare = dataclasses.replace(plan, karama=NONE, against=NONE)
    probe = begin_calls(state, ctx)  # violations read the battle in the pending node
    for slot in ("weapon", "defense"):
        if getattr(bare, slot) != NONE:
            without = dataclasses.replace(bare, **{slot: NONE})
            if len(violations(probe, without)) < len(violations(probe, bare)):
                state = with_events(state, event(
                    "card-withdrawn", f"{house}'s {getattr(bare, slot)} broke a binding its void Karama was to "
                    "release: it goes back to its hand unplayed (GAP-124)", house=house, card=getattr(bare, slot)))
                bare = without
    plans = tuple((h, bare if h == house else p) for h, p in ctx.plans)
    return state, dataclasses.replace(ctx, plans=plans)


register_resume(WHEEL_SUBSTITUTE, _substitute_asked)
