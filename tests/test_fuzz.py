"""Property-based fuzzing (issue 15 item 6) with Hypothesis, bounded (``max_examples``, ``deadline``): mutated
saves, battle cases, actions and CLI argument lists must give a valid result or a clean ``DuneError`` (a clean
exit 0/2 for the CLI), never another exception."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dunenb.actions import ACTION_KINDS, Action, action_from_dict
from dunenb.battle.case import case_outcomes, parse_case
from dunenb.bots import make_bot
from dunenb.cli import build_parser, main
from dunenb.engine import apply_action, legal_actions, make_config, play_until_decision
from dunenb.errors import DuneError
from dunenb.jsonio import read_json
from dunenb.record import GameRecord
from dunenb.saves import load_game, record_from_dict
from dunenb.simulate import line_to_save, play_game

FUZZ = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
DATA = Path(__file__).resolve().parent.parent / "data"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8) | st.sampled_from(["atreides", "fremen", "main", "arrakeen", "worm", "pass"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def _mutate(document, draw):
    """A copy of a JSON document with one value replaced, a key or item deleted, or a list cut short."""
    doc = copy.deepcopy(document)
    parent, key, node = None, None, doc
    while isinstance(node, (dict, list)) and node and draw(st.integers(0, 4)) > 0:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = draw(st.sampled_from(keys))
        parent, node = node, node[key]
    if parent is None:
        return draw(json_values)
    operation = draw(st.sampled_from(["replace", "delete", "cut"]))
    if operation == "delete":
        del parent[key]
    elif operation == "cut" and isinstance(node, list):
        parent[key] = node[: draw(st.integers(0, len(node)))]
    else:
        parent[key] = draw(json_values)
    return doc


@pytest.fixture(scope="module")
def small_save():
    config = make_config(["atreides", "harkonnen"], seed=2, turn_limit=1)
    actions, _ = play_game(config, {h: make_bot("random", seed=k) for k, h in enumerate(config.houses)})
    return line_to_save(config, actions[:30])  # setup: short enough to replay 40 times in a few seconds


@FUZZ
@given(data=st.data())
def test_fuzz_mutated_saves_load_or_fail_cleanly(small_save, data):
    mutated = _mutate(small_save, data.draw)
    try:
        record = record_from_dict(mutated)
    except DuneError:
        return
    assert isinstance(record, GameRecord)
    record.state_at(record.leaf())


@FUZZ
@given(data=st.data())
def test_fuzz_corrupted_save_text_loads_or_fails_cleanly(small_save, data):
    text = json.dumps(small_save)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 12)))
    corrupted = text[:start] + data.draw(st.text(max_size=6)) + text[end:]
    path = Path(tempfile.mkdtemp(dir=tempfile.gettempdir())) / "save.json"
    path.write_bytes(corrupted.encode("utf-8", errors="replace"))
    try:
        load_game(path)
    except DuneError:
        pass


BATTLES = sorted(p for p in (DATA / "battles").glob("*.json"))


@FUZZ
@given(data=st.data())
def test_fuzz_mutated_battle_cases_resolve_or_fail_cleanly(data):
    raw = read_json(data.draw(st.sampled_from(BATTLES)))
    try:
        case = parse_case(_mutate(raw, data.draw))
        case_outcomes(case)
    except DuneError:
        pass


@pytest.fixture(scope="module")
def positions():
    """A few decision points of a short game, to apply fuzzed actions to."""
    config = make_config(["atreides", "fremen", "emperor"], seed=5, turn_limit=2)
    state, found = play_until_decision(GameRecord(config).state_at(0)), []
    bot = make_bot("random", seed=1)
    while state.pending is not None and len(found) < 6:
        found.append(state)
        for _ in range(15):
            if state.pending is None:
                break
            state = play_until_decision(apply_action(state, bot.choose(state)))
    return found


def _action_dicts():
    def for_kind(kind):
        import dataclasses

        fields = [f.name for f in dataclasses.fields(ACTION_KINDS[kind])]
        return st.fixed_dictionaries({"kind": st.just(kind)}, optional={name: json_values for name in fields})
    return st.sampled_from(sorted(ACTION_KINDS)).flatmap(for_kind)


@FUZZ
@given(raw=_action_dicts(), pick=st.integers(0, 5))
def test_fuzz_actions_from_dict_build_or_fail_cleanly_and_the_engine_checks_them(positions, raw, pick):
    try:
        action = action_from_dict(raw)
    except DuneError:
        return
    assert isinstance(action, Action)
    state = positions[pick % len(positions)]
    try:
        apply_action(state, action)
    except DuneError:
        return
    assert action in legal_actions(state) or state.pending.actor == "chance"


def _cli_commands():
    import argparse

    parser = build_parser()
    found = []

    def walk(p, prefix):
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            options = [s for a in p._actions for s in a.option_strings if s not in ("-h", "--help")]
            found.append((tuple(prefix), tuple(options)))
            return
        for name, child in subs[0].choices.items():
            walk(child, [*prefix, name])
    walk(parser, [])
    return found


WORK = Path(tempfile.mkdtemp(prefix="dunenb-fuzz-"))
VALUES = ["-1", "0", "1", "x", "", "atreides,fremen", "mixed", "random", "heuristic", "map", "3d", "win",
          str(WORK / "out.json"), str(WORK / "missing" / "x.json"), str(WORK), str(WORK / "garbage.json")]
(WORK / "garbage.json").write_text("{not json", encoding="utf-8")


@st.composite
def cli_argv(draw):
    command, options = draw(st.sampled_from(_cli_commands()))
    words = list(command)
    for _ in range(draw(st.integers(0, 4))):
        if options and draw(st.booleans()):
            words.append(draw(st.sampled_from(options)))
        words.append(draw(st.sampled_from(VALUES)))
    return words


@contextlib.contextmanager
def _inside(folder: Path):
    """The current directory is ``folder`` for the block (``contextlib.chdir`` is Python 3.11+)."""
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(argv=cli_argv())
def test_fuzz_cli_arguments_exit_cleanly(argv):
    out, err = io.StringIO(), io.StringIO()
    # a relative path among the values ("heuristic", "map", ...) is written inside WORK, never in the checkout
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _inside(WORK):
        try:
            status = main(argv)
        except SystemExit as exit_:  # argparse: usage errors exit 2, --help exits 0
            status = exit_.code
    assert status in (0, 2), (argv, status, err.getvalue()[-500:])
    assert "Traceback" not in err.getvalue()
