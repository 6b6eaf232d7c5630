"""Guided lessons (issue 16 item 4): short scenes that stop at a decision, ask the learner, and explain.

A scene is a real game: a fixed table and seed, played by the heuristic bots (the learner's House too) until the
learner's House meets the scene's decision; the learner then decides through the play widgets, the bots reply
up to the learner's next decision, and :func:`outcome` tells what happened, with the rules' texts. Scenes are
records, so they save and replay like any game.

>>> lesson = LESSONS["landing"]
>>> session = build(lesson)
>>> session.to_act, session.state.phase, any(f.kind == "land" for f in session.forms())
('atreides', 'movement', True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dunenb.bots import make_bot
from dunenb.engine import CHANCE, current_player, legal_actions, make_config, sample_chance
from dunenb.errors import InputError
from dunenb.play_session import PUBLIC_EVENTS, PlaySession, rule_entries
from dunenb.record import GameRecord
from dunenb.rules.anytime import is_anytime
from dunenb.rules_reference import RuleEntry
from dunenb.state import GameState

Scene = Callable[[GameState], bool]


def _own(state: GameState) -> list:
    return [a for a in legal_actions(state) if not is_anytime(a)]


def _dial(state: GameState) -> bool:
    assert state.pending is not None
    return state.pending.kind == "dial"


def _alliance(state: GameState) -> bool:
    assert state.pending is not None
    return state.pending.kind == "alliance"


def _landing(state: GameState) -> bool:
    return any(a.kind == "land" for a in _own(state))


def _traitor_call(state: GameState) -> bool:
    assert state.pending is not None
    return state.pending.kind == "traitor-call" and any(a.kind == "traitor-call" for a in _own(state))


def _karama(state: GameState) -> bool:
    """A battle plan with a Karama the learner may put on the wheel (KARAMA-3), not a bid: the wheel is the
    scene's decision (the lesson's question says the Karama could also have waited for the auction, BID-14)."""
    return any(getattr(a, "karama", "none") not in ("none", "") for a in _own(state))


@dataclass(frozen=True)
class Lesson:
    """A scene: the table, the seed, the learner's House, where to stop, what to ask and which rules explain."""

    id: str
    title: str
    question: str
    rules: tuple[str, ...]
    houses: tuple[str, ...]
    seed: int
    scene: Scene
    human: str = "atreides"
    turn_limit: int = 4

    def rule_entries(self) -> list[RuleEntry]:
        return rule_entries(self.rules)


LESSONS: dict[str, Lesson] = {lesson.id: lesson for lesson in (
    Lesson("storm", "A storm and its losses",
           "You dial the storm with another House: the two dials add up and the storm moves that many sectors. "
           "Where is your army, and how far do you dial?",
           ("STORM-3", "STORM-6", "STORM-7", "STORM-9", "GAP-7"), ("atreides", "harkonnen", "emperor"), 1, _dial),
    Lesson("worm", "A worm and an alliance window",
           "A worm came up: the alliance window is open. Offer a deal, or let it close?",
           ("SPICE-6", "SPICE-8", "ALLIANCE-1", "ALLIANCE-3", "ALLIANCE-6"), ("atreides", "harkonnen", "emperor"),
           1, _alliance),
    Lesson("landing", "A landing and its price",
           "Land tokens from your reserve: choose the territory, the sector and how many. Watch the price and who "
           "is paid.", ("LAND-1", "LAND-2", "LAND-5", "LAND-7"), ("atreides", "harkonnen", "emperor"), 1, _landing),
    Lesson("traitor", "A battle with a traitor call",
           "The plans are revealed and the opponent's leader is one of your traitors. Call the traitor?",
           ("TRAITOR-8", "TRAITOR-9", "TRAITOR-11", "BATTLE-12"), ("atreides", "harkonnen", "emperor"), 29,
           _traitor_call),
    Lesson("karama", "A Karama",
           "You hold a Karama and plan a battle: put it on the wheel to block the opponent's treachery, or keep "
           "it for the auction, where it takes a card?",
           ("KARAMA-1", "KARAMA-2", "KARAMA-3", "BID-14"), ("atreides", "harkonnen"), 51, _karama),
)}


#: How many seeds after the lesson's own are tried before giving up (a rules or bot change can move a scene).
SEED_TRIES = 12


def build(lesson: Lesson, *, max_actions: int = 5000) -> PlaySession:
    """Play the lesson's game with the heuristic bots until the learner's House meets the scene's decision.

    The lesson's seed is tried first, then the next ones (:data:`SEED_TRIES`), so that the scene still comes up
    when a change of the rules or of the bots moves it out of the first game; the result is deterministic."""
    for seed in range(lesson.seed, lesson.seed + SEED_TRIES):
        session = _scene(lesson, seed, max_actions)
        if session is not None:
            return session
    raise InputError("lesson/scene", f"lesson {lesson.id!r}: the scene did not come up with seeds {lesson.seed} "
                     f"to {lesson.seed + SEED_TRIES - 1}")


def _scene(lesson: Lesson, seed: int, max_actions: int) -> PlaySession | None:
    record = GameRecord(make_config(lesson.houses, seed=seed, turn_limit=lesson.turn_limit))
    bots = {h: make_bot("heuristic", seed=1) for h in lesson.houses}
    node = record.root
    for _ in range(max_actions):
        state = record.state_at(node)
        if state.is_over:
            break
        actor = current_player(state)
        assert actor is not None  # the game is not over
        if actor == lesson.human and lesson.scene(state):
            session = PlaySession(lesson.houses, lesson.human, record=record, node=node)
            session.log.extend(_lead_up(record, node))
            session.log.append(f"Lesson: {lesson.title} — your decision")
            return session
        node = record.add_move(node, sample_chance(state) if actor == CHANCE else bots[actor].choose(state))
    return None


def _lead_up(record: GameRecord, node: int, steps: int = 30) -> list[str]:
    """The public events of the last steps before the scene (a worm, a storm's losses), as log lines."""
    lines = []
    for step in record.path(node)[-steps:]:
        state = record.state_at(step)
        lines += [f"T{state.turn} {state.phase}: {e.text}" for e in state.events if e.kind in PUBLIC_EVENTS]
    return lines[-6:]


def outcome(lesson: Lesson, session: PlaySession, since: int) -> tuple[list[str], list[RuleEntry]]:
    """What happened after the learner's decision (the log lines from ``since``) and the rules that explain it."""
    return session.log[since:], lesson.rule_entries()
