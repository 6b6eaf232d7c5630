"""Plain-English texts for the secondary leaders' powers, built from their leaders.md notation.

The leaders note writes each power in a small vocabulary (``WHEEL_VALUE(11 | desert)``); until the leaders issue
gives every power its own sentence in ``data/rules_reference.json``, the reference explains it from that notation.

>>> leader_power_text("Stilgar", "WHEEL_VALUE(11 | desert)")
'Stilgar is worth 11 on the battle wheel in a desert.'
>>> leader_power_text("Chani", "DISARM(on self | opp Paul)")
'Chani is worth nothing and may not attack against Paul.'
>>> leader_power_text("Jamis", "RESTRICTION(never_traitor_of Atreides)")
'Jamis can never be a traitor of the Atreides.'
"""

from __future__ import annotations

import re

HOUSES = {
    'Atreides': 'the Atreides',
    'BG': 'the Bene Gesserit',
    'Emperor': 'the Emperor',
    'Fremen': 'the Fremen',
    'Guild': 'the Guild',
    'Harkonnen': 'the Harkonnen',
    'Dispersion': 'the Dispersion',
    'Tleilax': 'the Bene Tleilax',
}
TERRAIN = {
    'desert': 'in a desert',
    'mountain': 'in the mountains',
    'city': 'in a city',
    'sietch': 'in a Sietch',
    'pole': 'at the North Pole',
    'open': 'outside the cities and Sietchs',
    'desert+mountain': 'in the deserts and the mountains',
    'attacker': 'when attacking',
    'defender': 'when defending',
}
POST = {
    'keep all': 'the leader takes back every card played',
    'keep attack': 'the leader takes back the attack card played',
    'keep defence': 'the leader takes back the defence card played',
    'steal_random 1': "the leader's House takes 1 random card from the enemy's hand",
    'give_card': "the leader's House gives the winner 1 card",
    'discard_free 1': "the leader's House may throw away 1 card from its hand",
    'half_losses': 'half of the tokens dialled are saved',
    'torture': "the leader's House gets a truth trance to put to the dead leader's House",
    'blast': 'a last projectile strikes the opposing leader (only a shield stops it)',
    'destroy_tanks 1': "1 of the winner's dead tokens is destroyed for good",
    'destroy_tanks 1d3': "up to 1d3 of the winner's dead tokens are destroyed for good",
    'lose_tokens 3 Carthag': 'up to 3 Harkonnen tokens in Carthag are lost',
    'heal 2': "up to 2 of the leader's House's tokens lost in the battle come back",
    'heal 3': "up to 3 of the leader's House's tokens lost in the battle come back",
    'chosen_capture': 'the Harkonnen choose the leader they capture',
    'extra_revival 3': "the leader's House may revive 3 more tokens this turn",
    'gain_spice 3': "the leader's House gains 3 spice",
    'ration': "the leader's House may send its tokens there home for 2 spice each",
    'see_spice': 'the loser shows his spice',
    'reinforce value 2': 'free tokens worth 2 join the territory',
    'regen_dialled': 'the dialled tokens are not lost',
    'ship': 'more tokens may land in the territory at half price',
    'capture': 'the leader captures the enemy leader',
    'spare 4': 'the leader may spare a dying enemy leader for 4 spice',
    'see_traitor Atreides': 'the Atreides must show the Dispersion their traitor slip',
    'see_traitor BG': 'the Bene Gesserit must show the Dispersion their traitor slip',
    'draw 2, first shown': "the leader's House draws 2 free cards (the Atreides see the first)",
    'draw 1, shown unless 2 paid': "the leader's House draws 1 free card, seen by the Atreides unless it pays 2 spice",
}
TRIGGERS = {
    'win': 'When the leader wins',
    'lose': 'When the leader loses',
    'any': "After each of the leader's battles",
    'win+alive': 'When the leader wins and lives',
    'survive': 'When the leader survives a battle',
    'self_dies': 'When the leader dies in battle',
    'enemy_dies+alive': 'When the enemy leader dies and this one lives',
}
PRE = {
    'see_leader': 'the opponent must show his leader first',
    'see_card': "the leader looks at 1 random card of the opponent's hand",
    'lock_spice': 'the opponent must announce the spice on his wheel now',
    'see_storm': "the leader's House may pay the Fremen 1 spice to see their storm tokens",
    'sense_karama': 'the opponent must say whether his wheel holds a Karama',
    'reinforce +2': "2 free tokens join the leader's army from the reserve",
    'reinforce ×2': "free tokens from the reserve double the leader's army there",
    'gain_spice 1d2': "the leader's House gains 1d2 spice",
    'gain_spice 2': "the leader's House gains 2 spice",
    'buy_card 3 or 5': "the leader's House may buy the deck's top card (3 spice, seen by the Atreides, or 5, unseen)",
    'swap_card': "the leader's House swaps a card with the discard pile",
    'fill_hand 6': "the leader's House draws up to 6 cards",
    'traitor_draw': "the Harkonnen draw one of the opponent's leaders as a traitor for this battle",
    'estimate army ±1': 'the opponent must name his army value to within 1',
    'estimate leader ±2': "the opponent must name his leader's strength to within 2",
}


CARDS = {"shield": "a shield", "snooper": "a snooper", "lasgun": "a lasgun", "atomics": "Atomics"}


def condition_text(cond: str) -> str:
    """``'opp Paul ∨ Shaddam'`` → ``'against Paul or Shaddam'``."""
    parts = []
    previous = ""
    for piece in re.split(r"\s*([∨∧])\s*", cond.replace("(", "").replace(")", "").strip()):
        if piece in ("∨", "∧"):
            parts.append("or" if piece == "∨" else "and")
            continue
        words = piece.split()
        if not words:
            continue
        if previous.startswith("opp ") and not previous.startswith("opp of") and piece[:1].isupper() \
                and piece not in ("Polymorph",) and not piece.startswith(("Arsunt", "Carthag", "Arrakeen")):
            piece, words = f"opp {piece}", ["opp", *words]
        previous = piece
        if piece in TERRAIN:
            parts.append(TERRAIN[piece])
        elif piece in ("male", "female", "Polymorph"):
            parts.append({"male": "a male leader", "female": "a female leader",
                          "Polymorph": "a Polymorph Face Dancer"}[piece])
        elif words[0] == "opp" and len(words) > 2 and words[1] == "of":
            parts.append(f"against a leader of {HOUSES.get(words[2], words[2])}")
        elif words[0] == "opp" and len(words) > 1:
            who = " ".join(words[1:])
            who = {"male": "a male leader", "female": "a female leader", "any": "any leader", "main":
                   "a main leader", "Polymorph": "a Polymorph Face Dancer", "Mentat": "a Mentat"}.get(who, who)
            parts.append(f"against {who}")
        elif words[0] == "victim" and len(words) > 2:
            parts.append(f"when the victim is a leader of {HOUSES.get(words[2], words[2])}")
        elif words[0] == "vs" and len(words) > 1:
            parts.append(f"against {HOUSES.get(words[1], words[1])}")
        elif words[-1] == "dead":
            parts.append(f"while {' '.join(words[:-1])} is dead")
        elif piece == "d10 > base":
            parts.append("on a d10 roll above the enemy leader's strength")
        elif words[0].startswith("d10"):
            parts.append(f"on a d10 roll of {piece[3:].strip().replace('≤', 'at most ').replace('= ', '')}")
        else:
            parts.append(f"in {piece}")
    return " ".join(parts)


def _split(args: str) -> tuple[str, str]:
    main, _, cond = args.partition("|")
    return main.strip(), cond.strip()


def leader_power_text(name: str, power: str) -> str:
    """One or two plain sentences for a power written ``KIND(args)``; unknown forms get a generic sentence."""
    power = re.sub(r"\s*\*\([^)]*\)\*", "", power).strip()
    match = re.match(r"^([A-Z_]+)(?:\((.*)\)|\s+(.*))?$", power)
    if not match:
        return f"{name} has a special rule ({power})."
    kind, (main, cond) = match.group(1), _split(match.group(2) or match.group(3) or "")
    when = f" {condition_text(cond)}" if cond else ""
    text = _kind_text(kind, name, main, cond, when)
    return text if text.endswith(".") else text + "."


def _kind_text(kind: str, name: str, main: str, cond: str, when: str) -> str:  # noqa: C901 - one table of kinds
    if kind == "WHEEL_VALUE":
        return f"{name} is worth {main} on the battle wheel{when}"
    if kind == "WHEEL_MODIFIER":
        value, _, target = main.partition(" on ")
        value, target = value.strip(), target.strip()
        if "per Voice command" in value:
            return (f"{name} gains {value.split()[0].lstrip('+')} on the wheel for each Voice command given against "
                    f"that side{when}")
        amount = value.lstrip("+−-")
        up = not value.startswith(("−", "-"))
        if not target or target == "self":
            return f"{name} {'gains' if up else 'loses'} {amount} on the wheel{when}"
        if target == "Vladimir":
            return f"While {name} lives, Vladimir counts {amount} more in every battle he leads{when}"
        return f"{name} {'raises' if up else 'lowers'} the opposing leader's value by {amount}{when}"
    if kind == "DISARM":
        if main.startswith("on self"):
            return f"{name} is worth nothing and may not attack{when}"
        return f"{name} makes the opposing leader worth nothing, with no attack{when}"
    if kind == "TROOPS_WORTH_ONE":
        return f"Every token of the leader's House that {name} leads counts 1 on the wheel, like a marked token{when}"
    if kind == "ARMY_BONUS":
        return f"{name} adds {main} to the leader's side's army value{when}"
    if kind == "CARD_SLOTS":
        numbers = re.findall(r"(\d+) (distinct )?(attacks|defences)", main)
        words = {"0": "no", "1": "one", "2": "two"}
        slots = " and ".join(f"{words.get(n, n)} {'different ' if d else ''}{k[:-1] if n == '1' else k}"
                             for n, d, k in numbers)
        return f"{name} may put {slots} on the wheel instead of one attack and one defence"
    if kind == "BUILTIN_WEAPON":
        weapon, _, mode = main.rpartition(",")
        extra = {"extra": "on top of an attack card", "extra_no_defence": "on top of an attack card (then with no "
                 "defence)", "in_slot": "in the attack slot"}.get(mode.strip(), mode)
        return f"{name} carries a personal weapon, {weapon.strip()}, usable {extra}{when.replace(' at B1', '')}"
    if kind == "BUILTIN_DEFENSE":
        roll = re.search(r"d10≤(\d+)", main)
        return (f"{name} wears a shield that works on a d10 roll of {roll.group(1) if roll else '?'} or less"
                f"{'; it may be paired with ' + cond.replace('adds ', '').replace('∨', 'or') if cond else ''}")
    if kind == "CARD_RULE":
        rules = {"slow_to_fast": "the BG slow poison may act as a fast one",
                 "fast_as_slow_vs_self": "a fast poison against this leader acts as a slow one",
                 "two_pass_rolls": "the leader gets two tries to get past a shield",
                 "snooper_fails": "the leader's poison may get past a snooper against a Harkonnen leader",
                 "worthless_is_karama": "the House's worthless cards count as Karama in that battle"}
        if main.startswith("atomics_licence"):
            return f"Atomics in {name}'s battles against {HOUSES.get(main.split()[-1], main)} bring no sanction"
        return f"With {name}, {rules.get(main, main)}"
    if kind == "IMMUNITY":
        names = {"voice": "the Voice", "prescience": "prescience", "poison_slow": "slow poison",
                 "poison_all": "every poison", "seduction": "seduction",
                 "all_but_lasgun_atomics": "every weapon but the lasgun and Atomics",
                 "voice[shield,snooper]": "Voice commands about shields and snoopers"}
        things = " and ".join(names.get(t.strip(), t.strip()) for t in re.split(r",(?![^\[]*\])", main))
        return f"{name} is immune to {things}{when}"
    if kind == "VOICE":
        how = {"1/turn": " once a turn", "+1/turn": ", one extra command a turn",
               "scope+": ", and may also name worthless or Karama cards"}.get(main, "")
        roll = re.search(r"d10≤(\d+)", main)
        if roll:
            how = f" when an open d10 roll gives {roll.group(1)} or less"
        return f"In {name}'s battles the leader's House may give a Voice command like the Bene Gesserit{how}{when}"
    if kind == "PRESCIENCE":
        about = {"attack": "about the attack", "defence": "about the defence"}.get(main, "about the attack or "
                                                                                     "the defence")
        return f"In {name}'s battles the leader's House may ask one more prescience question, {about}{when}"
    if kind == "TRUTH_TRANCE":
        count = main.split()[0] if main else "1"
        return f"{name} brings {count} truth trance{'s' if count != '1' else ''} to each of the leader's battles"
    if kind == "KILL":
        return (f"{name} kills the opposing leader whatever the defence"
                f"{' ' + condition_text(main) if main else ''}{when}")
    if kind == "BOUNTY":
        if main.startswith("×2"):
            return f"Killing {name}'s opponent pays a double bounty{when}"
        if main.startswith("+"):
            return f"A bounty earned in {name}'s battle pays {main[1:]} more spice{when}"
        if main.startswith("victim_fixed"):
            return f"Killing {name} pays exactly {main.split()[-1]} spice, whatever the strength"
        if main.startswith("killer_pays"):
            return f"Whoever kills {name} must pay {main.split()[-1]} spice to the Bank"
        return f"The bounty for {name} changes ({main}){when}"
    if kind == "PRE_BATTLE":
        return f"Before the wheels are revealed in {name}'s battle, {PRE.get(main, main)}{when}"
    if kind == "POST_BATTLE":
        trigger, _, action = main.partition(",")
        if not action:
            trigger, action = "any", trigger
        head = TRIGGERS.get(trigger.split(" ∧ ")[0].strip(), f"After a battle ({trigger.strip()})")
        extra = f" ({condition_text(trigger.split(' ∧ ')[1])})" if " ∧ " in trigger else ""
        return f"{head}{extra}, {POST.get(action.strip(), action.strip())}{when}"
    if kind == "ALLIANCE_INSTEAD_OF_BATTLE":
        partner, _, offer = main.partition(",")
        offer = offer.strip()
        what = {"spice": "for spice", "revive": "in which the Tleilax revive the partner's dead",
                "prescience(k)": "lending the Atreides prescience for some turns",
                "traitor": "showing one of the Harkonnen's traitor slips", "leader_exchange": "exchanging leaders"}
        return (f"{name} may propose an alliance {what.get(offer, offer)} instead of fighting "
                f"{condition_text(partner)}; if it is made, the battle is void")
    if kind == "BUY_OFF":
        return f"{name}'s House may pay {main.split()[0]} spice to the enemy to call the battle off"
    if kind == "REGENERATES":
        return f"{name} comes back from the dead at the start of the next turn"
    if kind == "RESTRICTION":
        rule, _, arg = main.partition(" ")
        rules = {"never_traitor": f"{name} can never be a traitor",
                 "never_traitor_of": f"{name} can never be a traitor of {HOUSES.get(arg, arg)}",
                 "always_traitor_of": f"{name} is always a traitor of the Harkonnen",
                 "no_house_powers": f"The Dispersion's House powers do not work through {name}",
                 "marks_void": f"Under {name} the Dispersion's marked tokens count only ½",
                 "cannot_carry": f"{name} may not carry "
                                 f"{' or '.join(CARDS.get(c.strip(), c.strip()) for c in arg.split(','))}",
                 "attacks_only": f"{name} attacks only with "
                                 f"{' or '.join(CARDS.get(c.strip(), c.strip()) for c in arg.split(','))}",
                 "no_army": f"{name} fights with no army on the wheel",
                 "one_battle_per_turn": f"{name} fights at most one battle a turn",
                 "dies_in": f"{name} dies if committed to a battle in {arg}"}
        return rules.get(rule, f"{name}: {main}")
    if kind == "MOBILITY":
        return (f"{name} may lead battles in Arrakeen, Carthag and Arsunt during one turn" if main.startswith("cities")
                else f"{name} may open a battle at the North Pole")
    if kind == "EXCLUSIVE":
        if main.startswith("no_real"):
            return f"This copy of {name} plays only if the real {main[8:].replace(' alive', '')} is not in the game"
        first = [HOUSES.get(h.strip(), h.strip()) for h in main[6:].split(";")[0].split(",")]
        return (f"This copy of {name} plays only if {' and '.join(first)} "
                f"{'are' if len(first) > 1 or first[0] not in ('the Emperor', 'the Guild') else 'is'} not in the "
                "game (they have first claim on the character)")
    if kind == "INHERIT":
        if "→" in main:
            source, heir = (part.strip() for part in main.split("→"))
            return f"While {source} is dead, {heir.split()[0]} also holds {source}'s powers"
        if main.startswith("successor of"):
            return (f"{name} becomes main leader when {main.split()[2]} dies, keeping only {name}'s own powers "
                    "(see G-7)")
        return f"At {name}'s death the Weapon passes to the strongest living Honored Matre"
    if kind == "SPECIAL":  # the reference shows the written text of S-n instead (dunenb.rules_reference)
        return f"{name} has a one-off rule of his own, {main}"
    return f"{name} has a special rule ({kind}: {main})"
