"""Core subcommands: ``rules``, ``new``, ``continue``, ``simulate``, ``replay``. The JSON they print is documented in
the README.

The engine, the bots, saves and the renderer are imported by the commands that use them (issue 14 part 3), so
that ``rules`` and ``--help`` start at once.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dunenb import reference_cli
from dunenb.board import load_board
from dunenb.cliargs import int_type, refuse_existing
from dunenb.errors import InputError
from dunenb.gcpause import collector_paused
from dunenb.jsonio import write_text_atomic
from dunenb.ruleset import HOUSE_IDS, load_ruleset

if TYPE_CHECKING:
    from dunenb.state import GameState

#: Seeds on the command line: 0 .. 2**63 - 1 (GAP-59; saves and the library accept any non-negative integer).
SEED = int_type("--seed", low=0, high=2**63 - 1)
REFERENCE_TOPICS = reference_cli.TOPICS


def register(subparsers: argparse._SubParsersAction) -> None:
    rules = subparsers.add_parser("rules", help="print rules data (board, leaders), the rules reference and coverage")
    rules.add_argument("topic", choices=["map", "leaders", *REFERENCE_TOPICS],
                       help="map, leaders; show ID, search WORDS, text (the rules reference); coverage")
    rules.add_argument("words", nargs="*", help="the rule ID for show, the words for search")
    rules.add_argument("--json", action="store_true", help="print JSON (map and leaders: the only format)")
    rules.add_argument("--houses", default=None,
                       help="leaders only: comma-separated line-up; show the leaders in play and the copies left "
                            "out (one copy per character, leaders.md X-1)")
    rules.add_argument("--tests", default=None, help="coverage: the tests folder (default: the project's tests/)")
    rules.set_defaults(func=_rules)

    new = subparsers.add_parser("new", help="set up a new game and write it as a saved game")
    new.add_argument("--houses", required=True, help=f"comma-separated House ids, 2 to 8 of: {', '.join(HOUSE_IDS)}")
    new.add_argument("--seed", type=SEED, default=None,
                     help="seed of the game's generator (default: a fresh 128-bit seed, GAP-62; a small seed is "
                          "for teaching and reproducible examples)")
    new.add_argument("--secondary-storm", action="store_true", help="play with the secondary storm (STORM-12)")
    new.add_argument("--worms", default="standard", help="worm-card option (SPICE-3): standard, 18+1d10, ...")
    new.add_argument("--turn-limit", type=int_type("--turn-limit", low=1), default=None,
                     help="end the game after this turn (GAP-36c)")
    new.add_argument("--chance-cards", action="store_true",
                     help="play with the optional Chance cards (CHANCE-1..5, a GAP-20 design)")
    new.add_argument("--play-turns", type=int_type("--play-turns", low=0), default=0,
                     help="play this many turns with the generator and random bots before saving (default 0)")
    new.add_argument("--out", required=True, help="path of the saved game to write")
    new.add_argument("--force", action="store_true", help="overwrite an existing file at --out")
    new.add_argument("--json", action="store_true", help="print a JSON summary")
    new.set_defaults(func=_new)

    more = subparsers.add_parser("continue", help="play a saved game on with bots and write it as a new save")
    more.add_argument("save", help="a saved game (dunenb.save/1); play resumes at the end of its main line")
    more.add_argument("--turns", type=int_type("--turns", low=1), required=True,
                      help="play this many more turns (fewer if the game ends first)")
    more.add_argument("--bots", default="random",
                      help="one bot for every House or one per House in the save's order: random, heuristic "
                           "(default random, like new --play-turns)")
    more.add_argument("--out", default=None,
                      help="path of the new save (default: none; give --out, or --force to overwrite SAVE)")
    more.add_argument("--force", action="store_true", help="overwrite an existing --out, or SAVE without --out")
    more.add_argument("--json", action="store_true", help="print a JSON summary")
    more.set_defaults(func=_continue)

    simulate = subparsers.add_parser("simulate", help="play bot-only games, save them and print a summary table")
    simulate.add_argument("--games", type=int_type("--games", low=1), required=True, help="number of games")
    simulate.add_argument("--houses", default="mixed",
                          help="comma-separated House ids, or 'mixed' for 2 to 8 random Houses per game")
    simulate.add_argument("--bots", default="random", help="one bot for everyone or one per House: random, heuristic")
    simulate.add_argument("--seed", type=SEED, default=None,
                          help="game i uses seed SEED+i (deterministic; default: a fresh 128-bit SEED, GAP-62)")
    simulate.add_argument("--turn-limit", type=int_type("--turn-limit", low=1), default=15,
                          help="end each game after this turn (default 15)")
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
    replay.add_argument("--to", type=int_type("--to", low=0), default=None,
                        help="step N = after the first N actions (default: last)")
    replay.add_argument("--svg", default=None, help="write the map at that step as SVG to this path")
    replay.add_argument("--force", action="store_true", help="overwrite an existing file at --svg")
    replay.add_argument("--json", action="store_true", help="print the position as JSON")
    replay.add_argument("--view", default=None, metavar="HOUSE",
                        help="show the position as this House sees it (GAP-58; default: the god view)")
    replay.set_defaults(func=_replay)


def _rules(args: argparse.Namespace) -> int:
    if args.topic in REFERENCE_TOPICS:
        return reference_cli.run(args)
    if args.words:
        raise InputError("rules/extra-words", f"`rules {args.topic}` takes no words, got {' '.join(args.words)!r}")
    if args.houses is not None and args.topic != "leaders":
        raise InputError("cli/rules-houses", "--houses goes with 'rules leaders' only")
    if args.topic == "map":
        print(json.dumps(load_board().to_json(), ensure_ascii=False, indent=1))
    elif args.houses is not None:
        from dunenb.battle.characters import line_up_json

        houses = [h.strip() for h in args.houses.split(",") if h.strip()]
        print(json.dumps(line_up_json(houses), ensure_ascii=False, indent=1))
    else:
        from dunenb.battle.roster import roster_as_json

        print(json.dumps(roster_as_json(), ensure_ascii=False, indent=1))
    return 0


def _new(args: argparse.Namespace) -> int:
    with collector_paused():  # issue 14 part 3: the engine's modules, classes and tables are all kept
        from dunenb.engine import make_config
        from dunenb.play import play_turns
        from dunenb.record import GameRecord
        from dunenb.saves import save_game

    houses = [h.strip() for h in args.houses.split(",") if h.strip()]
    config = make_config(houses, seed=args.seed, secondary_storm=args.secondary_storm, worm_option=args.worms,
                         turn_limit=args.turn_limit, chance_cards=args.chance_cards)
    out = Path(args.out)
    refuse_existing(out, args.force, "--out")
    record = GameRecord(config)
    node = play_turns(record, record.root, args.play_turns, seed=config.seed)
    save_game(record, out)
    summary = {"save": os.fspath(out), **position_summary(record.state_at(node), step=record.depth(node),
                                                           total=record.depth(node))}
    print(json.dumps(summary, ensure_ascii=False, indent=1) if args.json else
          f"wrote {out}: {summary['step']} actions, turn {summary['turn']}, {summary['phase']}")
    return 0


def _continue_bots(text: str, houses: tuple[str, ...], seed: int) -> dict[str, Any]:
    """The bots of ``continue --bots``: one name for every House, or one per House in the save's order."""
    from dunenb.bots import BOTS, make_bot

    names = [b.strip() for b in text.split(",") if b.strip()]
    unknown = [b for b in names if b not in BOTS]
    if not names or unknown or len(names) not in (1, len(houses)):
        raise InputError("cli/bots", f"--bots {text!r}: give one bot name, or one per House ({len(houses)}: "
                         f"{', '.join(houses)}); allowed names: {', '.join(BOTS)}")
    if len(names) == 1:
        names = names * len(houses)
    # The bots are seeded with the game's seed, as ``new --play-turns`` seeds its random bot, so that
    # ``new`` then ``continue --turns N`` plays the same game as ``new --play-turns N``.
    return {house: make_bot(name, seed=seed) for house, name in zip(houses, names, strict=True)}


def _continue(args: argparse.Namespace) -> int:
    """``dunenb continue``: resume at the end of the save's main line, play ``--turns`` turns with the bots
    (chance drawn by the game's own seeded generator), and write the whole tree, variations kept, to a new
    file. Without ``--out`` only ``--force`` may write, over SAVE itself; an existing ``--out`` needs it too."""
    out = Path(args.out) if args.out is not None else Path(args.save)
    if args.out is None and not args.force:
        raise InputError("cli/out-required", f"continue writes a new save: give --out NEW, or --force to "
                         f"overwrite {args.save}")
    if args.out is not None:
        refuse_existing(out, args.force, "--out")
    with collector_paused():  # issue 14 part 3: the engine's modules, classes and tables are all kept
        from dunenb.play import play_turns
        from dunenb.saves import load_game, save_game

    record = load_game(args.save)
    start = record.leaf()
    if record.state_at(start).is_over:
        raise InputError("cli/game-over", f"{args.save}: the game is over (step {record.depth(start)}); "
                         "there is nothing to continue")
    bots = _continue_bots(args.bots, record.config.houses, record.config.seed)
    node = play_turns(record, start, args.turns, bots=bots, seed=record.config.seed)
    save_game(record, out, current=node)
    step = record.depth(node)
    summary = {"save": os.fspath(out), "from_step": record.depth(start),
               **position_summary(record.state_at(node), step=step, total=step)}
    print(json.dumps(summary, ensure_ascii=False, indent=1) if args.json else
          f"wrote {out}: {summary['from_step']} -> {step} actions, turn {summary['turn']}, {summary['phase']}"
          + (f", won by {record.state_at(node).winner}" if record.state_at(node).is_over else ""))
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
    with collector_paused():  # issue 14 part 3: the engine's modules, classes and tables are all kept
        from dunenb.engine import view
        from dunenb.saves import load_game_to

    if args.svg:
        refuse_existing(args.svg, args.force, "--svg")
    record = load_game_to(args.save, args.to)  # issue 14 item 3: no GAP-68 stamp verified that spares no check
    line = record.mainline()
    step = len(line) if args.to is None else args.to
    if not 0 <= step <= len(line):
        raise InputError("cli/to", f"--to {step} is out of range: the main line has steps 0..{len(line)}")
    node = line[step - 1] if step else record.root
    state = record.state_at(node)
    if args.view is not None:
        if args.view not in record.config.houses:
            raise InputError("cli/view", f"--view {args.view!r}: not a House of this game; allowed: "
                             f"{', '.join(record.config.houses)}")
        state = view(state, args.view)  # GAP-58: hands, slips, prediction, storm tokens, deck and seed hidden
    if args.svg:
        from dunenb.render import render_svg

        write_text_atomic(args.svg, render_svg(state, house_view=args.view))
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
