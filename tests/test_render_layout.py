"""The map layout (issue 12): a pure function shared by the SVG and the bqplot maps, checked box by box."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from dunenb.battle.colours import house_colour
from dunenb.render.geometry import SPICE_COLOUR
from dunenb.render.layout import (
    MIN_TEXT_PX,
    Box,
    boxes_overlap,
    map_layout,
    overlapping_pairs,
    px_per_unit,
    text_colour_on,
)
from dunenb.ruleset import load_ruleset
from dunenb.saves import load_game

GAMES = sorted((Path(__file__).resolve().parent.parent / "data" / "games").glob("*.json"))


@cache
def _crowded_states(path: Path) -> tuple:
    """The three states of a shipped game with the most armies and spice deposits on the map."""
    record = load_game(path)
    scored = []
    for node in record.mainline()[::2]:
        state = record.state_at(node)
        scored.append((len(state.forces) + len(state.spice_on_map), node, state))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return tuple(state for _, _, state in scored[:3])


def test_boxes_overlap_is_exact_for_rotated_boxes() -> None:
    flat = Box(0.0, 0.0, 2.0, 0.2)
    assert boxes_overlap(flat, Box(0.0, 0.0, 2.0, 0.2, 90.0))  # a cross
    assert not boxes_overlap(flat, Box(0.0, 0.5, 2.0, 0.2))  # one above the other
    # diagonal neighbours whose axis-aligned hulls overlap but whose rotated boxes do not
    assert not boxes_overlap(Box(0.0, 0.0, 2.0, 0.2, 45.0), Box(0.3, -0.3, 2.0, 0.2, 45.0))


def test_board_labels_do_not_overlap_and_show_every_name_and_sector_number() -> None:
    layout = map_layout(None)
    assert overlapping_pairs(layout.boxes()) == []
    sectors = sorted(int(t.text) for t in layout.texts if t.role == "sector")
    assert sectors == list(range(1, 25))
    names = {t.key.split("#")[0] for t in layout.texts if t.role == "name"}
    assert len(names) == 31
    assert min(t.font_px for t in layout.texts) >= MIN_TEXT_PX


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_crowded_positions_of_the_shipped_saves_have_no_overlapping_boxes(path: Path) -> None:
    for state in _crowded_states(path):
        layout = map_layout(state)
        assert overlapping_pairs(layout.boxes()) == []
        armies = [m for m in layout.markers if m.role == "army"]
        assert len(armies) == len(state.forces)
        assert sorted(int(m.label) for m in armies) == sorted(t.total for t in state.forces.values())


@pytest.mark.parametrize("path", GAMES[:1], ids=[p.stem for p in GAMES[:1]])
def test_layout_is_the_same_at_other_scales_without_overlaps(path: Path) -> None:
    state = _crowded_states(path)[0]
    for pixels in (620, 700):  # the default and larger (11-px names need at least the default size)
        assert overlapping_pairs(map_layout(state, scale=px_per_unit(pixels)).boxes()) == []


def test_names_never_move_between_two_states() -> None:
    states = _crowded_states(GAMES[0])
    names = [[t for t in map_layout(s).texts if t.role == "name"] for s in states]
    assert names[0] == names[1] == names[2]


def test_house_colours_are_distinct_from_each_other_and_from_spice() -> None:
    colours = [house_colour(h.id) for h in load_ruleset().houses]
    assert len(set(colours)) == len(colours)
    assert SPICE_COLOUR not in colours

    def rgb(colour: str) -> tuple[int, ...]:
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))

    for colour in colours:  # far from the spice orange in plain RGB distance
        assert sum((a - b) ** 2 for a, b in zip(rgb(colour), rgb(SPICE_COLOUR), strict=True)) ** 0.5 > 120, colour


def test_token_counts_are_written_in_a_readable_colour() -> None:
    assert text_colour_on("#88ccee") == "#111111" and text_colour_on("#332288") == "#ffffff"


@pytest.mark.parametrize("low, high", [(0, 4), (1, 9), (0, 47), (2, 3), (0, 230), (5, 5)])
def test_integer_ticks_never_repeat_and_cover_the_range(low: int, high: int) -> None:
    from dunenb.render.ticks import integer_ticks

    ticks = integer_ticks(low, high)
    assert ticks == sorted(set(ticks)) and all(isinstance(t, int) for t in ticks)
    assert ticks[0] <= low and ticks[-1] >= high and len(ticks) <= 8


def test_probability_charts_run_from_0_to_100_percent() -> None:
    import pandas as pd

    from dunenb.widgets.spice_charts import worm_bars

    figure = worm_bars(pd.DataFrame({"territory": ["Erg Mineur"], "spice": [6], "p_worm": [0.52]}))
    scale = figure.axes[0].scale
    assert (scale.min, scale.max) == (0, 1) and figure.title


def test_house_colours_differ_from_the_neutral_grey_of_no_winner() -> None:
    from dunenb.battle.colours import NEUTRAL_COLOUR

    assert NEUTRAL_COLOUR not in [house_colour(h.id) for h in load_ruleset().houses]


def _legend_keys(state) -> set[str]:
    return {t.key for t in map_layout(state).texts if t.role == "legend"}


def test_legend_lists_only_what_the_picture_shows() -> None:
    """Issue 12: no second-storm, worm or spice row when the map shows none."""
    from dunenb.engine import new_game

    state = new_game(["atreides", "harkonnen"], seed=1)
    keys = _legend_keys(state)
    assert {"legend atreides", "legend harkonnen"} <= keys
    assert "legend storm 2" not in keys and "legend worm" not in keys
    assert ("legend spice" in keys) == bool(state.spice_on_map)
    assert ("legend storm" in keys) == (state.storm_main is not None)
    for path in GAMES:  # somewhere in the shipped saves: a worm, spice and the second storm get their rows
        for state in _crowded_states(path):
            keys = _legend_keys(state)
            assert ("legend worm" in keys) == any(m.role == "worm" for m in map_layout(state).markers)
            assert ("legend storm 2" in keys) == (state.storm_secondary is not None or any(
                e.kind == "storm-moved" and e.data["storm"] == "secondary" for e in state.events))
            assert ("legend spice" in keys) == bool(state.spice_on_map)


def test_layout_is_cached_per_label_set_and_callers_cannot_spoil_the_cache() -> None:
    """Issue 12 (speed): two states showing the same labels share one computed layout."""
    from dunenb.render.layout import label_set

    state = _crowded_states(GAMES[0])[0]
    first = map_layout(state)
    first.texts.clear()
    first.markers.clear()
    second = map_layout(state)
    assert second.texts and second.markers and label_set(state) == label_set(state)
    assert overlapping_pairs(second.boxes()) == []
