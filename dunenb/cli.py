"""The ``dunenb`` command line. Each subsystem registers its own subcommands.

Every JSON the CLI prints is documented in the README. Errors print ``error: [code] message`` on stderr
and exit with status 2.

>>> main(["rules", "map", "--json"])  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from dunenb.errors import DuneError

#: Modules that expose ``register(subparsers)``; each adds its subcommands and sets ``func`` on them.
COMMAND_MODULES: tuple[str, ...] = (
    "dunenb.commands",
    "dunenb.battle.cli",
    "dunenb.adventures.cli",
    "dunenb.iron_die.cli",
    "dunenb.imperium.cli",
)


def build_parser() -> argparse.ArgumentParser:
    """Return the full argument parser with every subsystem's subcommands."""
    parser = argparse.ArgumentParser(prog="dunenb", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except DuneError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `dunenb rules map --json | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
