"""Powers in the record (issue 10 item 6): every event a power causes names the power's ID in ``data["powers"]``,
and ``dunenb simulate`` writes ``DIR/powers.csv`` (``game, turn, house, power, count``)."""

from __future__ import annotations

import csv
import dataclasses
import json
from collections import Counter

from helpers_game import place
from test_powers_houses import board, movement_start, to_slot

from dunenb.actions import Pass, action_from_dict
from dunenb.battle.leader_mind import is_leader_power
from dunenb.cli import main
from dunenb.engine import apply_action, initial_state
from dunenb.rules.common import destroy_in_sector
from dunenb.rules.movement import Land
from dunenb.ruleset import HOUSE_IDS
from dunenb.saves import load_game
from dunenb.simulate import POWER_COLUMNS, powers_acted, simulate

#: events of a power's own action or decision, and the power each must name
POWER_EVENTS = {  # event kind -> the powers that may cause it
    "storm-token": ("FREMEN-P1",), "emerge": ("FREMEN-P4",), "local-storm-announced": ("FREMEN-M1",),
    "prediction": ("BG-P6",), "peace": ("BG-P3",), "war": ("BG-P3",), "voice": ("BG-P1", "ATREIDES-M2"),
    "prescience": ("ATREIDES-P1", "GUILD-M2"), "advisor": ("BG-P2",), "ride": ("FREMEN-P2",),
    "slot-choice": ("GUILD-P3",), "imperial-fill": ("EMPEROR-M1",),
}
#: event kinds that secondary leaders' powers also cause since the leader-power merge: their Voices and questions
#: (leaders.md K-11, K-12; e.g. GUILD-L01-c asks like GUILD-M2), which name the leader's power instead
LEADER_GIVEN = ("voice", "prescience")
SETTINGS = {"games": 2, "houses": list(HOUSE_IDS), "bots": ["random"], "seed": 21, "turn_limit": 3, "progress": False}


def test_FREMEN_P3_the_storm_losses_event_names_the_power_and_the_fremen_used_it():
    before = place(board(["fremen", "atreides"]), "fremen", "grande-etendue", 17, 5, 2)
    before = dataclasses.replace(before, events=())
    after = destroy_in_sector(before, 17, cause="main storm")
    assert [e.data["powers"] for e in after.events if e.data.get("house") == "fremen"] == [("FREMEN-P3",)]
    assert powers_acted(before, after) == [("fremen", "FREMEN-P3")]


def test_GUILD_P1_a_landing_paid_to_the_guild_names_the_power_used_by_the_guild():
    state = to_slot(movement_start(board(["atreides", "guild"], spice={"atreides": 20})), "atreides")
    announced = apply_action(state, Land("atreides", "grande-etendue", 17, 3))
    assert announced.pending.kind == "karama-window"  # GAP-63: KARAMA-14 could block the payment: a pass
    after = apply_action(announced, Pass("atreides"))
    land = next(e for e in after.events if e.kind == "land")
    assert land.data["payee"] == "guild" and "GUILD-P1" in land.data["powers"]
    assert ("guild", "GUILD-P1") in powers_acted(announced, after)  # the Guild acted, not the lander


def _replayed_uses(folder, games):
    """Recount powers.csv from the saves: (game, turn, power) -> events naming the power."""
    counts = Counter()
    seen_kinds = set()
    lends = set()  # (game, turn, borrower, power) of the ALLIANCE-12 lends in force
    for game in range(games):
        save = json.loads((folder / f"game_{game:04d}.json").read_text())
        state = initial_state(load_game(folder / f"game_{game:04d}.json").config)
        for node in save["nodes"]:
            before, state = state, apply_action(state, action_from_dict(node["action"]))
            lends.update((game, before.turn, lend.borrower, lend.power)
                         for lend in before.lent_powers + state.lent_powers)
            for event in state.events:
                if event.kind in POWER_EVENTS:
                    named, allowed = set(event.data.get("powers", ())), set(POWER_EVENTS[event.kind])
                    if event.kind in LEADER_GIVEN:  # or a secondary leader's Voice/question (K-11, K-12)
                        allowed |= {power for power in named if is_leader_power(power)}
                    assert allowed & named, event
                    seen_kinds.add(event.kind)
                for power in event.data.get("powers", ()):
                    counts[(game, before.turn, power)] += 1
    return counts, seen_kinds, lends


def test_simulate_writes_powers_csv_one_row_per_game_turn_house_and_power(tmp_path):
    simulate(**SETTINGS, out=tmp_path)
    with open(tmp_path / "powers.csv", newline="") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == POWER_COLUMNS == ["game", "turn", "house", "power", "count"]
        rows = list(reader)
    assert rows, "random bots with mixed Houses use some powers in 3 turns"
    keys = [(r["game"], r["turn"], r["house"], r["power"]) for r in rows]
    assert len(keys) == len(set(keys))  # one row per game, turn, house and power
    summed = Counter()
    for r in rows:
        assert int(r["count"]) >= 1
        summed[(int(r["game"]), int(r["turn"]), r["power"])] += int(r["count"])
    counts, seen_kinds, lends = _replayed_uses(tmp_path, SETTINGS["games"])
    assert summed == counts
    # these power events were met and named their power (seed 21, all eight Houses)
    assert seen_kinds >= {"storm-token", "prediction", "emerge", "local-storm-announced", "voice", "prescience"}
    for r in rows:  # the House that used a House power is its holder: its owner, or the borrower of a lend in
        # force (ALLIANCE-12: since the leader-power merge, seed 21's random bots lend GUILD-P1 in game 0)
        lent = (int(r["game"]), int(r["turn"]), r["house"], r["power"]) in lends
        if r["power"].startswith("GUILD-"):
            assert r["house"] == "guild" or lent, r
        if r["power"].startswith("FREMEN-"):
            assert r["house"] == "fremen" or lent, r


def test_simulate_cli_writes_powers_csv_beside_the_summary(tmp_path, capsys):
    out = tmp_path / "sim"
    assert main(["simulate", "--games", "1", "--houses", "fremen,guild,bene-gesserit", "--bots", "random",
                 "--seed", "4", "--turn-limit", "2", "--out", str(out)]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in out.iterdir()) == ["game_0000.json", "powers.csv", "summary.csv"]
    header, *rows = (out / "powers.csv").read_text().splitlines()
    assert header == "game,turn,house,power,count"
    assert {row.split(",")[3] for row in rows} >= {"FREMEN-P1"}  # the Fremen draw storm tokens every turn


def test_leader_powers_that_act_on_the_wheels_are_counted_in_powers_csv(tmp_path):
    """Issue 11 item 6: a battle's ``battle-powers`` events name the leader (and House) powers that changed a
    value, for the House whose wheel they acted on; ``powers.csv`` counts them like the House powers."""
    simulate(games=1, houses=["fremen", "harkonnen", "atreides", "dispersion"], bots=["heuristic"], seed=5,
             turn_limit=2, progress=False, out=tmp_path)
    with open(tmp_path / "powers.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    leader_rows = [r for r in rows if "-L" in r["power"]]
    assert leader_rows, "heuristic bots with these Houses fight with leader powers in 2 turns (seed 5)"
    save = json.loads((tmp_path / "game_0000.json").read_text())
    state = initial_state(load_game(tmp_path / "game_0000.json").config)
    named: Counter = Counter()
    off_wheel: Counter = Counter()  # leader powers named by other events than a wheel's battle-powers
    for node in save["nodes"]:
        state = apply_action(state, action_from_dict(node["action"]))
        for event in state.events:
            if event.kind == "battle-powers":
                assert event.data["powers"] and event.data["house"] in save["config"]["houses"]
                named.update((event.data["house"], p) for p in event.data["powers"])
            else:
                off_wheel.update((event.data.get("house"), p) for p in event.data.get("powers", ()) if "-L" in p)
    counted: Counter = Counter()
    for r in leader_rows:
        counted[(r["house"], r["power"])] += int(r["count"])
    on_wheels = [key for key in named if "-L" in key[1]]
    assert on_wheels, "leader powers act on the wheels in these 2 turns (seed 5)"
    for key in on_wheels:  # each wheel's leader power is counted in powers.csv for the House of the wheel
        assert counted[key] >= named[key], key
    for r in leader_rows:
        key = (r["house"], r["power"])
        if not off_wheel[key]:
            assert named[key] >= int(r["count"]), r
        else:  # since the leader-power merge, leader powers also act off the wheels (K-11 Voices and their d10
            # rolls, K-12 questions, disclosures, other leaders' steps): those rows are the events that name them
            assert named[key] + off_wheel[key] >= counted[key], r
