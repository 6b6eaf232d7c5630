"""dunenb beside boardzorg, the other Python Dune engine (issue 14 item 5): the replay of a 10-turn 6-faction game.

    python benchmarks/bench_peer.py /path/to/boardzorg-checkout [--turns 10] [--runs 5]

The checkout (github.com/eflynch/boardzorg, its ``boardzorg/`` package folder at least) is copied into a temporary
folder and imported from there; nothing is installed for good, and no test depends on it. Without the path, or
when boardzorg cannot run, the script says so and exits 0.

* boardzorg: a seeded driver plays a 6-faction game up to ``--turns`` turns through boardzorg's own command
  interface (``Session.handle_cmd``): at each step it gives a blocking command to a faction that has one, a
  command without arguments when there is one (passes), else one with arguments drawn from the command's argument
  spec; a command boardzorg refuses is not recorded. The game's serialised command log is then replayed
  (``Session.realize``: every command checked and played again) ``--runs`` times.
* dunenb: random bots play a 6-House game with ``turn_limit=turns`` (the same length), saved; loading the save
  and replaying it to its end (``load_game`` + ``state_at``, every action checked) is timed ``--runs`` times.

Printed per engine: min/median/max of the whole replay, the decisions replayed (boardzorg: the commands of its
log; dunenb: the actions that are not chance outcomes), milliseconds per decision, and the ratio. The two games
differ (other rules, other choices): the figure compares the cost of one replayed decision, not of one game.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

FACTIONS = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]
TOKEN_SECTORS = [1, 4, 7, 10, 13, 16]  # boardzorg's player-token positions (its actions/common.py)


def _argument(spec: dict[str, Any], faction: str, state: Any, rng: random.Random) -> str:
    """A command argument drawn from one of boardzorg's argument specs (the widgets its web client shows)."""
    widget, args = spec.get("widget"), spec.get("args")
    if widget == "null":
        return ""
    if widget == "constant":
        return str(args)
    if widget == "faction-select":
        return rng.choice([f for f in FACTIONS if f != faction])
    if widget == "token-select":
        return str(rng.choice(TOKEN_SECTORS))
    if widget in ("integer", "sector-select"):
        low, high = (args or {}).get("min", 0), (args or {}).get("max", 18)
        return str(rng.randint(low, min(high, low + 3)))
    if widget == "struct":
        return " ".join(_argument(part, faction, state, rng) for part in args)
    if widget == "choice":
        return _argument(rng.choice(args), faction, state, rng)
    if widget == "traitor-select":
        return str(rng.choice(state.faction_state[faction].traitors)[0])
    if widget == "multi-faction-select":
        return ""  # no alliance proposed
    if widget == "space-select":
        return rng.choice(sorted(state.map_state))
    if widget in ("space-sector-select-start", "space-sector-select-end"):
        space = state.map_state[rng.choice(sorted(state.map_state))]
        return f"{space.name} {rng.choice(list(space.sectors))}"
    if widget == "units":
        return ",".join(["1"] * rng.randint(1, 3))
    if widget in ("revival-units", "tank-units"):
        return ""
    if widget == "revival-leader":
        return "-"
    if widget == "fremen-placement-select":
        return ",".join(["1"] * 10) + ":::0:0"  # all ten tokens in Sietch Tabr
    raise KeyError(widget)


def _drive_boardzorg(turns: int, seed: int) -> tuple[str, int, int]:
    """Play a seeded game through boardzorg's commands; returns its serialised session, commands and turn."""
    from boardzorg.exceptions import BadCommand, IllegalAction
    from boardzorg.session import Session

    rng = random.Random(seed)
    random.seed(seed)  # boardzorg shuffles its decks with the module generator
    session = Session.new_session(factions=FACTIONS, seed=seed)
    for _ in range(20_000):
        state = session.game_log[-1]
        if state.turn > turns:
            break
        options = [(f, a) for f in FACTIONS for a in session.get_valid_actions(f) if a["blocking"]]
        if not options:
            break
        passes = [(f, a) for f, a in options if a["spec"].get("widget") == "null"]
        played = False
        for faction, action in passes[:1] + rng.sample(options, len(options)):
            for _attempt in range(30):
                try:
                    command = f"{action['name']} {_argument(action['spec'], faction, state, rng)}".strip()
                except (KeyError, IndexError, AttributeError, TypeError):
                    break  # a widget this driver cannot fill
                try:
                    session.handle_cmd(faction, command)
                except (IllegalAction, BadCommand, ValueError, KeyError, IndexError, TypeError, AttributeError):
                    continue
                played = True
                break
            if played:
                break
        if not played:
            break
    return Session.serialize(session), len(session.command_log), session.game_log[-1].turn


def boardzorg_figures(checkout: Path, turns: int, runs: int) -> tuple[list[float], int, int] | None:
    """Replay times (s), commands and turns reached of boardzorg, run from a temporary copy; None if it cannot."""
    package = checkout / "boardzorg"
    if not (package / "session.py").is_file():
        print(f"bench_peer: {checkout} is not a boardzorg checkout (no boardzorg/session.py): skipped")
        return None
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(package, Path(folder) / "boardzorg", symlinks=True, ignore_dangling_symlinks=True)
        sys.path.insert(0, folder)
        logging.disable(logging.CRITICAL)  # boardzorg logs every command
        try:
            from boardzorg.session import Session

            saved, commands, reached = _drive_boardzorg(turns, seed=0)
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                Session.realize(json.loads(saved))
                times.append(time.perf_counter() - start)
        except Exception as error:  # any failure of the other engine: a message, never a failure of ours
            print(f"bench_peer: boardzorg could not run ({type(error).__name__}: {error}): skipped")
            return None
        finally:
            logging.disable(logging.NOTSET)
            sys.path.remove(folder)
    return times, commands, reached


def dunenb_figures(turns: int, runs: int) -> tuple[list[float], int, int]:
    """Replay times (s) of a saved 6-House random-bot game of ``turns`` turns, its decisions and actions."""
    from dunenb.bots import make_bot
    from dunenb.engine import make_config
    from dunenb.jsonio import write_json_atomic
    from dunenb.saves import load_game
    from dunenb.simulate import line_to_save, play_game

    config = make_config(FACTIONS, seed=3, turn_limit=turns)
    played, _ = play_game(config, {h: make_bot("random", seed=k) for k, h in enumerate(FACTIONS)})
    decisions = sum(not action.is_chance for action in played)
    times = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        write_json_atomic(path, line_to_save(config, played))
        for _ in range(runs):
            start = time.perf_counter()
            record = load_game(path)
            record.state_at(record.mainline()[-1])
            times.append(time.perf_counter() - start)
    return times, decisions, len(played)


def _spread(times: list[float]) -> str:
    low, middle, high = (value * 1000 for value in (min(times), statistics.median(times), max(times)))
    return f"min {low:.0f} / median {middle:.0f} / max {high:.0f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boardzorg", nargs="?", help="path to a boardzorg checkout (skipped without it)")
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args(argv)
    if not options.boardzorg or not Path(options.boardzorg).is_dir():
        print("bench_peer: no boardzorg checkout given (python benchmarks/bench_peer.py PATH): skipped")
        return 0
    peer = boardzorg_figures(Path(options.boardzorg), options.turns, options.runs)
    if peer is None:
        return 0
    peer_times, commands, reached = peer
    ours, decisions, actions = dunenb_figures(options.turns, options.runs)
    peer_ms = statistics.median(peer_times) * 1000 / max(commands, 1)
    our_ms = statistics.median(ours) * 1000 / max(decisions, 1)
    print(f"boardzorg: {commands} commands over {reached} turn(s) (6 factions), replay {_spread(peer_times)}: "
          f"{peer_ms:.3f} ms a command")
    print(f"dunenb:    {decisions} decisions ({actions} actions with chance) over {options.turns} turns (6 Houses), "
          f"load + replay {_spread(ours)}: {our_ms:.3f} ms a decision")
    print(f"ratio: dunenb is {peer_ms / our_ms:.1f}x faster per decision (issue 14 goal: 20x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
