"""Issue 14 item 4: what the bot's leader-step caches keep is not walked by the garbage collector, and keeping less
changes no answer (the leader step of a spec is the step of the leader and blocked powers it names)."""

from __future__ import annotations

import gc

from dunenb.bots.battle_planner import _fate_leader, _leader_step, _wheel_leader
from dunenb.rules.traitors import leader_of


def test_issue14_a_leader_step_spec_names_the_blocked_powers_as_a_set_would() -> None:
    # Feyd-Rautha's powers change who dies: the spec keeps his House, key and blocked powers; two specs are
    # equal exactly when their blocked sets are, whatever order the set gave
    leader = leader_of("harkonnen", "feyd-rautha")
    blocked = frozenset({"HARKONNEN-P2", "HARKONNEN-P1"})
    spec = _fate_leader("harkonnen", leader, blocked)
    assert isinstance(spec, tuple) and spec[2] == ("HARKONNEN-P1", "HARKONNEN-P2")
    assert spec == _fate_leader("harkonnen", leader, frozenset(reversed(sorted(blocked))))
    assert spec != _fate_leader("harkonnen", leader, frozenset())
    wheel_leader, house, seen_blocked = _wheel_leader(spec, "me")
    assert wheel_leader == leader and house == "harkonnen" and seen_blocked == blocked


def test_issue14_leader_step_cache_keys_are_not_tracked_by_the_collector() -> None:
    # a key of strings, ints and None only: the collector untracks it and never walks it again (a tuple is
    # untracked once its items are: one pass per level of nesting at most)
    spec = _fate_leader("harkonnen", leader_of("harkonnen", "feyd-rautha"), frozenset({"HARKONNEN-P1"}))
    key = ((spec, "lasgun", None, None, None), (3, "poison-fast", "shield"), False, 0)
    for _level in range(4):
        gc.collect()
    assert not gc.is_tracked(spec) and not gc.is_tracked(key)
    steps = _leader_step(*key)
    for _level in range(3):
        gc.collect()
    assert not gc.is_tracked(steps)
    assert abs(sum(probability for probability, *_ in steps) - 1.0) < 1e-12
