"""Golden test (issue 14 item 6): each shipped save in data/games/ replays to the final state pinned in
``tests/data/game_digests.json``. A speed-up or refactoring must leave every digest as it is; when the saves are
regenerated (``python tools/make_example_games.py``, which then runs ``tools/pin_game_digests.py``), the digests
are pinned again."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from dunenb.saves import load_game
from dunenb.state import state_digest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from pin_game_digests import line_digest  # noqa: E402  (the pinning tool's own digest)

ROOT = Path(__file__).resolve().parent.parent
PINNED = json.loads((ROOT / "tests" / "data" / "game_digests.json").read_text(encoding="utf-8"))
SAVES = sorted(p.name for p in (ROOT / "data" / "games").glob("*.json"))


def test_every_shipped_save_is_pinned():
    assert sorted(PINNED) == SAVES, "run `python tools/pin_game_digests.py` after regenerating data/games/"


@pytest.mark.parametrize("name", SAVES)
def test_shipped_save_replays_to_its_pinned_final_state(name):
    record = load_game(ROOT / "data" / "games" / name)
    line = record.mainline()
    last = line[-1] if line else record.root
    assert record.depth(last) == PINNED[name]["actions"]
    assert state_digest(record.state_at(last)) == PINNED[name]["digest"], (
        f"{name} now replays to another final state: the rules changed what this game does")
    assert line_digest(record) == PINNED[name]["line"], f"{name} passes through other states on its way"


def test_state_digest_ignores_the_order_mappings_were_filled_in():
    from dunenb.engine import new_game
    from dunenb.state import FrozenDict

    state = new_game(["atreides", "fremen"], seed=3)
    reordered = state.__class__(**{**state.__dict__, "houses": FrozenDict(dict(reversed(list(state.houses.items()))))})
    assert reordered == state and state_digest(reordered) == state_digest(state)
    moved = state.__class__(**{**state.__dict__, "bank": state.bank + 1})
    assert state_digest(moved) != state_digest(state)
