"""Issue 14 item 4: the leader step's merged distribution enumerated by classes of d10 faces
(:mod:`dunenb.battle.dice_classes`) is exactly the full enumeration's, merged (same fates, same exact
probabilities, same order), for the leaders whose powers roll d10s in the leader step."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from dunenb.battle.dice_classes import Face, merged_leaves
from dunenb.battle.plans import BattlePlan, BattleSide
from dunenb.battle.resolve import _fates_distribution, _merged_fates
from dunenb.battle.roster import inline_leader, load_roster
from dunenb.battle.wheel import Dial, Tokens

#: Leader power kinds that roll or change the card deaths of the leader step (K-7, K-8, K-9, K-10, K-14).
ROLLING_KINDS = {"BUILTIN_WEAPON", "BUILTIN_DEFENSE", "CARD_RULE", "IMMUNITY", "KILL"}
CARDS = [(None, None), ("projectile-contact", "shield"), ("projectile-contact", None), ("poison-fast", "snooper"),
         ("lasgun", None), ("projectile-distance", "shield"), ("poison-slow", "shield")]


def _full(key: tuple[BattleSide, BattleSide]) -> tuple[tuple[Fraction, object], ...]:
    merged: dict[object, Fraction] = {}
    for probability, fates, _rolls in _fates_distribution.__wrapped__(key):
        merged[fates] = merged.get(fates, Fraction(0)) + probability
    return tuple((probability, fates) for fates, probability in merged.items())


def _rolling_leaders() -> list:
    return [leader for leader in load_roster().leaders
            if leader.house and any(power.kind in ROLLING_KINDS for power in leader.powers)]


def _side(house: str, leader, cards: tuple[str | None, str | None], dice: tuple[int, ...] = ()) -> BattleSide:
    return BattleSide(house, Tokens(), BattlePlan(Dial(), leader, cards[0], cards[1]), dice=dice)


@pytest.mark.parametrize("leader", _rolling_leaders(), ids=lambda leader: leader.key)
def test_issue14_face_classes_give_the_full_merged_distribution(leader):
    opponent = inline_leader("Opponent", 4)
    strong = next(other for other in _rolling_leaders() if other.house != leader.house)
    for foe, mine, theirs in itertools.product((opponent, strong), CARDS, CARDS):
        for key in ((_side(leader.house, leader, mine), _side(foe.house or "them", foe, theirs)),
                    (_side(foe.house or "them", foe, theirs), _side(leader.house, leader, mine))):
            assert _merged_fates(key) == _full(key), (leader.key, foe.key, mine, theirs)


def test_issue14_face_classes_keep_fixed_dice_and_count_each_class():
    inline = inline_leader("Passer", 4)
    first = _side("atreides", inline, ("projectile-contact", "shield"))
    second = _side("harkonnen", inline_leader("Other", 6), ("projectile-contact", "shield"))
    assert _merged_fates((first, second)) == _full((first, second))
    fixed = (_side("atreides", inline, ("projectile-contact", "shield"), dice=(3,)), second)
    assert _merged_fates(fixed) == _full(fixed)
    calls = []

    def step(roll):  # two independent passes: four classes, not a hundred leaves
        calls.append(1)
        return (roll(0) <= 4, roll(1) <= 6)

    leaves = merged_leaves(step, ((), ()), LookupError)
    assert dict(leaves) == {(True, True): Fraction(24, 100), (True, False): Fraction(16, 100),
                            (False, True): Fraction(36, 100), (False, False): Fraction(24, 100)}
    assert len(calls) == 1 + 2 + 4  # each prefix once: the root, a face of each class of the first d10, then leaves


def test_issue14_a_face_used_otherwise_than_compared_is_enumerated_face_by_face():
    def step(roll):
        return roll(0) % 3  # arithmetic: the classes are not known, every face counts on its own

    leaves = merged_leaves(step, ((), ()), LookupError)
    assert dict(leaves) == {1: Fraction(4, 10), 2: Fraction(3, 10), 0: Fraction(3, 10)}
    face = Face(5)
    face.tests, face.opaque = [], False
    assert face <= 6 and not face.opaque and len(face.tests) == 1
    assert hash(face) == hash(5) and face.opaque
