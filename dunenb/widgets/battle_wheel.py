"""Two battle wheels side by side, with per-side controls and the exact outcome distribution.

The explorer holds no rules: every change of a control builds a battle case with
:func:`dunenb.battle.case.parse_case` (which validates it) and asks :func:`dunenb.battle.case.case_outcomes` for the
exact distribution; the wheels, the outcome chart and the table only draw what the library returns.

>>> explorer = BattleWheelExplorer()                    # Atreides defend Arrakeen against the Harkonnen
>>> explorer.houses
('atreides', 'harkonnen')
>>> explorer.set("atreides", weapon="projectile-contact")
>>> explorer.set("harkonnen", defense="shield")
>>> round(float(sum(explorer.outcome_bars.y)), 6)       # one bar per outcome, the bars sum to 1
1.0
>>> from dunenb.battle.case import load_example_case
>>> BattleWheelExplorer(load_example_case("traitor_idaho")).case.territory
'arrakeen'
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as widgets
import pandas as pd
from bqplot import Axis, Bars, Figure, LinearScale, OrdinalScale

from dunenb.analysis.battle_events import outcome_rolls, roll_words, shield_rolls
from dunenb.analysis.battle_odds import outcome_table, win_probabilities
from dunenb.analysis.matchup import SidePowers, matchup
from dunenb.battle.cards import BUILT_IN_WEAPONS, CARD_NAMES, DEFENCES, WEAPONS
from dunenb.battle.case import CASE_FORMAT, BattleCase, CaseSide, case_outcomes, parse_case
from dunenb.battle.characters import leaders_in_game
from dunenb.battle.colours import NEUTRAL_COLOUR, house_colour
from dunenb.battle.leader_weapons import arsenal
from dunenb.battle.plans import Battle
from dunenb.battle.powers import slot_weapons
from dunenb.battle.resolve import Distribution
from dunenb.battle.roster import Leader, load_roster
from dunenb.battle.traitors import can_be_traitor_of
from dunenb.battle.wheel import Dial, army_value
from dunenb.errors import DuneError
from dunenb.render.wheel_slots import extra_slots
from dunenb.render.wheel_svg import HEIGHT as WHEEL_HEIGHT
from dunenb.render.wheel_svg import WheelPicture, picture_height, wheel_svg
from dunenb.rules.leader_rolls import rolls_of_leader
from dunenb.ruleset import load_ruleset

#: The default battle: (house, unmarked tokens in the territory, spice owned); the first House defends.
DEFAULT_SIDES: tuple[tuple[str, int, int], ...] = (("atreides", 10, 5), ("harkonnen", 10, 5))
DEFAULT_TERRITORY = "arrakeen"

_CONTROL_WIDTH = "330px"
_STYLE = {"description_width": "110px"}
_ERROR_COLOUR = "#c62828"
#: The value of a "none" choice in a dropdown (ipywidgets reads ``None`` as "nothing selected" and shows a blank).
NONE = ""
_NULLABLE = ("leader", "weapon", "defense", "extra_attack", "extra_defense")


def default_case(
    territory: str = DEFAULT_TERRITORY,
    sides: Sequence[tuple[str, int, int]] = DEFAULT_SIDES,
    *,
    defender: str | None = None,
) -> BattleCase:
    """A plain battle to start exploring from: each side dials 4 tokens and 1 spice, leads with its third
    leader (roster order) and plays no card. ``sides`` are ``(house, unmarked tokens, spice owned)``; the
    defender is the first side unless given.

    >>> case = default_case()
    >>> case.defender, case.sides[1].plan.leader.id, case.sides[0].spice
    ('atreides', 'zebataleh', 5)
    """
    line_up = [house for house, _tokens, _spice in sides]
    raw_sides = [
        {"house": house, "tokens": {"regular": tokens}, "spice": spice,
         "dial": {"regular": min(4, tokens), "spice": min(1, spice, tokens)},
         "leader": leaders_in_game(house, line_up)[2].id}  # leaders.md X-1: a copy in play
        for house, tokens, spice in sides
    ]
    return parse_case({"format": CASE_FORMAT, "territory": territory, "defender": defender or sides[0][0],
                       "sides": raw_sides})


def _name(house: str | None) -> str:
    return "nobody" if house is None else load_ruleset().house(house).name


def _leader_name(leader: str | None) -> str:
    """A leader's printed name from the id an outcome holds (an inline leader keeps its own name)."""
    if leader is None:
        return "no leader"
    by_id = {entry.id: entry.name for entry in load_roster().leaders}
    return by_id.get(leader, leader)


def outcome_label(index: int, outcome: Any, rolls: Sequence[str] = ()) -> str:
    """The x label of one outcome bar in words: the winner, each leader's fate, then the events (issue 12) and
    the shield rolls that lead to it (``rolls``, from :func:`dunenb.analysis.battle_events.roll_words`).

    ``index`` is kept for callers; labels are made unique by :func:`outcome_labels`.
    """
    winner = "No winner" if outcome.winner is None else f"{_name(outcome.winner)} win"
    fates = " · ".join(f"{_leader_name(side.leader)} {side.leader_fate}" for side in outcome.sides
                       if side.leader_fate != "none")
    events = battle_events(outcome)
    return " · ".join(part for part in (winner, fates, *events, *rolls) if part)


def battle_events(outcome: Any) -> list[str]:
    """The events of one outcome in words: traitor calls, an explosion, a destroyed territory."""
    events = [f"traitor called by {_name(house)}" for house in outcome.traitor_called_by]
    if outcome.explosion:
        events.append("explosion (lasgun and shield)")
    if outcome.territory_destroyed:
        events.append("territory destroyed")
    if outcome.treachery_blocked:
        events.append("call voided by Karama")
    return events


def outcome_labels(distribution: Distribution, battle: Battle | None = None) -> list[str]:
    """One label per outcome; with ``battle``, each names the shield rolls behind it (CARD-SHIELD-3); outcomes
    that still read the same (different token losses) get a number."""
    faces = outcome_rolls(battle) if battle is not None else {}
    labels = [outcome_label(i, outcome, roll_words(outcome, faces.get(outcome, {})))
              for i, (_, outcome) in enumerate(distribution)]
    repeated = {label for label in labels if labels.count(label) > 1}
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        if label in repeated:
            seen[label] = seen.get(label, 0) + 1
            label = f"{label} ({seen[label]})"
        out.append(label)
    return out


def _events_html(distribution: Distribution, battle: Battle | None = None) -> str:
    """The battle's events (traitor calls, explosions, shield rolls) with how often they happen (issue 12)."""
    chances: dict[str, float] = {}
    for probability, outcome in distribution:
        for event in battle_events(outcome):
            chances[event] = chances.get(event, 0.0) + float(probability)
    items = [f"<li>⚠ <b>{escape(event[0].upper() + event[1:])}</b>"
             f"{'' if p == 1 else f' ({p:.0%} of outcomes)'}</li>" for event, p in chances.items()]
    if battle is not None:  # CARD-SHIELD-3: each d10 against a shield is an event of its own
        items += [f"<li>🎲 <b>{escape(roll.label)}</b>: {escape(roll.text())}</li>" for roll in shield_rolls(battle)]
    if not items:
        return "<b>Events:</b> none (no traitor call, no explosion, no shield roll)"
    return f"<b>Events</b><ul style='margin:0'>{''.join(items)}</ul>"


def matchup_html(sides: tuple[SidePowers, SidePowers]) -> str:
    """The powers in this matchup, per side: the leader's value after the powers and each power that acted, with
    its rule in plain words (and how often, for a power behind a d10)."""
    parts = ["<div style='font-size:13px;margin:4px 0'><b>Powers in this matchup</b>"]
    for side in sides:
        colour = escape(house_colour(side.house))
        parts.append(f"<div style='border-left:8px solid {colour};padding-left:6px;margin:3px 0'>"
                     f"<b>{escape(_name(side.house))}</b>: {escape(side.summary())}")
        for power in side.powers:
            share = "" if power.probability == 1 else f" (in {float(power.probability):.0%} of the outcomes)"
            parts.append(f"<br>&nbsp;&nbsp;<b>{escape(power.power)}</b>{escape(share)}: {escape(power.words)}")
        parts.append("</div>")
    return "".join(parts) + "</div>"


def _unique(cards: Sequence[str | None]) -> tuple[str, ...]:
    """``cards`` without repeats or ``None``, in their order."""
    return tuple(dict.fromkeys(card for card in cards if card is not None))


class _Side:
    """The controls of one side, built from a case side; ``raw()`` turns their values back into case JSON."""

    def __init__(self, case_side: CaseSide, opponent: str) -> None:
        side, plan = case_side.side, case_side.plan
        self.house = side.house
        self.tokens = side.tokens
        self.spice_owned = case_side.spice if case_side.spice is not None else side.tokens.total
        self.dice = list(side.dice)
        layout = widgets.Layout(width=_CONTROL_WIDTH)

        # Leaders: the case's available leaders, else the House's leaders in play (leaders.md X-1) against this
        # opponent (an inline leader of the case first).
        line_up = (self.house, opponent)
        leaders: list[Leader] = list(case_side.leaders or leaders_in_game(self.house, line_up))
        if plan.leader is not None and plan.leader not in leaders:
            leaders.insert(0, plan.leader)
        self.inline = {leader.id: leader for leader in leaders if leader.house is None}
        leader_options = [(f"{leader.name} ({leader.strength})", leader.id) for leader in leaders]
        if plan.leader is None:
            leader_options.append(("(no leader)", NONE))

        # Cards: the case's hand when it has one, else every card that fits the slot.
        def cards(slot: tuple[str, ...], built_ins: tuple[str, ...] = ()) -> list[tuple[str, str]]:
            held = slot if case_side.hand is None else tuple(card for card in slot if card in case_side.hand)
            return [("none", NONE)] + [(CARD_NAMES[card], card) for card in (*held, *built_ins)]

        # leaders.md K-6/K-7 (issue 11): the built-ins and extra slots the side's leaders may bring (the case
        # validates the plan: a slot the chosen leader lacks shows the library's message).
        self.b1_rolls = dict(side.b1_rolls)  # leaders.md D-31: kept as the case gives them
        self.leaders = {leader.id: leader for leader in leaders}
        powers = [arsenal(leader, self.house, side.blocked) for leader in leaders]
        in_slot = _unique((*slot_weapons(self.house), *(w for found in powers for _p, w, _n in found.in_slot),
                           *([plan.weapon] if plan.weapon in BUILT_IN_WEAPONS else [])))
        extra_weapons = _unique((*(w for found in powers for w in found.extra_weapons()),
                                 *([plan.extra_attack] if plan.extra_attack in BUILT_IN_WEAPONS else [])))
        extra_cards = any(found.extra_attack_card for found in powers) or (
            plan.extra_attack is not None and plan.extra_attack not in BUILT_IN_WEAPONS)
        extra_defences = any(found.extra_defence_card for found in powers) or plan.extra_defense is not None

        # Traitors: the opponent's leaders other than its main leader, plus any other name the case holds.
        candidates = [leader for leader in leaders_in_game(opponent, line_up)
                      if can_be_traitor_of(leader, self.house)]  # TRAITOR-1, K-21, X-1
        traitor_options = [(leader.name, leader.id) for leader in candidates]
        held = [leader.id for leader in candidates if set(leader.names()) & side.traitors]
        matched = {name for leader in candidates for name in leader.names()}
        for name in sorted(side.traitors - matched):
            traitor_options.append((name, name))
            held.append(name)

        def slider(value: int, top: int, description: str) -> widgets.IntSlider:
            return widgets.IntSlider(value=value, min=0, max=top, description=description, layout=layout,
                                     style=_STYLE)

        self.controls: dict[str, widgets.ValueWidget] = {
            "regular": slider(plan.dial.regular, self.tokens.regular, "tokens dialled"),
        }
        if self.tokens.elite:
            self.controls["elite"] = slider(plan.dial.elite, self.tokens.elite, "marked dialled")
        self.controls.update({
            "spice": slider(plan.dial.spice, self.spice_owned, "spice"),
            "leader": widgets.Dropdown(options=leader_options, value=plan.leader.id if plan.leader else NONE,
                                       description="leader", layout=layout, style=_STYLE),
            "weapon": widgets.Dropdown(options=cards(WEAPONS, in_slot), value=plan.weapon or NONE,
                                       description="attack", layout=layout, style=_STYLE),
            "defense": widgets.Dropdown(options=cards(DEFENCES), value=plan.defense or NONE,
                                        description="defence", layout=layout, style=_STYLE),
        })
        if extra_cards or extra_weapons:  # leaders.md K-6 a second attack card, K-7 a built-in beside the card
            self.controls["extra_attack"] = widgets.Dropdown(
                options=cards(WEAPONS if extra_cards else (), extra_weapons), value=plan.extra_attack or NONE,
                description="extra attack", layout=layout, style=_STYLE)
        if extra_defences:  # leaders.md K-6: a second defence card
            self.controls["extra_defense"] = widgets.Dropdown(
                options=cards(DEFENCES), value=plan.extra_defense or NONE, description="extra defence",
                layout=layout, style=_STYLE)
        self.controls.update({
            "traitors": widgets.SelectMultiple(options=traitor_options, value=tuple(held), description="traitors held",
                                               rows=4, layout=layout, style=_STYLE),
        })

        self.wheel = widgets.HTML(layout=widgets.Layout(width=_CONTROL_WIDTH, height=f"{WHEEL_HEIGHT + 6}px"))
        self.picture: WheelPicture | None = None

    def _b1_rolls(self, leader_id: str) -> dict[str, int]:
        """The case's B1 results (leaders.md D-31) that are for powers of the leader now chosen."""
        return rolls_of_leader(self.b1_rolls.items(), self.leaders.get(leader_id))

    def raw(self) -> dict[str, Any]:
        values = {name: control.value for name, control in self.controls.items()}
        leader = values["leader"] or None
        if leader in self.inline:
            leader = {"name": self.inline[leader].name, "strength": self.inline[leader].strength}
        return {
            "house": self.house, "tokens": self.tokens.to_dict(), "spice": self.spice_owned,
            "dial": {"regular": values["regular"], "elite": values.get("elite", 0), "spice": values["spice"]},
            "leader": leader, "weapon": values["weapon"] or None, "defense": values["defense"] or None,
            "traitors": list(values["traitors"]), "dice": self.dice,
            **{name: values[name] or None for name in ("extra_attack", "extra_defense") if name in values},
            **({"b1_rolls": rolls} if (rolls := self._b1_rolls(values["leader"])) else {}),
        }

    def show(self, case_side: CaseSide, distribution: Distribution, leader_value: int | None = None) -> None:
        """Draw the wheel after the reveal: the dial, the leader disc (``leader_value``: his value after the
        powers, LC-6; default his strength), the two cards and the extra slots (leaders.md K-6..K-8), the total
        and the odds."""
        plan = case_side.plan
        shown = float(army_value(plan.dial))
        most = float(army_value(Dial(self.tokens.regular, self.tokens.elite,
                                     min(self.tokens.total, self.spice_owned))))
        totals = sorted({float(outcome.side(self.house).total) for _, outcome in distribution})
        total = "total " + (f"{totals[0]:g}" if len(totals) == 1 else f"{totals[0]:g} to {totals[-1]:g}")
        wins = float(sum(p for p, outcome in distribution if outcome.winner == self.house))
        verdict = "wins" if wins == 1 else ("loses" if wins == 0 else f"wins {wins:.0%}")  # fits the wheel
        self.picture = WheelPicture(
            house=_name(self.house), colour=house_colour(self.house), regular=plan.dial.regular,
            elite=plan.dial.elite, spice=plan.dial.spice, value=shown, most=most,
            leader=plan.leader.name if plan.leader else None,
            leader_value=(leader_value if leader_value is not None else plan.leader.strength) if plan.leader
            else None,
            weapon=CARD_NAMES[plan.weapon] if plan.weapon else None,
            defence=CARD_NAMES[plan.defense] if plan.defense else None,
            total_text=total if totals else "", verdict=verdict,
            extras=extra_slots(plan.leader, self.house, plan.extra_attack, plan.extra_defense,
                               case_side.side.blocked))
        self.wheel.layout.height = f"{picture_height(self.picture) + 6:g}px"
        self.wheel.value = wheel_svg(self.picture)

    @property
    def column(self) -> widgets.VBox:
        return widgets.VBox([self.wheel, *self.controls.values()])


class BattleWheelExplorer:
    """Two bqplot wheels with per-side controls, the outcome chart and the outcome table.

    Built from a :class:`~dunenb.battle.case.BattleCase` (its plans set the controls; its tokens, fixed dice,
    hand and available leaders bound them) or, without one, from :func:`default_case`. Display it in a notebook
    cell, or show ``explorer.widget``. ``controls[i]`` holds side ``i``'s controls by name (``regular``,
    ``elite`` when the side has marked tokens, ``spice``, ``leader``, ``weapon``, ``defense``, ``extra_attack``
    and ``extra_defense`` when one of the side's leaders has such a slot (leaders.md K-6, K-7), ``traitors``);
    setting a value from code updates the display as the mouse would. The wheels draw the extra slots and
    built-ins (issue 11, :mod:`dunenb.render.wheel_slots`).
    """

    def __init__(self, case: BattleCase | None = None) -> None:
        case = case or default_case()
        self._base = case
        self._sides = [_Side(side, case.houses[1 - index]) for index, side in enumerate(case.sides)]
        self.controls: list[dict[str, widgets.ValueWidget]] = [side.controls for side in self._sides]
        self.case: BattleCase = case
        self.distribution: Distribution = ()

        self.outcome_x, self.outcome_y = OrdinalScale(), LinearScale(min=0, max=1)
        self.outcome_bars = Bars(x=["-"], y=[0], scales={"x": self.outcome_x, "y": self.outcome_y},
                                 colors=[NEUTRAL_COLOUR])
        self.outcome_chart = Figure(
            marks=[self.outcome_bars], title="Probability of each outcome",
            axes=[Axis(scale=self.outcome_x, label="outcome", tick_style={"font-size": "11px"}),
                  Axis(scale=self.outcome_y, side="left", label="probability", tick_format=".0%",
                       label_offset="55px")],
            fig_margin={"top": 60, "bottom": 60, "left": 80, "right": 20},
            layout=widgets.Layout(width="680px", height="340px"))
        self.events = widgets.HTML()
        self.powers = widgets.HTML()
        self.matchup: tuple[SidePowers, SidePowers] | None = None
        self.message = widgets.HTML()
        self.table = widgets.HTML()
        self.table.add_class("jp-RenderedHTMLCommon")
        self.table.add_class("rendered_html")

        for side in self.controls:
            for control in side.values():
                control.observe(self.update, names="value")
        self.update()
        self.widget = widgets.VBox([widgets.HBox([side.column for side in self._sides]), self.message,
                                    self.powers, self.events, self.outcome_chart, self.table])

    @property
    def houses(self) -> tuple[str, str]:
        return self.case.houses

    def set(self, house: str | int, **values: Any) -> None:
        """Set some controls of one side (by House or index), e.g. ``set("atreides", weapon="lasgun")``;
        ``None`` picks "none" (no card, no leader)."""
        index = house if isinstance(house, int) else self.houses.index(house)
        for name, value in values.items():
            self.controls[index][name].value = NONE if value is None and name in _NULLABLE else value

    def case_from_controls(self) -> BattleCase:
        """The battle case the controls describe (raises :class:`~dunenb.errors.DuneError` if it is illegal)."""
        base = self._base
        return parse_case({"format": CASE_FORMAT, "territory": base.territory, "defender": base.defender,
                           "title": base.title, "description": base.description,
                           "sides": [side.raw() for side in self._sides],
                           # issue 10: the case's Karama uses stay (dunenb.battle.case_karama, one reading)
                           "karama_uses": [use.to_json() for use in base.karama_uses]})

    def update(self, _change: object = None) -> None:
        """Rebuild the case from the controls and redraw; an illegal plan shows the library's message."""
        try:
            case = self.case_from_controls()
        except DuneError as error:
            self.message.value = f"<b style='color:{_ERROR_COLOUR}'>{escape(error.message)}</b>"
            return
        self.message.value = ""
        self.case = case
        self.distribution = case_outcomes(case)
        self.matchup = matchup(case.battle, self.distribution)
        for side, case_side, powers in zip(self._sides, case.sides, self.matchup, strict=True):
            side.show(case_side, self.distribution, powers.value)
        self.powers.value = matchup_html(self.matchup)
        self.events.value = _events_html(self.distribution, case.battle)
        with self.outcome_bars.hold_sync():
            self.outcome_bars.x = outcome_labels(self.distribution, case.battle)
            self.outcome_bars.y = [float(p) for p, _ in self.distribution]
            self.outcome_bars.colors = [house_colour(outcome.winner) for _, outcome in self.distribution]
        frame = outcome_table(self.distribution).drop(columns=["fraction"])
        self.table.value = (frame.style.format({"probability": "{:.1%}"}, precision=1)
                            .hide(axis="index").set_caption("Every outcome, most likely first").to_html())

    def outcome_probabilities(self) -> pd.Series:
        """The chart's bars as a Series: probability of each outcome, labelled as on the chart."""
        series = pd.Series([float(y) for y in self.outcome_bars.y], index=list(self.outcome_bars.x),
                           name="probability")
        series.index.name = "outcome"
        return series

    def win_probabilities(self) -> pd.Series:
        """P(each House wins), and P(nobody wins) as ``(none)``, for the current controls."""
        return pd.Series(win_probabilities(self.distribution), name="P(wins)")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
