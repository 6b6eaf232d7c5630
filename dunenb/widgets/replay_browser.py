"""Replay and branch a saved game: a timeline, turn/phase jumps, the map, a House panel, branching controls.

Widgets hold no rules: every move goes through :class:`dunenb.record.GameRecord` (which checks it against the
engine), every alternative comes from ``legal_actions``/``chance_outcomes``, and bots continue lines through
:func:`dunenb.play.advance`.
"""

from __future__ import annotations

from collections import Counter
from html import escape

import ipywidgets as widgets

from dunenb.action_text import describe, leader_name
from dunenb.action_text import label as action_label
from dunenb.analysis.game_stats import house_table
from dunenb.battle.cards import CARD_NAMES
from dunenb.battle.colours import house_colour
from dunenb.battle.rolls import PURPOSES, SHIELD_PASS, purpose_label, purpose_text
from dunenb.battle.roster import load_roster
from dunenb.battle.wheel import Dial, army_value
from dunenb.board import load_board
from dunenb.engine import chance_outcomes, legal_actions
from dunenb.play import advance
from dunenb.record import GameRecord
from dunenb.record_view import RecordView
from dunenb.render.layout import MAP_PIXELS
from dunenb.render.wheel_slots import extra_slots
from dunenb.render.wheel_svg import WheelPicture, wheel_svg
from dunenb.rules.battle_context import BattleContext
from dunenb.rules.battle_phase import own_house_leader
from dunenb.rules.battle_powers import blocked_in_battle
from dunenb.rules.game_battle_case import battle_case_of, tokens_in
from dunenb.ruleset import load_ruleset
from dunenb.saves import SAVED_GAMES, save_game
from dunenb.widgets.sector_map import SectorMapWidget

GOD_VIEW = "god view (teaching)"


def _house_label(house: str) -> str:
    return load_ruleset().house(house).name


HIDDEN = "hidden"  # what a House view holds in place of a secret (GAP-58, dunenb.record_view)
CARD_BACK = "🂠"
_PANEL_COLUMNS = (("spice", "spice"), ("on_dune", "on Dune"), ("reserve", "reserve"), ("tanks", "tanks"),
                  ("leaders_alive", "leaders"), ("cities_owned", "cities"))


def house_panel_html(state, viewer: str | None) -> str:
    """One aligned table of the Houses (issue 12); in a House view, what that House cannot see is drawn hidden:
    other Houses' cards as card backs and their traitors as a count."""
    table = house_table(state)
    cell = "padding:2px 6px;text-align:right;white-space:nowrap"
    head = "".join(f"<th style='{cell}'>{escape(title)}</th>" for _, title in _PANEL_COLUMNS)
    rows = []
    hidden_cards = hidden_traitors = 0
    captives = _captives_by_keeper(state)  # HARKONNEN-P4, FAQ 17: a column only while someone holds a captive
    hidden_captives = sum(lid == HIDDEN for _owner, lid in state.captured)
    for _, row in table.iterrows():
        house = row["house"]
        hs = state.houses[house]
        swatch = f"<span style='color:{house_colour(house)}'>●</span>"
        cards = list(hs.hand)
        backs = sum(card == HIDDEN for card in cards)
        hidden_cards += backs
        shown = [escape(CARD_NAMES.get(card, card)) for card in cards if card != HIDDEN]
        hand = ", ".join(shown + [f"<span title='a card {escape(_house_label(viewer or house))} cannot see' "
                                  f"style='font-size:18px;color:#5b4a36'>{CARD_BACK}</span>"] * backs) or "-"
        traitors = [t for t in hs.traitors if t != (HIDDEN, HIDDEN)]
        secret = len(hs.traitors) - len(traitors)
        hidden_traitors += secret
        # issue 12: the slips by the leaders' printed names, not their ids (a slip is (owner, leader id))
        traitor_text = ", ".join(escape(leader_name(leader, owner)) for owner, leader in traitors)
        if secret:
            traitor_text = (traitor_text + ", " if traitor_text else "") + f"<i>{secret} hidden</i>"
        values = "".join(f"<td style='{cell}'>{escape(str(row[key]))}</td>" for key, _ in _PANEL_COLUMNS)
        held = f"<td style='padding:2px 6px'>{captives.get(house, '-')}</td>" if captives else ""
        rows.append(f"<tr><td style='padding:2px 6px;white-space:nowrap'>{swatch} {escape(_house_label(house))}"
                    f"</td>{values}<td style='padding:2px 6px'>{hand}</td>"
                    f"<td style='padding:2px 6px'>{traitor_text or '-'}</td>{held}</tr>")
    banner = ("<div style='background:#eef3f8;padding:3px 6px'>God view (teaching): every card and traitor is "
              "shown.</div>" if viewer is None else
              f"<div style='background:#fff3d6;padding:3px 6px'><b>{escape(_house_label(viewer))} view</b>: "
              f"{hidden_cards} card(s) shown as backs {CARD_BACK}, {hidden_traitors} traitor(s) counted, not "
              f"named" + (f", {hidden_captives} captive(s) not named (FAQ 17)" if hidden_captives else "")
              + ".</div>")
    return (f"{banner}<table style='border-collapse:collapse;table-layout:auto;font-size:12px;line-height:1.3'>"
            f"<thead><tr style='border-bottom:1px solid #999'><th style='padding:2px 6px;text-align:left'>House"
            f"</th>{head}<th style='padding:2px 6px;text-align:left'>cards</th>"
            f"<th style='padding:2px 6px;text-align:left'>traitors</th>"
            + ("<th style='padding:2px 6px;text-align:left'>captives</th>" if captives else "") + "</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _captives_by_keeper(state) -> dict[str, str]:
    """HARKONNEN-P4: the captives cell of each House holding some, as HTML: their names and Houses, or, in a third
    House's view, "1 of the Atreides, identity hidden" (FAQ 17, GAP-75: the view holds ``"owner:hidden"``)."""
    from dunenb.rules.traitors import LEADER_KEY_SEPARATOR

    cells: dict[str, str] = {}
    people = set(state.captured)
    for house, hs in state.houses.items():
        named: list[str] = []
        hidden: Counter[str] = Counter()
        for key in hs.leaders:
            owner, _, lid = key.rpartition(LEADER_KEY_SEPARATOR)
            if not owner or (owner, lid) not in people:
                continue
            if lid == HIDDEN:
                hidden[owner] += 1
            else:
                named.append(f"{escape(leader_name(lid, owner))} ({escape(_house_label(owner))})")
        named += [f"<i>{count} leader(s) of {escape(_house_label(owner))}, identity hidden</i>"
                  for owner, count in hidden.items()]
        if named:
            cells[house] = ", ".join(named)
    return cells


#: Battle events the step list marks (issue 12: a traitor call, an explosion, a shield roll shown as events).
_BATTLE_TAGS = {"battle-d10": ("🎲", "Shield roll"), "treachery": ("⚠", "Traitor call"),
                "treachery-blocked": ("⚠", "Call voided by Karama")}


def _event_words(event) -> tuple[str, str, str]:
    """(icon, tag, text) of one event; the battle's chance and treachery events get a tag in words."""
    house, value = event.data.get("house"), event.data.get("value")
    if event.kind == "battle-d10":  # what the d10 is for: a shield pass (CARD-SHIELD-3), a worn shield (K-8)...
        purpose = event.data.get("purpose", SHIELD_PASS)  # events recorded before the purpose: a shield pass
        if house and value is not None and purpose in PURPOSES:
            return ("🎲", purpose_label(purpose), f"{_house_label(house)} roll {value} on the d10 "
                    f"{purpose_text(purpose)}")
        return "🎲", "Battle d10", event.text
    if event.kind == "battle-outcome" and event.data.get("explosion"):
        return "💥", "Explosion", event.text
    icon, tag = _BATTLE_TAGS.get(event.kind, ("", ""))
    return icon, tag, event.text


def step_events_html(state) -> str:
    """The events of the last step as a list, the battle's treachery, explosion and shield rolls marked."""
    if not state.events:
        return ""
    items = []
    for event in state.events:
        icon, tag, text = _event_words(event)
        head = f"{icon} <b>{escape(tag)}</b>: " if tag else ""
        items.append(f"<li>{head}{escape(text)}</li>")
    return (f"<div style='font-size:12px'><b>Events of this step</b><ul style='margin:0;padding-left:18px'>"
            f"{''.join(items)}</ul></div>")


def _group(action) -> str:
    """The kind of a choice (the first word of its notation: move, pass, bid, storm...)."""
    return action.notation().split(" ", 1)[0]


def _choice_groups(choices) -> dict[str, int]:
    groups: dict[str, int] = {}
    for action, _p in choices:
        kind = _group(action)
        groups[kind] = groups.get(kind, 0) + 1
    return groups


def choice_options(choices) -> list[tuple[str, object]]:
    """Dropdown options for the branch choices (issue 12): grouped by kind (the notation's first word leads each
    label), each described in words (issue 16), with its probability for a chance draw."""
    kinds = [_group(action) for action, _p in choices]  # each notation once (issue 12: replay step speed)
    order = {kind: rank for rank, kind in enumerate(dict.fromkeys(kinds))}
    ranked = [item for _kind, _index, item in sorted(
        ((order[kind], index, item) for index, (kind, item) in enumerate(zip(kinds, choices, strict=True))),
        key=lambda entry: (entry[0], entry[1]))]
    return [(action_label(a) + ("" if p is None else f"  (p = {float(p):.3f})"), a) for a, p in ranked]


def revealed_battle(state) -> BattleContext | None:
    """The battle whose plans the last step revealed (BATTLE-13), as its typed context, else ``None``."""
    if not any(e.kind == "plan-revealed" for e in state.events) or state.pending is None:
        return None
    ctx = state.pending.detail.get("battle")
    return ctx if isinstance(ctx, BattleContext) and ctx.plans and ctx.area else None


def _leader(leader_id: str | None) -> tuple[str | None, int | None]:
    if leader_id in (None, "none"):
        return None, None
    for leader in load_roster().leaders:
        if leader.id == leader_id:
            return leader.name, leader.strength
    return leader_id, None


def battle_pictures(state, detail: BattleContext) -> list[WheelPicture]:
    """Both wheels of a revealed battle (BATTLE-13) as pictures: plans, leader, cards, the extra slots and
    built-ins of the leader's powers (leaders.md K-6..K-8), total, role."""
    pictures = []
    for house, plan in detail.plans:
        name, strength = _leader(plan.leader)
        leader = None if plan.leader in (None, "none") else own_house_leader(state, house, plan.leader)
        extras = extra_slots(leader, house, plan.extra_attack, plan.extra_defense, blocked_in_battle(state, house))
        value = float(army_value(Dial(plan.regular, plan.marked, plan.spice)))
        tokens = tokens_in(state, house, detail.area)
        most = float(army_value(Dial(tokens[0], tokens[1], min(sum(tokens), state.houses[house].spice))))
        role = "defender" if house == detail.defender else "attacker"
        pictures.append(WheelPicture(
            house=_house_label(house), colour=house_colour(house), regular=plan.regular, elite=plan.marked,
            spice=plan.spice, value=value, most=max(most, value), leader=name, leader_value=strength,
            weapon=None if plan.weapon == "none" else CARD_NAMES.get(plan.weapon, plan.weapon),
            defence=None if plan.defense == "none" else CARD_NAMES.get(plan.defense, plan.defense),
            total_text=f"wheel + leader = {value + (strength or 0):g}", verdict=role, extras=extras))
    return pictures


def battle_html(state, detail: BattleContext) -> str:
    """Both wheels after the reveal, as pictures (issue 12), with where and who."""
    area = load_board().area(detail.area).name
    wheels = [wheel_svg(picture) for picture in battle_pictures(state, detail)]
    return (f"<b>Battle in {escape(area)}</b>: the plans after the reveal (cards act next: traitor calls, "
            f"weapons and defences)<div style='display:flex;gap:8px'>{''.join(wheels)}</div>")


class ReplayBrowser:
    """Browse a record along one line (root → a leaf), switch lines, and branch at the cursor."""

    def __init__(self, record: GameRecord, *, seed: int = 0, size: int = MAP_PIXELS) -> None:
        self.record = record
        self.seed = seed
        self._views: dict[str, RecordView] = {}
        self.leaf_node = record.leaf()
        self.line: list[int] = [record.root, *record.path(self.leaf_node)]
        self.map = SectorMapWidget(record.state_at(self.line[-1]), size=size)
        self.slider = widgets.IntSlider(min=0, max=len(self.line) - 1, value=len(self.line) - 1,
                                        description="step", continuous_update=False,
                                        layout=widgets.Layout(width="520px"))
        self.slider.observe(lambda change: self._show(), names="value")
        jumps = [("|◀ start", self.to_start, "start of the game"), ("◀◀ turn", self.previous_turn, "previous turn"),
                 ("◀ phase", self.previous_phase, "previous phase"), ("phase ▶", self.next_phase, "next phase"),
                 ("turn ▶▶", self.next_turn, "next turn"), ("end ▶|", self.to_end, "end of this line")]
        self.jump_buttons = []
        for label, handler, tip in jumps:
            button = widgets.Button(description=label, tooltip=tip, layout=widgets.Layout(width="78px"))
            button.on_click(lambda _b, h=handler: h())
            self.jump_buttons.append(button)
        self.viewer = widgets.Dropdown(options=[GOD_VIEW, *record.config.houses], description="view",
                                       layout=widgets.Layout(width="260px"))
        self.viewer.observe(lambda change: self._show(), names="value")
        self.status = widgets.HTML()
        self.events = widgets.HTML(layout=widgets.Layout(width="470px"))
        self.panel = widgets.HTML(layout=widgets.Layout(width="860px"))
        self.alternatives = widgets.Dropdown(description="instead", layout=widgets.Layout(width="470px"))
        self.choices_summary = widgets.HTML()
        self.play_button = widgets.Button(description="Play this instead", button_style="warning")
        self.play_button.on_click(lambda _b: self.branch(self.alternatives.value))
        self.turns = widgets.BoundedIntText(value=2, min=1, max=50, description="turns",
                                            layout=widgets.Layout(width="140px"))
        self.continue_button = widgets.Button(description="Continue with bots", button_style="info")
        self.continue_button.on_click(lambda _b: self.continue_with_bots(self.turns.value))
        self.lines = widgets.Dropdown(description="line", layout=widgets.Layout(width="470px"))
        self.lines.observe(lambda change: self._switch_line(change["new"]), names="value")
        self.save_path = widgets.Text(value=f"{SAVED_GAMES}/branched_game.json", description="save as",
                                      layout=widgets.Layout(width="330px"))
        self.save_button = widgets.Button(description="Save tree")
        self.save_button.on_click(lambda _b: self.save(self.save_path.value))
        self.message = widgets.HTML()
        self.battle = widgets.HTML()
        self.battle_button = widgets.Button(description="Open this battle in the wheel explorer",
                                            button_style="info", layout=widgets.Layout(width="300px"))
        self.battle_button.on_click(lambda _b: self.open_battle())
        self.battle_output = widgets.Output()
        self.explorer = None
        branch_box = widgets.VBox([
            widgets.HTML("<b>Branch here</b>"), self.choices_summary, self.alternatives,
            widgets.HBox([self.play_button]),
            widgets.HBox([self.turns, self.continue_button]), self.lines,
            widgets.HBox([self.save_path, self.save_button]), self.message,
        ])
        self.widget = widgets.VBox([
            widgets.HBox(self.jump_buttons + [self.viewer]), self.slider,
            widgets.HBox([self.map.figure, widgets.VBox([self.status, self.events, branch_box])]), self.panel,
            self.battle, self.battle_button, self.battle_output,
        ])
        self._refresh_lines()
        self._show()

    # --- navigation ------------------------------------------------------------------------------------------

    @property
    def node(self) -> int:
        return self.line[self.slider.value]

    @property
    def state(self):
        return self.record.state_at(self.node)

    def go(self, index: int) -> None:
        self.slider.value = max(0, min(len(self.line) - 1, index))

    def to_start(self) -> None:
        self.go(0)

    def to_end(self) -> None:
        self.go(len(self.line) - 1)

    def _find(self, step: int, differs) -> None:
        here = self.record.state_at(self.node)
        index = self.slider.value + step
        while 0 <= index < len(self.line):
            if differs(here, self.record.state_at(self.line[index])):
                self.go(index)
                return
            index += step
        self.go(0 if step < 0 else len(self.line) - 1)

    def next_turn(self) -> None:
        self._find(+1, lambda a, b: b.turn != a.turn)

    def previous_turn(self) -> None:
        self._find(-1, lambda a, b: b.turn < a.turn - 1 or (b.turn < a.turn and b.phase == "setup"))

    def next_phase(self) -> None:
        self._find(+1, lambda a, b: (b.turn, b.phase) != (a.turn, a.phase))

    def previous_phase(self) -> None:
        self._find(-1, lambda a, b: (b.turn, b.phase) != (a.turn, a.phase))

    # --- branching -------------------------------------------------------------------------------------------

    def other_choices(self) -> list:
        """The alternatives at the cursor other than the action recorded next on this line."""
        index = self.slider.value + 1
        recorded = self.record.node(self.line[index]).action if index < len(self.line) else None
        return [action for _label, action in self.alternatives.options if action != recorded]

    def branch(self, action) -> int | None:
        """Play ``action`` at the cursor instead of the recorded one; the new line becomes current."""
        if action is None:
            return None
        child = self.record.add_move(self.node, action)
        self._set_line(self.record.leaf(child), focus=child)
        self.message.value = f"<i>Branched: {escape(action_label(action))}</i>"
        return child

    def continue_with_bots(self, turns: int) -> int:
        """Extend the current line from its end with chance and random bots for ``turns`` turns."""
        node = self.line[-1]
        for _ in range(turns):
            node = advance(self.record, node, until="turn", seed=self.seed)
        self._set_line(node, focus=node)
        self.message.value = f"<i>Continued {turns} turn(s) with bots.</i>"
        return node

    def save(self, path: str) -> None:
        save_game(self.record, path, current=self.node)
        self.message.value = f"<i>Saved {len(self.record) - 1} nodes to {escape(path)}</i>"

    def _switch_line(self, leaf: int | None) -> None:
        if getattr(self, "_updating_lines", False):
            return
        if leaf is not None and leaf != self.leaf_node:
            self._set_line(leaf, focus=None)

    def _set_line(self, leaf: int, *, focus: int | None) -> None:
        self._views.clear()  # the tree may have grown: House views are snapshots
        self.leaf_node = leaf
        self.line = [self.record.root, *self.record.path(leaf)]
        index = self.line.index(focus) if focus in self.line else len(self.line) - 1
        with self.slider.hold_trait_notifications():
            self.slider.max = len(self.line) - 1
            self.slider.value = index
        self._refresh_lines()
        self._show()

    def _refresh_lines(self) -> None:
        leaves = [n for n in self.record.node_ids if not self.record.children(n) and n != self.record.root]
        options = []
        for leaf in sorted(leaves, key=lambda n: n != self.record.leaf()):
            state = self.record.state_at(leaf)
            label = "main line" if leaf == self.record.leaf() else f"variation ending at node {leaf}"
            options.append((f"{label} — turn {state.turn}, {state.phase}", leaf))
        self._updating_lines = True
        try:
            self.lines.options = options or [("main line", self.record.root)]
            if self.leaf_node in [leaf for _label, leaf in options]:
                self.lines.value = self.leaf_node
        finally:
            self._updating_lines = False

    # --- display ---------------------------------------------------------------------------------------------

    @property
    def house(self) -> str | None:
        """The House whose view is shown, or ``None`` for the god view."""
        return None if self.viewer.value == GOD_VIEW else self.viewer.value

    def record_view(self, house: str) -> RecordView:
        """The record as ``house`` sees it (GAP-58), rebuilt after the tree changes."""
        if house not in self._views:
            self._views[house] = self.record.view(house)
        return self._views[house]

    def _show(self) -> None:
        house = self.house
        seen = None if house is None else self.record_view(house)
        state = self.state if seen is None else seen.state_at(self.node)
        self.map.update(state)
        waiting = "game over" if state.pending is None else f"{state.pending.kind} by {state.pending.actor}"
        # GAP-58: in a House view, another House's secret actions read as "<kind> <house> (hidden)"
        action = (self.record if seen is None else seen).node(self.node).action
        self.status.value = (
            f"<b>Step {self.slider.value}/{len(self.line) - 1}</b> · turn {state.turn} · {escape(state.phase)}"
            f"<br>last action: <code>{escape(action.notation()) if action else '(start)'}</code>"
            f"{' — ' + escape(describe(action)) if action else ''}"
            f"<br>next: {escape(waiting)}")
        self.events.value = step_events_html(state)
        self.panel.value = house_panel_html(state, house)
        detail = revealed_battle(state)
        self.battle.value = "" if detail is None else battle_html(state, detail)
        self.battle_button.layout.display = None if detail is not None else "none"
        if seen is not None:  # only the House's own menu and public odds (GAP-58, dunenb.rules.secrecy)
            choices = seen.alternatives(self.node)
        elif state.pending is None:
            choices = []
        else:
            outcomes = chance_outcomes(state)
            choices = list(outcomes) if outcomes else [(a, None) for a in legal_actions(state)[:400]]
        self.alternatives.options = choice_options(choices)
        groups = _choice_groups(choices)
        self.choices_summary.value = ("" if not choices else f"<i>{len(choices)} choice(s): "
                                      + ", ".join(f"{n} {escape(g)}" for g, n in groups.items()) + "</i>")
        self.play_button.disabled = not self.alternatives.options

    def open_battle(self):
        """Open the battle revealed at the cursor in a :class:`BattleWheelExplorer` below the browser."""
        from IPython.display import display

        from dunenb.widgets.battle_wheel import BattleWheelExplorer

        detail = revealed_battle(self.state)
        if detail is None:
            return None
        self.explorer = BattleWheelExplorer(battle_case_of(self.state, detail))
        self.battle_output.clear_output()
        with self.battle_output:
            display(self.explorer.widget)
        return self.explorer

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
