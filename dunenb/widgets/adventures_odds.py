"""Sliders over the exact odds of a 2d20 skill test: the distribution of successes and the chance to pass.

The explorer holds no rules: slider bounds come from the rules constants (:func:`dunenb.adventures.rules.rule`)
and every number drawn comes from :func:`dunenb.adventures.odds`.

>>> explorer = SkillTestExplorer(skill=7, drive=7, difficulty=2)
>>> explorer.set(extra_dice=3, focus=True)
>>> explorer.result.test.dice_count, round(float(explorer.chosen.y[0]), 4) == round(explorer.result.p_success(2), 4)
(5, True)
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import pandas as pd
from bqplot import Axis, Bars, Figure, LinearScale, Lines, OrdinalScale, Scatter
from pandas.io.formats.style import Styler

from dunenb.adventures import TestOdds, odds
from dunenb.adventures.rules import rule
from dunenb.adventures.skill_test import Assist

#: Most helpers offered by the slider (the rules set no limit, 2D20-GAP-6).
MAX_HELPERS = 3

#: Chart colours: sand for the successes, dark brown for the pass curve, red for the chosen difficulty.
SUCCESS_COLOUR, PASS_COLOUR, CHOSEN_COLOUR = "#c2803a", "#5a3e1b", "#c0392b"
_STYLE = {"description_width": "90px"}
_MARGIN = {"top": 60, "bottom": 60, "left": 80, "right": 20}


class SkillTestExplorer:
    """Sliders for skill, drive, bought dice, difficulty and complication range, a focus toggle, a summary line
    and two charts: P(successes = s) and P(pass) against difficulty (a dot marks the chosen difficulty).

    ``controls`` holds the controls by name (``skill``, ``drive``, ``extra_dice``, ``difficulty``,
    ``complication_range``, ``focus``, ``auto_one``, ``helpers``, ``helper_skill``, ``helper_drive``); setting a
    value from code updates the charts as the mouse would. Helpers each roll one die against their own skill +
    drive (seed line 352); the automatic 1 is the Determination spend.
    """

    def __init__(self, skill: int = 7, drive: int = 7, *, extra_dice: int = 0, difficulty: int = 2,
                 complication_range: int = 1, focus: bool = False, auto_one: bool = False, helpers: int = 0,
                 helper_skill: int = 6, helper_drive: int = 6) -> None:
        def slider(value: int, low: str, high: str, description: str) -> widgets.IntSlider:
            return widgets.IntSlider(value=value, min=rule(low), max=rule(high), description=description,
                                     style=_STYLE)

        self.controls: dict[str, widgets.ValueWidget] = {
            "skill": slider(skill, "skill_min", "skill_max", "Skill"),
            "drive": slider(drive, "drive_min", "drive_max", "Drive"),
            "extra_dice": widgets.IntSlider(value=extra_dice, min=0, max=rule("max_extra_dice"),
                                            description="Extra dice", style=_STYLE),
            "difficulty": slider(difficulty, "difficulty_min", "difficulty_max", "Difficulty"),
            "complication_range": slider(complication_range, "complication_range_min", "complication_range_max",
                                         "Compl. range"),
            "focus": widgets.ToggleButton(value=focus, description="Focus applies"),
            "auto_one": widgets.ToggleButton(value=auto_one, description="Automatic 1"),
            "helpers": widgets.IntSlider(value=helpers, min=0, max=MAX_HELPERS, description="Helpers",
                                         style=_STYLE),
            "helper_skill": slider(helper_skill, "skill_min", "skill_max", "Helper skill"),
            "helper_drive": slider(helper_drive, "drive_min", "drive_max", "Helper drive"),
        }
        self.summary = widgets.HTML()
        difficulties = list(range(rule("difficulty_min"), rule("difficulty_max") + 1))

        x_successes, y_probability = OrdinalScale(), LinearScale(min=0.0, max=1.0)
        self.success_bars = Bars(x=["0"], y=[0.0], scales={"x": x_successes, "y": y_probability},
                                 colors=[SUCCESS_COLOUR])
        self.success_figure = Figure(
            marks=[self.success_bars], title="Distribution of successes",
            axes=[Axis(scale=x_successes, label="successes"),
                  Axis(scale=y_probability, side="left", label="probability", tick_format=".0%",
                       label_offset="55px")],
            fig_margin=_MARGIN, layout=widgets.Layout(width="480px", height="340px"),
        )

        x_difficulty = LinearScale(min=difficulties[0], max=difficulties[-1])
        y_pass = LinearScale(min=0.0, max=1.0)
        self.pass_line = Lines(x=difficulties, y=[0.0] * len(difficulties), scales={"x": x_difficulty, "y": y_pass},
                               colors=[PASS_COLOUR], marker="circle", marker_size=24)
        self.chosen = Scatter(x=[difficulty], y=[0.0], scales={"x": x_difficulty, "y": y_pass},
                              colors=[CHOSEN_COLOUR], default_size=90)
        self.pass_figure = Figure(
            marks=[self.pass_line, self.chosen], title="Chance to pass against difficulty",
            axes=[Axis(scale=x_difficulty, label="difficulty", tick_values=difficulties),
                  Axis(scale=y_pass, side="left", label="P(pass)", tick_format=".0%",
                       label_offset="55px")],
            fig_margin=_MARGIN, layout=widgets.Layout(width="480px", height="340px"),
        )

        for control in self.controls.values():
            control.observe(self.refresh, names="value")
        self.refresh()
        c = self.controls
        self.widget = widgets.VBox([
            widgets.HBox([c["skill"], c["drive"], c["extra_dice"]]),
            widgets.HBox([c["difficulty"], c["complication_range"], c["focus"]]),
            widgets.HBox([c["helpers"], c["helper_skill"], c["helper_drive"], c["auto_one"]]),
            self.summary,
            widgets.HBox([self.success_figure, self.pass_figure]),
        ])

    @property
    def values(self) -> dict[str, Any]:
        """The current control values by name."""
        return {name: control.value for name, control in self.controls.items()}

    @property
    def result(self) -> TestOdds:
        """The exact odds of the test the controls describe."""
        v = self.values
        helpers = (Assist(v["helper_skill"], v["helper_drive"]),) * v["helpers"]
        return odds(v["skill"], v["drive"], v["focus"], v["extra_dice"], v["complication_range"],
                    auto_one=v["auto_one"], helpers=helpers)

    def set(self, **values: Any) -> None:
        """Set some controls by name, e.g. ``set(extra_dice=3, focus=True)``."""
        for name, value in values.items():
            self.controls[name].value = value

    def summary_table(self) -> Styler:
        """The summary line as a formatted one-row table (dice, target number, P(pass), mean Momentum,
        P(complication)); ``.data`` is the plain DataFrame."""
        result, difficulty = self.result, self.values["difficulty"]
        frame = pd.DataFrame([{
            "dice": f"{result.test.dice_count}d20" + (f" + {len(result.test.helpers)} helper(s)"
                                                       if result.test.helpers else ""),
            "target number": result.test.target, "difficulty": difficulty,
            "P(pass)": result.p_success(difficulty), "expected Momentum": result.expected_momentum(difficulty),
            "P(at least one complication)": result.p_complication(),
        }])
        return frame.style.format({"P(pass)": "{:.1%}", "expected Momentum": "{:.2f}",
                                   "P(at least one complication)": "{:.1%}"}).hide(axis="index")

    def refresh(self, _change: object = None) -> None:
        """Recompute the odds for the current controls and redraw the charts and the summary."""
        result, difficulty = self.result, self.values["difficulty"]
        successes = result.successes()
        table = result.p_success_table()
        with self.success_bars.hold_sync():
            self.success_bars.x = [str(s) for s in successes.index]
            self.success_bars.y = successes.to_numpy()
        self.pass_line.y = table.to_numpy()
        with self.chosen.hold_sync():
            self.chosen.x, self.chosen.y = [difficulty], [table[difficulty]]
        self.summary.value = (
            f"<b>{result.test.dice_count}d20 against {result.test.target}</b>: "
            f"P(pass) = {result.p_success(difficulty):.1%}, "
            f"expected Momentum = {result.expected_momentum(difficulty):.2f}, "
            f"P(at least one complication) = {result.p_complication():.1%}"
        )

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
