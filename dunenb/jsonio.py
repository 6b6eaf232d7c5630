"""Safe JSON files: atomic writes (temporary file + rename) and strict reads with clear errors.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "x.json"
>>> write_json_atomic(path, {"a": 1})
>>> read_json(path)
{'a': 1}
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from dunenb.errors import SaveFormatError


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> None:
    """Write ``data`` as indented JSON to ``path`` so that a crash never leaves a half-written file.

    The JSON goes to a temporary file in the same folder, is flushed to disk, then renamed over ``path``.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read a JSON file; a missing file or invalid JSON raises :class:`SaveFormatError` naming the place."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveFormatError("file/missing", f"{source}: no such file") from None
    except UnicodeDecodeError as error:
        raise SaveFormatError("file/encoding", f"{source}: not UTF-8 text ({error.reason})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveFormatError(
            "file/json", f"{source}: invalid JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
