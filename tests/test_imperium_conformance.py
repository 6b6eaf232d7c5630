"""Random-play conformance of the Dune: Imperium engine: legal actions exist until the end, chance
probabilities are exact and sum to 1, every listed action applies, save/load/replay and record trees give
identical states, and player views hide other hands and every deck order."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from dunenb.imperium.engine import apply_action, chance_outcomes, legal_actions, new_game
from dunenb.imperium.record import ImperiumConfig, ImperiumRecord
from dunenb.imperium.save import from_save, to_save, view


def card_totals(state) -> tuple[Counter, Counter]:
    """Every card of the game wherever it is (row, decks, reserve piles, each player's zones, set aside,
    trashed) and every intrigue (deck, discard, hands): both are conserved."""
    cards = Counter(state.row) + Counter(state.imperium_deck) + Counter(dict(state.reserve))
    intrigues = Counter(state.intrigue_deck) + Counter(state.intrigue_discard)
    for p in state.players:
        cards += Counter(p.owned()) + Counter(p.reserved) + Counter(p.trashed)
        intrigues += Counter(p.intrigues)
    return cards, intrigues


def random_game(players: int, seed: int, check_every: int = 25, leaders=None):
    rng = random.Random(seed)
    state = new_game([f"P{i}" for i in range(players)], seed, leaders)
    start = card_totals(state)
    plies = 0
    while not state.is_over:
        actions = legal_actions(state)
        assert actions, f"no legal action at {state.pending}"
        if state.is_chance:
            outcomes = chance_outcomes(state)
            assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
            assert [a for a, _ in outcomes] == actions
            action = rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(actions)
        if plies % check_every == 0:
            assert card_totals(state) == start, f"cards not conserved at ply {plies}"
            for other in actions:
                apply_action(state, other)  # every listed action is legal
        state = apply_action(state, action)
        plies += 1
    return state


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13), (4, 14)])
def test_random_play_reaches_the_end_and_replays_identically(players, seed):
    final = random_game(players, seed)
    assert final.is_over and final.winners
    assert legal_actions(final) == []
    save = json.loads(json.dumps(to_save(final)))
    assert from_save(save) == final
    half = len(final.actions) // 2
    partial = from_save({**save, "actions": save["actions"][:half]})
    again = partial
    for action in final.actions[half:]:
        again = apply_action(again, action)
    assert again == final


def test_random_play_with_every_decided_leader_power():
    """Prescience, Masterstroke, Manipulate and Leto's signet (IMP-GAP-33..36) in one random game."""
    leaders = ["paul_atreides", "vladimir_harkonnen", "helena_richese", "leto_atreides"]
    final = random_game(4, 15, check_every=5, leaders=leaders)
    assert final.is_over and from_save(json.loads(json.dumps(to_save(final)))) == final
    assert final.players[1].secret_factions


def test_record_tree_replays_and_branches():
    final = random_game(2, 21)
    record = ImperiumRecord(ImperiumConfig(final.names, final.leaders, final.seed))
    leaf = record.add_line(record.root, final.actions)
    record.clear_cache()
    assert record.state_at(leaf) == final
    middle = record.mainline()[100]
    state = record.state_at(middle)
    alternatives = [a for a in legal_actions(state) if a != record.node(record.mainline()[101]).action]
    if alternatives:
        branch = record.add_move(middle, alternatives[0])
        assert len(record.children(middle)) == 2 and record.state_at(branch).actions[-1] == alternatives[0]
    assert isinstance(record.seat_view(leaf, 0)["players"][1]["hand"], int)


def test_views_hide_hands_intrigues_and_decks():
    state = new_game(["A", "B", "C"], 3)
    rng = random.Random(0)
    while state.round < 2 or state.pending.kind != "turn":
        state = apply_action(state, rng.choice(legal_actions(state)))
    seen = view(state, 0)
    assert seen["players"][0]["hand"] == list(state.players[0].hand)
    for other in seen["players"][1:]:
        assert isinstance(other["hand"], int) and isinstance(other["intrigues"], int) and isinstance(other["deck"], int)
    assert isinstance(seen["imperium_deck"], int) and isinstance(seen["intrigue_deck"], int)
    assert "rng" not in json.dumps(seen) and "seed" not in seen
    spectator = view(state, None)
    assert all(isinstance(p["hand"], int) for p in spectator["players"])


def test_engine_never_imports_notebook_libraries():
    import subprocess
    import sys

    code = (
        "import sys, dunenb.imperium, dunenb.imperium.cli, dunenb.imperium.simulate, dunenb.imperium.analysis, "
        "dunenb.imperium.record; print(sorted(m for m in ('ipywidgets', 'bqplot', 'IPython') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
