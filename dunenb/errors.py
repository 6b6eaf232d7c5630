"""Errors raised by dunenb. Every error carries a stable machine-readable ``code``.

>>> err = IllegalActionError("move/storm-sector", "sector 3 is under the storm")
>>> err.code, str(err)
('move/storm-sector', '[move/storm-sector] sector 3 is under the storm')
"""

from __future__ import annotations

import errno
import os


class DuneError(Exception):
    """Base class of every dunenb error; ``code`` is stable across versions (e.g. ``"save/field"``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message


class IllegalActionError(DuneError):
    """An action that the rules do not allow in this state. The state is left unchanged."""


class RulesDataError(DuneError):
    """The rules data (board, decks, houses) failed validation."""


class SaveFormatError(DuneError):
    """A saved game could not be read: the message names the field and what is allowed."""


class InputError(DuneError):
    """Bad user input (a CLI argument, a battle case, a widget value)."""


#: Stable codes of file-system failures, by ``errno`` (see README, "Command line"; GAP-59).
OS_ERROR_CODES: dict[int, str] = {
    errno.ENOENT: "file/missing",
    errno.EISDIR: "file/is-directory",
    errno.ENOTDIR: "file/not-a-directory",
    errno.EEXIST: "file/exists",
    errno.EACCES: "file/permission",
    errno.EPERM: "file/permission",
    errno.EROFS: "file/read-only",
    errno.ENOSPC: "file/no-space",
    errno.EDQUOT: "file/no-space",
    errno.EFBIG: "file/too-big",
    errno.ENAMETOOLONG: "file/name-too-long",
    errno.ELOOP: "file/name-loop",
    errno.EPIPE: "file/broken-pipe",
}


def os_error_code(error: OSError) -> str:
    """The stable code of a file-system error (``file/os-error`` for an errno without its own code).

    >>> os_error_code(FileNotFoundError(2, "No such file or directory")), os_error_code(OSError(5, "I/O error"))
    ('file/missing', 'file/os-error')
    """
    return OS_ERROR_CODES.get(error.errno or 0, "file/os-error")


def from_os_error(
    error: OSError, path: str | os.PathLike[str] | None = None, *, cls: type[DuneError] = InputError
) -> DuneError:
    """A :class:`DuneError` (``cls``) for a file-system error: code from :func:`os_error_code`, message naming
    the path and what went wrong.

    >>> str(from_os_error(IsADirectoryError(21, "Is a directory"), "out"))
    '[file/is-directory] out: Is a directory'
    """
    where = path if path is not None else error.filename
    reason = error.strerror or str(error) or type(error).__name__
    message = reason if where is None else f"{os.fsdecode(where)}: {reason}"
    return cls(os_error_code(error), message)
