"""The shipped Dune: Imperium example saves (data/games/imperium/, written by tools/make_example_games.py)
load, replay to the position they record and are seen per seat through the record view (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dunenb.cli import main
from dunenb.imperium.actions import action_from_dict
from dunenb.imperium.engine import apply_action, new_game
from dunenb.imperium.record import ImperiumConfig, ImperiumRecord
from dunenb.imperium.save import SAVE_FORMAT, load_game

GAMES = Path(__file__).resolve().parent.parent / "data" / "games" / "imperium"
SAVES = sorted(GAMES.glob("*.json"))


def test_imperium_example_saves_are_shipped():
    assert {p.name for p in SAVES} == {
        "four_leaders_heuristic.json",
        "two_players_random.json",
        "three_players_round3.json",
    }


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_imperium_example_save_replays(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == SAVE_FORMAT
    state = load_game(path)
    assert len(state.actions) == len(data["actions"])
    if path.stem == "three_players_round3":
        assert state.round == 3 and state.pending.kind == "turn"
    else:
        assert state.is_over and state.winners
    # the same actions in a record tree, seen by the first seat
    record = ImperiumRecord(ImperiumConfig(tuple(data["players"]), tuple(data["leaders"]), data["seed"]))
    leaf = record.add_line(record.root, [action_from_dict(a) for a in data["actions"]])
    assert record.state_at(leaf) == state
    assert isinstance(record.view(0).state_at(leaf)["players"][1]["hand"], int)


def test_imperium_example_four_leaders_uses_the_powers():
    data = json.loads((GAMES / "four_leaders_heuristic.json").read_text(encoding="utf-8"))
    state = new_game(data["players"], data["seed"], data["leaders"])
    assert state.leaders == ("paul_atreides", "vladimir_harkonnen", "helena_richese", "leto_atreides")
    asked = set()
    for raw in data["actions"]:
        asked.add(state.pending.kind)
        state = apply_action(state, action_from_dict(raw))
    assert {"peek", "secret_factions", "reserve"} <= asked  # Prescience, Masterstroke, Manipulate (IMP-GAP-33..36)
    assert state.players[1].used_powers == ("masterstroke",)


def test_imperium_example_save_through_the_cli(capsys):
    assert main(["imperium", "replay", "--save", str(GAMES / "two_players_random.json"), "--seat", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat"] == 1 and out["phase"] == "over" and isinstance(out["players"][0]["hand"], int)
