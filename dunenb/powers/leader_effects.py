"""The leaders.md effect vocabulary (K-1..K-25) as typed structures, parsed once at load (issue 11 item 1).

Each secondary leader's power in ``data/leaders.json`` (format ``dunenb.leaders/2``) carries an ``effect``
object written by ``tools/leader_effects.py`` from the spec tables: ``kind``, the kind's typed fields, ``args``
(the other parameters), ``when`` (a condition) and ``roll`` (a d10 test). :func:`parse_effect` turns it into one
of the dataclasses below; an unknown kind, a bad parameter or a condition word the engine does not know raises
:class:`~dunenb.errors.RulesDataError` naming the leader and the entry.

Conditions (leaders.md §1 syntax) combine words with ``∧`` (and), ``∨`` (or) and parentheses:

* terrain (LC-3): ``desert``, ``mountain``, ``city``, ``sietch``, ``pole``, ``open`` (neither city nor sietch),
  ``desert+mountain``, and the named territories (Arrakeen, Carthag, Arsunt, Sietch Tarb, Gara Kulon, Grotte aux
  Oiseaux, Faille Rouge, Nord/Sud Ciélago, Pôle Nord);
* roles (LC-2): ``attacker``, ``defender``;
* opponent (LC-4): ``vs X`` (the opposing House), ``opp Y`` where Y is a character (Paul, Vladimir, Shaddam,
  Feyd Rautha, Léto I, Léto II), ``main``, ``any``, ``male``, ``female``, ``of X`` (his own House, LC-9) or a
  closed set (D-13: ``Reverend Mother``, ``Mentat``, ``Polymorph``); a bare Y after ``opp`` in the same
  condition (``opp Paul ∨ Shaddam``, ``opp of Dispersion ∧ female``) is also an opponent word; ``victim of X``
  (K-15) is ``opp of X``;
* ``X dead``: that character is dead.

>>> parse_condition("opp of Tleilax ∧ (male ∨ Polymorph)")
AllOf(parts=(Word(kind='opp', arg='of:bene-tleilax'), AnyOf(parts=(Word(kind='opp', arg='male'), \
Word(kind='opp', arg='polymorph')))))
>>> parse_effect({"kind": "WHEEL_VALUE", "value": 11, "when": "desert"}, where="FREMEN-L01-a")
WheelValue(kind='WHEEL_VALUE', when=Word(kind='terrain', arg='desert'), value=11)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from dunenb.errors import RulesDataError

#: The 25 kinds of leaders.md §1, in order (K-1..K-25).
KINDS: tuple[str, ...] = (
    "WHEEL_VALUE", "WHEEL_MODIFIER", "DISARM", "TROOPS_WORTH_ONE", "ARMY_BONUS", "CARD_SLOTS", "BUILTIN_WEAPON",
    "BUILTIN_DEFENSE", "CARD_RULE", "IMMUNITY", "VOICE", "PRESCIENCE", "TRUTH_TRANCE", "KILL", "BOUNTY",
    "PRE_BATTLE", "POST_BATTLE", "ALLIANCE_INSTEAD_OF_BATTLE", "BUY_OFF", "REGENERATES", "RESTRICTION", "MOBILITY",
    "EXCLUSIVE", "INHERIT", "SPECIAL",
)
#: The kinds battles apply so far (issue 11 item 2: dunenb.battle.leader_powers and dunenb.battle.powers).
BATTLE_KINDS: tuple[str, ...] = KINDS[:5]
#: K-n number of each kind.
K_NUMBER: dict[str, str] = {kind: f"K-{index}" for index, kind in enumerate(KINDS, start=1)}

TERRAIN_KINDS = ("desert", "mountain", "city", "sietch", "pole", "open", "desert+mountain")
#: LC-3 named territories -> board.json area ids.
TERRITORIES: dict[str, str] = {
    "arrakeen": "arrakeen", "carthag": "carthag", "arsunt": "arsunt", "sietch tarb": "sietch-tarb",
    "gara kulon": "gara-kulon", "grotte aux oiseaux": "grotte-aux-oiseaux", "faille rouge": "faille-rouge",
    "nord cielago": "nord-cielago", "sud cielago": "sud-cielago", "pole nord": "pole-nord",
}
#: House words of the conditions -> roster House ids.
HOUSE_WORDS: dict[str, str] = {
    "atreides": "atreides", "harkonnen": "harkonnen", "fremen": "fremen", "emperor": "emperor", "guild": "guild",
    "dispersion": "dispersion", "bg": "bene-gesserit", "tleilax": "bene-tleilax",
}
#: LC-4 characters (any copy) -> leader ids.
CHARACTERS: dict[str, str] = {
    "paul": "paul", "vladimir": "vladimir", "shaddam": "shaddam-iv", "feyd rautha": "feyd-rautha",
    "leto i": "leto-i", "leto ii": "leto-ii",
}
OPP_WORDS = ("main", "any", "male", "female", "reverend mother", "mentat", "polymorph")

#: Allowed first words of ``args`` for the kinds not typed yet (leaders.md §1 lists them).
ARG_WORDS: dict[str, tuple[str, ...]] = {
    "CARD_SLOTS": ("0", "2"),
    "BUILTIN_WEAPON": ("contact", "fast", "slow", "karate"),
    "BUILTIN_DEFENSE": ("shield",),
    "CARD_RULE": ("slow_to_fast", "fast_as_slow_vs_self", "two_pass_rolls", "snooper_fails", "worthless_is_karama",
                  "atomics_licence"),
    "IMMUNITY": ("voice", "voice[shield,snooper]", "prescience", "poison_slow", "poison_all",
                 "all_but_lasgun_atomics", "seduction"),
    "VOICE": ("1/turn", "+1/turn", "d10≤4", "d10≤5", "scope+"),
    "PRESCIENCE": ("either", "attack", "defence"),
    "TRUTH_TRANCE": ("1", "2"),
    "BOUNTY": ("×2", "+1", "+2", "+3", "victim_fixed", "killer_pays"),
    "PRE_BATTLE": ("see_leader", "see_card", "lock_spice", "see_storm", "estimate", "sense_karama", "reinforce",
                   "gain_spice", "buy_card", "swap_card", "fill_hand", "traitor_draw"),
    "POST_BATTLE": ("win", "lose", "any", "win+alive", "survive", "self_dies", "enemy_dies+alive", "spare"),
    "ALLIANCE_INSTEAD_OF_BATTLE": ("opp",),
    "BUY_OFF": ("3", "5"),
    "REGENERATES": ("1",),
    "RESTRICTION": ("never_traitor", "never_traitor_of", "always_traitor_of", "no_house_powers", "marks_void",
                    "cannot_carry", "attacks_only", "no_army", "one_battle_per_turn", "dies_in"),
    "MOBILITY": ("cities", "pole"),
    "EXCLUSIVE": ("after", "no_real"),
    "INHERIT": ("Alma", "Esmar", "Rabban", "successor", "the"),
    "SPECIAL": tuple(f"S-{n}" for n in range(1, 10)),
}
ROLL = re.compile(r"^d10\s*(≤|>|=)\s*(\d+|base)(\s+at\s+B\d+)?$")


# ------------------------------------------------------------------------------------------------ conditions
@dataclass(frozen=True)
class Word:
    """One condition word: ``kind`` terrain / territory / role / vs / opp / dead, ``arg`` its normalised value
    (a terrain kind, an area id, ``attacker``/``defender``, a House id, an opponent word, a leader id)."""

    kind: str
    arg: str


@dataclass(frozen=True)
class AllOf:
    """Every part holds (``∧``)."""

    parts: tuple[Condition, ...]


@dataclass(frozen=True)
class AnyOf:
    """At least one part holds (``∨``)."""

    parts: tuple[Condition, ...]


Condition = Word | AllOf | AnyOf


def _plain(text: str) -> str:
    import dunenb.battle.roster as roster  # issue 14 item 3: a cheap import (dunenb.rules)

    return roster.fold(text).replace("-", " ")


def _word(text: str, *, opp_context: bool) -> Word:
    """One word of a condition (``opp_context``: an ``opp`` word came earlier in this condition)."""
    plain = _plain(text)
    if plain in TERRITORIES:
        return Word("territory", TERRITORIES[plain])
    if text.strip() in TERRAIN_KINDS:
        return Word("terrain", text.strip())
    if plain in ("attacker", "defender"):
        return Word("role", plain)
    if plain.endswith(" dead") and plain.removesuffix(" dead") in CHARACTERS:
        return Word("dead", CHARACTERS[plain.removesuffix(" dead")])
    if plain.startswith("vs ") and plain[3:] in HOUSE_WORDS:
        return Word("vs", HOUSE_WORDS[plain[3:]])
    rest = None
    if plain.startswith("opp "):
        rest = plain[4:]
    elif plain.startswith("victim "):  # K-15: "victim of X" is the opposing leader of this battle
        rest = plain[7:]
    elif opp_context:
        rest = plain
    if rest is not None:
        if rest.startswith("of ") and rest[3:] in HOUSE_WORDS:
            return Word("opp", "of:" + HOUSE_WORDS[rest[3:]])
        if rest in CHARACTERS:
            return Word("opp", "leader:" + CHARACTERS[rest])
        if rest in OPP_WORDS:
            return Word("opp", rest.replace(" ", "-"))
    raise ValueError(f"unknown condition word {text.strip()!r}; known: terrain {', '.join(TERRAIN_KINDS)}, "
                     f"territories, attacker, defender, vs HOUSE, opp CHARACTER/main/any/male/female/of HOUSE/"
                     f"Reverend Mother/Mentat/Polymorph, CHARACTER dead")


def parse_condition(text: str) -> Condition:
    """Parse a condition of leaders.md §1 (raises :class:`ValueError` for a word the engine does not know)."""
    tokens = [tok for tok in re.split(r"(\(|\)|∧|∨)", text) if tok.strip()]
    position = 0
    seen_opp = False

    def expression() -> Condition:
        nonlocal position, seen_opp
        terms: list[Condition] = [conjunction()]
        while position < len(tokens) and tokens[position] == "∨":
            position += 1
            terms.append(conjunction())
        return terms[0] if len(terms) == 1 else AnyOf(tuple(terms))

    def conjunction() -> Condition:
        nonlocal position
        terms: list[Condition] = [atom()]
        while position < len(tokens) and tokens[position] == "∧":
            position += 1
            terms.append(atom())
        return terms[0] if len(terms) == 1 else AllOf(tuple(terms))

    def atom() -> Condition:
        nonlocal position, seen_opp
        if position >= len(tokens):
            raise ValueError(f"condition {text!r} ends too early")
        token = tokens[position]
        position += 1
        if token == "(":
            inner = expression()
            if position >= len(tokens) or tokens[position] != ")":
                raise ValueError(f"condition {text!r}: missing ')'")
            position += 1
            return inner
        word = _word(token, opp_context=seen_opp)
        seen_opp = seen_opp or word.kind == "opp"
        return word

    result = expression()
    if position != len(tokens):
        raise ValueError(f"condition {text!r}: unexpected {tokens[position]!r}")
    return result


# ------------------------------------------------------------------------------------------------ effects
@dataclass(frozen=True)
class Effect:
    """A power in the K vocabulary not typed further yet: its ``args``, ``when`` and ``roll`` (checked words)."""

    kind: str
    args: tuple[str, ...] = ()
    when: Condition | None = None
    roll: str | None = None
    mode: str | None = None
    trait: bool = False


@dataclass(frozen=True)
class WheelValue:
    """K-1: while ``when`` holds, the leader's value is ``value`` (LC-6 step 3)."""

    kind: str
    when: Condition | None
    value: int


@dataclass(frozen=True)
class WheelModifier:
    """K-2: add ``delta`` in LC-6 step 4 to ``on`` (``self``, ``opponent`` or ``Vladimir``); ``per`` a count the
    delta multiplies (``voice_command``, D-24)."""

    kind: str
    when: Condition | None
    delta: int
    on: str
    per: str | None = None


@dataclass(frozen=True)
class Disarm:
    """K-3: while ``when`` holds, the leader ``on`` (``self`` or ``opponent``) is worth 0 (LC-6 step 1)."""

    kind: str
    when: Condition | None
    on: str


@dataclass(frozen=True)
class TroopsWorthOne:
    """K-4: while ``when`` holds, every token of his House dialled in his battle is worth 1 before spice."""

    kind: str
    when: Condition | None
    note: str | None = None


@dataclass(frozen=True)
class ArmyBonus:
    """K-5: while ``when`` holds, add ``amount`` to his side's army value at B9."""

    kind: str
    when: Condition | None
    amount: int


# ---- K-11 VOICE, K-12 PRESCIENCE, K-13 TRUTH_TRANCE (applied by dunenb.battle.leader_mind)
@dataclass(frozen=True)
class Voice:
    """K-11: in his battle his House gives one command as BG-P1; ``uses`` ``1/turn``, ``+1/turn``, ``d10≤N``
    (``roll`` N: rolled openly at B2) or ``scope+`` (D-25: the BG Voice may also name worthless or Karama)."""

    kind: str
    when: Condition | None
    uses: str
    roll: int | None = None


@dataclass(frozen=True)
class Prescience:
    """K-12: one more question as ATREIDES-P1 at B3 of his battle, about ``scope`` (``attack``, ``defence`` or
    ``either``), only where ``when`` holds."""

    kind: str
    when: Condition | None
    scope: str


@dataclass(frozen=True)
class TruthTrance:
    """K-13: ``count`` truth trances as CARD-TRUTH in each of his battles (unused ones lapse)."""

    kind: str
    when: Condition | None
    count: int


# ---- K-10 IMMUNITY, K-14 KILL (applied by dunenb.battle.immunities)
#: K-10: what an IMMUNITY may be immune to.
IMMUNITY_TARGETS: tuple[str, ...] = ("voice", "voice[shield,snooper]", "prescience", "poison_slow", "poison_all",
                                     "all_but_lasgun_atomics", "seduction")


@dataclass(frozen=True)
class Immunity:
    """K-10: the leader is immune to each of ``to`` (:data:`IMMUNITY_TARGETS`); with ``at_most`` N, only on a
    d10 ≤ N rolled each time the opposing power is used against him (LC-1)."""

    kind: str
    when: Condition | None
    to: tuple[str, ...]
    at_most: int | None = None


@dataclass(frozen=True)
class Kill:
    """K-14: while ``when`` holds, the opposing leader dies whatever his defences, immunities or TRAITOR-11;
    with ``faces``, only on those faces of a d10 (A09-b: 1)."""

    kind: str
    when: Condition | None
    faces: tuple[int, ...] | None = None


def _immunity(when: Condition | None, args: tuple[str, ...], roll: str | None) -> Immunity:
    for target in args:
        if target not in IMMUNITY_TARGETS:
            raise ValueError(f"IMMUNITY parameter {target!r} must be one of {', '.join(IMMUNITY_TARGETS)}")
    if not args:
        raise ValueError("IMMUNITY names what he is immune to")
    at_most = None
    if roll is not None:
        match = ROLL.match(roll)
        if match is None or match.group(1) != "≤" or not match.group(2).isdigit():
            raise ValueError(f"IMMUNITY roll {roll!r} must be d10≤N (K-10)")
        at_most = int(match.group(2))
    return Immunity("IMMUNITY", when, args, at_most)


def _kill(when: Condition | None, roll: str | None) -> Kill:
    if roll is None:
        return Kill("KILL", when)
    match = ROLL.match(roll)
    if match is None or match.group(1) != "=" or not match.group(2).isdigit():
        raise ValueError(f"KILL roll {roll!r} must be d10 = N (K-14)")
    return Kill("KILL", when, (int(match.group(2)),))


LeaderEffect = (WheelValue | WheelModifier | Disarm | TroopsWorthOne | ArmyBonus | Voice | Prescience | TruthTrance
                | Immunity | Kill | Effect)


# ---- K-6 CARD_SLOTS, K-7 BUILTIN_WEAPON, K-8 BUILTIN_DEFENSE, K-9 CARD_RULE (dunenb.battle.leader_weapons)
WEAPON_KINDS: tuple[str, ...] = KINDS[5:9]


# ---- K-20 REGENERATES, K-21 RESTRICTION, K-22 MOBILITY, K-23 EXCLUSIVE, K-24 INHERIT, K-25 SPECIAL
#: The entries of these kinds the engine applies (dunenb.battle.leader_traits, dunenb.powers.inheritance,
#: dunenb.rules.leader_specials, dunenb.battle.characters, dunenb.rules.regeneration): all of the kind (``None``),
#: or those whose first parameter word is listed.
APPLIED_TRAITS: dict[str, tuple[str, ...] | None] = {
    "REGENERATES": None, "RESTRICTION": None, "EXCLUSIVE": None, "MOBILITY": ("cities", "pole"),
    "INHERIT": ("Alma", "Esmar", "Rabban", "successor", "the"),  # ---- K-24 "the Weapon passes": rules.leader_inherit
    "SPECIAL": ("S-1", "S-2", "S-3", "S-4", "S-5", "S-6", "S-7", "S-8"),  # ---- K-25 S-4: dunenb.battle.leader_shelter
}  # ---- K-25 S-3 "Alma as X": dunenb.battle.alias (a composite leader key, GAP-141)


# ---- K-16 PRE_BATTLE, K-18 ALLIANCE_INSTEAD_OF_BATTLE, K-19 BUY_OFF (dunenb.rules.leader_deals,
# dunenb.rules.leader_pre_battle): the actions and offers the engine applies (first word of the parameter).
DEAL_APPLIED: dict[str, tuple[str, ...]] = {
    "PRE_BATTLE": ("see_leader", "gain_spice", "lock_spice", "reinforce", "swap_card", "fill_hand", "buy_card",
                   "see_card", "traitor_draw", "estimate", "sense_karama", "see_storm"),
    "ALLIANCE_INSTEAD_OF_BATTLE": ("spice", "revive", "traitor", "prescience", "leader_exchange"),
    "BUY_OFF": ("3", "5"),
}


def _deal_applied(effect: Effect) -> bool:
    """K-16/K-18/K-19: the K-18 offer is the second parameter, the others' action the first."""
    words = DEAL_APPLIED[effect.kind]
    if effect.kind == "ALLIANCE_INSTEAD_OF_BATTLE":
        return len(effect.args) > 1 and effect.args[1].split("(")[0].strip() in words
    return bool(effect.args) and effect.args[0].split()[0] in words


def is_applied(effect: LeaderEffect | None) -> bool:
    """Whether the engine applies this effect so far: the value kinds K-1..K-5 (WHEEL_MODIFIER ``per`` Voice
    command counts ``BattleSide.voices_against``, D-24; ``on Vladimir`` acts through HARKONNEN-M3, GAP-90), the
    card kinds K-6..K-9 (:mod:`dunenb.battle.leader_weapons`), K-10 IMMUNITY (with a d10:
    :mod:`dunenb.rules.immunity_rolls`) and K-14 KILL (:mod:`dunenb.battle.immunities`), the kinds of
    :data:`MIND_KINDS` that :mod:`dunenb.battle.leader_mind` applies, the entries of :data:`APPLIED_TRAITS`,
    the K-16/K-18/K-19 entries of :data:`DEAL_APPLIED`, every K-15 BOUNTY (:mod:`dunenb.battle.leader_bounty`)
    and the K-17 POST_BATTLE entries whose action :data:`dunenb.battle.leader_after.APPLIED_ACTIONS` lists."""
    if isinstance(effect, Immunity | Kill):  # K-10, K-14
        return True
    # ---- K-15 BOUNTY, K-17 POST_BATTLE (dunenb.battle.leader_bounty, dunenb.battle.leader_after)
    if effect is not None and effect.kind == "BOUNTY":
        return True
    if effect is not None and effect.kind == "POST_BATTLE" and isinstance(effect, Effect):
        from dunenb.battle.leader_after import APPLIED_ACTIONS

        action = effect.args[1] if len(effect.args) > 1 else effect.args[0] if effect.args else ""  # K-17 spare
        return bool(action) and action.split()[0] in APPLIED_ACTIONS
    # ---- end K-15, K-17
    if isinstance(effect, Effect) and effect.kind in DEAL_APPLIED:
        return _deal_applied(effect)
    if effect is not None and effect.kind in APPLIED_TRAITS:
        words = APPLIED_TRAITS[effect.kind]
        return words is None or (isinstance(effect, Effect) and bool(effect.args)
                                 and effect.args[0].split()[0] in words)
    if effect is None:
        return False
    if effect.kind in WEAPON_KINDS:
        return True
    if effect.kind in BATTLE_KINDS:
        return True
    return _mind_applied(effect)


# ---- K-11 VOICE, K-12 PRESCIENCE, K-13 TRUTH_TRANCE (applied by dunenb.battle.leader_mind)
#: The K-11 ``uses`` that give a command (``scope+``, D-25, widens the House's Voice instead: _mind_applied).
VOICE_USES_APPLIED = ("1/turn", "+1/turn", "d10")
_VOICE_ROLL = re.compile(r"^d10≤(\d+)$")


def _mind_applied(effect: LeaderEffect) -> bool:
    if isinstance(effect, Voice):  # ---- K-11 scope+ (BG-L02-b, D-25): dunenb.rules.pre_battle.voice_kinds
        return effect.uses in VOICE_USES_APPLIED or effect.uses == "scope+"
    return isinstance(effect, Prescience | TruthTrance)


def _parse_mind(kind: str, args: tuple[str, ...], when: Condition | None) -> LeaderEffect:
    """K-11..K-13 from their ``args`` (leaders.md §1 parameters; ``open roll`` is D-31's wording)."""
    first = args[0]
    if kind == "VOICE":
        roll = _VOICE_ROLL.match(first)
        if roll:
            return Voice(kind, when, "d10", int(roll.group(1)))
        return Voice(kind, when, first)
    if kind == "PRESCIENCE":
        return Prescience(kind, when, first)
    if not first.isdigit() or int(first) < 1:
        raise ValueError(f"TRUTH_TRANCE count must be a positive integer, not {first!r}")
    return TruthTrance(kind, when, int(first))

_TYPED_FIELDS: dict[str, tuple[str, ...]] = {
    "WHEEL_VALUE": ("value",), "WHEEL_MODIFIER": ("delta", "on", "per"), "DISARM": ("on",),
    "TROOPS_WORTH_ONE": ("note",), "ARMY_BONUS": ("amount",),
}
_COMMON = ("kind", "when", "args", "roll", "mode", "trait", "note")


def _int(raw: Any, field: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValueError(f"{field} must be an integer, not {raw!r}")
    return raw


def parse_effect(raw: Any, *, where: str) -> LeaderEffect:
    """Parse one ``effect`` object; ``where`` names the leader and entry in the error.

    >>> parse_effect({"kind": "WHEEL_VALUE", "value": 9, "when": "marsh"}, where="X-L01-a (x)")
    Traceback (most recent call last):
    dunenb.errors.RulesDataError: [leaders/effect] X-L01-a (x): unknown condition word 'marsh'; known: terrain \
desert, mountain, city, sietch, pole, open, desert+mountain, territories, attacker, defender, vs HOUSE, opp \
CHARACTER/main/any/male/female/of HOUSE/Reverend Mother/Mentat/Polymorph, CHARACTER dead
    """
    try:
        return _parse_effect(raw)
    except (ValueError, TypeError, KeyError) as error:
        message = error.args[0] if error.args else str(error)
        raise RulesDataError("leaders/effect", f"{where}: {message}") from None


def _parse_effect(raw: Any) -> LeaderEffect:
    if not isinstance(raw, dict):
        raise ValueError(f"effect must be an object, not {raw!r}")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise ValueError(f"unknown effect kind {kind!r}; allowed: {', '.join(KINDS)}")
    extra = set(raw) - set(_COMMON) - set(_TYPED_FIELDS.get(kind, ()))
    if extra:
        raise ValueError(f"{kind} has no field {sorted(extra)}; allowed: "
                         f"{', '.join(_COMMON + _TYPED_FIELDS.get(kind, ()))}")
    when = parse_condition(raw["when"]) if raw.get("when") is not None else None
    roll = raw.get("roll")
    if roll is not None and not ROLL.match(str(roll)):
        raise ValueError(f"bad roll {roll!r}; a roll is d10≤N, d10>N, d10=N or d10 > base (LC-1)")
    if kind == "WHEEL_VALUE":
        value = _int(raw.get("value"), "WHEEL_VALUE value")
        if value < 0:
            raise ValueError(f"WHEEL_VALUE value must be 0 or more, not {value}")
        return WheelValue(kind, when, value)
    if kind == "WHEEL_MODIFIER":
        on = raw.get("on")
        if on not in ("self", "opponent", "Vladimir"):
            raise ValueError(f"WHEEL_MODIFIER on must be self, opponent or Vladimir, not {on!r}")
        per = raw.get("per")
        if per not in (None, "voice_command"):
            raise ValueError(f"WHEEL_MODIFIER per must be voice_command, not {per!r}")
        return WheelModifier(kind, when, _int(raw.get("delta"), "WHEEL_MODIFIER delta"), on, per)
    if kind == "DISARM":
        if raw.get("on") not in ("self", "opponent"):
            raise ValueError(f"DISARM on must be self or opponent, not {raw.get('on')!r}")
        return Disarm(kind, when, raw["on"])
    if kind == "TROOPS_WORTH_ONE":
        return TroopsWorthOne(kind, when, raw.get("note"))
    if kind == "ARMY_BONUS":
        amount = _int(raw.get("amount"), "ARMY_BONUS amount")
        if amount <= 0:
            raise ValueError(f"ARMY_BONUS amount must be positive, not {amount}")
        return ArmyBonus(kind, when, amount)
    args = tuple(str(arg) for arg in raw.get("args", ()))
    if kind == "IMMUNITY":
        return _immunity(when, args, roll)
    if kind == "KILL":
        return _kill(when, roll)
    allowed = ARG_WORDS.get(kind, ())
    if allowed and (not args or args[0].split()[0] not in allowed):
        raise ValueError(f"{kind} parameter {args[0] if args else None!r} must start with one of "
                         f"{', '.join(allowed)}")
    if kind in ("VOICE", "PRESCIENCE", "TRUTH_TRANCE"):
        return _parse_mind(kind, args, when)
    return Effect(kind, args, when, roll, raw.get("mode"), bool(raw.get("trait", False)))
