"""Play-notebook figures (issue 16 "Measured"): prints measurements, asserts nothing.

* one decision through the widgets (button click -> bots reply -> new position and controls shown), median and
  worst, over whole games played by a scripted learner;
* a bot reply during play (the heuristic bot's choice), median and worst;
* the battle-plan hint (exact odds of a plan against the opponent's possible plans).
"""

from __future__ import annotations

import statistics
import time

from dunenb.widgets.play_game import PlayGame

TABLES = ((("atreides", "harkonnen"), 3), (("atreides", "harkonnen", "emperor", "guild"), 4),
          (("fremen", "atreides", "harkonnen", "emperor", "guild", "bene-gesserit"), 6))


def play_one(houses: tuple[str, ...], seed: int, turns: int) -> tuple[list[float], list[float], list[float]]:
    game = PlayGame(size=300)
    game.house.value = houses[0]
    game.opponents.value = houses[1:]
    game.seed.value, game.turns.value = seed, turns
    game.start_button.click()
    hints = []
    steps = 0
    while not game.session.is_over and steps < 2000:
        own = [c for c in game.form_controls if not c.form.anytime]
        buttons = [c for c in own if c.form.is_button]
        forms = [c for c in own if not c.form.is_button]
        pick = buttons[0] if buttons and (steps % 2 or not forms) else forms[0]
        if pick.kind == "plan":
            start = time.perf_counter()
            game.hint_button.click()
            hints.append(time.perf_counter() - start)
        pick.button.click()
        steps += 1
    return game.decision_times, game.session.bot_times, hints


def _line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: none measured"
    return (f"{name}: median {statistics.median(values) * 1000:.1f} ms, worst {max(values) * 1000:.0f} ms "
            f"over {len(values)}")


def plan_hints(repeats: int = 5) -> list[float]:
    """The hint at the Karama lesson's battle plan (the bot's choice plus the odds of the shown plan)."""
    from dunenb.widgets.play_lessons import LessonPlayer

    player = LessonPlayer(size=300)
    player.start("karama")
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        player.game.hint_button.click()
        times.append(time.perf_counter() - start)
    print("  " + player.game.explain.value.split("<br>")[-1][:160])
    return times


def main() -> None:
    print(_line("hint on a battle plan (bot choice + exact odds), Karama lesson", plan_hints()))
    for houses, seed in TABLES:
        decisions, bots, hints = play_one(houses, seed, turns=3)
        print(f"{len(houses)} Houses, you play {houses[0]}, 3 turns:")
        print("  " + _line("decision (click -> new position shown)", decisions))
        print("  " + _line("bot reply (heuristic)", bots))
        print("  " + _line("hint on a battle plan (with exact odds)", hints))


if __name__ == "__main__":
    main()
