"""leaders.md K-25 SPECIAL in a game: the one-off leader rules whose parameters ``data/leader_specials.json`` gives.

* **S-1 Stilgar** (FREMEN-L01-c, L219, a power): in a battle at Sietch Tarb where the Fremen committed Liet Kynes,
  the Fremen may, at B7 before the treachery calls, put Stilgar in Kynes's place (a ``leader-special``
  decision, the pass first), if Stilgar is among their own leaders (alive, not captured) and may lead there this
  turn (BATTLE-15: not committed in another territory). He is then the leader for everything (value, powers,
  treachery, bounty); the dial and the cards stay. Rule ``substitute``; a Karama in force against the power
  (LC-11) stops it. GAP-118: the Fremen are asked only when the substitution is possible (everything it depends
  on is public: the wheels are revealed, the leaders who fought are known).
* **S-2 Siona** (ATREIDES-L10-c, L1121, a power acting outside battles, LC-12): if Siona led a battle for the
  Atreides in a desert (LC-3) this turn, then during the next turn's steps a) and b) the Atreides tokens in that
  territory are spared by a worm (:func:`worm_spares`, as FREMEN-P2 a, no riding; harvesters and spice are not)
  and lose only half, rounded up, to a storm, except in the double storm (:func:`storm_losses`, as FREMEN-P3).
  The tokens there then are those left after the battle phase: nothing moves in before step c). Rule
  ``desert_shelter``; the battles of the turn before are still in ``GameState.battles_led`` at steps a) and b).
* **S-5 Gurney** (ATREIDES-L01-c, L1041, a power): in a battle Gurney leads in Arrakeen for the Atreides, while the
  Shield Wall stands, the Atreides may blow it up as CARD-ATOMICS-2 (GAP-30) with no card and no sanction
  (:func:`dunenb.rules.atomics.blow_shield_wall`). Rule ``shield_wall_blast``; GAP-119: the seed's "at any step"
  is offered once, at the same node as S-1 (the first step where the engine knows he leads).
* **S-6 Idaho-Ghola** (ATREIDES-L02-c, ATREIDES-L11-c, L1049, L1129): when Duncan A02 (or later the Atreides
  Idaho-Ghola A11) dies, his turn of death is recorded (``GameState.leader_deaths``). From the start of the 4th
  turn after it, while his disc is still in the Atreides tanks and the Tleilax play, the Atreides may at any time
  (an any-time action, GAP-57: :mod:`dunenb.rules.anytime`) pay 5 spice to the Tleilax, who cannot refuse: the
  disc leaves the game for good and A11 joins the Atreides' leaders, alive. A ghola card reviving him first
  cancels the count (his disc has left the tanks); each death of A11 restarts it. Rule ``ghola_return``.
* **S-8 Ducal tax** (HARKONNEN-L02-d, L1195, a power acting outside battles, LC-12): Sietch Tarb's TAX-1 tax is 3
  instead of 1 for the Harkonnen if Zébataleh led a battle there this turn, is alive and not captured at step j,
  and the Harkonnen own Sietch Tarb (GAP-36a). Rule ``ducal_tax``; the battles led this turn are
  ``GameState.battles_led`` (:func:`record_battle`); GAP-120.
* **S-7 Irulan leaves** (BG-L07-c, L829, a trait): when Paul or Shaddam dies, Irulan B07 leaves the game at once,
  wherever she is: alive (in any House's leaders, a captive too), or dead (in any House's tanks). Rule
  ``leaves_when_dead``; :func:`after_deaths` applies it after each battle's deaths (the only place where a
  leader dies in the engine). She never comes back (X-4: the allocation is not redone).

* **S-4 Burseg** (EMPEROR-L03-c, L373, a power): rule ``explosion_shelter``, applied by the battle library
  (:mod:`dunenb.battle.leader_shelter`); here :func:`after_shelter` records his strength lost for good and
  :func:`as_weakened` applies it to his later battles (GAP-133).
* **S-9 Lingar at the Pole** (HARKONNEN-L07-d, L1245, a power): rule ``pole_battle``. Before each battle the
  phase picks (and before it ends), the Harkonnen may open a battle at the Pôle Nord (an exception to BATTLE-1)
  against one House with tokens there, if they have tokens there and Lingar is alive, free and may lead there
  this turn (BATTLE-15); a ``pole-battle`` decision, the pass first (GAP-135). Lingar must lead it
  (:func:`pole_leaders`); he is worth 3 there (H07-e, a WHEEL_VALUE); the usual steps apply.

>>> [special.id for special in load_specials()]
['S-1', 'S-2', 'S-4', 'S-5', 'S-6', 'S-8', 'S-7', 'S-9']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from dunenb.actions import Action, Pass
from dunenb.battle.roster import Leader
from dunenb.board import read_data_file
from dunenb.errors import IllegalActionError, RulesDataError
from dunenb.powers.karama import suppressed_powers
from dunenb.rules.battle_context import BattleContext, context_of
from dunenb.rules.common import Handler, Pledge, edit_house, event, pending, with_events
from dunenb.rules.traitors import leader_ref
from dunenb.state import GameState, evolve

SPECIALS_FORMAT = "dunenb.leader_specials/1"
RULES = ("leaves_when_dead", "substitute", "shield_wall_blast", "ducal_tax", "ghola_return", "desert_shelter",
         "explosion_shelter", "pole_battle")


@dataclass(frozen=True)
class Special:
    """One K-25 rule: its S-n ``id``, the leader ``power`` that carries it, the ``holder`` (House, id) of that power,
    its ``rule`` and the (House, id) ``leaders`` it watches."""

    id: str
    power: str
    holder: tuple[str, str]
    rule: str
    leaders: tuple[tuple[str, str], ...] = ()
    territory: str | None = None
    replaces: str | None = None
    tax: int | None = None
    ghola: str | None = None
    turns: int = 0
    price: int = 0
    payee: str | None = None
    phases: tuple[str, ...] = ()
    terrain: str | None = None
    strength_loss: int = 0


@lru_cache(maxsize=1)
def load_specials() -> tuple[Special, ...]:
    """The shipped K-25 parameters, checked against the roster (an unknown power, rule or leader is a load error)."""
    from dunenb.battle.roster import load_roster

    raw = read_data_file("leader_specials.json")
    if not isinstance(raw, dict) or raw.get("format") != SPECIALS_FORMAT:
        raise RulesDataError("specials/format", f"leader_specials.json must have format {SPECIALS_FORMAT!r}")
    roster = load_roster()
    holders = {power.id: (leader.house, leader.id) for leader in roster.leaders for power in leader.powers
               if leader.house is not None}
    keys = {(leader.house, leader.id) for leader in roster.leaders}
    found = []
    for entry in raw.get("specials", []):
        where = f"leader_specials.json {entry.get('id')!r}"
        if entry.get("power") not in holders:
            raise RulesDataError("specials/power", f"{where}: power {entry.get('power')!r} is no leader power ID")
        if entry.get("rule") not in RULES:
            raise RulesDataError("specials/rule", f"{where}: rule {entry.get('rule')!r}; allowed: {', '.join(RULES)}")
        leaders = tuple((str(house), str(lid)) for house, lid in entry.get("leaders", ()))
        unknown = [ref for ref in leaders if ref not in keys]
        if unknown:
            raise RulesDataError("specials/leader", f"{where}: {unknown} name no leader (House, id)")
        found.append(Special(str(entry["id"]), entry["power"], holders[entry["power"]], entry["rule"], leaders,
                             entry.get("territory"), entry.get("replaces"), entry.get("tax"), entry.get("ghola"),
                             int(entry.get("turns", 0)), int(entry.get("price", 0)), entry.get("payee"),
                             tuple(entry.get("phases", ())), entry.get("terrain"),
                             int(entry.get("strength_loss", 0))))
    return tuple(found)


def _dead(state: GameState, ref: tuple[str, str]) -> bool:
    from dunenb.powers.holders import dead_leaders

    house, lid = ref
    return house in state.houses and lid in dead_leaders(state, house)


def after_deaths(state: GameState, killed: tuple[tuple[str, str], ...] = ()) -> GameState:
    """After a battle's deaths (``killed``: owner House, leader id): S-6 (``ghola_return``) records the turn of a
    watched death; S-7 (``leaves_when_dead``): each watched death makes the power's leader leave the game."""
    for special in load_specials():
        if special.rule == "ghola_return":
            for ref in killed:
                if ref in special.leaders:
                    kept = tuple(entry for entry in state.leader_deaths if entry[:2] != ref)
                    state = evolve(state, leader_deaths=kept + ((ref[0], ref[1], state.turn),))
    for special in load_specials():
        if special.rule != "leaves_when_dead" or not any(_dead(state, ref) for ref in special.leaders):
            continue
        state = _leave(state, special)
    return state


def _leave(state: GameState, special: Special) -> GameState:
    """Take the special's leader out of the game, wherever he is (nothing if he is not in it)."""
    person = special.holder
    found = False
    for house, hs in state.houses.items():
        leaders = tuple(key for key in hs.leaders if leader_ref(house, key) != person)
        tanks = tuple(key for key in hs.leader_tanks if leader_ref(house, key) != person)
        if leaders != hs.leaders or tanks != hs.leader_tanks:
            found = True
            state = edit_house(state, house, leaders=leaders, leader_tanks=tanks)
    if person in state.captured:
        found = True
        state = evolve(state, captured=tuple(ref for ref in state.captured if ref != person))
    if not found:
        return state
    return with_events(state, event("leader-leaves", f"{person[1]} ({person[0]}) leaves the game ({special.id}, "
                                    f"{special.power})", house=person[0], leader=person[1], powers=(special.power,)))


# --- S-1 and S-5: leader specials after the reveal, before the treachery calls (B7) ---------------------------

@dataclass(frozen=True)
class SubstituteLeader(Action):
    """leaders.md S-1: ``house`` puts ``leader`` in the place of the leader it committed (``Pass`` declines)."""

    kind: ClassVar[str] = "leader-substitute"
    house: str
    leader: str
    power: str


@dataclass(frozen=True)
class BlastShieldWall(Action):
    """leaders.md S-5: ``house`` blows up the Shield Wall by its leader's power ``power``, with no card."""

    kind: ClassVar[str] = "leader-wall-blast"
    house: str
    power: str


def _leads_for_own_house(state: GameState, ctx: BattleContext, special: Special) -> bool:
    """The special's leader is on his own House's revealed wheel in this battle (not a captive: LC-9)."""
    house, lid = special.holder
    plan = ctx.plan_of(house) if house in ctx.houses else None
    return plan is not None and plan.leader == lid and (house, lid) not in state.captured


def _options(state: GameState, ctx: BattleContext) -> list[Action]:
    """The S-1 and S-5 actions possible in this battle now (the wheels revealed, before the calls)."""
    from dunenb.rules.battle_phase import available_leaders

    found: list[Action] = []
    blocked = suppressed_powers(state)
    for special in load_specials():
        house, lid = special.holder
        if special.power in blocked or ctx.area != special.territory or house not in ctx.houses:
            continue
        if special.rule == "substitute":  # S-1
            plan = ctx.plan_of(house)
            if plan is not None and plan.leader == special.replaces and lid in state.houses[house].leaders and \
                    (house, lid) not in state.captured and lid in available_leaders(state, house, ctx.area,
                                                                                     ctx.committed):
                found.append(SubstituteLeader(house, lid, special.power))
        elif special.rule == "shield_wall_blast":  # S-5
            if state.shield_wall_standing and _leads_for_own_house(state, ctx, special):
                found.append(BlastShieldWall(house, special.power))
    return found


def before_calls(state: GameState, ctx: BattleContext, asked: tuple[str, ...] = ()) -> GameState:
    """B7: each House with an S-1 or S-5 option (GAP-118, GAP-119), in battle order, decides; then the calls."""
    for house in ctx.houses:
        if house not in asked and any(getattr(option, "house", None) == house for option in _options(state, ctx)):
            return evolve(state, pending=pending("leader-special", house, battle=ctx,
                                                              asked=asked + (house,)))
    return _calls(state, ctx)


def _calls(state: GameState, ctx: BattleContext) -> GameState:
    from dunenb.rules.battle_phase import start_calls

    return start_calls(state, ctx)


def _decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    house = state.pending.actor
    return [Pass(house), *(option for option in _options(state, context_of(state))
                           if getattr(option, "house", None) == house)]


def _check(state: GameState, action: Action) -> IllegalActionError | None:
    if not isinstance(action, Pass) and action not in _decisions(state):
        return IllegalActionError("battle/leader-special", f"{action.notation()!r} is not possible in this battle "
                                  "now (leaders.md S-1, S-5); allowed: " + ", ".join(a.notation()
                                                                                     for a in _decisions(state)))
    return None


def _apply(state: GameState, action: Action) -> GameState:
    from dunenb.rules.atomics import blow_shield_wall

    assert state.pending is not None
    ctx = context_of(state)
    asked = tuple(state.pending.detail.get("asked", ()))
    if isinstance(action, SubstituteLeader):
        plans = tuple((house, evolve(plan, leader=action.leader) if house == action.house else plan)
                      for house, plan in ctx.plans)
        replaced = dict(ctx.plans)[action.house].leader
        ctx = evolve(ctx, plans=plans)
        state = with_events(state, event("leader-substituted", f"{action.house}: {action.leader} takes the place of "
                                         f"{replaced} ({action.power})", house=action.house, leader=action.leader,
                                         replaced=replaced, powers=(action.power,)))
    elif isinstance(action, BlastShieldWall):
        state = blow_shield_wall(state, action.house, power=action.power)  # CARD-ATOMICS-2 with no card, no outlaw
    return before_calls(state, ctx, asked)


def _pledge(state: GameState, house: str) -> Pledge:
    from dunenb.rules.battle_phase import plan_pledge

    return plan_pledge(state, house)  # GAP-57: the wheel's spice and cards stay promised at this step too


HANDLERS = {
    "leader-special": Handler(apply=_apply, decisions=_decisions, check=_check,
                              accepts=(SubstituteLeader, BlastShieldWall), pledged=_pledge),
}


# --- S-8: the ducal tax -------------------------------------------------------------------------------------------

def record_battle(state: GameState, led: tuple[tuple[str, str, str], ...]) -> GameState:
    """Record the (House, leader key, territory) of a battle just fought to its outcome (``battles_led``, for S-8);
    the entries of earlier turns are dropped."""
    kept = tuple(entry for entry in state.battles_led if entry[3] == state.turn)
    return evolve(state, battles_led=kept + tuple((h, key, area, state.turn) for h, key, area in led))


def _ducal(state: GameState, area: str, owner: str) -> Special | None:
    """S-8: the ``ducal_tax`` special that changes ``owner``'s tax for ``area`` now, if any."""
    for special in load_specials():
        house, lid = special.holder
        if special.rule != "ducal_tax" or special.territory != area or owner != house or special.tax is None:
            continue
        led = (house, lid, area, state.turn) in state.battles_led
        alive = lid in state.houses[house].leaders and (house, lid) not in state.captured
        if led and alive and special.power not in suppressed_powers(state):
            return special
    return None


def tax(state: GameState, area: str, owner: str, amount: int) -> tuple[int, tuple[str, ...]]:
    """S-8 (``ducal_tax``): the tax ``owner`` collects for ``area`` (TAX-1 gives ``amount``), and the powers that
    changed it."""
    special = _ducal(state, area, owner)
    if special is None or special.tax is None:
        return amount, ()
    return special.tax, (special.power,)


def tax_leaders(state: GameState, taxes: tuple[tuple[str, str | None], ...]) -> tuple[tuple[str, str], ...]:
    """S-8, leaders.md LC-11 c: the (House, id) of each leader whose ducal tax would apply now to one of ``taxes``
    ((area, owner) of the settlements taxed at step j), for the Karama window asked before the taxes (GAP-152)."""
    found = []
    for area, owner in taxes:
        special = None if owner is None else _ducal(state, area, owner)
        if special is not None and special.holder not in found:
            found.append(special.holder)
    return tuple(found)


# --- S-6: the Idaho-Ghola ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GholaReturn(Action):
    """leaders.md S-6: ``house`` pays for its dead ``leader``'s ghola (``power``): the disc leaves the game and the
    ghola joins the House (an any-time action, GAP-57)."""

    kind: ClassVar[str] = "ghola-return"
    house: str
    leader: str
    power: str


def ghola_returns(state: GameState, house: str, budget: int) -> list[GholaReturn]:
    """The S-6 returns ``house`` may pay for now with ``budget`` free spice."""
    from dunenb.powers.holders import is_in_play

    found = []
    blocked = suppressed_powers(state)
    for special in load_specials():
        if special.rule != "ghola_return" or special.payee is None:
            continue
        if not is_in_play(state, special.payee) or special.price > budget:
            continue
        for owner, lid, turn in state.leader_deaths:
            power = _own_entry(owner, lid, special)
            if owner == house and (owner, lid) in special.leaders and state.turn >= turn + special.turns and \
                    lid in state.houses[house].leader_tanks and power not in blocked:
                found.append(GholaReturn(house, lid, power))
    return found


def _own_entry(house: str, lid: str, special: Special) -> str:
    """The dead leader's own SPECIAL entry for ``special`` (A11-c for the Idaho-Ghola), else the special's."""
    from dunenb.rules.traitors import leader_of

    return next((power.id for power in leader_of(house, lid).powers if power.kind == "SPECIAL"
                 and power.effect is not None and getattr(power.effect, "args", ())[:1] == (special.id,)),
                special.power)


def apply_ghola_return(state: GameState, action: GholaReturn) -> GameState:
    """Pay the price to the payee; the dead disc leaves the game; the ghola joins the House's leaders."""
    special = next(s for s in load_specials() if s.rule == "ghola_return"
                   and _own_entry(action.house, action.leader, s) == action.power)
    assert special.payee is not None and special.ghola is not None
    house, payee = action.house, special.payee
    hs = state.houses[house]
    state = edit_house(state, house, spice=hs.spice - special.price,
                       leader_tanks=tuple(key for key in hs.leader_tanks if key != action.leader),
                       leaders=hs.leaders + (special.ghola,))
    state = edit_house(state, payee, spice=state.houses[payee].spice + special.price)
    state = evolve(state, leader_deaths=tuple(entry for entry in state.leader_deaths
                                                           if entry[:2] != (house, action.leader)))
    return with_events(state, event("ghola-return", f"{house} pays {special.price} spice to {payee}: {action.leader}'s "
                                    f"disc leaves the game and {special.ghola} joins {house} ({special.id}, "
                                    f"{action.power})", house=house, leader=action.leader, ghola=special.ghola,
                                    payee=payee, amount=special.price, powers=(action.power,)))


# --- S-2: the desert shelter --------------------------------------------------------------------------------------

def _sheltered(state: GameState, house: str, area: str) -> str | None:
    """S-2: the power that shelters ``house``'s tokens in ``area`` now, if any."""
    special = _shelter(state, house, area)
    return None if special is None else special.power


def shelter_holder(state: GameState, house: str, area: str) -> tuple[str, str] | None:
    """S-2, leaders.md LC-11 c: the (House, id) of the leader whose desert shelter would soften an event for
    ``house``'s tokens in ``area`` now (the Karama window asked before that worm or storm, GAP-152)."""
    if not state.battles_led:
        return None
    special = _shelter(state, house, area)
    return None if special is None else special.holder


def _shelter(state: GameState, house: str, area: str) -> Special | None:
    from dunenb.board import SHIELD_WALL
    from dunenb.rules.common import rules

    for special in load_specials():
        holder, lid = special.holder
        if special.rule != "desert_shelter" or house != holder or state.phase not in special.phases:
            continue
        kind = rules().board.area(area).kind
        desert = kind == "desert" or (area == SHIELD_WALL and not state.shield_wall_standing)  # LC-3, GAP-30
        if desert and (holder, lid, area, state.turn - 1) in state.battles_led and \
                special.power not in suppressed_powers(state):
            return special
    return None


def worm_spares(state: GameState, house: str, area: str) -> str | None:
    """S-2: the power that spares ``house``'s tokens in ``area`` from a worm now (their harvesters are not)."""
    return _sheltered(state, house, area) if state.battles_led else None


def storm_losses(state: GameState, house: str, area: str, lost: int, total: int, *,
                 double: bool) -> tuple[int, tuple[str, ...]]:
    """S-2: how many of ``total`` tokens of ``house`` in ``area`` a storm destroys (``lost`` without S-2)."""
    if double or not state.battles_led:
        return lost, ()
    power = _sheltered(state, house, area)
    if power is None:
        return lost, ()
    return min(lost, -(-total // 2)), (power,)


# --- S-4: Burseg's strength after an explosion he withstood -------------------------------------------------------

def after_shelter(state: GameState, sheltered: tuple[str, str, str] | None) -> GameState:
    """S-4 (``explosion_shelter``): after the battle in which the explosion spared ``sheltered`` (House, leader
    id, power), his base strength drops by the special's ``strength_loss`` for the rest of the game, not below 0
    (``GameState.strength_lost``; GAP-133)."""
    if sheltered is None:
        return state
    power = sheltered[2]
    special = next(s for s in load_specials() if s.power == power)
    from dunenb.rules.traitors import leader_of

    owner, key = special.holder  # the roster copy, wherever he serves
    base = leader_of(owner, key).strength
    before = sum(n for h, leader, n in state.strength_lost if (h, leader) == (owner, key))
    lost = min(special.strength_loss, base - before)
    if lost <= 0:
        return state
    kept = tuple(entry for entry in state.strength_lost if entry[:2] != (owner, key))
    state = evolve(state, strength_lost=kept + ((owner, key, before + lost),))
    return with_events(state, event("leader-weakened", f"{key} ({owner}) loses {lost} point(s) of strength for the "
                                    f"rest of the game: now {base - before - lost} ({special.id}, {power})",
                                    house=owner, leader=key, lost=lost, strength=base - before - lost,
                                    powers=(power,)))


def as_weakened(state: GameState, leader: Leader) -> Leader:
    """``leader`` with the base strength S-4 took from him for good (``GameState.strength_lost``), if any."""
    if not state.strength_lost or leader.house is None:
        return leader
    lost = sum(n for h, lid, n in state.strength_lost if (h, lid) == (leader.house, leader.id))
    return evolve(leader, strength=max(0, leader.strength - lost)) if lost else leader


# --- S-9: Lingar opens a battle at the Pole ----------------------------------------------------------------------

POLE_BATTLE = "pole-battle"


@dataclass(frozen=True)
class OpenPoleBattle(Action):
    """leaders.md S-9: ``house`` opens a battle against ``opponent`` in ``territory`` (the Pôle Nord), led by the
    power's leader (``power``); ``Pass`` lets the battle phase go on."""

    kind: ClassVar[str] = "pole-battle"
    house: str
    opponent: str
    territory: str
    power: str


def _houses_at(state: GameState, area: str) -> tuple[str, ...]:
    """The Houses with tokens in ``area`` that may fight there (not eliminated, not at peace: BATTLE-1)."""
    return tuple(dict.fromkeys(house for (house, a, _sector), tokens in state.forces.items()
                               if a == area and not tokens.is_empty() and house not in state.eliminated
                               and (house, area) not in state.at_peace))


def pole_openings(state: GameState, committed: tuple = ()) -> list[OpenPoleBattle]:
    """S-9 (``pole_battle``): the battles the power's House may open now in ``territory`` (BATTLE-1's exception):
    its leader alive among its own leaders, not captured, free to lead there this turn (BATTLE-15: not committed
    in another territory; ``committed`` the battles led so far), no Karama against the power (LC-11), its House
    and the opponent with tokens there (GAP-135)."""
    from dunenb.rules.battle_phase import available_leaders

    found: list[OpenPoleBattle] = []
    blocked = suppressed_powers(state)
    for special in load_specials():
        house, lid = special.holder
        area = special.territory
        if special.rule != "pole_battle" or area is None or special.power in blocked or house not in state.houses:
            continue
        present = _houses_at(state, area)
        if house not in present or lid not in available_leaders(state, house, area, committed, pole=False):
            continue
        found.extend(OpenPoleBattle(house, other, area, special.power) for other in present if other != house)
    return found


def pole_leaders(house: str, area: str, leaders: tuple[str, ...]) -> tuple[str, ...]:
    """S-9: in the S-9 territory (where only such a battle is fought) the power's House is led by its leader."""
    for special in load_specials():
        if special.rule == "pole_battle" and special.territory == area and special.holder[0] == house:
            return tuple(lid for lid in leaders if lid == special.holder[1])
    return leaders


def offer_pole_battle(state: GameState, committed: tuple, last: tuple) -> GameState | None:
    """GAP-135: before each battle the engine picks (the first included) and before the phase ends, the S-9
    House is asked whether it opens a battle at the Pole (a pass first), when it can; ``None`` when it cannot."""
    options = pole_openings(state, committed)
    if not options:
        return None
    ctx = BattleContext(committed=committed, last=last)
    return evolve(state, pending=pending(POLE_BATTLE, options[0].house, battle=ctx))


def _pole_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    house = state.pending.actor
    ctx = context_of(state)
    return [Pass(house), *(o for o in pole_openings(state, ctx.committed) if o.house == house)]


def _check_pole(state: GameState, action: Action) -> IllegalActionError | None:
    if not isinstance(action, Pass) and action not in _pole_decisions(state):
        return IllegalActionError("battle/pole-battle", f"{action.notation()!r} is not possible now (leaders.md "
                                  "S-9); allowed: " + ", ".join(a.notation() for a in _pole_decisions(state)))
    return None


def _apply_pole(state: GameState, action: Action) -> GameState:
    from dunenb.rules import battle_phase
    from dunenb.rules.common import rules

    ctx = context_of(state)
    state = evolve(state, pending=None)
    if not isinstance(action, OpenPoleBattle):
        return battle_phase.next_battle(state, committed=ctx.committed, last=ctx.last, pole_asked=True)
    state = with_events(state, event("pole-battle", f"{action.house} opens a battle at the Pôle Nord against "
                                     f"{action.opponent} ({action.power}, leaders.md S-9)", house=action.house,
                                     opponent=action.opponent, powers=(action.power,)))
    order = battle_phase.storm_order(state)
    houses = tuple(h for h in order if h in (action.house, action.opponent))
    arena = battle_phase.Arena(action.territory, tuple(rules().board.area(action.territory).sectors), houses)
    return battle_phase.start_battle(state, arena, action.house, action.opponent, committed=ctx.committed,
                                     last=ctx.last)


HANDLERS[POLE_BATTLE] = Handler(apply=_apply_pole, decisions=_pole_decisions, check=_check_pole,
                                accepts=(OpenPoleBattle,), always=(Pass,))
