"""Notebook 05 (issue 10 item 8): a House's sheet from the data, and its powers shown with and without them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dunenb.analysis.house_sheet import blocked, find_scene, house_ids, house_sheet, scenes
from dunenb.powers import holder
from dunenb.powers.registry import load_powers

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("house", house_ids())
def test_the_sheet_reads_start_powers_and_karama_uses_from_the_data(house: str) -> None:
    data = {h["id"]: h for h in json.loads((ROOT / "data" / "houses.json").read_text())["houses"]}[house]
    sheet = house_sheet(house)
    assert (sheet.spice, sheet.tokens) == (data["spice"], data["tokens"])
    declared = [spec for spec in load_powers().values() if spec.holder == house]
    assert [p.id for p in sheet.powers] == [spec.id for spec in declared]
    for row, spec in zip(sheet.powers, declared, strict=True):
        assert row.status == spec.status and [k.karama for k in row.karama] == [k.id for k in spec.karama]
        assert row.rule  # the rules reference has a text for each power
    assert sum(leader.main for leader in sheet.leaders) == 1 and sheet.main_leader


def test_GAP_72_a_blocked_power_has_no_holder() -> None:
    from dunenb.engine import new_game

    state = new_game(["guild", "atreides"], seed=1)
    assert holder(state, "GUILD-P2") == "guild" and holder(blocked(state, "GUILD-P2"), "GUILD-P2") is None


def test_GUILD_P1_scene_shows_the_landing_spice_going_to_the_guild_only_with_the_power() -> None:
    scene = find_scene("GUILD-P1")
    assert scene is not None and scene.without_power is not None
    assert scene.with_power.houses["guild"].spice > scene.without_power.houses["guild"].spice
    assert any("spice" in line for line in scene.differences)


def test_GUILD_M1_scene_is_a_landing_refused_without_the_power() -> None:
    scene = find_scene("GUILD-M1")
    assert scene is not None and scene.without_power is None and scene.refused
    assert scene.action.notation().startswith("land guild")


def test_every_house_gets_scenes_only_for_implemented_powers() -> None:
    found = scenes("guild")
    assert set(found) == {p.id for p in house_sheet("guild").implemented}
    assert sum(scene is not None for scene in found.values()) >= 3


def test_the_viewer_draws_the_sheet_and_both_maps_of_each_scene_and_follows_the_picker() -> None:
    from dunenb.widgets.house_sheet import HouseSheetViewer, powers_overview

    viewer = HouseSheetViewer("guild")
    html = viewer.scenes_html.value
    assert "With GUILD-P1" in html and "Without GUILD-P1" in html and html.count("<svg") >= 6
    assert "KARAMA-15" in viewer.sheet_html.value
    viewer.picker.value = "fremen"
    assert "Fremen" in viewer.sheet_html.value and "FREMEN-P" in viewer.scenes_html.value
    assert powers_overview().title


def test_notebook_05_is_listed_in_the_readme() -> None:
    assert (ROOT / "notebooks" / "05_houses.ipynb").exists()
    assert "`05_houses.ipynb`" in (ROOT / "README.md").read_text()
