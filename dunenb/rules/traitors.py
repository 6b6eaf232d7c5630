"""Setup c) and d): the Bene Gesserit prediction (BG-P6) and the traitor draw (TRAITOR-1 to TRAITOR-4).

* **Prediction** (SETUP-1 c, BG-P6): if the Bene Gesserit play, they secretly name one **other** House in play
  and a turn number >= 1 (a decision). It is kept in ``HouseState.prediction`` and hidden from the other Houses
  by :func:`dunenb.engine.view`. Whether it comes true is judged with victory (not here).
* **Traitor draw** (SETUP-1 d, TRAITOR-1 to TRAITOR-3): the leaders in play are laid face down, main leaders
  left out (TRAITOR-1, G-7). "In play" means the ids in each House's ``HouseState.leaders``: the game starts with only
  the copies allocated to it (leaders.md X-1 to X-3, :func:`dunenb.battle.characters.leaders_in_game`, called
  by :func:`dunenb.engine.initial_state`), so a copy out of the game is never drawn. Each House draws, in table order,
  players - 1 leaders, the Harkonnen twice that (TRAITOR-2, TRAITOR-3). **Each card drawn is a chance node**:
  one outcome per leader still face down, each with probability 1 / (leaders left).
* The Harkonnen keep every leader they drew as a traitor, except their own and those who can never be their
  traitor, who are merely safe (TRAITOR-3, HARKONNEN-P1; no redraw). Every other House then **picks one**
  (a decision, in table order) among the leaders it drew that may be its traitor (TRAITOR-4, TRAITOR-5: its
  own leader is allowed, "not subtle"; leaders.md K-21 ``never_traitor`` / ``never_traitor_of`` are excluded).
  A House with no such candidate keeps no traitor (design): it is asked all the same, with only the pass
  (GAP-62), and the reason is a secret event. The leaders drawn stay secret: they live in the
  pending detail under ``secrets`` (one entry per drawing House), which the view hides from the others, and the
  events of a draw name no leader.

>>> from dunenb.engine import new_game, apply_action, legal_actions, sample_chance
>>> state = new_game(["atreides", "harkonnen"], seed=2)
>>> while state.pending.kind in ("roll", "start", "traitor-draw"):
...     state = apply_action(state, sample_chance(state) if state.pending.actor == "chance"
...                          else legal_actions(state)[0])
>>> len(state.houses["harkonnen"].traitors) <= 2, state.pending.kind, state.pending.actor
(True, 'traitor-pick', 'atreides')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar

from dunenb.actions import Action, Pass, menu_maker
from dunenb.battle import alias
from dunenb.battle.roster import Leader, load_roster
from dunenb.battle.traitors import can_be_traitor_of, traitor_draw_count
from dunenb.errors import IllegalActionError
from dunenb.powers import holder, holds_power, is_in_play
from dunenb.rules import flow
from dunenb.rules.common import Handler, edit_house, event, node, pending, with_events
from dunenb.shares import chance_share
from dunenb.state import GameState, evolve

#: The menu of predicted turns when the table sets no turn limit (any turn >= 1 is accepted; design).
DEFAULT_PREDICTION_TURNS = 10


# --- actions ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Predict(Action):
    """BG-P6: the Bene Gesserit secretly predict that ``winner`` wins at the end of ``turn``."""

    kind: ClassVar[str] = "predict"
    house: str
    winner: str
    turn: int


@dataclass(frozen=True)
class DrawTraitor(Action):
    """TRAITOR-1: ``house`` draws the face-down leader ``leader`` of House ``leader_house`` (chance)."""

    kind: ClassVar[str] = "traitor-draw"
    is_chance: ClassVar[bool] = True
    house: str
    leader_house: str
    leader: str


@dataclass(frozen=True)
class PickTraitor(Action):
    """TRAITOR-4: ``house`` keeps one of the leaders it drew as its traitor (written on a secret slip)."""

    kind: ClassVar[str] = "traitor-pick"
    house: str
    leader_house: str
    leader: str


# --- helpers ---------------------------------------------------------------------------------------------

LEADER_KEY_SEPARATOR = ":"  # GAP-19 (dunenb design): "owner:id" keys a leader held by another House


@lru_cache(maxsize=4096)
def leader_ref(holder: str, key: str) -> tuple[str, str]:
    """The (owner House, roster id) of the leader that ``holder`` keeps under ``key``.

    A House's own leaders are keyed by their roster id; a leader received in an alliance deal (ALLIANCE-11) is
    keyed ``"owner:id"`` so that the roster entry, the traitor slips (which name the person, ``(owner, id)``)
    and the bounty stay those of the original House.

    >>> leader_ref("atreides", "duncan-idaho"), leader_ref("fremen", "atreides:duncan-idaho")
    (('atreides', 'duncan-idaho'), ('atreides', 'duncan-idaho'))

    issue 14 item 4: memoized (some 12,000 calls a game, of a few hundred pairs): the pair depends only on the two
    strings, and a tuple of strings cannot be changed by whoever receives it.
    """
    owner, sep, leader_id = key.partition(LEADER_KEY_SEPARATOR)
    return (owner, leader_id) if sep else (holder, key)


def leader_key(holder: str, owner: str, leader_id: str) -> str:
    """The key under which ``holder`` keeps ``owner``'s leader ``leader_id`` (the bare id when it is its own).

    >>> leader_key("fremen", "atreides", "duncan-idaho"), leader_key("atreides", "atreides", "duncan-idaho")
    ('atreides:duncan-idaho', 'duncan-idaho')
    """
    return leader_id if holder == owner else f"{owner}{LEADER_KEY_SEPARATOR}{leader_id}"


@lru_cache(maxsize=4096)
def leader_of(house: str, leader_id: str) -> Leader:
    """The roster entry of a leader that ``house`` holds: its own id, or an ``"owner:id"`` key (GAP-19); a
    composite key ``"alma+x"`` (leaders.md S-3, GAP-141) is "Alma as X", :func:`dunenb.battle.alias.composite`.

    issue 14 item 4: memoized (a bot game asks it some 19,000 times per game of a few hundred (House, key)
    pairs): the answer depends only on the two strings and the shipped roster (itself loaded once), and a
    :class:`Leader` is frozen, so the entry kept is the entry the lookup would give. A key that is not found
    raises as before (an error is never kept)."""
    if alias.is_alias(leader_id):
        first, second = alias.members(leader_id)
        return alias.composite(leader_of(house, first), leader_of(house, second))
    return _roster_index()[leader_ref(house, leader_id)]


def holder_of(state: GameState, owner: str, leader_id: str) -> tuple[str, str] | None:
    """The (holding House, key) of ``owner``'s living leader ``leader_id``, or ``None`` if nobody holds him."""
    for house, hs in state.houses.items():
        key = leader_key(house, owner, leader_id)
        if key in hs.leaders:
            return house, key
    return None


@lru_cache(maxsize=1)
def _roster_index() -> dict[tuple[str, str], Leader]:
    return {(leader.house, leader.id): leader for leader in load_roster().leaders if leader.house}


def active_houses(state: GameState) -> tuple[str, ...]:
    """The Houses in play that are not eliminated (VICTORY-2, GAP-47), in table order."""
    return tuple(h for h in state.config.houses if is_in_play(state, h))


def traitor_pool(state: GameState) -> tuple[tuple[str, str], ...]:
    """TRAITOR-1, G-7: every leader in play, main leaders left out, as (house, leader id)."""
    return _traitor_pool(tuple((house, state.houses[house].leaders) for house in active_houses(state)))


@lru_cache(maxsize=256)
def _traitor_pool(holdings: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[tuple[str, str], ...]:
    """:func:`traitor_pool` from the leaders each active House holds, in table order (issue 14 item 4: cached, the
    draw of every slip lists and checks it; the roster facts it reads are fixed)."""
    pool = []
    for house, leaders in holdings:
        for leader_id in leaders:
            if not leader_of(house, leader_id).main:
                pool.append(leader_ref(house, leader_id))
    return tuple(pool)


def _drawn(secrets: tuple) -> tuple[tuple[str, str, str], ...]:
    """The draws so far as (drawer, leader house, leader id), from the pending secrets. In a House view
    (:func:`dunenb.engine.view`, TRAITOR-4) the other Houses' draws read ``"hidden"`` and are left out, so a House
    deciding from its view (a bot giving the learner a hint) sees its own draws."""
    return tuple((drawer, *drawn) for drawer, drawn in secrets if drawn != "hidden")


def drawn_by(state: GameState, house: str, secrets: tuple | None = None) -> tuple[tuple[str, str], ...]:
    """The leaders ``house`` drew (from ``secrets``, by default those of the pending traitor step)."""
    if secrets is None:
        assert state.pending is not None
        secrets = state.pending.detail["secrets"]
    return tuple((lh, lid) for drawer, lh, lid in _drawn(secrets) if drawer == house)


def _draw_schedule(state: GameState) -> tuple[str, ...]:
    """Who draws, one entry per card, in table order (TRAITOR-2, TRAITOR-3)."""
    houses = active_houses(state)
    schedule: list[str] = []
    for house in houses:
        schedule += [house] * traitor_draw_count(len(houses), house=house)
    return tuple(schedule)


def pickable(state: GameState, house: str, secrets: tuple | None = None) -> tuple[tuple[str, str], ...]:
    """TRAITOR-4, TRAITOR-5, K-21: the drawn leaders ``house`` may pick (its own allowed; never-traitors not)."""
    allowed = []
    for lh, lid in drawn_by(state, house, secrets):
        leader = leader_of(lh, lid)
        if leader.never_traitor or house in leader.never_traitor_of:
            continue
        allowed.append((lh, lid))
    return tuple(allowed)


# --- the prediction --------------------------------------------------------------------------------------

def begin_prediction(state: GameState) -> GameState:
    """SETUP-1 c): the Bene Gesserit prediction (BG-P6); nothing if they do not play."""
    seer = holder(state, "BG-P6")  # data/powers.json
    if seer is None:
        return flow.after_setup_step(state, "prediction")
    return evolve(state, phase="setup", pending=pending("prediction", seer))


def _prediction_turns(state: GameState) -> range:
    return range(1, (state.config.turn_limit or DEFAULT_PREDICTION_TURNS) + 1)


def _prediction_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    seer = state.pending.actor
    others = [h for h in active_houses(state) if h != seer]
    return [Predict(seer, h, t) for h in others for t in _prediction_turns(state)]


def check_prediction(state: GameState, action: Predict) -> IllegalActionError | None:
    """BG-P6: one other House in play and a turn >= 1."""
    others = [h for h in active_houses(state) if h != action.house]
    if action.winner not in others:
        return IllegalActionError("prediction/house", f"winner {action.winner!r}: the Bene Gesserit must name "
                                  f"another House in play; allowed: {', '.join(others)}")
    if action.turn < 1:
        return IllegalActionError("prediction/turn", f"turn {action.turn}: the predicted turn must be 1 or more")
    return None


def _apply_prediction(state: GameState, action: Predict) -> GameState:
    state = edit_house(state, action.house, prediction=(action.winner, action.turn))
    state = with_events(state, event("prediction", "The Bene Gesserit write their secret prediction (BG-P6)",
                                     house=action.house, secret=True, powers=("BG-P6",)))
    return flow.after_setup_step(state, "prediction")


# --- the traitor draw ------------------------------------------------------------------------------------

def begin_draw(state: GameState) -> GameState:
    """SETUP-1 d): traitors are drawn (TRAITOR-1 to TRAITOR-3), one chance node per card."""
    state = evolve(state, phase="setup")
    return _next_draw(state, secrets=())


def _next_draw(state: GameState, secrets: tuple) -> GameState:
    schedule = _draw_schedule(state)
    if len(secrets) < len(schedule):
        return evolve(state, pending=pending("traitor-draw", "chance", house=schedule[len(secrets)],
                                                          secrets=secrets))
    state = _harkonnen_keep_all(state, secrets)
    return _next_pick(state, secrets, index=0)


#: issue 14: the menu's traitor draws built once each (dunenb.actions.menu_maker)
_menu_draw = menu_maker(DrawTraitor)


def _draw_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    assert state.pending is not None
    drawer = state.pending.detail["house"]
    taken = {(lh, lid) for _d, lh, lid in _drawn(state.pending.detail["secrets"])}
    left = [key for key in traitor_pool(state) if key not in taken]
    share = chance_share(1, len(left))
    return [(_menu_draw(drawer, lh, lid), share) for lh, lid in left]


def _is_draw(state: GameState, action: Action) -> bool:
    """TRAITOR-1: the House to draw turns a leader of the pool not drawn yet (the rule of :func:`_draw_outcomes`)."""
    if type(action) is not DrawTraitor or action.house != node(state).detail["house"]:
        return False
    key = (action.leader_house, action.leader)
    taken = {(lh, lid) for _d, lh, lid in _drawn(node(state).detail["secrets"])}
    return key not in taken and key in traitor_pool(state)


def _apply_draw(state: GameState, action: DrawTraitor) -> GameState:
    assert state.pending is not None
    secrets = state.pending.detail["secrets"] + ((action.house, (action.leader_house, action.leader)),)
    state = with_events(state, event("traitor-drawn", f"{action.house} draws a face-down leader (TRAITOR-1)",
                                     house=action.house, secret=True))
    return _next_draw(state, secrets)


def _harkonnen_keep_all(state: GameState, secrets: tuple) -> GameState:
    """TRAITOR-3, HARKONNEN-P1: every leader drawn is a traitor, except their own and the never-traitors."""
    keeper = holder(state, "HARKONNEN-P1")  # data/powers.json
    if keeper is None:
        return state
    kept = tuple((lh, lid) for lh, lid in drawn_by(state, keeper, secrets)
                 if can_be_traitor_of(leader_of(lh, lid), keeper))
    state = edit_house(state, keeper, traitors=state.houses[keeper].traitors + kept)
    return with_events(state, event(
        "traitors-kept", f"The Harkonnen keep all {len(kept)} leader(s) they drew that can be their traitors "
        "(TRAITOR-3)", house=keeper, count=len(kept), secret=True))


def _pickers(state: GameState) -> tuple[str, ...]:
    return tuple(h for h in active_houses(state) if not holds_power(state, h, "HARKONNEN-P1"))


def _next_pick(state: GameState, secrets: tuple, *, index: int) -> GameState:
    """TRAITOR-4, GAP-62: every House but the Harkonnen is asked in table order, even one that drew no leader it may
    pick (K-21): its menu is then just the pass, so that being asked, or the event, tells nothing of its draw."""
    pickers = _pickers(state)
    if index < len(pickers):
        return evolve(state, pending=pending("traitor-pick", pickers[index], secrets=secrets,
                                                          index=index))
    state = with_events(state, event("traitors-done", "Every House holds its secret traitor slip(s) (TRAITOR-4)"))
    return flow.after_setup_step(state, "traitors")


def _pick_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    house = state.pending.actor
    return [PickTraitor(house, lh, lid) for lh, lid in pickable(state, house)] or [Pass(house)]


def _apply_pick(state: GameState, action: PickTraitor | Pass) -> GameState:
    assert state.pending is not None
    if isinstance(action, PickTraitor):
        hs = state.houses[action.house]
        state = edit_house(state, action.house, traitors=hs.traitors + ((action.leader_house, action.leader),))
        state = with_events(state, event("traitor-picked", f"{action.house} writes one traitor on a secret slip "
                                         "(TRAITOR-4)", house=action.house, secret=True))
    else:  # GAP-62: no leader it drew may be its traitor (K-21); the reason stays its own
        state = with_events(state, event("no-traitor", f"{action.house} drew no leader that may be its traitor "
                                         "(TRAITOR-4, K-21): no slip", house=action.house, secret=True))
    assert state.pending is not None
    detail = state.pending.detail
    return _next_pick(state, detail["secrets"], index=detail["index"] + 1)


HANDLERS = {
    "prediction": Handler(apply=_apply_prediction, decisions=_prediction_decisions, check=check_prediction),
    "traitor-draw": Handler(apply=_apply_draw, outcomes=_draw_outcomes, is_outcome=_is_draw),
    "traitor-pick": Handler(apply=_apply_pick, decisions=_pick_decisions),
}
