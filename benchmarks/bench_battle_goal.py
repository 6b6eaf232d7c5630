"""Issue 14 part 1: the goal-size battle (``benchmarks/goal_battle.json``: 10 tokens, 10 spice, 5 leaders and
4 cards a side: 2,970 plans a side with the leader powers off, 3,234 x 3,630 with them). Prints min / median /
max over fresh processes of the plan matrix alone (with its first DataFrame, ``win_first``) and of the
win-margin equilibrium including its matrix (wall and CPU time from after the case load: the analysis imports,
numpy, pandas for the DataFrame and scipy for the LP, are counted), with each process's peak memory (``ru_maxrss``).

Issue 11 asks the same figures with the leaders' powers on and off (within 2x): "off" is the same case with
each named leader replaced by an inline leader of the same name and strength, who has no powers (the case
format's inline leader), so the engine runs unchanged and only the powers differ.

Run: ``.venv/bin/python benchmarks/bench_battle_goal.py [RUNS] [on|off|both]`` (default 5 runs, both). The code
measured is the ``dunenb`` found on ``PYTHONPATH``, so an older tree can be measured the same way. Figures only,
no assertions.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from typing import Any

CASE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "goal_battle.json")

_CHILD = r"""
import json, resource, sys, time
from dunenb.battle.case import load_case
case = load_case(sys.argv[1])
what = sys.argv[2]
usage = resource.getrusage(resource.RUSAGE_SELF)
cpu0 = usage.ru_utime + usage.ru_stime
start = time.perf_counter()
if what == "matrix":
    from dunenb.analysis.battle_odds import plan_matrix
    matrix = plan_matrix(case)
    shape = matrix.win_first.shape
    result = {"shape": list(shape)}
else:
    from dunenb.analysis.battle_odds import optimal_plans
    eq = optimal_plans(case, metric=what)
    result = {"value": eq.value, "first": sorted(eq.first.index), "second": sorted(eq.second.index),
              "p_first": eq.first_win_probability}
result["seconds"] = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
result["cpu"] = usage.ru_utime + usage.ru_stime - cpu0
result["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(result))
"""


def run(what: str, case: str = CASE) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD, case, what], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def powers_off(raw: dict[str, Any]) -> dict[str, Any]:
    """The case with every named leader an inline leader of the same name and strength (no powers)."""
    from dunenb.battle.roster import load_roster

    roster = load_roster()
    off = json.loads(json.dumps(raw))
    for side in off["sides"]:
        def inline(name: str, house: str = side["house"]) -> dict[str, Any]:
            leader = roster.find(name, house=house)
            return {"name": leader.name, "strength": leader.strength}
        side["leader"] = inline(side["leader"])
        side["leaders"] = [inline(name) for name in side["leaders"]]
    off["title"] = raw.get("title", "") + " (leader powers off)"
    return off


def summary(values: list[float], unit: str) -> str:
    return f"min {min(values):8.3f}  median {statistics.median(values):8.3f}  max {max(values):8.3f} {unit}"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    modes = ("on", "off") if len(sys.argv) <= 2 or sys.argv[2] == "both" else (sys.argv[2],)
    with open(CASE, encoding="utf-8") as handle:
        raw = json.load(handle)
    with tempfile.TemporaryDirectory() as folder:
        off_case = os.path.join(folder, "goal_battle_powers_off.json")
        with open(off_case, "w", encoding="utf-8") as handle:
            json.dump(powers_off(raw), handle)
        medians: dict[tuple[str, str], float] = {}
        for mode in modes:
            print(f"leader powers {mode}")
            medians.update(measure(runs, mode, CASE if mode == "on" else off_case))
    if len(modes) == 2:
        for what in ("matrix", "win"):
            print(f"{what}: cpu median powers on / off = {medians[what, 'on'] / medians[what, 'off']:.2f}")


def measure(runs: int, mode: str, case: str) -> dict[tuple[str, str], float]:
    medians = {}
    for what, label in (("matrix", "plan matrix"), ("win", "equilibrium (win) incl. matrix")):
        results = [run(what, case) for _ in range(runs)]
        if what == "matrix":  # 2,970 x 2,970 with the powers off; the leaders' extra slots add plans
            label += " {:,} x {:,}".format(*results[0]["shape"])
        medians[what, mode] = statistics.median(r["cpu"] for r in results)
        print(f"{label:<34} wall   {summary([r['seconds'] for r in results], 's')}")
        print(f"{'':<34} cpu    {summary([r['cpu'] for r in results], 's')}")
        print(f"{'':<34} maxrss {summary([r['maxrss_mb'] for r in results], 'MB')}")
        if what != "matrix":
            first = results[0]
            print(f"{'':<34} value {first['value']!r}; support {len(first['first'])} / {len(first['second'])}")
    return medians


if __name__ == "__main__":
    main()
