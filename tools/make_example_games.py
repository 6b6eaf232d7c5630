"""Regenerate the example saved games in data/games/ (run after any change to the rules' action sequence).

* ``teaching_game.json``: a hand-set opening for a class — the 3d10 rolls, start positions and initial storm
  dials are chosen, the first two spice cards are the seed's worked example (SPICE-5: Bassin du Bouclier 6,
  Grande Etendue 10) — then heuristic bots play 8 turns.
* ``six_houses_heuristic.json``: six heuristic bots, 15-turn limit (or victory), target 4 (VICTORY-1: 2 to 4
  with more than five Houses).
* ``four_houses_random.json``: four random bots with the secondary storm, 6 turns.

Dune: Imperium saves (``dunenb.imperium/1``, issue 13) go to ``data/games/imperium/``:

* ``four_leaders_heuristic.json``: Paul, the Baron, Helena and Leto (every power of IMP-GAP-33..36 in play),
  heuristic bots, a whole game;
* ``two_players_random.json``: Rabban against Ariana Thorvald, random bots, a whole game;
* ``three_players_round3.json``: Memnon, Ilban and Paul, heuristic bots, stopped at the start of round 3 (a
  position to branch from).

``python tools/make_example_games.py imperium`` rewrites only the Imperium saves.
It ends by pinning the new saves' final state digests for the golden test (``tools/pin_game_digests.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from dunenb.actions import ChooseStart, DrawSpiceCard, InitialStormDial, Roll3d10
from dunenb.bots import make_bot
from dunenb.engine import apply_action, initial_state, make_config
from dunenb.imperium import bots as imperium_bots
from dunenb.imperium import engine as imperium_engine
from dunenb.imperium.save import save_game as save_imperium
from dunenb.imperium.simulate import play_game as play_imperium
from dunenb.jsonio import write_json_atomic
from dunenb.simulate import line_to_save, play_game

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"
IMPERIUM_GAMES = GAMES / "imperium"


def save_line(name: str, config, actions) -> None:
    write_json_atomic(GAMES / name, line_to_save(config, actions))
    print(f"wrote {name}: {len(actions)} actions")


def teaching_game() -> None:
    houses = ["atreides", "harkonnen", "fremen", "emperor"]
    config = make_config(houses, seed=1979, turn_limit=8)
    chosen = {
        "roll": {"atreides": 12, "harkonnen": 21, "fremen": 17, "emperor": 9},
        "start": {"emperor": 3, "atreides": 8, "fremen": 14, "harkonnen": 20},
        "storm-dial": (4, 6),
        "spice": {1: "bassin-du-bouclier/6", 2: "grande-etendue/10"},
    }
    state = initial_state(config)
    actions = []
    bots = {h: make_bot("heuristic", seed=7) for h in houses}
    from dunenb.engine import sample_chance

    while state.pending is not None:
        kind, detail = state.pending.kind, state.pending.detail
        if kind == "roll" and len(state.houses[detail["house"]].rolls) == 0:
            action = Roll3d10(detail["house"], chosen["roll"][detail["house"]])
        elif kind == "start":
            action = ChooseStart(state.pending.actor, chosen["start"][state.pending.actor])
        elif kind == "storm-dial":
            action = InitialStormDial(detail["storm"], state.storm_dialers[detail["index"]],
                                      chosen["storm-dial"][detail["index"]])
        elif kind == "spice" and detail.get("setup"):
            action = DrawSpiceCard(detail["pile"], chosen["spice"][detail["pile"]])
        elif state.pending.actor == "chance":
            action = sample_chance(state)
        else:
            action = bots[state.pending.actor].choose(state)
        state = apply_action(state, action)
        actions.append(action)
    save_line("teaching_game.json", config, actions)


def bot_game(name: str, houses: list[str], bot: str, *, seed: int, turn_limit: int, **options) -> None:
    config = make_config(houses, seed=seed, turn_limit=turn_limit, **options)
    actions, _ = play_game(config, {h: make_bot(bot, seed=seed + k) for k, h in enumerate(houses)})
    save_line(name, config, actions)


def imperium_game(name: str, leaders: list[str], bot: str, *, seed: int, stop_round: int | None = None) -> None:
    """A seeded Imperium bot game (whole, or stopped when ``stop_round`` starts) saved in data/games/imperium/."""
    names = [f"P{k + 1}" for k in range(len(leaders))]
    bots = [imperium_bots.make_bot(bot, seed=seed + k) for k in range(len(leaders))]
    if stop_round is None:
        state = play_imperium(names, seed, bots, leaders)
    else:
        state = imperium_engine.new_game(names, seed, leaders)
        while state.round < stop_round or state.is_chance:
            action = imperium_engine.propose_chance(state) if state.is_chance else bots[state.actor].choose(state)
            state = imperium_engine.apply_action(state, action)
    IMPERIUM_GAMES.mkdir(exist_ok=True)
    save_imperium(IMPERIUM_GAMES / name, state)
    print(f"wrote imperium/{name}: {len(state.actions)} actions")


def imperium_games() -> None:
    for old in IMPERIUM_GAMES.glob("*.json"):
        old.unlink()
    imperium_game("four_leaders_heuristic.json",
                  ["paul_atreides", "vladimir_harkonnen", "helena_richese", "leto_atreides"], "heuristic", seed=4)
    imperium_game("two_players_random.json", ["glossu_rabban", "ariana_thorvald"], "random", seed=8)
    imperium_game("three_players_round3.json", ["memnon_thorvald", "ilban_richese", "paul_atreides"], "heuristic",
                  seed=21, stop_round=3)


if __name__ == "__main__":
    if sys.argv[1:] == ["imperium"]:
        imperium_games()
        sys.exit(0)
    imperium_games()
    for old in GAMES.glob("*.json"):
        old.unlink()
    teaching_game()
    bot_game("six_houses_heuristic.json", ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"],
             "heuristic", seed=42, turn_limit=15, victory_target=4)
    bot_game("four_houses_random.json", ["dispersion", "bene-tleilax", "guild", "harkonnen"], "random", seed=5,
             turn_limit=6, secondary_storm=True)
    import pin_game_digests  # the golden test's digests follow the new saves (issue 14 item 6)

    pin_game_digests.main()
