"""Notebook 05: the secondary leaders' powers in plain words, and the engine's answers to "who is strong in
deserts?" and "who kills Paul?" (issue 11 item 5).

The widget draws only what :mod:`dunenb.analysis.leader_finder` returns.

>>> finder = LeaderFinder()
>>> finder.house.value = "fremen"
>>> "FREMEN-L01-a" in finder.powers_html.value and "HARKONNEN-L01" not in finder.powers_html.value
True
>>> finder.target.value = "harkonnen:vladimir"
>>> "ATREIDES-L06-c" in finder.facing_html.value
True
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from dunenb.analysis.leader_finder import TERRAINS, Facing, PowerRow, TerrainValue, facing, power_rows, strong_in
from dunenb.battle.colours import house_colour
from dunenb.battle.roster import load_roster
from dunenb.powers.leader_effects import K_NUMBER
from dunenb.ruleset import load_ruleset

_CELL = "padding:2px 8px;text-align:left;vertical-align:top"
#: The opposing leaders offered in "against" besides the main leaders: characters the conditions name (LC-4),
#: as (leader id, House).
CHARACTERS: tuple[tuple[str, str], ...] = (("feyd-rautha", "harkonnen"), ("leto-ii", "atreides"),
                                           ("alia", "atreides"), ("jessica", "bene-gesserit"))


def _table(head: list[str], rows: list[list[str]]) -> str:
    header = "".join(f"<th style='{_CELL};border-bottom:1px solid #999'>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td style='{_CELL}'>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table style='border-collapse:collapse;font-size:13px'><thead><tr>{header}</tr></thead>" \
           f"<tbody>{body}</tbody></table>"


def _house_cell(house_id: str, house: str) -> str:
    colour = escape(house_colour(house_id))
    return f"<span style='border-left:8px solid {colour};padding-left:4px'>{escape(house)}</span>"


def powers_html(rows: tuple[PowerRow, ...], limit: int = 60) -> str:
    """The powers as a table (the first ``limit`` rows, with a count)."""
    shown = rows[:limit]
    table = _table(["House", "leader", "power", "kind", "what it does", "in this version"], [[
        _house_cell(r.house_id, r.house), f"{escape(r.leader)} ({r.strength})", f"<b>{escape(r.power)}</b>",
        escape(r.kind), escape(r.words), "✔ plays" if r.plays else "<i>not yet</i>"] for r in shown])
    more = f" (the first {limit} shown: narrow the filter)" if len(rows) > limit else ""
    return f"<div style='font-size:13px;margin:4px 0'>{len(rows)} powers{more}</div>{table}"


def facing_html(target: str, rows: tuple[Facing, ...]) -> str:
    """Who changes a fight against ``target``: kills first, then the largest value changes."""
    if not rows:
        return f"<div style='font-size:13px'>No secondary leader's power names {escape(target)}.</div>"

    def change(value: int) -> str:
        return "-" if value == 0 else f"{value:+d}"

    table = _table(["House", "leader", "kills him", "leader's value", f"{target}'s value", "powers", "e.g. in"], [[
        _house_cell(r.house_id, r.house), f"{escape(r.leader)} ({r.strength})",
        f"<b>{escape(r.kill)}</b>" if r.kill else "-", change(r.own_change), change(r.target_change),
        escape(", ".join(r.powers)), escape(r.where)] for r in rows])
    return (f"<div style='font-size:13px;margin:4px 0'>Against {escape(target)}: value changes compared with an "
            f"opposing leader no power names, where the change is largest.</div>{table}")


def strong_in_figure(terrain: str, rows: tuple[TerrainValue, ...]):
    """A titled horizontal bar chart: each leader's best value in ``terrain`` (House colour) beside his best
    value elsewhere in the same role (grey)."""
    from bqplot import Axis, Bars, Figure, LinearScale, OrdinalScale

    from dunenb.render.ticks import integer_ticks

    labels = [f"{r.leader} ({r.house})" for r in rows] or ["(nobody)"]
    here = [r.high for r in rows] or [0]
    elsewhere = [r.elsewhere for r in rows] or [0]
    ticks = integer_ticks(0, max(here + elsewhere) + 1)
    y, x = OrdinalScale(reverse=True), LinearScale(min=0, max=ticks[-1])
    marks = [
        Bars(x=labels, y=elsewhere, scales={"x": y, "y": x}, orientation="horizontal", colors=["#cccccc"],
             labels=["elsewhere"], padding=0.25),
        Bars(x=labels, y=here, scales={"x": y, "y": x}, orientation="horizontal", padding=0.55,
             colors=[house_colour(r.house_id) for r in rows] or ["#cccccc"], labels=[f"in {terrain}"]),
    ]
    height = max(220, 28 * len(labels) + 90)
    return Figure(marks=marks, title=f"Strong in the {terrain}: wheel value there (colour) and elsewhere (grey)",
                  axes=[Axis(scale=y, orientation="vertical", label="leader", label_offset="210px"),
                        Axis(scale=x, label="wheel value", tick_values=ticks, tick_format="d")],
                  fig_margin={"top": 60, "bottom": 50, "left": 230, "right": 20},
                  layout=widgets.Layout(width="760px", height=f"{height}px"))


class LeaderFinder:
    """Three tabs: every power with filters; who is strong in a terrain; who changes a fight against a leader."""

    def __init__(self) -> None:
        names = {house.id: house.name for house in load_ruleset().houses}
        roster = load_roster()
        self.house = widgets.Dropdown(options=[("all Houses", "all")] + sorted((n, h) for h, n in names.items()),
                                      value="all", description="House")
        self.kind = widgets.Dropdown(options=[("all kinds", "")] + [(f"{k} {kind}", kind)
                                                                     for kind, k in K_NUMBER.items()],
                                     value="", description="kind")
        self.words = widgets.Text(value="", description="words", placeholder="e.g. poison, Paul, desert")
        self.powers_html = widgets.HTML()
        self.terrain = widgets.ToggleButtons(options=list(TERRAINS), value="desert", description="terrain")
        self.chart = widgets.Box()
        targets = [leader for leader in roster.leaders if leader.main and leader.house]
        targets += [roster.find(name, house=house) for name, house in CHARACTERS]
        self.target = widgets.Dropdown(options=[(f"{t.name} ({names[t.house or '']})", t.key) for t in targets],
                                       value="atreides:paul", description="against")
        self.facing_html = widgets.HTML()
        for control in (self.house, self.kind, self.words):
            control.observe(lambda _change: self.show_powers(), names="value")
        self.terrain.observe(lambda _change: self.show_terrain(), names="value")
        self.target.observe(lambda _change: self.show_facing(), names="value")
        tabs = widgets.Tab(children=[
            widgets.VBox([widgets.HBox([self.house, self.kind, self.words]), self.powers_html]),
            widgets.VBox([self.terrain, self.chart]),
            widgets.VBox([self.target, self.facing_html]),
        ])
        for index, title in enumerate(("Every power", "Strong in a terrain", "Against a leader")):
            tabs.set_title(index, title)
        self.widget = tabs
        self.show_powers()
        self.show_terrain()
        self.show_facing()

    def show_powers(self) -> None:
        self.powers_html.value = powers_html(power_rows(self.house.value, self.kind.value or None, self.words.value))

    def show_terrain(self) -> None:
        self.chart.children = (strong_in_figure(self.terrain.value, strong_in(self.terrain.value)),)

    def show_facing(self) -> None:
        house, name = self.target.value.split(":", 1)
        leader = load_roster().find(name, house=house)
        self.facing_html.value = facing_html(leader.name, facing(name, house))

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
