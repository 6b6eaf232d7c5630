"""``dunenb battle CASE.json``: resolve a battle case exactly; ``--optimal`` prints the optimal mixed plans.

CASE is a path to a ``dunenb.battle/1`` file or the name of a shipped example (``--list`` shows them).
With ``--json`` the output is ``{"outcomes": [{"probability", "winner", "explosion", "traitor_called_by",
"sides": {house: {"total", "leader", "tokens_lost", "tokens_left", "spice_lost", "bounty"}}, "outlawed",
"on_call": [{"power", "house", "spice", "cards", "from"}]}]}`` (``on_call``: leaders.md K-21 effects);
with ``--optimal --json`` it is ``{"metric", "value", "win_probability": {house: p},
"strategies": {house: [{"plan", "probability"}]}}``.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="dunenb")
>>> register(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["battle", "shield_example_1", "--json"])
>>> args.func(args)  # doctest: +ELLIPSIS
{"outcomes": [{"probability": 1.0, "winner": "atreides", ...}]}
0
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from dunenb.battle.case import BattleCase, case_json, example_case_names, load_case, load_example_case
from dunenb.errors import InputError


def register(subparsers: Any) -> None:
    """Add the ``battle`` subcommand to an argparse subparsers object."""
    parser = subparsers.add_parser(
        "battle", help="resolve a battle case exactly (outcome distribution or optimal plans)",
        description=__doc__.splitlines()[0],
    )
    parser.add_argument("case", nargs="?", help="a dunenb.battle/1 JSON file, or a shipped example name")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--optimal", action="store_true",
                        help="print each side's optimal mixed plan and the battle's value (zero-sum LP)")
    parser.add_argument("--metric", choices=("win", "spice", "tokens"), default="win",
                        help="payoff for --optimal: win margin, spice balance or token balance (default: win)")
    parser.add_argument("--list", action="store_true", help="list the shipped example cases")
    parser.set_defaults(func=run_battle)


def _load(name: str) -> BattleCase:
    if os.path.exists(name) or name.endswith(".json"):
        return load_case(name)
    return load_example_case(name)


def run_battle(args: argparse.Namespace) -> int:
    """Entry point of ``dunenb battle``; returns the exit status."""
    if args.list:
        for name in example_case_names():
            print(name)
        return 0
    if not args.case:
        raise InputError("cli/battle-case", "give a case file or an example name (see --list)")
    case = _load(args.case)
    if args.optimal:
        from dunenb.analysis.battle_odds import optimal_plans

        equilibrium = optimal_plans(case, metric=args.metric)
        if args.json:
            print(json.dumps(equilibrium.to_json()))
        else:
            print(_equilibrium_text(equilibrium))
        return 0
    data = case_json(case)
    if args.json:
        print(json.dumps(data))
    else:
        print(_outcomes_text(case, data))
    return 0


def _outcomes_text(case: BattleCase, data: dict[str, Any]) -> str:
    houses = case.houses
    lines = [case.title or f"Battle in {case.territory}", f"territory {case.territory}, defender {case.defender}", ""]
    block = f" | {'total':>5} {'leader':<6} {'lost':>4} {'left':>4} {'spice':>5} {'bounty':>6}"
    prefix = f"{'':>7}  {'':<14} {'':<22}"
    lines.append(prefix + "".join(f" | {house:<{len(block) - 3}}" for house in houses))
    header = f"{'prob':>7}  {'winner':<14} {'event':<22}" + block * len(houses)
    lines.append(header)
    lines.append("-" * len(header))
    for outcome in data["outcomes"]:
        event = "explosion" if outcome["explosion"] else ""
        if outcome["traitor_called_by"]:
            event = "traitor: " + ", ".join(outcome["traitor_called_by"])
        if outcome.get("void"):  # leaders.md K-18 leader_exchange (FREMEN-L05-c, D-29)
            event = f"void: {outcome['void']['power']}"
        line = f"{outcome['probability']:>7.1%}  {outcome['winner'] or '(none)':<14} {event:<22}"
        for house in houses:
            side = outcome["sides"][house]
            line += (f" | {side['total']:>5g} {side['leader']:<6} {side['tokens_lost']:>4} "
                     f"{side['tokens_left']:>4} {side['spice_lost']:>5} {side['bounty']:>6}")
        lines.append(line)
        if outcome.get("void"):  # the words of the game's leader-exchange event (dunenb.battle.leader_exchange)
            lines.append(f"{'':>7}  {outcome['void']['text']}")
        for effect in outcome.get("on_call", ()):  # leaders.md K-21, e.g. EMPEROR-L11-a
            if effect["spice"]:
                lines.append(f"{'':>7}  on call ({effect['power']}): the Bank pays {effect['house']} "
                             f"{effect['spice']} spice")
            if effect["cards"]:
                lines.append(f"{'':>7}  on call ({effect['power']}): {effect['house']} draw {effect['cards']} "
                             f"random cards from the {effect['from']} hand")
    return "\n".join(lines)


def _equilibrium_text(equilibrium: Any) -> str:
    data = equilibrium.to_json()
    lines = [f"value of the battle ({data['metric']}) for {equilibrium.houses[0]}: {data['value']:.4f}"]
    for house, p in data["win_probability"].items():
        lines.append(f"  P({house} wins) at equilibrium: {p:.2%}")
    for house, plans in data["strategies"].items():
        lines.append(f"{house}:")
        lines.extend(f"  {plan['probability']:>7.2%}  {plan['plan']}" for plan in plans)
    return "\n".join(lines)
