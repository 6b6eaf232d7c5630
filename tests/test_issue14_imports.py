"""Issue 14: the rules modules import names at their top where the two modules do not import each other (instead
of an import run at every call of a hot function, dunenb/rules/__init__.py), so each module of such a pair must
still import on its own, first (no import cycle made by the order in which they load). All 211 modules pass the
same check (about a minute here); the test takes the pairs whose imports moved to the top, and their partners."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import dunenb

MODULES = sorted(name for _, name, _ in pkgutil.walk_packages(dunenb.__path__, prefix="dunenb."))
#: importer -> the module it now imports at its top (issue 14: hot functions' imports moved there)
TOP_IMPORTS = {
    "dunenb.rules.anytime": "dunenb.rules.bidding",
    "dunenb.rules.alliances": "dunenb.rules.bidding",
    "dunenb.rules.leader_pre_battle": "dunenb.rules.traitors",
    "dunenb.rules.pre_battle": "dunenb.rules.leader_pre_battle",
    "dunenb.battle.leader_weapons": "dunenb.battle.cards",
    "dunenb.rules.leader_deals": "dunenb.rules.battle_powers",
    "dunenb.rules.karama_window": "dunenb.battle.leader_karama",
    "dunenb.rules.battle_powers": "dunenb.rules.leader_karama",  # and dunenb.battle.powers
    "dunenb.bots.battle_planner": "dunenb.rules.battle_phase",  # and seven other rules and battle modules
    "dunenb.bots.pre_battle_choice": "dunenb.rules.pre_battle",
    "dunenb.bots.leader_deals_choice": "dunenb.rules.leader_deals",
    "dunenb.rules.truth_trance": "dunenb.rules.pre_battle",
}

#: In one throwaway interpreter: for each module, forget every dunenb module loaded so far, then import it first.
_EACH_FIRST = """
import importlib, sys
failed = []
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "dunenb" or m.startswith("dunenb.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as error:
        failed.append(f"{name}: {type(error).__name__}: {error}")
print(failed)
"""


def test_issue14_each_module_of_a_top_import_imports_first() -> None:
    names = sorted(set(TOP_IMPORTS) | set(TOP_IMPORTS.values()) | {"dunenb.battle.powers", "dunenb.bots.heuristic"})
    assert set(names) <= set(MODULES)
    result = subprocess.run([sys.executable, "-c", _EACH_FIRST, *names], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_issue14_the_check_finds_a_cycle_broken_by_a_top_import(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The check above bites: two modules importing names from each other at their top fail when imported first."""
    (tmp_path / "cyc").mkdir()
    (tmp_path / "cyc" / "__init__.py").write_text("")
    (tmp_path / "cyc" / "a.py").write_text("from cyc.b import g\n\ndef f():\n    return g\n")
    (tmp_path / "cyc" / "b.py").write_text("from cyc.a import f\n\ndef g():\n    return f\n")
    code = _EACH_FIRST.replace('m == "dunenb" or m.startswith("dunenb.")', 'm == "cyc" or m.startswith("cyc.")')
    result = subprocess.run([sys.executable, "-c", code, "cyc.a"], capture_output=True, text=True, check=True,
                            cwd=tmp_path)
    assert "cyc.a: ImportError" in result.stdout
