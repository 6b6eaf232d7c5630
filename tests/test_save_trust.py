"""GAP-68: a save the engine validated carries a stamp; a matching stamp loads without the eager replay, and no
illegal action is ever played: a save whose content changed is validated in full, and a forged stamp only delays
the refusal to the moment a state through the illegal action is asked for."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from dunenb import saves
from dunenb.actions import ChooseStart
from dunenb.engine import make_config
from dunenb.errors import IllegalActionError, SaveFormatError
from dunenb.play import advance
from dunenb.record import GameRecord
from dunenb.saves import load_game, record_from_dict, record_to_dict, validation_stamp

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def stamped() -> dict:
    record = GameRecord(make_config(["atreides", "fremen", "harkonnen", "guild"], seed=4, secondary_storm=True))
    node = advance(record, record.root, until="turn", seed=4)
    size = len(record)
    for branch in record.mainline()[40:]:  # a variation: the first step from node 40 on that differs from the
        advance(record, branch, until="step", seed=9)  # main line (a forced draw, ATREIDES-P2 c, does not)
        if len(record) > size:
            break
    record.set_comment(node, "end of turn 1")
    return record_to_dict(record, current=node)


def _roll_index(save: dict) -> int:
    return next(i for i, n in enumerate(save["nodes"]) if n["action"]["kind"] == "roll")


def test_gap_68_a_save_written_by_the_engine_carries_the_stamp_of_these_rules(stamped):
    assert stamped["validated"] == validation_stamp(stamped["config"], stamped["nodes"])
    assert stamped["validated"]["rules"] == saves.rules_fingerprint()


def test_gap_68_a_matching_stamp_loads_without_replaying_and_gives_the_same_states(stamped):
    trusted = record_from_dict(copy.deepcopy(stamped))
    assert not trusted.fully_played  # the trusted path: no state computed at load
    unstamped = {k: v for k, v in copy.deepcopy(stamped).items() if k != "validated"}
    full = record_from_dict(unstamped)
    assert full.fully_played  # the eager replay, as before
    assert trusted.node_ids == full.node_ids and len(trusted.children(0)) == len(full.children(0))
    for node in full.node_ids:
        assert trusted.state_at(node) == full.state_at(node)
        assert trusted.node(node).comment == full.node(node).comment
    assert trusted.fully_played
    assert record_to_dict(trusted)["validated"] == stamped["validated"]


def test_gap_68_old_saves_without_a_stamp_still_load_and_are_validated_in_full():
    for game in sorted((ROOT / "data" / "games").glob("*.json")):
        data = json.loads(game.read_text(encoding="utf-8"))
        assert "validated" not in data
        record = load_game(game)
        assert record.fully_played and record.mainline()


def test_gap_68_an_action_changed_under_a_kept_stamp_is_refused_at_load_as_today(stamped):
    tampered = copy.deepcopy(stamped)
    index = _roll_index(tampered)
    tampered["nodes"][index]["action"]["total"] = 31  # 3d10 gives 3..30 (SETUP-2)
    unstamped = {k: v for k, v in copy.deepcopy(tampered).items() if k != "validated"}
    with pytest.raises(SaveFormatError) as today:
        record_from_dict(unstamped)
    with pytest.raises(SaveFormatError) as kept:
        record_from_dict(tampered)  # the stamp no longer matches: validated in full, refused at load
    assert kept.value.code == today.value.code == "save/illegal-action"
    assert str(kept.value) == str(today.value)
    assert f"nodes[{index}]" in str(kept.value) and "roll" in str(kept.value)


def test_gap_68_a_legal_edit_under_a_kept_stamp_is_validated_in_full(stamped):
    edited = copy.deepcopy(stamped)
    edited["nodes"] = edited["nodes"][:-1]  # content changed (a node cut), still legal
    record = record_from_dict(edited)
    assert record.fully_played


def test_gap_68_a_comment_edit_keeps_the_trust(stamped):
    edited = copy.deepcopy(stamped)
    edited["nodes"][0]["comment"] = "a note added by hand"
    assert not record_from_dict(edited).fully_played  # comments do not bear on legality


def test_gap_68_an_illegal_action_under_a_forged_stamp_is_still_refused(stamped):
    forged = copy.deepcopy(stamped)
    index = _roll_index(forged)
    forged["nodes"][index]["action"]["total"] = 2
    forged["validated"] = validation_stamp(forged["config"], forged["nodes"])  # recomputed by hand
    record = record_from_dict(forged)
    node = forged["nodes"][index]["id"]
    with pytest.raises(SaveFormatError) as refused:
        record.state_at(record.leaf())
    assert refused.value.code == "save/illegal-action"
    assert str(refused.value).startswith(f"[save/illegal-action] nodes[{index}] (id {node}): ")
    with pytest.raises(SaveFormatError):  # refused every time, never played
        record.state_at(node)
    assert "validated" not in record_to_dict(record)  # a record holding a refused node is never stamped
    assert record.state_at(forged["nodes"][index]["parent"]) is not None  # what comes before stays usable


def test_gap_68_a_stamp_of_other_rules_means_a_full_validation(stamped, monkeypatch):
    monkeypatch.setattr(saves, "rules_fingerprint", lambda: "other rules")
    assert record_from_dict(copy.deepcopy(stamped)).fully_played


@pytest.mark.parametrize("stamp", [[], "x", {"rules": "a"}, {"rules": 1, "sha256": "b"},
                                   {"rules": "a", "sha256": "b", "more": 1}])
def test_gap_68_a_malformed_stamp_is_refused_clearly(stamped, stamp):
    bad = {**copy.deepcopy(stamped), "validated": stamp}
    with pytest.raises(SaveFormatError) as error:
        record_from_dict(bad)
    assert error.value.code == "save/validated"


def test_gap_68_a_move_added_after_a_trusted_load_is_checked_as_always(stamped):
    record = record_from_dict(copy.deepcopy(stamped))
    size = len(record)
    with pytest.raises(IllegalActionError):
        record.add_move(record.leaf(), ChooseStart("atreides", 99))
    assert len(record) == size
    assert record.depth(advance(record, record.leaf(), until="step", seed=1)) == record.depth(record.leaf())


def test_gap_68_the_cached_rules_fingerprint_is_used_only_while_no_rules_file_changed(tmp_path, monkeypatch):
    """Issue 14: the digest of the rules files is kept under the key of each file's size, times and inode; a key
    that differs in one file (as after any write to it) is never answered from the cache: the files are hashed."""
    cache = tmp_path / "rules_fingerprint.json"
    monkeypatch.setattr(saves, "_fingerprint_cache", lambda package: cache)
    saves.rules_fingerprint.cache_clear()
    try:
        real = saves.rules_fingerprint()  # hashed, then written to the cache
        kept = json.loads(cache.read_text(encoding="utf-8"))
        assert kept["fingerprint"] == real and any(entry[0] == "saves.py" for entry in kept["files"])
        cache.write_text(json.dumps({**kept, "fingerprint": "from the cache"}), encoding="utf-8")
        saves.rules_fingerprint.cache_clear()
        assert saves.rules_fingerprint() == "from the cache"  # same files, same key: the cache answers
        changed = copy.deepcopy(kept["files"])
        changed[0][3] += 1  # one file's change time moved on: it was written since
        cache.write_text(json.dumps({**kept, "fingerprint": "stale", "files": changed}), encoding="utf-8")
        saves.rules_fingerprint.cache_clear()
        assert saves.rules_fingerprint() == real  # hashed again, never the stale digest
        assert json.loads(cache.read_text(encoding="utf-8"))["files"] == kept["files"]  # and cached again
    finally:
        saves.rules_fingerprint.cache_clear()


def test_gap_68_no_fingerprint_cache_when_python_writes_no_bytecode(monkeypatch):
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    assert saves._fingerprint_cache(Path(saves.__file__).parent) is None


def test_gap_68_the_fingerprint_is_the_digest_of_the_rules_files_by_relative_path(monkeypatch):
    """Issue 14 part 3 walks the package with plain strings: the fingerprint is still sha256 over each rules file's
    relative path (with '/') and bytes, in the order of those paths, every package folder but _NOT_RULES."""
    import hashlib
    import os

    monkeypatch.setattr(saves, "_fingerprint_cache", lambda package: None)
    package = Path(saves.__file__).resolve().parent
    import importlib.util

    data = package / "data"  # a worktree's link or a wheel's folder; an editable install maps dunenb.data elsewhere
    if not data.is_dir():
        spec = importlib.util.find_spec("dunenb.data")
        assert spec is not None and spec.submodule_search_locations
        data = Path(list(spec.submodule_search_locations)[0]).resolve()
    files = []  # (relative path, file)
    for root, prefix in ((package, ""), (data, "data/")):
        for folder, subfolders, names in os.walk(root, followlinks=True):
            subfolders[:] = [name for name in subfolders if name not in saves._NOT_RULES]
            if root == package and Path(folder) == package:
                subfolders[:] = [name for name in subfolders if name != "data"]  # walked as its own root
            files += [(prefix + (Path(folder) / name).relative_to(root).as_posix(), Path(folder) / name)
                      for name in names if name.endswith((".py", ".json", ".csv"))]
    digest = hashlib.sha256()
    for relative, path in sorted(files):
        digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    saves.rules_fingerprint.cache_clear()
    try:
        assert saves.rules_fingerprint() == digest.hexdigest()
        assert any(relative == "data/leaders.json" for relative, _ in files)  # the rules data are fingerprinted
    finally:
        saves.rules_fingerprint.cache_clear()


def test_gap_68_the_digest_is_the_sha256_of_each_nodes_sorted_compact_json():
    """Issue 14 part 3 builds the JSON encoder once per digest: the bytes hashed are still the fingerprint, the
    configuration and, node after node, ``json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode`` of
    [id, parent, action] (floats, non-ASCII text, nested lists and objects included); a node that is not an
    object gives no digest."""
    import hashlib

    config = {"houses": ["atreides", "fremen"], "seed": 5}
    nodes = [{"id": 1, "parent": 0, "action": {"kind": "roll", "z": 1.5e300, "a": "é\u2028", "n": None, "t": True,
                                                 "l": [1, [2, {"y": 1, "b": [], "c": {}}]]}},
             {"id": 2, "parent": 1, "comment": "left out"}, {}]
    digest = hashlib.sha256(saves.rules_fingerprint().encode())
    digest.update(json.dumps(config, sort_keys=True, separators=(",", ":")).encode())
    encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode
    for node in nodes:
        digest.update(encode([node.get("id"), node.get("parent"), node.get("action")]).encode())
    assert saves.validation_digest(config, nodes) == digest.hexdigest()
    assert saves.validation_digest(config, [*nodes, ["not", "an", "object"]]) == ""


def test_gap_68_issue14_the_interpreters_sha256_gives_hashlibs_digest():
    """The digest of a stamp is made with the interpreter's own SHA-256 (no OpenSSL to load): the same bytes as
    :func:`hashlib.sha256`, for every length around the 64-byte blocks and for a big save's worth of text."""
    import hashlib

    for data in [bytes(range(256))[:length] for length in range(0, 200)] + [b"\xe9" * 1_000_003]:
        assert saves._sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    digest = saves._sha256(b"ab")
    digest.update(b"c")
    assert digest.hexdigest() == hashlib.sha256(b"abc").hexdigest()


# --- issue 14 item 3: a command that plays every node anyway does not verify the stamp ------------------------


@pytest.fixture(scope="module")
def one_line() -> dict:
    """A stamped save of one line (no variation): the state at its end plays every node."""
    record = GameRecord(make_config(["atreides", "fremen", "harkonnen"], seed=6))
    advance(record, record.root, until="turn", seed=6)
    return record_to_dict(record)


def _forged(save: dict) -> tuple[dict, int]:
    forged = copy.deepcopy(save)
    index = _roll_index(forged)
    forged["nodes"][index]["action"]["total"] = 2  # 3d10 gives 3..30 (SETUP-2)
    forged["validated"] = validation_stamp(forged["config"], forged["nodes"])  # recomputed by hand
    return forged, index


def test_issue14_plays_every_node_only_at_the_end_of_a_one_line_save(one_line, stamped):
    size = len(one_line["nodes"])
    assert saves.plays_every_node(one_line, None) and saves.plays_every_node(one_line, size)
    assert not saves.plays_every_node(one_line, size - 1) and not saves.plays_every_node(one_line, size + 1)
    assert not saves.plays_every_node(stamped, None)  # a variation: the end of the main line plays fewer nodes
    record = record_from_dict(copy.deepcopy(stamped))
    assert len(record.mainline()) < len(stamped["nodes"])
    cut = copy.deepcopy(one_line)
    cut["nodes"][3]["parent"] = cut["nodes"][1]["id"]  # a node off the line
    assert not saves.plays_every_node(cut, None)
    for bad in (None, [], {"nodes": "x"}, {"nodes": [1]}, {"nodes": [{"id": 1, "parent": False}]},
                {"nodes": [{"id": 1, "parent": 0}, {"id": 2}]}):
        assert not saves.plays_every_node(bad, None)


def test_issue14_an_unverified_stamp_gives_the_states_of_a_trusted_and_of_a_full_load(one_line, monkeypatch):
    trusted = record_from_dict(copy.deepcopy(one_line))
    assert not trusted.fully_played
    full = record_from_dict({k: v for k, v in copy.deepcopy(one_line).items() if k != "validated"})

    def no_fingerprint() -> str:
        raise AssertionError("the stamp is not to be verified")

    monkeypatch.setattr(saves, "rules_fingerprint", no_fingerprint)
    unverified = record_from_dict(copy.deepcopy(one_line), verify_stamp=False)
    assert unverified.fully_played  # replayed and checked in full at load, as a save without the stamp
    assert unverified.node_ids == trusted.node_ids == full.node_ids
    assert unverified.mainline() == trusted.mainline() == full.mainline()
    for node in full.node_ids:
        assert unverified.state_at(node) == trusted.state_at(node) == full.state_at(node)
    monkeypatch.undo()
    assert record_to_dict(unverified) == record_to_dict(trusted) == one_line  # stamped again when saved


def test_issue14_an_illegal_action_under_an_unverified_forged_stamp_is_refused_with_the_same_error(one_line):
    forged, index = _forged(one_line)
    record = record_from_dict(copy.deepcopy(forged))  # the stamp matches: trusted, refused when played
    with pytest.raises(SaveFormatError) as deferred:
        record.state_at(record.leaf())
    with pytest.raises(SaveFormatError) as at_load:
        record_from_dict(copy.deepcopy(forged), verify_stamp=False)
    with pytest.raises(SaveFormatError) as unstamped:
        record_from_dict({k: v for k, v in copy.deepcopy(forged).items() if k != "validated"})
    assert at_load.value.code == deferred.value.code == unstamped.value.code == "save/illegal-action"
    assert str(at_load.value) == str(deferred.value) == str(unstamped.value)
    assert str(at_load.value).startswith(f"[save/illegal-action] nodes[{index}] (id {forged['nodes'][index]['id']}):")


@pytest.mark.parametrize("stamp", [[], "x", {"rules": "a"}, {"rules": 1, "sha256": "b"}])
def test_issue14_an_unverified_stamp_is_still_checked_for_its_form(one_line, stamp):
    with pytest.raises(SaveFormatError) as error:
        record_from_dict({**copy.deepcopy(one_line), "validated": stamp}, verify_stamp=False)
    assert error.value.code == "save/validated"


def _replay_cli(path: Path, *argv: str, capsys) -> tuple[int, str, str]:
    from dunenb import cli

    status = cli.main(["replay", str(path), *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_issue14_replay_to_the_end_skips_the_stamp_and_prints_the_same(one_line, stamped, tmp_path, monkeypatch,
                                                                        capsys):
    """``dunenb replay`` to the end of a one-line save verifies no stamp (the fingerprint is not even computed) and
    prints what the trusted load printed; to an earlier step, or with a variation, the stamp is verified as before."""
    line, branched = tmp_path / "line.json", tmp_path / "branched.json"
    line.write_text(json.dumps(one_line), encoding="utf-8")
    branched.write_text(json.dumps(stamped), encoding="utf-8")
    with monkeypatch.context() as before:  # the stamp verified always, as before issue 14 item 3
        before.setattr(saves, "plays_every_node", lambda data, step: False)
        expected = {(path, to): _replay_cli(path, *to, capsys=capsys)
                    for path in (line, branched) for to in ((), ("--to", "5"), ("--json",))}
    asked = []
    real = saves.rules_fingerprint

    def counted() -> str:
        asked.append(1)
        return real()

    monkeypatch.setattr(saves, "rules_fingerprint", counted)
    for (path, to), before in expected.items():
        asked.clear()
        assert _replay_cli(path, *to, capsys=capsys) == before
        assert bool(asked) == (path == branched or to == ("--to", "5"))
    assert expected[(line, ())][0] == 0


def test_issue14_replay_of_a_forged_one_line_save_prints_the_same_error(one_line, tmp_path, capsys):
    forged, index = _forged(one_line)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged), encoding="utf-8")
    record = record_from_dict(copy.deepcopy(forged))
    with pytest.raises(SaveFormatError) as deferred:  # what the trusted load raised when the state was asked for
        record.state_at(record.leaf())
    status, out, err = _replay_cli(path, capsys=capsys)
    assert status == 2 and out == ""
    assert err == f"error: {deferred.value}\n"
    assert f"nodes[{index}]" in err
