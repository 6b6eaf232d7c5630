"""Notebook widgets for Le Dé de Fer: a table to play against a bot, a keep advisor and bqplot charts.

Everything here is a thin layer over the engine, the solver and the bots; the notebook only calls it.

>>> dice_svg((6, 1)).count("<svg")
1
>>> die_glyph(6)
'⚅'
>>> advice_table((6, 6, 4, 4, 2), 2, "intrigue").iloc[0]["keep"]
'6,6,4,4'
"""

from __future__ import annotations

import html
from collections.abc import Iterable

import pandas as pd

from dunenb.errors import DuneError
from dunenb.iron_die.actions import Action, ChooseFirst, Declare, Keep, Roll, Stand
from dunenb.iron_die.bots import Bot, OptimalBot
from dunenb.iron_die.dice import normalise
from dunenb.iron_die.engine import apply_action, new_game, propose_chance
from dunenb.iron_die.hands import HAND_NAMES
from dunenb.iron_die.initiator import initiator_policy
from dunenb.iron_die.results import CHALLENGES, SCORE_NAMES, parse_dice, parse_result, result_of
from dunenb.iron_die.solver import KeepChoice, beat_policy, score_policy, scores
from dunenb.iron_die.state import IronDieState

#: Unicode die faces ⚀ to ⚅.
GLYPHS = "⚀⚁⚂⚃⚄⚅"
_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def die_glyph(face: int) -> str:
    """The Unicode die face for 1-6."""
    return GLYPHS[face - 1]


def dice_svg(dice: Iterable[int], kept: Iterable[bool] | None = None, size: int = 40) -> str:
    """Draw dice as one inline SVG (kept dice in green)."""
    dice = list(dice)
    flags = list(kept) if kept is not None else [False] * len(dice)
    gap = size // 5
    width = len(dice) * (size + gap)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{size + 4}" role="img">']
    for index, (face, keep) in enumerate(zip(dice, flags, strict=True)):
        x = index * (size + gap) + 2
        fill = "#d8f5d0" if keep else "#fffdf5"
        parts.append(
            f'<rect x="{x}" y="2" width="{size}" height="{size}" rx="{size // 6}" fill="{fill}" '
            'stroke="#333" stroke-width="2"/>'
        )
        for col, row in _PIPS[face]:
            cx = x + size * (0.25 + 0.25 * col)
            cy = 2 + size * (0.25 + 0.25 * row)
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size / 11:.1f}" fill="#222"/>')
    parts.append("</svg>")
    return "".join(parts)


# ------------------------------------------------------------------------------------------------ advice


def advise(
    dice: Iterable[int],
    rolls_left: int,
    challenge: str | None = None,
    target: str | None = None,
    players: int = 2,
) -> list[KeepChoice]:
    """Every keep ranked: with ``challenge=None`` for the first player (probability of winning the point),
    with a ``target`` the probability of beating it, otherwise the expected score."""
    dice = normalise(dice)
    if challenge is None:
        return initiator_policy(players).ranked_keeps(dice, rolls_left)
    if target:
        return beat_policy(challenge, parse_result(challenge, target)).ranked_keeps(dice, rolls_left)
    return score_policy(challenge).ranked_keeps(dice, rolls_left)


def advice_table(
    dice: Iterable[int],
    rolls_left: int,
    challenge: str | None = None,
    target: str | None = None,
    players: int = 2,
) -> pd.DataFrame:
    """:func:`advise` as a DataFrame: ``keep``, ``reroll``, ``value`` (float) and ``exact`` (a fraction)."""
    rows = [
        {
            "keep": ",".join(map(str, c.keep)) or "-",
            "reroll": ",".join(map(str, c.reroll)) or "-",
            "value": float(c.value),
            "exact": str(c.value),
        }
        for c in advise(dice, rolls_left, challenge, target, players)
    ]
    table = pd.DataFrame(rows, columns=["keep", "reroll", "value", "exact"])
    table.index = range(1, len(table) + 1)
    table.index.name = "rank"
    return table


def _objective(challenge: str | None, target: str | None) -> str:
    if challenge is None:
        return "P(win the point) as first player"
    if target:
        return f"P(beat {target})"
    return f"expected {challenge} score"


def advice_chart(table: pd.DataFrame, title: str, top: int = 12):  # -> bqplot.Figure
    """A horizontal bar chart of the ``top`` keeps of an :func:`advice_table`."""
    import bqplot as bq

    shown = table.head(top).iloc[::-1]
    labels = [f"keep {k}" for k in shown["keep"]]
    x = bq.OrdinalScale()
    y = bq.LinearScale(min=0.0)
    bars = bq.Bars(
        x=labels,
        y=shown["value"].tolist(),
        scales={"x": x, "y": y},
        orientation="horizontal",
        colors=["#4a7ab5"],
    )
    axes = [bq.Axis(scale=x, side="left", label="keep"), bq.Axis(scale=y, label="value")]
    return bq.Figure(
        marks=[bars],
        axes=axes,
        title=title,
        fig_margin={"top": 40, "bottom": 50, "left": 110, "right": 20},
        layout={"width": "640px", "height": "380px"},
    )


class KeepAdvisor:
    """The "what should I keep?" advisor: dice, rolls left, challenge (or first player) and target in;
    every keep ranked by its optimal value out (a table and a bar chart)."""

    def __init__(self, dice: str = "6,6,4,4,2", rolls_left: int = 2, challenge: str = "first player") -> None:
        import ipywidgets as w

        self.dice = w.Text(value=dice, description="dice")
        self.rolls_left = w.Dropdown(options=[2, 1, 0], value=rolls_left, description="rolls left")
        self.challenge = w.Dropdown(
            options=["first player", *CHALLENGES], value=challenge, description="challenge"
        )
        self.target = w.Text(value="", description="to beat", placeholder="e.g. 23, 2/4, full-house")
        self.message = w.HTML()
        self.output = w.Output()
        button = w.Button(description="What should I keep?", button_style="primary")
        button.on_click(lambda _: self.update())
        self.widget = w.VBox(
            [
                w.HBox([self.dice, self.rolls_left]),
                w.HBox([self.challenge, self.target]),
                button,
                self.message,
                self.output,
            ]
        )
        self.table = pd.DataFrame()
        self.update()

    def update(self) -> pd.DataFrame:
        """Recompute the advice from the controls; returns the table (empty on bad input)."""
        from IPython.display import display

        challenge = None if self.challenge.value == "first player" else self.challenge.value
        target = self.target.value.strip() or None
        try:
            dice = parse_dice(self.dice.value, "dice")
            if challenge is None and target:
                raise ValueError("the first player has no result to beat: clear 'to beat'")
            table = advice_table(dice, int(self.rolls_left.value), challenge, target)
        except (DuneError, ValueError) as error:
            self.message.value = f"<span style='color:#b00'>{html.escape(str(error))}</span>"
            self.table = pd.DataFrame()
            return self.table
        title = f"{dice_svg(dice, size=28)} &nbsp; {_objective(challenge, target)}"
        self.message.value = title
        self.table = table
        with self.output:
            self.output.clear_output(wait=True)
            display(table.style.format({"value": "{:.4f}"}).bar(subset=["value"], color="#9cc3e6"))
            display(advice_chart(table, _objective(challenge, target)))
        return table


# ------------------------------------------------------------------------------------------ distributions


def outcome_distribution(challenge: str) -> pd.DataFrame:
    """The distribution of the score (IRON-GAP-15) at the end of a turn under the expected-score policy."""
    weights, denominator = score_policy(challenge).final_distribution()
    frame = pd.DataFrame({"score": scores(challenge), "weight": weights})
    grouped = frame.groupby("score", as_index=False)["weight"].sum()
    grouped["probability"] = grouped["weight"] / denominator
    if challenge == "intrigue":
        grouped["label"] = [HAND_NAMES[s] for s in grouped["score"]]
    else:
        grouped["label"] = grouped["score"].astype(str)
    return grouped[["score", "label", "probability"]]


def distribution_chart(challenge: str):  # -> bqplot.Figure
    """A bqplot bar chart of :func:`outcome_distribution` (titled, labelled axes)."""
    import bqplot as bq

    table = outcome_distribution(challenge)
    expected = float(score_policy(challenge).start_value())
    x = bq.OrdinalScale()
    y = bq.LinearScale(min=0.0)
    bars = bq.Bars(
        x=table["label"].tolist(),
        y=table["probability"].tolist(),
        scales={"x": x, "y": y},
        colors=["#b5651d" if challenge == "military" else "#6a5acd" if challenge == "faith" else "#2e8b57"],
        tooltip=bq.Tooltip(fields=["x", "y"], formats=["", ".4f"], labels=["result", "probability"]),
    )
    axes = [
        bq.Axis(scale=x, label=SCORE_NAMES[challenge], tick_rotate=-30 if challenge == "intrigue" else 0),
        bq.Axis(scale=y, side="left", label="probability", tick_format=".2f"),
    ]
    return bq.Figure(
        marks=[bars],
        axes=axes,
        title=f"{challenge.capitalize()}: final result under optimal play (expected {expected:.3f})",
        fig_margin={"top": 50, "bottom": 80, "left": 60, "right": 20},
        layout={"width": "640px", "height": "340px"},
    )


# -------------------------------------------------------------------------------------------- the table


class IronDieTable:
    """Play Le Dé de Fer against a bot (the optimal one by default) with buttons.

    Click dice to toggle *keep* (green), then *Reroll the others*; *Stand* ends a challenger's turn; as
    first player, a *Declare* button ends your rolls and names the challenge. The same actions are
    methods (:meth:`toggle`, :meth:`reroll`, :meth:`stand`, :meth:`declare`) for scripted use.
    """

    def __init__(
        self, human: str = "You", opponent: str = "Optimal bot", seed: int = 0, bot: Bot | None = None
    ) -> None:
        import ipywidgets as w

        self.human_name = human
        self.opponent_name = opponent
        self.bot = bot or OptimalBot()
        self.log: list[str] = []
        self.message = ""
        self.buttons = [
            w.ToggleButton(
                description=die_glyph(1),
                tooltip="keep this die",
                layout=w.Layout(width="64px", height="64px"),
                style={"font_size": "40px"},
            )
            for _ in range(5)
        ]
        for index, button in enumerate(self.buttons):
            button.observe(lambda change, i=index: self._on_toggle(i, change), names="value")
        self.reroll_button = w.Button(description="Reroll the others", icon="refresh", button_style="primary")
        self.stand_button = w.Button(description="Stand", button_style="warning")
        self.declare_buttons = {
            c: w.Button(description=f"Declare {c}", button_style="success") for c in CHALLENGES
        }
        self.hint_box = w.Checkbox(value=False, description="show the optimal advice")
        self.new_button = w.Button(description="New game", icon="play")
        self.advice_button = w.Button(description="Play the advice", icon="magic")
        self.advice_button.on_click(lambda _: self.play_advice())
        self.reroll_button.on_click(lambda _: self.reroll())
        self.stand_button.on_click(lambda _: self.stand())
        for challenge, button in self.declare_buttons.items():
            button.on_click(lambda _, c=challenge: self.declare(c))
        self.new_button.on_click(lambda _: self.new_game(self.seed + 1))
        self.hint_box.observe(lambda _: self._refresh(), names="value")
        self.scoreboard = w.HTML()
        self.status = w.HTML()
        self.hint = w.HTML()
        self.history = w.HTML()
        self.widget = w.VBox(
            [
                self.scoreboard,
                self.status,
                w.HBox(self.buttons),
                w.HBox([self.reroll_button, self.stand_button, *self.declare_buttons.values()]),
                w.HBox([self.hint_box, self.advice_button, self.new_button]),
                self.hint,
                self.history,
            ]
        )
        self.new_game(seed)

    # ---- game flow

    @property
    def human_seat(self) -> int:
        """The human always sits in seat 0."""
        return 0

    def new_game(self, seed: int) -> None:
        """Start a new game with this seed."""
        self.seed = seed
        self.state: IronDieState = new_game([self.human_name, self.opponent_name], seed)
        self.log = [f"New game (seed {seed})."]
        self.message = ""
        self._advance()

    def _advance(self) -> None:
        state = self.state
        while not state.is_over and (state.is_chance or state.current_player != self.human_seat):
            before = state
            action = propose_chance(state) if state.is_chance else self.bot.choose(state)
            state = apply_action(state, action)
            self._narrate(before, action, state)
        self.state = state
        self._refresh()

    def _narrate(self, before: IronDieState, action: Action, after: IronDieState) -> None:
        who = html.escape(before.actor_name())
        player = before.current_player
        round_over = len(after.history) > len(before.history)
        if isinstance(action, ChooseFirst):
            self.log.append(
                f"Round {after.round_number}: {after.players[action.player]} is drawn first player."
            )
        elif isinstance(action, Roll):
            shown = normalise(before.kept + action.dice)
            self.log.append(f"{who} rolls {dice_svg(shown, size=16)}")
        elif isinstance(action, Keep):
            self.log.append(f"{who} keeps {','.join(map(str, action.dice)) or 'nothing'}")
        elif isinstance(action, Declare):
            self.log.append(f"{who} declares <b>{action.challenge}</b> with {dice_svg(before.dice, size=16)}")
        ended = (
            isinstance(action, (Stand, Roll))
            and player is not None
            and not before.is_initiator_turn
            and (round_over or after.turn != before.turn)
        )
        if ended and player is not None and before.challenge is not None:  # player: for mypy (ended says so)
            finals = dict(after.history[-1].finals if round_over else after.finals)
            result = result_of(before.challenge, finals[player])
            self.log.append(f"{who} ends with {result.notation} ({html.escape(result.describe())})")
        if round_over:
            record = after.history[-1]
            self.log.append(f"<b>{after.players[record.winner]} wins the {record.challenge} challenge.</b>")
        if after.is_over and not before.is_over:
            self.log.append(f"<b>{after.players[after.winner or 0]} wins the game!</b>")

    def _play(self, action: Action) -> bool:
        before = self.state
        try:
            after = apply_action(before, action)
        except DuneError as error:
            self.message = html.escape(str(error))
            self._refresh()
            return False
        self.message = ""
        self._narrate(before, action, after)
        self.state = after
        self._advance()
        return True

    def selection(self) -> tuple[int, ...]:
        """The dice currently toggled as kept."""
        return normalise(d for d, b in zip(self.state.dice, self.buttons, strict=False) if b.value)

    def toggle(self, index: int) -> None:
        """Toggle keeping die ``index`` (0-4)."""
        self.buttons[index].value = not self.buttons[index].value

    def reroll(self) -> bool:
        """Keep the toggled dice and reroll the others."""
        return self._play(Keep(self.selection()))

    def stand(self) -> bool:
        """End your turn as a challenger."""
        return self._play(Stand())

    def declare(self, challenge: str) -> bool:
        """End your rolls as first player and declare ``challenge``."""
        return self._play(Declare(challenge))

    def play_advice(self) -> bool:
        """Play the optimal action for you (best keep, or stop/declare); False when it is not your turn."""
        choices = self.advice()
        if not choices:
            return False
        state = self.state
        best = choices[0].keep
        if best == state.dice:
            if state.is_initiator_turn:
                return self.declare(initiator_policy(len(state.players)).declare_for(state.dice))
            return self.stand()
        remaining = list(best)
        for index, face in enumerate(state.dice):
            wanted = face in remaining
            if wanted:
                remaining.remove(face)
            self.buttons[index].value = wanted
        return self.reroll()

    def _on_toggle(self, index: int, change: dict) -> None:
        button = self.buttons[index]
        button.button_style = "success" if change["new"] else ""
        self._refresh_hint()

    # ---- display

    def _refresh(self) -> None:
        state = self.state
        names = state.players
        score = " &nbsp; ".join(
            f"<b>{html.escape(n)}</b> {'●' * p}{'○' * (5 - p)}"
            for n, p in zip(names, state.power, strict=True)
        )
        self.scoreboard.value = f"<div style='font-size:1.1em'>Power: {score}</div>"
        my_turn = state.phase == "decide" and state.current_player == self.human_seat
        initiator = my_turn and state.is_initiator_turn
        for index, button in enumerate(self.buttons):
            has_die = my_turn and index < len(state.dice)
            button.value = False
            button.button_style = ""
            button.description = die_glyph(state.dice[index]) if has_die else "·"
            button.disabled = not has_die or state.rolls_left == 0
        self.reroll_button.disabled = not my_turn or state.rolls_left == 0
        self.stand_button.disabled = not my_turn or initiator
        for button in self.declare_buttons.values():
            button.disabled = not initiator
        if state.is_over:
            winner = html.escape(names[state.winner or 0])
            text = f"<b>{winner} wins the game.</b> Press <i>New game</i> to play again."
        elif initiator:
            text = (
                f"Round {state.round_number}: you are the <b>first player</b>. "
                f"Rolls left: {state.rolls_left}. Toggle the dice to keep and reroll, or declare a challenge."
            )
        elif my_turn:
            bar = state.bar
            text = (
                f"Round {state.round_number}: challenge <b>{state.challenge}</b>; beat "
                f"<b>{bar.notation if bar else '?'}</b> ({bar.describe() if bar else ''}). "
                f"Rolls left: {state.rolls_left}."
            )
        else:
            text = "Waiting..."
        if self.message:
            text += f"<br><span style='color:#b00'>{self.message}</span>"
        self.status.value = text
        self.history.value = "<br>".join(self.log[-12:])
        self._refresh_hint()

    def advice(self) -> list[KeepChoice]:
        """The optimal ranked keeps for your current decision (empty when it is not your turn)."""
        state = self.state
        if state.phase != "decide" or state.current_player != self.human_seat:
            return []
        if state.is_initiator_turn:
            return initiator_policy(len(state.players)).ranked_keeps(state.dice, state.rolls_left)
        assert state.challenge is not None and state.bar is not None
        return beat_policy(state.challenge, state.bar).ranked_keeps(state.dice, state.rolls_left)

    def _refresh_hint(self) -> None:
        if not self.hint_box.value:
            self.hint.value = ""
            return
        choices = self.advice()
        if not choices:
            self.hint.value = ""
            return
        state = self.state
        best = choices[0]
        selected = self.selection()
        mine = next((c for c in choices if c.keep == selected), None)
        if best.keep == state.dice:
            tip = "stop here" + (
                f" and declare <b>{initiator_policy(len(state.players)).declare_for(state.dice)}</b>"
                if state.is_initiator_turn
                else ""
            )
        else:
            tip = f"keep <b>{','.join(map(str, best.keep)) or 'nothing'}</b>"
        text = f"Optimal: {tip} (probability {float(best.value):.3f})"
        if mine is not None and mine.keep != best.keep:
            text += f"; your selection: {float(mine.value):.3f}"
        self.hint.value = text
