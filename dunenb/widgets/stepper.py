"""A game stepper: the sector map with buttons that move the game forward, backward, and to milestones.

It only calls :func:`dunenb.play.advance` and reads states from the record; it holds no rules.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from dunenb.action_text import describe
from dunenb.analysis.spice_map import spice_table
from dunenb.play import advance
from dunenb.record import GameRecord
from dunenb.widgets.sector_map import SectorMapWidget


class GameStepper:
    """Step through a game record with buttons; the map and the tables update in place."""

    def __init__(self, record: GameRecord, *, node: int | None = None, seed: int = 0) -> None:
        self.record = record
        self.node = record.root if node is None else node
        self.seed = seed
        self.map = SectorMapWidget(record.state_at(self.node))
        self.buttons = {
            "back": widgets.Button(description="◀ Back", tooltip="Undo one action (the line is kept)"),
            "step": widgets.Button(description="Step ▶", tooltip="Play one action", button_style="info"),
            "storm": widgets.Button(description="Move storm ▶", tooltip="Play until a storm has moved",
                                    button_style="warning"),
            "spice": widgets.Button(description="Spice blow ▶", tooltip="Play until the spice blow is done",
                                    button_style="success"),
            "turn": widgets.Button(description="Next turn ▶▶", tooltip="Play until a new turn begins"),
        }
        self.buttons["back"].on_click(lambda _: self.back())
        self.buttons["step"].on_click(lambda _: self.advance("step"))
        self.buttons["storm"].on_click(lambda _: self.advance("storm-moved"))
        self.buttons["spice"].on_click(lambda _: self.advance("spice-blow-done"))
        self.buttons["turn"].on_click(lambda _: self.advance("turn"))
        self.status = widgets.HTML()
        self.events = widgets.HTML(layout=widgets.Layout(width="360px", max_height="420px", overflow="auto"))
        self.table = widgets.Output(layout=widgets.Layout(width="360px"))
        side = widgets.HBox([widgets.VBox([self.status, self.events]), self.table])
        self.widget = widgets.VBox([widgets.HBox(list(self.buttons.values())), self.map.figure, side])
        self.refresh()

    @property
    def state(self):
        return self.record.state_at(self.node)

    def advance(self, until: str) -> None:
        self.node = advance(self.record, self.node, until=until, seed=self.seed)
        self.refresh()

    def back(self) -> None:
        parent = self.record.node(self.node).parent
        if parent is not None:
            self.node = parent
            self.refresh()

    def refresh(self) -> None:
        state = self.state
        self.map.update(state)
        waiting = "game over" if state.pending is None else f"next: {state.pending.kind} ({state.pending.actor})"
        storms = f"main storm sector {state.storm_main}"
        if state.storm_secondary is not None:
            storms += f", secondary {state.storm_secondary}"
        self.status.value = (f"<b>Step {self.record.depth(self.node)}</b> · turn {state.turn} · {escape(state.phase)}"
                             f"<br>{escape(storms)}<br><i>{escape(waiting)}</i>")
        action = self.record.node(self.node).action  # issue 16: the action in words beside its notation
        items = (f"<li><b>{escape(describe(action))}</b> <code>{escape(action.notation())}</code></li>"
                 if action is not None else "")
        items += "".join(f"<li>{escape(e.text)}</li>" for e in state.events) or "<li>(nothing yet)</li>"
        self.events.value = f"<b>What just happened</b><ul style='margin:0;padding-left:18px'>{items}</ul>"
        self.table.clear_output(wait=True)
        with self.table:
            from IPython.display import display

            frame = spice_table(state, only_with_spice=True)
            display(frame.style.hide(axis="index").set_caption("Spice on the map") if len(frame) else
                    widgets.HTML("<i>No spice on the map yet.</i>"))

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
