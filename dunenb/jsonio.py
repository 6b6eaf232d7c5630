"""Safe files: atomic writes (temporary file + rename) and strict JSON reads with clear errors.

Every file dunenb writes (saves, ``summary.csv``, SVG maps) goes through :func:`write_text_atomic`: the text
goes to a temporary file in the target's folder, is flushed to disk, then renamed over the target, so a full
disk or a crash never leaves a half-written file and an existing file is either fully replaced or untouched.
File-system failures raise :class:`~dunenb.errors.InputError` (writing) or
:class:`~dunenb.errors.SaveFormatError` (reading) with a stable ``file/...`` code (GAP-59).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "x.json"
>>> write_json_atomic(path, {"a": 1})
>>> read_json(path)
{'a': 1}
>>> path.write_text('{"a": 1, "a": 2}', encoding="utf-8")
16
>>> read_json(path)
Traceback (most recent call last):
...
dunenb.errors.SaveFormatError: [file/json-duplicate-key] ...x.json: key 'a' appears twice in one object
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from dunenb.errors import InputError, SaveFormatError, from_os_error

#: A JSON string escape of a UTF-16 surrogate: the only way a lone surrogate can enter a parsed document.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
#: Longest file-name stem kept in a temporary file's name (file names are limited to 255 bytes).
_TEMP_STEM = 120


def _target_of(path: str | os.PathLike[str]) -> Path:
    """The file to replace: a symbolic link is followed, so the file it points to is written (GAP-59)."""
    target = Path(path)
    return Path(os.path.realpath(target)) if target.is_symlink() else target


def _refuse_special(target: Path) -> None:
    """GAP-59: only regular files are replaced (never a device such as ``/dev/full``, a FIFO or a folder)."""
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        raise InputError("file/is-directory", f"{target}: is a folder; give the path of a file")
    if not stat.S_ISREG(mode):
        raise InputError("file/not-regular", f"{target}: not a regular file (a device, pipe or socket); "
                         "give the path of a file")


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that a crash or a full disk never leaves a half-written file.

    The text goes to a temporary file in the same folder (created with the usual permissions, or the replaced
    file's), is flushed to disk, then renamed over ``path``. Missing parent folders are created (GAP-59).
    Errors raise :class:`InputError` with a ``file/...`` code naming the path; the old file is then untouched.
    """
    target = _target_of(path)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InputError("file/encoding", f"{target}: character {error.start} of the text cannot be written as "
                         "UTF-8 (a lone surrogate)") from None
    temporary: Path | None = None
    try:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise InputError("file/not-a-directory", f"{target}: a parent of this path is a file, not a folder"
                             ) from None
        _refuse_special(target)
        existing = target.stat().st_mode & 0o7777 if target.exists() else None
        from secrets import token_hex  # issue 14 part 3: only writing needs it

        temporary = target.parent / f".{target.name[:_TEMP_STEM]}.{token_hex(4)}.tmp"
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(handle, "wb") as stream:
            if existing is not None:
                os.fchmod(stream.fileno(), existing)
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
        temporary = None
        _sync_folder(target.parent)
    except OSError as error:
        raise from_os_error(error, target) from None
    finally:
        if temporary is not None:
            try:
                temporary.unlink()
            except OSError:
                pass


def _sync_folder(folder: Path) -> None:
    """Flush the rename to disk where the platform allows it (best effort)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> None:
    """Write ``data`` as indented JSON to ``path`` with :func:`write_text_atomic`."""
    write_text_atomic(path, json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return result


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, source: str = "JSON") -> Any:
    """Parse JSON strictly; every failure raises :class:`SaveFormatError` naming ``source`` (GAP-59).

    Refused: invalid JSON, a key twice in one object, ``NaN`` and ``Infinity``, an integer past Python's
    4,300-digit limit, nesting too deep to parse, and a string holding a lone UTF-16 surrogate (``"\\ud800"``).

    >>> parse_json('[1, {"b": "x"}]')
    [1, {'b': 'x'}]
    >>> parse_json('[' * 100_000)
    Traceback (most recent call last):
    ...
    dunenb.errors.SaveFormatError: [file/json-depth] JSON: nested too deeply to read
    """
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except _DuplicateKey as error:
        raise SaveFormatError("file/json-duplicate-key",
                              f"{source}: key {error.key!r} appears twice in one object") from None
    except json.JSONDecodeError as error:
        raise SaveFormatError(
            "file/json", f"{source}: invalid JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise SaveFormatError("file/json-depth", f"{source}: nested too deeply to read") from None
    except ValueError as error:  # an integer past the digit limit, NaN or Infinity
        reason = str(error).split(";")[0].split(" for integer string conversion")[0]
        raise SaveFormatError("file/json-number", f"{source}: a number cannot be read: {reason}") from None
    if _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise SaveFormatError("file/json-surrogate",
                                  f"{source}: a string holds a lone UTF-16 surrogate (\\ud800-\\udfff)") from None
        except RecursionError:
            raise SaveFormatError("file/json-depth", f"{source}: nested too deeply to read") from None
    return data


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read a JSON file with :func:`parse_json`; a file-system or decoding error raises :class:`SaveFormatError`
    naming the path (``file/missing``, ``file/is-directory``, ``file/permission``, ``file/encoding``, ...)."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveFormatError("file/missing", f"{source}: no such file") from None
    except OSError as error:
        raise from_os_error(error, source, cls=SaveFormatError) from None
    except UnicodeDecodeError as error:
        raise SaveFormatError("file/encoding", f"{source}: not UTF-8 text ({error.reason})") from None
    return parse_json(text, os.fsdecode(source))
