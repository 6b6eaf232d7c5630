"""Saved games: schema-versioned JSON of a :class:`GameRecord`, strictly validated, written atomically.

Format ``dunenb.save/1``::

    {"format": "dunenb.save/1",
     "config": {"houses": [...], "seed": 7, "secondary_storm": false, "worm_option": "standard",
                "turn_limit": null, "victory_target": null},
     "nodes": [{"id": 1, "parent": 0, "action": {"kind": "roll", "house": "atreides", "total": 17}}, ...],
     "current": 1}

Node 0 is the root (the configuration); every other node names its parent, which must come earlier.
Loading replays every action through the rules: a save that does not replay is rejected, naming the node.

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

import os
from typing import Any

from dunenb import __version__
from dunenb.actions import action_from_dict
from dunenb.engine import make_config
from dunenb.errors import DuneError, SaveFormatError
from dunenb.jsonio import read_json, write_json_atomic
from dunenb.record import GameRecord

SAVE_FORMAT = "dunenb.save/1"
#: Where the notebooks and the classroom app save games by default: a folder beside the notebook, which the
#: project's .gitignore ignores wherever it appears, so saving a game never dirties a checkout (issue 16 item 8).
SAVED_GAMES = "saved_games"
CONFIG_FIELDS = ("houses", "seed", "secondary_storm", "worm_option", "turn_limit", "victory_target", "chance_cards")


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
    data: dict[str, Any] = {"format": SAVE_FORMAT, "created_by": f"dunenb {__version__}",
                            "config": record.config.to_dict(), "nodes": nodes}
    if current is not None:
        data["current"] = current
    return data


def record_from_dict(data: Any) -> GameRecord:
    """Validate and replay a save's JSON form; errors name the field and what is allowed."""
    if not isinstance(data, dict):
        raise SaveFormatError("save/type", "a save must be a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise SaveFormatError("save/format", f"format must be {SAVE_FORMAT!r}, not {data.get('format')!r}")
    unknown = sorted(set(data) - {"format", "created_by", "config", "nodes", "current"})
    if unknown:
        raise SaveFormatError("save/field", f"unknown top-level field(s) {unknown}; allowed: format, created_by, "
                              "config, nodes, current")
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
    record = GameRecord(config)
    id_map = {0: record.root}
    for index, entry in enumerate(nodes):
        where = f"nodes[{index}]"
        if not isinstance(entry, dict):
            raise SaveFormatError("save/node", f"{where} must be an object with id, parent, action")
        extra = sorted(set(entry) - {"id", "parent", "action", "comment"})
        if extra:
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
    return record_from_dict(read_json(path))
