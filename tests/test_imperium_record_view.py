"""IMP-GAP-37 (issue 13, as GAP-58 for the Dune game): a seat's view of an Imperium record leaks no other
player's hand, intrigues, deck order, known top card, secret factions, draws, seed or generator.

Whole seeded bot games are walked node by node for every seat and a spectator. Which actions are secret is
written out here from the rules (not read from :mod:`dunenb.imperium.secrecy`), so the test checks it.
"""

from __future__ import annotations

import pytest

from dunenb.errors import InputError
from dunenb.imperium.bots import make_bot
from dunenb.imperium.engine import chance_outcomes, legal_actions, propose_chance
from dunenb.imperium.record import ImperiumConfig, ImperiumRecord
from dunenb.imperium.record_view import ImperiumRecordView
from dunenb.imperium.secrecy import HiddenAction
from dunenb.imperium.state import ImperiumState

CANARY = 6_120_447_913
GAMES = [
    (("A", "B", "C", "D"), ("paul_atreides", "vladimir_harkonnen", "helena_richese", "leto_atreides"), "random"),
    (("A", "B", "C"), ("vladimir_harkonnen", "paul_atreides", "memnon_thorvald"), "heuristic"),
]


def _play(index: int) -> ImperiumRecord:
    names, leaders, bot = GAMES[index]
    record = ImperiumRecord(ImperiumConfig(names, leaders, CANARY + index))
    bots = [make_bot(bot, seed=index + k) for k in range(len(names))]
    node = record.root
    state = record.state_at(node)
    while state.pending is not None:
        action = propose_chance(state) if state.is_chance else bots[state.pending.player].choose(state)
        node = record.add_move(node, action)
        state = record.state_at(node)
    return record


@pytest.fixture(scope="module")
def records() -> list[ImperiumRecord]:
    return [_play(i) for i in range(len(GAMES))]


def _may_see(before: ImperiumState, seat: int | None) -> bool:
    """Whether ``seat`` sees the action answering ``before``'s pending task (the rules, written out)."""
    task = before.pending
    if task.kind in ("draw", "peek", "intrigue", "secret_factions"):  # own face-down cards, the Baron's choice
        return seat == task.player
    if task.kind == "steal":  # IMP-GAP-20: the thief and the victim
        return seat in (task.player, task.data[0])
    return True


def _check_position(god: ImperiumState, seen: dict, seat: int | None) -> None:
    assert "rng" not in seen and "seed" not in seen and str(god.seed) not in repr(seen)
    for index, (real, shown) in enumerate(zip(god.players, seen["players"], strict=True)):
        if index == seat:
            assert shown["hand"] == list(real.hand) and shown["intrigues"] == list(real.intrigues)
            assert shown["deck_top"] == list(real.deck_top)
            assert shown["secret_factions"] == list(real.secret_factions)
            continue
        assert shown["hand"] == len(real.hand) and shown["intrigues"] == len(real.intrigues)
        assert shown["deck"] == real.deck_size and shown["deck_top"] is None
        assert shown["secret_factions"] == (list(real.secret_factions) if real.secret_shown else None)


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_imp_gap_37_no_seat_view_of_a_whole_game_leaks_a_secret(records, game):
    record = records[game]
    assert record.state_at(record.leaf()).is_over
    line = record.mainline()
    hidden_seen = 0
    for seat in [*range(len(record.config.names)), None]:
        seen_record = record.view(seat)
        assert isinstance(seen_record, ImperiumRecordView) and len(seen_record) == len(record)
        assert seen_record.config.seed == 0 and str(CANARY + game) not in repr(vars(seen_record))
        assert not any(isinstance(v, (ImperiumRecord, ImperiumState)) for v in vars(seen_record).values())
        for node in line:
            god, before = record.state_at(node), record.state_at(record.node(node).parent)
            _check_position(god, seen_record.state_at(node), seat)
            real, shown = record.node(node).action, seen_record.node(node).action
            if _may_see(before, seat):
                assert shown == real
            else:
                hidden_seen += 1
                assert isinstance(shown, HiddenAction) and shown.player == before.pending.player
                assert shown.to_dict() == {"type": "hidden", "task": before.pending.kind, "player": shown.player}
            alternatives = seen_record.alternatives(node)
            task = god.pending
            if task is None:
                assert alternatives == []
            elif god.is_chance:
                public = task.kind in ("row", "conflict", "first") or (
                    task.kind in ("draw", "peek") and task.player == seat
                )
                assert alternatives == (chance_outcomes(god) if public else [])
            elif task.player == seat:
                assert [a for a, _ in alternatives] == legal_actions(god)
            else:
                assert alternatives == []
        assert seen_record.actions_to(line[-1]) == [seen_record.node(n).action for n in line]
    assert hidden_seen > 0


def test_imp_gap_37_seat_by_name_and_bad_seats(records):
    record = records[1]
    assert record.view("B").seat == 1 and record.view(None).seat is None
    for bad in (3, -1, "Z", 1.0):
        with pytest.raises(InputError) as error:
            record.view(bad)
        assert error.value.code == "imperium/record-view" and "seat 0 to 2" in error.value.message
    with pytest.raises(InputError) as error:
        record.view(0).node(10**9)
    assert error.value.code == "record/node"
