"""Paying a band off (BRIBE-1..3): its chance and price, asking (again after a refusal), what a
paid band gives."""

from ..compiled.jit import njit
from ..core.params import P_BRIBE_REVEAL, P_BRIBE_STONE
from ..core.rng import chance
from ..core.state import DIRTY_PACK, DIRTY_PARTY
from ..core.tables import EV_BRIBE, M_BRIBE, M_PRICE, MAX_FOES, MONSTERS, SUMMONING_STONE
from ..outputs.fightlog import LOG_BRIBE, log_event
from .fights import end_fight_for_room, is_foe_alive, monster_round, num_foes_alive, win_fight
from .loot import take_item
from .moving import reveal_floor, reveal_room
from .party import first_standing_position, is_standing

GOODWILL_POINTS = 25  # BRIBE-3
MOST_CHANCE = 95  # BRIBE-3: goodwill never makes a band certain
PRICE_PER_FACTOR = 5  # gold per price factor per floor, per living monster


@njit(cache=True)
def bribe_chance(s, e):
    """BRIBE-1: the band takes a bribe with the lowest chance of its living kinds (every kind
    must agree), in percent; a goodwill scroll adds 25 points, never to certainty (BRIBE-3)."""
    lowest = 100
    for k in range(MAX_FOES):
        if is_foe_alive(s, e, k):
            lowest = min(lowest, int(MONSTERS[s.foe_kind[e, k], M_BRIBE]))
    if s.goodwill[e]:
        lowest = min(MOST_CHANCE, lowest + GOODWILL_POINTS)
    return lowest


@njit(cache=True)
def bribe_price(s, e):
    """BRIBE-1: 5 gold x floor per price factor of each living monster."""
    total = 0
    for k in range(MAX_FOES):
        if is_foe_alive(s, e, k):
            total += int(MONSTERS[s.foe_kind[e, k], M_PRICE])
    return PRICE_PER_FACTOR * int(s.floor[e]) * total


@njit(cache=True)
def can_bribe(s, e):
    """With the gold to pay, not in a practice bout nor while one member sneaks in alone; a
    refused band may be asked again (each refusal costs a free round)."""
    return not s.practice[e] and s.sneaker[e] < 0 and s.gold[e] >= bribe_price(s, e)


@njit(cache=True)
def take_bribe(s, p, e, rng):
    """A paid band: the fight ends with no XP, the room and all it holds are the party's; it
    may reveal the floor's rooms and hand over a summoning stone (BRIBE-2), under goodwill the
    whole floor and always a stone (BRIBE-3)."""
    f = s.floor[e]
    s.gold[e] -= bribe_price(s, e)
    s.stat_bribes[e] += 1
    s.events[e] |= EV_BRIBE
    s.foe_kind[e, :] = -1
    end_fight_for_room(s, p, e, rng)
    if s.goodwill[e]:
        reveal_floor(s, e, f)
    elif chance(rng, e, p[P_BRIBE_REVEAL]):
        for r in range(s.num_rooms[e, f]):
            reveal_room(s, e, f, r)
    if s.goodwill[e] or chance(rng, e, p[P_BRIBE_STONE]):
        take_item(s, e, SUMMONING_STONE)  # to the first free pack slot, if any
    s.goodwill[e] = False
    s.dirty[e] |= DIRTY_PARTY | DIRTY_PACK


@njit(cache=True)
def ask_bribe(s, p, e, rng):
    """BRIBE-1: each ask is the band's chance again; taken, it is paid, else the band takes a
    free round and the fight goes on (the asking takes no member's turn)."""
    s.bribe_asked[e] = True
    odds, price = bribe_chance(s, e), bribe_price(s, e)
    taken = chance(rng, e, odds / 100.0)
    log_event(s, e, LOG_BRIBE, odds, price, 1 if taken else 0, 0, 0)
    if taken:
        take_bribe(s, p, e, rng)
        return
    monster_round(s, p, e, rng)
    if num_foes_alive(s, e) == 0:  # counter-blows can finish a band
        win_fight(s, p, e, rng)
        return
    if not is_standing(s, e, s.order[e, s.actor[e]]):
        nxt = first_standing_position(s, e, s.actor[e] + 1)
        s.actor[e] = nxt if nxt >= 0 else first_standing_position(s, e, 0)
    s.dirty[e] |= DIRTY_PARTY
