"""Challenge results: what a player's five dice are worth in a challenge, their notation and order.

A :class:`Result` has an integer ``strength``; a result *beats* another when its strength is strictly
higher (IRON-GAP-1). Notation (used by saves, the CLI and the notebook):

* military: the sum, ``"23"`` (IRON-GAP-10: equal sums are equal results);
* faith: ``"2/4"`` = two sevens with unused dice totalling 4, ``"2/-"`` = two sevens using every die;
  a bare ``"2"`` is a threshold "at least two sevens" (beating it means making two sevens or more);
* intrigue: ``"full-house:4,4,4,1,1"`` = that exact hand; a bare name ``"full-house"`` is a threshold
  "at least a full house" (names: nothing, one-pair, two-pairs, three-of-a-kind, straight, full-house,
  four-of-a-kind, five-of-a-kind; the seed's French names paire, brelan, suite, full, carre, poker work too);
* any challenge: five dice ``"6,6,4,4,2"`` = the result those dice make.

>>> result_of("military", (5, 5, 6, 4, 3)).notation
'23'
>>> result_of("faith", (4, 6, 3, 2, 1)).beats(result_of("faith", (5, 4, 1, 6, 2)))
True
>>> parse_result("intrigue", "full-house").beats(parse_result("intrigue", "three-of-a-kind:6,6,6,5,4"))
True
>>> result_of("intrigue", (1, 1, 1, 2, 2)).beats(parse_result("intrigue", "full-house"))
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from dunenb.errors import InputError
from dunenb.iron_die.dice import SIDES, is_valid_dice, normalise
from dunenb.iron_die.faith import faith_claim
from dunenb.iron_die.hands import FRENCH_NAMES, HAND_NAMES, Hand, hand_rank, intrigue_hand
from dunenb.iron_die.options import DEFAULT_OPTIONS, TableOptions, options_for

#: The three challenges, in the seed's order.
CHALLENGES: tuple[str, ...] = ("military", "faith", "intrigue")
#: What the expected-score policy maximises in each challenge (IRON-GAP-15).
SCORE_NAMES: dict[str, str] = {
    "military": "sum of the five dice (5-30)",
    "faith": "number of sevens (0-2)",
    "intrigue": "hand rank index (0 nothing ... 7 five-of-a-kind)",
}
_FRENCH_CHALLENGES = {"militaire": "military", "foi": "faith"}
_HAND_SPAN = 7**5


def check_challenge(name: object, argument: str = "challenge") -> str:
    """Return the challenge name, or raise :class:`InputError` naming ``argument`` and the allowed values.

    >>> check_challenge("Foi")
    'faith'
    >>> check_challenge("magic")
    Traceback (most recent call last):
    ...
    dunenb.errors.InputError: [iron-die/challenge] challenge: 'magic' is not a challenge \
(allowed: military, faith, intrigue)
    """
    if isinstance(name, str):
        key = name.strip().lower()
        key = _FRENCH_CHALLENGES.get(key, key)
        if key in CHALLENGES:
            return key
    raise InputError(
        "iron-die/challenge", f"{argument}: {name!r} is not a challenge (allowed: {', '.join(CHALLENGES)})"
    )


def _encode(faces: tuple[int, ...]) -> int:
    value = 0
    for face in faces + (0,) * (5 - len(faces)):
        value = value * 7 + face
    return value


@dataclass(frozen=True)
class Result:
    """A result in one challenge. ``threshold`` results come from bare notations ("at least ...").

    ``value`` is ``(sum,)`` for military, ``(sevens, unused_total)`` for faith (``unused_total`` 0 when
    every die is used) or ``(sevens,)`` for a faith threshold, ``(rank, *tiebreak)`` for intrigue or
    ``(rank,)`` for an intrigue threshold. ``options`` are the table's readings of the faith challenge
    (IRON-GAP-17, IRON-GAP-18; always the defaults for the other challenges).
    """

    challenge: str
    value: tuple[int, ...]
    threshold: bool = False
    options: TableOptions = field(default=DEFAULT_OPTIONS, repr=False)

    @property
    def strength(self) -> int:
        """An integer that orders results of the same challenge (higher is better).

        >>> parse_result("faith", "2/-").strength < parse_result("faith", "2/6").strength
        True
        """
        if self.challenge == "military":
            return self.value[0]
        if self.challenge == "faith":
            if self.threshold:
                return self.value[0] * 100
            sevens, unused = self.value
            if self.options.faith_tiebreak == "high":  # IRON-GAP-18: a higher unused total wins
                return sevens * 100 + 1 + unused
            return sevens * 100 + (71 - unused if unused else 1)  # IRON-GAP-5, IRON-GAP-6
        rank = self.value[0]
        return rank * 100_000 + (0 if self.threshold else _encode(self.value[1:]))

    def beats(self, other: Result) -> bool:
        """True when this result is strictly better than ``other`` (same challenge only)."""
        if other.challenge != self.challenge:
            raise ValueError(f"cannot compare a {self.challenge} result with a {other.challenge} result")
        if other.options != self.options:
            raise ValueError("cannot compare results made under different table options")
        return self.strength > other.strength

    @property
    def notation(self) -> str:
        """The result written in the notation of the module docstring.

        >>> result_of("faith", (6, 6, 1, 3, 2)).notation, result_of("intrigue", (3, 3, 5, 5, 6)).notation
        ('2/-', 'two-pairs:5,5,3,3,6')
        """
        if self.challenge == "military":
            return str(self.value[0])
        if self.challenge == "faith":
            if self.threshold:
                return str(self.value[0])
            sevens, unused = self.value
            return f"{sevens}/{unused if unused else '-'}"
        name = HAND_NAMES[self.value[0]]
        if self.threshold:
            return name
        dice = Hand(self.value[0], self.value[1:]).dice()
        return f"{name}:{','.join(map(str, dice))}"

    def describe(self) -> str:
        """A readable description.

        >>> parse_result("faith", "2").describe(), parse_result("intrigue", "straight").describe()
        ('at least 2 sevens', 'at least a straight')
        >>> result_of("faith", (4, 6, 3, 2, 1)).describe()
        '2 sevens, unused dice total 2'
        """
        if self.challenge == "military":
            return f"sum {self.value[0]}"
        if self.challenge == "faith":
            sevens = self.value[0]
            plural = "" if sevens == 1 else "s"
            if self.threshold:
                return f"at least {sevens} seven{plural}"
            unused = self.value[1]
            left = f"unused dice total {unused}" if unused else "no unused die"
            return f"{sevens} seven{plural}, {left}"
        name = HAND_NAMES[self.value[0]].replace("-", " ")
        if self.threshold:
            article = "" if name.split()[0] in ("nothing", "one", "two", "three", "four", "five") else "a "
            return f"at least {article}{name}"
        return f"{name} ({self.notation.split(':')[1]})"


def result_of(challenge: str, dice: Iterable[int], options: TableOptions | None = None) -> Result:
    """The result that five dice make in ``challenge`` (under the table ``options``; default readings).

    >>> result_of("faith", (5, 4, 1, 6, 2))
    Result(challenge='faith', value=(2, 4), threshold=False)
    >>> high = TableOptions(faith_tiebreak="high")
    >>> result_of("faith", (5, 4, 1, 6, 2), high).beats(result_of("faith", (4, 6, 3, 2, 1), high))
    True
    """
    dice = normalise(dice)
    if challenge == "military":
        return Result(challenge, (sum(dice),))
    if challenge == "faith":
        options = options_for(challenge, options)
        claim = faith_claim(dice, options)
        return Result(challenge, (claim.sevens, claim.unused_total), options=options)
    if challenge == "intrigue":
        hand = intrigue_hand(dice)
        return Result(challenge, (hand.rank, *hand.tiebreak))
    check_challenge(challenge)
    raise AssertionError("unreachable")  # pragma: no cover


def score_of(challenge: str, dice: Iterable[int], options: TableOptions | None = None) -> int:
    """The score that the expected-score policy maximises (IRON-GAP-15).

    >>> [score_of(challenge, (6, 6, 4, 4, 2)) for challenge in CHALLENGES]
    [22, 0, 2]
    """
    value = result_of(challenge, dice, options).value
    return value[0]


def parse_dice(text: str, argument: str = "dice", count: int | None = 5) -> tuple[int, ...]:
    """Parse comma-separated faces, e.g. ``"6,6,4,4,2"``; raises :class:`InputError` naming ``argument``.

    >>> parse_dice("6, 6,4,4,2")
    (6, 6, 4, 4, 2)
    >>> parse_dice("6,6,9,4,2")
    Traceback (most recent call last):
    ...
    dunenb.errors.InputError: [iron-die/dice] dice: expected 5 faces 1-6 separated by commas \
(e.g. 6,6,4,4,2), got '6,6,9,4,2'
    """
    parts = [p.strip() for p in str(text).split(",")] if str(text).strip() else []
    try:
        faces = [int(p) for p in parts]
    except ValueError:
        faces = []
        parts = parts or ["?"]
    wanted = f"{count} " if count is not None else ""
    if not is_valid_dice(faces, count) or (not faces and count):
        raise InputError(
            "iron-die/dice",
            f"{argument}: expected {wanted}faces 1-{SIDES} separated by commas (e.g. 6,6,4,4,2), "
            f"got {text!r}",
        )
    return normalise(faces)


def _bad(challenge: str, text: str, argument: str) -> InputError:
    forms = {
        "military": "a sum 5-30 (e.g. 23)",
        "faith": "S/U = S sevens with unused dice totalling U (e.g. 2/4, 2/- when no die is unused), "
        "or a bare S for 'at least S sevens' (S 0-2)",
        "intrigue": "a hand name for 'at least that hand' ("
        + ", ".join(HAND_NAMES)
        + "; French: "
        + ", ".join(FRENCH_NAMES[1:])
        + ") or NAME:DICE for an exact hand (e.g. full-house:4,4,4,1,1)",
    }[challenge]
    return InputError(
        "iron-die/result",
        f"{argument}: {text!r} is not a {challenge} result "
        f"(allowed: {forms}, or five dice such as 6,6,4,4,2)",
    )


def parse_result(
    challenge: str, text: str, argument: str = "target", options: TableOptions | None = None
) -> Result:
    """Parse a result in the notation of the module docstring; raises :class:`InputError` naming ``argument``.

    >>> parse_result("military", "23")
    Result(challenge='military', value=(23,), threshold=False)
    >>> parse_result("faith", "2/4").value, parse_result("faith", "1").threshold
    ((2, 4), True)
    >>> parse_result("intrigue", "brelan:5,5,5,4,1").notation
    'three-of-a-kind:5,5,5,4,1'
    >>> parse_result("intrigue", "6,6,6,6,6").notation
    'five-of-a-kind:6,6,6,6,6'
    """
    challenge = check_challenge(challenge)
    options = options_for(challenge, options)
    raw = str(text).strip()
    if raw.count(",") == 4 and ":" not in raw:
        return result_of(challenge, parse_dice(raw, argument), options)
    if challenge == "military":
        if raw.isascii() and raw.isdigit() and 5 <= int(raw) <= 30:
            return Result(challenge, (int(raw),))
        raise _bad(challenge, raw, argument)
    if challenge == "faith":
        sevens, _, unused = raw.partition("/")
        if not (sevens.isascii() and sevens.isdigit()) or int(sevens) > 2:
            raise _bad(challenge, raw, argument)
        if not _:
            return Result(challenge, (int(sevens),), threshold=True, options=options)
        if unused == "-" and int(sevens) > 0:
            return Result(challenge, (int(sevens), 0), options=options)
        if unused.isascii() and unused.isdigit() and 1 <= int(unused) <= 30:
            return Result(challenge, (int(sevens), int(unused)), options=options)
        raise _bad(challenge, raw, argument)
    name, _, dice_text = raw.partition(":")
    rank = hand_rank(name)
    if rank is None:
        raise _bad(challenge, raw, argument)
    if not _:
        return Result(challenge, (rank,), threshold=True)
    try:
        dice = parse_dice(dice_text, argument)
    except InputError:
        raise _bad(challenge, raw, argument) from None
    hand = intrigue_hand(dice)
    if hand.rank != rank:
        raise InputError(
            "iron-die/result",
            f"{argument}: the dice {dice_text} make a {hand.name}, not a {HAND_NAMES[rank]}",
        )
    return Result(challenge, (hand.rank, *hand.tiebreak))
