"""Actions: frozen dataclasses, one per kind, with a dict/JSON form and a readable notation.

Chance outcomes are actions too (``is_chance``): a die roll, a dial shown "au hasard", a card drawn.

>>> action = ChooseStart(house="atreides", position=5)
>>> action.notation()
'start atreides 5'
>>> action.describe()
'The Atreides choose start position 5'
>>> parse_action("start atreides 5") == action
True
>>> action_from_dict(action.to_dict()) == action
True
>>> parse_action("spice 1 bassin-du-bouclier/6")
DrawSpiceCard(pile=1, card='bassin-du-bouclier/6')
"""

from __future__ import annotations

import builtins
import dataclasses
import functools
import numbers
import sys
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from dunenb.errors import InputError, SaveFormatError

ACTION_KINDS: dict[str, type[Action]] = {}

#: A starting placement: (area, sector, regular tokens, marked tokens).
Placement = tuple[str, int, int, int]


@dataclass(frozen=True)
class Action:
    """Base of every action. Subclasses set ``kind`` and, for chance outcomes, ``is_chance``."""

    kind: ClassVar[str] = ""
    is_chance: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind:
            ACTION_KINDS[cls.kind] = cls

    def __post_init__(self) -> None:
        """Refuse a field of the wrong Python type, e.g. ``Bid(amount=3.5)`` or ``Revive(regular=True)``.

        An action is a value the rules compare, hash and save: a float, a bool where an integer is meant, or a
        list where a tuple is meant would pass some checks and break others later (GAP-59). NumPy integers are
        stored as plain ``int``.

        >>> from dunenb.rules.bidding import Bid
        >>> Bid(house="atreides", amount=3.5)
        Traceback (most recent call last):
        ...
        dunenb.errors.InputError: [action/field-type] bid.amount must be an integer, not 3.5
        """
        plan = _PLANS.get(type(self)) or _plan(type(self))
        values = self.__dict__
        for name, exact in plan:  # the common case costs one type() test a field (legal menus build many)
            value = values[name]
            if type(value) is exact:
                continue
            if exact is _AlwaysCheck and type(value) is tuple and (
                    _CHECKED_OBJECTS.get((type(self), name, id(value))) is value
                    or (type(self), name, repr(value)) in _CHECKED_TUPLES):
                continue  # this very tuple was checked for this field before (menus repeat paths, placements)
            self._repair(name)

    def _repair(self, name: str) -> None:
        """Check the field fully: store a normalised value (a NumPy integer as ``int``) or raise."""
        spec = next(spec for spec in field_specs(type(self)) if spec.name == name)
        value = getattr(self, name)
        try:
            checked = spec.check(value)
        except _WrongType as error:
            raise InputError("action/field-type", error.message(f"{self.kind}.{name}")) from None
        if checked is not value:
            object.__setattr__(self, name, checked)
        elif type(value) is tuple:
            if len(_CHECKED_TUPLES) > MAX_CHECKED_TUPLES:
                _CHECKED_TUPLES.clear()
            _CHECKED_TUPLES.add((type(self), name, repr(value)))
            if len(_CHECKED_OBJECTS) > MAX_CHECKED_TUPLES:
                _CHECKED_OBJECTS.clear()
            _CHECKED_OBJECTS[(type(self), name, id(value))] = value

    @property
    def actor(self) -> str:
        """The House acting, or ``"chance"``."""
        return "chance" if self.is_chance else str(getattr(self, "house", ""))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            data[f.name] = [list(v) for v in value] if isinstance(value, tuple) else value
        return data

    def notation(self) -> str:
        parts = [self.kind]
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                parts.append(",".join(":".join(str(x) for x in item) for item in value) or "-")
            else:
                parts.append("-" if value is None else str(value))
        return " ".join(parts)

    def describe(self) -> str:
        """One line in words ("The Harkonnen offer the Emperor 1 spice"), shown beside the notation (issue 16;
        the table of texts per kind is :data:`dunenb.action_text.DESCRIBERS`)."""
        from dunenb.action_text import describe

        return describe(self)

    def __str__(self) -> str:
        return self.notation()


# --- setup ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Roll3d10(Action):
    """SETUP-2: a House's 3d10 total (3..30); a re-roll among tied Houses (GAP-4a) uses the same kind."""

    kind: ClassVar[str] = "roll"
    is_chance: ClassVar[bool] = True
    house: str
    total: int


@dataclass(frozen=True)
class RollWormDice(Action):
    """SPICE-3 options: the extra worm cards rolled at setup (e.g. 18 + 2d10)."""

    kind: ClassVar[str] = "worm-dice"
    is_chance: ClassVar[bool] = True
    total: int


@dataclass(frozen=True)
class ChooseStart(Action):
    """SETUP-2: choose a start position 1..24, not next to the previous chooser's (GAP-4b)."""

    kind: ClassVar[str] = "start"
    house: str
    position: int


@dataclass(frozen=True)
class InitialStormDial(Action):
    """STORM-2 / STORM-12 with GAP-6: one of the two highest rollers shows 0..20 "au hasard"."""

    kind: ClassVar[str] = "storm-dial"
    is_chance: ClassVar[bool] = True
    storm: str
    house: str
    value: int


@dataclass(frozen=True)
class PlaceStartingForces(Action):
    """FREMEN-START: the Fremen split their 10 tokens over Sietch Tarb and at most 2 neighbours."""

    kind: ClassVar[str] = "place"
    house: str
    placements: tuple[Placement, ...]


# --- storm ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DrawStormToken(Action):
    """FREMEN-P1 / GAP-7c: the Fremen draw next turn's move 1..7 for one storm (secret)."""

    kind: ClassVar[str] = "storm-token"
    is_chance: ClassVar[bool] = True
    storm: str
    value: int


@dataclass(frozen=True)
class DialStorm(Action):
    """GAP-7a: without the Fremen, each of two players dials 0..3; the sum (0..6) moves the storm."""

    kind: ClassVar[str] = "dial"
    storm: str
    house: str
    value: int


@dataclass(frozen=True)
class PlayWeatherControl(Action):
    """STORM-5, STORM-18, GAP-31, CARD-WEATHER-2: ``mode`` ``"plus1"`` or ``"plus2"`` adds 1 or 2 sectors ("up to
    2"); ``"stop"`` stops after ``sectors``."""

    kind: ClassVar[str] = "weather"
    house: str
    storm: str
    mode: str
    sectors: int = 0


@dataclass(frozen=True)
class Pass(Action):
    """Decline an optional decision (e.g. not playing weather control)."""

    kind: ClassVar[str] = "pass"
    house: str


@dataclass(frozen=True)
class PowerDie(Action):
    """A public die (LC-1) that ``house`` rolls for its leader's power ``power`` and that shows ``value``: the shape
    of the after-battle dice (BG-L03-b capture, BG-L09-b torture, TLEILAX-L03-d destroy_tanks). Each subclass
    names its own ``kind``, which is its save format; this base has none and is never an action itself."""

    is_chance: ClassVar[bool] = True
    house: str
    power: str
    value: int


# --- spice ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DrawSpiceCard(Action):
    """SPICE-4: a card turned onto pile 1 or 2: ``territory/value`` or ``worm``."""

    kind: ClassVar[str] = "spice"
    is_chance: ClassVar[bool] = True
    pile: int
    card: str


class _WrongType(Exception):
    """A field value of the wrong type: ``path`` locates it inside the field (``[2][1]``)."""

    def __init__(self, expected: str, value: Any) -> None:
        super().__init__(expected)
        self.expected, self.value, self.path = expected, value, ""

    def message(self, where: str) -> str:
        return f"{where}{self.path} must be {self.expected}, not {self.value!r}"


Checker = Callable[[Any], Any]


def _check_int(value: Any) -> int:
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):  # bool is an int in Python
        raise _WrongType("an integer", value)
    return int(value)  # a NumPy integer


def _check_str(value: Any) -> str:
    if not isinstance(value, str):
        raise _WrongType("a string", value)
    return value


def _checker(annotation: Any) -> Checker:
    """A function returning the value if it has the type (normalised), raising :class:`_WrongType` if not."""
    if annotation is int:
        return _check_int
    if annotation is str:
        return _check_str
    if typing.get_origin(annotation) is not tuple:
        raise TypeError(f"action fields must be int, str or tuples of them, not {annotation!r}")
    args = typing.get_args(annotation)
    items = [_checker(args[0])] if len(args) == 2 and args[1] is Ellipsis else [_checker(a) for a in args]
    size = None if len(args) == 2 and args[1] is Ellipsis else len(args)

    def check_tuple(value: Any) -> tuple[Any, ...]:
        if type(value) is not tuple:
            raise _WrongType("a tuple", value)
        if size is not None and len(value) != size:
            raise _WrongType(f"a tuple of {size} items", value)
        checked = []
        for index, item in enumerate(value):
            try:
                checked.append(items[0 if size is None else index](item))
            except _WrongType as error:
                error.path = f"[{index}]{error.path}"
                raise
        return value if all(a is b for a, b in zip(checked, value, strict=True)) else tuple(checked)

    return check_tuple


def _tuples(value: Any, annotation: Any) -> Any:
    """The JSON form of a field made Python: lists become tuples where the field holds tuples."""
    if not isinstance(value, list) or typing.get_origin(annotation) is not tuple:
        return value
    args = typing.get_args(annotation)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_tuples(v, args[0]) for v in value)
    return tuple(_tuples(v, a) for v, a in zip(value, args, strict=False)) + tuple(value[len(args):])


@dataclass(frozen=True)
class FieldSpec:
    """One field of an action class: its name, type, checker and whether it has a default."""

    name: str
    annotation: Any
    check: Checker
    required: bool


_SPECS: dict[type, tuple[FieldSpec, ...]] = {}


@functools.cache
def _annotation(text: str, module: str) -> Any:
    """The type an annotation's text names in ``module`` (evaluated once per text and module).

    Issue 14 item 3: a text that is one name (``str``, ``int``, ``Pledge``) is looked up as ``eval`` looks it up,
    in the module's namespace, then in its builtins, without compiling the text; anything else, an unknown name
    included (its error), is evaluated."""
    namespace = vars(sys.modules[module])
    if text.isidentifier():
        if text in namespace:
            return namespace[text]
        builtin = namespace.get("__builtins__", builtins)
        builtin = builtin if isinstance(builtin, dict) else vars(builtin)
        if text in builtin:
            return builtin[text]
    return eval(text, namespace)  # the class's own annotation, as get_type_hints evaluates it


def field_types(cls: type) -> dict[str, Any]:
    """``typing.get_type_hints(cls)`` for a dataclass whose annotations are texts (``from __future__ import
    annotations``): each text evaluated in the module of the class that wrote it, as ``get_type_hints`` does,
    but once per distinct text (issue 14 part 3: a replay resolves the fields of some fifty action classes,
    which repeat a handful of texts such as ``str`` and ``tuple[str, ...]``).

    >>> field_types(Pass) == typing.get_type_hints(Pass)
    True
    """
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        for name, annotation in base.__dict__.get("__annotations__", {}).items():
            if annotation is None:
                annotation = type(None)
            elif isinstance(annotation, str):
                annotation = _annotation(annotation, base.__module__)
            hints[name] = annotation
    return hints


def _field_type(cls: type, name: str) -> Any:
    """``field_types(cls)[name]``, evaluating that field's annotation only (issue 14 item 3: not the class
    variables, ``kind: ClassVar[str]`` and the like, which :func:`field_specs` never reads): the annotation of the
    most derived class of the MRO that annotates ``name``, which is the one ``field_types`` keeps."""
    for base in cls.__mro__:
        annotations = base.__dict__.get("__annotations__", {})
        if name in annotations:
            annotation = annotations[name]
            if annotation is None:
                return type(None)
            return _annotation(annotation, base.__module__) if isinstance(annotation, str) else annotation
    raise KeyError(name)


def field_specs(cls: type[Action]) -> tuple[FieldSpec, ...]:
    """The fields of an action class, with their types resolved once and cached."""
    found = _SPECS.get(cls)
    if found is None:
        specs = []
        for f in dataclasses.fields(cls):
            annotation = _field_type(cls, f.name)
            specs.append(FieldSpec(f.name, annotation, _checker(annotation),
                                   f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING))
        found = _SPECS[cls] = tuple(specs)
    return found


#: Per action class: (field, exact type) for the fast test of ``__post_init__``; a tuple field is always
#: checked fully (its exact type is a placeholder no value has).
_PLANS: dict[type, tuple[tuple[str, type], ...]] = {}


class _AlwaysCheck:
    """A type no value has: tuple fields are always checked item by item (once per distinct tuple)."""


#: (action class, field, repr of a tuple) already checked and stored unchanged. The key is the repr, not the
#: tuple: ``(1,) == (1.0,) == (True,)`` compare equal, their reprs do not, so a float or a bool never hits the
#: entry of a well-typed tuple.
_CHECKED_TUPLES: set[tuple[type, str, str]] = set()
MAX_CHECKED_TUPLES = 200_000
#: issue 14 item 4: the same checked tuple objects by identity (a menu's paths come from a cached route table, so
#: the very same objects recur), which spares the ``repr``. The entry holds the object, so its ``id`` is not reused
#: while it is kept; a tuple that passed its check holds only immutable values (tuples, strings, numbers), so
#: it stays valid. Bounded like :data:`_CHECKED_TUPLES`.
_CHECKED_OBJECTS: dict[tuple[type, str, int], tuple] = {}


def _plan(cls: type[Action]) -> tuple[tuple[str, type], ...]:
    exact = {int: int, str: str}
    plan = _PLANS[cls] = tuple((spec.name, exact.get(spec.annotation, _AlwaysCheck)) for spec in field_specs(cls))
    return plan


_ALLOWED: dict[type, frozenset[str]] = {}


def _allowed_keys(cls: type[Action]) -> frozenset[str]:
    found = _ALLOWED.get(cls)
    if found is None:
        found = _ALLOWED[cls] = frozenset({"kind", *(spec.name for spec in field_specs(cls))})
    return found


_A = TypeVar("_A", bound="Action")


def menu_maker(cls: type[_A], maxsize: int = 4096) -> Callable[..., _A]:
    """A maker of ``cls`` actions for the legal menus: one object per distinct field values (issue 14 item 4).

    An action is an immutable value, and the menus of a game list the same ones again and again (the same
    questions at every bid, the same cards at every draw); the maker builds each once, with its field checks,
    and hands out that object. ``typed`` keeps ``1``, ``1.0`` and ``True`` apart, so a value of the wrong type
    still meets the checks of ``__post_init__``. Bounded: the least recently used entries are dropped."""
    return functools.lru_cache(maxsize=maxsize, typed=True)(cls)


#: Actions already built from a dict without lists, keyed by its entries and the exact type of each value: a big
#: save repeats the same few thousand actions (passes, bids, draws), and an action is an immutable value, so one
#: object serves them all (issue 15 item 5). The exact types keep ``True`` and ``1.0`` apart from ``1``.
_BUILT: dict[tuple[tuple[tuple[Any, Any], ...], tuple[type, ...]], Action] = {}
MAX_BUILT = 100_000


def action_from_dict(data: Any, *, where: str = "action") -> Action:
    """Build an action from its dict form; bad input raises :class:`SaveFormatError` naming the field."""
    if not isinstance(data, dict):
        raise SaveFormatError("action/type", f"{where} must be an object, not {type(data).__name__}")
    key = (tuple(data.items()), tuple(map(type, data.values())))
    try:
        built = _BUILT.get(key)
    except TypeError:  # a list (a field of tuples) or another unhashable value: built every time
        return _build_action(data, where)
    if built is None:
        built = _build_action(data, where)  # raises on a bad field: nothing is kept
        if len(_BUILT) >= MAX_BUILT:
            _BUILT.clear()
        _BUILT[key] = built
    return built


def _build_action(data: dict[str, Any], where: str) -> Action:
    kind = data.get("kind")
    cls = ACTION_KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise SaveFormatError(
            "action/kind", f"{where}.kind {kind!r} is not one of {', '.join(sorted(ACTION_KINDS))}"
        )
    specs = field_specs(cls)
    if not data.keys() <= _allowed_keys(cls):
        unknown = sorted(set(data) - {spec.name for spec in specs} - {"kind"})
        raise SaveFormatError("action/field", f"{where}: unknown field(s) {unknown} for {kind!r}; "
                              f"allowed: {sorted(spec.name for spec in specs)}")
    values = {}
    for spec in specs:
        if spec.name not in data:
            if not spec.required:
                continue
            raise SaveFormatError("action/field", f"{where}.{spec.name} is missing (kind {kind!r})")
        value = data[spec.name]
        try:
            values[spec.name] = spec.check(_tuples(value, spec.annotation))
        except _WrongType as error:
            if isinstance(error.value, tuple):
                error.expected, error.value = error.expected.replace("tuple", "list"), list(error.value)
            raise SaveFormatError("action/field", error.message(f"{where}.{spec.name}")) from None
    return cls(**values)


def parse_action(text: str) -> Action:
    """Parse the readable notation (``'dial main atreides 2'``); errors name the expected fields."""
    words = text.split()
    if not words or words[0] not in ACTION_KINDS:
        raise InputError("action/notation", f"{text!r}: the first word must be one of {sorted(ACTION_KINDS)}")
    cls = ACTION_KINDS[words[0]]
    hints = {spec.name: spec.annotation for spec in field_specs(cls)}
    fields = dataclasses.fields(cls)
    required = [f for f in fields if f.default is dataclasses.MISSING]
    if not len(required) <= len(words) - 1 <= len(fields):
        names = " ".join(f.name for f in fields)
        raise InputError("action/notation", f"{text!r}: expected '{cls.kind} {names}'")
    data: dict[str, Any] = {"kind": cls.kind}
    for f, word in zip(fields, words[1:], strict=False):
        annotation = hints[f.name]
        if annotation is int:
            try:
                data[f.name] = int(word)
            except ValueError:
                raise InputError("action/notation", f"{text!r}: {f.name} must be an integer") from None
        elif typing.get_origin(annotation) is tuple:
            items = [] if word == "-" else [part.split(":") for part in word.split(",")]
            item_types = typing.get_args(typing.get_args(annotation)[0])
            try:
                data[f.name] = [
                    [int(x) if t is int else x for x, t in zip(item, item_types, strict=True)] for item in items
                ]
            except ValueError:
                raise InputError("action/notation", f"{text!r}: bad {f.name} list") from None
        else:
            data[f.name] = word
    try:
        return action_from_dict(data)
    except SaveFormatError as error:
        raise InputError("action/notation", f"{text!r}: {error.message}") from None


#: issue 14 item 4: the menus' passes (a Karama window's, a bid's), one object per House (:func:`menu_maker`)
menu_pass = menu_maker(Pass)
