"""Game records (variations, mainline, replay cache) and saved games (schema, validation, atomic writes)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dunenb.actions import ChooseStart, DrawSpiceCard
from dunenb.engine import make_config, sample_chance
from dunenb.errors import IllegalActionError, InputError, SaveFormatError
from dunenb.play import advance
from dunenb.record import CHECKPOINT_EVERY, GameRecord
from dunenb.saves import load_game, record_from_dict, record_to_dict, save_game

ROOT = Path(__file__).resolve().parent.parent


def _played_record(turns: int = 4, seed: int = 3) -> tuple[GameRecord, int]:
    record = GameRecord(make_config(["atreides", "fremen", "harkonnen", "guild"], seed=seed, secondary_storm=True))
    node = record.root
    for _ in range(turns):
        node = advance(record, node, until="turn", seed=seed)
    return record, node


def test_save_load_replay_gives_the_same_state_at_every_node(tmp_path):
    record, leaf = _played_record()
    path = tmp_path / "game.json"
    save_game(record, path, current=leaf)
    loaded = load_game(path)
    assert loaded.mainline() == record.mainline()
    for node in record.mainline():
        assert loaded.state_at(node) == record.state_at(node)


def test_GAP_50_the_turns_fixed_ornithopters_are_rebuilt_by_the_replay(tmp_path):
    """GameState.ornithopters (GAP-50) is not written in saves: replaying the actions rebuilds it, node by node."""
    record, leaf = _played_record(turns=2)
    path = tmp_path / "game.json"
    save_game(record, path, current=leaf)
    assert "ornithopters" not in path.read_text(encoding="utf-8")
    loaded = load_game(path)
    fixed = [node for node in record.mainline() if record.state_at(node).ornithopters]
    assert fixed, "some node between a movement and the turn's end holds the fixed ornithopters"
    for node in fixed:
        assert loaded.state_at(node).ornithopters == record.state_at(node).ornithopters


def test_variations_are_saved_and_the_mainline_is_the_first_child(tmp_path):
    record, _leaf = _played_record(turns=2)
    spice_node = next(n for n in record.mainline() if isinstance(record.node(n).action, DrawSpiceCard)
                      and record.depth(n) > 12)
    parent = record.node(spice_node).parent
    state = record.state_at(parent)
    other = next(a for a in __import__("dunenb.engine", fromlist=["x"]).legal_actions(state)
                 if a != record.node(spice_node).action)
    branch = record.add_move(parent, other)
    advance(record, branch, until="turn")
    assert record.children(parent) == [spice_node, branch]
    save_game(record, tmp_path / "tree.json")
    loaded = load_game(tmp_path / "tree.json")
    assert loaded.children(parent) == [spice_node, branch]
    assert loaded.state_at(loaded.leaf(branch)) == record.state_at(record.leaf(branch))
    record.promote(branch)
    assert record.mainline(parent)[0] == branch


def test_state_at_any_node_equals_replay_from_scratch_with_cold_cache():
    record, leaf = _played_record(turns=6)
    expected = record.state_at(leaf)
    record.clear_cache()
    assert record.state_at(leaf) == expected
    assert record.depth(leaf) > CHECKPOINT_EVERY


def test_issue14_a_replay_pauses_the_collector_while_it_makes_states_and_then_resumes():
    import gc

    record, leaf = _played_record(turns=2)
    expected = record.state_at(leaf)
    record.clear_cache()
    seen: list[bool] = []
    play = record.apply_action

    def watched(state, action):
        seen.append(gc.isenabled())
        return play(state, action)

    record.apply_action = watched  # type: ignore[method-assign]
    assert gc.isenabled()
    assert record.state_at(leaf) == expected  # the same states
    assert seen and not any(seen)  # no collector pass while the line was replayed
    assert gc.isenabled()  # resumed
    gc.disable()
    try:
        record.clear_cache()
        record.state_at(leaf)
        assert not gc.isenabled()  # a caller's paused collector stays paused
    finally:
        gc.enable()


def test_illegal_move_in_a_record_leaves_the_tree_unchanged():
    record = GameRecord(make_config(["atreides", "harkonnen"], seed=1))
    before = len(record)
    with pytest.raises(IllegalActionError) as error:
        record.add_move(record.root, ChooseStart("atreides", 3))
    assert error.value.code == "action/chance-at-decision" or error.value.code.startswith("chance/")
    assert len(record) == before


@pytest.mark.parametrize(
    ("mutate", "code", "needle"),
    [
        (lambda d: d.update(format="dunenb.save/9"), "save/format", "format"),
        (lambda d: d.update(extra=1), "save/field", "extra"),
        (lambda d: d["config"].update(houses=["atreides", "sardaukar"]), "save/config", "sardaukar"),
        (lambda d: d["config"].update(seed="x"), "save/config", "seed"),
        (lambda d: d["config"].update(colour="red"), "save/config", "colour"),
        (lambda d: d["nodes"][0].update(parent=99), "save/node-parent", "nodes[0].parent"),
        (lambda d: d["nodes"][1].update(id=1), "save/node-id", "nodes[1].id"),
        (lambda d: d["nodes"][0]["action"].update(kind="teleport"), "action/kind", "nodes[0].action.kind"),
        (lambda d: d["nodes"][0]["action"].update(total="17"), "action/field", "nodes[0].action.total"),
        (lambda d: d["nodes"][0]["action"].pop("house"), "action/field", "nodes[0].action.house"),
        (lambda d: d["nodes"][0]["action"].update(total=99), "save/illegal-action", "nodes[0]"),
        (lambda d: d.update(nodes={}), "save/nodes", "nodes"),
        (lambda d: d.update(current=12345), "save/current", "current"),
    ],
)
def test_malformed_saves_are_rejected_with_a_message_naming_the_field(mutate, code, needle):
    record, _ = _played_record(turns=1)
    data = json.loads(json.dumps(record_to_dict(record)))
    mutate(data)
    with pytest.raises(SaveFormatError) as error:
        record_from_dict(data)
    assert error.value.code == code
    assert needle in str(error.value)


def test_unreadable_files_are_rejected_clearly(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(SaveFormatError) as error:
        load_game(broken)
    assert error.value.code == "file/json" and "line 1" in str(error.value)
    with pytest.raises(SaveFormatError) as error:
        load_game(tmp_path / "missing.json")
    assert error.value.code == "file/missing"


def test_a_failed_write_never_corrupts_an_existing_save(tmp_path, monkeypatch):
    record, _ = _played_record(turns=1)
    path = tmp_path / "game.json"
    save_game(record, path)
    original = path.read_bytes()

    def explode(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", explode)
    with pytest.raises(InputError) as info:  # GAP-59: file-system errors are DuneErrors with a file/ code
        save_game(_played_record(turns=2)[0], path)
    assert info.value.code == "file/no-space"
    assert path.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_replay_never_rerolls_a_forced_chance_outcome():
    record = GameRecord(make_config(["atreides", "harkonnen"], seed=5))
    state = record.state_at(record.root)
    proposed = sample_chance(state)
    forced = next(a for a, _ in __import__("dunenb.engine", fromlist=["x"]).chance_outcomes(state) if a != proposed)
    node = record.add_move(record.root, forced)
    record.clear_cache()
    assert record.node(node).action == forced
    assert record.state_at(node).houses["atreides"].rolls == (forced.total,)


def test_shipped_example_games_load_and_replay():
    games = sorted((ROOT / "data" / "games").glob("*.json"))
    assert games, "data/games/ ships example saved games"
    for game in games:
        record = load_game(game)
        assert record.mainline(), game.name


def test_pip_install_outside_the_checkout_ships_the_rules_data(tmp_path):
    target = tmp_path / "site"
    build = subprocess.run([sys.executable, "-m", "pip", "install", "--verbose", "--no-deps", "--no-build-isolation",
                            "--target", str(target), str(ROOT)], cwd=tmp_path, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    # Issue 16 item 8: setuptools prints no warning (no deprecated license table, no data folder "absent from
    # the packages configuration"), and every file of data/ ships, sub-folders included.
    log = build.stdout + build.stderr
    for warning in ("BuildBackendWarning", "SetuptoolsDeprecationWarning", "absent from the `packages`",
                    "is deprecated"):
        assert warning not in log, next(line for line in log.splitlines() if warning in line)
    data = ROOT / "data"
    wanted = {p.relative_to(data) for p in data.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    shipped = {p.relative_to(target / "dunenb" / "data") for p in (target / "dunenb" / "data").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert wanted - shipped == set()
    code = ("import dunenb.board, dunenb.ruleset, dunenb.engine, sys;"
            "assert dunenb.board.__file__.startswith(sys.argv[1]), dunenb.board.__file__;"
            "b = dunenb.board.load_board(); r = dunenb.ruleset.load_ruleset();"
            "s = dunenb.engine.new_game(['atreides', 'fremen'], seed=1);"
            "from dunenb.battle.roster import load_roster; load_roster();"
            "print(len(b.areas), r.territory_card_count())")
    result = subprocess.run([sys.executable, "-c", code, str(target)], cwd=tmp_path, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(target)}, check=True)
    assert result.stdout.split() == ["31", "27"]
