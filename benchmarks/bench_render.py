"""Rendering figures (issue 2): the SVG of one state, and one in-place update of the bqplot map widget."""

from __future__ import annotations

import statistics
import time

from dunenb.engine import make_config
from dunenb.play import advance
from dunenb.record import GameRecord
from dunenb.render import render_svg
from dunenb.widgets.sector_map import SectorMapWidget


def main() -> None:
    record = GameRecord(make_config(["atreides", "harkonnen", "fremen", "guild", "emperor", "bene-gesserit"],
                                    seed=7, secondary_storm=True))
    nodes = [record.root]
    for _ in range(12):
        nodes.append(advance(record, nodes[-1], until="storm-moved", seed=3))
    states = [record.state_at(n) for n in nodes]
    svg_times = []
    for _ in range(20):
        for state in states:
            start = time.perf_counter()
            render_svg(state)
            svg_times.append(time.perf_counter() - start)
    print(f"render_svg: median {statistics.median(svg_times) * 1000:.2f} ms per state "
          f"({len(render_svg(states[-1])) / 1024:.0f} KiB)")
    from dunenb.render import layout

    cold_times = []  # issue 12: the layout of a label set never seen (its cache cleared each time)
    for _ in range(5):
        for state in states:
            layout._layout_of.cache_clear()
            start = time.perf_counter()
            layout.map_layout(state)
            cold_times.append(time.perf_counter() - start)
    print(f"map_layout of a new set of labels: median {statistics.median(cold_times) * 1000:.2f} ms")
    widget = SectorMapWidget(states[0])
    update_times = []
    for _ in range(10):
        for state in states:
            start = time.perf_counter()
            widget.update(state)
            update_times.append(time.perf_counter() - start)
    print(f"SectorMapWidget.update (kernel side, one step): median {statistics.median(update_times) * 1000:.2f} ms")
    step_times = []
    node = nodes[-1]
    for _ in range(200):
        start = time.perf_counter()
        node = advance(record, node, until="step", seed=3)
        widget.update(record.state_at(node))
        step_times.append(time.perf_counter() - start)
    print(f"one step (engine + widget update): median {statistics.median(step_times) * 1000:.2f} ms")
    replay_step()


def replay_step() -> None:
    """Issue 12: one step of the replay browser (map, House table, choices) on the shipped teaching game."""
    from pathlib import Path

    from dunenb.saves import load_game
    from dunenb.widgets.replay_browser import ReplayBrowser

    record = load_game(Path(__file__).resolve().parent.parent / "data" / "games" / "teaching_game.json")
    browser = ReplayBrowser(record)
    times = []
    for index in range(100, 160):
        start = time.perf_counter()
        browser.go(index)
        times.append(time.perf_counter() - start)
    print(f"ReplayBrowser one step (kernel side): median {statistics.median(times) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
