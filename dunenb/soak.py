"""Soak test: thousands of bot games with every invariant checked after every action (issue 15, ``make soak``).

Game ``seed`` draws 2 to 8 Houses (every House's powers are always on), heuristic and random bots in turn, the
secondary storm on odd seeds, the three worm options in turn, the Chance cards on one seed in four, a table
turn limit of 3 to 6 turns, or (one seed in a hundred) no limit at all, which the GAP-60 turn cap ends.
Each game's result is written atomically as ``OUT/results/game_SEED.json`` as soon as it is known; a rerun
skips the seeds already there, so a soak killed half-way (or a dead Dask worker) loses nothing and repeats
nothing. A failing game (a broken invariant or any exception) is written as a replayable save in
``OUT/failing/game_seed_SEED.json``; ``OUT/summary.json`` gives the totals.

>>> report = run_soak(2, progress=False)
>>> (report.games, report.violations)
(2, 0)
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dunenb.bots import make_bot
from dunenb.engine import make_config
from dunenb.invariants import play_checked
from dunenb.jsonio import read_json, write_json_atomic
from dunenb.ruleset import HOUSE_IDS
from dunenb.state import GameConfig

RESULT_FORMAT = "dunenb.soak-game/1"
SUMMARY_FORMAT = "dunenb.soak/1"
WORM_OPTIONS = ("standard", "18+1d10", "36+1d5")


@dataclass(frozen=True)
class SoakGame:
    """What soak game ``seed`` plays: its configuration and one bot name per House."""

    config: GameConfig
    bots: tuple[str, ...]


def soak_game(seed: int) -> SoakGame:
    """The configuration and bots of soak game ``seed`` (a pure function of the seed)."""
    generator = np.random.default_rng([seed, 500])
    count = int(generator.integers(2, 9))
    count = len(HOUSE_IDS) if seed % 10 == 0 else count  # issue 10: all eight Houses, their powers on, often
    houses = [str(h) for h in generator.choice(HOUSE_IDS, size=count, replace=False)]
    turn_limit: int | None = int(generator.integers(3, 7))
    if seed % 100 == 99:
        turn_limit = None  # GAP-60: the turn cap must end it
    config = make_config(houses, seed=seed, turn_limit=turn_limit, secondary_storm=bool(seed % 2),
                         worm_option=WORM_OPTIONS[seed % 3], chance_cards=seed % 4 == 3)
    bots = tuple("heuristic" if (seed + k) % 2 else "random" for k in range(len(houses)))
    return SoakGame(config, bots)


def play_soak_game(seed: int) -> dict[str, Any]:
    """Play soak game ``seed`` with the checks on; returns its result (``save`` holds the line if it failed)."""
    game = soak_game(seed)
    bots = {h: make_bot(name, seed=seed + k) for k, (h, name) in enumerate(zip(game.config.houses, game.bots,
                                                                               strict=True))}
    played = play_checked(game.config, bots)
    result: dict[str, Any] = {
        "format": RESULT_FORMAT, "seed": seed, "houses": list(game.config.houses), "bots": list(game.bots),
        "turn_limit": game.config.turn_limit, "turns": played.final.turn, "actions": len(played.actions),
        "winner": played.final.winner, "failure": played.failure,
    }
    if played.error is not None:
        from dunenb.simulate import line_to_save

        result["save"] = line_to_save(game.config, played.actions)
    return result


@dataclass
class SoakReport:
    """Totals of a soak run (``violations`` counts failing games: broken invariants and crashes)."""

    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    violations: int = 0
    skipped: int = 0
    failing: list[dict[str, Any]] = field(default_factory=list)  # seed, failure, save path

    @property
    def games_per_second(self) -> float:
        played = self.games - self.skipped
        return played / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"format": SUMMARY_FORMAT, **asdict(self), "games_per_second": round(self.games_per_second, 3)}

    def text(self) -> str:
        lines = [f"soak: {self.games} games ({self.skipped} already done), {self.actions} actions, "
                 f"{self.seconds:.1f} s, {self.games_per_second:.2f} games/s, {self.violations} violations"]
        lines += [f"  seed {f['seed']}: {f['failure']} -> {f['save']}" for f in self.failing]
        return "\n".join(lines)


def _result_path(folder: Path, seed: int) -> Path:
    return folder / "results" / f"game_{seed:06d}.json"


def _finished(folder: Path | None, seed: int) -> dict[str, Any] | None:
    if folder is None:
        return None
    path = _result_path(folder, seed)
    if not path.exists():
        return None
    result = read_json(path)
    return result if isinstance(result, dict) and result.get("format") == RESULT_FORMAT else None


def run_soak(
    games: int, *, start: int = 0, out: str | os.PathLike[str] | None = None,
    failing_dir: str | os.PathLike[str] | None = None, dask: Any = None, workers: int | None = None,
    progress: bool = True,
) -> SoakReport:
    """Play soak games ``start .. start+games-1``; see the module docstring for the files written.

    ``out=None`` keeps results in memory only (the CI slice); failing saves then go to ``failing_dir``
    (default ``OUT/failing``). ``dask``/``workers``: as :func:`dunenb.distributed.run_indexed`.
    """
    from dunenb.distributed import run_indexed

    folder = Path(out) if out is not None else None
    failing = Path(failing_dir) if failing_dir is not None else (folder / "failing" if folder else None)
    report = SoakReport()
    seeds: Sequence[int] = range(start, start + games)
    todo = []
    for seed in seeds:
        done = _finished(folder, seed)
        if done is None:
            todo.append(seed)
        else:
            _count(report, done, failing, write=False)
            report.skipped += 1

    def collect(seed: int, result: dict[str, Any]) -> None:
        _count(report, result, failing, write=True)
        if folder is not None:
            write_json_atomic(_result_path(folder, seed), {k: v for k, v in result.items() if k != "save"})

    started = time.perf_counter()
    run_indexed(play_soak_game, todo, collect, dask=dask, workers=workers,
                progress=progress, desc="soak games")
    report.seconds = time.perf_counter() - started
    report.failing.sort(key=lambda f: f["seed"])
    if folder is not None:
        write_json_atomic(folder / "summary.json", report.to_dict())
    return report


def _count(report: SoakReport, result: dict[str, Any], failing: Path | None, *, write: bool) -> None:
    report.games += 1
    report.actions += int(result["actions"])
    if result.get("failure"):
        report.violations += 1
        path = None if failing is None else failing / f"game_seed_{result['seed']}.json"
        if write and path is not None and "save" in result:
            write_json_atomic(path, result["save"])
        report.failing.append({"seed": result["seed"], "failure": result["failure"],
                               "save": None if path is None else os.fspath(path)})


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dunenb.soak [--games N] [--start S] [--out DIR] [--dask local|ADDRESS] [--workers N]``;
    exit status 1 if any game failed."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m dunenb.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
    parser.add_argument("--start", type=int, default=0, help="first game seed (default 0)")
    parser.add_argument("--out", default="artifacts/soak", help="folder for results/, failing/, summary.json")
    parser.add_argument("--dask", default=None, help="'local' or a scheduler address: run the games as Dask tasks")
    parser.add_argument("--workers", type=int, default=None, help="worker processes for --dask local")
    args = parser.parse_args(argv)
    report = run_soak(args.games, start=args.start, out=args.out, dask=args.dask, workers=args.workers)
    print(report.text())
    return 1 if report.violations else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
