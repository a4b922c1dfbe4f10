"""Vaults: the tumbler wall and the lock plate (VAULT-1, WALL-1, PLATE-1, TIME-2).

Each test names the rule it checks. Scenes are built two ways: the `Delve-Vault-v0` sub-task
(`DelveEnv(task="vault", ...)`, the party already at the lock), and the full game with
`vaults.place_vault` called on the room where the party is put.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from agents.vault_agent import VaultOracleAgent, plate_solutions
from agents.vault_oracles import apply_push, is_plate_solvable, play_wall, solve_plate
from delve_env import DelveEnv
from delve_env.engine.core.actions import (
    A_HINT,
    A_LEAVE,
    A_LOOT,
    A_MOVE,
    A_PUSH,
    A_RING,
    A_WAIT,
    A_WORK,
    NUM_ACTIONS,
)
from delve_env.engine.core.rng import GEN, seed_state
from delve_env.engine.core.tables import (
    EV_VAULT_OPEN,
    EV_VAULT_WOUND,
    EXPLORE,
    I_PRICE,
    ITEMS,
    MAX_PLATE,
    MAX_SYMBOLS,
    PLATE,
    PLATE_LOCK,
    ROGUE,
    ROOM_ITEMS,
    WALL,
    WALL_LOCK,
)
from delve_env.engine.rules.vaults import make_plate, make_wall, place_vault

ONE = np.ones(1, dtype=np.bool_)
FLOORS = range(1, 13)
FACTORS = {"easy": Fraction(1), "normal": Fraction(3, 2), "hard": Fraction(2)}
TOUGH = 30000


# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------


def symbols(f: int) -> int:
    return 4 + f


def plate_n(f: int) -> int:
    return 3 + (f - 1) // 3


def tier(f: int) -> int:
    """PLATE-1's floor tier: 1 for floors 1-3 ... 4 for floors 10-12."""
    return 1 + (f - 1) // 3


def half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


def toughen(env: DelveEnv) -> None:
    """Every member gets a huge HP pool, so statistics runs never kill anyone."""
    s = env.engine.state
    for m in range(s.hp.shape[1]):
        if s.in_party[0, m]:
            s.hp[0, m] = s.ceiling[0, m] = TOUGH


def refresh(env: DelveEnv) -> np.ndarray:
    env.engine.refresh(ONE)
    return env.engine.masks[0]


def legal(env: DelveEnv) -> np.ndarray:
    return np.flatnonzero(env.engine.masks[0])


def act(env: DelveEnv, a: int):
    """Step a legal action (a masked one is a test failure, not a silent no-op)."""
    assert env.engine.masks[0, a], f"action {env.action_name(a)} is masked"
    return env.step(a)


def leave_and_step_back(env: DelveEnv, f: int, r: int) -> None:
    """Leave the lock, walk one tile out of the room's corner and back in (room r of f)."""
    s = env.engine.state
    act(env, A_LEAVE)
    moves = [d for d in range(4) if env.engine.masks[0, A_MOVE + d]]
    act(env, A_MOVE + moves[0])
    act(env, A_MOVE + (moves[0] + 2) % 4)
    assert s.room_of[0, f, s.y[0], s.x[0]] == r


def task(lock: str, f: int, seed: int = 0, tough: bool = True, **config) -> DelveEnv:
    """The Delve-Vault-v0 sub-task on floor f, reset with `seed` (no step cap in practice)."""
    config.setdefault("max_steps", 100_000)
    env = DelveEnv(task="vault", lock=lock, floor=f, **config)
    env.reset(seed=seed)
    if tough:
        toughen(env)
        refresh(env)
    return env


def enter_guess(env: DelveEnv, guess) -> tuple:
    """Set the rings not yet set (a Rogue's preset first ring is skipped)."""
    s, f = env.engine.state, int(env.engine.state.floor[0])
    out = None
    for ring in range(int(s.wall_num_set[0, f]), 3):
        out = act(env, A_RING + int(guess[ring]))
    return out


def guess_with_wrong(combo, wrong: int, S: int) -> list[int]:
    """A guess with exactly `wrong` rings wrong (the last rings)."""
    guess = [int(v) for v in combo]
    for ring in range(3 - wrong, 3):
        guess[ring] = (guess[ring] + 1) % S
    return guess


def game_scene(lock: int, seed: int = 0, f: int = 1, **config) -> tuple[DelveEnv, int]:
    """A full game (depth 2) with room r of floor f made a vault with `lock`, guards gone, and
    the party standing in it, exploring."""
    config.setdefault("depth", max(2, f))
    env = DelveEnv(**config)
    env.reset(seed=seed)
    s = env.engine.state
    r = next(
        r
        for r in range(int(s.num_rooms[0, f]))
        if not s.room_map[0, f, r] and not (f == s.book_floor[0] and r == s.book_room[0])
    )
    g = np.array([seed_state(seed + 1000, GEN)], dtype=np.uint64)
    place_vault(env.engine.state, env.engine.params, 0, f, r, lock, g)
    s.band_kind[0, f, r] = -1
    s.band_hp[0, f, r] = 0
    s.floor[0], s.x[0], s.y[0] = f, s.room_rect[0, f, r, 0], s.room_rect[0, f, r, 1]
    s.floor_visited[0, f] = True
    s.mode[0] = EXPLORE
    refresh(env)
    return env, r


def member_of(env: DelveEnv, cls: int) -> int:
    return int(np.flatnonzero(env.engine.state.cls[0] == cls)[0])


def ring_actions(mask: np.ndarray) -> list[int]:
    return [a - A_RING for a in np.flatnonzero(mask) if A_RING <= a < A_RING + MAX_SYMBOLS]


def push_actions(mask: np.ndarray) -> list[int]:
    return [a - A_PUSH for a in np.flatnonzero(mask) if A_PUSH <= a < A_PUSH + MAX_PLATE**2]


def play_agent(env: DelveEnv, agent: VaultOracleAgent, limit: int = 400) -> tuple[int, dict]:
    """Let the oracle agent play the sub-task to its end; returns (lock actions, stats)."""
    n = 0
    for n in range(1, limit + 1):
        _, _, term, trunc, info = act(env, agent.act(env))
        if term or trunc:
            return n, info["episode_stats"]
    raise AssertionError("the agent did not finish the vault")


# ---------------------------------------------------------------------------------------
# VAULT-1: the sub-task, the full game's locked loot, workers, leaving
# ---------------------------------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize("lock", ["wall", "plate"])
def test_vault1_subtask_starts_at_the_lock(lock):
    for f in (1, 5, 12):
        env = task(lock, f, seed=f, tough=False)
        s = env.engine.state
        r = int(s.vault_room[0, f])
        assert s.floor[0] == f and s.room_of[0, f, s.y[0], s.x[0]] == r
        assert (s.band_kind[0, f, r] < 0).all()
        assert s.vault_lock[0, f] == (WALL_LOCK if lock == "wall" else PLATE_LOCK)
        assert not s.vault_open[0, f]
        assert s.mode[0] == (WALL if lock == "wall" else PLATE)
        assert s.worker[0] == s.order[0, 0]
        assert s.gold[0] == 100 * f
        assert not env.engine.masks[0, A_LEAVE]  # the sub-task masks leaving


def test_vault1_right_guess_opens_and_unlocks_loot_in_the_game():
    env, r = game_scene(WALL_LOCK, seed=3)
    s, f = env.engine.state, 1
    mask = refresh(env)
    assert s.room_gold[0, f, r] > 0
    assert not mask[A_LOOT], "a locked vault keeps its loot"
    hero = member_of(env, 0)
    assert mask[A_WORK + hero]
    act(env, A_WORK + hero)
    assert s.mode[0] == WALL and s.worker[0] == hero
    _, _, term, _, info = enter_guess(env, s.wall_combo[0, f])
    assert s.vault_open[0, f] and s.mode[0] == EXPLORE and not term
    assert info["events"] & EV_VAULT_OPEN
    assert s.stat_vaults[0] == 1
    mask = env.engine.masks[0]
    assert mask[A_LOOT]
    assert not mask[A_WORK : A_WORK + 5].any(), "an open vault has no lock to work"
    gold, room_gold = int(s.gold[0]), int(s.room_gold[0, f, r])
    act(env, A_LOOT)
    assert s.gold[0] == gold + room_gold


def test_vault1_plate_solution_opens_and_unlocks_loot_in_the_game():
    env, r = game_scene(PLATE_LOCK, seed=4)
    s, f = env.engine.state, 1
    assert not refresh(env)[A_LOOT]
    act(env, A_WORK + member_of(env, 0))
    assert s.mode[0] == PLATE
    n = plate_n(f)
    for cell in np.flatnonzero(solve_plate(s.plate_lit[0, f, :n, :n])):
        act(env, A_PUSH + int(cell))
    assert s.vault_open[0, f] and s.mode[0] == EXPLORE
    assert env.engine.masks[0, A_LOOT]


def test_vault1_right_guess_ends_the_subtask_with_a_win():
    for f in (1, 7, 12):
        env = task("wall", f, seed=f)
        s = env.engine.state
        _, _, term, trunc, info = enter_guess(env, s.wall_combo[0, f])
        assert term and not trunc
        assert info["episode_stats"]["won"]
        assert s.vault_open[0, f] and s.stat_vaults[0] == 1


def test_vault1_episode_stats_report_vaults_opened():
    """ENV.md: episode_stats carries 'vaults opened' (the engine counts it in stat_vaults)."""
    env = task("wall", 2, seed=0)
    _, _, term, _, info = enter_guess(env, env.engine.state.wall_combo[0, 2])
    assert term and env.engine.state.stat_vaults[0] == 1
    assert info["episode_stats"]["vaults_opened"] == 1


def test_vault1_any_standing_member_may_work_and_only_in_a_locked_vault():
    env, r = game_scene(WALL_LOCK, seed=5)
    s, f = env.engine.state, 1
    mask = refresh(env)
    members = [m for m in range(5) if s.in_party[0, m]]
    assert [m for m in range(5) if mask[A_WORK + m]] == members
    s.hp[0, members[1]] = 0
    mask = refresh(env)
    assert not mask[A_WORK + members[1]], "a fallen member cannot work the lock"
    assert mask[A_WORK + members[0]]
    # outside the vault room there is no lock to work
    other = next(q for q in range(int(s.num_rooms[0, f])) if q != r)
    s.x[0], s.y[0] = s.room_rect[0, f, other, 0], s.room_rect[0, f, other, 1]
    assert not refresh(env)[A_WORK : A_WORK + 5].any()


@pytest.mark.parametrize("lock", [WALL_LOCK, PLATE_LOCK])
def test_vault1_lock_never_shuts_the_party_out(lock):
    env, _ = game_scene(lock, seed=6)
    s = env.engine.state
    act(env, A_WORK + int(s.order[0, 0]))
    assert s.mode[0] in (WALL, PLATE)
    assert env.engine.masks[0, A_LEAVE], "leaving the lock is always legal in the game"
    if lock == WALL_LOCK:
        act(env, A_RING + 0)
        assert env.engine.masks[0, A_LEAVE], "even in the middle of a guess"
    act(env, A_LEAVE)
    assert s.mode[0] == EXPLORE
    mask = env.engine.masks[0]
    assert mask[A_MOVE : A_MOVE + 4].any() and mask[A_WAIT]


def test_vault1_leaving_and_coming_back_keeps_the_wall_learned():
    env, r = game_scene(WALL_LOCK, seed=7, f=2)
    s, f = env.engine.state, 2
    toughen(env)
    hero = member_of(env, 0)
    act(env, A_WORK + hero)
    S, combo = symbols(f), s.wall_combo[0, f].copy()
    enter_guess(env, guess_with_wrong(combo, 3, S))
    enter_guess(env, guess_with_wrong(combo, 1, S))
    act(env, A_RING + int(combo[0]))  # one ring of a third guess
    history = s.wall_history[0, f].copy()
    assert s.wall_guesses[0, f] == 2 and s.wall_num_set[0, f] == 1
    leave_and_step_back(env, f, r)
    act(env, A_WORK + hero)
    assert s.mode[0] == WALL
    assert (s.wall_history[0, f] == history).all()
    assert s.wall_guesses[0, f] == 2 and s.wall_num_set[0, f] == 1
    assert s.wall_set[0, f, 0] == combo[0]
    enter_guess(env, combo)
    assert s.vault_open[0, f]


def test_vault1_leaving_and_coming_back_keeps_the_plate_learned():
    env, _ = game_scene(PLATE_LOCK, seed=8, f=4)
    s, f = env.engine.state, 4
    toughen(env)
    hero = member_of(env, 0)
    act(env, A_WORK + hero)
    n = plate_n(f)
    plan = np.flatnonzero(solve_plate(s.plate_lit[0, f, :n, :n]))
    assert plan.size >= 2
    act(env, A_PUSH + int(plan[0]))
    lit, pushed = s.plate_lit[0, f].copy(), s.plate_pushed[0, f].copy()
    act(env, A_LEAVE)
    act(env, A_WAIT)
    act(env, A_WORK + hero)
    assert s.mode[0] == PLATE
    assert (s.plate_lit[0, f] == lit).all() and (s.plate_pushed[0, f] == pushed).all()
    hp = int(s.hp[0, hero])
    act(env, A_PUSH + int(plan[0]))  # still remembered as pushed: a take-back
    assert s.hp[0, hero] < hp


@pytest.mark.parametrize("lock", [WALL_LOCK, PLATE_LOCK])
def test_vault1_a_worker_who_falls_ends_the_work(lock):
    """In the game the party is back to exploring (others may work on); in the sub-task the
    episode ends lost."""
    env, _ = game_scene(lock, seed=9, f=3)
    s, f = env.engine.state, 3
    hero = member_of(env, 0)
    act(env, A_WORK + hero)
    s.luck[0, hero] = 0
    s.hp[0, hero] = 1
    snap = env.save_state()
    for trial in range(200):
        env.load_state(snap)
        s.rng[0] = seed_state(trial, 1)
        if lock == WALL_LOCK:
            enter_guess(env, guess_with_wrong(s.wall_combo[0, f], 3, symbols(f)))
        else:
            cell = next(c for c in range(plate_n(f) ** 2) if not _opens(s, f, c))
            act(env, A_PUSH + cell)
            act(env, A_PUSH + cell)
        if s.hp[0, hero] == 0:
            break
    else:
        pytest.fail("the worker never fell")
    assert s.mode[0] == EXPLORE and not s.vault_open[0, f]
    mask = env.engine.masks[0]
    assert not mask[A_WORK + hero]
    assert mask[A_WORK + int(s.order[0, 1])], "another standing member may take over"
    assert s.outcome[0] == 0

    # the sub-task: the same fall ends the episode as a loss
    sub = task("plate", f, seed=1, tough=False)
    w = int(sub.engine.state.worker[0])
    sub.engine.state.luck[0, w] = 0
    sub.engine.state.hp[0, w] = 1
    snap = sub.save_state()
    for trial in range(200):
        sub.load_state(snap)
        sub.engine.state.rng[0] = seed_state(trial, 1)
        cell = next(c for c in range(plate_n(f) ** 2) if not _opens(sub.engine.state, f, c))
        act(sub, A_PUSH + cell)
        _, _, term, _, info = act(sub, A_PUSH + cell)
        if sub.engine.state.hp[0, w] == 0:
            assert term and not info["episode_stats"]["won"]
            return
        assert not term
    pytest.fail("the sub-task worker never fell")


def _opens(s, f: int, cell: int) -> bool:
    n = plate_n(f)
    return not apply_push(s.plate_lit[0, f, :n, :n], cell // n, cell % n).any()


def test_vault1_vault_rooms_hold_better_loot():
    env = DelveEnv(depth=12)
    s = env.engine.state
    gold = {True: [], False: []}
    value = {True: [], False: []}
    item_tier = {True: [], False: []}
    table_tier = _item_tiers()
    vaults = locks = 0
    for seed in range(300):
        env.reset(seed=seed)
        for f in FLOORS:
            r_vault = int(s.vault_room[0, f])
            vaults += r_vault >= 0
            locks += s.vault_lock[0, f] == WALL_LOCK
            for r in range(int(s.num_rooms[0, f])):
                v = r == r_vault
                kinds = [int(k) for k in s.room_items[0, f, r, :ROOM_ITEMS] if k > 0]
                gold[v].append(int(s.room_gold[0, f, r]) / f)
                value[v].append(sum(int(ITEMS[k, I_PRICE]) for k in kinds))
                item_tier[v] += [table_tier[k] for k in kinds]
    assert 0.35 < vaults / (300 * 12) < 0.65, "about half the floors have a vault"
    assert 0.3 < locks / vaults < 0.7, "wall and plate locks both occur"
    assert np.mean(gold[True]) > 2 * np.mean(gold[False])
    assert np.mean(value[True]) > 2 * np.mean(value[False])
    assert np.mean(item_tier[True]) > np.mean(item_tier[False])


def _item_tiers() -> dict[int, float]:
    """An item's tier: the mean row of the room tables it appears in."""
    from delve_env.engine.core.tables import ROOM_ITEM_TABLE

    rows: dict[int, list[int]] = {}
    for t, row in enumerate(ROOM_ITEM_TABLE):
        for k in row:
            rows.setdefault(int(k), []).append(t)
    return {k: float(np.mean(v)) for k, v in rows.items()}


# ---------------------------------------------------------------------------------------
# WALL-1: the tumbler wall
# ---------------------------------------------------------------------------------------


def test_wall1_symbols_grow_every_floor_and_the_mask_offers_s_rings():
    previous = 0
    for f in FLOORS:
        env = task("wall", f, seed=f)
        S = symbols(f)
        assert previous < S
        previous = S
        mask = env.engine.masks[0]
        assert ring_actions(mask) == list(range(S))
        assert list(legal(env)) == [A_RING + k for k in range(S)], "only rings at the wall"
        act(env, A_RING + S - 1)
        assert ring_actions(env.engine.masks[0]) == list(range(S)), "for every ring"
    # every combination's rings use symbols 0..S-1, and all of them occur
    s_env = DelveEnv(depth=12)
    used = {f: set() for f in FLOORS}
    for seed in range(400):
        g = np.array([seed_state(seed, GEN)], dtype=np.uint64)
        for f in FLOORS:
            make_wall(s_env.engine.state, 0, f, g)
            used[f] |= {int(v) for v in s_env.engine.state.wall_combo[0, f]}
    for f in FLOORS:
        assert used[f] == set(range(symbols(f)))


def test_wall1_answer_counts_the_rings_right():
    env = task("wall", 6, seed=11)
    s, f, S = env.engine.state, 6, symbols(6)
    combo = s.wall_combo[0, f].copy()
    for k, wrong in enumerate((3, 2, 1, 2, 3)):
        guess = guess_with_wrong(combo, wrong, S)
        guess = guess[wrong:] + guess[:wrong] if wrong == 2 else guess  # vary the positions
        right = sum(int(a == b) for a, b in zip(guess, combo))
        _, _, term, _, _ = enter_guess(env, guess)
        assert not term
        assert list(s.wall_history[0, f, 0]) == [*guess, right]
        assert s.wall_guesses[0, f] == k + 1 and s.wall_num_set[0, f] == 0
    # history is latest first
    assert s.wall_history[0, f, 4, 3] == 0 and s.wall_history[0, f, 2, 3] == 2


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_wall1_wrong_guess_wounds_half_the_time_by_wrong_x_d4_x_factor(difficulty):
    trials = 300
    factor = FACTORS[difficulty]
    for wrong in (1, 2, 3):
        env = task("wall", 8, seed=wrong, difficulty=difficulty)
        s, f, S = env.engine.state, 8, symbols(8)
        w = int(s.worker[0])
        wounds = []
        for _ in range(trials):
            hp, total = int(s.hp[0, w]), int(s.stat_vault_wounds[0])
            _, _, _, _, info = enter_guess(env, guess_with_wrong(s.wall_combo[0, f], wrong, S))
            wounds.append(hp - int(s.hp[0, w]))
            assert s.stat_vault_wounds[0] - total == wounds[-1]
            assert bool(info["events"] & EV_VAULT_WOUND) == (wounds[-1] > 0)
        wounds = np.array(wounds)
        hit = wounds[wounds > 0]
        expected = {half_up(wrong * d * factor) for d in range(1, 5)}
        assert 0.4 < hit.size / trials < 0.6, f"wound chance {hit.size / trials}, want 1/2"
        assert set(hit.tolist()) == expected, (difficulty, wrong, sorted(set(hit.tolist())))
        assert hit.max() <= 3 * 4 * factor


@pytest.mark.nojit
def test_wall1_hard_two_wrong_rings_wound_2_x_d4_x_2():
    env = task("wall", 3, seed=2, difficulty="hard")
    s, f = env.engine.state, 3
    w = int(s.worker[0])
    seen = set()
    for _ in range(200):
        hp = int(s.hp[0, w])
        enter_guess(env, guess_with_wrong(s.wall_combo[0, f], 2, symbols(f)))
        if hp > s.hp[0, w]:
            seen.add(hp - int(s.hp[0, w]))
    assert seen == {4, 8, 12, 16}


@pytest.mark.nojit
def test_wall1_rogue_knows_the_first_ring():
    for f in FLOORS:
        for seed in range(3):
            env = task("wall", f, seed=seed, party=("rogue", "hero"))
            s = env.engine.state
            assert s.cls[0, s.worker[0]] == ROGUE
            combo = s.wall_combo[0, f]
            assert s.wall_num_set[0, f] == 1 and s.wall_set[0, f, 0] == combo[0]
            assert ring_actions(env.engine.masks[0]) == list(range(symbols(f)))
            enter_guess(env, guess_with_wrong(combo, 2, symbols(f)))
            assert s.wall_history[0, f, 0, 0] == combo[0]
            assert s.wall_num_set[0, f] == 1 and s.wall_set[0, f, 0] == combo[0], "again"
    # in the game: only a Rogue worker gets it
    env, _ = game_scene(WALL_LOCK, seed=12)
    s = env.engine.state
    act(env, A_WORK + member_of(env, 0))
    assert s.wall_num_set[0, 1] == 0
    act(env, A_LEAVE)
    act(env, A_WORK + member_of(env, ROGUE))
    assert s.wall_num_set[0, 1] == 1 and s.wall_set[0, 1, 0] == s.wall_combo[0, 1, 0]


def test_wall1_oracle_agent_opens_every_wall_of_floors_1_to_12():
    agent = VaultOracleAgent()
    means = []
    for f in FLOORS:
        guesses = []
        for seed in range(8):
            env = task("wall", f, seed=100 + seed)
            combo = tuple(int(v) for v in env.engine.state.wall_combo[0, f])
            _, stats = play_agent(env, agent)
            assert stats["won"], (f, seed)
            guesses.append(int(env.engine.state.wall_guesses[0, f]))
            assert guesses[-1] == play_wall(combo, symbols(f)), "the agent plays the oracle"
            assert guesses[-1] <= symbols(f) + 3
        means.append(float(np.mean(guesses)))
    print("WALL-1 oracle mean guesses per floor:", [round(m, 2) for m in means])
    tiers = [np.mean(means[i : i + 3]) for i in range(0, 12, 3)]
    assert all(a < b for a, b in zip(tiers, tiers[1:])), tiers
    assert np.corrcoef(np.arange(12), means)[0, 1] > 0.9


def test_wall1_oracle_agent_with_a_rogue_never_sets_the_known_ring():
    agent = VaultOracleAgent()
    for f in (1, 6, 12):
        for seed in range(4):
            env = task("wall", f, seed=seed, party=("rogue", "wizard"))
            _, stats = play_agent(env, agent)
            assert stats["won"]
            combo = tuple(int(v) for v in env.engine.state.wall_combo[0, f])
            guesses = int(env.engine.state.wall_guesses[0, f])
            assert guesses <= symbols(f) + 1
            assert guesses <= play_wall(combo, symbols(f), known_first=combo[0]) + 1


# ---------------------------------------------------------------------------------------
# PLATE-1: the lock plate
# ---------------------------------------------------------------------------------------


def test_plate1_every_generated_plate_is_solvable_over_10000_seeds():
    env = DelveEnv(depth=12)
    s = env.engine.state
    for seed in range(10_000):
        g = np.array([seed_state(seed, GEN)], dtype=np.uint64)
        for f in (1 + seed % 3, 4 + seed % 3, 7 + seed % 3, 10 + seed % 3):
            make_plate(env.engine.state, 0, f, g)
            n = plate_n(f)
            lit = s.plate_lit[0, f]
            assert lit[:n, :n].any(), "a plate is never already dark"
            assert not lit[n:].any() and not lit[:, n:].any()
            assert is_plate_solvable(lit[:n, :n]), (seed, f)


def test_plate1_subtask_plates_have_the_floors_size_and_are_solvable():
    for f in FLOORS:
        env = task("plate", f, seed=f)
        n = plate_n(f)
        assert push_actions(env.engine.masks[0]) == list(range(n * n))
        assert is_plate_solvable(env.engine.state.plate_lit[0, f, :n, :n])


@pytest.mark.parametrize("f", [1, 4, 7, 10])
def test_plate1_push_flips_the_cell_and_its_orthogonal_neighbours(f):
    env = task("plate", f, seed=21)
    s = env.engine.state
    n = plate_n(f)
    snap = env.save_state()
    for cell in range(n * n):
        env.load_state(snap)
        before = s.plate_lit[0, f, :n, :n].copy()
        act(env, A_PUSH + cell)
        assert (s.plate_lit[0, f, :n, :n] == apply_push(before, cell // n, cell % n)).all()
        assert s.plate_pushed[0, f, cell // n, cell % n]


def test_plate1_pushing_costs_nothing_and_opens_when_all_dark():
    for f in (2, 5, 8, 11):
        env = task("plate", f, seed=f, tough=False)
        s = env.engine.state
        n = plate_n(f)
        hp, gold, pace = s.hp[0].copy(), int(s.gold[0]), int(s.pace[0])
        plan = np.flatnonzero(solve_plate(s.plate_lit[0, f, :n, :n]))
        for k, cell in enumerate(plan):
            _, _, term, _, info = act(env, A_PUSH + int(cell))
            assert (s.hp[0] == hp).all() and s.gold[0] == gold and s.pace[0] == pace
            assert term == (k == plan.size - 1)
        assert not s.plate_lit[0, f].any() and s.vault_open[0, f]
        assert info["episode_stats"]["won"] and s.stat_vault_wounds[0] == 0


@pytest.mark.nojit
@pytest.mark.parametrize("f", [1, 3, 4, 6, 7, 9, 10, 12])
def test_plate1_taking_a_push_back_wounds_d4_x_floor_tier(f):
    env = task("plate", f, seed=31 + f)
    s = env.engine.state
    w = int(s.worker[0])
    cell = next(c for c in range(plate_n(f) ** 2) if not _opens(s, f, c))
    act(env, A_PUSH + cell)
    snap = env.save_state()
    wounds = set()
    for trial in range(80):
        env.load_state(snap)
        s.rng[0] = seed_state(trial, 1)
        hp, total = int(s.hp[0, w]), int(s.stat_vault_wounds[0])
        _, _, _, _, info = act(env, A_PUSH + cell)
        assert info["events"] & EV_VAULT_WOUND
        assert not s.plate_pushed[0, f, cell // plate_n(f), cell % plate_n(f)]
        wounds.add(hp - int(s.hp[0, w]))
        assert s.stat_vault_wounds[0] - total == hp - s.hp[0, w]
    assert wounds == {d * tier(f) for d in range(1, 5)}, (f, sorted(wounds))


@pytest.mark.nojit
@pytest.mark.parametrize("f", [1, 4, 6, 9, 12])
def test_plate1_hint_costs_50_x_floor_and_shows_a_cell_still_to_push(f):
    env = task("plate", f, seed=41 + f)
    s = env.engine.state
    n = plate_n(f)
    price = 50 * f
    assert env.engine.masks[0, A_HINT]
    gold, pace = int(s.gold[0]), int(s.pace[0])
    act(env, A_HINT)
    assert s.gold[0] == gold - price and s.stat_hint_gold[0] == price
    assert s.pace[0] == pace
    assert not env.engine.masks[0, A_HINT], "one hint at a time"
    h = int(s.plate_hint[0, f])
    _check_hint(s, f, h)
    act(env, A_PUSH + h)
    assert s.plate_hint[0, f] == -1
    if not s.vault_open[0, f]:  # the sub-task purse holds exactly two hints
        assert env.engine.masks[0, A_HINT]
        act(env, A_HINT)
        _check_hint(s, f, int(s.plate_hint[0, f]))
        assert s.gold[0] == gold - 2 * price and s.stat_hint_gold[0] == 2 * price
        act(env, A_PUSH + int(s.plate_hint[0, f]))
    if not s.vault_open[0, f]:
        assert not env.engine.masks[0, A_HINT], "no hint without the gold for it"
    # following hints (paid for) opens the plate without a take-back
    s.gold[0] = 10**6
    refresh(env)
    for _ in range(2 * n * n):
        if s.vault_open[0, f]:
            break
        act(env, A_HINT)
        _check_hint(s, f, int(s.plate_hint[0, f]))
        act(env, A_PUSH + int(s.plate_hint[0, f]))
    assert s.vault_open[0, f] and s.stat_vault_wounds[0] == 0


def _check_hint(s, f: int, h: int) -> None:
    """A hint is a cell not yet pushed that some solution of the plate as it stands pushes
    (on 3x3 and 6x6 plates the only solution, hence the minimal one)."""
    n = plate_n(f)
    assert 0 <= h < n * n
    assert not s.plate_pushed[0, f, h // n, h % n], "a hint never asks for a take-back"
    sols = plate_solutions(s.plate_lit[0, f, :n, :n])
    assert sols[:, h].any(), "the hint is part of a solution"
    if sols.shape[0] == 1:
        assert solve_plate(s.plate_lit[0, f, :n, :n]).ravel()[h]


@pytest.mark.nojit
def test_plate1_rogue_gets_the_first_hint_free():
    for f in (1, 5, 10):
        env = task("plate", f, seed=f, party=("rogue", "hero"))
        s = env.engine.state
        gold = int(s.gold[0])
        act(env, A_HINT)
        assert s.gold[0] == gold and s.stat_hint_gold[0] == 0 and s.plate_hints[0, f] == 1
        act(env, A_PUSH + int(s.plate_hint[0, f]))
        if s.vault_open[0, f]:
            continue
        act(env, A_HINT)
        assert s.gold[0] == gold - 50 * f and s.stat_hint_gold[0] == 50 * f


def test_plate1_oracle_agent_pushes_equal_the_minimal_solution():
    agent = VaultOracleAgent()
    for party in (("hero", "rogue"), ("rogue", "cleric")):
        for f in FLOORS:
            for seed in range(4):
                env = task("plate", f, seed=200 + seed, party=party)
                s = env.engine.state
                n = plate_n(f)
                minimum = int(solve_plate(s.plate_lit[0, f, :n, :n]).sum())
                pushes, stats = play_agent(env, agent)
                assert stats["won"]
                assert pushes == minimum, (party, f, seed, pushes, minimum)
                assert s.stat_vault_wounds[0] == 0 and s.stat_hint_gold[0] == 0


def test_plate1_agent_avoids_take_backs_after_someone_elses_pushes():
    env = task("plate", 5, seed=3)
    s, f = env.engine.state, 5
    n = plate_n(f)
    lit = s.plate_lit[0, f, :n, :n]
    plan = set(np.flatnonzero(solve_plate(lit)).tolist())
    other = set(np.flatnonzero(plate_solutions(lit).any(axis=0)).tolist())
    stray = next(c for c in sorted(other - plan) if not _opens(s, f, c))
    minimum = len(plan)
    act(env, A_PUSH + stray)
    pushes, stats = play_agent(env, VaultOracleAgent())
    assert stats["won"] and s.stat_vault_wounds[0] == 0
    assert 1 + pushes >= minimum


# ---------------------------------------------------------------------------------------
# TIME-2: vault work costs no time
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("lock", [WALL_LOCK, PLATE_LOCK])
def test_time2_no_pace_passes_while_working_a_lock(lock):
    env, _ = game_scene(lock, seed=13, f=2)
    s, f = env.engine.state, 2
    toughen(env)
    rogue = member_of(env, ROGUE)
    for m in range(4):
        if m != rogue:
            s.hp[0, m] = 5  # wounded members would heal if paces passed (HEAL-1)
    refresh(env)

    def clocks():
        return int(s.pace[0]), int(s.meal_clock[0]), int(s.heal_clock[0])

    start, hp, rations = clocks(), s.hp[0].copy(), int(s.rations[0])
    act(env, A_WORK + rogue)
    if lock == WALL_LOCK:
        for _ in range(10):
            enter_guess(env, guess_with_wrong(s.wall_combo[0, f], 1, symbols(f)))
    else:
        s.gold[0] = 10**5
        refresh(env)
        act(env, A_HINT)
        for cell in range(plate_n(f) ** 2):
            if not _opens(s, f, cell):
                act(env, A_PUSH + cell)
    act(env, A_LEAVE)
    assert clocks() == start and s.rations[0] == rations
    assert (s.hp[0] <= hp).all(), "no healing: no pace passed"
    act(env, A_WAIT)
    assert clocks()[0] == start[0] + 1, "the clock itself still runs"


def test_time2_subtask_episode_takes_no_paces():
    agent = VaultOracleAgent()
    for lock in ("wall", "plate"):
        env = task(lock, 9, seed=5)
        _, stats = play_agent(env, agent)
        assert stats["won"] and stats["paces"] == 0


def test_action_space_holds_the_vault_actions():
    assert A_WORK < A_RING < A_PUSH < A_HINT < A_LEAVE < NUM_ACTIONS
    assert A_PUSH - A_RING == MAX_SYMBOLS and A_HINT - A_PUSH == MAX_PLATE**2


def test_vault1_agent_picks_up_the_wall_after_leaving_and_coming_back():
    """What the wall answered stays with the wall: a fresh agent resumes from its history."""
    env, _ = game_scene(WALL_LOCK, seed=14, f=5)
    s, f = env.engine.state, 5
    toughen(env)
    combo = tuple(int(v) for v in s.wall_combo[0, f])
    hero = member_of(env, 0)
    act(env, A_WORK + hero)
    agent = VaultOracleAgent()
    for _ in range(7):  # two guesses and one ring of a third
        act(env, agent.act(env))
    act(env, A_LEAVE)
    act(env, A_WAIT)
    act(env, A_WORK + hero)
    agent = VaultOracleAgent()
    while not s.vault_open[0, f]:
        act(env, agent.act(env))
    assert s.wall_guesses[0, f] == play_wall(combo, symbols(f))


@pytest.mark.nojit
def test_wall_1_the_observation_marks_the_symbols_that_agree_with_every_guess():
    """The wall's notebook: per symbol, whether setting it on the next ring keeps the guess
    in agreement with every guess shown, and the count of agreeing combinations, checked
    against a brute force over every combination. Interpreted too: there the rings right of a
    guess once summed numpy booleans (a logical or), so a guess with two rings right agreed
    with nothing."""
    import itertools

    from agents.vault_oracles import wall_answer
    from delve_env.engine.core.tables import MAX_SYMBOLS
    from delve_env.engine.outputs.layout import PUZZLE_AGREEING, PUZZLE_CANDIDATES

    env = task("wall", 2, seed=3)
    s, f, S = env.engine.state, 2, symbols(2)
    combo = [int(v) for v in s.wall_combo[0, f]]
    rng = np.random.default_rng(0)
    guess = None
    for _ in range(10):  # ring by ring: the flags follow the rings set so far
        shown = [
            (tuple(int(v) for v in h[:3]), int(h[3])) for h in s.wall_history[0, f] if h[0] >= 0
        ]
        agree = [c for c in itertools.product(range(S), repeat=3)
                 if all(wall_answer(c, g) == right for g, right in shown)]  # fmt: skip
        assert tuple(combo) in agree
        puzzle = env.engine.obs["puzzle"][0]
        assert puzzle[PUZZLE_CANDIDATES] == min(255, len(agree))
        done = int(s.wall_num_set[0, f])
        prefix = [int(v) for v in s.wall_set[0, f, :done]]
        want = {c[done] for c in agree if list(c[:done]) == prefix}
        assert set(np.flatnonzero(puzzle[PUZZLE_AGREEING : PUZZLE_AGREEING + S])) == want
        assert not puzzle[PUZZLE_AGREEING + S : PUZZLE_AGREEING + MAX_SYMBOLS].any()
        if done == 0 or guess is None:  # a new guess (a Rogue's first ring comes set)
            guess = guess_with_wrong(combo, int(rng.integers(1, 3)), S)
        act(env, A_RING + guess[done])
    assert len(shown) >= 2 and len(agree) < S**3


def test_vault1_vault_rooms_hold_better_loot_from_the_next_tier():
    """A vault's items are drawn from the row of the tier after the floor's (tables.tier_of;
    at most tier 3): on floors 1 and 4 every one of 40 vaults' items is in that row."""
    from delve_env.engine.core.tables import ROOM_ITEM_TABLE, tier_of

    env = DelveEnv(depth=4)
    env.reset(seed=3)
    s = env.engine.state
    seen = 0
    for f in (1, 4):
        row = {int(k) for k in ROOM_ITEM_TABLE[min(3, tier_of(f) + 1)]}
        for seed in range(40):
            g = np.array([seed_state(seed + 500, GEN)], dtype=np.uint64)
            s.room_items[0, f, 0] = 0
            place_vault(env.engine.state, env.engine.params, 0, f, 0, WALL_LOCK, g)
            kinds = {int(k) for k in s.room_items[0, f, 0, :ROOM_ITEMS] if k > 0}
            assert kinds <= row, (f, kinds - row)
            seen += len(kinds)
    assert seen >= 40


def test_wall1_rogue_knows_the_first_ring_and_a_guess_begun_is_kept():
    """WALL-1: the Rogue's known ring is set only on a guess not yet begun: a Rogue who sets a
    second ring, leaves and comes back finds both rings still set."""
    env, r = game_scene(WALL_LOCK, seed=7, f=2)
    s, f = env.engine.state, 2
    toughen(env)
    rogue = member_of(env, ROGUE)
    act(env, A_WORK + rogue)
    combo = s.wall_combo[0, f].copy()
    assert s.wall_num_set[0, f] == 1 and s.wall_set[0, f, 0] == combo[0]
    act(env, A_RING + int(combo[1]))
    assert s.wall_num_set[0, f] == 2
    leave_and_step_back(env, f, r)
    act(env, A_WORK + rogue)
    assert s.mode[0] == WALL and s.wall_num_set[0, f] == 2
    assert s.wall_set[0, f, 0] == combo[0] and s.wall_set[0, f, 1] == combo[1]
