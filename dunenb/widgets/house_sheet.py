"""Notebook 05: pick a House, read its sheet, and see each implemented power with and without it (issue 10 item 8).

The widget draws only what :mod:`dunenb.analysis.house_sheet` returns (the sheet from the data, the scenes played
by the engine) with the SVG map of :func:`dunenb.render.render_svg`.

>>> viewer = HouseSheetViewer("guild", scenes_shown=False)
>>> "Guild" in viewer.sheet_html.value and "GUILD-P2" in viewer.sheet_html.value
True
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets
import pandas as pd

from dunenb.action_text import describe
from dunenb.analysis.house_sheet import HouseSheet, PowerScene, house_ids, house_sheet, scenes
from dunenb.render.svg import render_svg
from dunenb.ruleset import load_ruleset

DEFAULT_HOUSE = "atreides"
_CELL = "padding:2px 8px;text-align:left;vertical-align:top"


def _table(head: list[str], rows: list[list[str]]) -> str:
    header = "".join(f"<th style='{_CELL};border-bottom:1px solid #999'>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td style='{_CELL}'>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table style='border-collapse:collapse;font-size:13px'><thead><tr>{header}</tr></thead>" \
           f"<tbody>{body}</tbody></table>"


def powers_frame(sheet: HouseSheet) -> pd.DataFrame:
    """The House's powers as a table: id, name, kind, status, the Karama uses that block it."""
    return pd.DataFrame([{"power": p.id, "name": p.name, "kind": p.kind, "status": p.status,
                          "blocked by": ", ".join(f"{k.karama} ({k.moment}, {k.lasts})" for k in p.karama) or "-"}
                         for p in sheet.powers])


def sheet_html(sheet: HouseSheet) -> str:
    """The sheet: start, powers (with their rule text), the Karama uses against them, the leaders."""
    colour = escape(sheet.colour)
    title = (f"<h3 style='margin:4px 0;color:{colour};border-left:10px solid {colour};padding-left:8px'>"
             f"{escape(sheet.name)}: the House sheet</h3>")
    start = _table(["spice", "tokens", "start on the map", "harvesters", "free cards", "main leader"], [[
        str(sheet.spice), f"{sheet.tokens}" + (f" ({sheet.marked} marked)" if sheet.marked else ""),
        escape("; ".join(sheet.start)), str(sheet.harvesters), str(sheet.free_cards), escape(sheet.main_leader)]])
    powers = _table(["power", "name", "kind", "status", "what it does", "blocked by (Karama)"], [[
        f"<b>{escape(p.id)}</b>", escape(p.name), escape(p.kind),
        "✔ implemented" if p.status == "implemented" else "<i>not yet</i>", escape(p.rule),
        "<br>".join(f"{escape(k.karama)}: at {escape(k.moment)}, for the {escape(k.lasts)}"
                    + ("" if k.status == "implemented" else " <i>(not yet)</i>") for k in p.karama) or "-"]
        for p in sheet.powers])
    leaders = ", ".join(f"{'<b>' if leader.main else ''}{escape(leader.name)} ({leader.strength})"
                        f"{' — main leader</b>' if leader.main else ''}" for leader in sheet.leaders)
    return (f"{title}<h4 style='margin:6px 0 2px'>Start</h4>{start}"
            f"<h4 style='margin:8px 0 2px'>House and main-leader powers</h4>{powers}"
            f"<h4 style='margin:8px 0 2px'>Leaders (strength)</h4><div style='font-size:13px'>{leaders}</div>")


def _map(title: str, state, colour: str) -> str:
    return (f"<div style='flex:0 0 auto'><div style='font-weight:bold;font-size:14px;color:{colour}'>"
            f"{escape(title)}</div>{render_svg(state)}</div>")


def scene_html(scene: PowerScene, name: str, colour: str) -> str:
    """One scene: where and what was played, what the power changed, the two maps side by side."""
    head = (f"<h4 style='margin:10px 0 2px;color:{escape(colour)}'>{escape(scene.power)} {escape(name)}</h4>"
            f"<div style='font-size:13px'>Shipped game <code>{escape(scene.game)}</code>, turn {scene.turn}, "
            f"{escape(scene.phase)}: "
            f"<code>{escape(scene.action.notation())}</code> — {escape(describe(scene.action))}</div>")
    changed = "".join(f"<li>{escape(line)}</li>" for line in scene.differences)
    if scene.without_power is None:
        right = _map(f"Without {scene.power}: not allowed ({scene.refused})", scene.before, "#555555")
    else:
        right = _map(f"Without {scene.power}", scene.without_power, "#555555")
    left = _map(f"With {scene.power}", scene.with_power, colour)
    return (f"{head}<ul style='margin:2px 0;font-size:13px'>{changed}</ul>"
            f"<div style='display:flex;gap:12px;overflow-x:auto'>{left}{right}</div>")


def powers_overview():
    """A titled bar chart: per House, its powers that this version plays and those not yet (House colours)."""
    from bqplot import Axis, Bars, Figure, LinearScale, OrdinalScale

    from dunenb.battle.colours import house_colour
    from dunenb.render.ticks import integer_ticks

    names, done, later, colours = [], [], [], []
    for house in house_ids():
        sheet = house_sheet(house)
        names.append(sheet.name)
        done.append(len(sheet.implemented))
        later.append(len(sheet.powers) - len(sheet.implemented))
        colours.append(house_colour(house))
    ticks = integer_ticks(0, max(d + n for d, n in zip(done, later, strict=True)) + 1)
    x, y = OrdinalScale(), LinearScale(min=0, max=ticks[-1])  # the axis ends on its last tick
    implemented = Bars(x=names, y=done, scales={"x": x, "y": y}, colors=colours, labels=["implemented"],
                       tooltip=None)
    not_yet = Bars(x=names, y=[d + n for d, n in zip(done, later, strict=True)], scales={"x": x, "y": y},
                   colors=["#dddddd"], labels=["not yet"], opacities=[0.9])
    return Figure(marks=[not_yet, implemented], title="Powers per House: implemented (House colour) and not yet (grey)",
                  axes=[Axis(scale=x, label="House"),
                        Axis(scale=y, orientation="vertical", label="powers", tick_values=ticks,
                             tick_format="d")],
                  fig_margin={"top": 60, "bottom": 50, "left": 60, "right": 20},
                  layout=widgets.Layout(width="760px", height="340px"))


class HouseSheetViewer:
    """A House picker, the sheet, and one scene per implemented power (``scenes_shown=False``: the sheet only)."""

    def __init__(self, house: str = DEFAULT_HOUSE, *, scenes_shown: bool = True) -> None:
        names = {h.id: h.name for h in load_ruleset().houses}
        self.scenes_shown = scenes_shown
        self.picker = widgets.Dropdown(options=[(names[h], h) for h in house_ids()], value=house,
                                       description="House")
        self.sheet_html = widgets.HTML()
        self.scenes_html = widgets.HTML()
        self.picker.observe(lambda _change: self.show(), names="value")
        self.widget = widgets.VBox([self.picker, self.sheet_html, self.scenes_html])
        self.show()

    @property
    def sheet(self) -> HouseSheet:
        return house_sheet(self.picker.value)

    def show(self) -> None:
        sheet = self.sheet
        self.sheet_html.value = sheet_html(sheet)
        if not self.scenes_shown:
            self.scenes_html.value = ""
            return
        found = scenes(sheet.house)
        names = {p.id: p.name for p in sheet.powers}
        parts = [f"<h3 style='margin:12px 0 2px'>{escape(sheet.name)}: each implemented power, with and "
                 f"without it</h3><div style='font-size:13px'>The same step of a shipped game, played as "
                 f"recorded and with the power blocked as a Karama blocks it (GAP-72).</div>"]
        parts += [scene_html(scene, names[pid], sheet.colour) for pid, scene in found.items() if scene is not None]
        missing = [pid for pid, scene in found.items() if scene is None]
        if missing:
            parts.append(f"<div style='font-size:13px;margin-top:6px'><i>No step of the shipped games shows "
                         f"{escape(', '.join(missing))}.</i></div>")
        self.scenes_html.value = "".join(parts)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
