"""The battle-phase steps before the reveal, as a small pure step machine (seed 003 FAQ 2, digest section 19).

Seed 003 orders them (F7-F21): 1) Karama against abilities; 2) Voice; 3) Karama against the Voice;
4) Prescience; 5) Karama against Prescience; 6) the answer; 7) the Atreides' Karama to see the whole plan;
8) reveal and resolve. The variant differs (digest section 19):

* FAQ 2.3 and 2.5 **conflict**: in the variant a Karama against the Voice (KARAMA-25) or the prescience
  (KARAMA-40) is hidden on the wheel and **shown at the reveal**, so steps 3 and 5 take no public action here;
  the Karama is declared in :class:`Reveal` and releases its player from that binding.
* FAQ 2.7 / 13 / 14 are **not covered** by the variant (its Karama grants nothing new): step 7 is left out.
* FAQ 4: plans may change until the reveal; only the final plan is checked. The Voice and the prescience
  answer bind it (L751-753, L1021-1023); a truth-trance answer does not (L1409, GAP-44), so it is no step.
* FAQ 10: the Voice cannot name worthless cards; FAQ 12: who cannot obey need not say so before the reveal.

>>> seq = start_sequence(("atreides", "bene-gesserit"), voice_holder="bene-gesserit", prescience_holder="atreides")
>>> seq.step
'karama-abilities'
>>> seq = advance(seq, Pass())
>>> seq = advance(seq, VoiceCommand("bene-gesserit", "atreides", "forbid", "poison"))
>>> seq.step                                   # the Karama-against-Voice step is shown at the reveal instead
'prescience'
>>> seq = advance(seq, PrescienceQuestion("atreides", "bene-gesserit", "defence"))
>>> seq = advance(seq, PrescienceAnswer("bene-gesserit", "shield"))
>>> seq.step
'reveal'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from dunenb.battle.cards import card_kind
from dunenb.battle.plans import BattlePlan
from dunenb.errors import IllegalActionError
from dunenb.records import evolve

#: Steps in seed 003's order (F7-F21); the Atreides' see-the-plan Karama (F19) is not in the variant.
STEPS: tuple[str, ...] = (
    "karama-abilities", "voice", "karama-voice", "prescience", "karama-prescience", "prescience-answer",
    "reveal", "done",
)
#: Steps of seed 003 that take no public action in the variant (FAQ 2.3 and 2.5: shown at the reveal).
SHOWN_AT_REVEAL: tuple[str, ...] = ("karama-voice", "karama-prescience")
#: Kinds the Voice may name (BG-P1; FAQ 9: the lasgun too; FAQ 10: never worthless).
VOICE_KINDS: tuple[str, ...] = ("poison", "projectile", "lasgun", "atomics", "snooper", "shield")
ATTACK_KINDS: tuple[str, ...] = ("poison", "projectile", "lasgun", "atomics")
DEFENCE_KINDS: tuple[str, ...] = ("snooper", "shield")
#: leaders.md K-11 ``scope+`` (BG-L02-b Darwi, D-25): the kinds a widened Voice may also name. A worthless card
#: may go in either slot; "karama" is a card on the wheel as a Karama (BattlePlan.karama).
SCOPE_KINDS: tuple[str, ...] = ("worthless", "karama")


@dataclass(frozen=True)
class Pass:
    """Nothing (more) to do at this step."""


@dataclass(frozen=True)
class KaramaAgainstAbility:
    """FAQ 2.1 (F7): a Karama played openly against an ability before the Voice (in the variant, e.g. all the
    powers of a secondary leader, leaders.md LC-11 a). Recorded; its effect belongs to the powers."""

    by: str
    against: str


@dataclass(frozen=True)
class VoiceCommand:
    """BG-P1 (F9): forbid or force one kind of card on the opponent's wheel. ``power`` is the Voice used (BG-P1,
    or ATREIDES-M2 for Paul's Voice), so that the right Karama use (KARAMA-25, KARAMA-43) releases it.
    ``scope`` is the leader entry that widens it (K-11 ``scope+``, BG-L02-b, D-25), which alone lets ``kind`` be
    one of :data:`SCOPE_KINDS`."""

    by: str
    target: str
    mode: str  # "forbid" or "force"
    kind: str
    power: str = "BG-P1"
    scope: str = field(default="", metadata={"digest": "if-set"})


@dataclass(frozen=True)
class PrescienceQuestion:
    """ATREIDES-P1 (F13): "your attack?" or "your defence?". ``power``: ATREIDES-P1, or GUILD-M2 (the
    Navigator's prescience, asked exactly as ATREIDES-P1)."""

    by: str
    target: str
    slot: str  # "attack" or "defence"
    power: str = "ATREIDES-P1"


@dataclass(frozen=True)
class PrescienceAnswer:
    """F17: the truthful, binding answer: a kind, or None for "none"."""

    by: str
    kind: str | None


@dataclass(frozen=True)
class Reveal:
    """F21: both final plans, the hands they came from, and the Karamas shown with them against ``"voice"``
    or ``"prescience"`` (or against one power: its ID) (KARAMA-25, KARAMA-40: the variant's timing)."""

    plans: tuple[tuple[str, BattlePlan], ...]
    hands: tuple[tuple[str, tuple[str, ...]], ...] = ()
    karama_shown: tuple[tuple[str, str], ...] = ()


Action = Pass | KaramaAgainstAbility | VoiceCommand | PrescienceQuestion | PrescienceAnswer | Reveal
#: (House, power ID): one House that may use one Voice or prescience power in this battle.
Holder = tuple[str, str]


@dataclass(frozen=True)
class BattleSequence:
    """The state of the pre-reveal steps of one battle.

    houses.md G-9: every Voice (``voice_holders``, in order) is stated or passed before the prescience step, and
    every prescience question (``prescience_holders``) is stated before any is answered; ``waiting`` holds the
    Houses still to act at the current step (the holders of the step, then the Houses asked, in order).
    """

    houses: tuple[str, str]
    voice_holders: tuple[Holder, ...] = ()
    prescience_holders: tuple[Holder, ...] = ()
    step: str = "karama-abilities"
    karamas: tuple[KaramaAgainstAbility, ...] = ()
    voices: tuple[VoiceCommand, ...] = ()
    questions: tuple[PrescienceQuestion, ...] = ()
    answers: tuple[PrescienceAnswer, ...] = ()
    revealed: Reveal | None = None
    waiting: tuple[Holder, ...] = ()

    @property
    def voice_holder(self) -> str | None:
        """The first House that may use a Voice here (None if none)."""
        return self.voice_holders[0][0] if self.voice_holders else None

    @property
    def prescience_holder(self) -> str | None:
        """The first House that may ask a prescience question here (None if none)."""
        return self.prescience_holders[0][0] if self.prescience_holders else None

    @property
    def actor(self) -> Holder | None:
        """Who acts now at a Voice, prescience or answer step: (House, power), or None."""
        return self.waiting[0] if self.waiting else None

    @property
    def voice(self) -> VoiceCommand | None:
        """The first Voice command stated (one-Voice battles)."""
        return self.voices[0] if self.voices else None

    @property
    def question(self) -> PrescienceQuestion | None:
        """The first prescience question asked (one-question battles)."""
        return self.questions[0] if self.questions else None

    @property
    def answer(self) -> PrescienceAnswer | None:
        """The first answer given (one-question battles)."""
        return self.answers[0] if self.answers else None

    def voices_on(self, house: str) -> tuple[VoiceCommand, ...]:
        """The Voice commands that bind ``house``."""
        return tuple(v for v in self.voices if v.target == house)

    def answered(self, house: str) -> tuple[tuple[PrescienceQuestion, PrescienceAnswer], ...]:
        """The questions ``house`` answered, with its answers."""
        pairs = zip(self.questions, self.answers, strict=False)
        return tuple((q, a) for q, a in pairs if q.target == house)


def start_sequence(
    houses: tuple[str, str], *, voice_holder: str | None = None, prescience_holder: str | None = None,
    voices: tuple[Holder, ...] = (), presciences: tuple[Holder, ...] = (),
) -> BattleSequence:
    """A new sequence; ``voices`` / ``presciences`` are the (House, power) that may use a Voice or ask a
    prescience question here, in the order they are asked (``voice_holder`` / ``prescience_holder``: one House
    with BG-P1 / ATREIDES-P1)."""
    voices = voices or (((voice_holder, "BG-P1"),) if voice_holder is not None else ())
    presciences = presciences or (((prescience_holder, "ATREIDES-P1"),) if prescience_holder is not None else ())
    for holder, _power in voices + presciences:
        if holder not in houses:
            raise IllegalActionError("sequence/holder", f"{holder} does not fight in this battle {houses}")
    return BattleSequence(houses, voices, presciences)


def _enter(seq: BattleSequence, step: str) -> BattleSequence:
    """Go to ``step`` and skip the steps where nobody acts (no Voice, no prescience, steps shown at the reveal)."""
    while True:
        if step == "voice":
            waiting = seq.voice_holders
        elif step == "prescience":
            waiting = seq.prescience_holders
        elif step == "prescience-answer":
            waiting = tuple((q.target, q.power) for q in seq.questions)
        else:
            waiting = ()
        if step in SHOWN_AT_REVEAL or (step in ("voice", "prescience", "prescience-answer") and not waiting):
            step = STEPS[STEPS.index(step) + 1]
            continue
        return evolve(seq, step=step, waiting=waiting)


def _skip(seq: BattleSequence) -> BattleSequence:
    """Past the current step if nobody is left to act at it."""
    if seq.step in ("voice", "prescience", "prescience-answer") and seq.waiting:
        return seq
    return _enter(seq, STEPS[STEPS.index(seq.step) + 1])


def _other(seq: BattleSequence, house: str) -> str:
    return seq.houses[1] if house == seq.houses[0] else seq.houses[0]


def advance(seq: BattleSequence, action: Action) -> BattleSequence:
    """Apply one action at the current step and return the new state (the old one is unchanged)."""
    step = seq.step
    if step == "done":
        raise IllegalActionError("sequence/done", "the battle plans are already revealed")
    rest = seq.waiting[1:]
    if step == "karama-abilities":
        if isinstance(action, KaramaAgainstAbility):
            if action.by not in seq.houses:
                raise IllegalActionError("sequence/karama", f"{action.by} does not fight in this battle")
            return evolve(seq, karamas=seq.karamas + (action,))
        if isinstance(action, Pass):
            return _enter(seq, "voice")
    elif step == "voice":
        actor = seq.waiting[0]
        if isinstance(action, VoiceCommand):
            if (action.by, action.power) != actor or action.target != _other(seq, action.by):
                raise IllegalActionError(
                    "sequence/voice", f"only {actor[0]} may use the Voice ({actor[1]}) now, on its opponent"
                )
            if action.mode not in ("forbid", "force"):
                raise IllegalActionError("sequence/voice-mode", f"{action.mode!r} is not one of forbid, force")
            allowed = VOICE_KINDS + (SCOPE_KINDS if action.scope else ())  # K-11 scope+ (D-25)
            if action.kind not in allowed:
                raise IllegalActionError(
                    "sequence/voice-kind", f"the Voice may name {', '.join(allowed)}, not {action.kind!r} (FAQ 10; "
                    "leaders.md D-25: worthless and Karama only in Darwi's battle)"
                )
            return _skip(evolve(seq, voices=seq.voices + (action,), waiting=rest))
        if isinstance(action, Pass):
            return _skip(evolve(seq, waiting=rest))
    elif step == "prescience":
        actor = seq.waiting[0]
        if isinstance(action, PrescienceQuestion):
            if (action.by, action.power) != actor or action.target != _other(seq, action.by):
                raise IllegalActionError("sequence/prescience", f"only {actor[0]} may ask ({actor[1]}) now, "
                                         "its opponent")
            if action.slot not in ("attack", "defence"):
                raise IllegalActionError("sequence/prescience-slot", f"{action.slot!r} is not one of attack, defence")
            return _skip(evolve(seq, questions=seq.questions + (action,), waiting=rest))
        if isinstance(action, Pass):
            return _skip(evolve(seq, waiting=rest))
    elif step == "prescience-answer":
        if isinstance(action, PrescienceAnswer):
            question = seq.questions[len(seq.answers)]
            allowed = answers_of_slot(question.slot)  # GAP-138: two kinds joined for two attacks or defences
            if action.by != question.target:
                raise IllegalActionError("sequence/answer", f"{question.target} must answer")
            if action.kind is not None and action.kind not in allowed + ("immune",):  # K-10 (GAP-96)
                raise IllegalActionError("sequence/answer-kind", f"answer one of {', '.join(allowed)}, none or "
                                         "immune (leaders.md K-10: a leader immune to prescience)")
            return _skip(evolve(seq, answers=seq.answers + (action,), waiting=rest))
    elif step == "reveal" and isinstance(action, Reveal):
        plans = dict(action.plans)
        hands = {house: tuple(cards) for house, cards in action.hands}
        shown: dict[str, set[str]] = {}
        for house, against in action.karama_shown:
            shown.setdefault(house, set()).add(against)
        for house in seq.houses:
            if house not in plans:
                raise IllegalActionError("sequence/reveal", f"no plan revealed for {house}")
            if shown.get(house) and house in hands and "karama" not in hands[house]:
                raise IllegalActionError("sequence/karama-held", f"{house} shows a Karama it does not hold")
            problems = plan_violations(seq, house, plans[house], hand=hands.get(house),
                                       karama_shown=shown.get(house, ()))
            if problems:
                raise IllegalActionError("sequence/binding", f"{house}'s plan breaks: " + "; ".join(problems))
        return evolve(seq, revealed=action, step="done")
    raise IllegalActionError("sequence/action", f"{type(action).__name__} is not allowed at step {step!r}")


def plan_violations(
    seq: BattleSequence, house: str, plan: BattlePlan, *, hand: Iterable[str] | None = None,
    karama_shown: Iterable[str] = (), carried: Iterable[str] = (),
) -> tuple[str, ...]:
    """What in ``house``'s final plan breaks a Voice or a prescience answer (checked at the reveal).

    A Karama shown at the reveal releases a binding (KARAMA-25 and KARAMA-43 a Voice, KARAMA-40 and KARAMA-18 an
    answer): ``karama_shown`` names ``"voice"`` or ``"prescience"`` (every such binding) or the power whose
    binding it releases (``"BG-P1"``, ``"ATREIDES-M2"``, ``"ATREIDES-P1"``, ``"GUILD-M2"``), or ``"voice:KIND"``
    (the commands naming KIND: leaders.md K-10) or ``"voice#N"`` (the N-th command of the sequence: a d10
    immunity rolled against it, GAP-99). An answer ``"immune"`` (K-10) binds nothing. A forced kind binds
    only if the hand holds one (L753, FAQ 12). Design note: a worthless card is no kind for the prescience
    answer: "none" allows an empty slot or a worthless card. ``carried``: the built-in attacks the plan's leader
    carries by a House power (houses.md G-4, TLEILAX-M1: :func:`dunenb.battle.powers.carried_weapons`): no Voice
    touches them, but an answer about the attack names them (ATREIDES-P1).
    """
    released = set(karama_shown)
    problems = []
    kinds = {card_kind(card) for card in plan.cards_played if card != "worthless"}
    # leaders.md D-25 (K-11 scope+): "worthless" is a worthless card in any slot, "karama" a card on the wheel as
    # a Karama; a force of either binds only if the hand holds such a card (the Karama card itself, GAP-132)
    kinds |= {"worthless"} if "worthless" in plan.cards_played else set()
    kinds |= {"karama"} if plan.karama is not None else set()
    for voice in seq.voices_on(house):
        if _released(seq, voice, released):
            continue
        if voice.mode == "forbid" and voice.kind in kinds:
            problems.append(f"the Voice forbade {voice.kind}")
        if voice.mode == "force" and voice.kind not in kinds:
            held = Counter(card if card in SCOPE_KINDS else card_kind(card) for card in (hand or ())
                           if card in _KINDED or card in SCOPE_KINDS)
            if hand is None or held[voice.kind]:
                problems.append(f"the Voice forced {voice.kind}")
    for question, answer in seq.answered(house):
        if "prescience" in released or question.power in released or answer.kind == "immune":
            continue  # K-10: "Tu ne peux voir..." binds nothing (GAP-96; dunenb.battle.immunities)
        played = slot_answer(plan, question.slot, carried)  # GAP-138: every attack (defence), extra slots too
        if played != answer.kind:
            problems.append(f"the prescience answer was {answer.kind or 'none'}, the wheel shows "
                            f"{played or 'none'}")
    return tuple(problems)


def _released(seq: BattleSequence, voice: VoiceCommand, released: set[str]) -> bool:
    """Whether a Karama shown or an immunity (``released``, as :func:`plan_violations` reads it) frees the side
    from ``voice``: K-10 "voice:KIND" the commands naming KIND (voice[shield,snooper]); "voice#N" the N-th one (a
    d10 immunity rolled against it, GAP-99); LC-11 b a Karama against Darwi (D-25)."""
    return ("voice" in released or voice.power in released or f"voice:{voice.kind}" in released
            or bool(voice.scope and voice.scope in released)
            or f"voice#{seq.voices.index(voice)}" in released)


def forced_kinds(seq: BattleSequence | None, house: str, *, karama_shown: Iterable[str] = ()) -> frozenset[str]:
    """The kinds a Voice command in force forces ``house`` to play (``karama_shown`` as for
    :func:`plan_violations`): houses.md BG-P1, a House forced to play Atomics commits no outlaw act
    (CARD-ATOMICS-4); the resolver reads it from ``BattleSide.voice_forced``."""
    if seq is None:
        return frozenset()
    released = set(karama_shown)
    return frozenset(voice.kind for voice in seq.voices_on(house)
                     if voice.mode == "force" and not _released(seq, voice, released))


#: GAP-138: the kinds of an answer naming two attacks (K-6 extra slot, K-7 built-in) or two defences are joined so.
ANSWER_JOIN = "+"


def slot_answer(plan: BattlePlan, slot: str, carried: Iterable[str] = ()) -> str | None:
    """The truthful prescience answer for ``slot`` (``attack`` or ``defence``) of ``plan``, or None ("none").

    ATREIDES-P1: the answer names kinds, not subtypes, includes built-in weapons (G-4), and a leader with two
    attacks names both; GAP-138: every card or built-in in the slot's kind counts, the leaders' extra slots
    (leaders.md K-6 ``extra_attack`` / ``extra_defense``, K-7 built-ins) included; two kinds are named in the
    order of the slot's kinds, joined by ``+``, a kind played twice once. A worthless card is no kind.
    ``carried``: the attacks a House power builds into the leader (houses.md G-4: TLEILAX-M1, Waff's pistol),
    named too.

    >>> slot_answer(BattlePlan(weapon="poison-fast", extra_attack="projectile-distance"), "attack")
    'poison+projectile'
    >>> slot_answer(BattlePlan(weapon="poison-fast"), "attack", ("projectile-distance",))
    'poison+projectile'
    >>> slot_answer(BattlePlan(defense="shield", extra_defense="shield"), "defence")
    'shield'
    >>> slot_answer(BattlePlan(), "attack") is None
    True
    """
    cards = plan.attacks + tuple(carried) if slot == "attack" else plan.defences
    order = ATTACK_KINDS if slot == "attack" else DEFENCE_KINDS
    kinds = {card_kind(card) for card in cards if card != "worthless"}
    return ANSWER_JOIN.join(kind for kind in order if kind in kinds) or None


def answer_kinds(answer: str | None) -> tuple[str, ...]:
    """The kinds a prescience answer names (GAP-138: ``"poison+projectile"`` names two; ``None``/none: none)."""
    return () if answer in (None, "none") else tuple(answer.split(ANSWER_JOIN))


def answers_of_slot(slot: str) -> tuple[str, ...]:
    """Every answer naming kinds of ``slot`` (one kind, or two in the slot's order: GAP-138), "none" excluded."""
    order = ATTACK_KINDS if slot == "attack" else DEFENCE_KINDS
    return order + tuple(f"{a}{ANSWER_JOIN}{b}" for i, a in enumerate(order) for b in order[i + 1:])


_KINDED = frozenset(("poison-fast", "poison-slow", "projectile-distance", "projectile-contact", "lasgun", "atomics",
                     "snooper", "shield"))


def step_summary(seq: BattleSequence) -> Mapping[str, str]:
    """A readable status of each step (for notebooks): done, current, to come, or shown at the reveal."""
    current = STEPS.index(seq.step)
    result = {}
    for index, step in enumerate(STEPS[:-1]):
        if step in SHOWN_AT_REVEAL:
            result[step] = "shown at the reveal (variant)"
        else:
            result[step] = "done" if index < current else ("current" if index == current else "to come")
    return result
