"""The rules reference for learners: one entry per rule ID of the specs, in the project's own words.

The IDs, their sections and seed lines come from ``data/spec_ids.json`` (written from the specs by
``tools/extract_spec_ids.py``); the titles and texts from ``data/rules_reference.json``. The project's own
decisions beyond the digest's GAPs (``data/decisions/GAP-NN.json``) follow, with short texts of their own.
Secondary leaders' powers without a written text are explained from their leaders-note notation
(:mod:`dunenb.reference_leaders`).

>>> entry = lookup("storm-8")
>>> entry.id, entry.section
('STORM-8', 'digest §4. STORMS')
>>> lookup("MOVE-4b").id  # a lettered part of a rule shows the whole rule
'MOVE-4'
>>> search("harvester sell")[0].id
'HARVEST-4'
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from dunenb.errors import InputError, RulesDataError
from dunenb.reference_leaders import leader_power_text

WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class RuleEntry:
    """One rule of the reference: ``seed_lines`` are ``L`` (seed 000) and ``F`` (seed 003) line references."""

    id: str
    title: str
    text: str
    section: str
    seed_lines: tuple[str, ...]
    group: str
    spec: str

    def to_json(self) -> dict[str, Any]:
        """The documented form of ``dunenb rules text --json`` / ``rules show ID --json``."""
        return {"id": self.id, "title": self.title, "text": self.text, "section": self.section,
                "seed_lines": list(self.seed_lines)}

    def render(self) -> str:
        """Plain text for the terminal."""
        lines = f" ({', '.join(self.seed_lines)})" if self.seed_lines else ""
        return f"{self.id} — {self.title}\n{self.section}; seed lines{lines or ': none'}\n\n{self.text}"


def _read(name: str) -> Any:
    try:
        return json.loads(resources.files("dunenb.data").joinpath(name).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RulesDataError("rules/reference-data", f"cannot read data/{name}: {error}") from None


@cache
def spec_ids() -> tuple[dict[str, Any], ...]:
    """Every ID of the specs, in spec order (``data/spec_ids.json``)."""
    return tuple(_read("spec_ids.json")["ids"])


@cache
def written_texts() -> dict[str, dict[str, str]]:
    """The hand-written entries of ``data/rules_reference.json``: ID → ``{"title", "text"}``."""
    return {entry["id"]: entry for entry in _read("rules_reference.json")["rules"]}


@cache
def _decisions() -> dict[str, dict[str, Any]]:
    """The project's own decisions, ``data/decisions/GAP-NN.json`` (IDs beyond the digest's)."""
    folder = resources.files("dunenb.data").joinpath("decisions")
    found = {}
    if folder.is_dir():
        for item in sorted(folder.iterdir(), key=lambda i: i.name):
            if item.name.endswith(".json"):
                data = json.loads(item.read_text(encoding="utf-8"))
                found[data["id"]] = data
    return found


@cache
def entries() -> tuple[RuleEntry, ...]:
    """The whole reference: every spec ID in spec order, then the project's decisions (``data/decisions``)."""
    texts = written_texts()
    result = []
    for spec in spec_ids():
        written = texts.get(spec["id"])
        if written is not None:
            title, text = written["title"], written["text"]
        elif spec["group"] == "leader-power":
            name = spec["leader_name"].replace("*(guess)*", "").strip()
            title = f"{name} ({spec['leader']}), power {spec['id'][-1]}"
            special = re.match(r"^SPECIAL (S-\d+)", spec["power"])
            if special and special.group(1) in texts:  # a one-off rule: its own entry says it
                text = f"{texts[special.group(1)]['text']} ({special.group(1)})"
            else:
                text = leader_power_text(name, spec["power"])
        else:
            raise RulesDataError("rules/reference-missing", f"{spec['id']} has no entry in data/rules_reference.json")
        result.append(RuleEntry(spec["id"], title, text, spec["section"], tuple(spec["seed_lines"]),
                                spec["group"], spec["spec"]))
    decision_texts = {entry["id"]: entry for entry in _read("rules_reference.json").get("decisions", [])}
    for rule_id in _decisions():
        if rule_id not in decision_texts:
            raise RulesDataError("rules/reference-missing", f"{rule_id} (data/decisions) has no entry under "
                                 "'decisions' in data/rules_reference.json")
        result.append(RuleEntry(rule_id, decision_texts[rule_id]["title"], decision_texts[rule_id]["text"],
                                f"project decisions (data/decisions/{rule_id}.json)", (), "project-decision",
                                "data/decisions"))
    return tuple(result)


@cache
def _index() -> dict[str, RuleEntry]:
    return {entry.id.upper(): entry for entry in entries()}


def lookup(rule_id: str) -> RuleEntry:
    """The entry of ``rule_id`` (any case). A lettered part (``MOVE-4b``, ``BATTLE-13f``) gives its rule;
    an unknown ID raises :class:`InputError` ``rules/unknown-id`` naming close matches."""
    key = rule_id.strip().upper()
    index = _index()
    if key in index:
        return index[key]
    part = re.match(r"^(.*-\d+)[A-Z]$", key)
    if part and part.group(1) in index:
        return index[part.group(1)]
    close = difflib.get_close_matches(key, list(index), n=5, cutoff=0.6)
    hint = f"; close matches: {', '.join(close)}" if close else "; try `dunenb rules search WORDS`"
    raise InputError("rules/unknown-id", f"{rule_id!r} is not a rule ID of the specs{hint}")


def _words(text: str) -> list[str]:
    return WORD.findall(text.lower().replace("é", "e").replace("è", "e").replace("ï", "i"))


def search(query: str, *, limit: int = 20) -> list[RuleEntry]:
    """Entries matching the words of ``query``, best first: a word in the ID counts 5, in the title 3, in the
    text 1 (a word prefix counts half); entries matching more distinct words rank first."""
    wanted = _words(query)
    if not wanted:
        raise InputError("rules/empty-search", "give one or more words to search for, e.g. `rules search storm`")
    scored = []
    for entry in entries():
        fields = ((_words(entry.id), 5.0), (_words(entry.title), 3.0), (_words(entry.text), 1.0))
        score, matched = 0.0, 0
        for word in wanted:
            best = 0.0
            for words, weight in fields:
                if word in words:
                    best = max(best, weight)
                elif len(word) >= 3 and any(w.startswith(word) for w in words):
                    best = max(best, weight / 2)
            score += best
            matched += best > 0
        if matched:
            scored.append((-matched, -score, entry.id, entry))
    scored.sort(key=lambda item: item[:3])
    return [item[3] for item in scored[:limit]]


def as_json() -> dict[str, Any]:
    """``{"rules": [{"id", "title", "text", "section", "seed_lines"}]}`` (``dunenb rules text --json``)."""
    return {"rules": [entry.to_json() for entry in entries()]}
