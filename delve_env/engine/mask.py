"""The exact legal-action mask: an unmasked action is legal, a legal one is never masked."""

import numpy as np
from numba import njit

from .actions import (
    A_ATTACK,
    A_EQUIP,
    A_GIVE,
    A_HINT,
    A_LEAVE,
    A_LOOT,
    A_LUCK,
    A_MOVE,
    A_PUSH,
    A_RING,
    A_RUN,
    A_SEARCH,
    A_STAIRS,
    A_SWAP,
    A_WAIT,
    A_WORK,
)
from .fights import is_foe_alive
from .loot import has_loot
from .moving import can_step, is_stair_open
from .params import P_TASK, TASK_EXPLORE, TASK_VAULT
from .party import free_pack_slot, is_standing, wear_slot
from .state import DIRTY_ALL, DIRTY_PACK
from .tables import (
    EXPLORE,
    FIGHT,
    MAX_FOES,
    MAX_MEMBERS,
    NUM_EQUIP,
    PACK_SLOTS,
    PLATE,
    STAIR_DOWN,
    STAIR_UP,
    WALL,
)
from .vaults import hint_price, is_locked_vault, num_symbols, plate_size


@njit(cache=True)
def mask_ground(s, p, e, mask):
    """The explore actions that depend on where the party stands: moves, wait, search, stairs,
    loot, working a vault lock; and the marching order's swaps. Writes every one of them.

    The explore sub-task trains finding the way down: its stair up is closed and the marching
    order is fixed (docs/RULES.md)."""
    explore_task = p[P_TASK] == TASK_EXPLORE
    f = s.floor[e]
    if f > 0:
        for d in range(4):
            mask[A_MOVE + d] = can_step(s, e, d)
        mask[A_WAIT] = True
        mask[A_SEARCH] = True
        tile = s.tiles[e, f, s.y[e], s.x[e]]
        r = s.room_of[e, f, s.y[e], s.x[e]]
        up = tile == STAIR_UP and not explore_task
        mask[A_STAIRS] = (tile == STAIR_DOWN or up) and is_stair_open(s, e)
        mask[A_LOOT] = r >= 0 and has_loot(s, e, f, r)
        vault = r >= 0 and is_locked_vault(s, e, f, r)  # VAULT-1: any standing member
        for m in range(MAX_MEMBERS):
            mask[A_WORK + m] = vault and is_standing(s, e, m)
    else:  # COURT-1: the courtyard's choices are its stair (and the order, the packs)
        for a in range(A_MOVE, A_LOOT + 1):
            mask[a] = a == A_STAIRS
        mask[A_WORK : A_WORK + MAX_MEMBERS] = False
    for pos in range(MAX_MEMBERS - 1):
        mask[A_SWAP + pos] = s.order[e, pos] >= 0 and s.order[e, pos + 1] >= 0 and not explore_task


@njit(cache=True)
def mask_items(s, p, e, mask):
    """PARTY-4 outside fights: any pack item to any other standing member with room for it;
    wearing what can be worn. Depends only on the packs and who stands (DIRTY_PACK). The
    explore sub-task's packs stay as they are (docs/RULES.md)."""
    mask[A_GIVE:A_WORK] = False
    if p[P_TASK] == TASK_EXPLORE:
        return
    takes = np.zeros(MAX_MEMBERS, dtype=np.bool_)
    for b in range(MAX_MEMBERS):
        takes[b] = is_standing(s, e, b) and free_pack_slot(s, e, b) >= 0
    for a in range(MAX_MEMBERS):
        if not s.in_party[e, a]:
            continue
        for slot in range(PACK_SLOTS):
            kind = s.item[e, a, NUM_EQUIP + slot]
            if kind == 0:
                continue
            mask[A_EQUIP + a * PACK_SLOTS + slot] = is_standing(s, e, a) and wear_slot(kind) >= 0
            for b in range(MAX_MEMBERS):
                mask[A_GIVE + (a * PACK_SLOTS + slot) * MAX_MEMBERS + b] = b != a and takes[b]


@njit(cache=True)
def mask_fight(s, e, mask):
    m = int(s.order[e, s.actor[e]])  # widened: it is added to an action index below
    for k in range(MAX_FOES):
        alive = is_foe_alive(s, e, k)
        mask[A_ATTACK + k] = alive
        mask[A_LUCK + k] = alive and s.luck[e, m] > 0
    mask[A_RUN] = True
    # PARTY-4: in a fight only a fallen member's things change hands, on the actor's turn
    if free_pack_slot(s, e, m) < 0:
        return
    for a in range(MAX_MEMBERS):
        if s.in_party[e, a] and s.hp[e, a] <= 0:
            for slot in range(PACK_SLOTS):
                if s.item[e, a, NUM_EQUIP + slot] > 0:
                    mask[A_GIVE + (a * PACK_SLOTS + slot) * MAX_MEMBERS + m] = True


@njit(cache=True)
def mask_lock(s, p, e, mask):
    """WALL-1: any symbol for the next ring. PLATE-1: any cell; a hint when none is shown and
    it can be paid. Leaving is always allowed, except in the vault sub-task."""
    f = s.floor[e]
    if s.mode[e] == WALL:
        for k in range(num_symbols(f)):
            mask[A_RING + k] = True
    else:
        n = plate_size(f)
        for i in range(n * n):
            mask[A_PUSH + i] = True
        mask[A_HINT] = s.plate_hint[e, f] < 0 and s.gold[e] >= hint_price(s, e)
    mask[A_LEAVE] = p[P_TASK] != TASK_VAULT


@njit(cache=True)
def legal_mask(s, p, e, mask, full):
    """Write env e's legal actions into the bool row `mask`.

    Exploring on, only the actions that depend on where the party stands are rewritten unless
    the packs changed (DIRTY_PACK); `full` (and any change of screen) recomputes the whole row.
    Once the run is over only 'wait' stays unmasked, so a mask is never empty (maskable
    policies sample from it); stepping an ended env is refused by the Gymnasium layer.
    """
    dirty = DIRTY_ALL if full else s.dirty[e]
    if s.outcome[e] == 0 and s.mode[e] == EXPLORE and dirty != DIRTY_ALL:
        mask_ground(s, p, e, mask)
        if dirty & DIRTY_PACK:
            mask_items(s, p, e, mask)
        return
    mask[:] = False
    if s.outcome[e] != 0:
        mask[A_WAIT] = True
    elif s.mode[e] == EXPLORE:
        mask_ground(s, p, e, mask)
        mask_items(s, p, e, mask)
    elif s.mode[e] == FIGHT:
        mask_fight(s, e, mask)
    elif s.mode[e] == WALL or s.mode[e] == PLATE:
        mask_lock(s, p, e, mask)
