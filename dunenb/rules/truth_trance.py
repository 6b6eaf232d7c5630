"""The truth trance (CARD-TRUTH-1 to CARD-TRUTH-3, GAP-44, GAP-56): one yes/no question to one other House.

The questions are a fixed menu (``data/truth_trance.json``, GAP-56): each is about the present hidden state, so
the engine computes the true answer itself (CARD-TRUTH-1: "the player asked must tell the truth"). Asking is an
:class:`AskTruthTrance` action that the holder may play before any of its own battle-plan or bid decisions
(:data:`MOMENTS`): the card goes to the discard pile, the answer is stored on the asker
(``HouseState.trance_answers``, shown by :func:`dunenb.engine.view` to the asker only) and the same decision is
asked again. The event log says publicly who asked whom which question, never the answer (GAP-56).

BG-M1 (truth trances without the card): a House holding a power at the ``trance.count`` hook of
``data/powers.json`` (Mohiam's 2 a turn, while she lives) may also ask that many questions a turn at the same
moments, with ``means`` naming the power instead of the card (unused ones lapse; counted in
``HouseState.power_trances``). Each such question opens a Karama window (GAP-63) for KARAMA-31 before it is
answered: a Karama played there destroys that trance (GAP-81: the trance is spent, no answer is given).

leaders.md K-13 (a secondary leader's trances, GAP-104): in a battle, before its plan, a House may also ask with
the TRUTH_TRANCE entry of a leader who may lead it (``means`` names that entry: Bellonda's 1, Albéric's 2,
Sapic's 1 per battle; unused ones lapse), counted in the battle's ``trances_used``; the first use discloses the
leader, whom the plan must then name (LC-5 B1; :func:`dunenb.rules.pre_battle.leader_trance_means`).

>>> [q.id for q in load_questions()][:3]
['traitor-among-mine', 'traitor-is', 'holds']
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from dunenb.actions import Action, menu_maker
from dunenb.battle.cards import card_kind
from dunenb.battle.leader_mind import is_leader_power
from dunenb.board import read_data_file
from dunenb.errors import IllegalActionError, RulesDataError
from dunenb.powers import applied
from dunenb.powers.karama import is_suppressed, lift
from dunenb.powers.registry import implemented_uses
from dunenb.rules.common import Handler, edit_house, event, with_events
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.rules.pre_battle import leader_trance_means
from dunenb.rules.traitors import active_houses, leader_of, leader_ref
from dunenb.state import FrozenDict, GameState

TRUTH_TRANCE = "truth-trance"
#: GAP-56: the pending kinds before which the holder may ask (its own decisions where hidden things matter).
MOMENTS = ("battle-plan", "bid")
NO_SUBJECT = "-"


@dataclass(frozen=True)
class Question:
    """One question of the menu: ``subject`` says what fills ``{subject}`` (none, own-leader, card, number,
    house); ``choices`` are the listed subjects for ``card`` and the menu numbers for ``number``."""

    id: str
    text: str
    subject: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class AskTruthTrance(Action):
    """CARD-TRUTH-1: ``house`` plays a truth trance and asks ``target`` the menu question ``question`` about
    ``subject`` (``-`` when the question has none)."""

    kind: ClassVar[str] = "truth-trance"
    house: str
    target: str
    question: str
    subject: str = NO_SUBJECT
    means: str = TRUTH_TRANCE  # the card, or the power used instead (BG-M1)


@lru_cache(maxsize=1)
def load_questions() -> tuple[Question, ...]:
    """The question menu of ``truth_trance.json`` (GAP-56); bad data raises :class:`RulesDataError`."""
    raw = read_data_file("truth_trance.json")
    questions = []
    for entry in raw["questions"]:
        kind = entry["subject"]
        if kind not in ("none", "own-leader", "card", "number", "house"):
            raise RulesDataError("truth-trance/subject", f"question {entry['id']!r}: unknown subject {kind!r}")
        choices = tuple(str(x) for x in entry.get("subjects", entry.get("menu", ())))
        questions.append(Question(entry["id"], entry["text"], kind, choices))
    return tuple(questions)


def _question(question_id: str) -> Question | None:
    return next((q for q in load_questions() if q.id == question_id), None)


def question_text(action: AskTruthTrance) -> str:
    """The question as asked aloud, e.g. ``'Do you have more than 20 spice?'``."""
    question = _question(action.question)
    return question.text.format(subject=action.subject) if question else action.question


def _subjects(state: GameState, house: str, target: str, question: Question) -> tuple[str, ...]:
    if question.subject == "none":
        return (NO_SUBJECT,)
    if question.subject == "own-leader":  # TRAITOR-1, G-7: main leaders are never traitors
        return tuple(lid for lid in state.houses[house].leaders if not leader_of(house, lid).main)
    if question.subject == "house":
        return tuple(h for h in active_houses(state) if h != target)
    return question.choices


def power_trances(state: GameState, house: str) -> tuple[str | None, int]:
    """BG-M1: the power that gives ``house`` truth trances without the card (``trance.count``), and how many it
    has left this turn; ``(None, 0)`` without one (Mohiam dead: G-7)."""
    count, ids = applied(state, "trance.count", 0, {"house": house})
    if not ids:
        return None, 0
    used = sum(1 for turn in state.houses[house].power_trances if turn == state.turn)
    return ids[-1], max(0, count - used)


def _means(state: GameState, house: str) -> tuple[str, ...]:
    means = (TRUTH_TRANCE,) if TRUTH_TRANCE in state.houses[house].hand else ()
    power, left = power_trances(state, house)
    return means + ((power,) if power is not None and left else ()) + leader_trance_means(state, house)


#: issue 14: the menu's questions built once each (dunenb.actions.menu_maker)
_menu_question = menu_maker(AskTruthTrance)


def questions(state: GameState, house: str) -> list[Action]:
    """Every question ``house`` may ask now: with a truth trance in hand (CARD-TRUTH-1), or with a power's
    trances left this turn (BG-M1).

    Issue 14 item 4: a bid or battle-plan menu lists ~75 questions a target and means, built again at every bid
    of the holder. The menu (:func:`question_menu`) reads only the means, the Houses in play (the targets and the
    ``house`` subjects) and the asker's leaders (the ``own-leader`` subjects; whether one is a main leader is
    fixed data): it is kept per these, and each call gets its own list of the same actions."""
    means = _means(state, house)
    if not means:
        return []
    key = (house, means, active_houses(state), state.houses[house].leaders)
    menu = _QUESTION_MENUS.get(key)
    if menu is None:
        if len(_QUESTION_MENUS) >= _MAX_QUESTION_MENUS:
            _QUESTION_MENUS.clear()
        menu = _QUESTION_MENUS[key] = tuple(question_menu(state, house, means))
    return list(menu)


#: issue 14 item 4: the question menus already built, by (asker, means, Houses in play, the asker's leaders)
_QUESTION_MENUS: dict[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], tuple[Action, ...]] = {}
_MAX_QUESTION_MENUS = 256


def question_menu(state: GameState, house: str, means: tuple[str, ...]) -> list[Action]:
    """The questions ``house`` may ask with each of ``means`` (:func:`questions` without its memo)."""
    targets = [target for target in active_houses(state) if target != house]
    # issue 14 item 4: the (question, subject) pairs of each target are the same for every means: listed once
    asked = {target: [(q.id, subject) for q in load_questions() for subject in _subjects(state, house, target, q)]
             for target in targets}
    return [_menu_question(house, target, question, subject, how)
            for how in means for target in targets for question, subject in asked[target]]


def check_question(state: GameState, action: AskTruthTrance) -> IllegalActionError | None:
    """Why the question may not be asked, naming the field, or ``None``. A ``number`` question takes any
    non-negative integer, not only the menu's."""
    if action.means not in _means(state, action.house):
        means = ", ".join(_means(state, action.house)) or "none"
        if action.means == TRUTH_TRANCE:
            return IllegalActionError("truth-trance/not-held", f"{action.house} holds no truth trance "
                                      f"(CARD-TRUTH-1); means allowed: {means}")
        return IllegalActionError("truth-trance/means", f"means {action.means!r}: {action.house} has no truth "
                                  f"trance of that power left this turn (BG-M1) or in this battle (leaders.md "
                                  f"K-13); allowed: {means}")
    others = [h for h in active_houses(state) if h != action.house]
    if action.target not in others:
        return IllegalActionError("truth-trance/target", f"target {action.target!r}: one other House in play "
                                  f"(CARD-TRUTH-1); allowed: {', '.join(others)}")
    question = _question(action.question)
    if question is None:
        return IllegalActionError("truth-trance/question", f"question {action.question!r}; allowed: "
                                  f"{', '.join(q.id for q in load_questions())} (GAP-56)")
    if question.subject == "number":
        if not (action.subject.isascii() and action.subject.isdigit()):
            return IllegalActionError("truth-trance/subject", f"subject {action.subject!r}: a non-negative number")
        return None
    allowed = _subjects(state, action.house, action.target, question)
    if action.subject not in allowed:
        return IllegalActionError("truth-trance/subject", f"subject {action.subject!r} for {question.id!r}; "
                                  f"allowed: {', '.join(allowed) or 'none'}")
    return None


def true_answer(state: GameState, action: AskTruthTrance) -> bool:
    """CARD-TRUTH-1: the truthful answer, computed from the hidden state (the present only, GAP-44)."""
    target = state.houses[action.target]
    question, subject = action.question, action.subject
    if question == "traitor-among-mine":
        return any(owner == action.house for owner, _lid in target.traitors)
    if question == "traitor-is":
        return leader_ref(action.house, subject) in target.traitors
    if question == "holds":
        return any(card == subject or _kind(card) == subject for card in target.hand)
    if question == "spice-more-than":
        return target.spice > int(subject)
    if question == "leaders-more-than":
        return len(target.leaders) > int(subject)
    if question == "prediction-is":
        return target.prediction is not None and target.prediction[0] == subject
    raise IllegalActionError("truth-trance/question", f"unknown question {question!r}")


# ---- leaders.md K-17 torture (BG-L09-b, dunenb.rules.leader_torture): a trance given by a power at B10

def subjects(state: GameState, house: str, target: str, question: Question) -> tuple[str, ...]:
    """The subjects of ``question`` that ``house`` may name asking ``target`` (the menu's, GAP-56)."""
    return _subjects(state, house, target, question)


def check_subject(state: GameState, action: AskTruthTrance) -> IllegalActionError | None:
    """Why the question or its subject is not on the menu (GAP-56), or ``None``; the means and target are the
    caller's to check."""
    question = _question(action.question)
    if question is None:
        return IllegalActionError("truth-trance/question", f"question {action.question!r}; allowed: "
                                  f"{', '.join(q.id for q in load_questions())} (GAP-56)")
    if question.subject == "number":
        return None if action.subject.isdigit() else IllegalActionError(
            "truth-trance/subject", f"subject {action.subject!r}: a non-negative number")
    allowed = _subjects(state, action.house, action.target, question)
    if action.subject not in allowed:
        return IllegalActionError("truth-trance/subject", f"subject {action.subject!r} for {question.id!r}; "
                                  f"allowed: {', '.join(allowed) or 'none'}")
    return None


def answer_with(state: GameState, action: AskTruthTrance, how: str) -> GameState:
    """Ask ``action``'s question with a trance that ``how`` gives (logged publicly, the answer to the asker)."""
    state = with_events(state, event(
        "truth-trance", f"{action.house} use a truth trance ({how}) and ask {action.target}: "
        f"\"{question_text(action)}\" (the answer is told to the asker only)", house=action.house,
        target=action.target, question=action.question, subject=action.subject, power=action.means))
    return _answer(state, action)
# ---- end K-17 torture


def _kind(card: str) -> str | None:
    try:
        return card_kind(card)
    except KeyError:
        return None


def ask(state: GameState, action: AskTruthTrance) -> GameState:
    """Play the card: discard it (GAP-27), store the answer on the asker, log the question publicly (GAP-56).
    With a power (BG-M1) the trance is counted, and a Karama window for its Karama uses (KARAMA-31) comes first."""
    if is_leader_power(action.means):  # leaders.md K-13: a trance of the leader's, in this battle (GAP-104)
        from dunenb.rules.pre_battle import use_leader_trance

        state = use_leader_trance(state, action.house, action.means)
        state = with_events(state, event(
            "truth-trance", f"{action.house} uses a truth trance ({action.means}) and asks {action.target}: "
            f"\"{question_text(action)}\" (the answer is told to the asker only)", house=action.house,
            target=action.target, question=action.question, subject=action.subject, power=action.means))
        return _answer(state, action)
    if action.means != TRUTH_TRANCE:
        hs = state.houses[action.house]
        state = edit_house(state, action.house, power_trances=hs.power_trances + (state.turn,))
        state = with_events(state, event(
            "truth-trance", f"{action.house} uses a truth trance ({action.means}) and asks {action.target}: "
            f"\"{question_text(action)}\" (the answer is told to the asker only)", house=action.house,
            target=action.target, question=action.question, subject=action.subject, power=action.means))
        uses = implemented_uses(action.means)
        return open_window(state, uses, "power-trance", action=action)
    hand = list(state.houses[action.house].hand)
    hand.remove(TRUTH_TRANCE)
    state = dataclasses.replace(edit_house(state, action.house, hand=tuple(hand)),
                                treachery_discard=state.treachery_discard + (TRUTH_TRANCE,))
    state = with_events(state, event(
        "truth-trance", f"{action.house} plays a truth trance and asks {action.target}: \"{question_text(action)}\" "
        "(CARD-TRUTH-1; the answer is told to the asker only)", house=action.house, target=action.target,
        question=action.question, subject=action.subject))
    return _answer(state, action)


def _answer(state: GameState, action: AskTruthTrance) -> GameState:
    answer = true_answer(state, action)
    record = (state.turn, action.target, action.question, action.subject, answer)
    return edit_house(state, action.house, trance_answers=state.houses[action.house].trance_answers + (record,))


def _after_window(state: GameState, data: FrozenDict) -> GameState:
    """BG-M1 after the KARAMA-31 window: the answer, unless a Karama destroyed this trance (GAP-81)."""
    action: AskTruthTrance = data["action"]
    if is_suppressed(state, action.means):
        state = lift(state, "action")
        return with_events(state, event("trance-destroyed", f"A Karama destroys {action.house}'s truth trance: "
                                        f"no answer (KARAMA-31, {action.means})", house=action.house,
                                        power=action.means))
    return _answer(state, action)


register_resume("power-trance", _after_window)


def with_trances(handlers: dict[str, Handler]) -> dict[str, Handler]:
    """The handlers with a truth trance offered before each decision of :data:`MOMENTS` (GAP-56)."""
    return {kind: _interject(handler) if kind in MOMENTS else handler for kind, handler in handlers.items()}


def _interject(handler: Handler) -> Handler:
    def decisions(state: GameState) -> list[Action]:
        assert state.pending is not None
        base = handler.decisions(state) if handler.decisions else []
        return base + questions(state, state.pending.actor)

    def apply(state: GameState, action: Action) -> GameState:
        return ask(state, action) if isinstance(action, AskTruthTrance) else handler.apply(state, action)

    def check(state: GameState, action: Action) -> IllegalActionError | None:
        if isinstance(action, AskTruthTrance):
            return check_question(state, action)
        if handler.check is not None:
            return handler.check(state, action)
        return IllegalActionError("action/illegal", f"{action.notation()!r} is not allowed now")

    return Handler(apply=apply, decisions=decisions, outcomes=handler.outcomes, check=check,
                   accepts=handler.accepts + (AskTruthTrance,), pledged=handler.pledged,  # GAP-57 kept
                   is_outcome=handler.is_outcome, always=handler.always, checked=handler.checked)
