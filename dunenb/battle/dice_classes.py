"""The leader step's merged d10 distribution, enumerating one face per class of faces that act alike (issue 14).

:func:`dunenb.battle.resolve.fates_distribution` enumerates every d10 the leader step asks for, ten faces each:
a battle with three contact-projectile passes (Feyd-Rautha's Kindjal beside a card, against a Shield card and a
worn shield) has a thousand leaves, although each pass only asks "d10 ≤ strength?". Here each face handed to the
step is a :class:`Face`: an ``int`` that notes every comparison made on it with a plain integer. Once the subtree
of a face is enumerated, another face of the same d10 that gives the same answer to every comparison noted on the
first (over its whole subtree) takes exactly the same path through the step, so it reaches the same leaves: it
is counted with the first instead of being enumerated again. Any other use of a face (arithmetic, a hash, a
truth test, a format, a comparison with something else than an ``int``) marks it *opaque*, and every face of that
d10 is then enumerated on its own, as before. The result is the same distribution, with the same exact
probabilities and the fates in the same order of first appearance as the full enumeration (faces are visited in
increasing order and a class is counted where its first face stands).

Limit: the step must use a face through Python's operators and built-ins (as the leader step does); code that
reads an ``int``'s value at the C level without calling its methods (NumPy converting it, ``json`` writing it)
would escape the notes.

>>> from fractions import Fraction
>>> class Need(Exception): ...
>>> def step(roll):  # a pass at strength 4 and, on a failure, another at strength 7
...     return "first" if roll(0) <= 4 else ("second" if roll(0) <= 7 else "none")
>>> leaves = merged_leaves(step, ((), ()), Need)
>>> leaves == (("first", Fraction(2, 5)), ("second", Fraction(21, 50)), ("none", Fraction(9, 50)))
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any, TypeVar

from dunenb.shares import chance_share

_F = TypeVar("_F", bound=Hashable)
#: A d10 source as the leader step calls it: ``roll(side)`` or ``roll(side, purpose)`` (dunenb.battle.rolls).
Roll = Callable[..., int]
#: The faces of a d10, in the order the full enumeration visits them.
FACES = tuple(range(1, 11))
_COMPARISONS = {"__lt__": int.__lt__, "__le__": int.__le__, "__gt__": int.__gt__, "__ge__": int.__ge__,
                "__eq__": int.__eq__, "__ne__": int.__ne__}
#: Every other use of a face that could let its value leak into the step's path or result.
_OPAQUE = ("__hash__", "__bool__", "__index__", "__int__", "__float__", "__repr__", "__str__",
           "__format__", "__neg__", "__pos__", "__abs__", "__invert__", "__round__", "__trunc__", "__floor__",
           "__ceil__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
           "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__divmod__", "__rdivmod__",
           "__pow__", "__rpow__", "__lshift__", "__rlshift__", "__rshift__", "__rrshift__", "__and__", "__rand__",
           "__or__", "__ror__", "__xor__", "__rxor__", "__reduce__", "__reduce_ex__", "__getnewargs__",
           "bit_length", "bit_count", "to_bytes", "as_integer_ratio", "conjugate", "is_integer", "__sizeof__")


class Face(int):
    """A d10 face that notes the comparisons made on it (``tests``: (comparison, other value, answer)) and whether
    it was used in any other way (``opaque``)."""

    tests: list[tuple[Callable[[int, int], bool], int, bool]]
    opaque: bool


def _comparison(name: str, compare: Callable[[int, int], bool]) -> Callable[[Face, Any], Any]:
    def method(self: Face, other: Any) -> Any:
        if type(other) is not int:
            self.opaque = True
            return compare(self, other)
        answer = compare(self, other)
        self.tests.append((compare, other, answer))
        return answer

    method.__name__ = name
    return method


def _opaque(name: str) -> Callable[..., Any]:
    plain = getattr(int, name)

    def method(self: Face, *args: Any, **kwargs: Any) -> Any:
        self.opaque = True
        return plain(self, *args, **kwargs)

    method.__name__ = name
    return method


for _name, _compare in _COMPARISONS.items():
    setattr(Face, _name, _comparison(_name, _compare))
for _name in _OPAQUE:
    if hasattr(int, _name):  # a few exist only in some Python versions
        setattr(Face, _name, _opaque(_name))


def _face(value: int) -> Face:
    face = Face(value)
    face.tests, face.opaque = [], False
    return face


def _alike(face: Face, value: int) -> bool:
    """Whether ``value`` answers every comparison noted on ``face`` as ``face`` did (issue 14 item 4: a plain loop,
    asked for every face of every d10 the leader step splits on)."""
    if face.opaque:
        return False
    for compare, other, answer in face.tests:
        if compare(value, other) != answer:
            return False
    return True


def merged_leaves(step: Callable[[Roll], _F], fixed: tuple[tuple[int, ...], tuple[int, ...]],
                  need_roll: type[Exception]) -> tuple[tuple[_F, Fraction], ...]:
    """(fates, probability) of ``step(roll)``, each distinct fates once, in order of first appearance: the
    merged leaves of the full d10 enumeration. ``roll(side[, purpose])`` hands out side's ``fixed`` dice first, then the
    faces of the enumeration; past them it raises ``need_roll``, which ``step`` must let through."""
    merged: dict[_F, tuple[int, int]] = {}
    _explore(step, fixed, need_roll, (), (1, 0), merged)
    # issue 14 item 4: the weights are summed as decimals (numerator, exponent): every probability here is a sum of
    # products of (faces in a class) / 10, so n / 10**e is exactly the Fraction the Fraction arithmetic gave (a
    # Fraction is normalised: equal values, equal records), without a gcd at every addition
    # (one kept Fraction per share: dunenb.shares)
    return tuple([(fates, chance_share(numerator, 10 ** exponent)) for fates, (numerator, exponent) in merged.items()])


def _add(merged: dict[_F, tuple[int, int]], fates: _F, numerator: int, exponent: int) -> None:
    """Add numerator / 10**exponent to the weight of ``fates`` (exactly)."""
    found = merged.get(fates)
    if found is None:
        merged[fates] = (numerator, exponent)
        return
    known, power = found
    if power == exponent:
        merged[fates] = (known + numerator, power)
    elif power < exponent:
        merged[fates] = (known * 10 ** (exponent - power) + numerator, exponent)
    else:
        merged[fates] = (known + numerator * 10 ** (power - exponent), power)


def _explore(step: Callable[[Roll], _F], fixed: tuple[tuple[int, ...], tuple[int, ...]],
             need_roll: type[Exception], branch: tuple[Face, ...], weight: tuple[int, int],
             merged: dict[_F, tuple[int, int]]) -> None:
    """Run ``step`` on ``branch``; add its fates with ``weight`` (numerator, exponent: n / 10**e), or split on the
    next d10 it asks for."""
    used = [0, 0]
    drawn = [0]

    def roll(side: int, purpose: str = "") -> int:  # ``purpose``: what the d10 is for; the classes ignore it
        if used[side] < len(fixed[side]):
            used[side] += 1
            return fixed[side][used[side] - 1]
        if drawn[0] < len(branch):
            drawn[0] += 1
            return branch[drawn[0] - 1]
        raise need_roll

    try:
        fates = step(roll)
        hash(fates)  # a face kept in the fates would be hashed here, and so marked opaque
    except need_roll:
        _split(step, fixed, need_roll, branch, weight, merged)
        return
    _add(merged, fates, *weight)


def _split(step: Callable[[Roll], _F], fixed: tuple[tuple[int, ...], tuple[int, ...]],
           need_roll: type[Exception], branch: tuple[Face, ...], weight: tuple[int, int],
           merged: dict[_F, tuple[int, int]]) -> None:
    """Enumerate the next d10 of ``branch``: one face per class of faces that act alike, counted for its class."""
    classes: list[tuple[Face, dict[_F, tuple[int, int]]]] = []  # (first face of the class, its subtree's leaves)
    counts: list[int] = []  # faces in each class
    for value in FACES:
        for index, (first, _leaves) in enumerate(classes):
            if _alike(first, value):
                counts[index] += 1
                break
        else:
            face = _face(value)
            leaves: dict[_F, tuple[int, int]] = {}
            _explore(step, fixed, need_roll, (*branch, face), (1, 0), leaves)
            classes.append((face, leaves))
            counts.append(1)
    numerator, exponent = weight
    for (_first, leaves), count in zip(classes, counts, strict=True):
        share = numerator * count  # weight * count / 10
        for fates, (known, power) in leaves.items():
            _add(merged, fates, share * known, exponent + 1 + power)
