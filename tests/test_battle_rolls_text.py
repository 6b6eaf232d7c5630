"""The battle d10 texts say what each roll is for (issue 11 item 5, dunenb.battle.rolls): a shield pass
(CARD-SHIELD-3), a worn shield (leaders.md K-8 BUILTIN_DEFENSE), Alia's snooper roll (K-9 A06-b); in the analysis
(battle_events), in a game's battle-d10 event and in the replay browser's words."""

from __future__ import annotations

from test_leader_weapon_games import _both, _position

from dunenb.analysis.battle_events import outcome_rolls, roll_words, shield_rolls
from dunenb.battle.case import parse_case
from dunenb.battle.rolls import SHIELD_PASS, SNOOPER, WORN_SHIELD
from dunenb.engine import apply_action
from dunenb.rules.battle_phase import BattleDie


def _battle(first, second, territory="arsunt"):
    return parse_case({"format": "dunenb.battle/1", "territory": territory, "defender": first["house"],
                       "sides": [first, second]}).battle


def _side(house, leader, **cards):
    return {"house": house, "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": leader, **cards}


def test_k_8_the_worn_shield_roll_is_named_as_such():
    """Leto I (ATREIDES-L08-a: a worn shield, d10 ≤ 4) against a distance projectile: the Atreides roll for the worn
    shield, not 'to get past the shield'."""
    battle = _battle(_side("atreides", "leto-i"), _side("harkonnen", "piter", weapon="projectile-distance"))
    (roll,) = shield_rolls(battle)
    assert (roll.house, roll.purpose, roll.passes) == ("atreides", WORN_SHIELD, (1, 2, 3, 4))
    assert roll.label == "Worn-shield roll"
    assert roll.text() == "Atreides roll a d10 for their leader's worn shield (K-8): their leader lives on 1-4 (40%)"
    words = {w for per_outcome in outcome_rolls(battle).items() for w in roll_words(*per_outcome)}
    assert words == {"Atreides d10 1-4: worn shield: lives", "Atreides d10 5-10: worn shield: dies"}


def test_k_9_a06_b_alia_s_snooper_roll_is_named_as_such():
    """Alia's poison against a Harkonnen leader's snooper (ATREIDES-L06-b): on more than his base strength (Piter 4)
    the snooper fails."""
    battle = _battle(_side("atreides", "alia", weapon="poison-fast"), _side("harkonnen", "piter", defense="snooper"))
    (roll,) = shield_rolls(battle)
    assert (roll.house, roll.purpose, roll.passes) == ("atreides", SNOOPER, (5, 6, 7, 8, 9, 10))
    assert roll.text().startswith("Atreides roll a d10 to get their poison past the Harkonnen snooper")


def test_card_shield_3_a_shield_pass_keeps_its_words():
    battle = _battle(_side("atreides", "duncan-idaho", weapon="projectile-contact"),
                     _side("harkonnen", "piter", defense="shield"))
    (roll,) = shield_rolls(battle)
    assert roll.purpose == SHIELD_PASS and roll.label == "Shield roll"
    assert roll.text().startswith("Atreides roll a d10 to get past the Harkonnen shield: it passes on 1-")


def test_k_8_in_a_game_the_battle_d10_event_says_it_is_the_worn_shield():
    """GUILD-L01-a: Edric's tank shield (K-8) is rolled by the Guild; the event names the worn shield."""
    state = _position(["guild", "harkonnen"], [("guild", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                      {"harkonnen": ("projectile-distance",)})
    state = _both(state, {"guild": ("edric", {}), "harkonnen": ("piter", {"weapon": "projectile-distance"})})
    after = apply_action(state, BattleDie("guild", 4))
    (rolled,) = [e for e in after.events if e.kind == "battle-d10"]
    assert rolled.data["purpose"] == WORN_SHIELD
    assert rolled.text == "guild rolls 4 on the d10 to see whether the worn shield acts (leaders.md K-8)"
    from dunenb.widgets.replay_browser import _event_words

    assert _event_words(rolled) == ("🎲", "Worn-shield roll", "Guild roll 4 on the d10 to see whether the worn "
                                    "shield acts (leaders.md K-8)")
