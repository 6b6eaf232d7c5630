"""``dunenb continue SAVE --turns N [--bots ...] [--out NEW] [--force] [--json]`` (issue 16, item 6)."""

from __future__ import annotations

import json

import pytest

from dunenb.cli import main
from dunenb.saves import load_game


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _new(capsys, path, *extra: str) -> None:
    code, _, err = _run(capsys, "new", "--houses", "atreides,fremen", "--seed", "7", "--out", str(path), *extra)
    assert code == 0, err


def test_new_then_continue_gives_a_game_to_replay(tmp_path, capsys):
    start, more = tmp_path / "start.json", tmp_path / "more.json"
    _new(capsys, start)
    code, out, err = _run(capsys, "continue", str(start), "--turns", "2", "--bots", "heuristic", "--out", str(more),
                          "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["save"] == str(more) and summary["from_step"] == 0 and summary["turn"] == 3
    assert summary["step"] == summary["of"] > 0
    assert load_game(start).leaf() == load_game(start).root  # the input is untouched
    record = load_game(more)
    assert record.depth(record.leaf()) == summary["step"]
    code, out, _ = _run(capsys, "replay", str(more), "--json")
    assert code == 0 and json.loads(out)["step"] == summary["step"]


def test_continue_with_random_bots_equals_new_with_play_turns(tmp_path, capsys):
    _new(capsys, tmp_path / "a.json")
    assert _run(capsys, "continue", str(tmp_path / "a.json"), "--turns", "1", "--out", str(tmp_path / "b.json"))[0] == 0
    _new(capsys, tmp_path / "c.json", "--play-turns", "1")
    continued, played = (json.loads((tmp_path / name).read_text()) for name in ("b.json", "c.json"))
    assert continued["nodes"] == played["nodes"] and continued["current"] == len(played["nodes"])


def test_continue_resumes_at_the_end_of_the_main_line_and_keeps_the_tree(tmp_path, capsys):
    _new(capsys, tmp_path / "a.json", "--play-turns", "1")
    code, _, err = _run(capsys, "continue", str(tmp_path / "a.json"), "--turns", "1", "--out",
                        str(tmp_path / "b.json"), "--bots", "random,heuristic")
    assert code == 0, err
    before, after = load_game(tmp_path / "a.json"), load_game(tmp_path / "b.json")
    old_line = [before.node(n).action for n in before.mainline()]
    new_line = [after.node(n).action for n in after.mainline()]
    assert new_line[: len(old_line)] == old_line and len(new_line) > len(old_line)
    assert after.state_at(after.leaf()).turn == before.state_at(before.leaf()).turn + 1


def test_continue_stops_when_the_game_ends_and_refuses_a_finished_game(tmp_path, capsys):
    _new(capsys, tmp_path / "a.json", "--turn-limit", "1")
    code, out, err = _run(capsys, "continue", str(tmp_path / "a.json"), "--turns", "50", "--out",
                          str(tmp_path / "b.json"))
    assert code == 0, err
    assert "won by" in out
    assert load_game(tmp_path / "b.json").state_at(load_game(tmp_path / "b.json").leaf()).is_over
    code, _, err = _run(capsys, "continue", str(tmp_path / "b.json"), "--turns", "1", "--out",
                        str(tmp_path / "c.json"))
    assert code == 2 and err.startswith("error: [cli/game-over]") and not (tmp_path / "c.json").exists()


def test_continue_writes_over_save_only_with_force(tmp_path, capsys):
    save = tmp_path / "a.json"
    _new(capsys, save)
    original = save.read_text()
    code, _, err = _run(capsys, "continue", str(save), "--turns", "1")
    assert code == 2 and err.startswith("error: [cli/out-required]") and "--force" in err
    assert save.read_text() == original
    _new(capsys, tmp_path / "b.json")
    code, _, err = _run(capsys, "continue", str(save), "--turns", "1", "--out", str(tmp_path / "b.json"))
    assert code == 2 and err.startswith("error: [cli/out-exists]")
    assert _run(capsys, "continue", str(save), "--turns", "1", "--force")[0] == 0
    assert load_game(save).state_at(load_game(save).leaf()).turn == 2


@pytest.mark.parametrize(
    ("options", "code"),
    [
        (["--turns", "0"], "cli/usage"),
        (["--turns", "²"], "cli/usage"),
        ([], "cli/usage"),
        (["--turns", "1", "--bots", "clever"], "cli/bots"),
        (["--turns", "1", "--bots", "random,random,random"], "cli/bots"),
    ],
)
def test_continue_refuses_bad_options_with_one_line(tmp_path, capsys, options, code):
    _new(capsys, tmp_path / "a.json")
    status, _, err = _run(capsys, "continue", str(tmp_path / "a.json"), "--out", str(tmp_path / "b.json"), *options)
    assert status == 2 and err.startswith(f"error: [{code}]") and err.count("\n") == 1
    assert not (tmp_path / "b.json").exists()


def test_continue_a_missing_or_bad_save(tmp_path, capsys):
    status, _, err = _run(capsys, "continue", str(tmp_path / "nope.json"), "--turns", "1", "--out",
                          str(tmp_path / "b.json"))
    assert status == 2 and err.startswith("error: [file/missing]")
    (tmp_path / "bad.json").write_text('{"format": "other"}')
    status, _, err = _run(capsys, "continue", str(tmp_path / "bad.json"), "--turns", "1", "--out",
                          str(tmp_path / "b.json"))
    assert status == 2 and err.startswith("error: [save/format]")
