"""The core CLI (rules map, new, replay), the SVG renderer and the bqplot map widget."""

from __future__ import annotations

import json

import pytest

from dunenb.battle.colours import house_colour
from dunenb.cli import main
from dunenb.engine import make_config
from dunenb.play import advance
from dunenb.record import GameRecord
from dunenb.render import StateSvg, render_svg
from dunenb.widgets.sector_map import SectorMapWidget


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_rules_map_json_has_the_documented_shape(capsys):
    code, out, _ = _run(capsys, "rules", "map", "--json")
    data = json.loads(out)
    assert code == 0 and data["sectors"] == 24 and len(data["areas"]) == 31
    assert data["start_positions"] == list(range(1, 25))
    for area in data["areas"]:
        assert {"id", "name", "kind", "sectors", "adjacent", "spice_sector"} <= set(area)
        assert area["kind"] in {"mountain", "desert", "city", "sietch", "pole"}
        assert (area["spice_sector"] is not None) == (area["kind"] == "desert")


def test_rules_leaders_json_lists_104_leaders(capsys):
    code, out, _ = _run(capsys, "rules", "leaders", "--json")
    leaders = json.loads(out)["leaders"]
    assert code == 0 and len(leaders) == 104 and sum(1 for leader in leaders if leader["main"]) == 8


def test_new_then_replay_to_a_step_writes_an_svg(tmp_path, capsys):
    save = tmp_path / "game.json"
    code, out, _ = _run(capsys, "new", "--houses", "atreides,fremen,guild", "--seed", "9", "--play-turns", "2",
                        "--out", str(save), "--json")
    summary = json.loads(out)
    assert code == 0 and save.exists() and summary["turn"] == 3
    svg = tmp_path / "step.svg"
    code, out, _ = _run(capsys, "replay", str(save), "--to", "10", "--svg", str(svg), "--json")
    position = json.loads(out)
    assert code == 0 and position["step"] == 10 and position["of"] == summary["step"]
    assert svg.read_text().startswith("<svg")
    assert {"turn", "phase", "pending", "storms", "spice_on_map", "houses", "forces", "events"} <= set(position)


def test_new_refuses_to_overwrite_a_save_without_force(tmp_path, capsys):
    save = tmp_path / "game.json"
    save.write_text("precious", encoding="utf-8")
    code, _, err = _run(capsys, "new", "--houses", "atreides,harkonnen", "--out", str(save))
    assert code == 2 and "cli/out-exists" in err and save.read_text() == "precious"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["new", "--houses", "atreides,spacing-guild", "--out", "x.json"], "allowed: atreides"),
        (["new", "--houses", "atreides", "--out", "x.json"], "2 to 8 Houses"),
        (["new", "--houses", "atreides,harkonnen", "--worms", "99", "--out", "x.json"], "worm_option"),
    ],
)
def test_bad_cli_arguments_name_the_field_and_the_allowed_values(tmp_path, capsys, monkeypatch, argv, needle):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, *argv)
    assert code == 2 and needle in err


def test_replay_to_out_of_range_names_the_range(tmp_path, capsys):
    save = tmp_path / "game.json"
    _run(capsys, "new", "--houses", "atreides,harkonnen", "--out", str(save))
    code, _, err = _run(capsys, "replay", str(save), "--to", "50")
    assert code == 2 and "0..0" in err


def _game_after_storm() -> tuple[GameRecord, int]:
    record = GameRecord(make_config(["atreides", "harkonnen", "fremen"], seed=4, secondary_storm=True))
    node = advance(record, record.root, until="turn")
    return record, advance(record, node, until="turn")


def test_MAP_2_svg_is_deterministic_and_shows_storms_spice_and_forces():
    record, node = _game_after_storm()
    state = record.state_at(node)
    svg = render_svg(state)
    assert svg == render_svg(state)
    assert svg.count("<polygon") >= 31 + 2  # territories + both storms
    assert "Arrakeen" in svg and house_colour("atreides") in svg  # a territory label and the Atreides colour
    for amount in state.spice_on_map.values():
        assert f">{amount}</text>" in svg
    assert StateSvg(state)._repr_svg_() == svg


def test_sector_map_widget_updates_in_place():
    record, node = _game_after_storm()
    widget = SectorMapWidget(record.state_at(record.root))
    figure, forces = widget.figure, widget.forces
    widget.update(record.state_at(node))
    assert widget.figure is figure and widget.forces is forces
    assert len(widget.forces.x) == len(record.state_at(node).forces)
    assert "turn" in widget.figure.title
