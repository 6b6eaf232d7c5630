"""Notebook widgets for Dune: Imperium: a board that follows a game step by step, a conflict calculator,
a deck-building panel (next-hand odds) and a VP race chart. They only call :mod:`dunenb.imperium`.
"""

from __future__ import annotations

from html import escape
from typing import Any

import bqplot as bq
import ipywidgets as widgets
import pandas as pd

from dunenb.errors import DuneError, InputError
from dunenb.imperium.analysis import combat_intrigues, conflict_table, persuasion_distribution
from dunenb.imperium.describe import describe_cost, describe_effects
from dunenb.imperium.effects import victory_points
from dunenb.imperium.odds import card_odds, hand_odds
from dunenb.imperium.record import ImperiumConfig, ImperiumRecord
from dunenb.imperium.rules_data import load_rules
from dunenb.imperium.state import ImperiumState

#: One colour per seat.
SEAT_COLORS = ["#c0392b", "#2471a3", "#229954", "#b7950b"]
ICON_ORDER = ("emperor", "guild", "bene_gesserit", "fremen", "landsraad", "choam", "city")


def _seat(state: ImperiumState, seat: int) -> str:
    return f'<b style="color:{SEAT_COLORS[seat]}">{escape(state.names[seat])}</b>'


def board_html(state: ImperiumState) -> str:
    """The board as HTML: spaces by icon (cost, effects, agent, maker spice, control), the conflict, players."""
    rules = load_rules()
    rows = []
    for icon in ICON_ORDER:
        for index, space in enumerate(rules.spaces):
            if space.icon != icon:
                continue
            who = state.occupied[index]
            extra = []
            if space.maker:
                extra.append(f"bonus spice {state.bonus_spice[index]}")
            if space.control:
                holder = state.control[rules.control_spaces.index(space.id)]
                extra.append("control: " + ("-" if holder < 0 else _seat(state, holder)))
            rows.append(
                f"<tr><td>{icon}</td><td>{escape(space.name)}{' ⚔' if space.combat else ''}</td>"
                f"<td>{describe_cost(space.cost)}</td><td>{escape(describe_effects(space.effects))}</td>"
                f"<td>{'' if who < 0 else _seat(state, who)}</td><td>{'; '.join(extra)}</td></tr>"
            )
    conflict = "-"
    if state.conflict is not None:
        card = rules.conflicts[state.conflict]
        rewards = " | ".join(f"{i + 1}: {escape(describe_effects(r))}" for i, r in enumerate(card.rewards))
        conflict = f"<b>{escape(card.name)}</b> (level {card.level}) — {rewards}"
    players = []
    for seat, p in enumerate(state.players):
        leader = rules.leaders[p.leader]
        powers = escape("; ".join(f"{power.name}: {power.text}" for power in leader.powers), quote=True)
        notes = (["revealed"] if p.done else []) + [f"set aside: {rules.cards[c].name}" for c in p.reserved]
        notes += [f"{power.name} used" for power in leader.powers if power.id in p.used_powers]
        players.append(
            f"<tr><td>{_seat(state, seat)}</td><td title=\"{powers}\">{escape(leader.name)}</td>"
            f"<td>{victory_points(state, seat)}</td><td>{p.solari}/{p.spice}/{p.water}</td>"
            f"<td>{p.garrison}/{p.conflict}</td><td>{p.agents_left}</td><td>{len(p.hand)}</td>"
            f"<td>{len(p.intrigues)}</td><td>{escape('; '.join(notes))}</td></tr>"
        )
    task = state.pending
    pending = (
        "game over"
        if task is None
        else f"{task.kind}" + (f" ({escape(state.names[task.player])})" if task.player >= 0 else "")
    )
    head = "<tr>" + "".join(f"<th>{h}</th>" for h in ("icon", "space", "cost", "effects", "agent", "")) + "</tr>"
    player_head = (
        "<tr>"
        + "".join(
            f"<th>{h}</th>"
            for h in ("player", "leader", "VP", "sol/spi/wat", "garrison/conflict", "agents", "hand", "intrigues", "")
        )
        + "</tr>"
    )
    row = "".join(f"<td>{escape(state.row and rules.cards[c].name or '')}</td>" for c in state.row)
    return (
        f"<div style='font-size:12px'><b>Round {state.round}</b>, phase {state.phase}, next: {pending}<br>"
        f"Conflict: {conflict}<br>Imperium row: <table><tr>{row}</tr></table>"
        f"<table>{player_head}{''.join(players)}</table>"
        f"<table>{head}{''.join(rows)}</table></div>"
    )


def influence_chart(state: ImperiumState) -> bq.Figure:
    """Influence of each player on the four tracks (grouped bars; 2 gives a VP, 4 the alliance)."""
    rules = load_rules()
    x = bq.OrdinalScale()
    y = bq.LinearScale(min=0, max=rules.constants["influence_max"])
    bars = bq.Bars(
        x=list(rules.factions),
        y=[list(p.influence) for p in state.players],
        scales={"x": x, "y": y},
        type="grouped",
        colors=SEAT_COLORS[: len(state.players)],
        labels=list(state.names),
        display_legend=True,
    )
    axes = [bq.Axis(scale=x, label="faction"), bq.Axis(scale=y, side="left", label="influence")]
    return bq.Figure(
        marks=[bars],
        axes=axes,
        title=f"Influence tracks, round {state.round} (2 = 1 VP, 4 = alliance)",
        fig_margin={"top": 50, "bottom": 50, "left": 50, "right": 20},
        layout={"width": "520px", "height": "300px"},
    )


class ImperiumStepper:
    """Follow a recorded game with buttons (back, step, next turn, next round); the board and the influence
    chart update in place. The game lives in an :class:`~dunenb.imperium.record.ImperiumRecord`."""

    def __init__(self, final: ImperiumState) -> None:
        self.record = ImperiumRecord(ImperiumConfig(final.names, final.leaders, final.seed))
        self.record.add_line(self.record.root, final.actions)
        self.line = [self.record.root] + self.record.mainline()
        self.index = 0
        buttons = {
            "back": ("◀ Back", self.back),
            "step": ("Step ▶", self.step),
            "turn": ("Next turn ▶▶", self.next_turn),
            "round": ("Next round ▶▶▶", self.next_round),
        }
        self.buttons = {}
        for key, (label, action) in buttons.items():
            button = widgets.Button(description=label)
            button.on_click(lambda _, act=action: act())
            self.buttons[key] = button
        self.board = widgets.HTML()
        self.chart = influence_chart(self.state)
        self.widget = widgets.VBox([widgets.HBox(list(self.buttons.values())), self.chart, self.board])
        self.refresh()

    @property
    def state(self) -> ImperiumState:
        return self.record.state_at(self.line[self.index])  # type: ignore[return-value]  # an ImperiumRecord

    def _go(self, index: int) -> None:
        self.index = max(0, min(len(self.line) - 1, index))
        self.refresh()

    def back(self) -> None:
        self._go(self.index - 1)

    def step(self) -> None:
        self._go(self.index + 1)

    def _until(self, done: Any) -> None:
        index = self.index + 1
        while index < len(self.line) - 1 and not done(self.record.state_at(self.line[index])):
            index += 1
        self._go(index)

    def next_turn(self) -> None:
        """Forward to the next player decision of a turn (agent or reveal)."""
        self._until(lambda s: s.pending is not None and s.pending.kind == "turn")

    def next_round(self) -> None:
        """Forward to the first turn of the next round."""
        target = self.state.round + 1
        self._until(lambda s: s.round >= target and s.pending is not None and s.pending.kind == "turn")

    def refresh(self) -> None:
        state = self.state
        self.board.value = board_html(state)
        self.chart.marks[0].y = [list(p.influence) for p in state.players]
        self.chart.title = f"Influence tracks, round {state.round} (2 = 1 VP, 4 = alliance)"


class ConflictCalculator:
    """Troops, swords and a combat intrigue per player in; strengths, rewards and ties out (table + chart)."""

    def __init__(self, players: int = 4, conflict: str = "guild_bank_raid") -> None:
        rules = load_rules()
        options = [("none", "")] + [(f"{c} (+{n})", c) for c, n in combat_intrigues().items()]
        self.troops = [
            widgets.BoundedIntText(value=0, min=0, max=12, description=f"P{i + 1} troops") for i in range(players)
        ]
        self.swords = [widgets.BoundedIntText(value=0, min=0, max=30, description="swords") for _ in range(players)]
        self.intrigues = [widgets.Dropdown(options=options, value="", description="intrigue") for _ in range(players)]
        self.conflict = widgets.Dropdown(
            options=[(f"{c.name} ({c.level})", cid) for cid, c in rules.conflicts.items()],
            value=conflict,
            description="conflict",
        )
        x = bq.OrdinalScale()
        y = bq.LinearScale(min=0)
        self.bars = bq.Bars(
            x=[f"P{i + 1}" for i in range(players)], y=[0] * players, scales={"x": x, "y": y}, colors=["#7f8c8d"]
        )
        self.chart = bq.Figure(
            marks=[self.bars],
            title="Conflict strength (colour = reward: gold 1st, silver 2nd, bronze 3rd)",
            axes=[bq.Axis(scale=x, label="player"), bq.Axis(scale=y, side="left", label="strength")],
            fig_margin={"top": 50, "bottom": 50, "left": 50, "right": 20},
            layout={"width": "520px", "height": "300px"},
        )
        self.output = widgets.HTML()
        for control in self.troops + self.swords + self.intrigues + [self.conflict]:
            control.observe(lambda _: self.update(), names="value")
        rows = [widgets.HBox([t, s, i]) for t, s, i in zip(self.troops, self.swords, self.intrigues, strict=True)]
        self.widget = widgets.VBox([self.conflict, *rows, self.chart, self.output])
        self.update()

    def set(self, troops: list[int], swords: list[int], intrigues: list[str] | None = None) -> pd.DataFrame:
        """Set the controls from code (as a user would) and return the table."""
        for control, value in zip(self.troops, troops, strict=True):
            control.value = value
        for control, value in zip(self.swords, swords, strict=True):
            control.value = value
        for control, card in zip(self.intrigues, intrigues or [""] * len(troops), strict=True):
            control.value = card
        return self.update()

    def update(self) -> pd.DataFrame:
        table = conflict_table(
            [t.value for t in self.troops],
            [s.value for s in self.swords],
            [i.value or None for i in self.intrigues],
            self.conflict.value,
        )
        medal = {1: "#d4ac0d", 2: "#a6acaf", 3: "#ca6f1e"}
        self.bars.y = table["strength"].tolist()
        self.bars.colors = [medal.get(r, "#566573") for r in table["reward"]]
        self.output.value = table.to_html(index=False, na_rep="-")
        self.table = table
        return table


def _parse_pile(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        card, _, copies = part.partition(":")
        counts[card] = counts.get(card, 0) + (int(copies) if copies.isascii() and copies.isdigit() else 1)
    return counts


class DeckOdds:
    """The deck-building panel: deck and discard in (``card:2, card``), the exact next-hand odds out: the
    most likely hands, each card's chance to be in the hand, and the persuasion the hand would reveal."""

    def __init__(self, deck: str, discard: str = "") -> None:
        self.deck = widgets.Textarea(value=deck, description="deck", layout=widgets.Layout(width="640px"))
        self.discard = widgets.Textarea(value=discard, description="discard", layout=widgets.Layout(width="640px"))
        self.message = widgets.HTML()
        x, y = bq.OrdinalScale(), bq.LinearScale(min=0, max=1)
        self.card_bars = bq.Bars(x=[], y=[], scales={"x": x, "y": y}, colors=["#1f618d"])
        self.card_chart = bq.Figure(
            marks=[self.card_bars],
            title="P(at least one copy in the next hand)",
            axes=[
                bq.Axis(scale=x, label="card", tick_rotate=-35),
                bq.Axis(scale=y, side="left", label="probability", tick_format=".2f"),
            ],
            fig_margin={"top": 50, "bottom": 120, "left": 60, "right": 20},
            layout={"width": "640px", "height": "360px"},
        )
        px, py = bq.OrdinalScale(), bq.LinearScale(min=0)
        self.persuasion_bars = bq.Bars(x=[], y=[], scales={"x": px, "y": py}, colors=["#b9770e"])
        self.persuasion_chart = bq.Figure(
            marks=[self.persuasion_bars],
            title="Persuasion shown by the next hand (all revealed)",
            axes=[
                bq.Axis(scale=px, label="persuasion"),
                bq.Axis(scale=py, side="left", label="probability", tick_format=".2f"),
            ],
            fig_margin={"top": 50, "bottom": 50, "left": 60, "right": 20},
            layout={"width": "640px", "height": "300px"},
        )
        self.hands = widgets.HTML()
        for control in (self.deck, self.discard):
            control.observe(lambda _: self.update(), names="value")
        self.widget = widgets.VBox(
            [self.deck, self.discard, self.message, self.card_chart, self.persuasion_chart, self.hands]
        )
        self.update()

    def update(self) -> pd.DataFrame | None:
        try:
            deck, discard = _parse_pile(self.deck.value), _parse_pile(self.discard.value)
            unknown = sorted((set(deck) | set(discard)) - set(load_rules().cards))
            if unknown:
                raise InputError(
                    "imperium/card", f"unknown card {unknown[0]!r} (allowed: the ids of data/imperium.json)"
                )
            odds = hand_odds(deck, discard)
            cards = card_odds(deck, discard)
            persuasion = persuasion_distribution(deck, discard)
        except DuneError as error:
            self.message.value = f"<span style='color:#c0392b'>{escape(str(error))}</span>"
            return None
        self.message.value = (
            f"{sum(deck.values())} cards in the deck, {sum(discard.values())} in the discard: "
            f"{len(odds)} possible hands"
        )
        self.card_bars.x, self.card_bars.y = list(cards), [float(p) for p in cards.values()]
        self.persuasion_bars.x = [str(v) for v in persuasion["persuasion"]]
        self.persuasion_bars.y = persuasion["probability"].tolist()
        top = pd.DataFrame(
            [{"hand": ", ".join(h), "probability": float(p), "exact": str(p)} for h, p in list(odds)[:8]]
        )
        self.hands.value = "<b>Most likely hands</b>" + top.to_html(index=False, float_format="{:.4f}".format)
        self.top = top
        return top


def vp_race_chart(race: pd.DataFrame) -> bq.Figure:
    """Mean VP by round for each leader over simulated games (one line per leader)."""
    mean = race.groupby(["leader", "round"])["vp"].mean().unstack("round")
    x, y = bq.LinearScale(), bq.LinearScale(min=0)
    lines = bq.Lines(
        x=[list(mean.columns)] * len(mean),
        y=mean.values.tolist(),
        scales={"x": x, "y": y},
        labels=[load_rules().leaders[leader].name for leader in mean.index],
        display_legend=True,
        marker="circle",
    )
    games = race["game"].nunique()
    return bq.Figure(
        marks=[lines],
        title=f"VP race by leader: mean VP at the end of each round ({games} simulated games)",
        axes=[
            bq.Axis(scale=x, label="round", tick_format="d"),
            bq.Axis(scale=y, side="left", label="mean VP"),
        ],
        legend_location="top-left",
        fig_margin={"top": 50, "bottom": 50, "left": 60, "right": 20},
        layout={"width": "720px", "height": "420px"},
    )
