"""Run many independent games in this process or as Dask tasks (issue 15, scale-out on an existing engine).

``run_indexed(task, indices, on_result, dask=...)`` calls ``task(i)`` for every index and hands each result to
``on_result(i, result)`` **in the calling process, as soon as it arrives**: the caller writes it to disk
atomically there, so a finished game is never lost when a worker dies later, and a rerun skips it.

``dask``: ``None`` runs in this process; ``"local"`` starts a :class:`distributed.LocalCluster` of
``workers`` single-threaded worker processes; any other string is a scheduler address
(``tcp://host:8786``) of a running cluster; a :class:`distributed.Client` is used as it is (tests).
When a worker dies, the scheduler gives its unfinished tasks to another worker (Dask's own
``allowed-failures``); results already collected are released, so nothing finished is computed twice.

Tasks must be picklable (module-level functions or :func:`functools.partial` of them): the workers import
``dunenb`` themselves, so on a real cluster every worker needs the same dunenb version installed.

>>> got = {}
>>> run_indexed(abs, [-2, 3], got.__setitem__, progress=False)
>>> got
{-2: 2, 3: 3}
"""

from __future__ import annotations

import functools
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from dunenb.errors import InputError
from dunenb.jsonio import read_json, write_json_atomic


@contextmanager
def dask_client(dask: Any, workers: int | None = None) -> Iterator[Any]:
    """A Dask client for ``dask`` (see the module docstring); a cluster started here is closed on exit."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - dask[distributed] is a dependency
        raise InputError("dask/missing", "--dask needs the dask[distributed] package (pip install "
                         "'dask[distributed]')") from None
    if isinstance(dask, Client):
        yield dask
        return
    if workers is not None and workers < 1:
        raise InputError("dask/workers", f"--workers must be at least 1, not {workers}")
    if not isinstance(dask, str) or not dask:
        raise InputError("dask/scheduler", f"--dask takes 'local' or a scheduler address, not {dask!r}")
    if dask == "local":
        cluster = LocalCluster(n_workers=workers or 1, threads_per_worker=1, processes=True,
                               dashboard_address=":0")
        try:
            with Client(cluster) as client:
                yield client
        finally:
            cluster.close()
        return
    if workers is not None:
        raise InputError("dask/workers", "--workers applies to --dask local only (a cluster has its own workers)")
    try:
        client = Client(dask, timeout=30)
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError("dask/connect", f"cannot reach the Dask scheduler {dask!r}: {error}") from None
    with client:
        yield client


def run_indexed(
    task: Callable[[int], Any], indices: Iterable[int], on_result: Callable[[int, Any], None], *,
    dask: Any = None, workers: int | None = None, progress: bool = True, desc: str = "games",
) -> None:
    """Run ``task(i)`` for each index; ``on_result(i, result)`` runs here, in completion order.

    A task that raises stops the run: the other tasks are cancelled and the error propagates, after every
    result that arrived before it went through ``on_result`` (a rerun then resumes from there).
    """
    indices = list(indices)
    if dask is None:
        with tqdm(total=len(indices), desc=desc, disable=not progress) as bar:
            for index in indices:
                on_result(index, task(index))
                bar.update()
        return
    from distributed import as_completed

    with dask_client(dask, workers) as client, tqdm(total=len(indices), desc=desc, disable=not progress) as bar:
        futures = {client.submit(task, index, pure=False): index for index in indices}
        try:
            for future in as_completed(list(futures)):
                index = futures.pop(future)
                result = future.result()  # re-raises the task's exception here
                future.release()
                on_result(index, result)
                bar.update()
        finally:
            client.cancel(list(futures))


def task_overhead(dask: Any = "local", workers: int | None = 1, tasks: int = 200) -> float:
    """Seconds per task of the Dask round trip alone (an empty task through :func:`run_indexed`),
    cluster start-up excluded."""
    with dask_client(dask, workers) as client:
        run_indexed(int, range(5), lambda i, r: None, dask=client, progress=False)  # warm-up
        started = time.perf_counter()
        run_indexed(int, range(tasks), lambda i, r: None, dask=client, progress=False)
        return (time.perf_counter() - started) / tasks


# --- `dunenb simulate --dask` ---------------------------------------------------------------------------------

PARTIAL = ".simulate-partial"  # per-game resume records, removed once summary.csv is written


def _simulate_task(
    index: int, settings: dict[str, Any],
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    from dunenb.simulate import game_summary, line_to_save, play_indexed_game

    config, actions, final, players, powers = play_indexed_game(index, **settings)
    return (line_to_save(config, actions, validated=True),
            game_summary(index, config, final, players, len(actions)), powers)


def _jsonable(settings: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in settings.items()}


def simulate_rows(
    games: int, settings: dict[str, Any], folder: Path | None, *, dask: Any, workers: int | None = None,
    progress: bool = True,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The summary rows and the ``powers.csv`` rows of games ``0..games-1`` played as Dask tasks; each save is
    written here, atomically, as its task returns (``folder/game_NNNN.json``, the bytes
    :func:`dunenb.simulate.simulate` writes), then its rows in ``folder/.simulate-partial/``: a rerun of the same
    command skips those games (a record without power rows, from an older dunenb, is played again)."""
    rows: dict[int, dict[str, Any]] = {}
    powers: dict[int, list[dict[str, Any]]] = {}
    stamp = _jsonable(settings)
    partial = folder / PARTIAL if folder is not None else None
    if folder is not None and partial is not None:
        for index in range(games):
            path = partial / f"row_{index:04d}.json"
            if path.exists() and (folder / f"game_{index:04d}.json").exists():
                record = read_json(path)
                if isinstance(record, dict) and record.get("settings") == stamp and "powers" in record:
                    rows[index], powers[index] = record["row"], record["powers"]

    def collect(index: int, result: tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]) -> None:
        save, row, game_powers = result
        if folder is not None and partial is not None:
            write_json_atomic(folder / f"game_{index:04d}.json", save)
            write_json_atomic(partial / f"row_{index:04d}.json", {"settings": stamp, "row": row,
                                                                  "powers": game_powers})
        rows[index], powers[index] = row, game_powers

    todo = [i for i in range(games) if i not in rows]
    run_indexed(functools.partial(_simulate_task, settings=settings), todo, collect, dask=dask, workers=workers,
                progress=progress)
    return [rows[i] for i in range(games)], [row for i in range(games) for row in powers[i]]


def finish_simulation(folder: Path) -> None:
    """Remove the resume records once the run's summary.csv is written (the files then equal a
    single-process run's)."""
    shutil.rmtree(folder / PARTIAL, ignore_errors=True)
