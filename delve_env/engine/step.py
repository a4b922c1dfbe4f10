"""The batched engine: reset and step N envs in one compiled call.

`step_batch` is a loop over envs; each env's step is an ordered list of mechanics.
"""

import numpy as np

from .compiled.jit import njit
from .compiled.struct import clear_slot
from .core.actions import (
    A_ATTACK,
    A_AUTOFIGHT,
    A_EXPLORE,
    A_MOVE,
    A_SEARCH,
    A_WAIT,
    ARG,
    F_ATTACK,
    F_BATHE,
    F_BID,
    F_BRIBE,
    F_BUY,
    F_CANCEL,
    F_CAST,
    F_CHOOSE,
    F_GIVE,
    F_HINT,
    F_LEAVE,
    F_LISTEN,
    F_LOOT,
    F_LUCK,
    F_MEND,
    F_MOVE,
    F_OPEN,
    F_POWER,
    F_PUSH,
    F_REPAIR,
    F_RING,
    F_RUN,
    F_SEARCH,
    F_SELECT,
    F_SELL,
    F_SHOP,
    F_SNEAK,
    F_STAIRS,
    F_STATUE,
    F_SWAP,
    F_TRAIN,
    F_USE,
    F_WAIT,
    F_WEAR,
    F_WORK,
    FAMILY,
    HOLD,
)
from .core.params import (
    P_FIGHT_LOG,
    P_FREE_ACTIONS,
    P_MAX_STEPS,
    P_PURSE_FACTOR,
    P_REWARD_SHAPED,
    P_START_RATIONS,
    P_TASK,
    P_TRAVEL_PACES,
    TASK_GAME,
)
from .core.rng import GEN, PLAY, next_u64, seed_state
from .core.state import DIRTY_ALL, DIRTY_STATUS, ONLY_SPOTS
from .core.tables import CHOICE, EXPLORE, FIGHT, NUM_ITEM_SLOTS, ROOM, STATUE, STORE
from .generation.dungeon import generate_dungeon
from .outputs.mask import legal_mask
from .outputs.observe import observe, update_room_code
from .outputs.rewards import FREE_ACTION_REWARD, step_reward
from .rules.autofight import stops_fighting
from .rules.baths import bathe
from .rules.bribes import ask_bribe
from .rules.chests import open_chest
from .rules.classes import choose, pending_member
from .rules.court import start_practice
from .rules.doors import door_direction, listen
from .rules.fights import end_turn, member_attack, run_away, weakest_foe
from .rules.food import pass_pace
from .rules.items import act_on_selected, let_go, select_item
from .rules.keeper import keep
from .rules.loot import loot_room
from .rules.moving import arrive, search_walls, step_party, take_stairs
from .rules.party import add_member, swap_positions
from .rules.powers import aim_power, choose_power, start_casting, stop_casting
from .rules.quest import update_quest
from .rules.rooms import enter_room
from .rules.statues import approach_statue, bid, mend
from .rules.stores import buy, enter_store, repair_selected, sell_selected
from .rules.tasks import setup_task, task_potential, update_task
from .rules.travel import (
    EXPLORE_TO,
    KEPT,
    NO_WAY,
    NUM_TRAVELS,
    REST,
    SEARCH_HERE,
    UNREACHED,
    downhill,
    goal_paces,
    known_ways,
    search_first_steps,
    spot_paces,
    stair_paces,
    stops_here,
)
from .rules.vaults import buy_hint, push_plate, set_ring, start_work
from .rules.wander import maybe_wander

START_PURSE = 5  # START-1: seed 003's 5 crowns a member
# Explore searches once from every goal (travel.goal_paces, a search of the whole known floor;
# with no goal in reach, from every search spot: travel.spot_paces) after this many paces in a
# row saw nothing new: then it is crossing known ground, and the search serves every pace until
# something new is seen (3 measured best of 1, 3 and 6).
CALM_PACES = 3


@njit(cache=True, inline="always")
def reset_slot(s, p, e, seed, party):
    """A new run in slot e: the whole dungeon from `seed` (RUN-7), the party in the courtyard."""
    clear_slot(s, e)
    g = np.empty(1, dtype=np.uint64)
    g[0] = seed_state(seed, GEN)
    s.rng[e] = seed_state(seed, PLAY)
    s.room_code[e] = 1 + ROOM  # rooms show as plain room until entered (MAP-4)
    s.order[e, :] = -1
    s.cls[e, :] = -1
    s.foe_kind[e, :] = -1
    s.fight_room[e] = -1
    s.actor[e] = -1
    s.sneaker[e] = -1
    s.ally_kind[e] = -1
    s.sel_member[e] = s.sel_slot[e] = -1
    s.caster[e] = s.sel_power[e] = -1
    s.holy_sword[e] = -1
    s.options[e, :, :] = -1
    s.linger_kind[e] = -1  # RUN-AWAY-1: no band left in a hall yet
    s.log_n[e] = 0 if p[P_FIGHT_LOG] > 0 else -1  # the fight log (fightlog.py)
    generate_dungeon(s, p, e, g)
    for m in range(len(party)):
        add_member(s, e, m, party[m], s.rng)
    s.gold[e] = START_PURSE * int(p[P_PURSE_FACTOR]) * len(party)
    s.rations[e] = int(p[P_START_RATIONS])
    arrive(s, e, 0, 0, 0)
    if p[P_TASK] != TASK_GAME:
        setup_task(s, p, e, g)
    s.events[e] = 0
    await_choice(s, e)
    if p[P_TASK] == TASK_GAME:  # SIX-1: Sixpence keeps the whole game's courtyard
        keep(s, e, 0, True)
    known_ways(s, e)


@njit(cache=True)
def await_choice(s, e):
    """CHOICE-1: a member owes a level option: the game waits in mode CHOICE until it is
    taken, then goes back to the screen it left."""
    if s.outcome[e] == 0 and s.mode[e] != CHOICE and pending_member(s, e) >= 0:
        s.choice_from[e] = s.mode[e]
        s.mode[e] = CHOICE


@njit(cache=True, inline="always")
def act(s, p, e, a, rng):
    """Carry out one legal action, then the mechanics that follow from it: one branch per
    action family (actions.FAMILIES), its mechanic given the action's argument k."""
    fam, k = FAMILY[a], ARG[a]
    if s.sel_power[e] >= 0 and (fam == F_ATTACK or fam == F_USE):  # the chosen power's target
        if aim_power(s, p, e, k, rng):
            end_turn(s, p, e, rng)
    elif s.caster[e] >= 0 and fam == F_CANCEL:
        stop_casting(s, e)
    elif fam == F_MOVE:  # walk a tile: the pace, then the room or the hall
        r = step_party(s, e, k)
        pass_pace(s, p, e, rng)
        if r >= 0:
            enter_room(s, p, e, r, -1, rng)
        else:
            maybe_wander(s, p, e, False, rng)
    elif fam == F_WAIT:
        pass_pace(s, p, e, rng)
        maybe_wander(s, p, e, False, rng)
    elif fam == F_SEARCH:
        search_walls(s, p, e, rng)
        pass_pace(s, p, e, rng)
        maybe_wander(s, p, e, True, rng)
    elif fam == F_STAIRS:
        take_stairs(s, e)
    elif fam == F_LOOT:
        loot_room(s, p, e, rng)
    elif fam == F_SWAP:
        swap_positions(s, e, k)
    elif fam == F_ATTACK or fam == F_LUCK:  # attack foe k, with a luck die (LUCK-2)
        member_attack(s, p, e, k, fam == F_LUCK, 1, rng)
        end_turn(s, p, e, rng)
    elif fam == F_RUN:
        run_away(s, e, rng)
    elif fam == F_SELECT:  # PARTY-4, ITEM-1: hold an item for the next action
        m, slot = divmod(k, NUM_ITEM_SLOTS)
        select_item(s, e, m, slot)
    elif fam == F_GIVE or fam == F_USE or fam == F_WEAR:  # give it to b, use it on b, wear it
        if fam == F_GIVE:
            turn = act_on_selected(s, p, e, 0, k, rng)
        elif fam == F_USE:
            turn = act_on_selected(s, p, e, 1, k, rng)
        else:
            turn = act_on_selected(s, p, e, 2, -1, rng)
        if turn:  # in a fight it was the acting member's turn
            end_turn(s, p, e, rng)
    elif fam == F_CANCEL:
        let_go(s, e)
    elif fam == F_WORK:
        start_work(s, e, k)
    elif fam == F_RING:
        set_ring(s, p, e, k, rng)
    elif fam == F_PUSH:
        push_plate(s, e, k, rng)
    elif fam == F_HINT:
        buy_hint(s, e)
    elif fam == F_LEAVE:
        s.mode[e] = EXPLORE  # leave the lock (what was learned stays), the store or the statue
    elif fam == F_OPEN:
        open_chest(s, p, e, k, rng)
    elif fam == F_BATHE:
        bathe(s, p, e, k, rng)
    elif fam == F_TRAIN:
        start_practice(s, p, e, rng)
    elif fam == F_SHOP:
        enter_store(s, e)
    elif fam == F_BUY:
        buy(s, p, e, k)
    elif fam == F_SELL:
        sell_selected(s, p, e)
    elif fam == F_REPAIR:
        repair_selected(s, p, e)
    elif fam == F_STATUE:
        approach_statue(s, e)
    elif fam == F_BID:
        bid(s, p, e, k, rng)
    elif fam == F_MEND:
        mend(s, p, e, k)
    elif fam == F_BRIBE:
        ask_bribe(s, p, e, rng)
    elif fam == F_LISTEN:
        listen(s, p, e, rng)
    elif fam == F_SNEAK:  # one member sneaks in, then the party steps through the door (SNEAK-1)
        r = step_party(s, e, door_direction(s, e))
        pass_pace(s, p, e, rng)
        enter_room(s, p, e, r, k, rng)
    elif fam == F_CAST:
        start_casting(s, e, k)
    elif fam == F_POWER:
        if choose_power(s, p, e, k, rng):
            end_turn(s, p, e, rng)
    elif fam == F_CHOOSE:
        choose(s, p, e, k, rng)
        if pending_member(s, e) < 0:
            s.mode[e] = s.choice_from[e]
    # (travel and autofight are many of the actions above: step_slot takes them apart)


@njit(cache=True, inline="always")
def only_holds_or_swaps(a):
    """Whether action a only holds or lets go an item or a caster (PARTY-4, SPELL-1) or swaps
    two marching places (PARTY-2): no time passes and nothing else changes."""
    fam = FAMILY[a]
    return fam == F_SELECT or fam == F_CANCEL or fam == F_CAST or fam == F_SWAP


@njit(cache=True, inline="always")
def only_moves_items(s, e, a):
    """Whether action a, exploring, gives the held item to a member, wears it or takes it
    off (PARTY-4) while Sixpence owes no gift: items change places, no time passes, and of
    all the per-action bookkeeping reads (the shaped potential, the level choice, the quest,
    what Sixpence watches, the room's code) only the packs' room changes, which only an owed
    gift waits for (SIX-1, `keeper.deliver`)."""
    moves = FAMILY[a] == F_GIVE or FAMILY[a] == F_WEAR
    return moves and s.mode[e] == EXPLORE and s.keeper_seen[e] & ~s.keeper_given[e] == 0


@njit(cache=True)
def one_action(s, p, e, a, rng):
    """Carry out one legal action and what follows from it: the level choice it may owe, the
    quest or the sub-task, Sixpence. Returns its reward (the shaped potential's change in)."""
    s.events[e] = 0
    s.log_n[e] = 0 if p[P_FIGHT_LOG] > 0 else -1  # this action's fight log (fightlog.py)
    s.keeper_new[e] = 0
    game = p[P_TASK] == TASK_GAME
    if game and only_holds_or_swaps(a):
        # nothing the bookkeeping below reads changes, and it found all there was to find
        # after the last action or the reset (a sub-task's start may be over before its first
        # action: the task checks it then)
        act(s, p, e, a, rng)
        return 0.0
    s.dirty[e] |= DIRTY_STATUS
    if game and only_moves_items(s, e, a):  # (the bookkeeping would find nothing)
        act(s, p, e, a, rng)
        return step_reward(s, p, e)
    mode, outcome, seen = s.mode[e], s.outcome[e], s.keeper_seen[e]
    potential = task_potential(s, p, e)
    act(s, p, e, a, rng)
    await_choice(s, e)
    if game:
        update_quest(s, e)
        keep(s, e, seen, False)
    else:
        update_task(s, p, e)
    shaping = task_potential(s, p, e) - potential
    if s.mode[e] != mode or s.outcome[e] != outcome:  # another screen: write it all
        s.dirty[e] = DIRTY_ALL
    update_room_code(s, e)
    s.achieved[e] |= s.events[e]
    return step_reward(s, p, e) + shaping


@njit(cache=True)
def travel(s, p, e, kind, rng):
    """Explore, travel to a stair or rest (travel.py): the same single moves or waits, one
    pace each, until the walk stops or the pace cap. Returns the summed reward. Any event
    stops the walk, so the step's events are its last pace's."""
    reward = 0.0
    ways = np.empty(NUM_TRAVELS, dtype=np.int64)
    dist = np.empty(s.tiles.shape[2:], dtype=np.int64)
    first = np.full(dist.size, UNREACHED, dtype=np.int8)  # first_steps' work, for every pace
    queue = np.empty(dist.size, dtype=np.int32)
    seen = -1  # the tiles seen when `dist` was searched for a stair: new tiles may shorten it
    goals = False  # explore: `dist` holds travel.goal_paces (or spot_paces) of the map as it is
    calm = 0  # paces in a row that saw nothing new
    for _ in range(int(p[P_TRAVEL_PACES])):
        if kind == REST:
            a = A_WAIT
        elif kind == EXPLORE_TO:
            d = downhill(s, e, dist) if goals else NO_WAY
            if d == NO_WAY:  # no field, or the party stands on a goal of it or off it
                # what it learned (no goal; no spot in a hall) holds until the map changes
                known = s.ways_known[e]
                s.ways_known[e] |= search_first_steps(s, e, ways, kind, known, first, queue)
                d = ways[kind]
                if d == NO_WAY:
                    break
            a = A_SEARCH if d == SEARCH_HERE else A_MOVE + d
        else:
            if s.stat_tiles[e] != seen:
                stair_paces(s, e, kind, dist)
                seen = s.stat_tiles[e]
            d = downhill(s, e, dist)
            if d == NO_WAY:
                break
            a = A_MOVE + d
        room = s.room_of[e, s.floor[e], s.y[e], s.x[e]]
        s.ways_known[e] |= KEPT  # cleared by whatever changes the known map
        reward += one_action(s, p, e, a, rng)
        if stops_here(s, e, kind, room):
            break
        if s.ways_known[e] & KEPT == 0:
            goals, calm = False, 0
        else:
            calm += 1
            if kind == EXPLORE_TO and not goals and calm >= CALM_PACES:
                spots = s.ways_known[e] & ONLY_SPOTS != 0  # (no goal in reach, as searched)
                if not spots:
                    goal_paces(s, e, dist)
                if spots or dist[s.y[e], s.x[e]] < 0:  # no goal in reach: explore walks to search
                    spot_paces(s, e, dist)
                goals = True
    s.ways_known[e] &= 0xFF ^ KEPT  # (the byte's other bits, kept)
    return reward


@njit(cache=True)
def autofight(s, p, e, rng):
    """Attack the weakest foe (autofight.py), turn after turn: the same single attacks, one
    member's turn each, until there is cause to stop or the cap (`travel_paces` turns).
    Returns the summed reward; the step's events are its last turn's."""
    reward = 0.0
    for _ in range(int(p[P_TRAVEL_PACES])):
        reward += one_action(s, p, e, A_ATTACK + weakest_foe(s, e), rng)
        if stops_fighting(s, e):
            break
    return reward


@njit(cache=True)
def count_free(s, p, e, mode, passed):
    """No free stall: actions on the explore, store and statue screens that pass no pace, and
    actions in a fight that pass no turn, are counted; time passing (`passed`) starts the count
    again. At the limit exploring offers only what passes time or takes the stairs, a fight
    only what ends the turn (mask.py), a store or a statue only leaving. Returns whether this
    action was counted (shaped rewards charge it, rewards.FREE_ACTION_REWARD)."""
    before = s.free_streak[e]
    counted = False
    if passed:
        s.free_streak[e] = 0
    elif mode == EXPLORE or mode == STORE or mode == STATUE or mode == FIGHT:
        s.free_streak[e] = min(before + 1, 30000)
        counted = True
    limit = p[P_FREE_ACTIONS]
    if (before >= limit) != (s.free_streak[e] >= limit):
        s.dirty[e] = DIRTY_ALL
    return counted


@njit(cache=True, inline="always")
def step_slot(s, p, e, a, mask, rng):
    """One env step: returns (reward, terminated, truncated, invalid)."""
    invalid = not mask[a]
    if invalid:  # a refused action changes nothing, Sixpence's last words included
        s.events[e] = 0
        s.log_n[e] = 0 if p[P_FIGHT_LOG] > 0 else -1
        reward = step_reward(s, p, e)
    else:
        mode, pace, actor, rnd = s.mode[e], s.pace[e], s.actor[e], s.fight_round[e]
        if a == A_AUTOFIGHT:
            reward = autofight(s, p, e, rng)
        elif a >= A_EXPLORE:
            reward = travel(s, p, e, a - A_EXPLORE, rng)
        else:
            reward = one_action(s, p, e, a, rng)
        turn = s.mode[e] != mode or s.actor[e] != actor or s.fight_round[e] != rnd
        passed = s.pace[e] != pace or (mode == FIGHT and turn)
        if count_free(s, p, e, mode, passed) and p[P_REWARD_SHAPED] > 0:
            reward += FREE_ACTION_REWARD
    s.steps[e] += 1
    known_ways(s, e)  # fresh at every step's end, however many paces the step took
    terminated = s.outcome[e] != 0
    truncated = not terminated and s.steps[e] >= p[P_MAX_STEPS]
    return reward, terminated, truncated, invalid


@njit(cache=True, nogil=True)
def step_batch(s, io, lo, hi):
    """Step envs lo..hi-1, each with its action in `io.actions` (io: struct.IO, batch.Engine's
    buffers); an env flagged in `io.needs_reset` starts a new run instead (its next seed drawn
    from its own RNG, so a slot's games never depend on the others). `io.paces`: the paces
    each step took (a travel step takes many). An env whose action is HOLD (-1) is left
    exactly as it stands, its outputs unwritten (a finished game nobody reads: policy.play_out)."""
    p, party, actions, needs_reset = io.params, io.party, io.actions, io.needs_reset
    for e in range(lo, hi):
        if actions[e] == HOLD and not needs_reset[e]:
            continue
        if needs_reset[e]:
            next_run(s, p, e, party)
            io.rewards[e], io.paces[e] = 0.0, 0
            io.terminated[e] = io.truncated[e] = io.invalid[e] = False
        else:
            pace = s.pace[e]
            r, te, tr, inv = step_slot(s, p, e, actions[e], io.masks[e], s.rng)
            io.rewards[e], io.terminated[e], io.truncated[e], io.invalid[e] = r, te, tr, inv
            io.paces[e] = s.pace[e] - pace
        write_outputs(s, p, e, io.obs[e], io.masks[e], io.kept_rows[e], io.kept, needs_reset[e])


@njit(cache=True, inline="always")
def write_outputs(s, p, e, record, mask, kept_row, kept, full):
    """Env e's observation and mask: what its last step changed, or everything (`full`).
    `kept_row` and `kept[e]`: the explore row a selection replaced (`mask.legal_mask`)."""
    observe(s, p, e, record, full)
    legal_mask(s, p, e, mask, full, kept_row, kept)
    s.dirty[e] = 0


@njit(cache=True, inline="always")
def next_run(s, p, e, party):
    """Start slot e's next run from a seed drawn from its own RNG (autoreset)."""
    reset_slot(s, p, e, next_u64(s.rng, e), party)


@njit(cache=True, nogil=True)
def reset_batch(s, io, seeds, which, lo, hi):
    """Reset the envs lo..hi-1 flagged in `which` with their seeds, and write their outputs.

    An empty `seeds` draws each flagged env's seed from its own RNG, as autoreset does.
    """
    p = io.params
    for e in range(lo, hi):
        if which[e]:
            if len(seeds) == 0:
                next_run(s, p, e, io.party)
            else:
                reset_slot(s, p, e, seeds[e], io.party)
            write_outputs(s, p, e, io.obs[e], io.masks[e], io.kept_rows[e], io.kept, True)


@njit(cache=True, nogil=True)
def refresh_batch(s, io, which, lo, hi):
    """Recompute from scratch the observation and mask of the envs lo..hi-1 flagged in
    `which` (after a state load, or to check the incremental path)."""
    for e in range(lo, hi):
        if which[e]:
            write_outputs(s, io.params, e, io.obs[e], io.masks[e], io.kept_rows[e], io.kept, True)
