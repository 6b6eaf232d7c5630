"""Saved games: schema-versioned JSON of a :class:`GameRecord`, strictly validated, written atomically.

Format ``dunenb.save/1``::

    {"format": "dunenb.save/1",
     "config": {"houses": [...], "seed": 7, "secondary_storm": false, "worm_option": "standard",
                "turn_limit": null, "victory_target": null},
     "nodes": [{"id": 1, "parent": 0, "action": {"kind": "roll", "house": "atreides", "total": 17}}, ...],
     "current": 1,
     "validated": {"rules": "3f0c...", "sha256": "9a1e..."}}

Node 0 is the root (the configuration); every other node names its parent, which must come earlier.
Loading replays every action through the rules: a save that does not replay is rejected, naming the node.

``validated`` (optional, GAP-68) is written by the engine with every save it writes: ``rules`` is the
fingerprint of the engine's rules (:func:`rules_fingerprint`) and ``sha256`` the digest of that fingerprint, the
configuration and every node's id, parent and action (:func:`validation_digest`; comments, ``current`` and
``created_by`` are left out). When both match, the save is what this engine wrote after playing every action,
so the load builds the tree without replaying it and each state is computed, every action checked by the rules
as always, when it is first asked for. A save without the field, with other rules, or edited since (the digest no
longer matches) is replayed and checked in full at load, as before.

>>> import tempfile, pathlib
>>> from dunenb.engine import make_config, sample_chance
>>> record = GameRecord(make_config(["atreides", "fremen"], seed=2))
>>> leaf = record.add_move(0, sample_chance(record.state_at(0)))
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
>>> save_game(record, path)
>>> load_game(path).state_at(leaf) == record.state_at(leaf)
True
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from dunenb import __version__
from dunenb.actions import action_from_dict
from dunenb.engine import make_config
from dunenb.errors import DuneError, SaveFormatError
from dunenb.gcpause import collector_paused
from dunenb.jsonio import read_json, write_json_atomic
from dunenb.record import GameRecord

SAVE_FORMAT = "dunenb.save/1"
#: Where the notebooks and the classroom app save games by default: a folder beside the notebook, which the
#: project's .gitignore ignores wherever it appears, so saving a game never dirties a checkout (issue 16 item 8).
SAVED_GAMES = "saved_games"
CONFIG_FIELDS = ("houses", "seed", "secondary_storm", "worm_option", "turn_limit", "victory_target", "chance_cards")
TOP_FIELDS = ("format", "created_by", "config", "nodes", "current", "validated")
_NODE_FIELDS = frozenset({"id", "parent", "action", "comment"})
#: Packages whose files are no part of the Dune rules (pictures, widgets, the companion engines) and the shipped
#: saves: left out of :func:`rules_fingerprint`, so redrawing the map does not make every save untrusted.
_NOT_RULES = frozenset({"widgets", "render", "imperium", "iron_die", "adventures", "games", "__pycache__"})


def rules_roots(package: Path) -> list[tuple[str, str]]:
    """GAP-68: the folders whose files make the rules fingerprint, each with the prefix its files take: the package,
    and ``dunenb.data`` as ``data/`` wherever it is installed. In a wheel or a worktree with a link the data sit in
    the package (``dunenb/data``); an editable install maps the package ``dunenb.data`` to the project's ``data/``
    folder outside it, which a walk of the package alone would miss (the data would then not be fingerprinted)."""
    roots = [("", str(package))]
    if not (package / "data").is_dir():
        import importlib.util

        spec = importlib.util.find_spec("dunenb.data")
        locations = list(spec.submodule_search_locations or ()) if spec is not None else []
        if locations:
            roots.append(("data/", str(Path(locations[0]).resolve())))
    return roots


@cache
def rules_fingerprint() -> str:
    """GAP-68: a digest of the engine's rules, its code and its data (every ``.py``, ``.json`` and ``.csv`` of
    the package but pictures, widgets, companion engines and shipped saves). Any change to them gives another
    fingerprint, so a save validated by another version is validated again in full.

    Issue 14 part 3: hashing the files is the dearest part of opening a stamped save in a new process, so the
    digest is kept in a small cache file (:func:`_fingerprint_cache`) under the key of every rules file's path,
    size, modification and change times (ns) and inode. Writing a file changes its change time (which no tool
    can set back), so a changed rules file never finds its old digest: the files are hashed again."""
    package = Path(__file__).resolve().parent
    files: list[tuple[str, str]] = []  # (path relative to the package, with "/"; path to open)
    for prefix, root in rules_roots(package):
        for folder, subfolders, names in os.walk(root, followlinks=True):  # dunenb/data may be a symbolic link
            subfolders[:] = sorted(name for name in subfolders if name not in _NOT_RULES)
            # os.walk joins each folder to ``root``: its relative path is the rest (plain strings: issue 14 part 3)
            relative = prefix if folder == root else prefix + folder[len(root) + 1:].replace(os.sep, "/") + "/"
            files += [(relative + name, os.path.join(folder, name)) for name in names
                      if name.endswith((".py", ".json", ".csv"))]
    files.sort()  # by relative path (each is unique)
    key = []
    for relative, path in files:
        status = os.stat(path)
        key.append([relative, status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino])
    cache = _fingerprint_cache(package)
    if cache is not None:
        try:
            kept = json.loads(cache.read_text(encoding="utf-8"))
            if kept.get("format") == _FINGERPRINT_FORMAT and kept.get("files") == key and isinstance(
                    kept.get("fingerprint"), str):
                return kept["fingerprint"]
        except (OSError, ValueError, AttributeError):
            pass  # no cache yet, or not readable: the files are hashed
    fingerprint = _hash_rules_files(files)
    if cache is not None:
        try:
            write_json_atomic(cache, {"format": _FINGERPRINT_FORMAT, "fingerprint": fingerprint, "files": key})
        except OSError:
            pass  # a read-only installation: hashed again next time
    return fingerprint


_FINGERPRINT_FORMAT = "dunenb.rules-fingerprint/1"


def _fingerprint_cache(package: Path) -> Path | None:
    """Where the digest of the rules files is cached: beside the package's bytecode (its ``__pycache__`` folder,
    or the mirror folder under ``PYTHONPYCACHEPREFIX``), which no checkout tracks; ``None`` when Python is told
    not to write bytecode (``PYTHONDONTWRITEBYTECODE``), whose wish this cache follows."""
    import importlib.util
    import sys

    if sys.dont_write_bytecode:
        return None
    return Path(importlib.util.cache_from_source(str(package / "__init__.py"))).parent / "rules_fingerprint.json"


def _hash_rules_files(files: list[tuple[str, str]]) -> str:
    """sha256 over each rules file's relative path and bytes, in the order of ``files`` (GAP-68)."""
    import hashlib  # issue 14 part 3: only a stamped save needs it

    digest = hashlib.sha256()
    for relative, path in files:
        with open(path, "rb") as stream:
            digest.update(relative.encode() + b"\0" + stream.read() + b"\0")
    return digest.hexdigest()


def _sha256(data: bytes) -> Any:
    """A SHA-256 object over ``data``: the interpreter's own implementation (module ``_sha256``, ``_sha2`` from
    Python 3.12), else :func:`hashlib.sha256`. Issue 14 part 3: importing :mod:`hashlib` loads OpenSSL (4 ms CPU,
    a third of what checking a stamp cost a new process); SHA-256 is one function (FIPS 180-4), so both give the
    same digest (``tests/test_save_trust.py`` compares them), and hashlib itself falls back on these."""
    try:
        from _sha256 import sha256  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        try:
            from _sha2 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
        except ImportError:
            from hashlib import sha256
    return sha256(data)


def validation_digest(config: Any, nodes: Any) -> str:
    """GAP-68: sha256 of the rules fingerprint, the configuration and each node's id, parent and action, as JSON
    with sorted keys (what the legality of every node depends on; comments do not count)."""
    digest = _sha256(rules_fingerprint().encode())
    digest.update(json.dumps(config, sort_keys=True, separators=(",", ":")).encode())
    encode = _compact_encoder()
    texts = []
    for node in nodes:
        if not isinstance(node, dict):
            return ""  # not a save this engine wrote: no digest matches it
        texts.append(encode([node.get("id"), node.get("parent"), node.get("action")]))
    digest.update("".join(texts).encode())  # the nodes' texts end to end: the bytes of one update per node
    return digest.hexdigest()


def _compact_encoder() -> Any:
    """``json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode``, the text of one
    node in :func:`validation_digest`. Issue 14 part 3: that ``encode`` builds the C encoder of the ``json``
    package anew for every call (a third of the digest of a big save); here it is built once per digest, with
    the very arguments ``encode`` gives it, and the pure-Python ``encode`` serves where the C encoder is missing.

    Issue 14 part 3, again: no table of the containers being written (``markers=None``, ``check_circular=False``),
    which was half of what remained. That table only serves to refuse a list or object that contains itself, and
    the nodes hashed never do: they are the objects :func:`dunenb.jsonio.read_json` parsed or the ones
    :func:`record_to_dict` built from frozen actions, trees both; for such values the text is the same bytes."""
    from json import encoder as json_encoder

    python = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    make = getattr(json_encoder, "c_make_encoder", None)
    if make is None:
        return python.encode
    fast = make(None, python.default, json_encoder.encode_basestring_ascii, None, python.key_separator,
                python.item_separator, python.sort_keys, python.skipkeys, python.allow_nan)
    return lambda value: "".join(fast(value, 0))


def validation_stamp(config: Any, nodes: Any) -> dict[str, str]:
    """The ``validated`` field the engine writes into a save whose every action it has played (GAP-68)."""
    return {"rules": rules_fingerprint(), "sha256": validation_digest(config, nodes)}


def _is_trusted(data: dict[str, Any], *, verify_stamp: bool = True) -> bool:
    """GAP-68: whether the save's ``validated`` field matches these rules and this very content.

    The field's form is always checked (a malformed stamp is ``save/validated``); without ``verify_stamp`` the
    answer is False without computing the fingerprint and the digest (:func:`record_from_dict`)."""
    stamp = data.get("validated")
    if stamp is None:
        return False
    if not isinstance(stamp, dict) or set(stamp) != {"rules", "sha256"} or not all(
            isinstance(value, str) for value in stamp.values()):
        raise SaveFormatError("save/validated", "validated must be an object {\"rules\": string, \"sha256\": "
                              "string} (written by the engine) or absent")
    if not verify_stamp:
        return False  # issue 14 item 3: validated in full at load, as a save without the stamp is
    if stamp["rules"] != rules_fingerprint():
        return False  # validated by other rules: validated again in full
    return stamp["sha256"] == validation_digest(data.get("config"), data.get("nodes"))


def record_to_dict(record: GameRecord, *, current: int | None = None) -> dict[str, Any]:
    """The JSON form of a record (nodes in creation order, so parents always come first)."""
    nodes = []
    for node_id in sorted(record.node_ids):
        if node_id == record.root:
            continue
        node = record.node(node_id)
        assert node.action is not None  # only the root has no action
        entry: dict[str, Any] = {"id": node.id, "parent": node.parent, "action": node.action.to_dict()}
        if node.comment:
            entry["comment"] = node.comment
        nodes.append(entry)
    config = record.config.to_dict()
    data: dict[str, Any] = {"format": SAVE_FORMAT, "created_by": f"dunenb {__version__}", "config": config,
                            "nodes": nodes}
    if current is not None:
        data["current"] = current
    if not record.refused:  # GAP-68: every action played by the rules (or carried over from a matching stamp)
        data["validated"] = validation_stamp(config, nodes)
    return data


def plays_every_node(data: Any, step: int | None) -> bool:
    """Whether asking for the state at ``step`` of the save's main line (None: its last step) plays every node
    of the save: its nodes form one line (each node's parent is the node before it, the first's the root) and
    ``step`` is its end. Then the GAP-68 stamp buys nothing: a trusted load would play and check the very same
    actions, in the same order, when that state is computed, so ``verify_stamp=False`` (:func:`record_from_dict`)
    only spares the cost of checking the stamp (issue 14 item 3). False for anything else, malformed included
    (the load then reports it as always).

    >>> plays_every_node({"nodes": [{"id": 1, "parent": 0}, {"id": 2, "parent": 1}]}, None)
    True
    >>> plays_every_node({"nodes": [{"id": 1, "parent": 0}, {"id": 2, "parent": 1}]}, 1)
    False
    >>> plays_every_node({"nodes": [{"id": 1, "parent": 0}, {"id": 2, "parent": 0}]}, None)  # a variation
    False
    """
    nodes = data.get("nodes") if isinstance(data, dict) else None
    if not isinstance(nodes, list) or (step is not None and step != len(nodes)):
        return False
    parent: Any = 0
    for entry in nodes:
        if not isinstance(entry, dict) or type(entry.get("parent")) is not int or entry["parent"] != parent:
            return False
        parent = entry.get("id")
    return True


def record_from_dict(data: Any, *, verify_stamp: bool = True) -> GameRecord:
    """Validate and replay a save's JSON form; errors name the field and what is allowed.

    ``verify_stamp=False`` (issue 14 item 3): a GAP-68 stamp is checked for its form only, never matched, and the
    save is replayed and checked in full at load as if it had none. No action is ever trusted: this only gives
    up the deferral, for a caller that will ask for every node's state anyway (:func:`plays_every_node`), where
    computing the fingerprint and the digest would cost time and spare no check.
    """
    with collector_paused():
        return _record_from_dict(data, verify_stamp)


def _record_from_dict(data: Any, verify_stamp: bool = True) -> GameRecord:
    if not isinstance(data, dict):
        raise SaveFormatError("save/type", "a save must be a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise SaveFormatError("save/format", f"format must be {SAVE_FORMAT!r}, not {data.get('format')!r}")
    unknown = sorted(set(data) - set(TOP_FIELDS))
    if unknown:
        raise SaveFormatError("save/field", f"unknown top-level field(s) {unknown}; allowed: {', '.join(TOP_FIELDS)}")
    config_raw = data.get("config")
    if not isinstance(config_raw, dict):
        raise SaveFormatError("save/config", "config must be an object with fields " + ", ".join(CONFIG_FIELDS))
    extra = sorted(set(config_raw) - set(CONFIG_FIELDS))
    if extra:
        raise SaveFormatError("save/config", f"config: unknown field(s) {extra}; allowed: {', '.join(CONFIG_FIELDS)}")
    if "houses" not in config_raw or "seed" not in config_raw:
        raise SaveFormatError("save/config", "config.houses and config.seed are required")
    if not isinstance(config_raw["houses"], list):
        raise SaveFormatError("save/config", "config.houses must be a list of House ids")
    try:
        config = make_config(
            config_raw["houses"], seed=config_raw["seed"],
            **{k: config_raw[k] for k in CONFIG_FIELDS[2:] if k in config_raw},
        )
    except DuneError as error:
        raise SaveFormatError("save/config", f"config: {error.message}") from None
    nodes = data.get("nodes")
    if not isinstance(nodes, list):
        raise SaveFormatError("save/nodes", "nodes must be a list of {id, parent, action}")
    # GAP-68: states computed when asked for, every action still checked then
    trusted = _is_trusted(data, verify_stamp=verify_stamp)
    record = GameRecord(config)
    id_map = {0: record.root}
    for index, entry in enumerate(nodes):
        where = f"nodes[{index}]"
        if not isinstance(entry, dict):
            raise SaveFormatError("save/node", f"{where} must be an object with id, parent, action")
        if not entry.keys() <= _NODE_FIELDS:  # issue 14 part 3: no set built for a well-formed node
            extra = sorted(set(entry) - _NODE_FIELDS)
            raise SaveFormatError("save/node", f"{where}: unknown field(s) {extra}; "
                                  "allowed: id, parent, action, comment")
        node_id, parent = entry.get("id"), entry.get("parent")
        if isinstance(node_id, bool) or not isinstance(node_id, int) or node_id <= 0:
            raise SaveFormatError("save/node-id", f"{where}.id must be a positive integer, not {node_id!r}")
        if node_id in id_map:
            raise SaveFormatError("save/node-id", f"{where}.id {node_id} is used twice")
        if isinstance(parent, bool) or not isinstance(parent, int) or parent not in id_map:
            raise SaveFormatError("save/node-parent",
                                  f"{where}.parent {parent!r} must be 0 or the id of an earlier node")
        comment = entry.get("comment", "")
        if not isinstance(comment, str):
            raise SaveFormatError("save/node", f"{where}.comment must be a string")
        action = action_from_dict(entry.get("action"), where=f"{where}.action")
        if trusted:
            new_id = record.add_unplayed(id_map[parent], action, comment=comment, where=f"{where} (id {node_id})")
        else:
            try:
                new_id = record.add_move(id_map[parent], action, comment=comment)
            except DuneError as error:
                raise SaveFormatError("save/illegal-action", f"{where} (id {node_id}): {error}") from None
        id_map[node_id] = new_id
    current = data.get("current")
    if current is not None and (type(current) is not int or current not in id_map):  # not [1], not true
        raise SaveFormatError("save/current", f"current {current!r} is not a node id (an integer or null)")
    return record


def save_game(record: GameRecord, path: str | os.PathLike[str], *, current: int | None = None) -> None:
    """Write the record atomically (temporary file + rename): an existing save is never half-overwritten."""
    write_json_atomic(path, record_to_dict(record, current=current))


def load_game(path: str | os.PathLike[str]) -> GameRecord:
    """Read and validate a saved game (see the module docstring for the format)."""
    with collector_paused():
        return record_from_dict(read_json(path))


def load_game_to(path: str | os.PathLike[str], step: int | None) -> GameRecord:
    """:func:`load_game` for a caller that will ask for the state at ``step`` of the main line (None: its end):
    a GAP-68 stamp is not verified where that state plays every node anyway (:func:`plays_every_node`; issue 14
    item 3, ``dunenb replay``), the save then being checked in full at load."""
    with collector_paused():
        data = read_json(path)
        stamped = isinstance(data, dict) and "validated" in data  # without a stamp nothing is verified anyway
        return record_from_dict(data, verify_stamp=not (stamped and plays_every_node(data, step)))
