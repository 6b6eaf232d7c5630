"""K-15 BOUNTY: the spice paid for a killed leader, as leaders.md LC-8 computes it (issue 11 item 2).

The base bounty is the victim's base strength (BATTLE-13 f3, TRAITOR-10; GAP-28a: never his wheel value). Then,
in this order (LC-8):

1. the victim's own ``victim_fixed(n)`` entry sets it to n (EMPEROR-L07-d Irulan 2, HARKONNEN-L12-d Ziarenko 0,
   "even after a treachery");
2. the killer side's multipliers (``×2``: EMPEROR-L01-c / GUILD-L08-b Hasimir, HARKONNEN-L02-c Zebataleh when the
   victim is ``of Fremen``);
3. the killer side's additions (``+n``: FREMEN-L02-c, GUILD-L07-d, GUILD-L09-c, GUILD-L10-c, HARKONNEN-L03-b when
   the victim is ``of Atreides``, HARKONNEN-L05-e).

"Kills" means the opposing leader dies in a battle this leader leads, whatever the cause, a called traitor's
death included: the killer side's entries are those of the leader on its wheel (none without a leader, GAP-43).
``killer_pays(n)`` (HARKONNEN-L11-d Soo-Soo) is a fine: once paid his bounty, the killer's House pays n to the
Bank, as far as it can (the game pays it; the outcome reports it as the side's ``bounty_fine``).

Which entries act is :func:`dunenb.battle.leader_powers.acting` (LC-9/10/11: a foreign leader's powers are
off, a Karama blocks them; BOUNTY entries are powers). An explosion or battle Atomics pay no bounty
(GAP-29b): the resolver does not call this then. The 2 spice for a surviving traitor are no bounty (LC-8).
GAP-106: every entry acts on a called traitor's death too (E07-d as H12-d); the fine is capped by the killer
House's spice by the game, not here.

>>> from dunenb.battle.leader_powers import Scene
>>> from dunenb.battle.roster import load_roster
>>> roster = load_roster()
>>> hasimir, irulan = roster.find("Hasimir", house="emperor"), roster.find("Irulan", house="emperor")
>>> bounty_for(Scene.of("arrakeen", ("emperor", "emperor"), (hasimir, irulan), defender=0), killer=0)
Bounty(amount=4, fine=0, powers=(('EMPEROR-L01-c',), ('EMPEROR-L07-d',)))
"""

from __future__ import annotations

from dataclasses import dataclass

from dunenb.battle.leader_powers import Scene, acting
from dunenb.battle.roster import Power
from dunenb.powers.leader_effects import Effect

KIND = "BOUNTY"


@dataclass(frozen=True)
class Bounty:
    """The bounty side ``killer`` receives for the opposing leader, the fine it then owes the Bank
    (``killer_pays``) and the power IDs that changed either, per side (battle side order)."""

    amount: int
    fine: int
    powers: tuple[tuple[str, ...], tuple[str, ...]]


def effect_args(power: Power) -> tuple[str, ...]:
    """The ``args`` of an entry of a kind not typed further (K-15, K-17: :class:`Effect`); ``()`` otherwise."""
    return power.effect.args if isinstance(power.effect, Effect) else ()


def _number(word: str) -> int:
    return int(word.lstrip("+×"))


def bounty_for(scene: Scene, killer: int) -> Bounty:
    """LC-8 for the leader of side ``1 - killer``, killed in this battle (he must be on the wheel)."""
    victim = 1 - killer
    leader = scene.leaders[victim]
    assert leader is not None, "a bounty needs a killed leader"
    amount, fine = leader.strength, 0
    used: list[list[str]] = [[], []]
    for power in acting(scene, victim, KIND):  # 1. the victim's own entry (a fixed value), or his fine
        mode, *rest = (effect_args(power) or ("",))[0].split() or [""]
        # GAP-147: an entry is reported only when it changed the bounty or set a fine
        if mode == "victim_fixed":
            changed, amount = int(rest[0]) != amount, int(rest[0])
        elif mode == "killer_pays":
            changed, fine = int(rest[0]) > 0, int(rest[0])
        else:
            continue
        if changed:
            used[victim].append(power.id)
    entries = acting(scene, killer, KIND)
    for prefix in ("×", "+"):  # 2. the killer side's multipliers, 3. then its additions
        for power in entries:
            word = (effect_args(power) or ("",))[0]
            if word.startswith(prefix):
                before = amount
                amount = amount * _number(word) if prefix == "×" else amount + _number(word)
                if amount != before:  # GAP-147: x2 of a 0 bounty (HARKONNEN-L12-d) changed nothing
                    used[killer].append(power.id)
    return Bounty(amount, fine, (tuple(used[0]), tuple(used[1])))
