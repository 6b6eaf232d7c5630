"""GAP-59 (issue 9 item 11, issue 15 items 2-5): every CLI error is one line ``error: [code] message`` with
status 2, never a traceback; files are written atomically and never overwritten without ``--force``; saves and
actions are strict; inputs are bounded.

Most cases run ``dunenb.cli.main([...])`` in-process; a few run the CLI as a subprocess (``/dev/full`` as
stdout, a closed pipe, Ctrl-C, and parser errors end to end).
"""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import dunenb.jsonio
from dunenb import cli
from dunenb.actions import ChooseStart, action_from_dict
from dunenb.engine import legal_actions, make_config
from dunenb.errors import InputError, SaveFormatError
from dunenb.iron_die.save import load_game as load_iron_die
from dunenb.record import GameRecord
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.bidding import Bid
from dunenb.rules.movement import Move, Revive
from dunenb.saves import load_game, record_to_dict, save_game

ROOT = Path(__file__).resolve().parents[1]
ERROR_LINE = re.compile(r"error: \[([a-z0-9/-]+)\] \S.*")
PROGRESS = re.compile(r"\d+/\d+ \[")  # simulate's progress bar (tqdm), not an error


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run the CLI, assert status 2 and exactly one ``error: [code] ...`` line on stderr; return the code."""
    status = cli.main(list(argv))
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip() and not PROGRESS.search(line)]
    assert status == 2, (status, captured.err)
    assert len(lines) == 1 and ERROR_LINE.fullmatch(lines[0]), captured.err
    assert "Traceback" not in captured.err
    return ERROR_LINE.fullmatch(lines[0]).group(1)  # type: ignore[union-attr]


def _subprocess(*argv: str, **kwargs) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env.pop(cli.DEBUG_VARIABLE, None)
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "dunenb.cli", *argv], stderr=subprocess.PIPE, text=True,
                          env=env, timeout=120, **kwargs)


def _one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = result.stderr.splitlines()
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and ERROR_LINE.fullmatch(lines[0]), result.stderr
    return ERROR_LINE.fullmatch(lines[0]).group(1)  # type: ignore[union-attr]


@pytest.fixture
def save(tmp_path: Path) -> Path:
    """A small legal save on disk."""
    record = GameRecord(make_config(["atreides", "fremen"], seed=3))
    record.add_move(record.root, legal_actions(record.state_at(record.root))[0])
    path = tmp_path / "game.json"
    save_game(record, path)
    return path


def _save_text(**changes: object) -> str:
    record = GameRecord(make_config(["atreides", "fremen"], seed=3))
    data = {**record_to_dict(record), **changes}
    return json.dumps(data)


# --- one line for argparse's own errors (issue 9 item 11) -------------------------------------------------

@pytest.mark.parametrize(
    ("argv", "code"),
    [
        ([], "cli/usage"),
        (["simulate", "--games", "1"], "cli/usage"),  # --out missing: argparse's message, on one line
        (["fly"], "cli/usage"),
        (["rules", "weather"], "cli/usage"),
        (["new", "--houses", "atreides,fremen"], "cli/usage"),
        (["new", "--houses", "atreides,fremen", "--out", "x.json", "--turn-limit", "0"], "cli/usage"),
        (["replay"], "cli/usage"),
        (["replay", "missing.json", "--to", "-1"], "cli/usage"),
        (["battle", "--metric", "luck"], "cli/usage"),
        (["battle"], "cli/battle-case"),
        (["2d20"], "cli/usage"),
        (["2d20", "odds", "--skill", "9", "--drive", "7"], "cli/argument"),
        (["iron-die"], "cli/usage"),
        (["iron-die", "odds", "--challenge", "war"], "iron-die/challenge"),
        (["iron-die", "simulate", "--games", "x"], "iron-die/argument"),
        (["iron-die", "replay"], "iron-die/argument"),
    ],
)
def test_gap59_every_subcommand_error_is_one_line_with_status_2(tmp_path, monkeypatch, capsys, argv, code):
    monkeypatch.chdir(tmp_path)
    assert _error(capsys, *argv) == code
    assert list(tmp_path.iterdir()) == []


def test_gap59_an_unexpected_exception_is_one_line_too(monkeypatch, capsys):
    import dunenb.commands

    def broken(_args):
        raise TypeError("boom")

    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda *_args, **_kwargs: parser)
    parser._subparsers._group_actions[0].choices["rules"].set_defaults(func=broken)  # type: ignore[union-attr]
    assert _error(capsys, "rules", "map") == "cli/internal"
    assert dunenb.commands  # the real commands are untouched


# --- Unicode digits, huge integers, empty Houses (issue 15 item 2) -------------------------------------------

@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["new", "--houses", "atreides,fremen", "--seed", "²", "--out", "x.json"], "cli/usage"),
        (["new", "--houses", "atreides,fremen", "--seed", "٣", "--out", "x.json"], "cli/usage"),
        (["new", "--houses", "atreides,fremen", "--seed", "9" * 5000, "--out", "x.json"], "cli/usage"),
        (["simulate", "--games", "²", "--out", "sim"], "cli/usage"),
        (["2d20", "odds", "--skill", "٧", "--drive", "7"], "cli/argument"),
        (["iron-die", "advise", "--dice", "1,2,3,4,5", "--first-player", "--players", "²"], "iron-die/argument"),
        (["iron-die", "simulate", "--games", "²"], "iron-die/argument"),
        (["iron-die", "play", "--seed", "9" * 5000], "iron-die/argument"),
    ],
)
def test_gap59_unicode_digits_and_huge_integers_are_refused_cleanly(tmp_path, monkeypatch, capsys, argv, code):
    monkeypatch.chdir(tmp_path)
    assert _error(capsys, *argv) == code
    assert list(tmp_path.iterdir()) == []


def test_gap59_simulate_refuses_empty_houses_like_new(tmp_path, capsys):
    assert _error(capsys, "new", "--houses", "", "--out", str(tmp_path / "x.json")) == "config/houses"
    assert _error(capsys, "simulate", "--games", "1", "--houses", "", "--out", str(tmp_path / "sim")) \
        == "config/houses"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("options", "code"),
    [
        (["--houses", "atreides,fremen", "--turn-limit", "0"], "cli/usage"),
        (["--houses", "atreides,fremen", "--bots", "random,random,random"], "simulate/bots"),
        (["--houses", "mixed", "--bots", "random,heuristic"], "simulate/bots"),
        (["--houses", "atreides,atreides"], "config/houses"),
        (["--bots", "genius"], "simulate/bots"),
    ],
)
def test_gap59_simulate_checks_every_option_before_the_first_game(tmp_path, capsys, options, code):
    folder = tmp_path / "sim"
    assert _error(capsys, "simulate", "--games", "3", *options, "--out", str(folder)) == code
    assert not folder.exists() or list(folder.iterdir()) == []


def test_gap59_simulate_out_must_be_a_folder(tmp_path, capsys):
    out = tmp_path / "file"
    out.write_text("precious", encoding="utf-8")
    assert _error(capsys, "simulate", "--games", "1", "--houses", "atreides,fremen", "--out", str(out)) \
        == "file/not-a-directory"
    assert out.read_text(encoding="utf-8") == "precious"


# --- file-system errors -------------------------------------------------------------------------------

def test_gap59_a_directory_given_as_a_file(tmp_path, capsys):
    assert _error(capsys, "replay", str(tmp_path)) == "file/is-directory"
    assert _error(capsys, "new", "--houses", "atreides,fremen", "--out", str(tmp_path), "--force") \
        == "file/is-directory"
    assert _error(capsys, "iron-die", "replay", "--save", str(tmp_path)) == "file/is-directory"
    assert _error(capsys, "battle", str(tmp_path)) == "case/file"


def test_gap59_a_missing_file_and_a_parent_that_is_a_file(tmp_path, capsys, save):
    assert _error(capsys, "replay", str(tmp_path / "nope" / "game.json")) == "file/missing"
    assert _error(capsys, "new", "--houses", "atreides,fremen", "--out", str(save / "x.json")) \
        == "file/not-a-directory"
    assert _error(capsys, "replay", str(save), "--svg", str(save / "map.svg")) == "file/not-a-directory"


def test_gap59_missing_parent_folders_of_an_output_are_created(tmp_path, capsys):
    out = tmp_path / "a" / "b" / "game.json"
    assert cli.main(["new", "--houses", "atreides,fremen", "--out", str(out)]) == 0
    assert load_game(out).config.houses == ("atreides", "fremen")


@pytest.mark.parametrize(("number", "code"), [(errno.EACCES, "file/permission"), (errno.EROFS, "file/read-only"),
                                              (errno.ENOSPC, "file/no-space")])
def test_gap59_permission_read_only_and_full_disk_leave_the_old_file(tmp_path, monkeypatch, capsys, save,
                                                                     number, code):
    before = save.read_bytes()

    def refuse(*_args, **_kwargs):
        raise OSError(number, os.strerror(number))

    monkeypatch.setattr(dunenb.jsonio.os, "fsync", refuse)
    assert _error(capsys, "new", "--houses", "atreides,harkonnen", "--out", str(save), "--force") == code
    assert save.read_bytes() == before
    assert [p.name for p in save.parent.iterdir()] == [save.name]  # no temporary file left


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes into read-only folders")
def test_gap59_a_read_only_folder(tmp_path, capsys, save):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert _error(capsys, "new", "--houses", "atreides,fremen", "--out", str(folder / "g.json")) \
            == "file/permission"
        assert _error(capsys, "replay", str(save), "--svg", str(folder / "m.svg")) == "file/permission"
    finally:
        folder.chmod(0o755)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_gap59_a_device_is_never_replaced(capsys):
    assert _error(capsys, "new", "--houses", "atreides,fremen", "--out", "/dev/full", "--force") \
        == "file/not-regular"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


# --- atomic writes, --force (issue 15 item 3) ------------------------------------------------------------

def test_gap59_replay_svg_and_iron_die_save_refuse_an_existing_file(tmp_path, capsys, save):
    svg = tmp_path / "map.svg"
    svg.write_text("precious", encoding="utf-8")
    assert _error(capsys, "replay", str(save), "--svg", str(svg)) == "cli/out-exists"
    assert svg.read_text(encoding="utf-8") == "precious"
    assert cli.main(["replay", str(save), "--svg", str(svg), "--force"]) == 0
    assert svg.read_text(encoding="utf-8").startswith("<svg")
    iron = tmp_path / "iron.json"
    iron.write_text("precious", encoding="utf-8")
    assert _error(capsys, "iron-die", "play", "--save", str(iron)) == "cli/out-exists"
    assert iron.read_text(encoding="utf-8") == "precious"
    assert cli.main(["iron-die", "play", "--save", str(iron), "--force"]) == 0
    assert load_iron_die(iron).winner is not None


def test_gap59_a_full_disk_never_cuts_the_svg_or_the_summary(tmp_path, monkeypatch, capsys, save):
    svg = tmp_path / "map.svg"
    assert cli.main(["replay", str(save), "--svg", str(svg)]) == 0
    folder = tmp_path / "sim"
    argv = ["simulate", "--games", "1", "--houses", "atreides,fremen", "--turn-limit", "1", "--out", str(folder)]
    assert cli.main(argv) == 0
    capsys.readouterr()
    before = {p: p.read_bytes() for p in [svg, *folder.iterdir()]}

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(dunenb.jsonio.os, "fsync", full)
    assert _error(capsys, "replay", str(save), "--svg", str(svg), "--force") == "file/no-space"
    assert _error(capsys, *argv) == "file/no-space"
    assert {p: p.read_bytes() for p in [svg, *folder.iterdir()]} == before


def test_gap59_atomic_writes_keep_usual_permissions(tmp_path):
    path = tmp_path / "x.json"
    previous = os.umask(0o022)
    try:
        dunenb.jsonio.write_text_atomic(path, "1")
    finally:
        os.umask(previous)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # not mkstemp's 0600
    path.chmod(0o640)
    dunenb.jsonio.write_text_atomic(path, "2")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and path.read_text() == "2"


# --- strict saves (issue 15 items 2 and 4) ---------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('{"seed": ' + "7" * 5000 + "}", "file/json-number"),
        ("[" * 100_000 + "]" * 100_000, "file/json-depth"),
        ('{"format": "dunenb.save/1", "format": "dunenb.save/1"}', "file/json-duplicate-key"),
        ('{"a": NaN}', "file/json-number"),
        ('{"comment": "\\ud800"}', "file/json-surrogate"),
        (_save_text(current=True), "save/current"),
        (_save_text(current=[1]), "save/current"),
        (_save_text(nodes=[{"id": 1, "parent": 0, "action": {"kind": "roll", "house": "atreides",
                                                              "total": 17.0}}]), "action/field"),
    ],
)
def test_gap59_bad_saves_are_refused_and_left_unchanged(tmp_path, capsys, text, code):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    before = path.read_bytes()
    assert _error(capsys, "replay", str(path)) == code
    assert path.read_bytes() == before
    with pytest.raises(SaveFormatError):
        load_game(path)


def test_gap59_a_paired_surrogate_escape_is_fine():
    assert dunenb.jsonio.parse_json('"\\ud83d\\ude00"') == "\U0001F600"


def test_gap59_iron_die_save_with_a_list_as_type(tmp_path, capsys):
    path = tmp_path / "iron.json"
    path.write_text(json.dumps({"format": "dunenb.iron-die/1", "players": ["A", "B"], "seed": 0,
                                "actions": [{"type": []}]}), encoding="utf-8")
    assert _error(capsys, "iron-die", "replay", "--save", str(path)) == "save/action"


# --- strict actions (issue 15 item 4) --------------------------------------------------------------------

@pytest.mark.parametrize(
    "build",
    [
        lambda: Bid(house="atreides", amount=3.5),
        lambda: Bid(house="atreides", amount=True),
        lambda: Revive(house="atreides", regular=1.5),
        lambda: Revive(house="atreides", regular=1, marked=False),
        lambda: SubmitPlan(house="atreides", leader="paul", regular=2.0, marked=0, spice=0),
        lambda: ChooseStart(house=7, position=3),  # type: ignore[arg-type]
        lambda: Move(house="atreides", area="arrakeen", sector=9, path=[("carthag", 10)], regular=1),  # type: ignore[arg-type]
        lambda: Move(house="atreides", area="arrakeen", sector=9, path=(("carthag", 10.0),), regular=1),
    ],
)
def test_gap59_actions_of_the_wrong_python_type_are_refused(build):
    with pytest.raises(InputError) as info:
        build()
    assert info.value.code == "action/field-type" and "must be" in info.value.message


def test_gap59_numpy_integers_become_int_and_json_keeps_working():
    bid = Bid(house="atreides", amount=np.int64(3))  # type: ignore[arg-type]
    assert type(bid.amount) is int and bid == Bid(house="atreides", amount=3)
    assert json.dumps(bid.to_dict())


@pytest.mark.parametrize("amount", [3.5, True, "3", None])
def test_gap59_action_dicts_of_the_wrong_type_are_refused(amount):
    with pytest.raises(SaveFormatError) as info:
        action_from_dict({"kind": "bid", "house": "atreides", "amount": amount}, where="nodes[0].action")
    assert info.value.code == "action/field" and "nodes[0].action.amount" in info.value.message


# --- bounded inputs (issue 15 item 5) -------------------------------------------------------------------

def test_gap59_iron_die_has_at_most_20_players(capsys):
    assert _error(capsys, "iron-die", "advise", "--dice", "1,2,3,4,5", "--first-player", "--players", "21") \
        == "iron-die/argument"
    assert _error(capsys, "iron-die", "play", "--bots", ",".join(["naive"] * 21)) == "iron-die/argument"
    assert cli.main(["iron-die", "advise", "--dice", "1,2,3,4,5", "--first-player", "--players", "20",
                     "--json"]) == 0


def test_gap59_repeated_variations_of_a_big_save_merge_quickly(tmp_path):
    """A save whose nodes repeat one line thousands of times loads in linear time (one lookup a node)."""
    record = GameRecord(make_config(["atreides", "fremen"], seed=3))
    node = record.root
    for _ in range(30):
        node = record.add_move(node, legal_actions(record.state_at(node))[0])
    line = record_to_dict(record)["nodes"]
    nodes, next_id = [], 1
    for _ in range(400):
        parent = 0
        for entry in line:
            nodes.append({"id": next_id, "parent": parent, "action": entry["action"]})
            parent, next_id = next_id, next_id + 1
    path = tmp_path / "big.json"
    path.write_text(json.dumps({**record_to_dict(record), "nodes": nodes}), encoding="utf-8")
    start = time.process_time()
    loaded = load_game(path)
    assert len(loaded) == len(record) == 31
    assert time.process_time() - start < 20  # 12,000 nodes; was ~1 ms a node before GAP-59's caches


# --- as a subprocess ------------------------------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["rules", "map", "--json"], ["iron-die", "odds", "--challenge", "faith"]])
def test_gap59_dev_full_as_stdout(argv):
    with open("/dev/full", "w") as full:
        result = _subprocess(*argv, stdout=full)
    assert _one_error_line(result) == "file/no-space"


def test_gap59_a_closed_pipe_as_stdout():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "dunenb.cli", "rules", "leaders", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    process.stdout.close()  # type: ignore[union-attr]
    stderr = process.stderr.read().decode()  # type: ignore[union-attr]
    assert process.wait(timeout=120) == 2
    assert len(stderr.splitlines()) == 1 and "error: [file/broken-pipe] stdout" in stderr


@pytest.mark.parametrize(
    ("make", "argv", "code"),
    [
        (lambda d: d, ["replay", "{dir}"], "file/is-directory"),
        (lambda d: (d / "n.json", '{"seed": ' + "1" * 5000 + "}"), ["replay", "{file}"], "file/json-number"),
        (lambda d: (d / "n.json", "[" * 100_000), ["replay", "{file}"], "file/json-depth"),
        (lambda d: (d / "n.json", '["\\udc00"]'), ["replay", "{file}"], "file/json-surrogate"),
        (lambda d: (d / "n.json", '{"a": 1, "a": 1}'), ["iron-die", "replay", "--save", "{file}"],
         "file/json-duplicate-key"),
        (lambda d: (d / "n.json", _save_text(current=True)), ["replay", "{file}"], "save/current"),
        (lambda d: d, ["iron-die", "simulate", "--games", "²"], "iron-die/argument"),
    ],
)
def test_gap59_parser_errors_end_to_end(tmp_path, make, argv, code):
    made = make(tmp_path)
    file = None
    if isinstance(made, tuple):
        file, text = made
        file.write_text(text, encoding="utf-8")
    before = file.read_bytes() if file else None
    result = _subprocess(*[a.format(dir=tmp_path, file=file) for a in argv])
    assert _one_error_line(result) == code and "Traceback" not in result.stderr
    assert (file.read_bytes() if file else None) == before


@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")
def test_gap59_ctrl_c_ends_quietly_with_130(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "dunenb.cli", "simulate", "--games", "500", "--houses", "atreides,fremen",
         "--out", str(tmp_path / "sim")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
        # a shell's background job starts with SIGINT ignored, and Python then keeps it ignored: restore it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not (tmp_path / "sim").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == cli.INTERRUPTED_STATUS
    assert "Traceback" not in err and "error:" not in err
    assert not list((tmp_path / "sim").glob(".*.tmp"))
