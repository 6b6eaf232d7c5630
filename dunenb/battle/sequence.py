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
from dataclasses import dataclass, replace

from dunenb.battle.cards import card_kind
from dunenb.battle.plans import BattlePlan
from dunenb.errors import IllegalActionError

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
    """BG-P1 (F9): forbid or force one kind of card on the opponent's wheel."""

    by: str
    target: str
    mode: str  # "forbid" or "force"
    kind: str


@dataclass(frozen=True)
class PrescienceQuestion:
    """ATREIDES-P1 (F13): "your attack?" or "your defence?"."""

    by: str
    target: str
    slot: str  # "attack" or "defence"


@dataclass(frozen=True)
class PrescienceAnswer:
    """F17: the truthful, binding answer: a kind, or None for "none"."""

    by: str
    kind: str | None


@dataclass(frozen=True)
class Reveal:
    """F21: both final plans, the hands they came from, and the Karamas shown with them against ``"voice"``
    or ``"prescience"`` (KARAMA-25, KARAMA-40: the variant's timing)."""

    plans: tuple[tuple[str, BattlePlan], ...]
    hands: tuple[tuple[str, tuple[str, ...]], ...] = ()
    karama_shown: tuple[tuple[str, str], ...] = ()


Action = Pass | KaramaAgainstAbility | VoiceCommand | PrescienceQuestion | PrescienceAnswer | Reveal


@dataclass(frozen=True)
class BattleSequence:
    """The state of the pre-reveal steps of one battle."""

    houses: tuple[str, str]
    voice_holder: str | None = None
    prescience_holder: str | None = None
    step: str = "karama-abilities"
    karamas: tuple[KaramaAgainstAbility, ...] = ()
    voice: VoiceCommand | None = None
    question: PrescienceQuestion | None = None
    answer: PrescienceAnswer | None = None
    revealed: Reveal | None = None


def start_sequence(
    houses: tuple[str, str], *, voice_holder: str | None = None, prescience_holder: str | None = None
) -> BattleSequence:
    """A new sequence; ``voice_holder`` / ``prescience_holder`` are the Houses that may use those powers here."""
    for holder in (voice_holder, prescience_holder):
        if holder is not None and holder not in houses:
            raise IllegalActionError("sequence/holder", f"{holder} does not fight in this battle {houses}")
    return BattleSequence(houses, voice_holder, prescience_holder)


def _skip(seq: BattleSequence) -> BattleSequence:
    """Move past steps where nobody can act (no Voice, no prescience, or steps shown at the reveal)."""
    while True:
        step = seq.step
        if (step in SHOWN_AT_REVEAL or (step == "voice" and seq.voice_holder is None)
                or (step == "prescience" and seq.prescience_holder is None)
                or (step == "prescience-answer" and seq.question is None)):
            seq = replace(seq, step=STEPS[STEPS.index(step) + 1])
            continue
        return seq


def _other(seq: BattleSequence, house: str) -> str:
    return seq.houses[1] if house == seq.houses[0] else seq.houses[0]


def advance(seq: BattleSequence, action: Action) -> BattleSequence:
    """Apply one action at the current step and return the new state (the old one is unchanged)."""
    step = seq.step
    if step == "done":
        raise IllegalActionError("sequence/done", "the battle plans are already revealed")
    if step == "karama-abilities":
        if isinstance(action, KaramaAgainstAbility):
            if action.by not in seq.houses:
                raise IllegalActionError("sequence/karama", f"{action.by} does not fight in this battle")
            return replace(seq, karamas=seq.karamas + (action,))
        if isinstance(action, Pass):
            return _skip(replace(seq, step="voice"))
    elif step == "voice":
        if isinstance(action, VoiceCommand):
            if action.by != seq.voice_holder or action.target != _other(seq, action.by):
                raise IllegalActionError(
                    "sequence/voice", f"only {seq.voice_holder} may use the Voice, on its opponent"
                )
            if action.mode not in ("forbid", "force"):
                raise IllegalActionError("sequence/voice-mode", f"{action.mode!r} is not one of forbid, force")
            if action.kind not in VOICE_KINDS:
                raise IllegalActionError(
                    "sequence/voice-kind", f"the Voice may name {', '.join(VOICE_KINDS)}, not {action.kind!r} (FAQ 10)"
                )
            return _skip(replace(seq, voice=action, step="karama-voice"))
        if isinstance(action, Pass):
            return _skip(replace(seq, step="karama-voice"))
    elif step == "prescience":
        if isinstance(action, PrescienceQuestion):
            if action.by != seq.prescience_holder or action.target != _other(seq, action.by):
                raise IllegalActionError("sequence/prescience", f"only {seq.prescience_holder} may ask, its opponent")
            if action.slot not in ("attack", "defence"):
                raise IllegalActionError("sequence/prescience-slot", f"{action.slot!r} is not one of attack, defence")
            return _skip(replace(seq, question=action, step="karama-prescience"))
        if isinstance(action, Pass):
            return _skip(replace(seq, step="karama-prescience"))
    elif step == "prescience-answer":
        if isinstance(action, PrescienceAnswer):
            assert seq.question is not None
            allowed = ATTACK_KINDS if seq.question.slot == "attack" else DEFENCE_KINDS
            if action.by != seq.question.target:
                raise IllegalActionError("sequence/answer", f"{seq.question.target} must answer")
            if action.kind is not None and action.kind not in allowed:
                raise IllegalActionError("sequence/answer-kind", f"answer one of {', '.join(allowed)} or none")
            return replace(seq, answer=action, step="reveal")
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
        return replace(seq, revealed=action, step="done")
    raise IllegalActionError("sequence/action", f"{type(action).__name__} is not allowed at step {step!r}")


def plan_violations(
    seq: BattleSequence, house: str, plan: BattlePlan, *, hand: Iterable[str] | None = None,
    karama_shown: Iterable[str] = (),
) -> tuple[str, ...]:
    """What in ``house``'s final plan breaks the Voice or the prescience answer (checked at the reveal).

    A Karama shown at the reveal against ``"voice"`` or ``"prescience"`` releases that binding (KARAMA-25,
    KARAMA-40). A forced kind binds only if the hand holds one (L753, FAQ 12). Design note: a worthless card
    is no kind for the prescience answer: "none" allows an empty slot or a worthless card.
    """
    released = set(karama_shown)
    problems = []
    kinds = {card_kind(card) for card in plan.cards_played if card != "worthless"}
    voice = seq.voice
    if voice is not None and voice.target == house and "voice" not in released:
        if voice.mode == "forbid" and voice.kind in kinds:
            problems.append(f"the Voice forbade {voice.kind}")
        if voice.mode == "force" and voice.kind not in kinds:
            held = Counter(card_kind(card) for card in (hand or ()) if card in _KINDED)
            if hand is None or held[voice.kind]:
                problems.append(f"the Voice forced {voice.kind}")
    if seq.answer is not None and seq.question is not None and seq.question.target == house:
        if "prescience" not in released:
            card = plan.weapon if seq.question.slot == "attack" else plan.defense
            played = None if card in (None, "worthless") else card_kind(card)
            if played != seq.answer.kind:
                problems.append(f"the prescience answer was {seq.answer.kind or 'none'}, the wheel shows "
                                f"{played or 'none'}")
    return tuple(problems)


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
