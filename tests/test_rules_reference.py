"""The rules reference for learners (issue 16 item 1) and ``dunenb rules coverage`` (issue 10 item 5)."""

# rules-coverage: skip-file
from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from dunenb import coverage as cov
from dunenb import rules_reference as ref
from dunenb.cli import main
from dunenb.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
SPEC_DIRS = (Path("/work/shared/spec"), ROOT.parent / "shared" / "spec")
SPEC_DIR = next((d for d in SPEC_DIRS if (d / "rules_digest.md").is_file()), None)
needs_specs = pytest.mark.skipif(SPEC_DIR is None, reason="the specs (shared/spec) are not on this machine")


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _extractor():
    spec = importlib.util.spec_from_file_location("extract_spec_ids", ROOT / "tools" / "extract_spec_ids.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["extract_spec_ids"] = module
    spec.loader.exec_module(module)
    return module


@needs_specs
def test_spec_ids_json_is_up_to_date_with_the_specs():
    tool = _extractor()
    shipped = (ROOT / "data" / "spec_ids.json").read_text(encoding="utf-8")
    assert shipped == tool.render(tool.extract(SPEC_DIR)), "run python tools/extract_spec_ids.py"


def test_spec_ids_cover_every_group_of_the_issues():
    ids = {spec["id"]: spec for spec in ref.spec_ids()}
    assert {f"KARAMA-{n}" for n in range(1, 51)} <= set(ids)  # every Karama use, the table rows included
    for house in ("FREMEN", "EMPEROR", "GUILD", "DISPERSION", "BG", "TLEILAX", "ATREIDES", "HARKONNEN"):
        assert ids[f"{house}-START"]["group"] == "house-start"
        assert ids[f"{house}-P1"]["group"] == "house-power" and ids[f"{house}-M1"]["group"] == "main-leader-power"
    assert sum(spec["group"] == "house-power" for spec in ids.values()) == 29
    assert sum(spec["group"] == "main-leader-power" for spec in ids.values()) == 17
    assert ids["FREMEN-L01-a"]["group"] == "leader-power" and ids["FREMEN-L01-a"]["seed_lines"] == ["L215"]
    assert ids["K-21"]["group"] == "leaders-convention" and ids["S-6"]["seed_lines"] == ["L1049", "L1129"]
    assert ids["X-3"]["seed_lines"] == []  # F02 there is a leader (FREMEN-L02), not a line of seed 003
    assert ids["STORM-2"]["seed_lines"] == ["L115-117"] and ids["STORM-2"]["section"] == "digest §4. STORMS"
    assert "PROPOSAL" not in ids and "GAP-26b" in ids


def test_every_spec_id_has_an_entry_with_a_title_and_a_short_text():
    written = ref.written_texts()
    entries = ref.entries()
    spec_ids = [spec["id"] for spec in ref.spec_ids()]
    assert [entry.id for entry in entries][:len(spec_ids)] == spec_ids
    decisions = sorted(path.stem for path in (ROOT / "data" / "decisions").glob("GAP-*.json"))
    assert sorted(entry.id for entry in entries[len(spec_ids):]) == decisions  # the project's own decisions
    for spec in ref.spec_ids():
        if spec["group"] != "leader-power":  # leader powers may wait for the leaders issue (generated text)
            assert spec["id"] in written, f"{spec['id']} has no text in data/rules_reference.json"
    assert not set(written) - {spec["id"] for spec in ref.spec_ids()}, "entries for IDs the specs do not have"
    for entry in entries:
        assert entry.title.strip() and entry.text.strip(), entry.id
        assert len(re.findall(r"[.!?](?:\s|$)", entry.text)) <= 3 and len(entry.text) <= 400, entry.id


@needs_specs
def test_reference_texts_are_in_the_projects_own_words():
    """No run of 9 words of a text comes from the specs (facts carry over, sentences don't)."""
    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())
    spec = words("\n".join((SPEC_DIR / name).read_text(encoding="utf-8")
                            for name in ("rules_digest.md", "houses.md", "leaders.md")))
    runs = {tuple(spec[i:i + 9]) for i in range(len(spec) - 8)}
    copied = [entry.id for entry in ref.entries()  # written and generated texts alike
              if any(tuple(words(entry.text)[i:i + 9]) in runs for i in range(len(words(entry.text))))]
    assert copied == []


def test_lookup_any_case_lettered_parts_and_unknown_ids():
    assert ref.lookup("karama-25").id == "KARAMA-25"
    assert ref.lookup("BATTLE-13f").id == "BATTLE-13" and ref.lookup("GAP-26b").id == "GAP-26b"
    assert ref.lookup("GAP-55b").section == "project decisions (data/decisions/GAP-55.json)"
    with pytest.raises(InputError) as error:
        ref.lookup("STROM-8")
    assert error.value.code == "rules/unknown-id" and "STORM-8" in error.value.message


def test_search_ranks_ids_and_titles_above_texts():
    assert ref.search("TAX-1")[0].id == "TAX-1"
    top = [entry.id for entry in ref.search("worm ride")[:4]]
    assert "FREMEN-P2" in top and "KARAMA-6" in top
    assert ref.search("qwertyuiop") == []
    with pytest.raises(InputError):
        ref.search("  ")


def test_cli_rules_show_json_and_text(capsys):
    code, out, _ = _run(capsys, "rules", "show", "LAND-1", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == {"id", "title", "text", "section", "seed_lines"}
    assert data["id"] == "LAND-1" and data["seed_lines"] == ["L95"]
    code, out, _ = _run(capsys, "rules", "show", "storm-8")
    assert code == 0 and out.startswith("STORM-8 — ") and "L127" in out


def test_cli_rules_show_unknown_id_lists_close_matches(capsys):
    code, _, err = _run(capsys, "rules", "show", "KARMA-25")
    assert code == 2 and err.startswith("error: [rules/unknown-id]") and "KARAMA-25" in err


def test_cli_rules_search_and_text_json(capsys):
    code, out, _ = _run(capsys, "rules", "search", "sell", "harvester")
    assert code == 0 and out.splitlines()[0].startswith("HARVEST-4")
    code, out, _ = _run(capsys, "rules", "text", "--json")
    rules = json.loads(out)["rules"]
    assert code == 0 and len(rules) == len(ref.entries()) > len(ref.spec_ids())
    assert all(set(rule) == {"id", "title", "text", "section", "seed_lines"} for rule in rules)


def test_cli_rules_map_refuses_extra_words(capsys):
    code, _, err = _run(capsys, "rules", "map", "STORM-8")
    assert code == 2 and "rules/extra-words" in err


def test_coverage_matching_rules_names_and_bodies(tmp_path):
    (tmp_path / "test_sample.py").write_text(
        'def test_move_4b_whole_territories():\n    pass\n\n'
        'def test_something():\n    """GAP-26b and CARD-ATOMICS-2."""\n\n'
        'def test_storm_12_secondary():\n    assert True  # STORM-8\n\n'
        'def helper_tax_1():\n    pass\n', encoding="utf-8")
    rows = {row.id: row for row in cov.coverage(tmp_path, code={})}
    assert rows["MOVE-4"].tests == ["tests/test_sample.py::test_move_4b_whole_territories"]
    assert rows["GAP-26b"].status == "tested" and rows["GAP-26"].tests == []
    assert rows["CARD-ATOMICS-2"].status == "tested"
    assert rows["STORM-12"].tests == rows["STORM-8"].tests == ["tests/test_sample.py::test_storm_12_secondary"]
    assert rows["STORM-1"].tests == [] and rows["TAX-1"].tests == []  # not test functions, not STORM-1
    assert rows["MAP-11"].status == "no-mechanics" and rows["MAP-11"].reason  # data/coverage_notes.json
    assert rows["FREMEN-L01-a"].status == "not-yet" and "leaders" in rows["FREMEN-L01-a"].reason


def test_coverage_statuses_of_the_project(capsys):
    code, out, _ = _run(capsys, "rules", "coverage", "--json")
    rows = json.loads(out)["ids"]
    assert code == 0 and [row["id"] for row in rows] == [spec["id"] for spec in ref.spec_ids()]
    for row in rows:
        assert set(row) == {"id", "group", "status", "tests", "reason"}
        assert row["status"] in cov.STATUSES and (row["status"] == "tested") == bool(row["tests"])
        assert row["status"] == "tested" or row["reason"], row["id"]
        for test in row["tests"]:
            path, name = test.split("::")
            assert (ROOT / path).is_file() and f"def {name}(" in (ROOT / path).read_text(encoding="utf-8")
    by_id = {row["id"]: row for row in rows}
    assert not any("test_rules_reference.py" in test for row in rows for test in row["tests"])  # skip-file
    assert by_id["FREMEN-P1"]["status"] in ("tested", "implemented")  # data/powers.json says where it is used
