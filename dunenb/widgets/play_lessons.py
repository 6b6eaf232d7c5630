"""Guided lessons (issue 16 item 4): pick a scene, decide, read what happened and the rules that explain it.

The scenes are :mod:`dunenb.lessons`; the board, the decision controls, "why?", the hint and undo are the play
widget's (:class:`dunenb.widgets.play_game.PlayGame`).
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from dunenb.lessons import LESSONS, Lesson, build, outcome
from dunenb.render.layout import MAP_PIXELS
from dunenb.widgets.play_game import PlayGame, rules_html


class LessonPlayer:
    """A lesson chooser above a play widget; after the learner's decision, the outcome and its rules."""

    def __init__(self, *, size: int = MAP_PIXELS) -> None:
        self.game = PlayGame(size=size)
        self.game.on_played.append(lambda _game: self._explain())
        self.choice = widgets.Dropdown(options=[(lesson.title, key) for key, lesson in LESSONS.items()],
                                       description="Lesson", layout=widgets.Layout(width="380px"))
        self.start_button = widgets.Button(description="Start lesson", button_style="primary", icon="graduation-cap")
        self.start_button.on_click(lambda _b: self.start())
        self.question = widgets.HTML("<i>Pick a lesson and press <b>Start lesson</b>.</i>")
        self.answer = widgets.HTML()
        self.lesson: Lesson | None = None
        self._since = 0
        self.box = widgets.VBox([widgets.HBox([self.choice, self.start_button]), self.question, self.answer,
                                 self.game.box])
        self.game.box.children = self.game.box.children[2:]  # no new-game row: the lesson sets the table

    def start(self, key: str | None = None) -> None:
        """Build the scene and stop at the learner's decision."""
        self.lesson = LESSONS[key or self.choice.value]
        self.question.value = f"<i>⏳ Setting up “{escape(self.lesson.title)}”…</i>"
        session = build(self.lesson)
        self._since = len(session.log)
        self.game.load(session, "")
        self.question.value = (f"<div style='font-size:14px;background:#fff8e1;padding:6px;border-left:4px solid "
                               f"#f57c00'><b>{escape(self.lesson.title)}.</b> {escape(self.lesson.question)}</div>")
        self.answer.value = ""

    def _explain(self) -> None:
        if self.lesson is None:
            return
        assert self.game.session is not None  # a lesson is shown in a game
        lines, rules = outcome(self.lesson, self.game.session, self._since)
        happened = "".join(f"<li>{escape(line)}</li>" for line in lines[-8:])
        self.answer.value = (f"<div style='background:#e8f5e9;padding:6px;border-left:4px solid #2e7d32'>"
                             f"<b>What happened</b><ul style='margin:2px 0 2px 14px;padding:0'>{happened}</ul>"
                             f"{rules_html(rules, 'The rules at work')}</div>")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.box)
