"""Wandering bands (WANDER-1..3): after a pace in a hall, or a search anywhere."""

from ..compiled.jit import njit
from ..core.params import (
    P_HALL_WANDER,
    P_HALL_WANDER_HUNT,
    P_JUNCTION_WANDER,
    P_JUNCTION_WANDER_HUNT,
)
from ..core.rng import chance
from ..core.tables import DOOR, EV_WANDER
from ..generation.floors import is_hall, is_junction
from .effects import FOUL_CAP, ward_factor
from .fights import meet_lingering_band, start_fight
from .monsters import roll_band


@njit(cache=True)
def wander_chance(s, p, e, searching):
    """The chance per pace that a band appears where the party stands: WANDER-1's table,
    halved by the warding lantern, doubled by the foul one (capped, WANDER-2)."""
    base = table_chance(s, p, e, searching)
    factor = ward_factor(s, e)
    if factor > 1.0:
        return min(FOUL_CAP, factor * base)
    return factor * base


@njit(cache=True)
def table_chance(s, p, e, searching):
    """WANDER-1's table: the chance per pace where the party stands, before any lantern."""
    hunting = s.hunting[e]
    junction = p[P_JUNCTION_WANDER_HUNT] if hunting else p[P_JUNCTION_WANDER]
    if searching:
        return junction if hunting else 2 * junction
    tiles = s.tiles[e, s.floor[e]]
    x, y = s.x[e], s.y[e]
    if tiles[y, x] == DOOR:  # a doorway is an other hall tile: never safe (seed 000)
        return p[P_HALL_WANDER_HUNT] if hunting else p[P_HALL_WANDER]
    if not is_hall(tiles[y, x]):
        return 0.0
    if is_junction(tiles, x, y):
        return junction
    return p[P_HALL_WANDER_HUNT] if hunting else p[P_HALL_WANDER]


@njit(cache=True)
def maybe_wander(s, p, e, searching, rng):
    """Roll for a wandering band from the floor's table; one that appears starts a fight. On
    the tile of a band the party fled from, that band fights again instead (RUN-AWAY-1)."""
    if meet_lingering_band(s, p, e, rng):
        return
    if chance(rng, e, wander_chance(s, p, e, searching)):
        roll_band(p, s.floor[e], 0, rng, e, s.foe_kind[e], s.foe_hp[e])
        s.events[e] |= EV_WANDER
        start_fight(s, p, e, -1, rng)
