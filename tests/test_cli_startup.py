"""Issue 14 part 3: ``dunenb --help`` and each command import only what they need (lazy subcommands)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from dunenb import cli

ROOT = Path(__file__).resolve().parents[1]


def _choices(parser) -> dict:
    return parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]


def test_issue14_command_table_matches_what_the_modules_register():
    full = cli.build_parser()
    action = full._subparsers._group_actions[0]  # type: ignore[union-attr]
    assert list(action.choices) == list(cli.COMMANDS)
    helps = {choice.dest: choice.help for choice in action._choices_actions}
    assert helps == {name: help_text for name, (_, help_text) in cli.COMMANDS.items()}
    assert {module for module, _ in cli.COMMANDS.values()} == set(cli.COMMAND_MODULES)
    for name, (module, _) in cli.COMMANDS.items():  # each module registers exactly its own commands
        sub = cli.ArgumentParser(prog="x").add_subparsers()
        importlib.import_module(module).register(sub)
        assert name in sub.choices


@pytest.mark.parametrize("command", [None, "rules", "battle", "2d20", "iron-die", "imperium", "nope"])
def test_issue14_lazy_parser_prints_the_same_top_level_help(command):
    assert cli.build_parser(command, lazy=True).format_help() == cli.build_parser().format_help()
    lazy = _choices(cli.build_parser(command, lazy=True))
    assert list(lazy) == list(cli.COMMANDS)
    if command in cli.COMMANDS:  # the chosen command is the real one, with its own options
        assert lazy[command].format_help() == _choices(cli.build_parser())[command].format_help()


def test_issue14_unknown_command_error_is_unchanged(capsys):
    assert cli.main(["nope"]) == cli.ERROR_STATUS
    error = capsys.readouterr().err
    assert error.startswith("error: [cli/usage] dunenb: argument COMMAND: invalid choice: 'nope'")
    assert "'rules'" in error and "'imperium'" in error


_PROBE = """
import sys
from dunenb.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("IMPORTED:" + ",".join(sorted(name for name in ("pandas", "scipy", "numpy", "dunenb.engine", "dunenb.battle.cli",
                                        "dunenb.iron_die.cli", "dunenb.imperium.cli", "dunenb.adventures.cli")
                      if name in sys.modules)))
"""


def _imported(*argv: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", _PROBE, *argv], check=True, capture_output=True, text=True)
    line = out.stdout.strip().splitlines()[-1]
    assert line.startswith("IMPORTED:")
    return set(filter(None, line.removeprefix("IMPORTED:").split(",")))


def test_issue14_help_imports_no_command_module_and_no_numeric_library():
    assert _imported("--help") == set()


def test_issue14_a_battle_imports_its_module_only_and_no_pandas():
    assert _imported("battle", "shield_example_1", "--json") == {"dunenb.battle.cli"}  # numpy not needed either


def test_issue14_replaying_a_save_imports_no_numeric_library():
    save = str(ROOT / "data" / "games" / "teaching_game.json")
    assert _imported("replay", save, "--json") == {"dunenb.engine"}  # no numpy, scipy, pandas


def test_issue14_rules_imports_no_engine():
    assert _imported("rules", "map", "--json") == set()


_RUN = """
import atexit, gc, sys
from dunenb import cli
atexit.register(lambda: print("FROZEN:" + str(gc.get_freeze_count() > 0)))
sys.argv = ["dunenb", *sys.argv[1:]]
cli.run()
"""


def test_issue14_the_program_freezes_its_heap_before_the_shutdown_and_keeps_its_status():
    save = str(ROOT / "data" / "games" / "teaching_game.json")
    done = subprocess.run([sys.executable, "-c", _RUN, "replay", save, "--to", "3"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("step 3/")
    assert done.stdout.strip().splitlines()[-1] == "FROZEN:True"  # exit handlers still run, after the freeze
    failed = subprocess.run([sys.executable, "-c", _RUN, "replay", "no-such-save.json"], capture_output=True,
                            text=True)
    assert failed.returncode == cli.ERROR_STATUS and failed.stderr.startswith("error: [file/")
    assert failed.stdout.strip().splitlines()[-1] == "FROZEN:True"


def test_issue14_main_leaves_the_callers_collector_alone(capsys):
    import gc

    frozen = gc.get_freeze_count()
    assert cli.main(["replay", str(ROOT / "data" / "games" / "teaching_game.json"), "--to", "2"]) == 0
    assert gc.get_freeze_count() == frozen and gc.isenabled()
    assert capsys.readouterr().out.startswith("step 2/")


_COLLECTIONS = """
import gc, sys
from dunenb.cli import main
during = []

def watch(phase, info):
    engine = sys.modules.get("dunenb.engine")
    if phase == "start" and engine is not None and not hasattr(engine, "view"):  # the engine half imported
        during.append(info["generation"])

gc.callbacks.append(watch)
status = main(sys.argv[1:])
print("COLLECTIONS:" + str(len(during)), status)
"""


def test_issue14_replay_imports_the_engine_with_the_collector_paused():
    save = str(ROOT / "data" / "games" / "teaching_game.json")
    done = subprocess.run([sys.executable, "-c", _COLLECTIONS, "replay", save, "--to", "1"], check=True,
                          capture_output=True, text=True)
    assert done.stdout.strip().splitlines()[-1] == "COLLECTIONS:0 0"


def test_issue14_replaying_a_save_does_not_import_shutil():
    probe = _PROBE.replace('"pandas", "scipy"', '"shutil", "lzma", "pandas", "scipy"')
    save = str(ROOT / "data" / "games" / "teaching_game.json")
    out = subprocess.run([sys.executable, "-c", probe, "replay", save, "--json"], check=True, capture_output=True,
                         text=True)
    assert out.stdout.strip().splitlines()[-1] == "IMPORTED:dunenb.engine"  # argparse's formatter asked no shutil


@pytest.mark.parametrize("columns", ["50", "120", "", "zero", "-3"])
def test_issue14_help_width_is_what_argparse_would_use(monkeypatch, columns):
    import shutil

    monkeypatch.setenv("COLUMNS", columns)
    assert cli.help_width() == shutil.get_terminal_size().columns - 2
    monkeypatch.setenv("COLUMNS", "50")
    text = cli.build_parser("replay", lazy=True).format_help()
    assert max(len(line) for line in text.splitlines()) <= 48  # wrapped to the width argparse would give


def test_issue14_action_field_types_are_get_type_hints():
    import typing

    from dunenb import actions

    for module in ("dunenb.engine", "dunenb.imperium.engine", "dunenb.iron_die.engine", "dunenb.adventures.rules"):
        importlib.import_module(module)

    classes = set(actions.ACTION_KINDS.values())  # every action class, registered by its kind
    assert len(classes) > 80
    for cls in classes:
        assert actions.field_types(cls) == typing.get_type_hints(cls), cls


_EXIT = """
import atexit, sys, threading, time
from dunenb import cli
mode = sys.argv[1]
atexit.register(lambda: print("EXIT HANDLER RAN"))
print("written, not flushed", end="")
sys.stderr.write("to stderr, not flushed")
if mode == "thread":
    def late() -> None:
        time.sleep(0.3)
        print(" THREAD DONE", end="")
    threading.Thread(target=late).start()
cli._exit(int(sys.argv[2]))
"""


@pytest.mark.parametrize("status", [0, 2, 130])
def test_issue14_the_fast_exit_runs_the_handlers_flushes_the_streams_and_keeps_the_status(status):
    done = subprocess.run([sys.executable, "-c", _EXIT, "plain", str(status)], capture_output=True, text=True)
    assert done.returncode == status
    assert done.stdout == "written, not flushedEXIT HANDLER RAN\n"
    assert done.stderr == "to stderr, not flushed"


def test_issue14_the_fast_exit_waits_for_a_running_thread_as_the_interpreter_does():
    done = subprocess.run([sys.executable, "-c", _EXIT, "thread", "2"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stdout == "written, not flushed THREAD DONEEXIT HANDLER RAN\n"


def test_issue14_the_fast_exit_gives_the_interpreters_status_when_stdout_cannot_be_flushed():
    """A stdout whose flush fails: the exit handlers once, then the interpreter's own message and status 120, as
    with :func:`sys.exit`."""
    bad = _EXIT.replace("mode = sys.argv[1]", """mode = sys.argv[1]
class Full:
    def write(self, text):
        return len(text)
    def flush(self):
        raise OSError(28, "No space left on device")
sys.stdout = Full()""").replace('print("EXIT HANDLER RAN")', 'sys.stderr.write(" EXIT HANDLER RAN")')
    done = subprocess.run([sys.executable, "-c", bad, "plain", "0"], capture_output=True, text=True)
    plain = subprocess.run([sys.executable, "-c", bad.replace("cli._exit(", "sys.exit("), "plain", "0"],
                           capture_output=True, text=True)
    assert done.returncode == plain.returncode == 120
    import re

    def address_free(text: str) -> str:
        return re.sub(r"0x[0-9a-f]+", "0x…", text)

    assert address_free(done.stderr) == address_free(plain.stderr)
    assert done.stderr.count("EXIT HANDLER RAN") == 1 and "No space left on device" in done.stderr


def test_issue14_a_new_process_replay_prints_the_same_as_main_and_ends_as_before(capsys):
    """The program (``python -m dunenb.cli``, :func:`cli.run`) prints what :func:`cli.main` prints, with its status,
    for a replay and for an error."""
    save = str(ROOT / "data" / "games" / "teaching_game.json")
    for argv, status in ((["replay", save], 0), (["replay", save, "--json", "--to", "7"], 0),
                         (["replay", "no-such-save.json"], cli.ERROR_STATUS), (["nope"], cli.ERROR_STATUS)):
        done = subprocess.run([sys.executable, "-m", "dunenb.cli", *argv], capture_output=True, text=True)
        assert cli.main(argv) == status == done.returncode
        out = capsys.readouterr()
        assert (done.stdout, done.stderr) == (out.out, out.err)


def test_issue14_field_specs_take_the_field_types_get_type_hints_gives():
    """field_specs evaluates only each field's own annotation (not the class variables), a one-name text without
    compiling it: the same types as ``typing.get_type_hints``, field by field, for every action class."""
    import typing

    from dunenb import actions

    for module in ("dunenb.engine", "dunenb.imperium.engine", "dunenb.iron_die.engine", "dunenb.adventures.rules"):
        importlib.import_module(module)
    for cls in set(actions.ACTION_KINDS.values()):
        hints = typing.get_type_hints(cls)
        specs = actions.field_specs(cls)
        assert [spec.name for spec in specs] == [f.name for f in actions.dataclasses.fields(cls)]
        for spec in specs:
            assert spec.annotation == hints[spec.name], (cls, spec.name)
            assert actions._field_type(cls, spec.name) == hints[spec.name]


@pytest.mark.parametrize("text", ["str", "int", "Action", "Any", "None", "True", "tuple[str, ...]", "ClassVar[str]",
                                  "len", "__name__"])
def test_issue14_a_one_name_annotation_is_what_eval_gives(text):
    from dunenb import actions

    actions._annotation.cache_clear()
    assert actions._annotation(text, "dunenb.actions") == eval(text, vars(actions))


def test_issue14_an_unknown_annotation_name_still_raises_as_eval_does():
    from dunenb import actions

    actions._annotation.cache_clear()
    with pytest.raises(NameError):
        actions._annotation("NoSuchName", "dunenb.actions")
    with pytest.raises(SyntaxError):
        actions._annotation("if", "dunenb.actions")


_HOT = {("leader_effects", "_plain"), ("leader_karama", "blocked_leader_powers"), ("pre_battle", "_leaders"),
        ("immunities", "_house_immunity")}
#: the hot functions whose module imports the names at its top (no cycle between the two modules): no import runs
_IMPORT_FREE = {("karama_window", "usable"), ("leader_deals", "blocked"), ("leader_deals", "scene"),
                ("anytime", "_free_karamas"), ("alliances", "window_decisions"), ("pre_battle", "judge"),
                ("leader_pre_battle", "plan_problems"), ("battle_powers", "blocked_in_battle"),
                ("truth_trance", "_means")}


def test_issue14_the_hot_rules_functions_run_no_from_import():
    """Issue 14 items 3 and 4 (dunenb/rules/__init__.py): replaying the teaching game and playing 3 turns of a
    random-bot game, the functions called hundreds of times a game run no ``from ... import`` (the dear form):
    those of :data:`_HOT` the cheap form, those of :data:`_IMPORT_FREE` no import at all (that they ran is
    counted by a profile hook). The replay reaches the same states (the golden digests pin them)."""
    import builtins
    import collections

    from dunenb.bots import make_bot
    from dunenb.engine import make_config
    from dunenb.record import GameRecord
    from dunenb.saves import load_game
    from dunenb.simulate import play_game

    record = load_game(ROOT / "data" / "games" / "teaching_game.json")
    fresh = GameRecord(record.config)
    counts: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    real = builtins.__import__

    def counting(name, globals=None, locals=None, fromlist=(), level=0):  # type: ignore[no-untyped-def]
        code = sys._getframe(1).f_code
        module = code.co_filename.rsplit("/", 1)[-1].removesuffix(".py")
        counts[(module, code.co_name, bool(fromlist))] += 1
        return real(name, globals, locals, fromlist, level)

    def profile(frame, event, _arg):  # type: ignore[no-untyped-def]
        if event == "call":
            code = frame.f_code
            calls[(code.co_filename.rsplit("/", 1)[-1].removesuffix(".py"), code.co_name)] += 1

    builtins.__import__ = counting
    sys.setprofile(profile)
    try:
        fresh.add_line(fresh.root, record.actions_to(record.leaf()))
        houses = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]  # and menus listed
        bots = {h: make_bot("random", seed=k) for k, h in enumerate(houses)}
        play_game(make_config(houses, seed=2, turn_limit=3), bots)
    finally:
        sys.setprofile(None)
        builtins.__import__ = real
    assert fresh.state_at(fresh.leaf()) == record.state_at(record.leaf())
    assert sum(counts[(*hot, False)] for hot in _HOT) > 100  # they ran, with the cheap form
    assert not [hot for hot in _HOT if counts[(*hot, True)]]
    assert all(calls[hot] for hot in _IMPORT_FREE), [hot for hot in _IMPORT_FREE if not calls[hot]]
    assert not [hot for hot in _IMPORT_FREE if counts[(*hot, True)] or counts[(*hot, False)]]


_WHICH_EXIT = """
import os, sys
from dunenb import cli
real = os._exit

def fast(status):
    print("FAST EXIT", flush=True)
    real(status)

os._exit = fast
if sys.argv[1] == "numpy":
    import numpy  # noqa: F401  (compiled code from outside the standard library)
cli._exit(0)
"""


@pytest.mark.parametrize(("loaded", "fast"), [("plain", True), ("numpy", False)])
def test_issue14_the_fast_exit_is_only_taken_without_foreign_compiled_code(loaded, fast):
    done = subprocess.run([sys.executable, "-c", _WHICH_EXIT, loaded], capture_output=True, text=True)
    assert done.returncode == 0
    assert ("FAST EXIT" in done.stdout) == fast
    assert cli._foreign_compiled_code() == any(
        isinstance(getattr(m, "__file__", None), str) and not m.__file__.endswith((".py", ".pyc"))
        and name.partition(".")[0] not in sys.stdlib_module_names for name, m in list(sys.modules.items()))


def test_issue14_a_replay_takes_the_fast_exit():
    probe = _WHICH_EXIT.replace('cli._exit(0)', 'sys.argv = ["dunenb", "replay", sys.argv[2]]\ncli.run()')
    save = str(ROOT / "data" / "games" / "teaching_game.json")
    done = subprocess.run([sys.executable, "-c", probe, "plain", save], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("step ") and done.stdout.endswith("FAST EXIT\n")
