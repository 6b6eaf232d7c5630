"""The lab's working copy (``make lab``): JupyterLab opens copies of the notebooks in ``lab/``, a folder git ignores.

    python tools/lab_workspace.py [LAB_DIR]

Running and saving a notebook in the lab therefore never dirties a tracked file (issue 16 item 8; the design
choice is in the README, "Notebooks"). ``lab/`` sits beside ``notebooks/``, so the notebooks' relative paths
(``../data/games/...``) read the same files. Each run brings the copies up to date:

* a notebook with no copy yet is copied;
* a copy the user has not saved since it was copied is replaced when the tracked notebook changed;
* a copy the user saved is kept, unless the tracked notebook changed too: then the user's copy moves to
  ``lab/old/NAME-YYYYmmdd-HHMMSS.ipynb`` (nothing is lost) and the new version is copied.

``lab/.copied.json`` remembers, per file, the SHA-256 of the version copied.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "notebooks"
MANIFEST = ".copied.json"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sync(source: Path, work: Path) -> list[str]:
    """Bring the working copy ``work`` up to date with ``source`` (rules in the module docstring); returns one
    line per change."""
    work.mkdir(parents=True, exist_ok=True)
    manifest_path = work / MANIFEST
    copied: dict[str, str] = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    changes = []
    for original in sorted(p for p in source.iterdir() if p.is_file() and not p.name.startswith(".")):
        target = work / original.name
        wanted = _digest(original)
        if target.exists():
            if copied.get(original.name) == wanted:
                continue  # up to date (the user may have run and saved it: theirs to keep)
            if copied.get(original.name) != _digest(target):  # saved by the user and changed upstream
                old = work / "old" / f"{original.stem}-{time.strftime('%Y%m%d-%H%M%S')}{original.suffix}"
                old.parent.mkdir(exist_ok=True)
                target.replace(old)
                changes.append(f"{original.name}: updated; your saved copy is now {old.relative_to(work)}")
            else:
                changes.append(f"{original.name}: updated")
        else:
            changes.append(f"{original.name}: copied")
        shutil.copyfile(original, target)
        copied[original.name] = wanted
    manifest_path.write_text(json.dumps(copied, indent=1, sort_keys=True) + "\n")
    return changes


def main(argv: list[str]) -> int:
    work = Path(argv[0]) if argv else ROOT / "lab"
    changes = sync(SOURCE, work)
    print(f"lab working copy {work}: " + ("; ".join(changes) if changes else "up to date")
          + " (the tracked notebooks/ stay untouched)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
