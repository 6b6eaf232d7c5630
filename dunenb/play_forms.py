"""Decision shaping (issue 16 item 3): a list of legal actions becomes a few grouped forms, never one long list.

Pure logic, no widgets: the play notebook's controls, a CLI or a test read the same :class:`Form` objects. Each
action kind is one form; a form has fields (territory, sector, tokens; the wheel, leader and cards; a bid's
amount) whose options *cascade*: the options of a field are the values found among the actions that match the
fields chosen before it, so every complete choice is a legal action of the menu. A kind with a single action
(pass, end the slot, pay the bid, accept) is a button. Actions a House may play at any time (harvesters, the
ghola: :mod:`dunenb.rules.anytime`) form their own group.

>>> from dunenb.engine import new_game, play_until_decision, legal_actions
>>> state = play_until_decision(new_game(["atreides", "harkonnen"], seed=3))
>>> forms = shape(state, legal_actions(state))
>>> [(f.kind, f.is_button, [s.label for s in f.fields]) for f in forms]
[('start', False, ['Start position'])]
>>> form = forms[0]
>>> form.options(0, ())[:2]
[('1', 1), ('2', 2)]
>>> form.pick((5,)).notation()
'start atreides 5'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dunenb.action_text import area_name, card_name, describe, house_name, leader_name
from dunenb.actions import Action
from dunenb.rules.anytime import is_anytime
from dunenb.state import GameState

if TYPE_CHECKING:
    from dunenb.rules.battle_phase import SubmitPlan
    from dunenb.rules.bidding import Bid
    from dunenb.rules.movement import Land

Getter = Callable[[Any], Any]  # the action of the form's own kind (SHAPES is keyed by kind): Move for "move", ...
Shower = Callable[[Action, Any], str]


@dataclass(frozen=True)
class FieldSpec:
    """One control of a form: its label, how to read its value from an action and how to show a value."""

    name: str
    label: str
    get: Getter
    show: Shower


def _plain(_action: Action, value: Any) -> str:
    return "none" if value in ("none", "", None) else str(value)


def _area(_action: Action, value: Any) -> str:
    return area_name(value)


def _where(_action: Action, value: Any) -> str:
    area, sector = value
    return f"{area_name(area)} (sector {sector})"


def _route(_action: Action, value: Any) -> str:
    return " → ".join(f"{area_name(area)} {sector}" for area, sector in value)


def _house(_action: Action, value: Any) -> str:
    return house_name(value).removeprefix("the ").strip() or str(value)


def _card(_action: Action, value: Any) -> str:
    return "none" if value in ("none", "") else card_name(value)


def _leader(action: Action, value: Any) -> str:
    if value in ("none", ""):
        return "no leader"
    house = getattr(action, "leader_house", getattr(action, "house", ""))
    return leader_name(value, house)


def _attr(name: str) -> Getter:
    return lambda action: getattr(action, name)


def _field(name: str, label: str, show: Shower = _plain) -> FieldSpec:
    return FieldSpec(name, label, _attr(name), show)


TOKENS = _field("regular", "Tokens")
MARKED = _field("marked", "Marked tokens")

#: The shape of each kind's form: its title and fields in the order they are chosen. Kinds not listed show
#: every field but ``house`` in the order of the action's definition.
SHAPES: dict[str, tuple[str, tuple[FieldSpec, ...]]] = {
    "place": ("Split your starting tokens (FREMEN-START)", (
        FieldSpec("placements", "Split", _attr("placements"), lambda a, _v: describe(a)),)),
    "start": ("Choose your start position (SETUP-2)", (_field("position", "Start position"),)),
    "land": ("Land tokens from your reserve (LAND-1)", (
        _field("area", "Territory", _area), _field("sector", "Sector"), TOKENS, MARKED)),
    "land-in-peace": ("Land tokens in peace (BG-P2)", (
        _field("area", "Territory", _area), _field("sector", "Sector"), TOKENS, MARKED)),
    "emerge": ("Bring tokens up from the desert (FREMEN-P4)", (
        _field("area", "Territory", _area), _field("sector", "Sector"), TOKENS, MARKED)),
    "move": ("Move one army (MOVE-1)", (
        FieldSpec("from", "From", lambda a: (a.area, a.sector), _where),
        FieldSpec("to", "To", lambda a: a.path[-1], _where),
        FieldSpec("route", "Route", lambda a: a.path, _route), TOKENS, MARKED)),
    "reposition": ("Shift tokens inside a territory", (
        _field("area", "Territory", _area), _field("from_sector", "From sector"), _field("to_sector", "To sector"),
        TOKENS, MARKED)),
    "revive": ("Revive dead tokens (REVIVAL-1)", (TOKENS, MARKED)),
    "bid": ("Bid for the card (BID-5)", (_field("amount", "Bid (spice)"),)),
    "karama-bid": ("Take the card with a Karama (BID-14)", (_field("card", "Karama card", _card),)),
    "plan": ("Your battle plan: the wheel, a leader and cards (BATTLE-13)", (
        _field("leader", "Leader", _leader), _field("regular", "Tokens dialled"), _field("marked", "Marked dialled"),
        _field("spice", "Spice on the wheel"), _field("weapon", "Weapon", _card), _field("defense", "Defence", _card),
        _field("karama", "Karama", _card), _field("against", "Karama against"))),
    "battle": ("Choose the next battle (BATTLE-3)", (
        _field("territory", "Territory", _area), _field("sector", "Sector"), _field("opponent", "Against", _house))),
    "traitor-pick": ("Keep one traitor (TRAITOR-4)", (
        _field("leader_house", "Leader's House", _house), _field("leader", "Leader", _leader))),
    "traitor-call": ("Call a traitor (TRAITOR-9)", (_field("leader", "Leader", _leader),)),
    "dial": ("Dial the storm (GAP-7a)", (_field("storm", "Storm"), _field("value", "Sectors"))),
    "weather": ("Play weather control (STORM-5)", (
        _field("storm", "Storm"), _field("mode", "Mode"), _field("sectors", "Sectors"))),
    "predict": ("Predict the winner (BG-P6)", (_field("winner", "Winner", _house), _field("turn", "Turn"))),
    "commit-harvester": ("Put a harvester down (HARVEST-10)", (
        _field("area", "Desert", _area), _field("sector", "Sector"))),
    "battle-discard": ("Cards to discard after the battle", (_field("cards", "Cards", _card),)),
    "on-call-discard": ("Discard a card", (_field("card", "Card", _card),)),
    "offer": ("Offer an alliance (ALLIANCE-3)", (
        _field("receiver", "To", _house), _field("what", "You give"), _field("item", "Item"),
        _field("amount", "Amount"), _field("price", "Price"), _field("delay", "Delay (turns)"),
        _field("back_what", "They give"), _field("back_item", "Their item"))),
    "truth-trance": ("Ask a truth trance (CARD-TRUTH-1)", (
        _field("target", "Ask", _house), _field("question", "Question"), _field("subject", "About"),
        _field("means", "With"))),
    "prescience-answer": ("Answer the prescience question (ATREIDES-P1, GAP-78)", (_field("answer", "Answer"),)),
    "commit-leader": ("Commit your leader first (BG-M2)", (_field("leader", "Leader", _leader),)),
    "peace": ("Declare peace in a territory", (_field("area", "Territory", _area),)),
    "war": ("Declare war in a territory", (_field("area", "Territory", _area),)),
    "buy-harvester": ("Buy harvesters (HARVEST-3)", (_field("count", "How many"),)),
    "sell-harvester": ("Sell harvesters (HARVEST-4)", (_field("count", "How many"),)),
    "ghola": ("Play the ghola (CARD-GHOLA-1)", (
        _field("leader", "Leader", _leader), TOKENS, MARKED)),
}

#: The label of a button for a kind whose menu holds one action.
BUTTONS = {"pass": "Pass", "end-slot": "End my movement", "pay-bid": "Pay the bid", "accept-offer": "Accept",
           "decline-offer": "Decline", "end-window": "Close the alliance window", "harvest-done": "Done harvesting",
           "hajj": "Play the Hajj", "atomics": "Blow the Shield Wall", "know-leader": "Use Mohiam's power (BG-M2)"}


def _default_fields(action: Action) -> tuple[FieldSpec, ...]:
    import dataclasses

    return tuple(_field(f.name, f.name.replace("_", " ").capitalize())
                 for f in dataclasses.fields(action) if f.name != "house")


def _sort_key(value: Any) -> Any:
    return (0, value, "") if isinstance(value, int) else (1, 0, str(value))


@dataclass(frozen=True)
class Form:
    """The actions of one kind, shaped as cascading fields (or as one button when the kind has one action)."""

    kind: str
    title: str
    fields: tuple[FieldSpec, ...]
    actions: tuple[Action, ...]
    anytime: bool = False
    notes: dict[Action, str] = field(default_factory=dict, compare=False)

    @property
    def is_button(self) -> bool:
        return len(self.actions) == 1

    @property
    def button_label(self) -> str:
        if self.kind in BUTTONS:
            return BUTTONS[self.kind]
        return describe(self.actions[0]) if self.is_button else "Play"

    def matching(self, chosen: Sequence[Any]) -> list[Action]:
        """The actions whose first fields have the ``chosen`` values."""
        return [a for a in self.actions
                if all(spec.get(a) == value for spec, value in zip(self.fields, chosen, strict=False))]

    def options(self, index: int, chosen: Sequence[Any]) -> list[tuple[str, Any]]:
        """``(label, value)`` options of field ``index`` among the actions matching the earlier choices."""
        spec = self.fields[index]
        found: dict[Any, Action] = {}
        for action in self.matching(tuple(chosen)[:index]):
            found.setdefault(spec.get(action), action)
        values = list(found)
        if all(isinstance(v, int) for v in values):
            values.sort(key=_sort_key)
        return [(spec.show(found[v], v), v) for v in values]

    def pick(self, chosen: Sequence[Any]) -> Action | None:
        """The action with exactly these field values, or ``None`` (incomplete or not in the menu)."""
        if len(chosen) < len(self.fields):
            return None
        found = self.matching(chosen)
        return found[0] if found else None

    def first_choice(self) -> tuple[Any, ...]:
        """The values of the menu's first action: a legal default to start the controls from."""
        return tuple(spec.get(self.actions[0]) for spec in self.fields)

    def note(self, action: Action | None) -> str:
        """What this choice costs or means (a landing's price and payee), or ``""``."""
        return "" if action is None else self.notes.get(action, "")


def _landing_note(state: GameState, action: Land) -> str:
    """LAND-1, LAND-7: the price of a landing and who is paid."""
    from dunenb.rules.movement import landing_cost, landing_payee

    price = landing_cost(action.area, action.regular + action.marked)
    payee = landing_payee(state, action.house)
    to = "the Bank" if payee is None else house_name(payee)
    return f"Price: {price} spice, paid to {to} (LAND-1, LAND-7). You have {state.houses[action.house].spice}."


def _bid_note(state: GameState, action: Bid) -> str:
    return f"You have {state.houses[action.house].spice} spice (BID-5: the highest bid wins)."


def _plan_note(state: GameState, action: SubmitPlan) -> str:
    """WHEEL-2, BATTLE-7: the number this dial shows on the wheel; the leader's strength adds to it."""
    from dunenb.battle.wheel import Dial, army_value
    from dunenb.rules.traitors import leader_of

    value = float(army_value(Dial(action.regular, action.marked, action.spice)))
    strength = 0 if action.leader in ("none", "") else leader_of(action.house, action.leader).strength
    return (f"Wheel {value:g} (WHEEL-2) + leader {strength} = total {value + strength:g} (BATTLE-7); the tokens "
            "dialled are lost, win or lose (BATTLE-10, BATTLE-11).")


# keyed by kind: each note reads its own kind of action
NOTES: dict[str, Callable[[GameState, Any], str]] = {"land": _landing_note, "bid": _bid_note,
                                                        "plan": _plan_note}


def shape(state: GameState, actions: Sequence[Action]) -> list[Form]:
    """Group a menu of legal actions into forms: the node's own decisions first, then the any-time actions."""
    groups: dict[tuple[bool, str], list[Action]] = {}
    for action in actions:
        groups.setdefault((is_anytime(action), action.kind), []).append(action)
    forms = []
    for (anytime, kind), members in sorted(groups.items(), key=lambda item: item[0][0]):
        title, fields = SHAPES.get(kind, (describe(members[0]) if len(members) == 1 else kind.replace("-", " "),
                                          _default_fields(members[0])))
        note = NOTES.get(kind)
        notes = {a: note(state, a) for a in members} if note else {}
        forms.append(Form(kind, title, fields, tuple(members), anytime, notes))
    return forms


def is_yes_no(forms: Sequence[Form]) -> bool:
    """A decision of two buttons (accept / decline, pass / play the one thing)."""
    own = [f for f in forms if not f.anytime]
    return len(own) == 2 and all(f.is_button for f in own)
