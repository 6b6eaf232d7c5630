"""Run All leaves every notebook in a clean, teachable starting state (issue 16 item 7).

A widget shown by a cell (its last line is the widget, or ``name.widget``) is the reader's: no later cell may
drive it, so after Run All every widget is where its own cell put it. Demonstration cells build widgets of their
own, or print plain outputs. This is checked from the notebooks' text (nothing is executed here; nbval runs them).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def _code_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def _shown_widget(code: str) -> str | None:
    """The variable a cell displays as its last expression (``name`` or ``name.widget``), if any."""
    try:
        body = ast.parse(code).body
    except SyntaxError:  # IPython magics: not a widget cell of ours
        return None
    last = body[-1] if body else None
    if not isinstance(last, ast.Expr):
        return None
    value = last.value
    if isinstance(value, ast.Attribute) and value.attr == "widget" and isinstance(value.value, ast.Name):
        return value.value.id
    if isinstance(value, ast.Name):
        return value.id
    return None


def _assigned_widgets(cells: list[str]) -> dict[str, int]:
    """Displayed names that the same cell assigned (so they are widgets made there, not tables read back)."""
    shown = {}
    for index, code in enumerate(cells):
        name = _shown_widget(code)
        if name and re.search(rf"^{name}\s*=\s*\S*(Browser|Stepper|Explorer|Table|Calculator|Odds|Advisor|Widget)\(",
                              code, re.MULTILINE):
            shown[name] = index
    return shown


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_no_cell_drives_a_widget_shown_above_it(path):
    cells = _code_cells(path)
    for name, index in _assigned_widgets(cells).items():
        for later, code in enumerate(cells[index + 1:], start=index + 1):
            reassigned = re.search(rf"^{name}\s*=", code, re.MULTILINE)
            assert reassigned or not re.search(rf"\b{name}\.", code), (
                f"{path.name}: code cell {later} drives `{name}`, the widget shown by code cell {index}; give the "
                "demonstration its own widget or a plain output")
            if reassigned:
                break


def test_the_replay_notebook_opens_on_the_main_line_at_its_start():
    (path,) = [p for p in NOTEBOOKS if p.name == "03_replay_and_branch.ipynb"]
    first = _code_cells(path)[0]
    assert 'load_game("../data/games/teaching_game.json")' in first
    assert first.rstrip().endswith("browser.to_start()  # open on the main line of the teaching game, at its start\n"
                                   "browser")


def test_a_replay_browser_sent_to_its_start_shows_step_0_of_the_main_line():
    from dunenb.engine import make_config
    from dunenb.play import advance
    from dunenb.record import GameRecord
    from dunenb.widgets.replay_browser import ReplayBrowser

    record = GameRecord(make_config(["atreides", "fremen"], seed=3))
    advance(record, record.root, until="turn", seed=3)
    browser = ReplayBrowser(record, seed=3)
    browser.to_start()
    assert browser.node == record.root and browser.line[-1] == record.leaf()
