"""Core subcommands: ``rules``, ``new``, ``replay``. The JSON they print is documented in the README."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from dunenb.board import load_board
from dunenb.engine import make_config
from dunenb.errors import InputError
from dunenb.play import advance
from dunenb.record import GameRecord
from dunenb.render import render_svg
from dunenb.ruleset import HOUSE_IDS, load_ruleset
from dunenb.saves import load_game, save_game
from dunenb.state import GameState


def register(subparsers: argparse._SubParsersAction) -> None:
    rules = subparsers.add_parser("rules", help="print rules data (board, leaders)")
    rules.add_argument("topic", choices=["map", "leaders"], help="what to print")
    rules.add_argument("--json", action="store_true", help="print JSON (the only format for now)")
    rules.set_defaults(func=_rules)

    new = subparsers.add_parser("new", help="set up a new game and write it as a saved game")
    new.add_argument("--houses", required=True, help=f"comma-separated House ids, 2 to 8 of: {', '.join(HOUSE_IDS)}")
    new.add_argument("--seed", type=int, default=0, help="seed of the game's generator (default 0)")
    new.add_argument("--secondary-storm", action="store_true", help="play with the secondary storm (STORM-12)")
    new.add_argument("--worms", default="standard", help="worm-card option (SPICE-3): standard, 18+1d10, ...")
    new.add_argument("--turn-limit", type=int, default=None, help="end the game after this turn (GAP-36c)")
    new.add_argument("--chance-cards", action="store_true",
                     help="play with the optional Chance cards (CHANCE-1..5, a GAP-20 design)")
    new.add_argument("--play-turns", type=int, default=0,
                     help="play this many turns with the generator and random bots before saving (default 0)")
    new.add_argument("--out", required=True, help="path of the saved game to write")
    new.add_argument("--force", action="store_true", help="overwrite an existing file at --out")
    new.add_argument("--json", action="store_true", help="print a JSON summary")
    new.set_defaults(func=_new)

    simulate = subparsers.add_parser("simulate", help="play bot-only games, save them and print a summary table")
    simulate.add_argument("--games", type=int, required=True, help="number of games")
    simulate.add_argument("--houses", default="mixed",
                          help="comma-separated House ids, or 'mixed' for 2 to 8 random Houses per game")
    simulate.add_argument("--bots", default="random", help="one bot for everyone or one per House: random, heuristic")
    simulate.add_argument("--seed", type=int, default=0, help="game i uses seed SEED+i (deterministic)")
    simulate.add_argument("--turn-limit", type=int, default=15, help="end each game after this turn (default 15)")
    simulate.add_argument("--secondary-storm", action="store_true", help="play with the secondary storm")
    simulate.add_argument("--out", required=True, help="folder for game_NNNN.json saves and summary.csv")
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON records")
    simulate.add_argument("--dask", default=None, metavar="SCHEDULER",
                          help="run the games as Dask tasks: 'local' (a LocalCluster) or a scheduler address; "
                               "same files as without it, and a rerun resumes")
    simulate.add_argument("--workers", type=int, default=None, help="worker processes for --dask local (default 1)")
    simulate.set_defaults(func=_simulate)

    replay = subparsers.add_parser("replay", help="replay a saved game's main line to a step")
    replay.add_argument("save", help="a saved game (dunenb.save/1)")
    replay.add_argument("--to", type=int, default=None, help="step N = after the first N actions (default: last)")
    replay.add_argument("--svg", default=None, help="write the map at that step as SVG to this path")
    replay.add_argument("--json", action="store_true", help="print the position as JSON")
    replay.set_defaults(func=_replay)


def _rules(args: argparse.Namespace) -> int:
    if args.topic == "map":
        print(json.dumps(load_board().to_json(), ensure_ascii=False, indent=1))
    else:
        from dunenb.battle.roster import roster_as_json

        print(json.dumps(roster_as_json(), ensure_ascii=False, indent=1))
    return 0


def _new(args: argparse.Namespace) -> int:
    houses = [h.strip() for h in args.houses.split(",") if h.strip()]
    config = make_config(houses, seed=args.seed, secondary_storm=args.secondary_storm, worm_option=args.worms,
                         turn_limit=args.turn_limit, chance_cards=args.chance_cards)
    if args.play_turns < 0:
        raise InputError("cli/play-turns", "--play-turns must be 0 or more")
    out = Path(args.out)
    if out.exists() and not args.force:
        raise InputError("cli/out-exists", f"--out {out} exists; choose another path or pass --force")
    record = GameRecord(config)
    node = record.root
    for _ in range(args.play_turns):
        node = advance(record, node, until="turn", seed=args.seed)
    save_game(record, out)
    summary = {"save": os.fspath(out), **position_summary(record.state_at(node), step=record.depth(node),
                                                           total=record.depth(node))}
    print(json.dumps(summary, ensure_ascii=False, indent=1) if args.json else
          f"wrote {out}: {summary['step']} actions, turn {summary['turn']}, {summary['phase']}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from dunenb.simulate import simulate

    houses = None if args.houses == "mixed" else [h.strip() for h in args.houses.split(",") if h.strip()]
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.workers is not None and args.dask is None:
        raise InputError("cli/workers", "--workers needs --dask local (the number of local Dask worker processes)")
    table = simulate(games=args.games, houses=houses, bots=bots, seed=args.seed, turn_limit=args.turn_limit,
                     out=args.out, secondary_storm=args.secondary_storm, dask=args.dask, workers=args.workers)
    if args.json:
        print(table.to_json(orient="records"))
    else:
        print(table.to_string(index=False))
    return 0


def _replay(args: argparse.Namespace) -> int:
    record = load_game(args.save)
    line = record.mainline()
    step = len(line) if args.to is None else args.to
    if not 0 <= step <= len(line):
        raise InputError("cli/to", f"--to {step} is out of range: the main line has steps 0..{len(line)}")
    node = line[step - 1] if step else record.root
    state = record.state_at(node)
    if args.svg:
        Path(args.svg).write_text(render_svg(state), encoding="utf-8")
    summary = position_summary(state, step=step, total=len(line))
    if args.svg:
        summary["svg"] = args.svg
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=1))
    else:
        print(f"step {step}/{len(line)}: turn {state.turn}, {state.phase}")
        for line_text in summary["events"]:
            print(f"  {line_text}")
    return 0


def position_summary(state: GameState, *, step: int, total: int) -> dict[str, Any]:
    """The documented JSON of one position (used by ``new --json`` and ``replay --json``)."""
    pending = None if state.pending is None else {"kind": state.pending.kind, "actor": state.pending.actor}
    return {
        "step": step,
        "of": total,
        "turn": state.turn,
        "phase": state.phase,
        "pending": pending,
        "storms": {"main": state.storm_main, "secondary": state.storm_secondary},
        "spice_on_map": dict(sorted(state.spice_on_map.items())),
        "houses": {
            house: {
                "spice": hs.spice, "start_position": hs.start_position, "reserve": hs.reserve.total,
                "tanks": hs.tanks.total,
                "on_dune": sum(t.total for (h, _a, _s), t in state.forces.items() if h == house),
                "colour": load_ruleset().house(house).colour,
            }
            for house, hs in state.houses.items()
        },
        "forces": [{"house": h, "area": a, "sector": s, "regular": t.regular, "marked": t.marked}
                   for (h, a, s), t in sorted(state.forces.items())],
        "events": [e.text for e in state.events],
    }
