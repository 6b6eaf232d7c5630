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
#: Every subcommand in the order of ``dunenb --help``: the module of :data:`COMMAND_MODULES` that registers it
#: and its one-line help. ``dunenb --help`` is printed from this table alone, and a command imports only its own
#: module (issue 14 part 3: import what a command needs, when it needs it);
#: ``tests/test_cli_and_render.py`` checks the table against what the modules register.
COMMANDS: dict[str, tuple[str, str]] = {
    "rules": ("dunenb.commands", "print rules data (board, leaders), the rules reference and coverage"),
    "new": ("dunenb.commands", "set up a new game and write it as a saved game"),
    "continue": ("dunenb.commands", "play a saved game on with bots and write it as a new save"),
    "simulate": ("dunenb.commands", "play bot-only games, save them and print a summary table"),
    "replay": ("dunenb.commands", "replay a saved game's main line to a step"),
    "battle": ("dunenb.battle.cli", "resolve a battle case exactly (outcome distribution or optimal plans)"),
    "2d20": ("dunenb.adventures.cli", "the 2d20 system of Dune: Adventures in the Imperium"),
    "iron-die": ("dunenb.iron_die.cli", "Le Dé de Fer: exact odds, advice and bots"),
    "imperium": ("dunenb.imperium.cli", "Dune: Imperium: conflicts, draw odds, bots"),
}
#: Exit status of an error.
ERROR_STATUS = 2
#: Exit status after Ctrl-C (128 + SIGINT, the shells' convention; GAP-59).
INTERRUPTED_STATUS = 130
#: Set this environment variable to see the traceback of an unexpected error (a bug) instead of one line.
DEBUG_VARIABLE = "DUNENB_DEBUG"


def help_width() -> int:
    """The width argparse's help is wrapped to, as ``argparse.HelpFormatter`` computes it (the ``COLUMNS``
    variable, else the terminal's columns, else 80; minus 2), without importing :mod:`shutil`.

    Issue 14 part 3: argparse builds a formatter for every ``add_argument`` (to test the metavar), and a
    formatter without a width imports ``shutil`` (and through it ``bz2``, ``lzma``, ``zlib``) and asks the
    terminal; a few milliseconds of every command's start. Same answer as ``shutil.get_terminal_size``:

    >>> import shutil
    >>> help_width() == shutil.get_terminal_size().columns - 2
    True
    """
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, its width from :func:`help_width` when none is given."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, help_width() if width is None else width)


class ArgumentParser(argparse.ArgumentParser):
    """argparse, except that a usage error raises :class:`InputError` (``cli/usage``) instead of exiting, so
    that it prints as one ``error: [cli/usage] ...`` line like every other error. Subparsers inherit it, and
    its :class:`HelpFormatter` unless they name another."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise InputError("cli/usage", f"{self.prog}: {message} (see {self.prog} --help)")


def build_parser(command: str | None = None, *, lazy: bool = False) -> argparse.ArgumentParser:
    """Return the argument parser with every subsystem's subcommands.

    By default every module of :data:`COMMAND_MODULES` registers its subcommands. With ``lazy``, only the module
    of ``command`` (none when ``command`` is None or unknown) is imported; every other subcommand is a bare entry
    with its help from :data:`COMMANDS`, enough for ``dunenb --help`` and for argparse's "invalid choice" message.
    """
    parser = ArgumentParser(prog="dunenb", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if not lazy:
        for module_name in COMMAND_MODULES:
            importlib.import_module(module_name).register(subparsers)
        return parser
    wanted = COMMANDS[command][0] if command in COMMANDS else None
    for module_name in COMMAND_MODULES:
        if module_name == wanted:
            importlib.import_module(module_name).register(subparsers)
            continue
        for name, (owner, help_text) in COMMANDS.items():
            if owner == module_name:
                subparsers.add_parser(name, help=help_text, add_help=False)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The subcommand named by ``argv`` (its first argument that is not ``-h``/``--help``), if any."""
    for argument in argv:
        if argument not in ("-h", "--help"):
            return argument
    return None


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
    arguments = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(_command_of(arguments), lazy=True).parse_args(arguments)
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


def run() -> NoReturn:
    """The ``dunenb`` program (the console script and ``python -m dunenb.cli``): :func:`main` on the process's
    own command line, then exit with its status.

    Issue 14 part 3: before the interpreter shuts down, the objects still alive are moved out of the cyclic
    collector's reach (:func:`gc.freeze`): the process is ending and they are freed with it, but the collections
    of the shutdown would first walk all of them (every state a replay kept: ~40 ms after a 10-turn game).
    Exit handlers and the flushing of the streams run as before; only a program ending does this (a caller of
    :func:`main`, a test or a notebook, keeps its collector)."""
    import gc

    status = main()
    gc.freeze()
    _exit(status)


def _exit(status: int) -> NoReturn:
    """End the program with ``status``: what the interpreter's shutdown does that can be seen, without the rest.

    Issue 14 item 3: after the exit handlers and the final flush of the streams, the shutdown tears every module
    and object down one by one (every state a replay kept: 28M instructions, 2.5% of a new process replaying the
    10-turn save), only for the process to end, when the system frees all its memory at once. So, as the
    interpreter would, the exit handlers run (:mod:`atexit`: the dataclass code cache, coverage, loggers, weak
    finalizers) and the standard streams are flushed, then the process ends (:func:`os._exit`) with the status.
    The ordinary :func:`sys.exit` is kept wherever that could differ: another thread still running (the
    interpreter waits for it first), a ``-X`` option or development mode (some report at the teardown), compiled
    code from outside the standard library loaded (NumPy, SciPy's HiGHS ...: their own exit hooks and C streams,
    which only the interpreter's exit runs and flushes), a stream whose flush fails (the interpreter's message and
    status 120 then come as before)."""
    import atexit

    threading = sys.modules.get("threading")
    if (sys.flags.dev_mode or sys._xoptions or (threading is not None and threading.active_count() > 1)
            or _foreign_compiled_code()):
        sys.exit(status)
    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:  # the interpreter reports it, with its own status
        sys.exit(status)
    os._exit(status)


def _foreign_compiled_code() -> bool:
    """Whether a module compiled to machine code (an extension module) from outside the standard library is
    loaded: one may hold C-level exit hooks or buffered C streams that only the interpreter's own exit handles."""
    stdlib = sys.stdlib_module_names
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] in stdlib:
            continue
        file = getattr(module, "__file__", None)
        if isinstance(file, str) and not file.endswith((".py", ".pyc")):
            return True
    return False


if __name__ == "__main__":  # pragma: no cover
    run()
