"""Pin the final state digest of each shipped save in data/games/ (issue 14 item 6, the golden test).

Writes ``tests/data/game_digests.json`` (save file name -> number of actions, final-state digest
(:func:`dunenb.state.state_digest`) and the digest of every main-line state in order, :func:`line_digest`),
which ``tests/test_golden_games.py`` compares with a fresh replay. Run it
after regenerating the saves (``python tools/make_example_games.py`` runs it at its end), never to make a failing
golden test pass: a digest that changed without new saves means the rules now replay a shipped game differently.

    PYTHONPATH=. python tools/pin_game_digests.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from dunenb.saves import load_game
from dunenb.state import state_digest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "data" / "games"
DIGESTS = ROOT / "tests" / "data" / "game_digests.json"


def line_digest(record: Any) -> str:
    """sha256 over the state digests of every main-line state of ``record``, in order (issue 14 item 6: a shipped
    save replays to the very states it gave, not only to the same end)."""
    digest = hashlib.sha256()
    for node_id in record.mainline():
        digest.update(state_digest(record.state_at(node_id)).encode())
    return digest.hexdigest()


def final_digests(folder: Path = GAMES) -> dict[str, dict[str, Any]]:
    """For each save of ``folder``: the length of its main line and the digest of the state at its end."""
    pinned: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.json")):
        record = load_game(path)
        line = record.mainline()
        last = line[-1] if line else record.root
        pinned[path.name] = {"actions": record.depth(last), "digest": state_digest(record.state_at(last)),
                             "line": line_digest(record)}
    return pinned


def main() -> None:
    pinned = final_digests()
    DIGESTS.parent.mkdir(parents=True, exist_ok=True)
    DIGESTS.write_text(json.dumps(pinned, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    for name, entry in pinned.items():
        print(f"pinned {name}: {entry['actions']} actions, {entry['digest'][:16]}")


if __name__ == "__main__":
    main()
