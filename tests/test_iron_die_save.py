"""Saves: save -> load -> replay equality and strict validation of malformed saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dunenb.errors import SaveFormatError
from dunenb.iron_die.bots import NaiveBot, OptimalBot
from dunenb.iron_die.engine import advance, apply_action, new_game, propose_chance
from dunenb.iron_die.save import SAVE_FORMAT, from_save, load_game, replay, save_game, to_save
from dunenb.iron_die.simulate import play_game
from dunenb.jsonio import read_json


def test_finished_game_save_load_replay(tmp_path: Path) -> None:
    final = play_game(["Stark", "Lannister", "Tyrell"], 7, [OptimalBot(), NaiveBot(), NaiveBot()])
    path = tmp_path / "games" / "game.json"
    save_game(path, final)
    data = read_json(path)
    assert data["format"] == SAVE_FORMAT and data["players"] == ["Stark", "Lannister", "Tyrell"]
    assert data["seed"] == 7 and len(data["actions"]) == len(final.actions)
    loaded = load_game(path)
    assert loaded == final
    assert replay(final.players, final.seed, final.actions) == final
    assert not list(path.parent.glob(".*.tmp"))  # the atomic write left no temporary file


def test_unfinished_game_continues_identically_after_loading(tmp_path: Path) -> None:
    state = new_game(["A", "B"], seed=5)
    bot = OptimalBot()
    for _ in range(25):
        state = advance(state)
        state = apply_action(state, bot.choose(state))
    path = tmp_path / "mid.json"
    save_game(path, state)
    loaded = load_game(path)
    assert loaded == state
    # the generator state travels through the save: the game continues with the same dice
    while not state.is_chance:
        state = apply_action(state, bot.choose(state))
        loaded = apply_action(loaded, bot.choose(loaded))
    assert propose_chance(loaded) == propose_chance(state)
    assert advance(loaded) == advance(state)


def test_replay_uses_recorded_dice_not_new_rolls() -> None:
    state = new_game(["A", "B"], seed=1)
    state = apply_action(state, propose_chance(state))
    from dunenb.iron_die.actions import Roll

    forced = apply_action(state, Roll((1, 1, 1, 1, 1)))  # not what the generator proposes
    loaded = from_save(json.loads(json.dumps(to_save(forced))))
    assert loaded.dice == (1, 1, 1, 1, 1) and loaded == forced


def _base() -> dict:
    state = advance(new_game(["A", "B"], seed=3))
    return to_save(state)


MALFORMED = [
    (lambda s: [], "save/type", "save: expected a JSON object with fields format, players, seed, actions"),
    (lambda s: {k: v for k, v in s.items() if k != "seed"}, "save/missing-field", "seed: missing"),
    (lambda s: {**s, "extra": 1}, "save/unknown-field", "extra: unknown field (allowed: format, players"),
    (lambda s: {**s, "format": "dunenb.iron-die/2"}, "save/format", "format: expected 'dunenb.iron-die/1'"),
    (lambda s: {**s, "players": ["A"]}, "save/players", "players: expected a list of 2 or more distinct"),
    (lambda s: {**s, "players": ["A", "A"]}, "save/players", "players:"),
    (lambda s: {**s, "players": "A,B"}, "save/players", "players:"),
    (lambda s: {**s, "seed": "3"}, "save/seed", "seed: expected a non-negative integer"),
    (lambda s: {**s, "seed": True}, "save/seed", "seed:"),
    (lambda s: {**s, "actions": {}}, "save/actions", "actions: expected a list"),
    (
        lambda s: {**s, "actions": [{"type": "jump"}]},
        "save/action",
        "actions[0].type: 'jump' is not allowed (allowed: first, roll, keep, stand, declare)",
    ),
    (lambda s: {**s, "actions": ["stand"]}, "save/action", "actions[0]: expected an object"),
    (lambda s: {**s, "actions": [{"type": "first"}]}, "save/action", "actions[0]: missing field 'player'"),
    (lambda s: {**s, "actions": [{"type": "stand", "x": 1}]}, "save/action", "actions[0]: unknown field 'x'"),
    (lambda s: {**s, "actions": [{"type": "first", "player": -1}]}, "save/action", "actions[0].player"),
    (
        lambda s: {**s, "actions": s["actions"][:1] + [{"type": "roll", "dice": [7, 1, 1, 1, 1]}]},
        "save/action",
        "actions[1].dice: expected a list of at most 5 faces",
    ),
    (
        lambda s: {**s, "actions": s["actions"][:1] + [{"type": "roll", "dice": [1, 1]}]},
        "save/illegal-action",
        "actions[1]: 'roll 1,1' cannot be replayed: [iron-die/bad-roll]",
    ),
    (
        lambda s: {**s, "actions": [{"type": "declare", "challenge": "love"}]},
        "save/action",
        "actions[0].challenge: 'love' is not allowed (allowed: military, faith, intrigue)",
    ),
    (
        lambda s: {**s, "actions": [{"type": "stand"}]},
        "save/illegal-action",
        "actions[0]: 'stand' cannot be replayed",
    ),
]


@pytest.mark.parametrize(("mutate", "code", "fragment"), MALFORMED)
def test_malformed_saves_name_the_field(mutate, code: str, fragment: str) -> None:  # noqa: ANN001
    with pytest.raises(SaveFormatError) as info:
        from_save(mutate(_base()))
    assert info.value.code == code
    assert fragment in info.value.message


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(SaveFormatError) as info:
        load_game(tmp_path / "missing.json")
    assert info.value.code == "file/missing"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(SaveFormatError) as info:
        load_game(bad)
    assert info.value.code == "file/json"
