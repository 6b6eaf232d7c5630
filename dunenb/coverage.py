"""``dunenb rules coverage``: how far each rule ID of the specs is tested or implemented.

The list of IDs is the specs' (``data/spec_ids.json``, see ``tools/extract_spec_ids.py``), never the code's, so an ID
nothing mentions still shows up, as ``not-yet``. Each ID gets one status, decided in this order:

1. ``tested``: at least one test function of ``tests/*.py`` names it (the tests are listed as
   ``tests/file.py::test_name``);
2. the ``status`` of its entry in ``data/powers.json``, when that entry has one (with its ``reason``), or
   ``implemented`` when the entry says where it is ``used_by``; a Karama use (KARAMA-n) takes the ``status`` and
   ``reason`` of its declaration under the power it blocks (``not-yet`` by default, as the registry reads it);
3. ``implemented``: the package's code (``dunenb/**/*.py``) or its rules data (``data/*.json``,
   ``data/decisions/*.json``) cites it; the reason names the files;
4. the status and reason of ``data/coverage_notes.json`` (``no-mechanics`` for advice and table talk, ``not-yet``
   for what is still to do), for the ID itself, else for its group (``group_defaults``);
5. otherwise ``not-yet``, "no test or code names it yet".

How a test names an ID (the matching rules), for every test function (``test*``) of ``tests/*.py`` except in
files holding the line ``# rules-coverage: skip-file`` (the tests of the reference and of this report, which
name IDs as sample data):

* its **name**, in any case: the words between underscores, 2 to 4 of them in a row, spell the ID with ``_`` for
  ``-`` (``test_move_4_...`` and ``test_MOVE_4_...`` name MOVE-4); a last word ending in a digit and one letter is a
  lettered part (``test_move_4b_...`` names MOVE-4, unless ``move_4b`` is an ID of its own); ``test_move_41`` does not;
* its **docstring or body** (comments and decorators included, so a ``pytest.param(..., id="FREMEN-L01-a")``
  names FREMEN-L01-a): the ID as the specs write it (upper case), not glued to a letter,
  digit or hyphen before it (``CARD-ATOMICS-2`` does not name ``ATOMICS-2``); a trailing lowercase letter is a
  lettered part (``MOVE-4b``) unless that spelling is an ID of its own (``GAP-26b``); extra hyphenated words after
  the ID are dropped (``FREMEN-P1-related`` names FREMEN-P1).

>>> slugs = slug_map(["MOVE-4", "STORM-1", "MAP-7"])
>>> sorted(ids_in_name("test_MAP_7_move_4b_whole_territories", slugs))
['MAP-7', 'MOVE-4']
>>> ids_in_name("test_storm_12_secondary", slugs)
set()
>>> sorted(ids_in_text("GAP-26b, not CARD-ATOMICS-2; MOVE-4b", {"GAP-26", "GAP-26b", "ATOMICS-2", "MOVE-4"}))
['GAP-26b', 'MOVE-4']
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from dunenb.errors import InputError, RulesDataError
from dunenb.rules_reference import spec_ids

PACKAGE_DIR = Path(__file__).resolve().parent
STATUSES = ("tested", "implemented", "not-yet", "no-mechanics")
#: A line that keeps a test file out of the report: its tests name IDs as data, not as rules they check.
SKIP_FILE = "# rules-coverage: skip-file"
#: Modules that list or explain rule IDs without implementing them.
NOT_IMPLEMENTATIONS = {"rules_reference.py", "reference_leaders.py", "coverage.py", "reference_cli.py",
                       "spec_ids.json", "rules_reference.json", "coverage_notes.json",
                       "leaders.json"}  # leaders.json declares the leaders' powers; it says none is applied yet


@dataclass
class Coverage:
    """One row of the report."""

    id: str
    group: str
    status: str
    tests: list[str] = field(default_factory=list)
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "group": self.group, "status": self.status, "tests": self.tests,
                "reason": self.reason}


def ids_in_name(name: str, slugs: dict[str, str]) -> set[str]:
    """The spec IDs a test function's name names; ``slugs`` maps ``move_4`` to ``MOVE-4`` (see :func:`slug_map`)."""
    words = name.lower().split("_")
    found = set()
    for start in range(1, len(words)):
        for size in (2, 3, 4):
            slug = "_".join(words[start:start + size])
            if len(words) - start < size:
                break
            if slug in slugs:
                found.add(slugs[slug])
            elif re.fullmatch(r".*\d[a-z]", slug) and slug[:-1] in slugs:
                found.add(slugs[slug[:-1]])  # a lettered part: move_4b names MOVE-4
    return found


def slug_map(all_ids: Iterable[str]) -> dict[str, str]:
    """``{"move_4": "MOVE-4", ...}``: the spelling of each ID in a function name."""
    return {rule_id.lower().replace("-", "_"): rule_id for rule_id in all_ids}


ID_IN_TEXT = re.compile(r"(?<![A-Za-z0-9-])([A-Z][A-Z0-9]*(?:-[A-Za-z0-9]+)+)")


def ids_in_text(text: str, all_ids: set[str]) -> set[str]:
    """The spec IDs written in ``text`` as the specs write them (upper case, see the module's matching rules)."""
    found = set()
    for match in ID_IN_TEXT.finditer(text):
        word = match.group(1)
        while word:
            if word in all_ids:
                found.add(word)
                break
            if re.fullmatch(r".*\d[a-z]", word) and word[:-1] in all_ids:
                found.add(word[:-1])
                break
            word = word.rpartition("-")[0] if "-" in word.rpartition("-")[0] else ""
    return found


def test_functions(tests_dir: Path) -> list[tuple[str, str, str]]:
    """``(tests/file.py::test_name, name, docstring + body source)`` for every test function (and method)."""
    found = []
    for path in sorted(tests_dir.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        if SKIP_FILE in lines:
            continue
        try:
            tree = ast.parse(source)
        except SyntaxError as error:
            raise InputError("rules/coverage-test-file", f"{path}: cannot be parsed: {error}") from None
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                first = min([node.lineno] + [decorator.lineno for decorator in node.decorator_list])
                body = "\n".join(lines[first - 1:node.end_lineno])  # decorators (parametrize ids), comments too
                found.append((f"tests/{path.name}::{node.name}", node.name, body))
    return found


def code_citations(package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    """Relative path → text of every module of the package, and of every rules data file, that may implement rules
    (the reference, the spec list and these notes are left out)."""
    sources = {f"dunenb/{path.relative_to(package_dir).as_posix()}": path
               for path in sorted(package_dir.rglob("*.py")) if path.name not in NOT_IMPLEMENTATIONS}
    data = resources.files("dunenb.data")
    for name in sorted(entry.name for entry in data.iterdir() if entry.name.endswith(".json")):
        if name not in NOT_IMPLEMENTATIONS:
            sources[f"data/{name}"] = Path(str(data.joinpath(name)))
    decisions = data.joinpath("decisions")
    if decisions.is_dir():
        for entry in sorted(decisions.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".json"):
                sources[f"data/decisions/{entry.name}"] = Path(str(entry))
    return {where: path.read_text(encoding="utf-8") for where, path in sources.items()}


def _read_data(name: str) -> Any:
    try:
        return json.loads(resources.files("dunenb.data").joinpath(name).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise RulesDataError("rules/coverage-data", f"cannot read data/{name}: {error}") from None


def power_statuses() -> dict[str, tuple[str, str]]:
    """ID → (status, reason) for the entries of ``data/powers.json`` that carry a ``status``."""
    data = _read_data("powers.json") or {}
    result = {}
    for power in data.get("powers", []):
        status = power.get("status") or ("implemented" if power.get("used_by") else None)
        if status is None:
            continue
        if status not in STATUSES:
            raise RulesDataError("rules/coverage-status",
                                 f"data/powers.json {power.get('id')}: status {status!r}; allowed: {STATUSES}")
        result[power["id"]] = (status, str(power.get("reason") or power.get("used_by") or ""))
    for power in data.get("powers", []):
        for use in power.get("karama", []):
            status = use.get("status", "not-yet")
            if status not in STATUSES:
                raise RulesDataError("rules/coverage-status", f"data/powers.json {power.get('id')} {use.get('id')}: "
                                     f"status {status!r}; allowed: {STATUSES}")
            reason = use.get("reason") or (f"blocks {power['id']} ({use.get('moment')}, lasts {use.get('lasts')})"
                                           if status == "implemented" else "no reason given")
            result.setdefault(use["id"], (status, str(reason)))
    return result


def coverage_notes() -> dict[str, tuple[str, str]]:
    """ID (or ``group:NAME`` for a group's default) → (status, reason) from ``data/coverage_notes.json``."""
    data = _read_data("coverage_notes.json") or {"notes": []}
    result = {f"group:{group}": (note["status"], note["reason"])
              for group, note in data.get("group_defaults", {}).items()}
    for note in data["notes"]:
        if note["status"] not in STATUSES[1:]:
            raise RulesDataError("rules/coverage-status", f"data/coverage_notes.json {note['ids']}: status "
                                 f"{note['status']!r}; allowed: {', '.join(STATUSES[1:])}")
        for rule_id in note["ids"]:
            result[rule_id] = (note["status"], note["reason"])
    return result


def default_tests_dir() -> Path | None:
    """The project's ``tests`` folder: next to the package, else in the current folder."""
    for folder in (PACKAGE_DIR.parent / "tests", Path.cwd() / "tests"):
        if folder.is_dir():
            return folder
    return None


def coverage(tests_dir: Path | None = None, *, code: dict[str, str] | None = None) -> list[Coverage]:
    """The report, one row per spec ID, in spec order."""
    tests_dir = tests_dir or default_tests_dir()
    if tests_dir is None or not tests_dir.is_dir():
        raise InputError("rules/no-tests", "no tests folder found (looked next to the package and in the current "
                         "folder); run from a checkout of the project or pass --tests DIR")
    all_ids = {spec["id"] for spec in spec_ids()}
    slugs = slug_map(all_ids)
    tests_of: dict[str, list[str]] = {}
    for where, name, body in test_functions(tests_dir):
        for rule_id in ids_in_name(name, slugs) | ids_in_text(body, all_ids):
            tests_of.setdefault(rule_id, []).append(where)
    cited_in: dict[str, list[str]] = {}
    for path, source in (code_citations() if code is None else code).items():
        for rule_id in ids_in_text(source, all_ids):
            cited_in.setdefault(rule_id, []).append(path)
    powers, notes = power_statuses(), coverage_notes()
    rows = []
    for spec in spec_ids():
        rule_id = spec["id"]
        tests, cited = tests_of.get(rule_id, []), cited_in.get(rule_id, [])
        row = Coverage(rule_id, spec["group"], "not-yet", tests)
        if tests:
            row.status, row.reason = "tested", f"{len(tests)} test(s) name it"
        elif rule_id in powers:
            row.status, row.reason = powers[rule_id]
        elif cited:
            row.status, row.reason = "implemented", "cited in " + ", ".join(cited[:4]) + (
                f" and {len(cited) - 4} more" if len(cited) > 4 else "")
        elif rule_id in notes:
            row.status, row.reason = notes[rule_id]
        elif f"group:{spec['group']}" in notes:
            row.status, row.reason = notes[f"group:{spec['group']}"]
        else:
            row.reason = "no test or code names it yet"
        rows.append(row)
    return rows


def summary(rows: list[Coverage]) -> dict[str, int]:
    """Count of rows per status."""
    return {status: sum(row.status == status for row in rows) for status in STATUSES}
