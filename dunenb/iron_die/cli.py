"""The ``dunenb iron-die`` subcommands: exact odds, keep advice, bot games, simulations and replays.

``register(subparsers)`` adds ``iron-die`` with ``odds``, ``advise``, ``simulate``, ``play`` and ``replay``.
Every ``func`` returns an exit status; bad values raise :class:`dunenb.errors.InputError` naming the
argument and the allowed values.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="dunenb")
>>> register(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["iron-die", "odds", "--challenge", "military", "--target", "25", "--json"])
>>> args.func(args)  # doctest: +ELLIPSIS
{
 "challenge": "military",
...
0
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from typing import Any

from dunenb.cliargs import parse_int, refuse_existing
from dunenb.errors import InputError
from dunenb.iron_die.dice import ROLLS_PER_TURN
from dunenb.iron_die.options import FAITH_OPERATIONS, FAITH_TIEBREAKS, TableOptions
from dunenb.iron_die.results import CHALLENGES, SCORE_NAMES, check_challenge, parse_dice, parse_result
from dunenb.iron_die.rules_data import load_rules
from dunenb.iron_die.solver import KeepChoice, Policy, Value, beat_policy, score_policy, scores

RESULT_HELP = """\
RESULT notation (what a challenger must strictly beat):
  military  an integer sum 5-30, e.g. 23 (you need 24 or more)
  faith     S/U = S sevens with unused dice totalling U, e.g. 2/4; S/- = S sevens using every die;
            a bare S means "at least S sevens" (e.g. 2: the chance of making two sevens)
            (ties: a hand that leaves a die unused beats one that uses all; a lower unused total wins)
  intrigue  NAME:DICE = an exact hand, e.g. full-house:4,4,4,1,1;
            a bare NAME means "at least that hand", e.g. full-house (a full house or better)
            names: nothing, one-pair, two-pairs, three-of-a-kind, straight, full-house,
            four-of-a-kind, five-of-a-kind (French: paire, deux-paires, brelan, suite, full, carre, poker)
  any       five dice, e.g. 6,6,4,4,2 = the result those dice make in the challenge
"""


def _value_fields(prefix: str, value: Value | None) -> dict[str, Any]:
    if value is None:
        return {prefix: None, f"{prefix}_exact": None}
    return {prefix: float(value), f"{prefix}_exact": str(value)}


def _print(data: dict[str, Any], as_json: bool, lines: list[str]) -> None:
    if as_json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        print("\n".join(lines))


def _challenge(args: argparse.Namespace) -> str:
    if args.challenge is None:
        raise InputError("iron-die/argument", f"--challenge: required (allowed: {', '.join(CHALLENGES)})")
    return check_challenge(args.challenge, "--challenge")


def _table_options(args: argparse.Namespace) -> TableOptions:
    """The table options of ``--faith-operations`` / ``--faith-tiebreak`` (IRON-GAP-17, IRON-GAP-18)."""
    values = {}
    for name, allowed in (("faith_operations", FAITH_OPERATIONS), ("faith_tiebreak", FAITH_TIEBREAKS)):
        text = getattr(args, name, None)
        if text is None:
            continue
        if text not in allowed:
            option = "--" + name.replace("_", "-")
            raise InputError("iron-die/argument", f"{option}: {text!r} is not allowed (allowed: {', '.join(allowed)})")
        values[name] = text
    return TableOptions(**values)


def score_distribution(challenge: str, policy: Policy, options: TableOptions) -> list[dict[str, Any]]:
    """How the turn's final score is distributed when ``policy`` is followed from the first roll (exact):
    one ``{"score", "p", "exact"}`` row per reachable score, lowest first (IRON-GAP-15 scores).

    >>> rows = score_distribution("faith", score_policy("faith"), TableOptions())
    >>> [row["score"] for row in rows], sum(row["p"] for row in rows)
    ([0, 1, 2], 1.0)
    """
    weights, denominator = policy.final_distribution()
    totals: dict[int, int] = {}
    for score, weight in zip(scores(challenge, options).tolist(), weights.tolist(), strict=True):
        totals[score] = totals.get(score, 0) + int(weight)
    rows = []
    for score in sorted(totals):
        if totals[score]:
            exact = Fraction(totals[score], denominator)
            rows.append({"score": score, "p": float(exact), "exact": str(exact)})
    return rows


def run_odds(args: argparse.Namespace) -> int:
    """``iron-die odds``: optimal probability of beating ``--target`` and optimal expected score; with
    ``--distribution`` the whole final-score distribution of the policy followed."""
    challenge = _challenge(args)
    options = _table_options(args)
    target = None if args.target is None else parse_result(challenge, args.target, "--target", options)
    expected = score_policy(challenge, options).start_value()
    p_beat = None if target is None else beat_policy(challenge, target).start_value()
    data: dict[str, Any] = {
        "challenge": challenge,
        "rolls": ROLLS_PER_TURN,
        "score": SCORE_NAMES[challenge],
        **_value_fields("expected_score", expected),
        "target": None if target is None else target.notation,
        "target_meaning": None if target is None else target.describe(),
        **_value_fields("p_beat", p_beat),
    }
    lines = [f"{challenge}: optimal expected score {float(expected):.4f} ({SCORE_NAMES[challenge]})"]
    if target is not None and p_beat is not None:
        lines.append(
            f"optimal probability of beating {target.notation} ({target.describe()}): {float(p_beat):.6f}"
        )
    if not options.is_default:
        data["options"] = options.to_dict()
        lines.append(f"table options: {options.describe()}")
    if args.distribution:
        followed = score_policy(challenge, options) if target is None else beat_policy(challenge, target)
        data["distribution_policy"] = "expected_score" if target is None else "p_beat"
        data["distribution"] = score_distribution(challenge, followed, options)
        lines.append(f"final score distribution ({data['distribution_policy']} policy):")
        lines += [f"  {row['score']:>3}  {row['p']:.6f}  ({row['exact']})" for row in data["distribution"]]
    _print(data, args.json, lines)
    return 0


def _rolls_left(text: str) -> int:
    if text.strip() not in ("0", "1", "2"):
        raise InputError("iron-die/argument", f"--rolls-left: {text!r} is not allowed (allowed: 0, 1, 2)")
    return int(text)


def _players(text: str) -> int:
    """A number of players, ``min_players`` to ``max_players`` of the rules data (GAP-59: at most 20)."""
    rules = load_rules()
    return parse_int(text, "--players", low=rules.min_players, high=rules.max_players, code="iron-die/argument")


def run_advise(args: argparse.Namespace) -> int:
    """``iron-die advise``: every keep from ``--dice`` ranked by its optimal value."""
    if args.dice is None:
        raise InputError("iron-die/argument", "--dice: required (allowed: five faces 1-6, e.g. 6,6,4,4,2)")
    dice = parse_dice(args.dice, "--dice")
    rolls_left = _rolls_left(args.rolls_left)
    options = _table_options(args)
    declare = None
    if args.first_player:
        if args.challenge is not None or args.target is not None:
            raise InputError(
                "iron-die/argument",
                "--first-player: the first player picks the challenge; drop --challenge/--target",
            )
        from dunenb.iron_die.initiator import initiator_policy

        players = _players(args.players)
        policy = initiator_policy(players, options=options)
        choices = policy.ranked_keeps(dice, rolls_left)
        challenge, target, objective = None, None, "p_win_point"
        if choices[0].keep == dice:
            declare = policy.declare_for(dice)
    else:
        challenge = _challenge(args)
        target = None if args.target is None else parse_result(challenge, args.target, "--target", options)
        if target is None:
            choices = score_policy(challenge, options).ranked_keeps(dice, rolls_left)
            objective = "expected_score"
        else:
            choices = beat_policy(challenge, target).ranked_keeps(dice, rolls_left)
            objective = "p_beat"
    best: KeepChoice = choices[0]
    data: dict[str, Any] = {
        "role": "first-player" if args.first_player else "challenger",
        "challenge": challenge,
        "dice": list(dice),
        "rolls_left": rolls_left,
        "objective": objective,
        "target": None if target is None else target.notation,
        "best": best.to_dict(),
        "stop": best.keep == dice,
        "declare": declare,
        "keeps": [choice.to_dict() for choice in choices],
    }
    if not options.is_default:
        data["options"] = options.to_dict()
    action = "stop" if best.keep == dice else f"keep {','.join(map(str, best.keep)) or 'nothing'}"
    lines = [
        f"best: {action} ({objective} {float(best.value):.6f})" + (f", declare {declare}" if declare else "")
    ]
    lines += [
        f"  keep {','.join(map(str, c.keep)) or '-':<10} reroll {','.join(map(str, c.reroll)) or '-':<10} "
        f"{float(c.value):.6f}"
        for c in choices
    ]
    _print(data, args.json, lines)
    return 0


def _bot_names(text: str) -> list[str]:
    from dunenb.iron_die.bots import BOTS

    names = [name.strip() for name in text.split(",")]
    bad = [name for name in names if name not in BOTS]
    rules = load_rules()
    if not rules.min_players <= len(names) <= rules.max_players or bad:
        raise InputError(
            "iron-die/argument",
            f"--bots: {text!r} is not allowed (allowed: {rules.min_players} to {rules.max_players} of "
            f"{', '.join(BOTS)}, comma-separated; GAP-59)",
        )
    return names


def _nonnegative(text: str, argument: str) -> int:
    return parse_int(text, argument, low=0, code="iron-die/argument")


def run_simulate(args: argparse.Namespace) -> int:
    """``iron-die simulate``: seeded bot-against-bot games and win rates."""
    from dunenb.iron_die.simulate import simulate, win_rates

    games = _nonnegative(args.games, "--games")
    seed = _nonnegative(args.seed, "--seed")
    bots = _bot_names(args.bots)
    options = _table_options(args)
    table = simulate(games, seed=seed, bots=bots, progress=args.progress, options=options)
    rates = win_rates(table)
    data = {
        "games": games,
        "seed": seed,
        "bots": bots,
        "win_rates": {
            bot: {"games": int(row.games), "wins": int(row.wins), "win_rate": float(row.win_rate)}
            for bot, row in rates.iterrows()
        },
        "mean_rounds": float(table["rounds"].mean()) if games else None,
    }
    if not options.is_default:
        data["options"] = options.to_dict()
    lines = [f"{games} games, seed {seed}"] + [
        f"  {bot:<8} {int(row.wins):>6} wins / {int(row.games)} games = {float(row.win_rate):.3f}"
        for bot, row in rates.iterrows()
    ]
    _print(data, args.json, lines)
    return 0


def run_play(args: argparse.Namespace) -> int:
    """``iron-die play``: one whole bot game, printed and optionally saved."""
    from dunenb.iron_die.bots import make_bot
    from dunenb.iron_die.save import save_game
    from dunenb.iron_die.simulate import play_game

    bots = _bot_names(args.bots)
    if args.save:
        refuse_existing(args.save, args.force, "--save")
    players = (
        [name.strip() for name in args.players.split(",")]
        if args.players
        else [f"{b}#{i}" for i, b in enumerate(bots)]
    )
    if len(players) != len(bots):
        raise InputError(
            "iron-die/argument", f"--players: expected {len(bots)} names (one per bot), got {args.players!r}"
        )
    final = play_game(players, _nonnegative(args.seed, "--seed"), [make_bot(name, "--bots") for name in bots])
    if args.save:
        save_game(args.save, final)
    summary = final.summary()
    lines = [
        f"round {r['round']}: {r['first_player']} declares {r['challenge']}; "
        + "; ".join(f"{x['player']} {x['result']}" for x in r["results"])
        + f" -> {r['winner']}"
        for r in summary["history"]
    ]
    lines.append(f"winner: {summary['winner']} ({summary['power']})")
    _print(summary, args.json, lines)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """``iron-die replay``: load a save, replay it and print the position."""
    from dunenb.iron_die.save import load_game

    if not args.save:
        raise InputError("iron-die/argument", "--save: required (allowed: the path of an iron-die save)")
    state = load_game(args.save)
    summary = state.summary()
    lines = [f"{len(state.actions)} actions replayed; phase {state.phase}; power {summary['power']}"]
    if summary["winner"]:
        lines.append(f"winner: {summary['winner']}")
    _print(summary, args.json, lines)
    return 0


def _add_table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--faith-operations",
        metavar="OPS",
        help="table option (IRON-GAP-17): add-subtract (default: each die added or subtracted) or arithmetic "
        "(+ - x / with brackets)",
    )
    parser.add_argument(
        "--faith-tiebreak",
        metavar="RULE",
        help="table option (IRON-GAP-18): low (default: an unused die beats none, a lower unused total wins) "
        "or high (a higher unused total wins, none counts 0)",
    )


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``iron-die`` command and its subcommands to ``subparsers``."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = subparsers.add_parser(
        "iron-die",
        help="Le Dé de Fer: exact odds, advice and bots",
        description="Le Dé de Fer (five dice, three rolls; military, faith and intrigue challenges).",
    )
    commands = parser.add_subparsers(dest="iron_die_command", required=True, metavar="SUBCOMMAND")

    odds = commands.add_parser(
        "odds",
        help="optimal odds of beating a result and optimal expected score",
        description="Print the optimal probability of beating --target over a whole turn (three rolls) and "
        "the optimal expected score (military: sum; faith: sevens; intrigue: hand rank 0-7).\n\n"
        + RESULT_HELP,
        formatter_class=formatter,
    )
    odds.add_argument("--challenge", help="military, faith or intrigue (required)")
    odds.add_argument("--target", metavar="RESULT", help="the result to beat (see RESULT notation)")
    odds.add_argument(
        "--distribution",
        action="store_true",
        help="also print the whole final-score distribution of the policy followed (expected-score policy, "
        "or the beat policy with --target)",
    )
    _add_table_options(odds)
    odds.add_argument("--json", action="store_true", help="print a JSON object")
    odds.set_defaults(func=run_odds)

    advise = commands.add_parser(
        "advise",
        help="which dice to keep",
        description="Rank every keep from --dice by its optimal value: the probability of beating --target, "
        "or the expected score without --target, or (--first-player) the probability of winning the point "
        "as the first player, who declares the challenge after his last roll.\n\n" + RESULT_HELP,
        formatter_class=formatter,
    )
    advise.add_argument("--dice", help="five faces, e.g. 6,6,4,4,2 (required)")
    advise.add_argument(
        "--rolls-left", default="2", help="rolls still allowed: 2 after the first roll, then 1, 0"
    )
    advise.add_argument("--challenge", help="military, faith or intrigue (required unless --first-player)")
    advise.add_argument("--target", metavar="RESULT", help="the result to beat (see RESULT notation)")
    advise.add_argument(
        "--first-player", action="store_true", help="advise the first player (no challenge yet)"
    )
    advise.add_argument("--players", default="2", help="number of players, with --first-player (default 2)")
    _add_table_options(advise)
    advise.add_argument("--json", action="store_true", help="print a JSON object")
    advise.set_defaults(func=run_advise)

    simulate = commands.add_parser("simulate", help="bot-against-bot games (seeded)")
    simulate.add_argument("--games", default="200", help="number of games (default 200)")
    simulate.add_argument("--seed", default="0", help="simulation seed (default 0)")
    simulate.add_argument("--bots", default="optimal,naive", help="bots, comma-separated (optimal, naive)")
    simulate.add_argument("--progress", action="store_true", help="show a progress bar")
    _add_table_options(simulate)
    simulate.add_argument("--json", action="store_true", help="print a JSON object")
    simulate.set_defaults(func=run_simulate)

    play = commands.add_parser("play", help="play one bot game and print it")
    play.add_argument("--bots", default="optimal,naive", help="one bot per seat (optimal, naive)")
    play.add_argument("--players", help="player names, comma-separated (default: bot#seat)")
    play.add_argument("--seed", default="0", help="game seed (default 0)")
    play.add_argument("--save", metavar="PATH", help="write the game as a dunenb.iron-die/1 save")
    play.add_argument("--force", action="store_true", help="overwrite an existing file at --save")
    play.add_argument("--json", action="store_true", help="print a JSON object")
    play.set_defaults(func=run_play)

    replay = commands.add_parser("replay", help="load and replay a saved game")
    replay.add_argument("--save", metavar="PATH", help="a dunenb.iron-die/1 save (required)")
    replay.add_argument("--json", action="store_true", help="print a JSON object")
    replay.set_defaults(func=run_replay)
