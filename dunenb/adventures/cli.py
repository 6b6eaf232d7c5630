"""The ``dunenb 2d20`` subcommand: exact odds of a 2d20 skill test.

``dunenb 2d20 odds --skill 7 --drive 7 [--focus] [--dice 3] [--difficulty 2] [--complication-range 1] --json``
prints ``{"successes": {"0": p, ...}, "complications": {"0": p, ...}, "p_success": p,
"expected_momentum": x}``. ``--dice`` counts the *extra* dice bought (0-3), on top of the 2 base dice.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="dunenb")
>>> register(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["2d20", "odds", "--skill", "7", "--drive", "7", "--json"])
>>> args.func(args)  # doctest: +ELLIPSIS
{"successes": {"0": 0.09, ...}
0
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from dunenb.adventures.exact_odds import odds
from dunenb.adventures.rules import rule
from dunenb.adventures.skill_test import Assist
from dunenb.cliargs import parse_int
from dunenb.errors import InputError


def _integer(option: str, text: str | None, low: int, high: int, default: int | None = None) -> int:
    """Parse an integer option (ASCII digits only, GAP-59); a bad value raises :class:`InputError` naming the
    option and its range."""
    if text is None:
        if default is None:
            raise InputError("cli/argument", f"{option} is required (an integer from {low} to {high})")
        return default
    return parse_int(text, option, low=low, high=high)


def odds_payload(args: argparse.Namespace) -> dict[str, Any]:
    """Validate the parsed ``2d20 odds`` options and return the JSON-ready odds."""
    skill_range = (rule("skill_min"), rule("skill_max"))
    drive_range = (rule("drive_min"), rule("drive_max"))
    skill = _integer("--skill", args.skill, *skill_range)
    drive = _integer("--drive", args.drive, *drive_range)
    extra = _integer("--dice", args.dice, 0, rule("max_extra_dice"), 0)
    difficulty = _integer("--difficulty", args.difficulty, rule("difficulty_min"), rule("difficulty_max"), 1)
    comp_range = _integer(
        "--complication-range",
        args.complication_range,
        rule("complication_range_min"),
        rule("complication_range_max"),
        1,
    )
    assist = None
    if args.assist_skill is not None or args.assist_drive is not None:
        assist = Assist(
            _integer("--assist-skill", args.assist_skill, *skill_range),
            _integer("--assist-drive", args.assist_drive, *drive_range),
            bool(args.assist_focus),
        )
    elif args.assist_focus:
        raise InputError("cli/argument", "--assist-focus needs --assist-skill and --assist-drive")
    return odds(skill, drive, bool(args.focus), extra, comp_range, assist).to_dict(difficulty)


def _odds_command(args: argparse.Namespace) -> int:
    payload = odds_payload(args)
    if args.json:
        print(json.dumps(payload))
        return 0
    print(f"P(pass) = {payload['p_success']:.4f}   expected Momentum = {payload['expected_momentum']:.4f}")
    print("successes      " + "  ".join(f"{k:>6}" for k in payload["successes"]))
    print("probability    " + "  ".join(f"{v:6.4f}" for v in payload["successes"].values()))
    print("complications  " + "  ".join(f"{k:>6}" for k in payload["complications"]))
    print("probability    " + "  ".join(f"{v:6.4f}" for v in payload["complications"].values()))
    return 0


def register(subparsers: Any) -> None:
    """Add the ``2d20`` subcommand (with ``odds``) to the dunenb CLI's subparsers."""
    parser = subparsers.add_parser(
        "2d20",
        help="the 2d20 system of Dune: Adventures in the Imperium",
        description="Tools for the 2d20 system of Dune: Adventures in the Imperium.",
    )
    commands = parser.add_subparsers(dest="twod20_command", required=True, metavar="SUBCOMMAND")
    odds_parser = commands.add_parser(
        "odds",
        help="exact odds of a skill test (no sampling)",
        description="Exact distribution of successes and complications of a skill test, the chance to pass "
        "and the expected Momentum. Target number = skill + drive.",
    )
    odds_parser.add_argument("--skill", metavar="N", help="skill rating, 4 to 8 (required)")
    odds_parser.add_argument("--drive", metavar="N", help="drive rating, 4 to 8 (required)")
    odds_parser.add_argument(
        "--focus",
        action="store_true",
        help="a focus applies: every die at or under the skill counts two successes",
    )
    odds_parser.add_argument(
        "--dice",
        metavar="N",
        help="number of EXTRA dice bought with Momentum or Threat, 0 to 3, added to the "
        "2 base dice (so 2d20 to 5d20 in all); default 0",
    )
    odds_parser.add_argument("--difficulty", metavar="N", help="difficulty 0 to 5; default 1")
    odds_parser.add_argument(
        "--complication-range",
        metavar="N",
        help="complication range 1 to 5 (1: a 20, 2: 19-20, ...); default 1",
    )
    odds_parser.add_argument(
        "--assist-skill", metavar="N", help="an ally assists with one die: their skill, 4 to 8"
    )
    odds_parser.add_argument("--assist-drive", metavar="N", help="the assisting ally's drive, 4 to 8")
    odds_parser.add_argument(
        "--assist-focus", action="store_true", help="a focus of the assisting ally applies"
    )
    odds_parser.add_argument("--json", action="store_true", help="print the odds as JSON")
    odds_parser.set_defaults(func=_odds_command)
