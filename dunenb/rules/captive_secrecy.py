"""A captured leader's identity kept from third Houses (houses.md HARKONNEN-P4, seed 003 F51 = FAQ 17, GAP-75).

FAQ 17: "his identity may be kept secret from third Houses". The captor (the House holding him) and his own House
(the loser, who saw which leader left) know who he is; every other House sees only "a leader of House X captured
by the Harkonnen". This module says, from a god state, which captives each House may not name
(:func:`hidden_from`), and redacts a House view (:func:`redact`, called by :func:`dunenb.engine.view`, so the
record's House view, the CLI's ``replay --view`` and the widgets built on views follow it):

* the captor's key ``"owner:id"`` becomes ``"owner:hidden"`` and ``GameState.captured`` shows ``(owner, "hidden")``
  (as hidden slips, the number stays visible);
* the captive House's living leaders become ``("hidden",) * n`` (GAP-75): the roster and the tanks are public, so
  listing the others would single him out; the count stays, and the not-dead leaders are still known
  (:func:`candidates`), so what is lost is exactly which of them is held;
* the events and the pending node (the keep-or-kill choice, the KARAMA-47 window about him) that name him say
  ``"hidden"`` instead.

He becomes public once his identity is shown: his plan revealed in a battle (BATTLE-13 f; a traitor call on him
follows it), killed to the tanks (FAQ 18 or in a battle), sent home (L1167, FAQ 21, KARAMA-47): the last three take
him out of ``captured``. The capture actions themselves are secret actions of :mod:`dunenb.rules.secrecy`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from dunenb.state import Event, FrozenDict, GameState, Pending

#: The placeholder for a captive's id in a third House's view (as for hidden cards and slips).
HIDDEN = "hidden"
#: The actions that name the captive as he is taken (HARKONNEN-P4; K-17 chosen_capture).
CAPTURE_KINDS = ("capture-draw", "capture-choice", "captive")
#: The events that name a captive (owner, leader) publicly, so that a capture action is shown from then on.
REVEALING_EVENTS = ("captive-killed", "captive-released", "leader-killed", "plan-revealed")

Person = tuple[str, str]


def keeper(state: GameState, owner: str, leader: str) -> str:
    """The House holding ``owner``'s captive ``leader`` (the holder of the capture power if nobody holds him)."""
    from dunenb.rules.battle_powers import capture_power
    from dunenb.rules.traitors import holder_of

    held = holder_of(state, owner, leader)
    if held is not None and held[0] != owner:
        return held[0]
    from dunenb.powers.registry import owner as power_owner

    return power_owner(capture_power())


def _nodes(shown: Pending | None) -> Iterable[Pending]:
    """The pending node and the nodes it interrupts (a Karama window's ``prior``)."""
    while shown is not None:
        yield shown
        prior = shown.detail.get("prior")
        shown = prior if isinstance(prior, Pending) else None


def _shown_in_battle(state: GameState, house: str) -> set[Person]:
    """Captives named to ``house`` in the pending battle: a revealed plan (BATTLE-13 f) or a disclosure to all or
    to ``house`` (G-9 step 1: BG-M2 shows the committed leader to the Bene Gesserit)."""
    from dunenb.rules.battle_context import BattleContext
    from dunenb.rules.traitors import leader_ref

    named: set[Person] = set()
    for shown in _nodes(state.pending):
        ctx = shown.detail.get("battle")
        if isinstance(ctx, BattleContext):
            named |= {leader_ref(h, plan.leader) for h, plan in ctx.plans if isinstance(getattr(plan, "leader", None),
                                                                                        str)}
            named |= {leader_ref(s.house, s.leader) for s in ctx.shown if not s.to or house in s.to}
    return named


def hidden_from(state: GameState, house: str) -> frozenset[Person]:
    """FAQ 17: the captives (owner, leader id) whose identity ``house`` may not see at ``state`` (the god state):
    those held captive, and the one drawn whose fate the captor is choosing, unless ``house`` is his captor or
    his own House, or he has been shown in the battle under way."""
    captors = {person: keeper(state, *person) for person in state.captured}
    for shown in _nodes(state.pending):
        if shown.kind == "captive":  # drawn, not yet kept or killed: the House choosing is his captor
            captors[(shown.detail["owner"], shown.detail["leader"])] = shown.actor
    if not captors:
        return frozenset()
    named = _shown_in_battle(state, house)
    return frozenset(p for p, captor in captors.items() if p not in named and house not in (captor, p[0]))


def candidates(seen: GameState, house: str) -> tuple[str, ...]:
    """The leaders ``house`` may still have, as a House seeing ``seen`` (its view) can tell: its roster in play,
    less its tanks and the leaders another House holds openly. When its leaders are hidden (a captive of it held,
    FAQ 17), one of these per hidden captive is held by the captor; otherwise these are its leaders."""
    if HIDDEN not in seen.houses[house].leaders:
        return seen.houses[house].leaders
    from dunenb.battle.characters import leaders_in_game
    from dunenb.rules.traitors import leader_ref

    held = {leader_ref(h, key) for h, hs in seen.houses.items() if h != house for key in hs.leaders}
    dead = set(seen.houses[house].leader_tanks)
    return tuple(leader.id for leader in leaders_in_game(house, seen.config.houses)
                 if leader.id not in dead and (house, leader.id) not in held)


_HIDDEN_KEY = ":" + HIDDEN  # a captive's key whose leader is hidden ("owner:hidden")


def _is_hidden(key: str) -> bool:
    """Whether a leader key of a view is a hidden one: ``hidden`` or a captive's ``owner:hidden``."""
    return key == HIDDEN or key.endswith(_HIDDEN_KEY)


def _hides(keys: tuple[str, ...]) -> bool:
    """Whether a House's leader keys hold a hidden one (issue 14 item 4: a loop, not any() over a generator; the
    bot asks at most of its decisions, for every House)."""
    for key in keys:
        if _is_hidden(key):
            return True
    return False


def guess(seen: GameState) -> GameState:
    """GAP-139: a view a bot may reason on: each House with hidden leaders is given its :func:`candidates` (the
    captive may be any of them), and the captor's hidden keys are left out (his strength is unknown). Only what the
    view holds is used; the House's own leaders are never hidden from it."""
    houses = seen.houses
    for h, hs in seen.houses.items():
        if _hides(hs.leaders):
            mine = tuple(key for key in hs.leaders if not _is_hidden(key))
            if HIDDEN in hs.leaders:
                mine = candidates(seen, h)
            houses = houses.set(h, dataclasses.replace(hs, leaders=mine))
    if houses is seen.houses:
        return seen
    return dataclasses.replace(seen, houses=houses, captured=tuple(p for p in seen.captured if p[1] != HIDDEN))


def names(e: Event, person: Person) -> bool:
    """Whether the public event ``e`` names ``person`` (owner, leader id): his plan revealed (BATTLE-13 f), his
    death (FAQ 18, a battle) or his return home (L1167, FAQ 21, KARAMA-47). Then his capture is shown (FAQ 17)."""
    from dunenb.rules.traitors import leader_ref

    if e.kind not in REVEALING_EVENTS or not isinstance(e.data.get("leader"), str):
        return False
    if "owner" in e.data:
        return (e.data["owner"], e.data["leader"]) == person
    return leader_ref(str(e.data.get("house", "")), e.data["leader"]) == person


# --- the redaction of a view ---------------------------------------------------------------------------------

def _key_hidden(key: str, secret: frozenset[Person], holder: str) -> str:
    from dunenb.rules.traitors import LEADER_KEY_SEPARATOR, leader_ref

    if LEADER_KEY_SEPARATOR in key and leader_ref(holder, key) in secret:
        return f"{leader_ref(holder, key)[0]}{LEADER_KEY_SEPARATOR}{HIDDEN}"
    return key


def _event_hidden(e: Event, secret: frozenset[Person], state: GameState) -> Event:
    """An event as a third House sees it: one naming a hidden captive names only his House and captor."""
    owner, leader = e.data.get("owner"), e.data.get("leader")
    if (owner, leader) not in secret:
        return e
    captor = keeper(state, str(owner), str(leader))
    texts = {"capture-drawn": f"{captor} capture a leader of {owner}",
             "captive-kept": f"{captor} keep the leader of {owner} they captured among their leaders"}
    text = texts.get(e.kind, f"{e.kind}: a leader of {owner} captured by {captor}")
    powers = e.data.get("powers", ())
    suffix = f" ({', '.join(powers)}; identity hidden, FAQ 17)" if powers else " (identity hidden, FAQ 17)"
    return dataclasses.replace(e, text=text + suffix, data=e.data.set("leader", HIDDEN))


def _detail_hidden(detail: Mapping[str, Any], secret: frozenset[Person]) -> Any:
    """A node's detail (or a Karama window's ``data``) with a hidden captive's id replaced, nested nodes too."""
    out = detail if isinstance(detail, FrozenDict) else FrozenDict(detail)
    if (out.get("owner"), out.get("leader")) in secret:
        out = out.set("leader", HIDDEN)
    for key, value in out.items():
        if isinstance(value, tuple) and any(item in secret for item in value):  # e.g. KARAMA-47's ``asked``
            out = out.set(key, tuple((item[0], HIDDEN) if item in secret else item for item in value))
        elif isinstance(value, Pending):
            out = out.set(key, dataclasses.replace(value, detail=_detail_hidden(value.detail, secret)))
        elif isinstance(value, FrozenDict):
            out = out.set(key, _detail_hidden(value, secret))
    return out


def redact(seen: GameState, god: GameState, house: str) -> GameState:
    """FAQ 17, GAP-75: ``seen`` (a view of ``god`` for ``house``) with every captive hidden from ``house``
    unnamed (see the module docstring)."""
    secret = hidden_from(god, house)
    if not secret:
        return seen
    owners = {owner for owner, _leader in secret}
    houses = seen.houses
    for h, hs in seen.houses.items():
        if h in owners:
            leaders = (HIDDEN,) * len(hs.leaders)
        else:
            leaders = tuple(_key_hidden(key, secret, h) for key in hs.leaders)
        if leaders != hs.leaders:
            houses = houses.set(h, dataclasses.replace(hs, leaders=leaders))
    captured = tuple((o, HIDDEN) if (o, lid) in secret else (o, lid) for o, lid in seen.captured)
    events = tuple(_event_hidden(e, secret, god) for e in seen.events)
    pending = seen.pending
    if pending is not None:
        pending = dataclasses.replace(pending, detail=_detail_hidden(pending.detail, secret))
    return dataclasses.replace(seen, houses=houses, captured=captured, events=events, pending=pending)
