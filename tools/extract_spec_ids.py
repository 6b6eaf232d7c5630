"""Read the three specs and write ``data/spec_ids.json``: every rule ID with its group, section and seed lines.

The specs (``rules_digest.md``, ``houses.md``, ``leaders.md``) live in ``shared/spec``, which a user's machine does
not have; the list they give is shipped as data so that the rules reference (``dunenb rules show``) and the coverage
report (``dunenb rules coverage``) read the IDs from the specs, not from the code. Run it after a spec changes:

    python tools/extract_spec_ids.py [SPEC_DIR] [--check]

``SPEC_DIR`` defaults to ``/work/shared/spec`` or ``../shared/spec``; ``--check`` exits 1 if the shipped file is stale.

What counts as an ID (the matching rules):

* digest: every bullet that opens with a bold ID (``* **STORM-2 — main storm**``), and every row of the Karama table
  (``| KARAMA-5 | Fremen | L1513 | ...``). Its section is the ``##`` heading it sits under (``### `` sub-headings
  of §20 are appended); its seed lines are the ``L``/``F`` references of its first parenthesis (or table cell).
* houses.md: the starting conditions (``X-START``), the House powers (``X-Pn``), the main-leader powers (``X-Mn``)
  and the general conventions (``G-n``); seed lines are every ``L`` reference in the entry.
* leaders.md: every secondary leader power, named ``HOUSE-Lnn-x`` (the leader's ID and the power's letter), with the
  seed line written after it; and the note's own rules and decisions (``LC-n`` conventions, ``K-n`` effect kinds,
  ``S-n`` one-off rules, ``X-n`` allocation, ``D-n`` decisions), with the ``L`` references of their first line.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "spec_ids.json"
DEFAULT_DIRS = (Path("/work/shared/spec"), ROOT.parent / "shared" / "spec")

ID = r"[A-Z][A-Z0-9]*(?:-[A-Za-z0-9]+)+"
REF = re.compile(r"\b[LF]\d+(?:-\d+)?\b")
HOUSE_TITLES = {
    "FREMEN": "Fremen", "EMPEROR": "Emperor", "GUILD": "Guild", "DISPERSION": "Dispersion", "BG": "Bene Gesserit",
    "TLEILAX": "Bene Tleilax", "ATREIDES": "Atreides", "HARKONNEN": "Harkonnen",
}


def find_spec_dir(argv_dir: str | None = None) -> Path | None:
    """The first spec folder that exists (an explicit one first), or ``None``."""
    candidates = [Path(argv_dir)] if argv_dir else list(DEFAULT_DIRS)
    for folder in candidates:
        if (folder / "rules_digest.md").is_file():
            return folder
    return None


def _refs(text: str) -> list[str]:
    seen: list[str] = []
    for ref in REF.findall(text):
        if ref not in seen:
            seen.append(ref)
    return seen


def _first_paren_refs(text: str) -> list[str]:
    for group in re.findall(r"\(([^()]*)\)", text):
        refs = _refs(group)
        if refs:
            return refs
    return []


def digest_group(rule_id: str) -> str:
    """``KARAMA-12`` → ``KARAMA``; ``CARD-ATOMICS-3`` → ``CARD``; ``GAP-26b`` → ``GAP``."""
    return rule_id.split("-")[0]


def extract_digest(text: str) -> list[dict]:
    entries: list[dict] = []
    section = sub = ""
    for line in text.splitlines():
        if line.startswith("## "):
            section, sub = line[3:].strip(), ""
            continue
        if line.startswith("### "):
            sub = line[4:].strip()
            continue
        bullet = re.match(rf"^\* \*\*({ID})\b(.*)$", line)
        row = re.match(rf"^\| ({ID}) \| ([^|]*)\| ([^|]*)\|", line)
        if bullet and bullet.group(1) != "PROPOSAL":
            rule_id, rest = bullet.group(1), bullet.group(2)
            title = re.match(r"^\s*—\s*([^*(]+)", rest)
            refs = _first_paren_refs(rest[:400]) or _refs(rest)
            entries.append({"id": rule_id, "spec_title": title.group(1).strip(" .") if title else "",
                            "seed_lines": refs})
        elif row and row.group(1).startswith("KARAMA-"):
            entries.append({"id": row.group(1), "spec_title": "", "seed_lines": _refs(row.group(3)),
                            "house": row.group(2).strip()})
        else:
            continue
        head = section.split(" — ")[0]
        entries[-1]["section"] = f"digest §{head} / {sub}" if sub else f"digest §{head}"
        entries[-1]["group"] = digest_group(entries[-1]["id"])
        entries[-1]["spec"] = "rules_digest.md"
    return entries


def extract_houses(text: str) -> list[dict]:
    entries: list[dict] = []
    section = ""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        start = re.match(rf"^\*\*Start — ({ID})\.?\*\*(.*)$", line)
        power = re.match(r"^\* \*\*((?:[A-Z]+-[PM]\d+)|(?:G-\d+))\b\s*([^*]*)\*\*(.*)$", line)
        if start:
            rule_id, title, body = start.group(1), "Starting conditions", start.group(2)
            if not body.strip():  # the FREMEN-START block: its bullets follow
                body = "\n".join(lines[index + 1:index + 6])
            group = "house-start"
        elif power:
            rule_id, title, body = power.group(1), power.group(2).strip(" ."), power.group(3)
            group = "convention" if rule_id.startswith("G-") else (
                "house-power" if re.match(r"^[A-Z]+-P\d+$", rule_id) else "main-leader-power")
        else:
            continue
        entries.append({"id": rule_id, "spec_title": title, "seed_lines": _refs(body), "section": f"houses §{section}",
                        "group": group, "spec": "houses.md"})
    return entries


def extract_leaders(text: str) -> list[dict]:
    entries: list[dict] = []
    section = ""
    for line in text.splitlines():
        if line.startswith("## "):
            section = "leaders §" + re.sub(r"\s*\(.*", "", line[3:].strip())
        if line.startswith("### 2."):
            section = "leaders §" + re.sub(r"\s*\(.*", "", line[4:].strip())
            continue
        convention = re.match(r"^\s*\* \*\*((?:LC|K|S|X|D)-\d+)\b\s*([^*]*)\*\*(.*)$", line)
        if convention:
            title = re.sub(r"\s*\(.*$", "", convention.group(2)).strip(" .")
            entries.append({"id": convention.group(1), "spec_title": title,
                            # F01 ... are leaders.md's short leader names, not seed 003 lines: keep the L refs only
                            "seed_lines": [r for r in _refs(convention.group(2) + convention.group(3))
                                           if r.startswith("L")], "section": section,
                            "group": "leader-special" if convention.group(1).startswith("S-") else
                            "leaders-convention", "spec": "leaders.md"})
            continue
        leader = re.match(r"^\* \*\*([A-Z]+-L\d\d) ([^*]+)\*\*(.*?)— (.*)$", line)
        if not leader:
            continue
        leader_id, name = leader.group(1), leader.group(2).strip()
        for part in leader.group(4).split(" · "):
            power = re.match(r"^\s*\*\*([a-z])\*\* (.*?)\s*(L\d+(?:-\d+)?)?\s*(?:\([^()]*\))?\s*$", part)
            if not power:
                continue
            entries.append({"id": f"{leader_id}-{power.group(1)}", "spec_title": f"{name}: {power.group(2)}",
                            "seed_lines": [power.group(3)] if power.group(3) else [], "section": section,
                            "group": "leader-power", "spec": "leaders.md", "leader": leader_id,
                            "leader_name": name, "power": power.group(2)})
    return entries


def extract(spec_dir: Path) -> dict:
    """The whole list, in spec order (digest, houses, leaders)."""
    ids = (extract_digest((spec_dir / "rules_digest.md").read_text(encoding="utf-8"))
           + extract_houses((spec_dir / "houses.md").read_text(encoding="utf-8"))
           + extract_leaders((spec_dir / "leaders.md").read_text(encoding="utf-8")))
    seen: set[str] = set()
    unique = []
    for entry in ids:
        if entry["id"] not in seen:
            seen.add(entry["id"])
            unique.append({key: entry[key] for key in ("id", "group", "section", "seed_lines", "spec", "spec_title")}
                          | {k: v for k, v in entry.items() if k in ("house", "leader", "leader_name", "power")})
    return {
        "format": "dunenb.spec_ids/1",
        "source": "shared/spec rules_digest.md, houses.md, leaders.md, read by tools/extract_spec_ids.py "
                  "(seed lines: L = seed 000 line, F = seed 003 line, as the specs give them)",
        "ids": unique,
    }


def render(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    spec_dir = find_spec_dir(args[0] if args else None)
    if spec_dir is None:
        print("no spec folder found (shared/spec)", file=sys.stderr)
        return 2
    text = render(extract(spec_dir))
    if "--check" in argv:
        stale = not OUT.is_file() or OUT.read_text(encoding="utf-8") != text
        print(f"{OUT} is {'stale' if stale else 'up to date'}")
        return int(stale)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}: {len(json.loads(text)['ids'])} IDs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
