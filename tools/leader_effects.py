"""Write the structured K-vocabulary form of every leader power into ``data/leaders.json`` (issue 11 item 1).

The source is the per-House tables of ``shared/spec/leaders.md`` section 2: each power is written there as
``KIND(parameters | condition)``. This script splits every entry into the ``effect`` object that
:mod:`dunenb.powers.leader_effects` parses at load, checks that the spec's IDs match the data's, keeps each
entry's ``text`` and writes the file with format ``dunenb.leaders/2``.

Usage (from the repository root)::

    python tools/leader_effects.py [path/to/leaders.md]      # rewrites data/leaders.json
    python tools/leader_effects.py --check                   # exit 1 if the data is not what the spec gives

The ``effect`` object: ``kind`` (K-1..K-25), ``args`` (the parameters before ``|``, split on top-level commas),
``when`` (the condition after ``|``, LC-3/LC-4 words with ``∧``/``∨``, when the kind takes one), ``roll`` (a
d10 test such as ``d10≤4``), and for the value kinds typed fields: ``value`` (K-1), ``delta``/``on``/``per``
(K-2), ``on`` (K-3), ``amount`` (K-5).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "leaders.json"
SPEC = ROOT.parent / "shared" / "spec" / "leaders.md"
FORMAT = "dunenb.leaders/2"
EFFECT_NOTE = (
    "effect (format dunenb.leaders/2, issue 11): each secondary leader's power in the leaders.md section 1 "
    "vocabulary (kind K-1..K-25, typed fields value/delta/on/per/amount, args, when = a condition of LC-3/LC-4 "
    "words with ∧/∨, roll = a d10 test), generated from the spec tables by tools/leader_effects.py and parsed at "
    "load by dunenb.powers.leader_effects (an unknown kind, parameter or condition word is a load error). text "
    "keeps the spec's wording. In battles the value kinds WHEEL_VALUE, WHEEL_MODIFIER (on self / opponent), "
    "DISARM, TROOPS_WORTH_ONE and ARMY_BONUS act (dunenb.battle.powers, LC-6); the other kinds are data only "
    "until a later session implements them (dunenb rules coverage says which)."
)

ROW = re.compile(r"^\* \*\*(?P<id>[A-Z]+-L\d\d) [^*]+\*\*.*? — (?P<powers>.*)$")
ENTRY = re.compile(r"^\*\*(?P<letter>[a-z])\*\* (?P<text>.*?)(?: L(?P<line>\d+)(?: .*)?)?$")
ROLL = re.compile(r"^(d10\s*(≤|>|=)\s*\S+.*)$")
NUMBER = re.compile(r"^[+−-]?\d+$")


def _split_top(text: str, sep: str = ",") -> list[str]:
    """Split ``text`` on ``sep`` outside parentheses and quotes."""
    parts, depth, quoted, current = [], 0, False, ""
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "([":
            depth += 1
        elif not quoted and ch in ")]":
            depth -= 1
        if ch == sep and depth == 0 and not quoted:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def _number(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def parse_entry(text: str) -> dict[str, Any]:
    """The ``effect`` object of one spec entry, e.g. ``WHEEL_VALUE(11 | desert)``."""
    trait = text.endswith("(trait)") or text.endswith("*(trait)*")
    body = text.removesuffix("*(trait)*").removesuffix("(trait)").strip()
    match = re.match(r"^([A-Z_]+)\s*(.*)$", body)
    assert match, text
    kind, rest = match.group(1), match.group(2).strip()
    inner = rest
    if rest.startswith("(") and rest.endswith(")"):
        inner = rest[1:-1]
    elif rest.startswith("("):  # KIND(args) trailing words, e.g. TROOPS_WORTH_ONE ("the Weapon")
        inner = rest[1:rest.rindex(")")]
    head, _, tail = inner.partition("|")
    head, tail = head.strip(), tail.strip()
    effect: dict[str, Any] = {"kind": kind}
    args = _split_top(head) if head else []
    if kind == "TROOPS_WORTH_ONE" and args and args[0].startswith('"'):
        effect["note"] = args[0].strip('"')
        args = []
    if tail:
        if ROLL.match(tail):
            effect["roll"] = tail
        elif kind in ("ALLIANCE_INSTEAD_OF_BATTLE", "BUILTIN_DEFENSE"):
            effect["mode"] = tail
        else:
            effect["when"] = tail
    if kind == "WHEEL_VALUE":
        effect["value"] = _number(args[0])
        args = []
    elif kind == "WHEEL_MODIFIER":
        words = args[0].split()
        effect["delta"] = _number(words[0])
        if words[1:3] == ["per", "Voice"]:
            effect["per"] = "voice_command"
            effect["on"] = "self"
        else:
            effect["on"] = words[2]
        args = []
    elif kind == "DISARM":
        effect["on"] = args[0].split()[1]
        args = []
    elif kind == "ARMY_BONUS":
        effect["amount"] = _number(args[0])
        args = []
    elif kind == "POST_BATTLE" and args and " ∧ " in args[0]:  # "win ∧ opp of BG": trigger, then condition
        trigger, condition = args[0].split(" ∧ ", 1)
        args[0] = trigger
        effect["when"] = condition
    elif kind == "KILL" and args:
        effect["when"] = args[0]
        args = []
    if args:
        effect["args"] = args
    if trait:
        effect["trait"] = True
    return effect


def spec_entries(spec: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    """Power ID -> (spec text, effect) for every entry of section 2."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for line in spec.read_text(encoding="utf-8").splitlines():
        row = ROW.match(line)
        if not row:
            continue
        for part in row.group("powers").split(" · "):
            entry = ENTRY.match(part.strip())
            assert entry, part
            power_id = f"{row.group('id')}-{entry.group('letter')}"
            text = entry.group("text").strip()
            found[power_id] = (text, parse_entry(text))
    return found


def build(spec: Path = SPEC) -> dict[str, Any]:
    """The leaders data with every secondary leader's power carrying its ``effect``."""
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    entries = spec_entries(spec)
    seen = set()
    for leader in raw["leaders"]:
        for power in leader["powers"]:
            if power["kind"] == "MAIN_POWER":
                continue  # houses.md main-leader powers: data/powers.json
            text, effect = entries[power["id"]]
            if text.replace("*", "") != power["text"].replace("*", ""):
                raise SystemExit(f"{power['id']}: data text {power['text']!r} differs from the spec's {text!r}")
            if effect["kind"] != power["kind"]:
                raise SystemExit(f"{power['id']}: kind {power['kind']} but the spec says {effect['kind']}")
            power["effect"] = effect
            seen.add(power["id"])
    missing = sorted(set(entries) - seen)
    if missing:
        raise SystemExit(f"spec powers missing from the data: {missing}")
    raw["format"] = FORMAT
    raw["notes"] = [note for note in raw["notes"] if not note.startswith(("powers are DESCRIPTIVE", "effect "))]
    raw["notes"].insert(2, EFFECT_NOTE)
    return raw


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [arg for arg in argv if not arg.startswith("--")]
    data = build(Path(paths[0]) if paths else SPEC)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if check:
        same = DATA.read_text(encoding="utf-8") == text
        print("data/leaders.json matches the spec" if same else "data/leaders.json differs from the spec")
        return 0 if same else 1
    DATA.write_text(text, encoding="utf-8")
    print(f"wrote {DATA} ({sum(len(x['powers']) for x in data['leaders'])} powers)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
