"""leaders.md section 4, the decisions D-5, D-6, D-7, D-8, D-10, D-11 and D-16 (issue 11 coverage), each played:
battle cases (``dunenb.battle/1``), the resolver's exact distributions, and games through the rules flow.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from helpers_game import decisions, events_of, force, held_by_harkonnen, outcome_map, play_battle
from test_leader_deals import open_battle as deals_open_battle
from test_leader_mind_powers import scene, until
from test_leader_traits_battle import position as traits_position
from test_leader_weapon_games import _position

from dunenb.battle.case import case_json, parse_case
from dunenb.battle.characters import allocate, copy_in_play, leaders_in_game
from dunenb.battle.leader_karama import leader_of_power
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.powers import battle_values
from dunenb.battle.resolve import enumerate_battle_rolls, resolve_battle, resolve_with_rolls
from dunenb.battle.roster import HOUSES, Leader, inline_leader, load_roster
from dunenb.battle.wheel import Dial, Tokens
from dunenb.engine import check_action, current_player
from dunenb.errors import InputError
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import BattleDie, SubmitPlan
from dunenb.rules.common import storm_order
from dunenb.rules.pre_battle import AskPrescience
from dunenb.rules.secrecy import viewers

ROSTER = load_roster()
FOE = inline_leader("Foe", 5)  # no House, no powers
PLAIN = "mesa-molle"  # a plain mountain: no terrain condition of these leaders holds there


def _power(power_id: str) -> tuple[Leader, object]:
    leader = leader_of_power(power_id)  # the roster's own lookup of an entry's leader
    assert leader is not None, power_id
    return leader, next(power for power in leader.powers if power.id == power_id)


def _raw(first: dict, second: dict, territory: str = PLAIN, defender: str | None = None) -> dict:
    """A ``dunenb.battle/1`` case: 10 tokens a side, 1 dialled, unless the side says otherwise."""
    sides = [{"tokens": {"regular": 10}, "dial": {"regular": 1}, **side} for side in (first, second)]
    return {"format": "dunenb.battle/1", "territory": territory, "defender": defender or second["house"],
            "sides": sides}


def _only(raw: dict) -> dict:
    (outcome,) = case_json(parse_case(raw))["outcomes"]
    return outcome


def _side_of(raw: dict, house: str) -> dict:
    """``house``'s total and acting powers in the case: the same in every outcome (a later d10, e.g. Fiona's
    DISPERSION-L05-c after a win, splits the outcomes but not the values); the powers that act in all of them."""
    sides = [outcome["sides"][house] for outcome in case_json(parse_case(raw))["outcomes"]]
    (total,) = {side["total"] for side in sides}
    return {"total": total, "powers": sorted(set.intersection(*(set(side["powers"]) for side in sides)))}


# ---- D-5 Fremen Jessica and Alia ---------------------------------------------------------------------------

def test_d_5_fremen_jessica_has_b05_c_and_keeps_her_5():
    """D-5: L257 is Jessica (F06): the same -1 to an Atreides leader as B05-c, and her own strength 5."""
    jessica, minus = _power("FREMEN-L06-c")
    bg_jessica, bg_minus = _power("BG-L05-c")
    assert jessica.key == "fremen:jessica" and jessica.strength == 5 and bg_jessica.strength == 6
    assert minus.effect == bg_minus.effect  # WHEEL_MODIFIER(-1 on opponent | opp of Atreides)
    duncan = ROSTER.find("duncan-idaho", house="atreides")
    for holder in (jessica, bg_jessica):  # the mechanism, fed a scene D-16 says no game reaches
        values = battle_values((holder.house, "harkonnen"), (holder, duncan), 0, territory=PLAIN)
        assert values[1].leader_value == duncan.strength - 1
        plain = battle_values((holder.house, "harkonnen"), (holder, ROSTER.find("piter")), 0, territory=PLAIN)
        assert plain[1].leader_value == ROSTER.find("piter").strength
    # in a case (no Atreides leader can face her, D-16) she fights with 5, the BG copy with 6
    totals = {house: _side_of(_raw({"house": house, "leader": f"{house}:jessica", "dial": {"regular": 0}},
                                   {"house": "harkonnen", "leader": "piter"}), house)["total"]
              for house in ("fremen", "bene-gesserit")}
    assert totals == {"fremen": 5, "bene-gesserit": 6}  # nothing dialled: the total is her value


@pytest.mark.parametrize("house", ["fremen", "bene-gesserit"])
def test_d_5_fremen_alia_asks_the_attack_only_as_b06_c_in_a_game(house):
    """D-5: L267 is Alia (F07), with the same attack-only prescience as B06-c: in a game her House is asked about
    the attack slot and refused the defence slot."""
    power = {"fremen": "FREMEN-L07-c", "bene-gesserit": "BG-L06-c"}[house]
    alia, prescience = _power(power)
    assert prescience.effect == _power("BG-L06-c")[1].effect and prescience.effect.scope == "attack"
    state = until(scene([house, "harkonnen"], hands={"harkonnen": ("poison-fast", "shield")}), house, power)
    assert {a.slot for a in decisions(state) if isinstance(a, AskPrescience)} == {"attack"}
    refused = check_action(state, AskPrescience(house, "defence"))
    assert refused is not None and refused.code == "battle/prescience"


def test_d_5_both_precedence_chains_agree():
    """D-5: Jessica goes Atreides, then BG, then Fremen (L259, L807); Alia Atreides, then Fremen, then BG (L269,
    L817)."""
    assert _power("FREMEN-L06-a")[1].effect.args == ("after Atreides", "BG")
    assert copy_in_play("jessica", ["fremen", "bene-gesserit"]).key == "bene-gesserit:jessica"
    assert copy_in_play("jessica", ["fremen", "harkonnen"]).key == "fremen:jessica"
    assert copy_in_play("alia", ["fremen", "bene-gesserit"]).key == "fremen:alia"
    assert copy_in_play("alia", ["bene-gesserit", "harkonnen"]).key == "bene-gesserit:alia"
    for name in ("jessica", "alia"):
        assert copy_in_play(name, ["fremen", "bene-gesserit", "atreides"]).house == "atreides"


# ---- D-6 / D-7 the Guild's "ne pas N" and the dice ------------------------------------------------------------

NAVIGATORS = [("GUILD-L01", 4), ("GUILD-L02", 4), ("GUILD-L03", 3), ("GUILD-L04", 3), ("GUILD-L05", 2),
              ("GUILD-L06", 2)]


def _shielded(wearer: Leader, die: tuple[int, ...] = ()) -> Battle:
    """The wearer (no card) against a distance projectile that only his worn shield can stop."""
    mine = BattleSide(wearer.house, Tokens(3), BattlePlan(Dial(1), wearer), dice=die)
    gun = BattleSide("harkonnen", Tokens(3), BattlePlan(Dial(1), FOE, "projectile-distance"))
    return Battle(PLAIN, "harkonnen", (mine, gun))


@pytest.mark.parametrize(("power_id", "bound"), [*[(f"{g}-a", n) for g, n in NAVIGATORS], ("DISPERSION-L03-d", 3)])
def test_d_6_d_7_ne_pas_n_succeeds_on_n_and_fails_on_n_plus_1(power_id, bound):
    """D-6: "si le D10 ne pas N" (and Duana's "actif à 3") is d10 <= N; D-7: faces 1-10, each 1/10, the roll
    is the wearer's House's. The tank's N is the navigator's strength, half his prescience threshold."""
    wearer, _ = _power(power_id)
    if wearer.house == "guild":
        assert wearer.strength == bound
        immunity = next(p for p in wearer.powers if p.id == power_id[:-1] + "b").effect
        assert immunity.at_most == 2 * bound  # IMMUNITY(prescience | d10 <= 2N)
    fate = {face: resolve_with_rolls(_shielded(wearer), {wearer.house: (face,)}).sides[0].leader_fate
            for face in range(1, 11)}
    assert fate == {face: "alive" if face <= bound else "dead" for face in range(1, 11)}
    assert resolve_with_rolls(_shielded(wearer, (bound,)), {}).sides[0].leader_fate == "alive"
    assert resolve_with_rolls(_shielded(wearer, (bound + 1,)), {}).sides[0].leader_fate == "dead"
    leaves = list(enumerate_battle_rolls(_shielded(wearer)))
    assert sorted(rolls[0][1] for _, rolls, _ in leaves) == list(range(1, 11))  # D-7: faces 1..10
    assert {p for p, _, _ in leaves} == {Fraction(1, 10)} and {rolls[0][0] for _, rolls, _ in leaves} == {
        wearer.house}
    alive = sum((p for p, o in resolve_battle(_shielded(wearer)) if o.sides[0].leader_fate == "alive"),
                Fraction(0))
    assert alive == Fraction(bound, 10)


def test_d_7_a_game_d10_is_public_and_has_ten_equal_faces():
    """D-7: in a game Edric's tank roll (GUILD-L01-a) is a chance node of ten faces 1/10 each, seen by every
    House; 4 succeeds and 5 fails (D-6)."""
    state = _position(["guild", "harkonnen"], [("guild", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                      {"harkonnen": ("projectile-distance",)})
    state = play_battle(state, {"guild": SubmitPlan("guild", "edric", 1, 0, 0),
                                "harkonnen": SubmitPlan("harkonnen", "piter", 1, 0, 0, "projectile-distance")})
    assert current_player(state) == "chance"
    assert outcome_map(state) == {BattleDie("guild", face): Fraction(1, 10) for face in range(1, 11)}
    assert all(viewers(state, BattleDie("guild", face)) is None for face in range(1, 11))  # public
    killed = {face: [e.data["leader"] for e in events_of(force(state, BattleDie("guild", face)), "leader-killed")]
              for face in (4, 5)}
    assert killed == {4: [], 5: ["edric"]}


# ---- D-8 "Attaquant" -------------------------------------------------------------------------------------------

ATTACKER_VALUES = [f"DISPERSION-L{n:02d}-b" for n in range(1, 9)] + [f"DISPERSION-L{n:02d}-d" for n in range(9, 13)] \
    + [f"TLEILAX-L{n:02d}-c" for n in range(5, 9)]


@pytest.mark.parametrize("power_id", ATTACKER_VALUES)
def test_d_8_an_attacker_value_applies_to_the_non_defender(power_id):
    """D-8 (LC-2): every attacker value (D01..D12, T05..T08) holds for the side that is not the case's defender,
    and never for the defender (nothing dialled: the total is the leader's value; a desert, where no army bonus
    of theirs holds)."""
    holder, power = _power(power_id)
    assert power.effect.when.kind == "role" and power.effect.when.arg == "attacker"
    them = {"house": "emperor", "leader": {"name": "Foe", "strength": 5}}
    mine = {"house": holder.house, "leader": holder.key, "dial": {"regular": 0}}
    attacking = _side_of(_raw(mine, them, "bassin-du-bouclier", defender="emperor"), holder.house)
    defending = _side_of(_raw(mine, them, "bassin-du-bouclier", defender=holder.house), holder.house)
    assert power_id in attacking["powers"] and power_id not in defending["powers"]
    assert (attacking["total"], defending["total"]) == (power.effect.value, holder.strength)


def test_d_8_in_a_game_the_attacker_is_the_later_house_in_storm_order():
    """D-8 (BATTLE-14): in a game Goose's 9 as attacker (TLEILAX-L05-c) acts when the Tleilax come later in storm
    order than the Harkonnen, not when they come first (and defend)."""
    acted = {}
    for houses in (["bene-tleilax", "harkonnen"], ["harkonnen", "bene-tleilax"]):
        state = _position(houses, [("bene-tleilax", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)], {})
        order = [house for house in storm_order(state) if house in houses]
        assert context_of(state).defender == order[0]
        state = play_battle(state, {"bene-tleilax": SubmitPlan("bene-tleilax", "goose", 1, 0, 0),
                                    "harkonnen": SubmitPlan("harkonnen", "feyd-rautha", 2, 0, 0)})
        powers = {e.data["house"]: e.data["powers"] for e in events_of(state, "battle-powers")}
        (outcome,) = events_of(state, "battle-outcome")
        acted[order[1]] = ("TLEILAX-L05-c" in powers.get("bene-tleilax", ()), outcome.data["winner"])
    # later in storm order: 9 + 1 against Feyd's 6 + 2; first (defender): 6 + 1 against 8
    assert acted == {"bene-tleilax": (True, "bene-tleilax"), "harkonnen": (False, "harkonnen")}


# ---- D-10 sandworms in deserts ---------------------------------------------------------------------------------

SANDWORM_LEADERS = ["FREMEN-L01-a", "FREMEN-L03-a", "FREMEN-L04-a", "FREMEN-L05-b", "FREMEN-L08-a", "FREMEN-L09-a",
                    "GUILD-L09-b"]


@pytest.mark.parametrize("power_id", SANDWORM_LEADERS)
def test_d_10_uses_sandworms_in_deserts_means_desert_no_worm_needed(power_id):
    """D-10: "uses sandworms to fight in deserts" is the condition ``desert``: in a desert case (no worm, no worm
    card, the Fremen not in the battle for the Guild's Bannerjée) the value holds; in a mountain it does not."""
    holder, power = _power(power_id)
    assert (power.effect.when.kind, power.effect.when.arg) == ("terrain", "desert")
    them = {"house": "harkonnen", "leader": "piter"}
    mine = {"house": holder.house, "leader": holder.key, "dial": {"regular": 0}}
    desert = _side_of(_raw(mine, them, territory="bassin-du-bouclier"), holder.house)
    mountain = _side_of(_raw(mine, them, territory=PLAIN), holder.house)
    assert power_id in desert["powers"] and power_id not in mountain["powers"]
    assert (desert["total"], mountain["total"]) == (power.effect.value, holder.strength)


def test_d_10_in_a_game_stilgar_gets_his_11_in_a_desert_without_any_worm():
    """D-10: a game battle in a spice desert on a turn with no worm drawn: Stilgar counts 11 (FREMEN-L01-a)."""
    state = _position(["fremen", "harkonnen"], [("fremen", "bassin-du-bouclier", 7, 4),
                                                ("harkonnen", "bassin-du-bouclier", 7, 4)], {})
    assert not [e for e in state.events if "worm" in e.kind]
    state = play_battle(state, {"fremen": SubmitPlan("fremen", "stilgar", 0, 0, 0),
                                "harkonnen": SubmitPlan("harkonnen", "feyd-rautha", 4, 0, 0)})
    powers = {e.data["house"]: e.data["powers"] for e in events_of(state, "battle-powers")}
    assert "FREMEN-L01-a" in powers["fremen"]
    (outcome,) = events_of(state, "battle-outcome")
    assert outcome.data["winner"] == "fremen"  # 11 against 6 + 4


# ---- D-11 "Duel" -------------------------------------------------------------------------------------------

def test_d_11_duel_against_paul_means_the_opposing_leader_is_paul():
    """D-11: Chani's "en duel contre Paul" (FREMEN-L02-d, DISARM on self | opp Paul) looks at the opposing
    leader: Paul disarms her; another Atreides leader does not; Paul played by his captor still does."""
    chani, disarm = _power("FREMEN-L02-d")
    assert (disarm.effect.when.kind, disarm.effect.when.arg) == ("opp", "leader:paul")
    mine = {"house": "fremen", "leader": "chani", "dial": {"regular": 4}}
    against = {name: _only(_raw(mine, {"house": house, "leader": leader, "dial": {"regular": 4}, **extra},
                                territory=PLAIN))["sides"]["fremen"]
               for name, house, leader, extra in (("paul", "atreides", "paul", {}),
                                                  ("duncan", "atreides", "duncan-idaho", {}),
                                                  ("captive-paul", "harkonnen", "atreides:paul",
                                                   {"captured": True}))}
    assert "FREMEN-L02-d" in against["paul"]["powers"] and against["paul"]["total"] == 4
    assert "FREMEN-L02-d" not in against["duncan"]["powers"] and against["duncan"]["total"] == 4 + chani.strength
    assert "FREMEN-L02-d" in against["captive-paul"]["powers"] and against["captive-paul"]["total"] == 4


def test_d_11_duel_at_sietch_tarb_is_a_battle_there():
    """D-11: "duel au Sietch Tarb" (FREMEN-L01-c, S-1) means a battle at Sietch Tarb, whoever the opposing leader:
    in a game where Liet Kynes faces Piter there, the Fremen are offered Stilgar in his place; in a mountain they
    are not asked."""
    from dunenb.rules.leader_specials import SubstituteLeader

    _, special = _power("FREMEN-L01-c")
    assert special.kind == "SPECIAL"
    asked = {}
    for area, sector in (("sietch-tarb", 12), ("mesa-molle", 8)):
        state = traits_position(["fremen", "harkonnen"], [("fremen", area, sector, 2), ("harkonnen", area, sector, 2)])
        state = play_battle(state, {"fremen": SubmitPlan("fremen", "liet-kynes", 1, 0, 0),
                                    "harkonnen": SubmitPlan("harkonnen", "piter", 1, 0, 0)},
                            until="traitor-call", through=("leader-buy-off",))
        asked[area] = (state.pending.kind == "leader-special"
                       and SubstituteLeader("fremen", "stilgar", "FREMEN-L01-c") in decisions(state))
    assert asked == {"sietch-tarb": True, "mesa-molle": False}


# ---- D-16 inert combinations ---------------------------------------------------------------------------------

def test_d_16_the_inert_minus_one_stays_in_the_data_and_never_acts():
    """D-16: F06-c and B05-c (-1 to an Atreides leader) are kept as written, but their copies of Jessica play only
    without the Atreides, so no Atreides leader exists in those games; a case that would pit them is refused."""
    for power_id in ("FREMEN-L06-c", "BG-L05-c"):
        holder, power = _power(power_id)
        assert (power.effect.delta, power.effect.on, power.effect.when.arg) == (-1, "opponent", "of:atreides")
        for size in range(2, 4):
            for houses in itertools.combinations(HOUSES, size):
                if holder.house in houses and allocate(houses).in_game(holder):
                    assert "atreides" not in houses
                    in_game = [leader for house in houses for leader in leaders_in_game(house, houses)]
                    assert not [leader for leader in in_game if leader.house == "atreides"]
        with pytest.raises(InputError, match="X-1"):
            parse_case(_raw({"house": holder.house, "leader": holder.key},
                            {"house": "harkonnen", "leader": "atreides:duncan-idaho", "captured": True}))
    # in a game of those Houses the -1 never lists among the acting powers
    for house, jessica in (("fremen", "jessica"), ("bene-gesserit", "jessica")):
        state = _position([house, "harkonnen"], [(house, "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)], {})
        state = play_battle(state, {house: SubmitPlan(house, jessica, 1, 0, 0),
                                    "harkonnen": SubmitPlan("harkonnen", "piter", 1, 0, 0)})
        acted = {power for e in events_of(state, "battle-powers") for power in e.data["powers"]}
        assert not acted & {"FREMEN-L06-c", "BG-L05-c"}


def test_d_16_siona_s_exchange_acts_only_against_a_leto_ii_of_another_house():
    """D-16: F05-c (Siona facing Léto II) is kept as written and acts only if Léto II F11, a Fremen leader like
    her, fights for another House: in a game Siona against the Harkonnen's own Feyd fights the battle; against
    Léto II captured and led by the Harkonnen the battle gives way to the leader exchange (D-29)."""
    siona, exchange = _power("FREMEN-L05-c")
    leto, _ = _power("FREMEN-L11-a")
    assert leto.house == siona.house == "fremen" and exchange.effect.args == ("opp Léto II", "leader_exchange")
    pending = {}
    for opponent, edit in (("feyd-rautha", None),
                           ("fremen:leto-ii", lambda s: held_by_harkonnen(s, "fremen", "leto-ii"))):
        state = deals_open_battle(["fremen", "harkonnen"], edit=edit)
        state = play_battle(state, {"fremen": SubmitPlan("fremen", "siona", 1, 0, 0),
                                    "harkonnen": SubmitPlan("harkonnen", opponent, 1, 0, 0)},
                            through=("leader-buy-off",), calls={})  # the Fremen do not call on their captive
        pending[opponent] = (state.pending.kind, bool(events_of(state, "battle-outcome")))
    assert pending["fremen:leto-ii"] == ("give-leader", False)
    assert pending["feyd-rautha"][0] != "give-leader" and pending["feyd-rautha"][1]


def test_fremen_l05_c_case_trace_shows_the_exchange_the_game_logs():
    """D-29 (FREMEN-L05-c): a battle case of Siona against a captured Léto II whom the Fremen cannot call (the
    Harkonnen hold his slip, TRAITOR-13 case 2) is void, as in a game: no winner, nothing lost, FREMEN-L05-c
    listed on the Fremen side, and the outcome's ``void`` carries the very words of the game's leader-exchange
    event. When the Fremen may call on him (FAQ 19), the treachery comes first and B8 is skipped (LC-5)."""
    side = {"house": "harkonnen", "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": "fremen:leto-ii",
            "captured": True}
    raw = {"format": "dunenb.battle/1", "territory": "mesa-molle", "defender": "fremen",
           "sides": [{"house": "fremen", "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": "siona"},
                     dict(side, traitors=["fremen:leto-ii"])]}
    [outcome] = case_json(parse_case(raw))["outcomes"]
    assert outcome["winner"] is None and not outcome["traitor_called_by"]
    assert outcome["sides"]["fremen"]["powers"] == ["FREMEN-L05-c"] and outcome["sides"]["harkonnen"]["powers"] == []
    assert all(s["tokens_lost"] == 0 and s["leader"] == "alive" and s["bounty"] == 0
               for s in outcome["sides"].values())
    state = deals_open_battle(["fremen", "harkonnen"], edit=lambda s: held_by_harkonnen(s, "fremen", "leto-ii"))
    state = play_battle(state, {"fremen": SubmitPlan("fremen", "siona", 1, 0, 0),
                                "harkonnen": SubmitPlan("harkonnen", "fremen:leto-ii", 1, 0, 0)},
                        through=("leader-buy-off",), calls={})
    [logged] = events_of(state, "leader-exchange")
    assert outcome["void"] == {"house": "fremen", "power": "FREMEN-L05-c", "text": logged.text}
    raw["sides"][1] = side
    [called] = case_json(parse_case(raw))["outcomes"]
    assert called["traitor_called_by"] == ["fremen"] and "void" not in called
