"""Karama windows (KARAMA-1, houses.md G-5, GAP-63): at a moment where listed Karama uses can be played, every
House that could play one is asked, in table order, with a pass.

Asking must not reveal who holds a Karama (issue 10 item 3). So the Houses asked depend only on public facts:
every House in play with at least one card in hand (hand sizes are public) is asked, in the table's order
(``config.houses``), except that nobody is offered a use against a power it holds itself (unless the use says its
holder may play it, ``holder_may_play``: KARAMA-27); a House with no use it may play is skipped (who holds a power
is public). Each House asked plays one of the uses still open, with a card
that counts as a Karama for it (the Karama; worthless cards for the Bene Gesserit, BG-P5; ghola cards for the
Bene Tleilax, TLEILAX-P4), or passes. A use played is discarded (KARAMA-2, GAP-27), recorded as a suppression
(:mod:`dunenb.powers.karama`, with the use's duration from ``data/powers.json``) and closed for the other Houses.
When everyone has answered, the window gives the game back to the rules module that opened it (a *resume*
function registered under a name, so saves replay and nothing here imports the rules modules).

>>> import dataclasses
>>> from dunenb.engine import new_game
>>> state = new_game(["guild", "atreides", "emperor"], seed=1)
>>> askers(state, ("KARAMA-15",))  # nobody holds a card yet
()
>>> hands = state.houses.set("atreides", dataclasses.replace(state.houses["atreides"], hand=("lasgun",)))
>>> askers(evolve(state, houses=hands), ("KARAMA-15",))  # a card, whatever it is: asked
('atreides',)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from dunenb.actions import Action, Pass, menu_pass
from dunenb.battle.leader_karama import is_leader_use
from dunenb.errors import IllegalActionError
from dunenb.powers import holder, is_in_play
from dunenb.powers.karama import suppress
from dunenb.powers.registry import karama_use, load_powers
from dunenb.rules.common import Handler, Pledge, edit_house, event, node, pending, with_events
from dunenb.state import FrozenDict, GameState, Pending, evolve

KIND = "karama-window"
SUBSTITUTE = "karama-substitute"  # the window of KARAMA-29 against a card used as a Karama (BG-P5)
KARAMA = "karama"
Resume = Callable[[GameState, FrozenDict], GameState]
RESUMES: dict[str, Resume] = {}


@dataclass(frozen=True)
class UseKarama(Action):
    """KARAMA-1: play ``card`` (a Karama, or a card that counts as one for the House) for the use ``use``."""

    kind: ClassVar[str] = "use-karama"
    house: str
    use: str
    card: str


def register_resume(name: str, function: Resume) -> None:
    """Register the function that takes the game back once a window named ``name`` is closed."""
    RESUMES[name] = function


def usable(state: GameState, house: str, uses: tuple[str, ...],
           target: tuple[str, str] | None = None) -> tuple[str, ...]:
    """The uses among ``uses`` that ``house`` may be offered: those against a power held now by another House, or
    by ``house`` itself when the use allows it (KARAMA-27); an LC-11 use against the secondary leader ``target``
    ((House, id): D-26, any House but his own, GAP-121)."""
    found = []
    for use in uses:
        if is_leader_use(use):
            if target is not None and target[0] != house and is_in_play(state, target[0]):
                found.append(use)
            continue
        spec, declared = karama_use(use)
        power_holder = holder(state, spec.id)
        if power_holder is not None and (power_holder != house or declared.holder_may_play):
            found.append(use)
    return tuple(found)


def askers(state: GameState, uses: tuple[str, ...], target: tuple[str, str] | None = None) -> tuple[str, ...]:
    """The Houses to ask, in table order: in play, holding a card, with a use they may be offered (GAP-63)."""
    return tuple(h for h in state.config.houses if is_in_play(state, h) and state.houses[h].hand
                 and usable(state, h, uses, target))


def karama_cards(state: GameState, house: str) -> tuple[str, ...]:
    """The cards ``house`` may play as a Karama (KARAMA-1, BG-P5, TLEILAX-P4), less those it has promised at the
    node the window interrupts (GAP-57: a Karama that must settle its bid, a card on its battle wheel)."""
    from dunenb.rules.bidding import karama_cards as cards

    held = tuple(dict.fromkeys(cards(state, house) + battle_substitutes(state, house)))
    if not held or state.pending is None or state.pending.kind != KIND:  # issue 14 item 4: none, nothing to free
        return held
    from collections import Counter

    free = Counter(state.houses[house].hand) - Counter(_pledged(state, house).cards)
    return tuple(card for card in held if free[card])


def _battle_now(state: GameState) -> Any:
    """The battle context of the node in place, or of the battle node a window interrupts, or ``None``."""
    current = state.pending
    if current is None:
        return None
    if current.kind == KIND:
        found = current.detail["data"].get("battle")
        prior = current.detail.get("prior")
        if found is None and prior is not None:
            found = prior.detail.get("battle")
        return found
    return current.detail.get("battle")


def _fighters(state: GameState, ctx: Any, house: str) -> tuple[str, ...]:
    """The leaders ``house`` fights this battle with, as far as it knows now: its plan's (revealed, or set and
    hidden from the others), else every leader it may still commit (leaders.md D-15: its choice is made from
    B0; bound to one it disclosed, LC-5 B1: :func:`dunenb.rules.pre_battle.may_lead`)."""
    plan = ctx.plan_of(house)
    if plan is not None:
        return () if plan.leader == "none" else (plan.leader,)
    from dunenb.rules.pre_battle import may_lead

    return may_lead(state, ctx, house)


def _substitutes(state: GameState, house: str) -> tuple[tuple[str, str, str], ...]:
    """(card, leader id, power) for each card in ``house``'s hand that one of its leaders' K-9
    ``worthless_is_karama`` makes a Karama in the battle being fought now (GUILD-L01-d: Edric)."""
    ctx = _battle_now(state)
    if ctx is None or house not in ctx.houses:
        return ()  # issue 14 item 4: out of a battle (most windows), before the imports below
    from dunenb.battle.leader_weapons import karama_substitute_powers
    from dunenb.rules.battle_powers import blocked_in_battle
    from dunenb.rules.traitors import leader_of

    blocked = blocked_in_battle(state, house)
    hand = state.houses[house].hand
    return tuple((card, lid, power) for lid in _fighters(state, ctx, house)
                 for card, power in karama_substitute_powers(leader_of(house, lid), house, blocked) if card in hand)


def battle_substitutes(state: GameState, house: str) -> tuple[str, ...]:
    """leaders.md K-9 ``worthless_is_karama`` (GUILD-L01-d): in a battle Edric leads for ``house`` (LC-12), the
    House's worthless cards in hand serve as Karama for any use, as BG-P5: from B0 on (D-15: the House knows
    whom it commits), in every window of that battle (the F7 window of its start: KARAMA-21/22/23/42; KARAMA-31
    against a trance; after the reveal KARAMA-50 against a minion...), while Edric may still lead it for
    ``house`` (before its plan is set: :func:`_fighters`) or leads it (its plan, hidden or revealed). Played
    before the reveal, the card discloses him (GAP-143, :func:`_disclose_substitute`); on the wheel it is the
    wheel's own Karama (:func:`dunenb.rules.battle_phase._karamas`)."""
    return tuple(dict.fromkeys(card for card, _lid, _power in _substitutes(state, house)))


def _disclose_substitute(state: GameState, action: UseKarama) -> GameState:
    """GAP-143 (leaders.md LC-5 B1, D-15): a card played in a window as a Karama by a leader's power
    (GUILD-L01-d) before the wheels are revealed is a use of that power before B6, so it discloses that the
    leader leads this battle, to every House (the card is played openly), and the House's plan must name him
    (``battle/leader-disclosed``, GAP-79). A card that is a Karama by a House power (BG-P5, TLEILAX-P4) or a
    use after the reveal discloses nothing."""
    from dunenb.rules.bidding import karama_cards as house_cards
    from dunenb.rules.pre_battle import disclose_power

    ctx = _battle_now(state)
    if action.card in house_cards(state, action.house) or ctx is None or action.house in dict(ctx.plans):
        return state
    found = [(lid, power) for card, lid, power in _substitutes(state, action.house) if card == action.card]
    if not found:
        return state
    state, ctx = disclose_power(state, ctx, action.house, found[0][1])
    return _with_battle(state, ctx)


def _with_battle(state: GameState, ctx: Any) -> GameState:
    """The window in place, with ``ctx`` as the battle context it carries (in its data) or interrupts (its
    prior node's), as :func:`_battle_now` reads it."""
    here = node(state)
    detail = here.detail
    data = detail["data"]
    if data.get("battle") is not None:
        return evolve(state, pending=evolve(here, detail=detail.updated({"data": data.set("battle", ctx)})))
    prior: Pending | None = detail.get("prior")
    if prior is not None and prior.detail.get("battle") is not None:
        prior = evolve(prior, detail=prior.detail.updated({"battle": ctx}))
        return evolve(state, pending=evolve(here, detail=detail.updated({"prior": prior})))
    return state


def open_window(state: GameState, uses: tuple[str, ...], resume: str, *, only: tuple[str, ...] | None = None,
                pledges: tuple[tuple[str, int], ...] = (), **data: Any) -> GameState:
    """Ask every House that could play one of ``uses`` now (GAP-63), then call the resume function ``resume``
    with ``data``; with nobody to ask, resume at once. The pending node in place is restored before resuming.
    ``only`` restricts the Houses asked when the use says who plays it (KARAMA-36: the payer). ``pledges``:
    (House, spice) it owes for the announced action, which it may not spend at any time meanwhile (GAP-57)."""
    order = tuple(h for h in askers(state, uses, data.get("target")) if only is None or h in only)
    if not order:
        return RESUMES[resume](state, FrozenDict(data))
    return evolve(state, pending=pending(
        KIND, order[0], uses=uses, order=order, index=0, resume=resume, data=FrozenDict(data), prior=state.pending,
        pledges=pledges))


def _target(state: GameState) -> tuple[str, str] | None:
    """The secondary leader an LC-11 window is about ((House, id)), if any."""
    target = node(state).detail["data"].get("target")
    return None if target is None else (target[0], target[1])


def _open_uses(state: GameState) -> tuple[str, ...]:
    detail = node(state).detail
    return usable(state, node(state).actor, detail["uses"], _target(state))


def _decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    menu: list[Action] = [menu_pass(house)]
    cards = karama_cards(state, house)
    if cards:  # issue 14 item 4: without a card the open uses need not be read
        menu += [UseKarama(house, use, card) for use in _open_uses(state) for card in cards]
    return menu


def _check(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, UseKarama):
        if action.use not in _open_uses(state):
            return IllegalActionError("karama/use", f"{action.use!r} cannot be played now; open uses: "
                                      f"{', '.join(_open_uses(state)) or 'none'}")
        if action.card not in karama_cards(state, action.house):
            return IllegalActionError("karama/card", f"{action.card!r} is not a card {action.house} may play as a "
                                      f"Karama; its Karama cards: {', '.join(karama_cards(state, action.house))}")
    return None


def _apply(state: GameState, action: Action) -> GameState:
    detail = node(state).detail
    uses = detail["uses"]
    if isinstance(action, UseKarama):
        state = _disclose_substitute(state, action)  # GAP-143: Edric's worthless card before the reveal
        hand = list(state.houses[action.house].hand)
        hand.remove(action.card)
        state = edit_house(state, action.house, hand=tuple(hand))
        state = evolve(state, treachery_discard=state.treachery_discard + (action.card,))  # GAP-27
        against = _substitute_uses(state, action)
        if against:  # KARAMA-29 (GAP-86): a real Karama may cancel a card used as one
            return open_window(state, against, SUBSTITUTE, use=action.use, house=action.house, card=action.card)
        state = _played(state, action.house, action.use, action.card)
        uses = tuple(u for u in uses if u != action.use)
    else:
        state = with_events(state, event("karama-pass", f"{action.actor} plays no Karama", house=action.actor))
    return _next(state, uses)


def _played(state: GameState, house: str, use_id: str, card: str) -> GameState:
    """The use takes effect: its power is blocked for the use's duration (KARAMA-1); an LC-11 use voids every
    power of the window's target leader (GAP-121)."""
    if is_leader_use(use_id):
        from dunenb.rules.leader_karama import void_leader
        from dunenb.rules.traitors import leader_of

        target = _target(state)
        assert target is not None
        data = node(state).detail["data"]
        return void_leader(state, use_id, house, leader_of(target[0], target[1]), data.get("moment", "a"),
                           lasts=data.get("lasts", "battle"))
    spec, use = karama_use(use_id)
    state = suppress(state, use_id, house)
    shown = "" if card == "karama" else f" ({card} counts as a Karama for {house})"
    return with_events(state, event(
        "karama", f"{house} plays a Karama{shown}: {use_id} blocks {spec.id} ({spec.name}) for "
        f"{'this ' + use.lasts if use.lasts != 'game' else 'the game'} (KARAMA-1, KARAMA-2)",
        house=house, karama=use_id, power=spec.id, card=card, powers=(spec.id,)))


def _next(state: GameState, uses: tuple[str, ...]) -> GameState:
    """Ask the next House of the window's order that may still play an open use; else close the window."""
    detail = node(state).detail
    order, target = detail["order"], _target(state)  # issue 14 item 4: the window's target read once
    for index in range(detail["index"] + 1, len(order)):
        house = order[index]
        if state.houses[house].hand and usable(state, house, uses, target):
            return evolve(state, pending=evolve(
                node(state), actor=house, detail=detail.updated({"uses": uses, "index": index})))
    prior: Pending | None = detail["prior"]
    return RESUMES[detail["resume"]](evolve(state, pending=prior), detail["data"])


def _substitute_uses(state: GameState, action: UseKarama) -> tuple[str, ...]:
    """KARAMA-29: the uses against the power that lets ``action.card`` count as a Karama (BG-P5), if any."""
    return substitute_uses(state, action.house, action.card)


def substitute_uses(state: GameState, house: str, card: str) -> tuple[str, ...]:
    """KARAMA-29: the implemented uses against the power by which ``house`` plays ``card`` as a Karama (BG-P5),
    if any; none for a real Karama. Asked in a window wherever such a card is played (here, at the auction:
    GAP-124)."""
    if card == KARAMA:
        return ()
    return tuple(use.id for spec in load_powers().values() for act in spec.acts
                 if act.trigger == "karama.substitute" and holder(state, spec.id) == house
                 for use in spec.karama if use.moment == "karama-use" and use.status == "implemented")


def substitute_cancelled(state: GameState, house: str, card: str) -> tuple[GameState, bool]:
    """After a KARAMA-29 window: whether a real Karama cancelled ``house``'s ``card`` played as a Karama (then the
    suppression is spent and the event says the card was discarded without effect)."""
    power = _substitute_power(house)
    cancelled = [s for s in state.suppressions if s.power == power and s.scope == "action"]
    if not cancelled:
        return state, False
    state = evolve(state, suppressions=tuple(s for s in state.suppressions if s not in cancelled))
    return with_events(state, event(
        "karama-cancelled", f"{house}'s {card} played as a Karama is cancelled and discarded without effect "
        f"({cancelled[0].karama})", house=house, card=card, powers=(cancelled[0].power,))), True


def _substitute_settled(state: GameState, data: FrozenDict) -> GameState:
    """Back in the window after KARAMA-29 was asked: the use counts, or the card was discarded without effect
    (its use stays open for the Houses still to answer)."""
    uses = node(state).detail["uses"]
    state, cancelled = substitute_cancelled(state, data["house"], data["card"])
    if cancelled:
        return _next(state, uses)
    state = _played(state, data["house"], data["use"], data["card"])
    return _next(state, tuple(u for u in uses if u != data["use"]))


def _substitute_power(house: str) -> str | None:
    """The power by which ``house`` holds some card as a Karama (BG-P5, TLEILAX-P4), by the powers' sheets."""
    for spec in load_powers().values():
        if spec.holder == house and any(a.trigger == "karama.substitute" for a in spec.acts):
            return spec.id
    return None


def _pledged(state: GameState, house: str) -> Pledge:
    """GAP-57: the spice the announced action will cost ``house`` stays promised while the window is open, and so
    does what ``house`` had promised at the node the window interrupts (a bid, a battle wheel: a window opened
    from a truth trance asked at that node, BG-M1)."""
    spice = dict(node(state).detail.get("pledges", ())).get(house, 0)
    prior: Pending | None = node(state).detail.get("prior")
    if prior is None:
        return Pledge(spice=spice)
    from dunenb.engine import HANDLERS  # the rules modules are loaded by then; no import cycle at load time

    handler = HANDLERS.get(prior.kind)
    if handler is None or handler.pledged is None:
        return Pledge(spice=spice)
    before = handler.pledged(evolve(state, pending=prior), house)
    return Pledge(spice=spice + before.spice, cards=before.cards)


HANDLERS = {KIND: Handler(apply=_apply, decisions=_decisions, check=_check, accepts=(UseKarama,),
                          pledged=_pledged, always=(Pass,))}  # a Karama is never forced

register_resume(SUBSTITUTE, _substitute_settled)
