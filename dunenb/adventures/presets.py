"""Ready-made conflicts for the five conflict types of the seed (seed lines 264-268, 306-312, 2D20-GAP-10).

Each preset has zones (body parts for a duel, places for a skirmish or warfare, the parts of a plot for
espionage, people for an intrigue) and sample assets, read from ``conflict_presets`` in the rules data.

>>> duel = conflict_preset("duel")
>>> duel.zones.neighbours("torso")
('head', 'weapon arm', 'guard arm', 'legs')
>>> duel.asset("Crysknife", owner="Jamis").wielded
True
>>> sorted(PRESET_KINDS)
['duel', 'espionage', 'intrigue', 'skirmish', 'warfare']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from dunenb.adventures.assets import Asset, Zones
from dunenb.adventures.rules import rule
from dunenb.adventures.validation import check_choice

PRESET_KINDS: tuple[str, ...] = tuple(rule("conflict_presets"))


@dataclass(frozen=True)
class ConflictPreset:
    """Zones and asset templates of one conflict type."""

    kind: str
    zones: Zones
    templates: Mapping[str, Mapping[str, Any]]

    def asset(self, template: str, owner: str, zone: str | None = None, **changes: Any) -> Asset:
        """An asset built from ``template`` for ``owner`` (in its usual zone unless ``zone``); ``changes``
        override fields, e.g. ``name="Jamis's crysknife"`` when both sides carry one."""
        fields = dict(self.templates[check_choice("asset template", template, tuple(self.templates))])
        fields.update(changes)
        if zone is not None:
            fields["zone"] = self.zones.check(zone)
        return Asset(owner=owner, **fields)

    def assets(self, owners: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[Asset, ...]:
        """Assets for several templates at once: ``{template name: owner}``."""
        pairs = owners.items() if isinstance(owners, Mapping) else owners
        return tuple(self.asset(name, owner) for name, owner in pairs)


def conflict_preset(kind: str) -> ConflictPreset:
    """The preset of one conflict type: duel, skirmish, warfare, espionage or intrigue."""
    data = rule("conflict_presets")[check_choice("conflict type", kind, PRESET_KINDS)]
    zones = Zones.from_links(data["zones"], [tuple(link) for link in data["links"]])
    templates = {item["name"]: MappingProxyType(dict(item)) for item in data["assets"]}
    for item in templates.values():
        zones.check(item["zone"])
    return ConflictPreset(kind, zones, MappingProxyType(templates))
