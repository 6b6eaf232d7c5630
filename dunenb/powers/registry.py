"""The declared House and main-leader powers: ``data/powers.json`` loaded and validated once.

Each entry names a power ID of houses.md, the House that holds it (its owner), whether an alliance deal may lend
it (ALLIANCE-12, GAP-19), where it acts (``acts``: a value **hook** asked through :func:`dunenb.powers.modify`, or
a **trigger** point where it offers an action or the rules module applies it), its effect kind and parameters
(:data:`dunenb.powers.effects.EFFECTS`), the Karama uses that block it (houses.md cross-reference, G-5) and its
``status`` (``implemented`` or ``not-yet`` with a reason). A bad file raises :class:`~dunenb.errors.RulesDataError`
naming the power and the field.

>>> owner("FREMEN-P1"), owner("TLEILAX-P1")
('fremen', 'bene-tleilax')
>>> sorted(lendable_powers().items())[0]
('EMPEROR-P1', 'emperor')
>>> len(load_powers()), load_powers()["GUILD-P2"].acts[0].params["den"]
(46, 2)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from dunenb.board import read_data_file
from dunenb.errors import RulesDataError
from dunenb.powers.conditions import CONDITIONS as NAMED_CONDITIONS
from dunenb.ruleset import HOUSE_IDS

FORMAT = "dunenb.powers/2"
POWER_ID = re.compile(r"^[A-Z]+-[PM][0-9]+$")  # houses.md: House powers P1.., main-leader powers M1..
KARAMA_ID = re.compile(r"^KARAMA-[0-9]+$")

#: Value hooks: a rules module computes a value and asks ``powers.modify(state, hook, value, ctx)`` (DESIGN.md).
HOOKS = (
    "landing.price", "landing.free", "landing.payee", "revival.payee", "auction.payee", "auction.viewers",
    "draw.viewers", "deck.top_viewers",
    "hand.limit", "storm.losses", "storm.move", "worm.victims", "tokens.destroyed", "collection.income",
    "slot.order", "move.range", "leader.value", "leader.immune", "leader.weapons", "token.value", "bounty",
    "trance.count",
)
#: Trigger points: where a power offers a decision (``offer``) or the rules module applies it (``automatic``).
TRIGGERS = (
    "storm.draw", "worm.strike", "slot.open", "slot.action", "landing.done", "auction.won", "auction.end",
    "turn.start", "turn.end", "battle.before-plans", "battle.plan", "battle.voice", "battle.reveal",
    "battle.resolve", "battle.after", "battle.end", "leader.death", "peace.declare", "setup.prediction",
    "setup.traitors", "setup.deck", "karama.substitute", "deal", "view",
)
#: Effect kinds and their parameters: (required, optional). Value effects go with hooks, the others with triggers.
EFFECT_PARAMS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "scale": (frozenset({"num", "den", "round"}), frozenset()),
    "set": (frozenset({"value"}), frozenset()),
    "add": (frozenset({"amount"}), frozenset({"floor"})),
    "add_per_living": (frozenset({"leaders"}), frozenset()),
    "to_holder": (frozenset(), frozenset()),
    "spare_holder": (frozenset(), frozenset()),
    "add_holder": (frozenset(), frozenset()),
    "offer": (frozenset({"action"}), frozenset({"price"})),
    "automatic": (frozenset({"does"}), frozenset({"count"})),
}
TRIGGER_EFFECTS = frozenset({"offer", "automatic"})
#: Named conditions an act may require (``when``), evaluated by :mod:`dunenb.powers.conditions`.
CONDITIONS = tuple(NAMED_CONDITIONS)
APPLIES_TO = ("holder", "others", "any")
#: GAP-37b: a Karama lasts its current use unless stated; "reveal": until the secret it hides is revealed (KARAMA-5)
LASTS = ("action", "event", "battle", "reveal", "turn", "game")
STATUSES = ("implemented", "not-yet")


@dataclass(frozen=True)
class Act:
    """One place where a power acts: a value ``hook`` or a ``trigger`` point, with its effect."""

    hook: str | None
    trigger: str | None
    effect: str
    params: Mapping[str, Any]
    applies_to: str = "holder"
    when: tuple[str, ...] = ()
    status: str = "implemented"  # an act may work while its power, as a whole, is not-yet (ATREIDES-P2 a)


@dataclass(frozen=True)
class KaramaUse:
    """A Karama use that blocks the power (houses.md cross-reference): its ID, moment and duration."""

    id: str
    moment: str
    lasts: str
    status: str = "not-yet"
    reason: str = ""
    #: the power's holder may play this use on itself (KARAMA-27, L1563: the BG may, to fight with its peace tokens)
    holder_may_play: bool = False


@dataclass(frozen=True)
class PowerSpec:
    """One declared power: its houses.md ID, the House that holds it, its name, whether it may be lent, where and
    how it acts, the Karama uses that block it, and whether this version implements it."""

    id: str
    holder: str
    name: str
    lendable: bool
    used_by: str = ""
    acts: tuple[Act, ...] = ()
    karama: tuple[KaramaUse, ...] = ()
    status: str = "implemented"
    reason: str = ""
    hooks: frozenset[str] = field(default=frozenset())

    @property
    def is_main_leader_power(self) -> bool:
        """X-M* powers act only while the House's main leader lives (houses.md G-7)."""
        return self.id.rsplit("-", 1)[1].startswith("M")


def _fail(code: str, where: str, message: str) -> RulesDataError:
    return RulesDataError(f"powers/{code}", f"{where}: {message}")


def _parse_act(raw: Any, where: str, default_status: str) -> Act:
    if not isinstance(raw, dict):
        raise _fail("acts", where, "each act must be an object")
    unknown = sorted(set(raw) - {"hook", "trigger", "effect", "params", "applies_to", "when", "status"})
    if unknown:
        raise _fail("acts", where, f"unknown field(s) {unknown}; allowed: hook, trigger, effect, params, "
                    "applies_to, when, status")
    if raw.get("status", "implemented") not in STATUSES:
        raise _fail("status", where, f"{raw.get('status')!r}; allowed: {', '.join(STATUSES)}")
    hook, trigger = raw.get("hook"), raw.get("trigger")
    if (hook is None) == (trigger is None):
        raise _fail("acts", where, "an act names exactly one 'hook' or one 'trigger'")
    if hook is not None and hook not in HOOKS:
        raise _fail("hook", where, f"unknown hook {hook!r}; allowed: {', '.join(HOOKS)}")
    if trigger is not None and trigger not in TRIGGERS:
        raise _fail("trigger", where, f"unknown trigger {trigger!r}; allowed: {', '.join(TRIGGERS)}")
    effect = raw.get("effect")
    if effect not in EFFECT_PARAMS:
        raise _fail("effect", where, f"unknown effect kind {effect!r}; allowed: {', '.join(EFFECT_PARAMS)}")
    if (effect in TRIGGER_EFFECTS) != (trigger is not None):
        kinds = "offer or automatic" if trigger is not None else "a value effect (not offer or automatic)"
        raise _fail("effect", where, f"effect {effect!r} does not fit a {'trigger' if trigger else 'hook'}; "
                    f"use {kinds}")
    params = raw.get("params", {})
    if not isinstance(params, dict):
        raise _fail("params", where, "params must be an object")
    required, optional = EFFECT_PARAMS[effect]
    missing, extra = sorted(required - set(params)), sorted(set(params) - required - optional)
    if missing or extra:
        raise _fail("params", where, f"effect {effect!r} needs {sorted(required)} (optional {sorted(optional)}); "
                    f"missing {missing}, unknown {extra}")
    if effect == "scale" and (not all(isinstance(params[k], int) and params[k] > 0 for k in ("num", "den"))
                              or params["round"] not in ("up", "down")):
        raise _fail("params", where, "scale needs positive integers num, den and round 'up' or 'down'")
    if effect == "add" and not isinstance(params["amount"], int):
        raise _fail("params", where, "add needs an integer amount")
    if effect == "add_per_living" and not (isinstance(params["leaders"], dict) and all(
            isinstance(k, str) and isinstance(v, int) for k, v in params["leaders"].items())):
        raise _fail("params", where, "add_per_living needs 'leaders': an object of leader id -> integer amount")
    applies_to = raw.get("applies_to", "holder")
    if applies_to not in APPLIES_TO:
        raise _fail("applies_to", where, f"{applies_to!r}; allowed: {', '.join(APPLIES_TO)}")
    when = raw.get("when", [])
    if not isinstance(when, list) or any(c not in CONDITIONS for c in when):
        raise _fail("when", where, f"{when!r}: a list of conditions among {', '.join(CONDITIONS)}")
    return Act(hook, trigger, effect, dict(params), applies_to, tuple(when), raw.get("status", default_status))


def _parse_karama(raw: Any, where: str) -> KaramaUse:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not KARAMA_ID.match(raw["id"]):
        raise _fail("karama", where, "each Karama use needs an 'id' such as 'KARAMA-15'")
    where = f"{where} {raw['id']}"
    if not isinstance(raw.get("moment"), str) or not raw["moment"]:
        raise _fail("karama", where, "'moment' must name when the use is played")
    if raw.get("lasts") not in LASTS:
        raise _fail("karama", where, f"'lasts' {raw.get('lasts')!r}; allowed: {', '.join(LASTS)}")
    status = raw.get("status", "not-yet")
    if status not in STATUSES:
        raise _fail("status", where, f"{status!r}; allowed: {', '.join(STATUSES)}")
    unknown = sorted(set(raw) - {"id", "moment", "lasts", "status", "reason", "holder_may_play"})
    if unknown:
        raise _fail("karama", where, f"unknown field(s) {unknown}; allowed: id, moment, lasts, status, reason, "
                    "holder_may_play")
    if not isinstance(raw.get("holder_may_play", False), bool):
        raise _fail("karama", where, "'holder_may_play' must be true or false")
    return KaramaUse(raw["id"], raw["moment"], raw["lasts"], status, str(raw.get("reason", "")),
                     raw.get("holder_may_play", False))


def parse_powers(raw: Any) -> dict[str, PowerSpec]:
    """Validate the powers data (format, IDs, Houses, acts, Karama uses, status); return the powers by ID.

    >>> parse_powers({"format": "dunenb.powers/2", "powers": [{"id": "X-P1", "holder": "nobody", "name": "x"}]})
    Traceback (most recent call last):
    ...
    dunenb.errors.RulesDataError: [powers/holder] powers[0] X-P1: holder 'nobody' is not a House; allowed: ...
    >>> parse_powers({"format": "dunenb.powers/2", "powers": [{"id": "X-P1", "holder": "guild",
    ...     "acts": [{"hook": "landing.price", "effect": "halve"}]}]})
    Traceback (most recent call last):
    ...
    dunenb.errors.RulesDataError: [powers/effect] powers[0] X-P1 acts[0]: unknown effect kind 'halve'; allowed: ...
    """
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise RulesDataError("powers/format", f"powers data must be an object with format {FORMAT!r}")
    found: dict[str, PowerSpec] = {}
    for index, entry in enumerate(raw.get("powers", [])):
        where = f"powers[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not POWER_ID.match(entry["id"]):
            raise RulesDataError("powers/id", f"{where}: 'id' must be a houses.md power ID such as 'FREMEN-P1'")
        where += f" {entry['id']}"
        if entry["id"] in found:
            raise _fail("duplicate", where, "declared twice (each power is declared once)")
        if entry.get("holder") not in HOUSE_IDS:
            raise _fail("holder", where, f"holder {entry.get('holder')!r} is not a House; "
                        f"allowed: {', '.join(HOUSE_IDS)}")
        lendable = entry.get("lendable", False)
        if not isinstance(lendable, bool):
            raise _fail("lendable", where, "'lendable' must be true or false")
        status = entry.get("status", "implemented")
        if status not in STATUSES:
            raise _fail("status", where, f"status {status!r}; allowed: {', '.join(STATUSES)}")
        acts = tuple(_parse_act(a, f"{where} acts[{i}]", status) for i, a in enumerate(entry.get("acts", [])))
        karama = tuple(_parse_karama(k, f"{where} karama[{i}]") for i, k in enumerate(entry.get("karama", [])))
        if status != "implemented" and not entry.get("reason"):
            raise _fail("reason", where, f"status {status!r} needs a 'reason'")
        found[entry["id"]] = PowerSpec(
            entry["id"], entry["holder"], str(entry.get("name", "")), lendable, str(entry.get("used_by", "")),
            acts, karama, status, str(entry.get("reason", "")),
            frozenset(a.hook for a in acts if a.hook is not None))
    return found


@lru_cache(maxsize=1)
def load_powers() -> dict[str, PowerSpec]:
    """The shipped powers (cached)."""
    return parse_powers(read_data_file("powers.json"))


def power(power_id: str) -> PowerSpec:
    """The declared power ``power_id``; an undeclared ID is an error naming the declared ones."""
    powers = load_powers()
    if power_id not in powers:
        raise RulesDataError("powers/unknown", f"power {power_id!r} is not declared in powers.json; "
                             f"declared: {', '.join(powers)}")
    return powers[power_id]


def owner(power_id: str) -> str:
    """The House that holds ``power_id`` by its sheet (houses.md), whatever the state of a game."""
    return power(power_id).holder


def lendable_powers() -> dict[str, str]:
    """The powers an alliance deal may lend (ALLIANCE-12, GAP-19), each with its owner."""
    return {p.id: p.holder for p in load_powers().values() if p.lendable}


@lru_cache(maxsize=64)
def powers_at(hook: str) -> tuple[tuple[PowerSpec, Act], ...]:
    """The powers acting at value hook ``hook`` with an implemented act (the power's status, unless the act states
    its own), with their act, in file order."""
    if hook not in HOOKS:
        raise RulesDataError("powers/hook", f"unknown hook {hook!r}; allowed: {', '.join(HOOKS)}")
    return tuple((p, a) for p in load_powers().values() for a in p.acts if a.hook == hook
                 and a.status == "implemented")


@lru_cache(maxsize=32)
def offered_by(trigger: str, action: str) -> str:
    """The ID of the power that offers ``action`` at trigger point ``trigger`` (an ``offer`` act), so that a rules
    module finds its power in the data instead of naming a House.

    >>> offered_by("battle.after", "capture"), offered_by("deal", "revive-others")
    ('HARKONNEN-P4', 'TLEILAX-P5')
    """
    for spec in load_powers().values():
        if any(a.trigger == trigger and a.effect == "offer" and a.params.get("action") == action for a in spec.acts):
            return spec.id
    raise RulesDataError("powers/offer", f"no power of powers.json offers {action!r} at {trigger!r}")


def implemented_uses(power_id: str, moment: str | None = None) -> tuple[str, ...]:
    """The IDs of the implemented Karama uses that block ``power_id`` (houses.md cross-reference), in file order;
    with ``moment``, only the uses played at that moment.

    >>> implemented_uses("FREMEN-P2")
    ('KARAMA-6',)
    """
    return tuple(use.id for use in power(power_id).karama
                 if use.status == "implemented" and (moment is None or use.moment == moment))


def karama_use(karama_id: str) -> tuple[PowerSpec, KaramaUse]:
    """The power a Karama use blocks, with the use (houses.md cross-reference)."""
    found = _karama_index().get(karama_id)
    if found is None:
        raise RulesDataError("powers/karama", f"{karama_id!r} is not a Karama use declared in powers.json")
    return found


# ---- issue 14: the Karama uses by ID (the menus ask for them thousands of times a game), rebuilt whenever
# load_powers() returns another table (a cleared cache, a test's own data), so it never answers from stale data.
_KARAMA_INDEX: tuple[dict[str, PowerSpec], dict[str, tuple[PowerSpec, KaramaUse]]] | None = None


def _karama_index() -> dict[str, tuple[PowerSpec, KaramaUse]]:
    global _KARAMA_INDEX
    powers = load_powers()
    if _KARAMA_INDEX is None or _KARAMA_INDEX[0] is not powers:
        index: dict[str, tuple[PowerSpec, KaramaUse]] = {}
        for spec in powers.values():
            for use in spec.karama:
                index.setdefault(use.id, (spec, use))  # the first declaration, as a search in file order finds
        _KARAMA_INDEX = (powers, index)
    return _KARAMA_INDEX[1]
