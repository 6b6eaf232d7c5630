"""The ``dunenb`` command line. Each subsystem registers its own subcommands.

Every JSON the CLI prints is documented in the README. Every error, argparse's included, prints one line
``error: [code] message`` on stderr and exits with status 2 (codes: README, "Command line"); Ctrl-C ends
quietly with status 130 (GAP-59).

>>> main(["rules", "map", "--json"])  # doctest: +SKIP
>>> main(["simulate", "--games", "1"])
2
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from dunenb.errors import DuneError, InputError, from_os_error

#: Modules that expose ``register(subparsers)``; each adds its subcommands and sets ``func`` on them.
COMMAND_MODULES: tuple[str, ...] = (
    "dunenb.commands",
    "dunenb.battle.cli",
    "dunenb.adventures.cli",
    "dunenb.iron_die.cli",
    "dunenb.imperium.cli",
)
#: Exit status of an error.
ERROR_STATUS = 2
#: Exit status after Ctrl-C (128 + SIGINT, the shells' convention; GAP-59).
INTERRUPTED_STATUS = 130
#: Set this environment variable to see the traceback of an unexpected error (a bug) instead of one line.
DEBUG_VARIABLE = "DUNENB_DEBUG"


class ArgumentParser(argparse.ArgumentParser):
    """argparse, except that a usage error raises :class:`InputError` (``cli/usage``) instead of exiting, so
    that it prints as one ``error: [cli/usage] ...`` line like every other error. Subparsers inherit it."""

    def error(self, message: str) -> NoReturn:
        raise InputError("cli/usage", f"{self.prog}: {message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    """Return the full argument parser with every subsystem's subcommands."""
    parser = ArgumentParser(prog="dunenb", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


class _StdoutFailed(Exception):
    """Writing the standard output failed (a full disk, ``/dev/full``, a closed pipe)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class _GuardedStdout:
    """The standard output seen by a subcommand: a failed write raises :class:`_StdoutFailed` (so it is told
    apart from a failed file), and a character the stream cannot encode is written as a backslash escape."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            try:
                return self._stream.write(text)
            except UnicodeEncodeError:
                encoding = getattr(self._stream, "encoding", None) or "utf-8"
                return self._stream.write(text.encode(encoding, "backslashreplace").decode(encoding))
        except OSError as error:
            raise _StdoutFailed(error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:
            raise _StdoutFailed(error) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence(stream: TextIO) -> None:
    """After stdout failed, point the process's stdout at the null device, so that the interpreter's final
    flush of the unwritten text does not print a second error (only for the real stdout, never a capture)."""
    if stream is not sys.__stdout__:
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass


def _fail(error: DuneError) -> int:
    """Print ``error: [code] message`` as one line on stderr; returns the error status."""
    line = " ".join(f"error: [{error.code}] {error.message}".splitlines())
    try:
        print(line.encode("utf-8", "backslashreplace").decode("utf-8"), file=sys.stderr)
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr itself is closed or full: the status still tells
        pass
    return ERROR_STATUS


def _run(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    status = int(args.func(args) or 0)
    sys.stdout.flush()
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit status (0, 2 after an error, 130 after Ctrl-C).

    The one place where failures become ``error: [code] message`` (GAP-59): dunenb's own errors keep their
    code; file-system errors get a ``file/...`` code from their errno (:func:`dunenb.errors.os_error_code`),
    naming ``stdout`` when the output could not be written; input too deep, badly encoded or otherwise
    invalid gets ``cli/recursion``, ``cli/encoding``, ``cli/value``; anything else is a bug, reported as
    ``cli/internal`` (``DUNENB_DEBUG=1`` shows its traceback).
    """
    stdout = sys.stdout
    try:
        with contextlib.redirect_stdout(_GuardedStdout(stdout)):  # type: ignore[type-var]
            return _run(argv)
    except KeyboardInterrupt:  # Ctrl-C: quiet, no traceback
        return INTERRUPTED_STATUS
    except _StdoutFailed as failure:
        _silence(stdout)
        return _fail(from_os_error(failure.error, "stdout"))
    except DuneError as error:
        return _fail(error)
    except OSError as error:
        return _fail(from_os_error(error))
    except RecursionError:
        return _fail(InputError("cli/recursion", "the input is nested too deeply to process"))
    except UnicodeError as error:
        return _fail(InputError("cli/encoding", f"text that cannot be encoded or decoded: {error}"))
    except MemoryError:
        return _fail(InputError("cli/memory", "out of memory: the input is too large"))
    except ValueError as error:
        return _fail(InputError("cli/value", str(error) or "invalid value"))
    except Exception as error:  # a bug: still one line, unless asked for the traceback
        if os.environ.get(DEBUG_VARIABLE):
            raise
        return _fail(InputError("cli/internal", f"{type(error).__name__}: {error} (a bug in dunenb; run with "
                                f"{DEBUG_VARIABLE}=1 to see the traceback)"))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
