"""``dunenb rules show|search|text|coverage``: the rules reference and the coverage report on the command line.

The JSON formats are documented in the README ("Rules reference"). Wired into ``dunenb rules`` by
:mod:`dunenb.commands`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from dunenb.errors import InputError

TOPICS = ("show", "search", "text", "coverage")


def run(args: argparse.Namespace) -> int:
    """Run one of :data:`TOPICS` with the words that follow it."""
    words: list[str] = list(args.words or [])
    if args.topic == "show":
        return _show(words, as_json=args.json)
    if args.topic == "search":
        return _search(words, as_json=args.json)
    if words:
        raise InputError("rules/extra-words", f"`rules {args.topic}` takes no words, got {' '.join(words)!r}")
    if args.topic == "text":
        from dunenb.rules_reference import as_json, entries

        if args.json:
            print(json.dumps(as_json(), ensure_ascii=False, indent=1))
        else:
            print("\n\n".join(entry.render() for entry in entries()))
        return 0
    return _coverage(as_json=args.json, tests=args.tests)


def _show(words: list[str], *, as_json: bool) -> int:
    from dunenb.rules_reference import lookup

    if len(words) != 1:
        raise InputError("rules/show-usage", "give exactly one rule ID, e.g. `dunenb rules show STORM-8`")
    entry = lookup(words[0])
    print(json.dumps(entry.to_json(), ensure_ascii=False, indent=1) if as_json else entry.render())
    return 0


def _search(words: list[str], *, as_json: bool) -> int:
    from dunenb.rules_reference import search

    found = search(" ".join(words))
    if as_json:
        print(json.dumps({"rules": [entry.to_json() for entry in found]}, ensure_ascii=False, indent=1))
    elif not found:
        print(f"no rule mentions {' '.join(words)!r}")
    else:
        for entry in found:
            print(f"{entry.id:<16} {entry.title}")
    return 0


def _coverage(*, as_json: bool, tests: str | None) -> int:
    from dunenb.coverage import coverage, summary

    rows = coverage(Path(tests) if tests else None)
    if as_json:
        print(json.dumps({"ids": [row.to_json() for row in rows]}, ensure_ascii=False, indent=1))
        return 0
    for row in rows:
        detail = ", ".join(row.tests[:3]) + (f" (+{len(row.tests) - 3})" if len(row.tests) > 3 else "") \
            if row.tests else row.reason
        print(f"{row.id:<16} {row.status:<13} {detail}")
    print(" · ".join(f"{status} {count}" for status, count in summary(rows).items()))
    return 0
