"""The ``dunenb 2d20`` subcommand: exact odds of a 2d20 skill test, and the score of a given roll.

``dunenb 2d20 odds --skill 7 --drive 7 [--focus] [--dice 3] [--difficulty 2] [--complication-range 1] --json``
prints ``{"successes": {"0": p, ...}, "complications": {"0": p, ...}, "p_success": p,
"expected_momentum": x}``. ``--dice`` counts the *extra* dice bought (0-3), on top of the 2 base dice.
``--auto-one`` (Determination), ``--helper SKILL,DRIVE[,focus]`` (repeatable) and ``--defender-skill`` /
``--defender-drive`` (an opposed test, adding an ``"opposed"`` object) extend it; ``--difficulty`` may
exceed 5 (a final difficulty after modifiers).

``dunenb 2d20 score --dice 3,17,20 --skill 7 --drive 7 [--focus] [--difficulty 1] --json`` scores a roll.

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

from dunenb.adventures.exact_odds import odds, odds_for, opposed_odds
from dunenb.adventures.rules import rule
from dunenb.adventures.skill_test import Assist, SkillTest, resolve_test
from dunenb.cliargs import parse_int
from dunenb.errors import InputError

#: Largest difficulty the CLI accepts: the GM's base is 0-5 (seed line 43), but traits, complications,
#: defensive assets and a defender's successes push the final difficulty higher (2D20-GAP-7).
CLI_DIFFICULTY_MAX: int = rule("cli_difficulty_max")
#: Most helpers the CLI accepts on one test (2D20-GAP-6: no limit in the rules; a bound keeps it small).
CLI_HELPERS_MAX = 6


def _integer(option: str, text: str | None, low: int, high: int, default: int | None = None) -> int:
    """Parse an integer option (ASCII digits only, GAP-59); a bad value raises :class:`InputError` naming the
    option and its range."""
    if text is None:
        if default is None:
            raise InputError("cli/argument", f"{option} is required (an integer from {low} to {high})")
        return default
    return parse_int(text, option, low=low, high=high)


def _helpers(texts: list[str] | None) -> tuple[Assist, ...]:
    """Parse ``--helper SKILL,DRIVE[,focus]`` values (seed line 352: one die each)."""
    helpers = []
    for text in texts or ():
        parts = [part.strip() for part in text.split(",")]
        if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "focus"):
            raise InputError(
                "cli/argument", f"--helper must be SKILL,DRIVE or SKILL,DRIVE,focus (e.g. 6,5,focus), got {text!r}"
            )
        skill = _integer("--helper skill", parts[0], rule("skill_min"), rule("skill_max"))
        drive = _integer("--helper drive", parts[1], rule("drive_min"), rule("drive_max"))
        helpers.append(Assist(skill, drive, len(parts) == 3))
    if len(helpers) > CLI_HELPERS_MAX:
        raise InputError("cli/argument", f"--helper may be given at most {CLI_HELPERS_MAX} times, got {len(helpers)}")
    return tuple(helpers)


def _defender(args: argparse.Namespace, comp_range: int) -> SkillTest | None:
    """The defender's test of an opposed test, or None when no ``--defender-*`` option is given."""
    given = [args.defender_skill, args.defender_drive, args.defender_dice]
    if all(value is None for value in given) and not args.defender_focus:
        return None
    if args.defender_skill is None or args.defender_drive is None:
        raise InputError("cli/argument", "an opposed test needs both --defender-skill and --defender-drive (4 to 8)")
    return SkillTest(
        _integer("--defender-skill", args.defender_skill, rule("skill_min"), rule("skill_max")),
        _integer("--defender-drive", args.defender_drive, rule("drive_min"), rule("drive_max")),
        bool(args.defender_focus),
        _integer("--defender-dice", args.defender_dice, 0, rule("max_extra_dice"), 0),
        difficulty=0,
        complication_range=comp_range,
    )


def odds_payload(args: argparse.Namespace) -> dict[str, Any]:
    """Validate the parsed ``2d20 odds`` options and return the JSON-ready odds."""
    skill_range = (rule("skill_min"), rule("skill_max"))
    drive_range = (rule("drive_min"), rule("drive_max"))
    skill = _integer("--skill", args.skill, *skill_range)
    drive = _integer("--drive", args.drive, *drive_range)
    extra = _integer("--dice", args.dice, 0, rule("max_extra_dice"), 0)
    opposed = any(
        value is not None for value in (args.defender_skill, args.defender_drive, args.defender_dice)
    ) or bool(args.defender_focus)
    difficulty = _integer(
        "--difficulty", args.difficulty, rule("difficulty_min"), CLI_DIFFICULTY_MAX, 0 if opposed else 1
    )
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
    helpers = _helpers(args.helper)
    auto_one = bool(args.auto_one)
    result = odds(skill, drive, bool(args.focus), extra, comp_range, assist, auto_one, None, helpers)
    payload = result.to_dict(difficulty)
    defender = _defender(args, comp_range)
    if defender is not None:
        attacker = SkillTest(skill, drive, bool(args.focus), extra, 0, comp_range, assist, auto_one, helpers=helpers)
        contest = opposed_odds(attacker, defender, base=difficulty).to_dict()
        payload["p_success"] = contest["p_success"]
        payload["expected_momentum"] = contest["expected_momentum"]
        payload["opposed"] = {"base_difficulty": difficulty, **contest}
    return payload


def score_payload(args: argparse.Namespace) -> dict[str, Any]:
    """Validate the parsed ``2d20 score`` options and score the given dice (seed lines 37-43, 57, 228)."""
    if args.dice is None:
        raise InputError("cli/argument", "--dice is required: 2 to 5 d20 faces separated by commas, e.g. 3,17,20")
    parts = [part.strip() for part in str(args.dice).split(",")]
    if not rule("base_dice") <= len(parts) <= rule("max_dice"):
        raise InputError(
            "cli/argument",
            f"--dice must hold {rule('base_dice')} to {rule('max_dice')} faces separated by commas, got {args.dice!r}",
        )
    faces = tuple(_integer("--dice", part, 1, 20) for part in parts)
    skill = _integer("--skill", args.skill, rule("skill_min"), rule("skill_max"))
    drive = _integer("--drive", args.drive, rule("drive_min"), rule("drive_max"))
    difficulty = _integer("--difficulty", args.difficulty, rule("difficulty_min"), CLI_DIFFICULTY_MAX, 1)
    comp_range = _integer(
        "--complication-range",
        args.complication_range,
        rule("complication_range_min"),
        rule("complication_range_max"),
        1,
    )
    test = SkillTest(skill, drive, bool(args.focus), len(faces) - rule("base_dice"), 0, comp_range)
    result = resolve_test(test, faces)
    passed = result.successes >= difficulty
    return {
        "dice": list(faces),
        "target": test.target,
        "per_die": [
            {"face": face, "successes": score.successes, "complication": score.complication}
            for face, score in zip(result.dice, result.scores, strict=True)
        ],
        "successes": result.successes,
        "complications": result.complications,
        "difficulty": difficulty,
        "passed": passed,
        "momentum": result.successes - difficulty if passed else 0,
        "shortfall": 0 if passed else difficulty - result.successes,
        "p_at_least_this_many": odds_for(test).p_success(result.successes),
    }


def _score_command(args: argparse.Namespace) -> int:
    payload = score_payload(args)
    if args.json:
        print(json.dumps(payload))
        return 0
    verdict = "passed" if payload["passed"] else "failed"
    print(
        f"{payload['successes']} successes, {payload['complications']} complications against difficulty "
        f"{payload['difficulty']} (target {payload['target']}): {verdict}, Momentum {payload['momentum']}"
    )
    for row in payload["per_die"]:
        tag = " complication" if row["complication"] else ""
        print(f"  d20 = {row['face']:>2}: {row['successes']} success(es){tag}")
    return 0


def _odds_command(args: argparse.Namespace) -> int:
    payload = odds_payload(args)
    if args.json:
        print(json.dumps(payload))
        return 0
    print(f"P(pass) = {payload['p_success']:.4f}   expected Momentum = {payload['expected_momentum']:.4f}")
    if "opposed" in payload:
        print(
            f"opposed test: difficulty = {payload['opposed']['base_difficulty']} + the defender's successes; "
            f"P(win) = {payload['opposed']['p_success_exact']}"
        )
    print("successes      " + "  ".join(f"{k:>6}" for k in payload["successes"]))
    print("probability    " + "  ".join(f"{v:6.4f}" for v in payload["successes"].values()))
    print("complications  " + "  ".join(f"{k:>6}" for k in payload["complications"]))
    print("probability    " + "  ".join(f"{v:6.4f}" for v in payload["complications"].values()))
    return 0


def register(subparsers: Any) -> None:
    """Add the ``2d20`` subcommand (with ``odds`` and ``score``) to the dunenb CLI's subparsers."""
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
    odds_parser.add_argument(
        "--difficulty",
        metavar="N",
        help=f"final difficulty 0 to {CLI_DIFFICULTY_MAX} (the GM's base is 0-5; modifiers may push it higher); "
        "default 1, or 0 in an opposed test, where it is added to the defender's successes",
    )
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
    odds_parser.add_argument(
        "--helper",
        action="append",
        metavar="SKILL,DRIVE[,focus]",
        help="another ally helps with one die against their skill + drive (repeat for several helpers)",
    )
    odds_parser.add_argument(
        "--auto-one", action="store_true", help="spend Determination: one die of the pool is set to a 1"
    )
    odds_parser.add_argument("--defender-skill", metavar="N", help="opposed test: the defender's skill, 4 to 8")
    odds_parser.add_argument("--defender-drive", metavar="N", help="opposed test: the defender's drive, 4 to 8")
    odds_parser.add_argument(
        "--defender-focus", action="store_true", help="opposed test: the defender's focus applies"
    )
    odds_parser.add_argument(
        "--defender-dice", metavar="N", help="opposed test: extra dice bought by the defender, 0 to 3"
    )
    odds_parser.add_argument("--json", action="store_true", help="print the odds as JSON")
    odds_parser.set_defaults(func=_odds_command)

    score_parser = commands.add_parser(
        "score",
        help="score a given roll",
        description="Score given d20 faces: successes and complications per die, the verdict against a "
        "difficulty and the Momentum. Target number = skill + drive.",
    )
    score_parser.add_argument("--dice", metavar="F,F,...", help="2 to 5 d20 faces, e.g. 3,17,20 (required)")
    score_parser.add_argument("--skill", metavar="N", help="skill rating, 4 to 8 (required)")
    score_parser.add_argument("--drive", metavar="N", help="drive rating, 4 to 8 (required)")
    score_parser.add_argument("--focus", action="store_true", help="a focus applies")
    score_parser.add_argument("--difficulty", metavar="N", help=f"difficulty 0 to {CLI_DIFFICULTY_MAX}; default 1")
    score_parser.add_argument("--complication-range", metavar="N", help="complication range 1 to 5; default 1")
    score_parser.add_argument("--json", action="store_true", help="print the score as JSON")
    score_parser.set_defaults(func=_score_command)
