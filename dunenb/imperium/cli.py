"""The ``dunenb imperium`` subcommands: conflict placements, next-hand odds, simulations and replays.

Bad values raise :class:`dunenb.errors.InputError` (``imperium/argument``) naming the argument and what is
allowed, so the common ``error: [code] message`` handler of :mod:`dunenb.cli` applies.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="dunenb")
>>> register(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["imperium", "conflict", "--strengths", "9,5,5,0", "--json"])
>>> args.func(args)  # doctest: +NORMALIZE_WHITESPACE
{"placements": [{"player": 1, "strength": 9, "reward": 1}, {"player": 2, "strength": 5, "reward": 3},
{"player": 3, "strength": 5, "reward": 3}, {"player": 4, "strength": 0, "reward": null}]}
0
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from dunenb.cliargs import parse_int, shown
from dunenb.errors import InputError

_CODE = "imperium/argument"


def _bad(argument: str, text: object, allowed: str) -> InputError:
    return InputError("imperium/argument", f"{argument}: {shown(text)} is not allowed (allowed: {allowed})")


def _int_list(text: str | None, argument: str) -> list[int] | None:
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")]
    try:  # ASCII digits only, bounded (GAP-59): str.isdigit would let '²' through to int()
        return [parse_int(p, argument, low=0, code=_CODE) for p in parts]
    except InputError:
        raise _bad(argument, text, "comma-separated integers >= 0, one per player, e.g. 9,5,5,0") from None


def _emit(data: dict[str, Any], as_json: bool, lines: list[str]) -> None:
    print(json.dumps(data, ensure_ascii=False) if as_json else "\n".join(lines))


def run_conflict(args: argparse.Namespace) -> int:
    """``imperium conflict``: who takes which reward for given strengths (or troops and swords)."""
    from dunenb.imperium.combat import placements, strength

    strengths = _int_list(args.strengths, "--strengths")
    troops = _int_list(args.troops, "--troops")
    swords = _int_list(args.swords, "--swords")
    if strengths is not None and (troops is not None or swords is not None):
        raise InputError(
            "imperium/argument", "--strengths: give either --strengths or --troops with --swords, not both"
        )
    if strengths is None:
        if troops is None:
            raise InputError("imperium/argument", "--strengths or --troops: required (e.g. --strengths 9,5,5,0)")
        swords = swords if swords is not None else [0] * len(troops)
        if len(swords) != len(troops):
            raise _bad("--swords", args.swords, f"{len(troops)} values, one per player of --troops")
        strengths = [strength(t, s) for t, s in zip(troops, swords, strict=True)]
    if not 2 <= len(strengths) <= 4:
        raise _bad("--strengths" if args.strengths else "--troops", args.strengths or args.troops, "2 to 4 players")
    rewards = placements(strengths)
    data = {
        "placements": [
            {"player": i + 1, "strength": s, "reward": r}
            for i, (s, r) in enumerate(zip(strengths, rewards, strict=True))
        ]
    }
    lines = [
        f"player {p['player']}: strength {p['strength']:>2} -> reward {p['reward'] or '-'}" for p in data["placements"]
    ]
    _emit(data, args.json, lines)
    return 0


def _pile(text: str | None, argument: str) -> dict[str, int]:
    """``card:2,card`` (a bare id is 1 copy; ``starter`` is the starter deck)."""
    from dunenb.imperium.rules_data import load_rules

    rules = load_rules()
    if not text:
        return {}
    counts: dict[str, int] = {}
    for part in text.split(","):
        card, _, copies = part.strip().partition(":")
        if card == "starter" and not copies:
            for cid, n in rules.starter_deck.items():
                counts[cid] = counts.get(cid, 0) + n
            continue
        if card not in rules.cards:
            raise _bad(argument, part, "CARD[:COPIES] items, comma-separated, CARD among " + ", ".join(rules.cards))
        try:
            number = parse_int(copies, argument, low=1, high=99, code=_CODE) if copies else 1
        except InputError:
            raise _bad(argument, part, f"{card}:COPIES with COPIES from 1 to 99") from None
        counts[card] = counts.get(card, 0) + number
    return counts


def run_odds(args: argparse.Namespace) -> int:
    """``imperium odds``: the exact probability of each next hand and of drawing each card."""
    from dunenb.imperium.odds import card_odds, hand_odds

    deck = _pile(args.deck, "--deck")
    discard = _pile(args.discard, "--discard")
    top_count = parse_int(args.top, "--top", low=0, code=_CODE)
    odds = hand_odds(deck, discard)
    cards = card_odds(deck, discard)
    top: list[dict[str, Any]] = [{"hand": list(hand), "probability": float(p), "exact": str(p)}
                                 for hand, p in list(odds)[:top_count]]
    data = {
        "deck": deck,
        "discard": discard,
        "hands": len(odds),
        "top": top,
        "cards": {c: {"p_at_least_one": float(p), "exact": str(p)} for c, p in cards.items()},
    }
    lines = [f"{len(odds)} possible hands"] + [f"  {t['probability']:.4f}  {' '.join(t['hand'])}" for t in top]
    lines += [f"  P(at least one {c}) = {float(p):.4f}" for c, p in cards.items()]
    _emit(data, args.json, lines)
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    """``imperium simulate``: seeded bot games written as saves plus ``summary.csv``."""
    from dunenb.imperium.simulate import simulate

    games = parse_int(str(args.games), "--games", low=0, high=100_000, code=_CODE)
    players = parse_int(str(args.players), "--players", low=2, high=4, code=_CODE)
    seed = parse_int(str(args.seed), "--seed", low=0, code=_CODE)
    if not args.out:
        raise InputError("imperium/argument", "--out: required (allowed: a folder for the saves and summary.csv)")
    bots = [b.strip() for b in args.bots.split(",")]
    table = simulate(games, players, bots, seed, args.out, progress=not args.quiet)
    wins: dict[str, float] = {}
    for _, row in table.iterrows():
        winners = row["winner"].split("+")
        for name in winners:
            bot = name.rstrip("0123456789")
            wins[bot] = wins.get(bot, 0.0) + 1.0 / len(winners)
    data = {
        "games": games,
        "players": players,
        "bots": bots,
        "seed": seed,
        "out": str(args.out),
        "wins_by_bot": wins,
        "mean_rounds": float(table["rounds"].mean()) if len(table) else None,
        "mean_vp": {f"p{s}": float(table[f"p{s}_vp"].mean()) for s in range(1, players + 1)} if len(table) else {},
    }
    lines = [f"{data['games']} games written to {args.out} (summary.csv)"]
    lines += [f"  {bot}: {w:g} wins" for bot, w in wins.items()]
    _emit(data, args.json, lines)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """``imperium replay``: load a save, replay it and print the position as a seat (or a spectator) sees it."""
    from dunenb.imperium.save import load_game, view

    if not args.save:
        raise InputError("imperium/argument", "--save: required (allowed: the path of a dunenb.imperium/1 save)")
    state = load_game(args.save)
    seat = None
    if args.seat is not None:
        seat = parse_int(args.seat, "--seat", low=0, high=len(state.names) - 1, code=_CODE)
    data = view(state, seat)
    vps = ", ".join(f"{p['name']} {p['vp']}" for p in data["players"])
    lines = [f"{len(state.actions)} actions replayed; round {state.round}, phase {state.phase}; VP {vps}"]
    if data["winners"]:
        lines.append("winner: " + " + ".join(data["winners"]))
    _emit(data, args.json, lines)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``imperium`` command and its subcommands to ``subparsers``."""
    parser = subparsers.add_parser(
        "imperium", help="Dune: Imperium: conflicts, draw odds, bots", description="Dune: Imperium companion engine."
    )
    commands = parser.add_subparsers(dest="imperium_command", required=True, metavar="SUBCOMMAND")

    conflict = commands.add_parser("conflict", help="who takes which conflict reward")
    conflict.add_argument("--strengths", help="strength per player, e.g. 9,5,5,0 (2 to 4 players)")
    conflict.add_argument("--troops", help="troops in the conflict per player, e.g. 3,0,2")
    conflict.add_argument("--swords", help="swords per player, with --troops, e.g. 1,4,0")
    conflict.add_argument("--json", action="store_true", help="print a JSON object")
    conflict.set_defaults(func=run_conflict)

    odds = commands.add_parser("odds", help="exact odds of the next hand")
    odds.add_argument("--deck", default="starter", help="CARD[:COPIES],... or 'starter' (default starter)")
    odds.add_argument("--discard", default="", help="CARD[:COPIES],... (used when the deck has fewer than 5)")
    odds.add_argument("--top", default="10", help="how many most likely hands to list (default 10)")
    odds.add_argument("--json", action="store_true", help="print a JSON object")
    odds.set_defaults(func=run_odds)

    simulate = commands.add_parser("simulate", help="seeded bot games: saves and summary.csv")
    simulate.add_argument("--games", default="10", help="number of games (default 10)")
    simulate.add_argument("--players", default="4", help="2, 3 or 4 (default 4)")
    simulate.add_argument("--bots", default="random", help="bots by seat, comma-separated (random, heuristic)")
    simulate.add_argument("--seed", default="0", help="simulation seed (default 0)")
    simulate.add_argument("--out", help="folder for game_NNNN.json saves and summary.csv (required)")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    simulate.add_argument("--json", action="store_true", help="print a JSON object")
    simulate.set_defaults(func=run_simulate)

    replay = commands.add_parser("replay", help="load and replay a saved game")
    replay.add_argument("--save", metavar="PATH", help="a dunenb.imperium/1 save (required)")
    replay.add_argument("--seat", help="show the game as this seat sees it (default: a spectator)")
    replay.add_argument("--json", action="store_true", help="print a JSON object")
    replay.set_defaults(func=run_replay)
