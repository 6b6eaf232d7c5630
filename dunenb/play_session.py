"""A game played by one learner against bots (issue 16 item 3): the logic behind the play notebook, no widgets.

The session keeps a :class:`dunenb.record.GameRecord` and a cursor. After each of the learner's decisions the
bots reply and chance nodes are sampled with the game's own generator until the learner must decide again (or
the game ends); each step leaves a short line in words in the log. The learner sees their House's view
(:func:`dunenb.engine.view`, secret actions of others redacted by :mod:`dunenb.rules.secrecy`) unless the teacher
turns on the god view. Undo goes back to the learner's previous decision (the record keeps the abandoned line as
a variation); the game saves to a folder git ignores and reopens in the replay notebook.

>>> session = PlaySession(["atreides", "harkonnen"], "atreides", seed=3, turn_limit=1)
>>> session.to_act, session.forms()[0].kind
('atreides', 'start')
>>> refused = session.play(session.forms()[0].pick((1,)))
>>> refused is None and session.state.pending.kind != "start" or session.to_act == "atreides"
True
>>> session.undo() and session.forms()[0].kind
'start'
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dunenb.actions import Action
from dunenb.bots import make_bot
from dunenb.engine import CHANCE, check_action, current_player, legal_actions, make_config, sample_chance, view
from dunenb.errors import IllegalActionError
from dunenb.play_forms import Form, shape
from dunenb.record import GameRecord
from dunenb.rules import secrecy
from dunenb.rules_reference import RuleEntry, lookup
from dunenb.saves import SAVED_GAMES, save_game
from dunenb.state import GameState

#: Where the play notebook saves games (listed in .gitignore: a clean checkout stays clean, issue 16 item 8).
SAVE_FOLDER = SAVED_GAMES

#: The rules behind each kind of decision: the "why?" of a step.
WHY: dict[str, tuple[str, ...]] = {
    "start": ("SETUP-2", "SETUP-3"), "traitor-pick": ("TRAITOR-1", "TRAITOR-4"), "prediction": ("BG-P6",),
    "dial": ("STORM-3", "STORM-6", "STORM-9"), "weather": ("STORM-5", "STORM-18"),
    "alliance": ("ALLIANCE-1", "ALLIANCE-3"), "alliance-answer": ("ALLIANCE-3", "ALLIANCE-6"),
    "bid": ("BID-4", "BID-5", "BID-13"), "bid-payment": ("BID-5", "BID-7"), "free-card": ("BID-15",),
    "movement": ("LAND-1", "LAND-2", "MOVE-1", "MOVE-5"), "harvest-declaration": ("HARVEST-10", "HARVEST-7"),
    "battle-choice": ("BATTLE-1", "BATTLE-3"), "battle-plan": ("BATTLE-13", "BATTLE-7", "BATTLE-9"),
    "traitor-call": ("TRAITOR-9", "TRAITOR-11"), "battle-discard": ("BATTLE-10",),
    "on-call-discard": ("HAND-1",), "place": ("FREMEN-START",), "bg-declaration": ("BG-P1",),
}
#: Events that every House sees (the public results of a step), shown in the log of a House view.
PUBLIC_EVENTS = frozenset({
    "worm", "tokens-lost", "tokens-destroyed", "harvester-destroyed", "spice-placed", "leader-killed",
    "battle", "battle-outcome", "bid-won", "eliminated", "victory", "victory-tie", "game-over", "turn",
    "storm-moved", "double-storm", "tax", "bounty", "outlawed", "alliance-end", "peace", "war",
    "alliance-window-closed", "storm-token-revealed", "auction", "card-bought"})
RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+[a-z]?\b")


def rule_entries(ids: Sequence[str]) -> list[RuleEntry]:
    """The reference entries of these rule IDs (a sub-rule ``GAP-7a`` falls back to ``GAP-7``), unknown ones
    left out."""
    found = []
    for rule_id in dict.fromkeys(ids):
        for candidate in (rule_id, re.sub(r"[a-z]$", "", rule_id)):
            try:
                found.append(lookup(candidate))
                break
            except Exception:  # noqa: BLE001 - an ID the reference lacks is simply not shown
                continue
    return found


def rules_in(text: str) -> list[str]:
    """The rule IDs a message cites (``'... (LAND-1, GAP-26b)'`` → ``['LAND-1', 'GAP-26b']``)."""
    return list(dict.fromkeys(RULE_ID.findall(text)))


@dataclass(frozen=True)
class Refusal:
    """An action the engine refused: its error and the rules the error cites."""

    error: IllegalActionError
    rules: tuple[RuleEntry, ...]


@dataclass(frozen=True)
class Odds:
    """My plan's chance of winning against each plan the opponent could set (from what I can see)."""

    plans: int
    worst: float
    mean: float
    best: float
    values: tuple[float, ...] = ()

    def histogram(self, bins: int = 10) -> list[int]:
        """How many of the opponent's plans give a win chance in each tenth (0-10 %, ..., 90-100 %)."""
        counts = [0] * bins
        for value in self.values:
            counts[min(int(value * bins), bins - 1)] += 1
        return counts


class PlaySession:
    """One learner's House against bots (``heuristic`` by default), 2 to 8 Houses."""

    def __init__(self, houses: Sequence[str], human: str, *, bots: str = "heuristic", seed: int | None = None,
                 turn_limit: int | None = None, record: GameRecord | None = None, node: int | None = None,
                 **options: Any) -> None:
        self.record = record or GameRecord(make_config(houses, seed=seed, turn_limit=turn_limit, **options))
        self.human = human
        if human not in self.record.config.houses:
            from dunenb.errors import InputError

            raise InputError("play/house", f"house {human!r} does not play; allowed: "
                             f"{', '.join(self.record.config.houses)}")
        self.bots = {h: make_bot(bots, seed=i + 1) for i, h in enumerate(self.record.config.houses) if h != human}
        self.god_view = False
        self.log: list[str] = []
        self.bot_times: list[float] = []
        self.node = self.record.root if node is None else node
        self._decisions: list[int] = []  # nodes where the learner decided (for undo)
        self._forms: tuple[int, list[Form]] | None = None
        self.advance()

    # --- what is shown -----------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The god state at the cursor (the rules' truth; show :attr:`seen` to the learner)."""
        return self.record.state_at(self.node)

    @property
    def seen(self) -> GameState:
        """The position as the learner's House sees it (the god state under the teacher's god view)."""
        return self.state if self.god_view else view(self.state, self.human)

    @property
    def to_act(self) -> str | None:
        return current_player(self.state)

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def forms(self) -> list[Form]:
        """The learner's decision shaped as forms (empty when it is not their turn)."""
        if self.to_act != self.human:
            return []
        if self._forms is None or self._forms[0] != self.node:
            self._forms = (self.node, shape(self.state, legal_actions(self.state)))
        return self._forms[1]

    def what_now(self) -> str:
        """One sentence: whose turn, which phase, what is asked."""
        state = self.state
        if state.is_over:
            winners = [e.text for e in state.events if e.kind in ("victory", "victory-tie", "game-over")]
            return "The game is over. " + (winners[-1] if winners else "")
        assert state.pending is not None
        kind = state.pending.kind.replace("-", " ")
        forms = self.forms()
        asked = ", ".join((f.button_label if f.is_button else f.title.split(" (")[0]).lower()
                          for f in forms if not f.anytime)
        return f"Turn {state.turn}, {state.phase} phase — your decision: {kind}. You may: {asked}."

    def why(self) -> list[RuleEntry]:
        """The rules behind the pending decision."""
        if self.state.is_over:
            return rule_entries(("VICTORY-1",))
        assert self.state.pending is not None
        return rule_entries(WHY.get(self.state.pending.kind, ("TURN-1",)))

    # --- playing -------------------------------------------------------------------------------------------
    def play(self, action: Action | None) -> Refusal | None:
        """Play the learner's action; bots and chance then run to the learner's next decision. A refused action
        returns its :class:`Refusal` (the error and the rule texts it cites) and changes nothing."""
        if action is None:
            return Refusal(IllegalActionError("play/incomplete", "choose a value for every field first"), ())
        error = check_action(self.state, action)
        if error is not None:  # the rules the error cites, else those of the step
            return Refusal(error, tuple(rule_entries(rules_in(error.message)) or self.why()))
        self._decisions.append(self.node)
        self._step(action, "You")
        self.advance()
        return None

    def advance(self) -> None:
        """Sample chance nodes and let the bots decide until the learner must act or the game ends."""
        while not self.state.is_over and self.to_act != self.human:
            state = self.state
            if self.to_act == CHANCE:
                self._step(sample_chance(state), "Chance")
            else:
                assert self.to_act is not None  # the game is not over
                start = time.perf_counter()
                action = self.bots[self.to_act].choose(state)
                self.bot_times.append(time.perf_counter() - start)
                self._step(action, "Bot")

    def _step(self, action: Action, who: str) -> None:
        before = self.state
        shown = action if (self.god_view or secrecy.sees(before, action, self.human)) else secrecy.hidden(before,
                                                                                                          action)
        self.node = self.record.add_move(self.node, action)
        self.record.promote(self.node)  # the line played last is the main line (an undone one stays a variation)
        line = f"T{before.turn} {before.phase}: {shown.describe()}"
        if who == "Chance":
            line = f"🎲 {line}"
        events = [e.text for e in self.state.events if self.god_view or e.kind in PUBLIC_EVENTS]
        self.log.append(line + (" — " + "; ".join(events) if events else ""))

    def undo(self) -> bool:
        """Go back to the learner's previous decision; False if there is none."""
        if not self._decisions:
            return False
        self.node = self._decisions.pop()
        self.log.append("↶ Undone: back to your previous decision")
        return True

    @property
    def can_undo(self) -> bool:
        return bool(self._decisions)

    def hint(self) -> Action | None:
        """What the heuristic bot would play in the learner's place, deciding from the learner's view only (so
        the hint reveals nothing the learner may not see)."""
        if self.to_act != self.human:
            return None
        return make_bot("heuristic", seed=0).choose(view(self.state, self.human))

    def save(self, folder: str | Path = SAVE_FOLDER, name: str | None = None) -> Path:
        """Save the record (with the cursor) as JSON in ``folder``; returns the path."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / (name or f"play_{self.human}_{time.strftime('%Y%m%d-%H%M%S')}.json")
        record, current = self._line_first()
        save_game(record, path, current=current)
        return path

    def _line_first(self) -> tuple[GameRecord, int]:
        """A copy of the record whose first variation at every node is the line played last (a save keeps nodes
        in creation order, so the replay browser's main line is the line the learner kept, undone lines after)."""
        copy = GameRecord(self.record.config)
        ids = {self.record.root: copy.root}
        for node_id in (*self.record.path(self.node), *sorted(self.record.node_ids)):
            node = self.record.node(node_id)
            if node_id not in ids and node.parent is not None and node.action is not None:  # every node but the root
                ids[node_id] = copy.add_move(ids[node.parent], node.action)
        return copy, ids[self.node]

    # --- battle odds ---------------------------------------------------------------------------------------
    def plan_odds(self, plan: Action) -> Odds | None:
        """Exact chance that ``plan`` wins against every plan the opponent could set, from what the learner sees:
        the opponent's leaders and tokens are public; any weapon or defence could be in a non-empty hand. The
        traitor calls, asked after the plans, are not counted. ``None`` outside a battle plan."""
        from dunenb.analysis.battle_odds import win_probabilities
        from dunenb.battle.cards import DEFENCES, WEAPONS
        from dunenb.battle.resolve import resolve_battle
        from dunenb.rules import battle_context, battle_phase

        state = self.state
        if state.pending is None or state.pending.kind != "battle-plan" or plan.kind != "plan":
            return None
        ctx = battle_context.context_of(state)
        opponent = ctx.opponent(self.human)
        hand = state.houses[opponent].hand
        could = tuple(c for c in (*WEAPONS, *DEFENCES) if c != "worthless") if hand else ()
        imagined = dataclasses.replace(
            state, pending=dataclasses.replace(state.pending, actor=opponent),
            houses=state.houses.set(opponent, dataclasses.replace(state.houses[opponent], hand=could)))
        plan_menu = battle_phase.HANDLERS["battle-plan"].decisions
        assert plan_menu is not None  # battle-plan is a decision node
        theirs = [p for p in plan_menu(imagined) if p.kind == "plan"]
        odds = []
        for other in theirs:
            trial = dataclasses.replace(ctx, plans=((self.human, plan), (opponent, other)), calls=())
            battle = battle_phase.battle_of(state, trial)
            odds.append(win_probabilities(resolve_battle(battle)).get(self.human, 0.0))
        if not odds:
            return None
        return Odds(len(odds), min(odds), sum(odds) / len(odds), max(odds), tuple(odds))
