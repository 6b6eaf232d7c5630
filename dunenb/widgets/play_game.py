"""Learn by playing (issue 16 item 3): take a House against bots, every decision as grouped controls.

The widgets hold no rules: :class:`dunenb.play_session.PlaySession` plays, and :mod:`dunenb.play_forms` turns the
legal actions into forms; a :class:`FormControls` draws one form as cascading dropdowns (or one button).
Everything is driven from Python too (``new_game()``, ``form_controls``, ``button.click()``), so a test plays a
whole game headlessly.
"""

from __future__ import annotations

import time
from html import escape

import ipywidgets as widgets

from dunenb.action_text import card_name, leader_name
from dunenb.analysis.game_stats import house_table
from dunenb.battle.colours import house_colour
from dunenb.play_forms import Form
from dunenb.play_session import SAVE_FOLDER, PlaySession, Refusal
from dunenb.render.layout import MAP_PIXELS
from dunenb.rules_reference import RuleEntry
from dunenb.ruleset import HOUSE_IDS, load_ruleset
from dunenb.widgets.sector_map import SectorMapWidget

_WIDE = widgets.Layout(width="430px")
_STYLE = {"description_width": "120px"}


def house_label(house: str) -> str:
    return load_ruleset().house(house).name


def rules_html(entries: list[RuleEntry] | tuple[RuleEntry, ...], heading: str = "Why?") -> str:
    """The rule texts as a short HTML block."""
    if not entries:
        return f"<b>{escape(heading)}</b> <i>no rule text found</i>"
    items = "".join(f"<li><b>{escape(e.id)} — {escape(e.title)}</b>: {escape(e.text)}</li>" for e in entries)
    return f"<b>{escape(heading)}</b><ul style='margin:2px 0 2px 14px;padding:0'>{items}</ul>"


def _chip(house: str) -> str:
    return (f"<span style='background:{house_colour(house)};color:white;padding:1px 6px;border-radius:4px'>"
            f"{escape(house_label(house))}</span>")


class FormControls:
    """One form as controls: a dropdown per field whose options follow the choices above it, and a button."""

    def __init__(self, form: Form, on_play) -> None:
        self.form = form
        self.dropdowns: list[widgets.Dropdown] = []
        self.note = widgets.HTML()
        self._busy = False
        if not form.is_button:
            chosen = form.first_choice()
            for index, spec in enumerate(form.fields):
                options = form.options(index, chosen[:index])
                dropdown = widgets.Dropdown(options=options, value=chosen[index], description=spec.label,
                                            style=_STYLE, layout=_WIDE, disabled=len(options) == 1)
                dropdown.observe(lambda change, i=index: self._changed(i), names="value")
                self.dropdowns.append(dropdown)
        style = "success" if not form.anytime else ""
        self.button = widgets.Button(description=form.button_label[:40], tooltip=form.button_label,
                                     button_style=style, layout=widgets.Layout(width="auto"))
        self.button.on_click(lambda _b: on_play(self))
        self._show_note()

    @property
    def kind(self) -> str:
        return self.form.kind

    @property
    def values(self) -> tuple:
        return tuple(d.value for d in self.dropdowns)

    def set(self, **values: object) -> None:
        """Set fields by name (in order), e.g. ``set(area="arrakeen", sector=1, regular=3)``."""
        names = [spec.name for spec in self.form.fields]
        for name, value in values.items():
            self.dropdowns[names.index(name)].value = value

    def action(self):
        return self.form.actions[0] if self.form.is_button else self.form.pick(self.values)

    def _changed(self, index: int) -> None:
        if self._busy:
            return
        self._busy = True
        try:
            chosen = list(self.values[:index + 1])
            for later in range(index + 1, len(self.dropdowns)):
                options = self.form.options(later, chosen)
                dropdown = self.dropdowns[later]
                keep = dropdown.value if any(v == dropdown.value for _l, v in options) else options[0][1]
                dropdown.options = options
                dropdown.value = keep
                dropdown.disabled = len(options) == 1
                chosen.append(keep)
        finally:
            self._busy = False
        self._show_note()

    def _show_note(self) -> None:
        note = self.form.note(self.action())
        self.note.value = f"<span style='color:#6d4c41'>{escape(note)}</span>" if note else ""

    def box(self) -> widgets.Widget:
        if self.form.is_button:
            return self.button
        title = widgets.HTML(f"<b>{escape(self.form.title)}</b>")
        return widgets.VBox([title, *self.dropdowns, self.note, self.button],
                            layout=widgets.Layout(border="1px solid #d7ccc8", padding="4px", margin="2px 0"))


class PlayGame:
    """The play notebook's widget: a setup row, then the map, your House, the decision and the log."""

    def __init__(self, *, size: int = MAP_PIXELS) -> None:
        self.session: PlaySession | None = None
        self.decision_times: list[float] = []
        self.form_controls: list[FormControls] = []
        houses = [(house_label(h), h) for h in HOUSE_IDS]
        self.house = widgets.Dropdown(options=houses, value="atreides", description="Your House", style=_STYLE)
        self.opponents = widgets.SelectMultiple(options=houses, value=("harkonnen",), description="Opponents",
                                                rows=4, style=_STYLE)
        self.bot = widgets.Dropdown(options=[("heuristic bots", "heuristic"), ("random bots", "random")],
                                    value="heuristic", description="Bots", style=_STYLE)
        self.turns = widgets.BoundedIntText(value=3, min=0, max=50, description="Turn limit (0 = none)",
                                            style=_STYLE, layout=widgets.Layout(width="220px"))
        self.seed = widgets.BoundedIntText(value=0, min=0, max=10**9, description="Seed (0 = fresh)", style=_STYLE,
                                           layout=widgets.Layout(width="220px"))
        self.start_button = widgets.Button(description="New game", button_style="primary", icon="play")
        self.start_button.on_click(lambda _b: self.new_game())
        self.setup_message = widgets.HTML()
        self.map = SectorMapWidget(self._blank_state(), size=size, title="Dune — choose your House, then New game")
        self.status = widgets.HTML("<i>Choose your House and opponents, then press <b>New game</b>.</i>")
        self.house_panel = widgets.HTML()
        self.decision = widgets.VBox()
        self.explain = widgets.HTML()
        self.odds_chart = self._odds_figure()
        self.log = widgets.HTML()
        self.why_button = widgets.Button(description="Why?", icon="question", tooltip="the rules of this step")
        self.hint_button = widgets.Button(description="Hint", tooltip="what the bot would play")
        self.play_hint_button = widgets.Button(description="Play the hint", tooltip="play the bot's suggestion")
        self.play_hint_button.on_click(lambda _b: self.play_hint())
        self.undo_button = widgets.Button(description="Undo", icon="undo")
        self.save_button = widgets.Button(description="Save", icon="save")
        self.god = widgets.ToggleButton(description="God view (teacher)", value=False, icon="eye")
        self.why_button.on_click(lambda _b: self.show_why())
        self.hint_button.on_click(lambda _b: self.show_hint())
        self.undo_button.on_click(lambda _b: self.undo())
        self.save_button.on_click(lambda _b: self.save())
        self.god.observe(lambda _c: self._god_changed(), names="value")
        self.saved_path: str | None = None
        #: Called with this widget after each accepted decision (the lessons explain the outcome there).
        self.on_played: list = []
        self.save_folder = SAVE_FOLDER  # git ignores it (issue 16 item 8)
        self._set_tools(False)
        setup = widgets.HBox([widgets.VBox([self.house, self.bot]), self.opponents,
                              widgets.VBox([self.turns, self.seed, self.start_button])])
        tools = widgets.HBox([self.why_button, self.hint_button, self.play_hint_button, self.undo_button,
                              self.save_button, self.god], layout=widgets.Layout(flex_flow="row wrap"))
        right = widgets.VBox([self.status, self.house_panel, self.decision, tools, self.explain, self.odds_chart],
                             layout=widgets.Layout(width="470px"))
        self.box = widgets.VBox([setup, self.setup_message, widgets.HBox([self.map.figure, right]),
                                 widgets.HTML("<b>What happened</b>"), self.log])

    @staticmethod
    def _blank_state():
        from dunenb.engine import new_game

        return new_game(["atreides", "harkonnen"], seed=0)

    @staticmethod
    def _odds_figure():
        from bqplot import Axis, Bars, Figure, LinearScale, OrdinalScale

        x, y = OrdinalScale(), LinearScale(min=0)
        bars = Bars(x=[f"{10 * i}%" for i in range(10)], y=[0] * 10, scales={"x": x, "y": y}, colors=["#f57c00"])
        figure = Figure(marks=[bars], axes=[Axis(scale=x, label="your chance to win"),
                                            Axis(scale=y, side="left", label="opponent plans")],
                        title="Your plan against each plan the opponent could set",
                        layout=widgets.Layout(width="460px", height="220px", display="none"),
                        fig_margin={"top": 40, "bottom": 40, "left": 50, "right": 10})
        return figure

    def _show_odds(self, odds) -> None:
        with self.odds_chart.hold_sync():
            self.odds_chart.marks[0].y = odds.histogram() if odds is not None else [0] * 10
        self.odds_chart.layout.display = None if odds is not None else "none"

    def _set_tools(self, on: bool) -> None:
        for button in (self.why_button, self.hint_button, self.play_hint_button, self.undo_button, self.save_button,
                       self.god):
            button.disabled = not on

    # --- actions ---------------------------------------------------------------------------------------------
    def new_game(self) -> None:
        """Start a game from the setup controls (your House first, then the opponents)."""
        houses = [self.house.value, *[h for h in self.opponents.value if h != self.house.value]]
        if not 2 <= len(houses) <= 8:
            self.setup_message.value = "<span style='color:#c62828'>Choose 1 to 7 opponents.</span>"
            return
        self.setup_message.value = "<i>Setting up the table…</i>"
        # GAP-62: seed 0 draws a fresh 128-bit seed (secret play); a small seed replays a teaching game
        self.session = PlaySession(houses, self.house.value, bots=self.bot.value, seed=self.seed.value or None,
                                   turn_limit=self.turns.value or None)
        self.setup_message.value = (f"New game: {' '.join(_chip(h) for h in houses)} — you play "
                                    f"{_chip(self.house.value)}.")
        self.god.value = False
        self._set_tools(True)
        self.explain.value = ""
        self.refresh()

    def load(self, session: PlaySession, heading: str = "") -> None:
        """Show an existing session (a lesson's scene, a game built elsewhere)."""
        self.session = session
        self.setup_message.value = heading
        self.god.value = False
        self._set_tools(True)
        self.refresh()

    def play(self, controls: FormControls) -> Refusal | None:
        """Play the action of a form's controls; the bots reply, then the new position is shown."""
        assert self.session is not None  # a game has been started
        start = time.perf_counter()
        self.status.value = "<i>⏳ The bots are replying…</i>"
        refused = self.session.play(controls.action())
        if refused is not None:
            message = f"<span style='color:#c62828'><b>Refused:</b> {escape(refused.error.message)}</span>"
            self.explain.value = message + "<br>" + rules_html(refused.rules, "The rule")
            self.refresh(keep_explain=True)
            return refused
        self.explain.value = ""
        self.refresh()
        self.decision_times.append(time.perf_counter() - start)
        for callback in self.on_played:
            callback(self)
        return None

    def show_why(self) -> None:
        assert self.session is not None  # a game has been started
        self.explain.value = rules_html(self.session.why())

    def show_hint(self) -> None:
        assert self.session is not None  # a game has been started
        hint = self.session.hint()
        if hint is None:
            self.explain.value = "<i>Nothing to decide now.</i>"
            return
        text = f"<b>Hint:</b> the heuristic bot would play <i>{escape(hint.describe())}</i>."
        plan = next((c.action() for c in self.form_controls if c.kind == "plan"), None)
        odds = None if plan is None else self.session.plan_odds(plan)
        self._show_odds(odds)
        if plan is not None:
            if odds is not None:
                text += (f"<br><b>Your plan</b> ({escape(plan.describe())}) against the opponent's {odds.plans} "
                         f"possible plans wins with probability {odds.worst:.0%} at worst, {odds.mean:.0%} on "
                         f"average, {odds.best:.0%} at best (exact; traitor calls not counted).")
        self.explain.value = text

    def play_hint(self) -> Refusal | None:
        """Play what the heuristic bot suggests (as if its controls were set and clicked)."""
        assert self.session is not None  # a game has been started
        hint = self.session.hint()
        if hint is None:
            return None
        form = next((c.form for c in self.form_controls if hint in c.form.actions), None)
        if form is None:  # a suggestion outside the listed menu (a representative menu): play it as it is
            refused = self.session.play(hint)
            self.refresh(keep_explain=refused is not None)
            return refused
        controls = FormControls(form, self.play)
        if not form.is_button:
            controls.set(**{spec.name: spec.get(hint) for spec in form.fields})
        return self.play(controls)

    def undo(self) -> None:
        assert self.session is not None  # a game has been started
        if not self.session.undo():
            self.explain.value = "<i>Nothing to undo yet.</i>"
        self.refresh()

    def save(self, folder: str | None = None) -> str:
        """Save to ``folder`` (default :attr:`save_folder`, ``saved_games/``, which git ignores); the message says how
        to reopen the game in the replay notebook."""
        assert self.session is not None  # a game has been started
        path = self.session.save(folder or self.save_folder)
        self.saved_path = str(path)
        self.explain.value = (f"Saved to <code>{escape(str(path))}</code>. Reopen it in "
                              f"<code>03_replay_and_branch.ipynb</code> with <code>ReplayBrowser(load_game("
                              f"'{escape(str(path))}'))</code>, or on the command line with "
                              f"<code>dunenb replay {escape(str(path))}</code>.")
        return str(path)

    def _god_changed(self) -> None:
        if self.session is not None:
            self.session.god_view = self.god.value
            self.refresh(keep_explain=True)

    # --- display ---------------------------------------------------------------------------------------------
    def refresh(self, *, keep_explain: bool = False) -> None:
        assert self.session is not None  # a game has been started
        session = self.session
        seen = session.seen
        self.map.update(seen)
        me = _chip(session.human)
        seen_by = "god view" if session.god_view else f"{house_label(session.human)} view"
        self.map.figure.title = f"Dune — turn {seen.turn}, {seen.phase} ({seen_by})"
        self.status.value = f"<div style='font-size:14px'>{me} <b>What now?</b> {escape(session.what_now())}</div>"
        self.house_panel.value = self._house_html(seen)
        self.form_controls = [FormControls(form, self.play) for form in session.forms()]
        own = [c for c in self.form_controls if not c.form.anytime]
        anytime = [c for c in self.form_controls if c.form.anytime]
        buttons = [c.box() for c in own if c.form.is_button]
        parts: list[widgets.Widget] = [c.box() for c in own if not c.form.is_button]
        if buttons:
            parts.append(widgets.HBox(buttons))
        if anytime:
            extra = widgets.Accordion(children=[widgets.VBox([c.box() for c in anytime])])
            extra.set_title(0, "At any time: harvesters, ghola")
            extra.selected_index = None
            parts.append(extra)
        self.decision.children = parts
        self.undo_button.disabled = not session.can_undo
        lines = "".join(f"<div>{escape(line)}</div>" for line in session.log[-10:])
        self.log.value = f"<div style='font-size:12px;color:#4e342e;max-height:220px;overflow:auto'>{lines}</div>"
        if not keep_explain:
            self.explain.value = ""
            self._show_odds(None)

    def _house_html(self, seen) -> str:
        assert self.session is not None  # a game has been started
        hs = seen.houses[self.session.human]
        hand = ", ".join(card_name(c) for c in hs.hand) or "no cards"
        leaders = ", ".join(leader_name(lid, hs.house) for lid in hs.leaders) or "none"
        traitors = ", ".join(leader_name(lid, h) for h, lid in hs.traitors if lid != "hidden") or "none"
        table = house_table(seen)
        rows = "".join(
            f"<tr><td>{_chip(str(r.house))}</td><td>{r.spice}</td><td>{r.on_dune}</td><td>{r.reserve}</td>"
            f"<td>{r.cards}</td><td>{r.cities_owned}</td></tr>" for r in table.itertuples())
        return (f"<div style='font-size:12px'><b>Spice</b> {hs.spice} · <b>reserve</b> {hs.reserve.total} · "
                f"<b>harvesters</b> {hs.harvesters}<br><b>Hand</b>: {escape(hand)}<br><b>Leaders</b>: "
                f"{escape(leaders)}<br><b>Traitors</b>: {escape(traitors)}"
                "<table style='font-size:11px'><tr><th>House</th><th>spice</th><th>on Dune</th><th>reserve</th>"
                f"<th>cards</th><th>cities</th></tr>{rows}</table></div>")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.box)
