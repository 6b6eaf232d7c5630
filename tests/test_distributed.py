"""Scale-out on Dask (issue 15 item 7): the same files as a single-process run, byte for byte, and a run that
resumes after a failure without losing or repeating finished games. GAP-60: a game without a limit ends."""

from __future__ import annotations

import filecmp
import os
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

import dunenb.simulate as simulate_module  # noqa: E402
import dunenb.soak as soak_module  # noqa: E402
from dunenb.distributed import run_indexed  # noqa: E402
from dunenb.engine import CHANCE, apply_action, current_player, new_game, sample_chance  # noqa: E402
from dunenb.errors import InputError  # noqa: E402
from dunenb.simulate import simulate  # noqa: E402
from dunenb.soak import run_soak  # noqa: E402

SETTINGS = {"games": 3, "houses": None, "bots": ["random"], "seed": 11, "turn_limit": 3, "progress": False}


@pytest.fixture(scope="module")
def client():
    """A small in-process cluster (threads): starts in about a second on a shared machine."""
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0")
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def _same_files(a: Path, b: Path) -> None:
    names = sorted(os.listdir(a))
    assert names == sorted(os.listdir(b))
    _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    assert not mismatch and not errors, mismatch


def test_simulate_on_dask_writes_the_single_process_files_byte_for_byte(tmp_path, client):
    simulate(**SETTINGS, out=tmp_path / "single")
    table = simulate(**SETTINGS, out=tmp_path / "dask", dask=client)
    assert list(table["game"]) == [0, 1, 2]
    _same_files(tmp_path / "single", tmp_path / "dask")


def test_simulate_on_dask_resumes_without_repeating_finished_games(tmp_path, client, monkeypatch):
    real = simulate_module.play_indexed_game
    played: list[int] = []

    def crashing(index, **settings):
        played.append(index)
        if index == 1:
            raise RuntimeError("worker lost")  # the task fails; the others still finish
        return real(index, **settings)

    monkeypatch.setattr(simulate_module, "play_indexed_game", crashing)
    with pytest.raises(RuntimeError, match="worker lost"):
        simulate(**SETTINGS, out=tmp_path / "dask", dask=client)
    finished = {p.name for p in (tmp_path / "dask").glob("game_*.json")}
    # what finished before the failure is on disk (how many did depends on the machine's load)
    assert "game_0001.json" not in finished
    monkeypatch.setattr(simulate_module, "play_indexed_game", lambda index, **s: (played.append(index),
                                                                                   real(index, **s))[1])
    played.clear()
    simulate(**SETTINGS, out=tmp_path / "dask", dask=client)
    assert sorted(played) == sorted({0, 1, 2} - {int(n[5:9]) for n in finished})  # nothing repeated
    simulate(**SETTINGS, out=tmp_path / "single")
    _same_files(tmp_path / "single", tmp_path / "dask")  # resume records gone, files equal


def test_soak_resumes_after_a_failure_on_dask(tmp_path, client, monkeypatch):
    real = soak_module.play_soak_game
    log = tmp_path / "played.log"  # the task is pickled by value: it reports through a file

    def crashing(seed):
        with open(log, "a") as handle:
            handle.write(f"{seed}\n")
        if seed == 2 and not (tmp_path / "failed-once").exists():
            (tmp_path / "failed-once").write_text("")
            raise RuntimeError("worker lost")  # once: the rerun plays it
        return real(seed)

    monkeypatch.setattr(soak_module, "play_soak_game", crashing)
    with pytest.raises(RuntimeError):
        run_soak(4, out=tmp_path / "soak", dask=client, progress=False)
    done = {int(p.stem[5:]) for p in (tmp_path / "soak" / "results").glob("game_*.json")}
    assert 2 not in done
    log.unlink()
    report = run_soak(4, out=tmp_path / "soak", dask=client, progress=False)
    played = [int(line) for line in log.read_text().split()]
    assert sorted(played) == sorted({0, 1, 2, 3} - done)  # nothing lost, nothing repeated
    assert (report.games, report.skipped, report.violations) == (4, len(done), 0)
    assert (tmp_path / "soak" / "summary.json").exists()


def _die_once(marker: str, index: int) -> int:
    """Kill this worker process the first time (a real worker death), then work."""
    if not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(1)
    return index * index


def test_a_dead_worker_loses_no_task(tmp_path):
    import functools

    import cloudpickle

    cloudpickle.register_pickle_by_value(__import__(__name__))  # the workers cannot import the test module
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0")
    try:
        with distributed.Client(cluster) as c:
            got: dict[int, int] = {}
            run_indexed(functools.partial(_die_once, str(tmp_path / "marker")), range(4), got.__setitem__,
                        dask=c, progress=False)
    finally:
        cluster.close()
    assert got == {0: 0, 1: 1, 2: 4, 3: 9}


def test_dask_arguments_are_checked():
    with pytest.raises(InputError) as error:
        run_indexed(abs, [1], lambda i, r: None, dask="local", workers=0, progress=False)
    assert error.value.code == "dask/workers"


def test_GAP_60_a_game_without_a_turn_limit_still_ends():
    from dunenb.bots import make_bot

    state = new_game(["atreides", "harkonnen"], seed=4)
    assert state.config.turn_limit is None
    bots = {h: make_bot("random", seed=k) for k, h in enumerate(state.config.houses)}
    for _ in range(60_000):
        actor = current_player(state)
        if actor is None:
            break
        state = apply_action(state, sample_chance(state) if actor == CHANCE else bots[actor].choose(state))
    assert state.is_over and state.turn <= 50
    if state.winner is None:
        assert state.turn == 50 and any("GAP-60" in e.text for e in state.events)


def test_simulate_cli_workers_needs_dask(tmp_path, capsys):
    from dunenb.cli import main

    assert main(["simulate", "--games", "1", "--out", str(tmp_path), "--workers", "2"]) == 2
    assert "[cli/workers]" in capsys.readouterr().err


@pytest.mark.parametrize("cap", [0, -1, True, "50", None])
def test_GAP_60_the_turn_cap_in_the_victory_data_is_checked(cap):
    from dunenb.board import read_data_file
    from dunenb.errors import RulesDataError
    from dunenb.rules.collection import parse_victory_rules

    raw = dict(read_data_file("victory.json"), turn_cap={"turns": cap})
    with pytest.raises(RulesDataError) as error:
        parse_victory_rules(raw)
    assert error.value.code == "victory/turn-cap"
    assert parse_victory_rules(read_data_file("victory.json")).turn_cap == 50
