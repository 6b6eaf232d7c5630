"""houses.md G-9 in games: the steps between the start of a battle and the reveal, driven by
:mod:`dunenb.battle.sequence` (the seed-003 step machine; this module only asks and records).

* **Karama against abilities** (seed 003 F7, G-9 "Truth trances and other Karama may come between any two
  steps"): when the battle starts, a Karama window (:mod:`dunenb.rules.karama_window`, GAP-63) offers the open
  Karama uses of ``data/powers.json`` played "in a battle" (moment ``battle`` or ``battle-voice``: KARAMA-21,
  KARAMA-22, KARAMA-23, KARAMA-42...) against a power held by one of the two sides. A use played blocks that
  power until the battle is settled (``lasts`` ``battle``); the battle library reads it as a power the side does
  not hold (:func:`dunenb.rules.battle_powers.blocked_in_battle`, :attr:`dunenb.battle.plans.BattleSide.blocked`).
* **Voices** (BG-P1, ATREIDES-M2): the powers whose ``battle.before-plans`` act offers ``voice``, held by a side
  (:func:`dunenb.powers.holder`) and whose conditions hold, are asked in order (defender first, then the
  attacker; file order within a House), each with a pass first: :class:`UseVoice` forbids or forces one kind on
  the opponent's wheel. Every Voice is stated before any prescience question (G-9). Stated openly (public).
* **Prescience** (ATREIDES-P1, GUILD-M2): then every power offering ``prescience`` is asked the same way
  (:class:`AskPrescience`, "your attack?" / "your defence?"). GUILD-M2 acts in the Guild's own battle turn
  (condition ``defender``: the House whose turn it is chooses the battle and defends, BATTLE-3, BATTLE-14).
* **Secondary leaders** (leaders.md K-11 VOICE, K-12 PRESCIENCE, K-13 TRUTH_TRANCE; LC-5 B1-B3): a leader's
  entry is one more source, after his House's and main leader's, while he may lead this battle and no other
  leader of his House is disclosed (:func:`leader_offers`, GAP-103); using it discloses him. A d10 Voice is
  stated, then rolled openly (:class:`VoiceRoll`, GAP-101); a once-a-turn Voice is counted per game turn
  (``GameState.leader_power_uses``); a question keeps to his scope and territory and never repeats a slot the
  House asked (GAP-102); two commands to one side never name the same kind nor force one slot twice (GAP-105).
  His trances are asked at his House's plan decision (:func:`leader_trance_means`, GAP-104).
* **Answers** (GAP-78): once every question is stated, each House asked answers with :class:`AnswerPrescience`,
  a secret action (the answerer sees it; the asker reads the answer in its view of the battle context once
  every question is answered, :func:`dunenb.rules.secrecy.answer_viewers`). The answer names a kind it can put on
  the wheel, or none (:func:`answer_choices`), and binds its plan.
* **Leader disclosures** (G-9 step 1, GAP-79): a power offered only while the House's main leader leads
  (condition ``main-leader-leads``: ATREIDES-M2, Paul's Voice; BG-M2) is offered when he may lead this battle,
  and using it discloses that he leads: the plan must name him (``battle/leader-disclosed``). BG-M2 comes first
  (``know-leader``): once Mohiam is disclosed, the opponent commits his leader with :class:`CommitLeader`, a
  secret action shown to the BG only (``LeaderShown.to``), and must fight with him. Not modelled: an opponent
  who also has a power to know the opposing leader (both would commit at once); no House or main-leader power
  has one.
* **Plans bound** (BG-P1 L751-753, ATREIDES-P1 L1019-1025): a plan breaking a Voice (a forbidden kind on the
  wheel; a forced kind held but not played) or an answer is refused (``battle/bound-by-voice``,
  :func:`violations`), and the menus list only plans that keep them. GAP-67: a side with no leader plays no card
  (GAP-43), so a forced kind does not bind it. DISPERSION-M2: a plan led by a leader immune to the Voice
  (``leader.immune`` ``"voice"``: Dama) is not bound by any Voice, unless KARAMA-23 blocks that immunity; nor
  is one led by a secondary leader immune to it (leaders.md K-10: every command, or those naming shield or
  snooper), whoever gave it (:mod:`dunenb.battle.immunities`).
* **Immune to prescience** (K-10, GAP-96): a House that may play a leader immune to prescience may answer
  ``immune`` ("Tu ne peux voir mon attaque / ma parade"): the question is spent and binds nothing, and its plan
  must be led by such a leader; a plan led by one must have answered ``immune``. A leader whose immunity needs
  a d10 is declared (``immune:LEADER``) and rolled (:mod:`dunenb.rules.immunity_rolls`, GAP-98).
* **Secret Karamas** (KARAMA-25, KARAMA-43, KARAMA-40, KARAMA-18; GAP-80): a plan may carry a Karama card on the
  wheel ``against`` one Voice or one answer that binds it (:func:`wheel_uses`); hidden with the plan, it is shown
  at the reveal (the ``karama`` event names the use and the power) and releases its player from that binding.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from dunenb.actions import Action, Pass
from dunenb.battle import alias, facts, immunities
from dunenb.battle import sequence as seq_mod
from dunenb.battle.cards import card_kind
from dunenb.battle.leader_mind import (
    is_leader_power,
    is_once_a_turn,
    leader_power,
    mind_powers,
    prescience_slots,
    trances_of,
    voice_roll,
)
from dunenb.battle.leader_weapons import playable_cards
from dunenb.battle.plans import BattlePlan
from dunenb.battle.roster import Leader
from dunenb.errors import IllegalActionError
from dunenb.powers.holders import holder, main_leader
from dunenb.powers.karama import lift, suppressed_powers
from dunenb.powers.registry import load_powers
from dunenb.rules import immunity_rolls, leader_pre_battle
from dunenb.rules.battle_context import BattleContext, LeaderShown, context_of
from dunenb.rules.common import Handler, event, node, pending, uniform, with_events
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.rules.leader_pre_battle import binds_plans, plan_problems
from dunenb.rules.traitors import leader_of
from dunenb.state import Event, FrozenDict, GameState, evolve

if TYPE_CHECKING:
    from dunenb.rules.battle_phase import SubmitPlan

NONE = "none"
MODES = ("forbid", "force")
SLOTS = ("attack", "defence")


@dataclass(frozen=True)
class UseVoice(Action):
    """BG-P1, ATREIDES-M2: ``house`` commands its opponent to ``mode`` (forbid or force) one ``kind`` of card
    (FAQ 10: never worthless)."""

    kind: ClassVar[str] = "voice"
    house: str
    mode: str
    card_kind: str


@dataclass(frozen=True)
class AskPrescience(Action):
    """ATREIDES-P1, GUILD-M2: ``house`` asks its opponent for the kind in one ``slot`` of its wheel."""

    kind: ClassVar[str] = "prescience"
    house: str
    slot: str


@dataclass(frozen=True)
class AnswerPrescience(Action):
    """GAP-78: ``house`` answers the prescience question put to it: the kind (not the subtype, L1025) it puts in
    the slot asked, or ``none``. Secret (the asker learns it from its view of the battle)."""

    kind: ClassVar[str] = "prescience-answer"
    house: str
    answer: str


# --- which powers act here (data/powers.json, no House named) --------------------------------------------

def _main_may_lead(state: GameState, ctx: BattleContext, house: str) -> bool:
    from dunenb.rules.battle_phase import available_leaders

    return main_leader(house) in available_leaders(state, house, ctx.area, ctx.committed)


def _condition(state: GameState, ctx: BattleContext, house: str, name: str) -> bool:
    """The named conditions of a before-plans act: ``main-leader-leads`` (he may lead here, GAP-79) and
    ``defender`` (the House's own battle turn, GUILD-M2)."""
    if name == "main-leader-leads":  # and no other leader is already committed (BG-M2 comes first)
        main = main_leader(house)
        return _main_may_lead(state, ctx, house) and all(s.leader == main for s in ctx.shown if s.house == house)
    if name == "defender":
        return house == ctx.defender
    raise IllegalActionError("powers/when", f"condition {name!r} has no meaning before the plans; allowed: "
                             "main-leader-leads, defender")


def offered(state: GameState, ctx: BattleContext, action: str) -> tuple[seq_mod.Holder, ...]:
    """(House, power) for every power offering ``action`` (``voice`` or ``prescience``) to a side of this battle
    now: defender first, then attacker; within a House its House and main-leader powers in file order, then
    its secondary leaders' entries (LC-5 B2, B3: K-11, K-12)."""
    found = []
    for house in ctx.houses:
        for power, _owner, when in facts.offering(action):
            if holder(state, power) == house and all(_condition(state, ctx, house, c) for c in when):
                found.append((house, power))
        found.extend((house, power) for power in leader_offers(state, ctx, house, action))
    return tuple(found)


def discloses(power: str) -> bool:
    """GAP-79: a before-plans power offered only while the main leader leads discloses that he leads."""
    if is_leader_power(power):
        return False  # a secondary leader's entry discloses him instead (LC-5 B1, :func:`_disclose`)
    return any("main-leader-leads" in act.when for act in load_powers()[power].acts
               if act.trigger == facts.BEFORE_PLANS)


# ---- K-11 VOICE, K-12 PRESCIENCE: a secondary leader's entry as one more source (leaders.md LC-5 B2, B3) ----

def may_lead(state: GameState, ctx: BattleContext, house: str) -> tuple[str, ...]:
    """The leaders ``house`` may still choose for this battle: those who may lead here (BATTLE-15), or only the
    one it has disclosed or committed (GAP-79, LC-5 B1)."""
    leaders = _leaders(state, ctx, house)
    return alias.bound((s.leader for s in ctx.shown if s.house == house), leaders)  # leaders.md S-3, GAP-142


def leader_offers(state: GameState, ctx: BattleContext, house: str, action: str) -> tuple[str, ...]:
    """The entries of ``house``'s secondary leaders that give it ``action`` in this battle now (LC-12: only a
    leader who may lead it; D-14: own leaders only; a Karama in force blocks one, LC-11); a once-a-turn Voice
    already used this turn is not offered (K-11 ``1/turn``, ``+1/turn``; GAP-103)."""
    blocked = suppressed_powers(state)
    found = []
    for lid in may_lead(state, ctx, house):
        for entry in mind_powers(leader_of(house, lid), house, action, ctx.area, blocked=blocked):
            if is_once_a_turn(entry.id) and (entry.id, state.turn) in state.leader_power_uses:
                continue
            found.append(entry.id)
    return tuple(dict.fromkeys(found))  # leaders.md S-3: Alma's entry is also on each "Alma as X": one source


# ---- K-13 TRUTH_TRANCE: a secondary leader's trances in each of his battles (GAP-104) ----

def leader_trance_means(state: GameState, house: str) -> tuple[str, ...]:
    """The leader trance powers ``house`` may ask a truth trance with now: at its own plan decision in a
    battle (GAP-104), the entries of its leaders who may lead it (:func:`leader_offers`) that have trances
    left in this battle (K-13 ``n``; unused ones lapse with the battle)."""
    if state.pending is None or state.pending.kind != "battle-plan" or state.pending.actor != house:
        return ()
    ctx = context_of(state)
    # the first use discloses its leader (LC-5 B1): only a leader who can still give the House's answers
    # (GAP-138, GAP-127: else disclosing him would leave no legal plan)
    able = set(answering_leaders(state, ctx, house, may_lead(state, ctx, house)))
    return tuple(power for power in leader_offers(state, ctx, house, "truth-trance")
                 if ctx.trances_used.count(power) < trances_of(power)
                 and ((found := leader_power(power)) is None or any(alias.binds(found[0].id, lid) for lid in able)
                      or any(s.house == house and s.leader == found[0].id for s in ctx.shown)))


def _released(state: GameState, ctx: BattleContext, plan: SubmitPlan) -> list[str]:
    """What frees ``plan`` from the Voices and answers in force (``plan_violations``' ``karama_shown``): the
    immunities of its leader (DISPERSION-M2, K-10), the d10s rolled against a command (GAP-99) and the Karama
    hidden on its wheel against a binding (KARAMA-25/43/40/18, GAP-80; LC-11 b)."""
    assert ctx.sequence is not None
    leader = None if plan.leader == NONE else leader_of(plan.house, plan.leader)
    released = list(immunities.released(leader, house=plan.house, blocked=suppressed_powers(state)))
    released += immunity_rolls.released_voices(ctx, plan.house)  # a d10 rolled against a command (GAP-99)
    against = getattr(plan, "against", NONE)
    if against != NONE:  # KARAMA-25/43/40/18: shown at the reveal, GAP-80; LC-11 b: a leader's Voice
        released.extend(facts.released_by(against, ctx.sequence, plan.house))
    return released


def voice_forced(state: GameState, ctx: BattleContext, plan: SubmitPlan) -> frozenset[str]:
    """houses.md BG-P1: the kinds a Voice command in force in the battle ``ctx`` makes ``plan``'s House play
    (Atomics played so make no outlaw, CARD-ATOMICS-4; read by the resolver from ``BattleSide.voice_forced``)."""
    if ctx.sequence is None:
        return frozenset()
    return seq_mod.forced_kinds(ctx.sequence, plan.house, karama_shown=_released(state, ctx, plan))


def answering_leaders(state: GameState, ctx: BattleContext, house: str,
                      leaders: tuple[str, ...]) -> tuple[str, ...]:
    """The ``leaders`` whose wheel could give every kind ``house`` answered in this battle so far, slot by slot
    (:func:`dunenb.battle.leader_weapons.slot_answers`: their slots, built-ins and restrictions; GAP-127,
    GAP-138); all of them when none can (a plan's own check then refuses what breaks an answer)."""
    from dunenb.battle.leader_weapons import slot_answers
    from dunenb.rules import leader_rolls
    from dunenb.rules.battle_phase import own_weapons

    if ctx.sequence is None:
        return leaders
    given = [a.kind for _q, a in ctx.sequence.answered(house)]
    answered = [(q.slot, a.kind) for q, a in ctx.sequence.answered(house)
                if a.kind in seq_mod.answers_of_slot(q.slot)]
    if not given:
        return leaders
    blocked = suppressed_powers(state)
    if immunities.IMMUNE not in given:  # an answer other than 'immune' rules out a leader sure to be immune (GAP-96)
        leaders = tuple(lid for lid in leaders
                        if not immunities.sure_prescience(leader_of(house, lid), house=house, blocked=blocked)
                        ) or leaders
    hand, weapons, rolls = state.houses[house].hand, own_weapons(state, house), leader_rolls.side_rolls(ctx, house)
    able = tuple(lid for lid in leaders if all(
        kind in slot_answers(leader_of(house, lid), house, hand, slot, blocked=blocked, house_weapons=weapons,
                             b1_rolls=rolls) for slot, kind in answered))
    return able or leaders


def use_leader_trance(state: GameState, house: str, power: str) -> GameState:
    """Spend one trance of ``power`` in this battle; the first use discloses its leader (LC-5 B1, GAP-103)."""
    ctx = context_of(state)
    ctx = evolve(ctx, trances_used=ctx.trances_used + (power,))
    state, ctx = _disclose(state, ctx, house, power)
    here = node(state)
    return evolve(state, pending=pending(here.kind, here.actor, **{**here.detail, "battle": ctx}))


# --- the start of a battle -------------------------------------------------------------------------------

def _open_uses(state: GameState, ctx: BattleContext) -> tuple[str, ...]:
    """The implemented Karama uses played openly in a battle against a power a side holds now (F7)."""
    return tuple(use for use in facts.open_uses() if holder(state, facts.power_of_use(use)) in ctx.houses)


def begin(state: GameState, ctx: BattleContext) -> GameState:
    """Start the G-9 steps of a new battle: the open Karama window (F7), then the Voices, prescience, plans."""
    uses = _open_uses(state, ctx)
    if uses:
        return open_window(state, uses, "battle-start", battle=ctx)
    return _after_window(state, FrozenDict({"battle": ctx}))


def _after_window(state: GameState, data: FrozenDict) -> GameState:
    ctx: BattleContext = data["battle"]
    return _next_disclosure(state, evolve(ctx, disclosures=offered(state, ctx, "know-leader")))


def _next_disclosure(state: GameState, ctx: BattleContext) -> GameState:
    """G-9 step 1: each power that makes the opponent commit his leader first (BG-M2) is offered in turn."""
    if ctx.disclosures:
        return evolve(state, pending=pending("battle-disclose", ctx.disclosures[0][0], battle=ctx))
    return leader_pre_battle.begin(state, ctx)  # leaders.md K-16 at LC-5 B1, then _start_sequence


def _start_sequence(state: GameState, ctx: BattleContext) -> GameState:
    from dunenb.rules import leader_rolls

    # leaders.md LC-5 B1, D-31: the availability rolls of the leaders' powers (H10-c) come before the Voices
    return leader_rolls.before_voices(state, ctx, after_b1_rolls)


def after_b1_rolls(state: GameState, ctx: BattleContext) -> GameState:
    """G-9 after B1: the Voices, prescience, then the plans."""
    seq = seq_mod.start_sequence(ctx.houses, voices=offered(state, ctx, "voice"),
                                 presciences=offered(state, ctx, "prescience"))
    seq = seq_mod.advance(seq, seq_mod.Pass())  # F7 is the Karama window above
    return _next(state, evolve(ctx, sequence=seq, order=ctx.houses))


register_resume("battle-start", _after_window)


def end_of_battle(state: GameState) -> GameState:
    """Lift the Karama uses that lasted this battle (KARAMA-21, -22, -23, -42: ``lasts`` ``battle``)."""
    return lift(state, "battle")


def _next(state: GameState, ctx: BattleContext) -> GameState:
    seq = ctx.sequence
    assert seq is not None
    while seq.step in ("voice", "prescience") and seq.actor is not None and is_leader_power(seq.actor[1]) \
            and seq.actor[1] not in leader_offers(state, ctx, seq.actor[0], seq.step):
        seq = seq_mod.advance(seq, seq_mod.Pass())  # GAP-103: another leader of that House was disclosed since
    ctx = evolve(ctx, sequence=seq)
    kinds = {"voice": "battle-voice", "prescience": "battle-prescience", "prescience-answer": "battle-answer"}
    if seq.step in kinds and seq.actor is not None:
        return evolve(state, pending=pending(kinds[seq.step], seq.actor[0], battle=ctx))
    ctx = evolve(ctx, order=ctx.houses)  # GAP-78: the defender plans first (BATTLE-14)
    return leader_pre_battle.begin(state, ctx, step="B3")  # leaders.md K-16 estimate at LC-5 B3, then the plans


def next_step(state: GameState, ctx: BattleContext) -> GameState:
    """The next pre-battle node once ``ctx``'s sequence has moved on (for :mod:`dunenb.rules.immunity_rolls`)."""
    return _next(state, ctx)


def _power_now(state: GameState) -> str:
    seq = context_of(state).sequence
    assert seq is not None and seq.actor is not None
    return seq.actor[1]


# --- leader disclosures (G-9 step 1: BG-M2) --------------------------------------------------------------

@dataclass(frozen=True)
class KnowLeader(Action):
    """BG-M2: ``house`` uses its main leader's power to know the opposing leader: it discloses that he leads
    (GAP-79), and the opponent commits his leader first, shown to ``house`` only."""

    kind: ClassVar[str] = "know-leader"
    house: str


@dataclass(frozen=True)
class CommitLeader(Action):
    """BG-M2: ``house`` commits the leader it will fight with and shows him privately to its opponent (secret:
    seen by both, revealed with the plan)."""

    kind: ClassVar[str] = "commit-leader"
    house: str
    leader: str


def _disclose_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [Pass(house), KnowLeader(house)]


def _apply_disclose(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    house, power = ctx.disclosures[0]
    ctx = evolve(ctx, disclosures=ctx.disclosures[1:])
    if not isinstance(action, KnowLeader):
        return _next_disclosure(state, ctx)
    state, ctx = _disclose(state, ctx, house, power)
    opponent = ctx.opponent(house)
    if not _leaders(state, ctx, opponent):
        return _next_disclosure(state, ctx)  # GAP-43: no leader to commit
    return evolve(state, pending=pending("battle-commit-leader", opponent, battle=ctx, power=power))


def _leaders(state: GameState, ctx: BattleContext, house: str) -> tuple[str, ...]:
    import dunenb.rules.battle_phase as battle_phase  # issue 14 item 3: a cheap import (dunenb.rules)

    return battle_phase.available_leaders(state, house, ctx.area, ctx.committed)


def _commit_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [CommitLeader(house, lid) for lid in _leaders(state, context_of(state), house)]


def _check_commit(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, CommitLeader):
        allowed = _leaders(state, context_of(state), action.house)
        if action.leader not in allowed:
            return IllegalActionError("battle/commit-leader", f"leader {action.leader!r} cannot lead here; "
                                      f"allowed: {', '.join(allowed)} (BG-M2, BATTLE-15)")
    return None


def _apply_commit(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    assert isinstance(action, CommitLeader)
    power: str = node(state).detail["power"]
    opponent = ctx.opponent(action.house)
    ctx = evolve(ctx, shown=ctx.shown + (LeaderShown(action.house, action.leader, power, (opponent,)),))
    state = with_events(state, event("leader-committed", f"{action.house} commits its leader and shows him to "
                                     f"{opponent} ({power}); it may not change him", house=action.house,
                                     to=opponent, power=power, powers=(power,)))
    return _next_disclosure(state, ctx)


# --- the Voice -------------------------------------------------------------------------------------------

def voice_kinds(state: GameState, house: str, mode: str = "forbid") -> tuple[str, ...]:
    """The kinds ``house``'s Voice may name now with ``mode`` (BG-P1, FAQ 10): not one that an earlier command
    of this battle already named for the same opponent (leaders.md K-11: two commands in one battle may not name
    the same kind), and a force never for a slot an earlier command already forces (GAP-105)."""
    ctx = context_of(state)
    assert ctx.sequence is not None
    source = ctx.sequence.actor[1] if ctx.sequence.actor is not None else None
    extra = seq_mod.SCOPE_KINDS if voice_scope(state, ctx, house, source) else ()  # leaders.md K-11 scope+, D-25
    return facts.voice_kinds_left(ctx.sequence.voices_on(ctx.opponent(house)), mode, extra)


def voice_scope(state: GameState, ctx: BattleContext, house: str, source: str | None = None) -> str | None:
    """leaders.md K-11 ``scope+`` (BG-L02-b Darwi, D-25): the entry that lets ``house``'s Voice also name the
    worthless or Karama kind in this battle: one of its own leaders who may still lead it (LC-12, D-14; a Karama
    in force blocks it, LC-11). GAP-132: it widens every command of her House in her battle, and naming such a
    kind uses it, so it discloses her as the leader (LC-5 B1) as a leader's Voice does; a command whose
    ``source`` is another leader's Voice (Alma's, which discloses Alma) is not widened."""
    scope = next(iter(leader_offers(state, ctx, house, "voice-scope")), None)
    used = leader_power(source) if source is not None else None
    found = leader_power(scope) if scope is not None else None
    if used is not None and found is not None and used[0].id != found[0].id:
        return None
    return scope


def _voice_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [Pass(house), *(UseVoice(house, mode, kind) for mode in MODES for kind in voice_kinds(state, house, mode))]


def _check_voice(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, UseVoice) and (action.mode not in MODES
                                         or action.card_kind not in voice_kinds(state, action.house, action.mode)):
        allowed = voice_kinds(state, action.house, action.mode if action.mode in MODES else "forbid")
        return IllegalActionError("battle/voice", f"voice {action.mode} {action.card_kind}: allowed modes "
                                  f"{', '.join(MODES)}, kinds {', '.join(allowed)} (BG-P1, FAQ 10; K-11: two "
                                  "commands in one battle never name the same kind; GAP-105: nor force one slot "
                                  "twice)")
    return None


def _disclose(state: GameState, ctx: BattleContext, house: str, power: str) -> tuple[GameState, BattleContext]:
    """GAP-79: using ``power`` discloses that ``house``'s main leader leads this battle (public); LC-5 B1: using
    a secondary leader's entry discloses that leader (once) and, for a once-a-turn Voice, spends this turn's use."""
    found = leader_power(power)
    if found is not None:
        leader = found[0].id
        if is_once_a_turn(power):
            state = evolve(state, leader_power_uses=state.leader_power_uses + ((power, state.turn),))
        if any(s.house == house and s.leader == leader for s in ctx.shown):
            return state, ctx
        ctx = evolve(ctx, shown=ctx.shown + (LeaderShown(house, leader, power),))
        return with_events(state, event("leader-disclosed", f"{house} discloses that {found[0].name} leads this "
                                        f"battle ({power} acts in a battle he leads; leaders.md LC-5 B1)",
                                        house=house, leader=leader, power=power, powers=(power,))), ctx
    if not discloses(power):
        return state, ctx
    leader = main_leader(house)
    ctx = evolve(ctx, shown=ctx.shown + (LeaderShown(house, leader, power),))
    return with_events(state, event("leader-disclosed", f"{house} discloses that {leader} leads this battle "
                                    f"({power} acts in a battle he leads; houses.md G-9 step 1, GAP-79)",
                                    house=house, leader=leader, power=power, powers=(power,))), ctx


def disclose_power(state: GameState, ctx: BattleContext, house: str,
                   power: str) -> tuple[GameState, BattleContext]:
    """LC-5 B1: ``house`` uses ``power`` before the reveal, which discloses its leader (:func:`_disclose`); for
    the rules modules that let a leader's power be used outside these steps (GAP-143: a Karama window)."""
    return _disclose(state, ctx, house, power)


def _apply_voice(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    sequence = ctx.sequence
    assert sequence is not None
    power = _power_now(state)
    if isinstance(action, UseVoice):
        target = ctx.opponent(action.house)
        command = seq_mod.VoiceCommand(action.house, target, action.mode, action.card_kind, power)
        state, ctx = _disclose(state, ctx, action.house, power)
        scope = voice_scope(state, ctx, action.house, power) if action.card_kind in seq_mod.SCOPE_KINDS else None
        if scope is not None:  # leaders.md D-25: a widened command discloses Darwi (GAP-132)
            command = evolve(command, scope=scope)
            state, ctx = _disclose(state, ctx, action.house, scope)
        from dunenb.rules.leader_karama_before import ask_before_use

        # leaders.md LC-11 a (GAP-151): a Karama against the leader whose Voice this is, once it is stated
        return ask_before_use(state, ctx, action.house, power, VOICE_STATED, command=command)
    return _next(state, evolve(ctx, sequence=seq_mod.advance(sequence, seq_mod.Pass())))


VOICE_STATED = "battle-voice-stated"


def _voice_stated(state: GameState, data: FrozenDict) -> GameState:
    """A Voice command stated (after the LC-11 a window against its leader): cancelled if a Karama voids it
    (no command; the once-a-turn use stays spent), else rolled (K-11 d10) or given."""
    from dunenb.rules.leader_karama_before import cancelled

    ctx: BattleContext = data["battle"]
    command: seq_mod.VoiceCommand = data["command"]
    assert ctx.sequence is not None
    state, void = cancelled(state, command.by, command.power, "Voice")
    if void:
        return _next(state, evolve(ctx, sequence=seq_mod.advance(ctx.sequence, seq_mod.Pass())))
    if voice_roll(command.power) is not None:  # K-11 d10≤N (D-31): rolled openly at B2, after it is stated
        return evolve(state, pending=pending(VOICE_ROLL, "chance", battle=ctx, command=command))
    return _given(state, ctx, command)


register_resume(VOICE_STATED, _voice_stated)


def _given(state: GameState, ctx: BattleContext, command: seq_mod.VoiceCommand) -> GameState:
    """A Voice command given (at once, or on its K-11 d10): it binds; then the voiced House may declare a leader
    immune to it on a d10 (K-10, GAP-99) before the pre-battle steps go on."""
    assert ctx.sequence is not None
    ctx = evolve(ctx, sequence=seq_mod.advance(ctx.sequence, command))
    return immunity_rolls.after_voice(with_events(state, _voice_event(command)), ctx, command)


def _voice_event(command: seq_mod.VoiceCommand) -> Event:
    return event("voice", f"{command.by} uses the Voice: {command.target} must "
                 f"{'not play' if command.mode == 'forbid' else 'play'} a {command.kind} card ({command.power})",
                 house=command.by, target=command.target, mode=command.mode, card_kind=command.kind,
                 power=command.power, powers=(command.power,) + ((command.scope,) if command.scope else ()))


# ---- K-11 VOICE d10≤N: the open roll (leaders.md LC-1, D-31; GAP-101) ----------------------------------

VOICE_ROLL = "battle-voice-roll"


@dataclass(frozen=True)
class VoiceRoll(Action):
    """K-11 ``d10≤N``: the d10 ``house`` rolls openly for the Voice command it just stated (1..N: given)."""

    kind: ClassVar[str] = "voice-roll"
    is_chance: ClassVar[bool] = True
    house: str
    value: int


def _voice_roll_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    command: seq_mod.VoiceCommand = node(state).detail["command"]
    return uniform([VoiceRoll(command.by, value) for value in range(1, 11)])


def _apply_voice_roll(state: GameState, action: VoiceRoll) -> GameState:
    """GAP-101: on 1..N the stated command is given (it binds and counts for K-2, D-24); on a failure it is
    not given at all: nothing binds, nothing counts, and the leader stays disclosed."""
    ctx = context_of(state)
    command: seq_mod.VoiceCommand = node(state).detail["command"]
    assert ctx.sequence is not None
    limit = voice_roll(command.power) or 0
    given = action.value <= limit
    state = with_events(state, event("voice-roll", f"{action.house} rolls {action.value} on the d10 for the Voice "
                                     f"({command.power}: given on 1 to {limit}): "
                                     f"{'the command is given' if given else 'no command'}",
                                     house=action.house, value=action.value, given=given, power=command.power,
                                     powers=(command.power,)))
    if given:
        return _given(state, ctx, command)
    return _next(state, evolve(ctx, sequence=seq_mod.advance(ctx.sequence, seq_mod.Pass())))


# --- prescience ------------------------------------------------------------------------------------------

def question_slots(state: GameState, house: str) -> tuple[str, ...]:
    """The slots ``house`` may ask about with the prescience power acting now: both (ATREIDES-P1, GUILD-M2) or
    a leader entry's scope (K-12 ``attack`` / ``defence`` / ``either``), but never a slot ``house`` already
    asked about in this battle (K-12: the same question may not be asked twice; GAP-102)."""
    ctx = context_of(state)
    assert ctx.sequence is not None
    power = _power_now(state)
    scope = prescience_slots(power) if is_leader_power(power) else SLOTS
    asked = {q.slot for q in ctx.sequence.questions if q.by == house}
    return tuple(slot for slot in scope if slot not in asked)


def _prescience_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [Pass(house), *(AskPrescience(house, slot) for slot in question_slots(state, house))]


def _check_prescience(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, AskPrescience) and action.slot not in question_slots(state, action.house):
        return IllegalActionError("battle/prescience", f"prescience slot {action.slot!r}; allowed: "
                                  f"{', '.join(question_slots(state, action.house)) or 'none'} (ATREIDES-P1; "
                                  "K-12: the leader's scope, and the same question is never asked twice)")
    return None


def _apply_prescience(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    sequence = ctx.sequence
    assert sequence is not None
    power = _power_now(state)
    if isinstance(action, AskPrescience):
        state, ctx = _disclose(state, ctx, action.house, power)
        from dunenb.rules.leader_karama_before import ask_before_use

        # leaders.md LC-11 a (GAP-151): a Karama against the leader whose prescience this is, once it is asked
        return ask_before_use(state, ctx, action.house, power, QUESTION_STATED, asker=action.house,
                              slot=action.slot, asked=power)
    return _next(state, evolve(ctx, sequence=seq_mod.advance(sequence, seq_mod.Pass())))


QUESTION_STATED = "battle-question-stated"


def _question_stated(state: GameState, data: FrozenDict) -> GameState:
    """A prescience question asked (after the LC-11 a window against its leader): no question if a Karama voids
    it, else it is put to the opponent and binds his answer."""
    from dunenb.rules.leader_karama_before import cancelled

    ctx: BattleContext = data["battle"]
    house, slot, power = data["asker"], data["slot"], data["asked"]
    assert ctx.sequence is not None
    state, void = cancelled(state, house, power, "prescience question")
    if void:
        return _next(state, evolve(ctx, sequence=seq_mod.advance(ctx.sequence, seq_mod.Pass())))
    target = ctx.opponent(house)
    seq = seq_mod.advance(ctx.sequence, seq_mod.PrescienceQuestion(house, target, slot, power))
    state = with_events(state, event("prescience", f"{house} asks {target}: \"your {slot}?\" ({power}); the "
                                     "answer is binding", house=house, target=target, slot=slot, power=power,
                                     powers=(power,)))
    return _next(state, evolve(ctx, sequence=seq))


register_resume(QUESTION_STATED, _question_stated)


# --- answers (GAP-78) ------------------------------------------------------------------------------------

def _question_now(ctx: BattleContext) -> seq_mod.PrescienceQuestion:
    seq = ctx.sequence
    assert seq is not None
    return seq.questions[len(seq.answers)]


def answer_choices(state: GameState, house: str) -> tuple[str, ...]:
    """GAP-78: what ``house`` may answer to the question put to it now: ``none`` or a kind of the slot asked that
    it holds, kept within the Voices on it (a forced kind held must be answered; a forbidden one may not),
    unless a leader immune to that Voice may lead for it (DISPERSION-M2, K-10); a side with no leader answers
    none. ``immune`` when a leader immune to prescience may lead for it, alone when every one is (K-10,
    GAP-96)."""

    ctx = context_of(state)
    question = _question_now(ctx)
    leaders = may_lead(state, ctx, house)
    if not leaders:
        return (NONE,)
    assert ctx.sequence is not None
    given = [answer.kind for _question, answer in ctx.sequence.answered(house)]
    if immunities.IMMUNE in given:  # GAP-96 with several questions (K-12): once immune, every answer is
        return (immunities.IMMUNE,)
    blocked = suppressed_powers(state)
    # with several questions (K-12), only the leaders who can give the answers already given (GAP-138)
    leaders = answering_leaders(state, ctx, house, leaders)
    candidates = [leader_of(house, lid) for lid in leaders]
    # the answers a wheel of a leader who may lead could truthfully give (K-6..K-8 slots, K-21 restrictions;
    # GAP-127): an answer naming a card no such leader may play would leave no legal plan. GAP-138: the extra
    # slots (K-6) and the built-ins (G-4, K-7) count, two kinds joined ("poison+projectile", ATREIDES-P1)
    from dunenb.battle.leader_weapons import slot_answers
    from dunenb.rules import leader_rolls
    from dunenb.rules.battle_phase import own_weapons

    rolls = leader_rolls.side_rolls(ctx, house)
    # K-10 prescience (GAP-96): the side of an immune leader answers "immune", and only his
    immune = [immunities.sure_prescience(leader, house=house, blocked=blocked) for leader in candidates]
    if all(immune):
        return (immunities.IMMUNE,)
    # so a kind is open only if a leader who is not sure to be immune could show it (GAP-96, GAP-138: Hasimir's
    # second attack slot gave 'poison+projectile' to a side whose earlier 'none' had ruled him out: no legal plan)
    held = {answer for leader, sure in zip(candidates, immune, strict=True) if not sure
            for answer in slot_answers(leader, house, state.houses[house].hand, question.slot, blocked=blocked,
                                       house_weapons=own_weapons(state, house), b1_rolls=rolls)}
    kinds = [k for k in seq_mod.answers_of_slot(question.slot) if k in held]
    # an answer already given as a kind showed a plan with no immune leader: "immune" is no longer open (GAP-96)
    declare: tuple[str, ...] = (immunities.IMMUNE,) if any(immune) and not given else ()
    rolled = {lid: p for lid, leader in zip(leaders, candidates, strict=True)
              if (p := immunities.prescience_protection(leader, house=house, blocked=blocked)) is not None}
    failed = state.pending.detail.get("failed", ()) if state.pending is not None else ()
    declare += immunity_rolls.declarations(rolled, failed)  # K-10 with a d10: declared, then rolled (GAP-98)
    assert ctx.sequence is not None
    for voice in ctx.sequence.voices_on(house):  # unless a leader it may play is immune to it (DISPERSION-M2, K-10)
        if any(_free_of(voice, leader, house, blocked, ctx) for leader in candidates):
            continue
        if voice.mode == "forbid":
            kinds = [k for k in kinds if voice.kind not in seq_mod.answer_kinds(k)]
        elif any(voice.kind in seq_mod.answer_kinds(k) for k in kinds):  # a forced kind held must be answered
            return (*[k for k in kinds if voice.kind in seq_mod.answer_kinds(k)], *declare)
    return (NONE, *kinds, *declare)


def _free_of(voice: seq_mod.VoiceCommand, leader: Leader | None, house: str, blocked: frozenset[str],
             ctx: BattleContext) -> bool:
    """Whether ``voice`` does not bind a plan of ``house`` led by ``leader`` (K-10, DISPERSION-M2; a d10 rolled
    against it, GAP-99: that leader is then the only one who may lead)."""
    assert ctx.sequence is not None
    words = immunities.released(leader, house=house, blocked=blocked) + immunity_rolls.released_voices(ctx, house)
    return ("voice" in words or f"voice:{voice.kind}" in words
            or f"voice#{ctx.sequence.voices.index(voice)}" in words)


def _answer_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    return [AnswerPrescience(house, kind) for kind in answer_choices(state, house)]


def _check_answer(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, AnswerPrescience) and action.answer not in answer_choices(state, action.house):
        return IllegalActionError("battle/prescience-answer", f"answer {action.answer!r}: the kind {action.house} "
                                  f"puts in the slot asked; allowed: {', '.join(answer_choices(state, action.house))}"
                                  " (ATREIDES-P1: truthful and binding, GAP-78)")
    return None


def _apply_answer(state: GameState, action: Action) -> GameState:
    ctx = context_of(state)
    assert ctx.sequence is not None and isinstance(action, AnswerPrescience)
    question = _question_now(ctx)
    if action.answer.startswith(immunity_rolls.DECLARE):  # K-10 with a d10 (GAP-98)
        lid = action.answer.removeprefix(immunity_rolls.DECLARE)
        protection = immunities.prescience_protection(leader_of(action.house, lid), house=action.house,
                                                      blocked=suppressed_powers(state))
        assert protection is not None
        return immunity_rolls.declare(state, ctx, action.house, lid, protection)
    kind = None if action.answer == NONE else action.answer
    seq = seq_mod.advance(ctx.sequence, seq_mod.PrescienceAnswer(action.house, kind))
    state = with_events(state, event("prescience-answered", f"{action.house} answers {question.by}'s prescience "
                                     f"(only they see the answer, {question.power})", house=action.house,
                                     asker=question.by, secret=True, power=question.power,
                                     powers=(question.power,)))
    return _next(state, evolve(ctx, sequence=seq))


def answer_of(plan: SubmitPlan, slot: str) -> str | None:
    """The kind in ``slot`` of ``plan`` (kinds, not subtypes, L1025); None for "none" (an empty slot or a
    worthless card: design note of :func:`dunenb.battle.sequence.plan_violations`)."""
    card = plan.weapon if slot == "attack" else plan.defense
    return None if card in (NONE, "worthless") else card_kind(card)


# --- secret Karamas on the wheel (GAP-80) ----------------------------------------------------------------

def wheel_uses(state: GameState, house: str) -> tuple[str, ...]:
    """The Karama uses ``house`` may hide on its wheel now (moment ``battle-reveal``, implemented): against each
    Voice that binds it (KARAMA-25 for BG-P1, KARAMA-43 for ATREIDES-M2) and each question it answered
    (KARAMA-40 for ATREIDES-P1, KARAMA-18 for GUILD-M2); against the opposing secondary leader (LC-11 b, GAP-122)
    and against a built-in weapon the opponent holds now (KARAMA-20 against karate, GAP-123)."""
    from dunenb.battle.powers import slot_weapon_powers

    ctx = context_of(state)
    opponent = ctx.opponent(house)
    weapons = [power for power, _owner, _weapon in slot_weapon_powers() if holder(state, power) == opponent]
    return facts.wheel_uses(ctx.sequence, house, opponent=opponent, opponent_weapons=weapons)


# --- plans bound by the Voice, the answers and the disclosures ------------------------------------------

def violations(state: GameState, plan: SubmitPlan) -> tuple[str, ...]:
    """What in ``plan`` breaks a Voice, an answer or a disclosed leader in force (empty if nothing)."""
    return plan_judge(state, plan.house)(plan)


def _bound_by_nothing(plan: SubmitPlan) -> tuple[str, ...]:
    return ()


def plan_judge(state: GameState, house: str) -> Callable[[SubmitPlan], tuple[str, ...]]:
    """:func:`violations` for the plans of ``house`` in this state: what depends on the leader alone (a disclosure,
    his immunities, the cards he may play) is read once per leader (issue 14 item 4: a plan menu judges dozens of
    plans, a few leaders each)."""
    ctx = context_of(state)
    seq = ctx.sequence
    if seq is None or not may_be_bound(ctx, house):
        return _bound_by_nothing
    from dunenb.battle.powers import carried_weapons

    blocked = suppressed_powers(state)
    answers = [answer.kind for _question, answer in seq.answered(house)]
    by_leader: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}

    def of_leader(key: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        """(problems, releases, cards that may be forced, weapons carried) of a plan led by ``key``."""
        problems = tuple(f"{shown.leader} was disclosed as its leader ({shown.power}, GAP-79)" for shown in ctx.shown
                         if shown.house == house and not alias.binds(shown.leader, key))  # S-3, GAP-142
        hand = () if key == NONE else state.houses[house].hand  # GAP-67: no leader, no card to force
        # DISPERSION-M2 (leader.immune "voice", Dama) and K-10: no Voice binds a plan led by a leader immune to it
        leader = None if key == NONE else leader_of(house, key)
        released = tuple(immunities.released(leader, house=house, blocked=blocked))
        released += tuple(immunity_rolls.released_voices(ctx, house))  # a d10 rolled against a command (GAP-99)
        protection = immunities.prescience_protection(leader, house=house, blocked=blocked)
        rolled = protection is not None and any(  # a d10 immunity counts once declared and rolled (GAP-98)
            shown.house == house and shown.leader == key and shown.power == protection.power
            for shown in ctx.shown)
        problems += immunities.prescience_problems(answers, leader, house=house, blocked=blocked,
                                                   allow_d10=rolled)  # K-10, GAP-96
        scoped = tuple(card for card in hand if card in seq_mod.SCOPE_KINDS)  # D-25: a worthless card, a Karama
        # GAP-127: only cards he may play can be forced
        forced = tuple(playable_cards(leader, house, hand, blocked=blocked)) + scoped
        carried = tuple(carried_weapons(house, leader, blocked))  # houses.md G-4: Waff's pistol (TLEILAX-M1)
        return problems, released, forced, carried

    # issue 14 item 4: the Voice and the answers read a plan's cards, the hand that may be forced, what is
    # released and the built-ins carried (seq_mod.plan_violations is a function of these, for this sequence and
    # House): leaders equal in these facts and plans of many dials share one verdict of the sequence
    bindings: dict[tuple, tuple[str, ...]] = {}
    releases: dict[str, tuple[str, ...]] = {}

    def judge(plan: SubmitPlan) -> tuple[str, ...]:

        assert seq is not None
        known = by_leader.get(plan.leader)
        if known is None:
            known = by_leader[plan.leader] = of_leader(plan.leader)
        problems, released, hand, carried = known
        against = getattr(plan, "against", NONE)
        if against != NONE:  # KARAMA-25/43/40/18: shown at the reveal, GAP-80; LC-11 b: a leader's Voice
            more = releases.get(against)
            if more is None:
                more = releases[against] = tuple(facts.released_by(against, seq, house))
            released += more
        problems += plan_problems(ctx, plan)
        key = (plan.weapon, plan.defense, plan.extra_attack, plan.extra_defense, plan.karama, hand, released,
               carried)
        found = bindings.get(key)
        if found is None:
            wheel = BattlePlan(weapon=None if plan.weapon == NONE else plan.weapon,
                               defense=None if plan.defense == NONE else plan.defense,
                               # leaders.md K-6: the Voice binds the cards of the extra slots too (built-ins never:
                               # G-4)
                               extra_attack=None if plan.extra_attack == NONE else plan.extra_attack,
                               extra_defense=None if plan.extra_defense == NONE else plan.extra_defense,
                               karama=None if plan.karama == NONE else plan.karama)  # D-25: a Karama kind (scope+)
            found = bindings[key] = seq_mod.plan_violations(seq, house, wheel, hand=hand, karama_shown=released,
                                                            carried=carried)
        return problems + found

    return judge


def may_be_bound(ctx: BattleContext, house: str) -> bool:
    """Whether anything in force can bind a plan of ``house`` in this battle: a leader disclosed for it (GAP-79), a
    Voice on it (BG-P1, ATREIDES-M2), a question it answered (ATREIDES-P1, GUILD-M2) or a K-16 binding (``lock_spice``,
    ``estimate``). Without any, :func:`violations` finds nothing in any plan (issue 14 item 4: the plan menu judges
    dozens of plans a battle; each would read the leader's immunities for nothing)."""

    seq = ctx.sequence
    return seq is not None and (any(shown.house == house for shown in ctx.shown) or bool(seq.voices_on(house))
                                or bool(seq.answered(house)) or binds_plans(ctx, house))


def karama_forced(state: GameState, house: str) -> bool:
    """leaders.md D-25 (K-11 scope+): a command forces ``house`` to put a Karama on its wheel, "where it blocks a
    power of his choice or none": a Karama there is then legal even with nothing to block (KARAMA-3, GAP-55b)."""
    ctx = context_of(state)
    return ctx.sequence is not None and any(v.mode == "force" and v.kind == "karama"
                                            for v in ctx.sequence.voices_on(house))


def binding_error(state: GameState, plan: SubmitPlan) -> IllegalActionError | None:
    """The error for a plan that breaks a Voice (BG-P1, ATREIDES-M2), an answer (ATREIDES-P1, GUILD-M2) or a
    disclosed leader (GAP-79), or None."""
    problems = violations(state, plan)
    if not problems:
        return None
    if any("K-16 lock_spice" in p for p in problems):
        return IllegalActionError("battle/spice-locked", f"{plan.house}'s plan breaks: {'; '.join(problems)}; "
                                  "dial the spice announced")
    if any("disclosed" in p for p in problems):
        return IllegalActionError("battle/leader-disclosed", f"{plan.house}'s plan breaks: {'; '.join(problems)}; "
                                  "name that leader")
    return IllegalActionError("battle/bound-by-voice", f"{plan.house}'s plan breaks: {'; '.join(problems)} "
                              "(BG-P1, ATREIDES-P1: the Voice and the prescience answer bind the plan); "
                              "change the weapon or defence, or hide a Karama against it on the wheel")


HANDLERS = {
    "battle-voice": Handler(apply=_apply_voice, decisions=_voice_decisions, check=_check_voice,
                            accepts=(UseVoice,), always=(Pass,)),
    VOICE_ROLL: Handler(apply=_apply_voice_roll, outcomes=_voice_roll_outcomes),
    "battle-prescience": Handler(apply=_apply_prescience, decisions=_prescience_decisions,
                                 check=_check_prescience, accepts=(AskPrescience,), always=(Pass,)),
    "battle-disclose": Handler(apply=_apply_disclose, decisions=_disclose_decisions, accepts=(KnowLeader,)),
    "battle-commit-leader": Handler(apply=_apply_commit, decisions=_commit_decisions, check=_check_commit,
                                    accepts=(CommitLeader,)),
    "battle-answer": Handler(apply=_apply_answer, decisions=_answer_decisions, check=_check_answer,
                             accepts=(AnswerPrescience,)),
    **immunity_rolls.HANDLERS,  # K-10 with a d10 (GAP-98)
}
