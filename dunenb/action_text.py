"""Readable actions (issue 16 item 2): one line in words for every action kind, shown beside the notation.

:func:`describe` is used by menus, the event log, the replay browser and illegal-action errors. Every kind of
:data:`dunenb.actions.ACTION_KINDS` has an entry in :data:`DESCRIBERS`; a lookup that fails (an unknown leader, a
card id the data lacks) falls back to the raw id, so describing never raises.

>>> from dunenb.rules.alliances import Offer
>>> describe(Offer("harkonnen", "emperor", "spice", "spice", 1))
'The Harkonnen offer the Emperor 1 spice'
>>> from dunenb.rules.movement import Land
>>> describe(Land("guild", "arrakeen", 1, 5))
'The Guild lands 5 tokens in Arrakeen (sector 1)'
>>> label(Land("guild", "arrakeen", 1, 5))
'land guild arrakeen 1 5 0 — The Guild lands 5 tokens in Arrakeen (sector 1)'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

#: Houses named in the singular ("The Guild lands"); the others read as a people ("The Atreides land").
SINGULAR = {"emperor", "guild", "dispersion"}
HOUSE_NAMES = {"atreides": "the Atreides", "harkonnen": "the Harkonnen", "fremen": "the Fremen",
               "emperor": "the Emperor", "guild": "the Guild", "dispersion": "the Dispersion",
               "bene-gesserit": "the Bene Gesserit", "bene-tleilax": "the Bene Tleilax"}
CARD_NAMES = {"worthless": "a worthless card", "truth-trance": "a truth trance", "poison-fast": "a fast poison",
              "poison-slow": "a slow poison", "projectile-distance": "a distance projectile",
              "projectile-contact": "a contact projectile", "weather-control": "weather control",
              "ghola": "a ghola", "atomics": "Atomics", "lasgun": "a lasgun", "hajj": "the Hajj",
              "karama": "a Karama", "shield": "a shield", "snooper": "a snooper", "poison": "a poison",
              "projectile": "a projectile"}
STORMS = {"main": "the main storm", "secondary": "the secondary storm"}


def house_name(house: str) -> str:
    """``'bene-gesserit'`` → ``'the Bene Gesserit'`` (an unknown id is returned as it is)."""
    return HOUSE_NAMES.get(house, house or "someone")


def _subject(house: str) -> str:
    name = house_name(house)
    return name[0].upper() + name[1:]


def _verb(house: str, verb: str) -> str:
    """``'The Guild lands'``, ``'The Atreides land'``."""
    if house not in SINGULAR:
        return f"{_subject(house)} {verb}"
    if verb == "have":
        form = "has"
    elif verb.endswith(("s", "sh", "ch", "x")):
        form = verb + "es"
    elif verb.endswith("y") and verb[-2] not in "aeiou":
        form = verb[:-1] + "ies"
    else:
        form = verb + "s"
    return f"{_subject(house)} {form}"


def card_name(card: str) -> str:
    """``'poison-slow'`` → ``'a slow poison'``; ``'none'`` → ``'nothing'``."""
    return "nothing" if card in ("none", "", "-") else CARD_NAMES.get(card, card)


@cache
def _area_names() -> dict[str, str]:
    try:
        from dunenb.board import load_board

        return {area.id: area.name for area in load_board().areas}
    except Exception:  # noqa: BLE001 - describing must never fail; the raw id is shown instead
        return {}


def area_name(area: str) -> str:
    """``'arrakeen'`` → ``'Arrakeen'``."""
    return _area_names().get(area, area)


@cache
def _leaders() -> dict[tuple[str | None, str], str]:
    try:
        from dunenb.battle.roster import load_roster

        return {(leader.house, leader.id): leader.name for leader in load_roster().leaders}
    except Exception:  # noqa: BLE001
        return {}


def leader_name(key: str, house: str = "") -> str:
    """A leader key (``'vladimir'``, or ``'atreides:duncan-idaho'`` for a leader held by another House) → name."""
    if key in ("none", "", "-"):
        return "no leader"
    if "+" in key:  # leaders.md S-3, GAP-141: the composite key "alma+x" is "Alma as X"
        return " as ".join(leader_name(part, house) for part in key.split("+", 1))
    owner, _, lid = key.rpartition(":")
    names = _leaders()
    for candidate in (owner, house):
        if (candidate, lid) in names:
            return names[(candidate, lid)]
    return next((name for (_h, i), name in names.items() if i == lid), key)


@cache
def _json(name: str) -> Any:
    try:
        return json.loads(resources.files("dunenb.data").joinpath(name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _chance_name(card: str) -> str:
    return next((c.get("name", card) for c in _json("chance_deck.json").get("cards", []) if c.get("id") == card),
                card)


def _power_name(power: str) -> str:
    name = next((p.get("name") for p in _json("powers.json").get("powers", []) if p.get("id") == power), None)
    return f"{name} ({power})" if name else power


def _tokens(regular: int, marked: int = 0) -> str:
    total = regular + marked
    text = f"{total} token{'s' if total != 1 else ''}"
    return f"{text} ({marked} marked)" if marked else text


def _spice(amount: int) -> str:
    return f"{amount} spice"


def _goods(what: str, item: str, amount: int) -> str:
    if what == "spice":
        return _spice(amount)
    if what == "token":
        return _tokens(amount)
    if what == "card":
        return card_name(item)
    if what == "leader":
        return leader_name(item)
    if what == "power":
        return f"the power {_power_name(item)} for {amount} turn{'s' if amount != 1 else ''}"
    return f"{amount} {what} {item}".strip()


def _offer(a: Any) -> str:
    text = f"{_verb(a.house, 'offer')} {house_name(a.receiver)} {_goods(a.what, a.item, a.amount)}"
    if a.delay:
        text += f", handed over in {a.delay} turn{'s' if a.delay != 1 else ''}"
    if a.price:
        text += f", for {_goods(a.back_what, a.back_item, a.price)}"
    return text


def _placements(a: Any) -> str:
    parts = [f"{_tokens(r, m)} in {area_name(area)}" for area, _s, r, m in a.placements]
    return f"{_verb(a.house, 'place')} {' and '.join(parts) or 'no tokens'} to start"


def _weather(a: Any) -> str:
    storm = STORMS.get(a.storm, a.storm)
    if a.mode == "stop":
        return f"{_verb(a.house, 'play')} weather control: {storm} stops after {a.sectors} sector(s)"
    extra = {"plus1": 1, "plus2": 2}.get(a.mode, a.mode)
    return f"{_verb(a.house, 'play')} weather control: {storm} moves {extra} more sector(s)"


def _spice_card(a: Any) -> str:
    if a.card == "worm":
        return f"A worm (Shai-Hulud) comes up on spice pile {a.pile}"
    area, _, value = a.card.partition("/")
    return f"Spice card on pile {a.pile}: {value} spice in {area_name(area)}"


def _deck_top(a: Any) -> str:
    """ATREIDES-P2 c-d: the card now on top of a deck, which the Atreides see."""
    if a.deck == "chance":
        return f"The top card of the Chance deck is now {_chance_name(a.card)} (the Atreides see it)"
    if a.card == "worm":
        return "The top card of the territory deck is now a worm (the Atreides see it)"
    area, _, value = a.card.partition("/")
    return f"The top card of the territory deck is now {area_name(area)} {value} (the Atreides see it)"


def _plan(a: Any) -> str:
    cards = [card_name(c) for c in (a.weapon, a.defense) if c not in ("none", "")]
    if a.karama not in ("none", ""):
        against = getattr(a, "against", "none")
        cards.append(f"{card_name(a.karama)} as a Karama" + (f" ({against})" if against not in ("none", "") else ""))
    return (f"{_verb(a.house, 'set')} a battle plan: {leader_name(a.leader, a.house)}, {_tokens(a.regular, a.marked)}"
            f" with {_spice(a.spice)}, {', '.join(cards) if cards else 'no cards'}")


def _move(a: Any) -> str:
    route = " → ".join(area_name(area) for area, _sector in a.path) or "nowhere"
    return f"{_verb(a.house, 'move')} {_tokens(a.regular, a.marked)} from {area_name(a.area)} to {route}"


def _truth_trance(a: Any) -> str:
    question = a.question
    try:
        from dunenb.rules.truth_trance import load_questions

        found = next((q for q in load_questions() if q.id == a.question), None)
        if found is not None:
            subject = a.subject
            if found.subject == "card":
                subject = card_name(subject).removeprefix("a ").removeprefix("an ")
            elif found.subject == "own-leader":
                subject = leader_name(subject, a.house)
            elif found.subject == "house":
                subject = house_name(subject).removeprefix("the ")
            question = found.text.replace("{subject}", subject)
    except Exception:  # noqa: BLE001
        pass
    return f"{_verb(a.house, 'ask')} {house_name(a.target)} in a truth trance: “{question}”"


def _ghola(a: Any) -> str:
    parts = []
    if a.regular or a.marked:
        parts.append(_tokens(a.regular, a.marked))
    if a.leader not in ("none", ""):
        parts.append(leader_name(a.leader, a.house))
    return f"{_verb(a.house, 'play')} a ghola to bring back {' and '.join(parts) or 'nobody'}"


def _discard(a: Any) -> str:
    cards = [card_name(c) for c in a.cards.split(",") if c not in ("none", "")]
    return f"{_verb(a.house, 'discard')} {', '.join(cards)}" if cards else f"{_verb(a.house, 'keep')} every card"


Describer = Callable[[Any], str]
#: Action kind → one line in words. Keys must cover every kind of ``ACTION_KINDS`` (tested).
DESCRIBERS: dict[str, Describer] = {
    "roll": lambda a: f"{_verb(a.house, 'roll')} {a.total} on 3d10",
    "worm-dice": lambda a: f"The dice add {a.total} extra worm cards to the spice deck",
    "start": lambda a: f"{_verb(a.house, 'choose')} start position {a.position}",
    "storm-dial": lambda a: f"{_verb(a.house, 'dial')} {a.value} for the first move of {STORMS.get(a.storm, a.storm)}",
    "place": _placements,
    "storm-token": lambda a: f"The Fremen draw storm token {a.value} for {STORMS.get(a.storm, a.storm)}",
    "dial": lambda a: f"{_verb(a.house, 'dial')} {a.value} for {STORMS.get(a.storm, a.storm)}",
    "weather": _weather,
    "pass": lambda a: f"{_verb(a.house, 'pass')}",
    "spice": _spice_card,
    "deck-top": _deck_top,
    "predict": lambda a: f"{_verb(a.house, 'predict')} that {house_name(a.winner)} will win on turn {a.turn}",
    "traitor-draw": lambda a: (f"{_verb(a.house, 'draw')} {leader_name(a.leader, a.leader_house)} "
                               f"({house_name(a.leader_house)}) as a possible traitor"),
    "traitor-pick": lambda a: (f"{_verb(a.house, 'pick')} {leader_name(a.leader, a.leader_house)} "
                               f"({house_name(a.leader_house)}) as their traitor"),
    "offer": _offer,
    "accept-offer": lambda a: f"{_verb(a.house, 'accept')} the offer",
    "decline-offer": lambda a: f"{_verb(a.house, 'decline')} the offer",
    "end-window": lambda a: f"{_verb(a.house, 'make')} no more offers in this alliance window",
    "peace": lambda a: f"{_verb(a.house, 'declare')} their tokens in {area_name(a.area)} at peace",
    "war": lambda a: f"{_verb(a.house, 'declare')} their tokens in {area_name(a.area)} at war",
    "buy-harvester": lambda a: f"{_verb(a.house, 'buy')} {a.count} harvester(s) for {5 * a.count} spice",
    "sell-harvester": lambda a: f"{_verb(a.house, 'sell')} {a.count} harvester(s) for {3 * a.count} spice",
    "ghola": _ghola,
    "treachery-card": lambda a: f"{_verb(a.house, 'receive')} {card_name(a.card)} as a free card",
    "auction-card": lambda a: f"Auction card {a.number} is {card_name(a.card)}",
    "bid": lambda a: f"{_verb(a.house, 'bid')} {_spice(a.amount)}",
    "pay-bid": lambda a: f"{_verb(a.house, 'pay')} the winning bid for the card",
    "karama-bid": lambda a: (f"{_verb(a.house, 'play')} {card_name(a.card)}"
                             f"{'' if a.card == 'karama' else ' as a Karama'} to take the card free"),
    "atomics": lambda a: f"{_verb(a.house, 'blow')} up the Shield Wall with Atomics",
    "battle": lambda a: (f"{_verb(a.house, 'fight')} {house_name(a.opponent)} in {area_name(a.territory)} "
                         f"(sector {a.sector})"),
    "plan": _plan,
    "voice": lambda a: (f"{_verb(a.house, 'use')} the Voice: the opponent must "
                        f"{'not play' if a.mode == 'forbid' else 'play'} a {a.card_kind} card"),
    "prescience": lambda a: f"{_verb(a.house, 'ask')} the opponent by prescience: “your {a.slot}?”",
    "prescience-answer": lambda a: (f"{_verb(a.house, 'answer')} the prescience question: "
                                    f"{'nothing' if a.answer == 'none' else 'a ' + a.answer}"),
    "know-leader": lambda a: f"{_verb(a.house, 'use')} Mohiam's power: the opponent must show its leader first",
    "commit-leader": lambda a: f"{_verb(a.house, 'commit')} {leader_name(a.leader, a.house)} as its leader",
    "traitor-call": lambda a: f"{_verb(a.house, 'call')} “Trahison !”: {leader_name(a.leader)} is their traitor",
    # the action holds no purpose (a shield pass, a worn shield, Alia's snooper roll, a KILL): its event says it
    "battle-d10": lambda a: f"{_verb(a.house, 'roll')} {a.value} on a battle d10",
    "voice-roll": lambda a: f"{_verb(a.house, 'roll')} {a.value} on the d10 for its leader's Voice (leaders.md K-11)",
    "leader-b1-d10": lambda a: f"{_verb(a.house, 'roll')} {a.value} on the d10 for {a.power} before the plans",
    "battle-discard": _discard,
    "chance-card": lambda a: f"Chance card {a.draw} of the turn: {_chance_name(a.card)}",
    "commit-harvester": lambda a: f"{_verb(a.house, 'commit')} a harvester in {area_name(a.area)}",
    "harvest-done": lambda a: f"{_verb(a.house, 'declare')} no more harvests",
    "revive": lambda a: f"{_verb(a.house, 'revive')} {_tokens(a.regular, a.marked)} for {a.regular + a.marked} spice",
    "land": lambda a: (f"{_verb(a.house, 'land')} {_tokens(a.regular, a.marked)} in {area_name(a.area)} "
                       f"(sector {a.sector})"),
    "emerge": lambda a: (f"{_verb(a.house, 'bring')} {_tokens(a.regular, a.marked)} up from the deep desert into "
                         f"{area_name(a.area)}"),
    "move": _move,
    "reposition": lambda a: (f"{_verb(a.house, 'shift')} {_tokens(a.regular, a.marked)} in {area_name(a.area)} "
                             f"from sector {a.from_sector} to {a.to_sector}"),
    "hajj": lambda a: f"{_verb(a.house, 'play')} the Hajj: one more landing and one more move",
    "end-slot": lambda a: f"{_verb(a.house, 'end')} their landing and movement",
    "truth-trance": _truth_trance,
    "on-call-draw": lambda a: (f"{_verb(a.house, 'draw')} {card_name(a.card)} at random from the hand of "
                               f"{house_name(a.source)}"),
    "on-call-discard": lambda a: f"{_verb(a.house, 'discard')} {card_name(a.card)} to get back to the hand limit",
    # House and main-leader powers outside battles (dunenb.powers, issue 10)
    "land-in-peace": lambda a: (f"{_verb(a.house, 'land')} {_tokens(a.regular, a.marked)} in peace in "
                                f"{area_name(a.area)} (sector {a.sector})"),
    "advisor": lambda a: (f"{_verb(a.house, 'send')} {_tokens(a.regular, a.marked)} as advisors, in peace, to "
                          f"{area_name(a.area)} (sector {a.sector}) for free"),
    "call-worm": lambda a: (f"{_verb(a.house, 'call')} a worm: {_tokens(a.regular, a.marked)} ride from "
                            f"{area_name(a.area)} to {area_name(a.to_area)} (sector {a.to_sector})"),
    "local-storm": lambda a: f"{_verb(a.house, 'raise')} a local storm on sector {a.sector}",
    "imperial-fill": lambda a: (f"{_verb(a.house, 'draw')} {a.count} treachery card{'s' if a.count != 1 else ''} "
                                f"at 2 spice each to fill the hand"),
    "ride": lambda a: (f"{_verb(a.house, 'ride')} the worm with {_tokens(a.regular, a.marked)} from "
                       f"{area_name(a.area)} to {area_name(a.to_area)} (sector {a.to_sector})"),
    "take-slot": lambda a: f"{_verb(a.house, 'take')} their landing and movement turn now",
    "use-karama": lambda a: (f"{_verb(a.house, 'play')} {card_name(a.card)}"
                             f"{'' if a.card == 'karama' else ' as a Karama'} for {a.use}"),
    # leaders.md S-1, S-5 (dunenb.rules.leader_specials)
    "leader-substitute": lambda a: (f"{_verb(a.house, 'put')} {leader_name(a.leader, a.house)} in the place of "
                                    f"the leader on the wheel ({a.power})"),
    "leader-wall-blast": lambda a: f"{_verb(a.house, 'blow')} up the Shield Wall with no card ({a.power})",
    "ghola-return": lambda a: (f"{_verb(a.house, 'pay')} the Tleilax for the Idaho-Ghola: "
                               f"{leader_name(a.leader, a.house)} leaves the game ({a.power})"),
    "pole-battle": lambda a: (f"{_verb(a.house, 'open')} a battle against {house_name(a.opponent)} at the Pole "
                              f"({a.power})"),
    # leaders.md K-24 D02-d (dunenb.rules.leader_inherit)
    "inherit-choice": lambda a: f"{_verb(a.house, 'give')} {a.power} to {leader_name(a.leader, a.house)} for good",
    # battle-step powers (dunenb.rules.battle_powers): HARKONNEN-P4, -M1, -M2
    "buy-off": lambda a: f"{_verb(a.house, 'pay')} {a.price} spice to call the battle off (HARKONNEN-M2)",
    "capture-draw": lambda a: (f"{_verb(a.house, 'capture')} {leader_name(a.leader, a.owner)} of "
                               f"{house_name(a.owner)} (HARKONNEN-P4)"),
    "capture-choice": lambda a: (f"{_verb(a.house, 'capture')} {leader_name(a.leader, a.owner)} of "
                                 f"{house_name(a.owner)} by choice ({a.power})"),
    "captive": lambda a: (f"{_verb(a.house, 'keep' if a.choice == 'keep' else 'kill')} the captive "
                          f"{leader_name(a.leader, a.owner)}" + ("" if a.choice == "keep" else " for 2 spice")),
    "traitor-discard": lambda a: (f"{_verb(a.house, 'give')} up the traitor slip on "
                                  f"{leader_name(a.leader, a.leader_house)} to draw two leaders (HARKONNEN-M1)"),
    "new-traitor-draw": lambda a: f"{_verb(a.house, 'draw')} {leader_name(a.leader, a.leader_house)} face down",
    "new-traitor-keep": lambda a: (f"{_verb(a.house, 'keep')} {leader_name(a.leader, a.leader_house)} as a new "
                                   "secret traitor"),
    # leaders.md K-10 with a d10 (dunenb.rules.immunity_rolls)
    "immunity-roll": lambda a: (f"{_verb(a.house, 'roll')} {a.face} on the d10 of {leader_name(a.leader, a.house)}"
                                f"'s immunity ({a.power})"),
    "voice-immunity": lambda a: (f"{_verb(a.house, 'declare')} that {leader_name(a.leader, a.house)} rolls "
                                 "for immunity to the Voice command"),
    # leaders.md K-17 after-battle choices (dunenb.rules.leader_after_battle)
    "after-battle-discard": lambda a: f"{_verb(a.house, 'discard')} {card_name(a.card)} ({a.power})",
    "after-battle-d10": lambda a: f"{_verb(a.house, 'roll')} {a.value} on the d10 ({a.power})",
    "after-battle-slip": lambda a: (f"{_verb(a.house, 'show')} {house_name(a.to)} their traitor slip on "
                            f"{leader_name(a.leader, a.leader_house)} ({a.power})"),
    "after-battle-give": lambda a: (f"{_verb(a.house, 'give')} {card_name(a.card)} from their {a.source} to "
                                    f"{house_name(a.to)} ({a.power})"),
    "after-battle-unseen": lambda a: (f"{_verb(a.house, 'pay')} {a.price} spice so that the card drawn is not "
                                      f"shown ({a.power})"),
    "leader-spare": lambda a: (f"{_verb(a.house, 'offer')} to spare the opposing leader for {a.price} spice "
                               f"({a.power})"),
    "leader-spare-accept": lambda a: (f"{_verb(a.house, 'accept')} and pay {house_name(a.to)} {a.price} spice for "
                                      f"their leader's life ({a.power})"),
    "capture-try": lambda a: (f"{_verb(a.house, 'try')} to capture {leader_name(a.leader, a.owner)} "
                              f"({a.power})"),
    "capture-d10": lambda a: f"{_verb(a.house, 'roll')} {a.value} on the d10 of the capture ({a.power})",
    "torture-d10": lambda a: f"{_verb(a.house, 'roll')} {a.value} on the d10 of the torture ({a.power})",
    "after-battle-d3": lambda a: f"{_verb(a.house, 'roll')} {a.value} on the d3 ({a.power})",
    "after-battle-destroy": lambda a: (f"{_verb(a.house, 'destroy')} {_tokens(a.regular, a.marked)} of "
                                       f"{house_name(a.target)} in the tanks for good ({a.power})"),
    "after-battle-tokens": lambda a: (
        f"{_verb(a.house, 'send')} {_tokens(a.regular, a.marked)} to the reserve for {2 * (a.regular + a.marked)} "
        f"spice ({a.power})" if a.what == "ration" else
        f"{_verb(a.house, 'revive')} {_tokens(a.regular, a.marked)} for {a.regular + a.marked} spice beyond "
        f"REVIVAL-1 ({a.power})" if a.what == "extra_revival" else
        f"{_verb(a.house, 'land')} {_tokens(a.regular, a.marked)} at half price ({a.power})" if a.what == "ship"
        else
        f"{_verb(a.house, 'bring')} {_tokens(a.regular, a.marked)} from the reserve into the territory "
        f"({a.power})"),
    "karama-now": lambda a: (f"{_verb(a.house, 'play')} {card_name(a.card)}"
                             f"{'' if a.card == 'karama' else ' as a Karama'} for {a.use}"),
    # secondary leaders' pre-battle powers and battle avoidance (leaders.md K-16, K-18, K-19)
    "leader-pre-battle": lambda a: (f"{_verb(a.house, 'use')} {leader_name(a.leader, a.house)}'s power {a.power}"
                                    + ("" if a.choice == "none" else f" ({a.choice})") + ", showing that he leads"),
    "leader-pre-battle-draw": lambda a: f"The roll for {a.power} gives {a.value} ({house_name(a.house)})",
    "leader-see-card": lambda a: (f"{_verb(a.house, 'look')} at {card_name(a.value)}, drawn at random from the "
                                  f"hand of {house_name(a.source)} ({a.power})"),
    "leader-card": lambda a: f"{_verb(a.house, 'draw')} {card_name(a.card)} from the deck",
    "leader-see-storm": lambda a: (f"{_verb(a.house, 'see')} the storm tokens of {house_name(a.source)}: "
                                   f"{a.tokens} ({a.power})"),
    "leader-traitor-draw": lambda a: (f"{_verb(a.house, 'draw')} {leader_name(a.leader, a.source)} of "
                                      f"{house_name(a.source)} as a traitor for this battle ({a.power})"),
    "lock-spice": lambda a: f"{_verb(a.house, 'announce')} {_spice(a.spice)} on their wheel",
    "estimate": lambda a: f"{_verb(a.house, 'name')} {a.value} as their estimate (Tufir)",
    "leader-buy-off": lambda a: f"{_verb(a.house, 'pay')} {a.price} spice to call the battle off ({a.power})",
    "leader-alliance": lambda a: (f"{_verb(a.house, 'propose')} an alliance instead of the battle ({a.power}): "
                                  + (f"{_spice(a.amount)}" if a.item == "spice" else "a traitor slip shown"
                                     if a.item == "traitor" else f"{a.item} lent for {a.amount} turn(s)"
                                     if a.item.endswith("-P1") else f"the revival of {a.amount} x {a.item}")),
    "leader-alliance-answer": lambda a: f"{_verb(a.house, a.answer)} the alliance instead of the battle",
    "give-leader": lambda a: f"{_verb(a.house, 'give')} their leader {leader_name(a.leader, a.house)} for good",
    "show-slip": lambda a: (f"{_verb(a.house, 'show')} their traitor slip on {leader_name(a.leader, a.owner)} "
                            f"({house_name(a.owner)})"),
}


def describe(action: Any) -> str:
    """One line in words for ``action``; a hidden action says only who did something secret."""
    if getattr(action, "hidden", False):
        if getattr(action, "about", ""):  # HARKONNEN-P4, FAQ 17 (GAP-75): whose leader, not which
            verb = "capture" if action.kind != "captive" else "decide the fate of"
            return f"{_verb(action.house, verb)} a leader of {house_name(action.about)} (identity hidden, FAQ 17)"
        return f"{_verb(action.house, 'make')} a secret {action.kind}" if action.house else \
            f"A secret {action.kind} happens"
    describer = DESCRIBERS.get(getattr(action, "kind", ""))
    if describer is None:
        return str(action)
    try:
        return describer(action)
    except Exception:  # noqa: BLE001 - a describer bug must not hide the notation
        return str(action)


def label(action: Any) -> str:
    """``'notation — description'``, as menus and the replay browser show an action."""
    return f"{action.notation()} — {describe(action)}"
