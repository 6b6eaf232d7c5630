"""Battle resolution (BATTLE-5 to BATTLE-13, card rules, CARD-SHIELD-2's four examples, GAP-28/29/42/43/45)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dunenb.battle.plans import Battle, BattlePlan, BattleSide, traitor_names
from dunenb.battle.resolve import enumerate_battle, resolve_battle, resolve_with_rolls
from dunenb.battle.roster import inline_leader, load_roster
from dunenb.battle.wheel import Dial, Tokens
from dunenb.errors import IllegalActionError, InputError


def side(house, tokens=6, dial=(4, 0, 0), leader=("L", 5), weapon=None, defense=None, traitors=(), dice=(),
         elite=0):
    chosen = None if leader is None else (inline_leader(*leader) if isinstance(leader, tuple) else leader)
    plan = BattlePlan(Dial(*dial), chosen, weapon, defense)
    return BattleSide(house, Tokens(tokens, elite), plan, traitor_names(traitors), tuple(dice))


def battle(first, second, defender=None, territory="arrakeen"):
    return Battle(territory, defender or first.house, (first, second))


def only(distribution):
    assert len(distribution) == 1
    probability, outcome = distribution[0]
    assert probability == 1
    return outcome


def p_of(distribution, predicate):
    return sum((p for p, outcome in distribution if predicate(outcome)), Fraction(0))


# ----------------------------------------------------------------------------------------- totals and winner
def test_BATTLE_7_total_is_army_value_plus_leader():
    out = only(resolve_battle(battle(side("atreides", dial=(4, 0, 2), leader=("D", 6)),
                                     side("harkonnen", dial=(2, 0, 0), leader=("F", 3)))))
    assert out.side("atreides").total == 3 + 6
    assert out.side("harkonnen").total == 1 + 3


def test_BATTLE_8_dead_leader_is_worth_zero_but_army_may_still_win():
    out = only(resolve_battle(battle(side("atreides", tokens=10, dial=(10, 0, 0), leader=("D", 6)),
                                     side("harkonnen", dial=(2, 0, 0), leader=("F", 3), weapon="lasgun"))))
    assert out.side("atreides").leader_fate == "dead" and out.side("atreides").total == 5
    assert out.winner == "atreides"


def test_BATTLE_9_higher_total_wins():
    out = only(resolve_battle(battle(side("atreides", dial=(2, 0, 0)), side("harkonnen", dial=(4, 0, 0)))))
    assert out.winner == "harkonnen"


def test_BATTLE_13_f4_tie_goes_to_defender():
    tie = battle(side("atreides", dial=(4, 0, 0)), side("harkonnen", dial=(4, 0, 0)))
    assert only(resolve_battle(tie)).winner == "atreides"
    other = Battle("arrakeen", "harkonnen", tie.sides)
    assert only(resolve_battle(other)).winner == "harkonnen"


def test_BATTLE_10_winner_loses_dialled_tokens_and_spice_keeps_cards():
    out = only(resolve_battle(battle(side("atreides", tokens=8, dial=(4, 0, 2), weapon="worthless"),
                                     side("harkonnen", dial=(1, 0, 0)))))
    winner = out.side("atreides")
    assert winner.tokens_lost == Tokens(4, 0) and winner.tokens_left == Tokens(4, 0)
    assert winner.spice_lost == 2
    assert winner.cards_kept == ("worthless",) and winner.cards_lost == ()


def test_BATTLE_11_loser_loses_every_token_in_the_territory_spice_and_cards():
    out = only(resolve_battle(battle(side("atreides", tokens=8, dial=(4, 0, 0), defense="snooper"),
                                     side("harkonnen", tokens=9, dial=(1, 0, 1), weapon="poison-slow",
                                          defense="worthless"))))
    loser = out.side("harkonnen")
    assert loser.tokens_lost == Tokens(9, 0) and loser.tokens_left == Tokens(0, 0)
    assert loser.spice_lost == 1
    assert loser.cards_lost == ("poison-slow", "worthless")  # GAP-45: only the cards played


def test_WHEEL_4_every_dialled_token_is_lost_whatever_the_outcome():
    out = only(resolve_battle(battle(side("atreides", tokens=5, elite=2, dial=(3, 2, 0)),
                                     side("harkonnen", dial=(1, 0, 0)))))
    assert out.side("atreides").tokens_lost == Tokens(3, 2)


def test_BATTLE_13_f3_killed_leader_pays_his_strength_to_the_opponent_even_the_loser():
    # The winner kills nobody; the loser kills the winner's leader and earns his bounty (Appendix A).
    out = only(resolve_battle(battle(side("atreides", tokens=20, dial=(20, 0, 0), leader=("D", 6)),
                                     side("harkonnen", dial=(1, 0, 0), leader=("F", 3), weapon="poison-fast"))))
    assert out.winner == "atreides"
    assert out.side("harkonnen").bounty == 6 and out.side("atreides").bounty == 0


def test_BATTLE_5_and_6_one_leader_one_attack_one_defence():
    with pytest.raises(IllegalActionError):
        resolve_battle(battle(side("atreides", weapon="shield"), side("harkonnen")))
    with pytest.raises(IllegalActionError):
        resolve_battle(battle(side("atreides", defense="lasgun"), side("harkonnen")))


def test_CARD_3_worthless_card_may_fill_either_slot_and_does_nothing():
    plain = resolve_battle(battle(side("atreides"), side("harkonnen", dial=(5, 0, 0))))
    junk = resolve_battle(battle(side("atreides", weapon="worthless", defense="worthless"),
                                 side("harkonnen", dial=(5, 0, 0))))
    assert only(plain).winner == only(junk).winner == "harkonnen"
    assert only(junk).side("atreides").leader_fate == only(plain).side("atreides").leader_fate == "alive"


def test_GAP_43_no_leader_fights_at_army_value_and_plays_no_card():
    out = only(resolve_battle(battle(side("atreides", dial=(6, 0, 0), leader=None),
                                     side("harkonnen", dial=(2, 0, 0), leader=("F", 1), weapon="poison-fast"))))
    assert out.side("atreides").leader_fate == "none" and out.side("atreides").total == 3
    assert out.winner == "atreides"
    with pytest.raises(IllegalActionError) as error:
        resolve_battle(battle(side("atreides", leader=None, weapon="poison-fast"), side("harkonnen")))
    assert error.value.code == "battle/no-leader-cards"


# ----------------------------------------------------------------------------------------------- weapons
@pytest.mark.parametrize("poison", ["poison-fast", "poison-slow"])
def test_CARD_POISON_2_snooper_stops_poisons(poison):
    saved = only(resolve_battle(battle(side("atreides", weapon=poison), side("harkonnen", defense="snooper"))))
    assert saved.side("harkonnen").leader_fate == "alive"
    killed = only(resolve_battle(battle(side("atreides", weapon=poison), side("harkonnen", defense="shield"))))
    assert killed.side("harkonnen").leader_fate == "dead"


def test_CARD_PROJ_1_distance_projectile_always_stopped_by_shield():
    stopped = only(resolve_battle(battle(side("atreides", weapon="projectile-distance"),
                                         side("harkonnen", defense="shield"))))
    assert stopped.side("harkonnen").leader_fate == "alive"
    hit = only(resolve_battle(battle(side("atreides", weapon="projectile-distance"),
                                     side("harkonnen", defense="snooper"))))
    assert hit.side("harkonnen").leader_fate == "dead"


def test_CARD_SHIELD_3_contact_projectile_passes_on_d10_at_or_under_base_strength():
    dist = resolve_battle(battle(side("atreides", leader=("K", 7), weapon="projectile-contact"),
                                 side("harkonnen", defense="shield")))
    assert p_of(dist, lambda o: o.side("harkonnen").leader_fate == "dead") == Fraction(7, 10)
    leaves = list(enumerate_battle(battle(side("atreides", leader=("K", 7), weapon="projectile-contact"),
                                          side("harkonnen", defense="shield"))))
    assert len(leaves) == 10 and all(p == Fraction(1, 10) for p, _, _ in leaves)  # GAP-28b: faces 1..10
    for _, rolls, outcome in leaves:
        ((house, face),) = rolls
        assert house == "atreides"
        assert (outcome.side("harkonnen").leader_fate == "dead") == (face <= 7)


def test_CARD_SHIELD_2_example_1_wrong_defence_dies_at_once_no_roll():
    knife = side("atreides", leader=("P1", 5), weapon="projectile-contact", defense="shield")
    lancet = side("harkonnen", leader=("P2", 4), weapon="projectile-contact", defense="snooper")
    leaves = list(enumerate_battle(battle(knife, lancet)))
    assert len(leaves) == 1 and leaves[0][1] == ()          # no die rolled
    out = leaves[0][2]
    assert out.leader_fates == ("alive", "dead")


def test_CARD_SHIELD_2_example_2_right_defence_may_try_to_pass():
    fast = side("atreides", leader=("P1", 5), weapon="poison-fast", defense="shield")
    lancet = side("harkonnen", leader=("P2", 4), weapon="projectile-contact", defense="snooper")
    dist = resolve_battle(battle(fast, lancet))
    assert p_of(dist, lambda o: o.side("harkonnen").leader_fate == "alive") == 1
    assert p_of(dist, lambda o: o.side("atreides").leader_fate == "dead") == Fraction(4, 10)


def test_CARD_SHIELD_2_example_3_slow_poison_victim_may_still_pass_and_both_die_GAP_28c():
    slow = side("atreides", leader=("P1", 5), weapon="poison-slow", defense="shield")
    lancet = side("harkonnen", leader=("P2", 4), weapon="projectile-contact", defense="shield")
    dist = resolve_battle(battle(slow, lancet))
    assert p_of(dist, lambda o: o.side("harkonnen").leader_fate == "dead") == 1
    both = [(p, o) for p, o in dist if o.leader_fates == ("dead", "dead")]
    assert len(both) == 1 and both[0][0] == Fraction(4, 10)
    assert both[0][1].side("atreides").bounty == 4 and both[0][1].side("harkonnen").bounty == 5


def test_CARD_SHIELD_2_example_4_both_may_try_to_pass():
    knife = side("atreides", leader=("P1", 5), weapon="projectile-contact", defense="shield")
    lancet = side("harkonnen", leader=("P2", 4), weapon="projectile-contact", defense="shield")
    dist = resolve_battle(battle(knife, lancet))
    fates = {}
    for p, o in dist:
        fates[o.leader_fates] = fates.get(o.leader_fates, 0) + p
    assert fates == {("alive", "dead"): Fraction(5, 10) * Fraction(6, 10),
                     ("alive", "alive"): Fraction(5, 10) * Fraction(6, 10),
                     ("dead", "dead"): Fraction(5, 10) * Fraction(4, 10),
                     ("dead", "alive"): Fraction(5, 10) * Fraction(4, 10)}
    assert sum(p for p, _ in dist) == 1


def test_GAP_28a_shield_pass_uses_base_strength_of_roster_leader():
    roster = load_roster()
    vladimir = roster.main_leader("harkonnen")  # base 4, more on the wheel with minions (not implemented)
    dist = resolve_battle(battle(side("atreides", defense="shield"),
                                 side("harkonnen", leader=vladimir, weapon="projectile-contact")))
    assert p_of(dist, lambda o: o.side("atreides").leader_fate == "dead") == Fraction(4, 10)


def test_fixed_dice_give_one_outcome():
    knife = side("atreides", leader=("P1", 5), weapon="projectile-contact", defense="shield", dice=(6,))
    lancet = side("harkonnen", leader=("P2", 4), weapon="projectile-contact", defense="shield", dice=(4,))
    out = only(resolve_battle(battle(knife, lancet)))
    assert out.leader_fates == ("dead", "alive")  # P1 rolled 6 > 5 and fails; P2 rolled 4 <= 4 and passes
    assert resolve_with_rolls(battle(knife, lancet), {}) == out
    with pytest.raises(InputError):
        resolve_with_rolls(battle(side("atreides", weapon="projectile-contact"), side("harkonnen",
                                                                                      defense="shield")), {})


def test_CARD_LASGUN_1_lasgun_always_kills():
    out = only(resolve_battle(battle(side("atreides", weapon="lasgun"), side("harkonnen", defense="snooper"))))
    assert out.side("harkonnen").leader_fate == "dead" and out.explosion is None


@pytest.mark.parametrize("shield_side", [0, 1])
def test_CARD_LASGUN_1_lasgun_meeting_a_shield_explodes_GAP_29(shield_side):
    first = side("atreides", tokens=9, dial=(4, 0, 2), weapon="lasgun",
                 defense="shield" if shield_side == 0 else None)
    second = side("harkonnen", tokens=7, dial=(2, 0, 1), defense="shield" if shield_side == 1 else None)
    out = only(resolve_battle(battle(first, second)))
    assert out.explosion == "lasgun-shield" and out.winner is None              # FAQ 22, GAP-29b
    assert out.leader_fates == ("dead", "dead")
    assert [s.tokens_left.total for s in out.sides] == [0, 0] and out.territory_destroyed
    assert [s.bounty for s in out.sides] == [0, 0]                               # GAP-29b: no bounty
    assert [s.spice_lost for s in out.sides] == [2, 1]
    assert out.sides[0].cards_lost == first.plan.cards_played
    assert out.outlawed == ()                                                     # no sanction


def test_CARD_ATOMICS_3_atomics_in_battle_destroy_everything_and_outlaw_the_user():
    out = only(resolve_battle(battle(side("atreides", weapon="atomics", defense="shield"),
                                     side("harkonnen", dial=(6, 0, 0), defense="snooper"))))
    assert out.explosion == "atomics" and out.winner is None and out.territory_destroyed
    assert out.leader_fates == ("dead", "dead")
    assert out.outlawed == ("atreides",)                                          # CARD-ATOMICS-4, GAP-29c
    assert out.to_json()["explosion"] is True


# --------------------------------------------------------------------------------------------- treachery
def test_TRAITOR_10_and_11_traitor_dies_caller_gets_his_value_and_loses_nothing():
    duncan = load_roster().find("duncan-idaho", house="atreides")
    victim = side("atreides", tokens=8, dial=(6, 0, 2), leader=duncan, weapon="projectile-contact",
                  defense="shield")
    caller = side("dispersion", tokens=8, dial=(2, 0, 0), leader=("Murbella", 8), weapon="poison-slow",
                  traitors=["Duncan Idaho"])
    out = only(resolve_battle(battle(victim, caller)))
    assert out.traitor_called_by == ("dispersion",) and out.winner == "dispersion"
    assert out.side("atreides").leader_fate == "dead" and out.side("dispersion").bounty == 6
    winner = out.side("dispersion")
    assert winner.tokens_lost.total == 0 and winner.spice_lost == 0 and winner.cards_kept == ("poison-slow",)
    loser = out.side("atreides")
    assert loser.tokens_left.total == 0 and loser.spice_lost == 2
    assert loser.cards_lost == ("projectile-contact", "shield")


def test_TRAITOR_10_traitor_survives_caller_gets_2_spice():
    out = only(resolve_battle(battle(side("atreides", leader=("Duncan Idaho", 6)),
                                     side("harkonnen", traitors=["duncan idaho"]))))
    assert out.side("atreides").leader_fate == "alive" and out.side("harkonnen").bounty == 2


def test_TRAITOR_11_caller_leader_lives_even_if_he_was_killed():
    out = only(resolve_battle(battle(side("atreides", leader=("Duncan Idaho", 6), weapon="lasgun"),
                                     side("harkonnen", traitors=["Duncan Idaho"]))))
    assert out.side("harkonnen").leader_fate == "alive"


def test_GAP_35b_treachery_stops_battle_no_explosion_no_pass_against_caller():
    # FAQ 23: a called traitor prevents the lasgun-shield explosion.
    out = only(resolve_battle(battle(side("atreides", leader=("Duncan Idaho", 6), weapon="lasgun"),
                                     side("harkonnen", defense="shield", traitors=["Duncan Idaho"]))))
    assert out.explosion is None and out.winner == "harkonnen"
    # the caller's contact projectile against the traitor's shield is still rolled (weapon aimed at him)
    dist = resolve_battle(battle(side("atreides", leader=("Duncan Idaho", 6), defense="shield",
                                      weapon="projectile-contact"),
                                 side("harkonnen", leader=("Feyd", 6), weapon="projectile-contact",
                                      traitors=["Duncan Idaho"])))
    assert p_of(dist, lambda o: o.side("atreides").leader_fate == "dead") == Fraction(6, 10)
    assert p_of(dist, lambda o: o.side("harkonnen").leader_fate == "dead") == 0


def test_TRAITOR_12_traitor_against_traitor_swaps_leaders_and_battle_goes_on_GAP_35d():
    harkonnen = side("harkonnen", dial=(4, 0, 0), leader=("Piter", 4), weapon="poison-fast", defense="shield",
                     traitors=["Gurney"])
    atreides = side("atreides", dial=(3, 0, 3), leader=("Gurney", 7), weapon="projectile-distance",
                    traitors=["Piter"])
    out = only(resolve_battle(battle(harkonnen, atreides)))
    assert out.leaders_swapped and set(out.traitor_called_by) == {"harkonnen", "atreides"}
    # Harkonnen's wheel is led by Gurney (7), alive behind its shield; Piter on the Atreides wheel is poisoned.
    assert out.side("harkonnen").leader == "gurney" and out.side("harkonnen").total == 2 + 7
    assert out.side("atreides").leader_fate == "dead" and out.side("harkonnen").bounty == 4
    assert out.winner == "harkonnen"


def test_TRAITOR_9_no_call_without_a_slip():
    out = only(resolve_battle(battle(side("atreides", leader=("Duncan Idaho", 6)),
                                     side("harkonnen", traitors=["Gurney"]))))
    assert out.traitor_called_by == ()


# ------------------------------------------------------------------------------------------ distributions
def test_probabilities_sum_to_one_and_outcomes_are_merged():
    knife = side("atreides", leader=("P1", 5), weapon="projectile-contact", defense="shield")
    lancet = side("harkonnen", leader=("P2", 4), weapon="projectile-contact", defense="shield")
    dist = resolve_battle(battle(knife, lancet))
    assert sum(p for p, _ in dist) == 1
    assert len(dist) == 4 < len(list(enumerate_battle(battle(knife, lancet))))  # 100 leaves merged into 4
    assert len({outcome for _, outcome in dist}) == len(dist)


def test_resolution_is_pure():
    knife = side("atreides", leader=("P1", 5), weapon="projectile-contact", defense="shield")
    lancet = side("harkonnen", leader=("P2", 4), weapon="projectile-contact", defense="shield")
    one = battle(knife, lancet)
    assert resolve_battle(one) == resolve_battle(one)
    assert one.sides[0].plan.weapon == "projectile-contact"
