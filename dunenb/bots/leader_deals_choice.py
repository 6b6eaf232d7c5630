"""The heuristic bot's choices for the secondary leaders' pre-battle powers and battle avoidance (leaders.md
K-16, K-18, K-19: :mod:`dunenb.rules.leader_pre_battle`, :mod:`dunenb.rules.leader_deals`). Design, kept simple:

* **K-16 uses**: spice and tokens are worth taking, information a little, a card swap nothing; each use binds the
  House to that leader, so it costs the strength given up against the strongest leader it could lead with.
* **lock_spice**: announce no spice (the bot keeps its spice when its wheel is bound); **estimate**: name the
  highest number allowed (its strongest plans stay open).
* **K-19 buy-off, K-18 proposals**: the bot never pays to avoid a battle and makes no offers (as in the alliance
  windows, GAP-19); it accepts every K-18 proposal made to it (a gift, and the battle is void); in D-29's
  exchange it gives its weakest leader.

Every score is read from the House's own view.
"""

from __future__ import annotations

from dunenb.actions import Action
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import available_leaders
from dunenb.rules.leader_deals import AnswerAlliance, GiveLeader
from dunenb.rules.leader_pre_battle import AnnounceSpice, NameEstimate, UsePreBattle, action_of
from dunenb.rules.traitors import leader_of
from dunenb.state import GameState
from dunenb.state_memo import per_state

KINDS = ("leader-pre-battle", "lock-spice", "leader-estimate", "leader-buy-off", "leader-alliance",
         "leader-alliance-answer", "give-leader")
#: Value of each K-16 action before the cost of binding the leader (design).
ACTION_VALUE = {"gain_spice": 1.0, "reinforce": 1.0, "fill_hand": 1.0, "see_card": 0.2, "lock_spice": 0.2,
                "see_leader": 0.3, "traitor_draw": 1.0, "estimate": 0.3, "sense_karama": 0.1, "see_storm": 0.1,
                "buy_card": -0.5, "swap_card": -1.0}
#: Cost of binding the leader, per point of strength below the strongest available leader (design).
BINDING_COST = 0.3


def score(state: GameState, house: str, action: Action) -> float:
    """The bot's score of a decision at one of :data:`KINDS` (a pass scores 0)."""
    if isinstance(action, UsePreBattle):
        return ACTION_VALUE.get(action_of(action.power), 0.0) - BINDING_COST * _given_up(state, house, action.leader)
    if isinstance(action, AnnounceSpice):
        return -0.1 * action.spice
    if isinstance(action, NameEstimate):
        return float(action.value)  # the highest estimate leaves its strongest plans open
    if isinstance(action, AnswerAlliance):
        return 1.0 if action.accept else 0.0
    if isinstance(action, GiveLeader):  # D-29: give the weakest
        return -float(leader_of(house, action.leader).strength)
    return -1.0 if action.kind != "pass" else 0.0


def _given_up(state: GameState, house: str, leader: str) -> int:
    """Strength given up by leading with ``leader`` instead of the strongest leader available here."""
    return _strongest(state, house) - leader_of(house, leader).strength


@per_state  # issue 14 item 4: every K-16 use of one menu shares it
def _strongest(state: GameState, house: str) -> int:
    """The strength of the strongest leader ``house`` has available in the battle under way."""
    ctx = context_of(state)
    return max((leader_of(house, lid).strength for lid in available_leaders(state, house, ctx.area, ctx.committed)),
               default=0)
