"""The whole dungeon of a run from its generation stream (RUN-7): every floor's map, where the
book and the king lie (RUN-2), then each floor's loot, vault, features and chests."""

from ..compiled.jit import njit
from ..core.rng import randint
from ..rules.chests import stock_chests
from ..rules.loot import stock_floor
from ..rules.vaults import stock_vault
from .features import place_features
from .floors import generate_floor


@njit(cache=True)
def generate_dungeon(s, p, e, g):
    """Generate env e's floors 1..depth with the generation stream `g` (one uint64): the maps
    first, then the book's and the king's rooms, then what each floor holds. The order of the
    draws is the dungeon: a seed gives the same one in any slot."""
    depth = s.floor_visited.shape[1] - 1
    for f in range(1, depth + 1):
        generate_floor(s, p, e, f, g)
    s.book_floor[e] = (depth + 1) // 2  # RUN-2: ceil(D / 2)
    s.book_room[e] = randint(g, 0, s.num_rooms[e, s.book_floor[e]])
    s.king_room[e] = randint(g, 0, s.num_rooms[e, depth])
    for f in range(1, depth + 1):
        stock_floor(s, p, e, f, g)
        stock_vault(s, p, e, f, g)
        place_features(s, p, e, f, g)
        stock_chests(s, p, e, f, g)
