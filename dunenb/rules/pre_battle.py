"""houses.md G-9 in games: the steps between the start of a battle and the reveal, driven by
:mod:`dunenb.battle.sequence` (the seed-003 step machine; this module only asks and records).

* **Voice** (BG-P1): the side holding the power (:func:`dunenb.powers.holders.holds_power`) is asked first, with a
  pass first: :class:`UseVoice` forbids or forces one kind (``VOICE_KINDS``) on the opponent's wheel. It is stated
  openly (a public action). The Voice is stated before any prescience question is answered (G-9).
* **Prescience** (ATREIDES-P1): the side holding it then asks :class:`AskPrescience` "your attack?" or "your
  defence?" (or passes). GAP-66: the House asked sets its plan first (the other side after it, whoever defends);
  the engine reads the binding answer from that hidden plan (kinds only, a worthless card is "none"), and only
  the asker and the House asked see it (:func:`dunenb.rules.secrecy.answer_viewers`, :func:`dunenb.engine.view`).
  Plans are not changed once set (seed 003 FAQ 4's changes until the reveal are not modelled), so the answer is
  true by construction.
* **Plans bound** (BG-P1 L751-753, ATREIDES-P1 L1019-1025): a plan breaking the Voice (a forbidden kind on the
  wheel; a forced kind held but not played) or the prescience answer is refused
  (``battle/bound-by-voice``, :func:`violations`), and the menus list only plans that keep them. GAP-67: a side
  with no leader plays no card (GAP-43), so a forced kind does not bind it, as if it held none (L753).

Not modelled yet: the leader disclosures (step 1: BG-M2 and leader powers), the Karama against abilities
(seed 003 F7), Paul's Voice (ATREIDES-M2) and the Navigator's prescience (GUILD-M2) (both need the leader or
the battle turn known before the plans) and the secret Karamas shown at the reveal (KARAMA-25, KARAMA-40):
every other plan must obey. DISPERSION-M2: a plan led by a leader immune to the Voice (``leader.immune``
``"voice"`` in ``data/powers.json``: Dama) is not bound by it (her immunity shows only at the reveal: nothing is
asked).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from dunenb.actions import Action, Pass
from dunenb.battle import sequence as seq_mod
from dunenb.battle.cards import card_kind
from dunenb.battle.plans import BattlePlan
from dunenb.battle.powers import immune_to
from dunenb.errors import IllegalActionError
from dunenb.powers.holders import holds_power
from dunenb.rules.battle_context import BattleContext, context_of
from dunenb.rules.common import Handler, event, pending, with_events
from dunenb.rules.traitors import leader_of
from dunenb.state import GameState

if TYPE_CHECKING:
    from dunenb.rules.battle_phase import SubmitPlan

NONE = "none"
VOICE_POWERS = ("BG-P1",)  # houses.md G-9 (2); ATREIDES-M2 is left (module docstring)
PRESCIENCE_POWERS = ("ATREIDES-P1",)  # houses.md G-9 (3); GUILD-M2 is left
MODES = ("forbid", "force")
SLOTS = ("attack", "defence")


@dataclass(frozen=True)
class UseVoice(Action):
    """BG-P1: ``house`` commands its opponent to ``mode`` (forbid or force) one ``kind`` of card (FAQ 10: never
    worthless)."""

    kind: ClassVar[str] = "voice"
    house: str
    mode: str
    card_kind: str


@dataclass(frozen=True)
class AskPrescience(Action):
    """ATREIDES-P1: ``house`` asks its opponent for the kind in one ``slot`` of its wheel (attack or defence)."""

    kind: ClassVar[str] = "prescience"
    house: str
    slot: str


def _holder(state: GameState, houses: tuple[str, str], powers: tuple[str, ...]) -> str | None:
    """The side of the battle that holds one of ``powers`` now (first in defender-attacker order), or None."""
    for house in houses:
        if any(holds_power(state, house, power) for power in powers):
            return house
    return None


def begin(state: GameState, ctx: BattleContext) -> GameState:
    """Start the G-9 steps of a new battle, then go to the first node that needs a decision."""
    seq = seq_mod.start_sequence(ctx.houses, voice_holder=_holder(state, ctx.houses, VOICE_POWERS),
                                 prescience_holder=_holder(state, ctx.houses, PRESCIENCE_POWERS))
    seq = seq_mod.advance(seq, seq_mod.Pass())  # F7, Karama against abilities: not offered yet (docstring)
    return _next(state, dataclasses.replace(ctx, sequence=seq, order=ctx.houses))


def _next(state: GameState, ctx: BattleContext) -> GameState:
    seq = ctx.sequence
    assert seq is not None
    if seq.step == "voice" and seq.voice_holder is not None:
        return dataclasses.replace(state, pending=pending("battle-voice", seq.voice_holder, battle=ctx))
    if seq.step == "prescience" and seq.prescience_holder is not None:
        return dataclasses.replace(state, pending=pending("battle-prescience", seq.prescience_holder, battle=ctx))
    order = ctx.houses
    if seq.step == "prescience-answer" and seq.question is not None:  # GAP-66: the House asked plans first
        order = (seq.question.target, seq.question.by)
    ctx = dataclasses.replace(ctx, order=order)
    return dataclasses.replace(state, pending=pending("battle-plan", order[0], battle=ctx))


# --- the Voice -------------------------------------------------------------------------------------------

def _voice_decisions(state: GameState) -> list[Action]:
    house = state.pending.actor
    return [Pass(house), *(UseVoice(house, mode, kind) for mode in MODES for kind in seq_mod.VOICE_KINDS)]


def _check_voice(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, UseVoice) and (action.mode not in MODES or action.card_kind not in seq_mod.VOICE_KINDS):
        return IllegalActionError("battle/voice", f"voice {action.mode} {action.card_kind}: allowed modes "
                                  f"{', '.join(MODES)}, kinds {', '.join(seq_mod.VOICE_KINDS)} (BG-P1, FAQ 10)")
    return None


def _apply_voice(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    assert ctx.sequence is not None
    if isinstance(action, UseVoice):
        target = ctx.opponent(action.house)
        command = seq_mod.VoiceCommand(action.house, target, action.mode, action.card_kind)
        seq = seq_mod.advance(ctx.sequence, command)
        state = with_events(state, event("voice", f"{action.house} uses the Voice: {target} must "
                                         f"{'not play' if action.mode == 'forbid' else 'play'} a {action.card_kind} "
                                         "card (BG-P1)", house=action.house, target=target, mode=action.mode,
                                         card_kind=action.card_kind, power="BG-P1"))
    else:
        seq = seq_mod.advance(ctx.sequence, seq_mod.Pass())
    return _next(state, dataclasses.replace(ctx, sequence=seq))


# --- prescience ------------------------------------------------------------------------------------------

def _prescience_decisions(state: GameState) -> list[Action]:
    house = state.pending.actor
    return [Pass(house), *(AskPrescience(house, slot) for slot in SLOTS)]


def _check_prescience(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, AskPrescience) and action.slot not in SLOTS:
        return IllegalActionError("battle/prescience", f"prescience slot {action.slot!r}; allowed: "
                                  f"{', '.join(SLOTS)} (ATREIDES-P1)")
    return None


def _apply_prescience(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    assert ctx.sequence is not None
    if isinstance(action, AskPrescience):
        target = ctx.opponent(action.house)
        seq = seq_mod.advance(ctx.sequence, seq_mod.PrescienceQuestion(action.house, target, action.slot))
        state = with_events(state, event("prescience", f"{action.house} asks {target}: \"your {action.slot}?\" "
                                         "(ATREIDES-P1); the answer is binding", house=action.house, target=target,
                                         slot=action.slot, power="ATREIDES-P1"))
    else:
        seq = seq_mod.advance(ctx.sequence, seq_mod.Pass())
    return _next(state, dataclasses.replace(ctx, sequence=seq))


def answer_of(plan: SubmitPlan, slot: str) -> str | None:
    """ATREIDES-P1: the kind in ``slot`` of ``plan`` (kinds, not subtypes, L1025); None for "none" (an empty slot
    or a worthless card: design note of :func:`dunenb.battle.sequence.plan_violations`)."""
    card = plan.weapon if slot == "attack" else plan.defense
    return None if card in (NONE, "worthless") else card_kind(card)


def after_plan(state: GameState, ctx: BattleContext, plan: SubmitPlan) -> tuple[GameState, BattleContext]:
    """Once the House asked has set its plan, read the binding answer from it (GAP-66); shown to the asker only."""
    seq = ctx.sequence
    if seq is None or seq.step != "prescience-answer" or seq.question is None or seq.question.target != plan.house:
        return state, ctx
    seq = seq_mod.advance(seq, seq_mod.PrescienceAnswer(plan.house, answer_of(plan, seq.question.slot)))
    state = with_events(state, event("prescience-answered", f"{plan.house} answers {seq.question.by}'s prescience "
                                     "(only they see the answer, ATREIDES-P1)", house=plan.house,
                                     asker=seq.question.by, secret=True, power="ATREIDES-P1"))
    return state, dataclasses.replace(ctx, sequence=seq)


# --- plans bound by the Voice and the answer -------------------------------------------------------------

def violations(state: GameState, plan: SubmitPlan) -> tuple[str, ...]:
    """What in ``plan`` breaks the Voice command or the prescience answer in force (empty if nothing)."""
    ctx = context_of(state)
    if ctx.sequence is None:
        return ()
    wheel = BattlePlan(weapon=None if plan.weapon == NONE else plan.weapon,
                       defense=None if plan.defense == NONE else plan.defense)
    hand = () if plan.leader == NONE else state.houses[plan.house].hand  # GAP-67: no leader, no card to force
    # DISPERSION-M2 (leader.immune "voice"): no Voice binds a House whose plan has such a leader (Dama)
    leader = None if plan.leader == NONE else leader_of(plan.house, plan.leader)
    released = ("voice",) if "voice" in immune_to(leader) else ()
    return seq_mod.plan_violations(ctx.sequence, plan.house, wheel, hand=hand, karama_shown=released)


def binding_error(state: GameState, plan: SubmitPlan) -> IllegalActionError | None:
    """The error for a plan that breaks the Voice (BG-P1) or the prescience answer (ATREIDES-P1), or None."""
    problems = violations(state, plan)
    if not problems:
        return None
    return IllegalActionError("battle/bound-by-voice", f"{plan.house}'s plan breaks: {'; '.join(problems)} "
                              "(BG-P1, ATREIDES-P1: the Voice and the prescience answer bind the plan); "
                              "change the weapon or defence")


HANDLERS = {
    "battle-voice": Handler(apply=_apply_voice, decisions=_voice_decisions, check=_check_voice,
                            accepts=(UseVoice,), always=(Pass,)),
    "battle-prescience": Handler(apply=_apply_prescience, decisions=_prescience_decisions,
                                 check=_check_prescience, accepts=(AskPrescience,), always=(Pass,)),
}
