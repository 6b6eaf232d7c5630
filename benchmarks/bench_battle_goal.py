"""Issue 14 part 1: the goal-size battle (``benchmarks/goal_battle.json``: 10 tokens, 10 spice, 5 leaders and
4 cards a side, 2,970 plans a side). Prints min / median / max over fresh processes of the plan matrix alone and
of the win-margin equilibrium including its matrix (wall and CPU time, after the imports and the case load),
with each process's peak memory (``ru_maxrss``).

Run: ``.venv/bin/python benchmarks/bench_battle_goal.py [RUNS]``. The code measured is the ``dunenb`` found on
``PYTHONPATH``, so an older tree can be measured the same way. Figures only, no assertions.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

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


def run(what: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD, CASE, what], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def summary(values: list[float], unit: str) -> str:
    return f"min {min(values):8.3f}  median {statistics.median(values):8.3f}  max {max(values):8.3f} {unit}"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for what, label in (("matrix", "plan matrix 2,970 x 2,970"), ("win", "equilibrium (win) incl. matrix")):
        results = [run(what) for _ in range(runs)]
        print(f"{label:<34} wall   {summary([r['seconds'] for r in results], 's')}")
        print(f"{'':<34} cpu    {summary([r['cpu'] for r in results], 's')}")
        print(f"{'':<34} maxrss {summary([r['maxrss_mb'] for r in results], 'MB')}")
        if what != "matrix":
            first = results[0]
            print(f"{'':<34} value {first['value']!r}; support {len(first['first'])} / {len(first['second'])}")


if __name__ == "__main__":
    main()
