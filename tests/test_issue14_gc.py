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


def test_issue14_a_leader_who_may_not_disarm_is_never_disarmed() -> None:
    # K-3 DISARM: without an entry that may act (his own or one he may inherit, K-24), battle_values marks nobody
    # disarmed, whoever fights him, wherever, whoever is dead: the shortcut of without_disarmed_attacks
    import itertools

    from dunenb.battle.powers import battle_values, may_disarm
    from dunenb.battle.roster import load_roster
    from dunenb.powers.inheritance import sources

    roster = load_roster()
    leaders = [leader for leader in roster.leaders if leader.house is not None]
    disarmers = {leader.key for leader in leaders if may_disarm(leader)}
    assert {"fremen:chani", "atreides:jessica"} <= disarmers
    all_dead = frozenset(source.id for pairs in sources().values() for source, _power in pairs)
    checked = 0
    for first, second in itertools.product(leaders[::3], leaders[1::3]):
        if first.house == second.house or may_disarm(first) or may_disarm(second):
            continue
        for territory, dead in (("nord-cielago", frozenset()), ("carthag", all_dead), ("sietch-tarb", all_dead)):
            values = battle_values((first.house, second.house), (first, second), 0, territory=territory,
                                   dead=(dead, dead))
            assert not values[0].disarmed and not values[1].disarmed, (first.key, second.key, territory)
            checked += 1
    assert checked > 300
    chani, paul = roster.find("Chani", house="fremen"), roster.find("Paul")
    assert battle_values(("fremen", "atreides"), (chani, paul), 1, territory="nord-cielago")[0].disarmed
