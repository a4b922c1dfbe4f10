"""An agent that works Delve's vault locks optimally with the exact oracles (VAULT-1).

`VaultOracleAgent.act(env)` reads the engine state of a `DelveEnv` (or of the
`Delve-Vault-v0` sub-task, any Gymnasium wrapper around them) and returns the next action:

- WALL-1 (tumbler wall): the :class:`~agents.vault_oracles.WallOracle`'s next guess, ring by
  ring. The oracle is fed every answer the wall has given (``wall_history``), so leaving and
  coming back, or a fresh agent, picks up where the work stopped. A ring already set (the
  Rogue's preset first ring) is never set again: the guess is completed around it.
- PLATE-1 (lock plate): the cells of a minimum push set, in row-major order, never taking a
  push back (a take-back wounds the worker) unless every solution needs one. Hints are never
  bought: the oracle needs none.
- Standing in a locked vault while exploring: the best worker starts working the lock (a
  standing Rogue, else the first standing member in marching order).
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import NDArray

from agents.vault_oracles import WallOracle, plate_push_matrix, solve_plate
from delve_env.engine.core.actions import A_PUSH, A_RING, A_WORK
from delve_env.engine.core.tables import EXPLORE, PLATE, ROGUE, WALL, WALL_HISTORY, WALL_RINGS
from delve_env.engine.rules.vaults import num_symbols, plate_size

__all__ = ["VaultOracleAgent", "choose_worker", "plate_null_basis", "plate_solutions"]


# ---------------------------------------------------------------------------------------
# PLATE-1 helpers: every solution of a plate
# ---------------------------------------------------------------------------------------


@functools.cache
def plate_null_basis(n: int) -> NDArray[np.uint8]:
    """Basis of the GF(2) null space of the ``n x n`` push matrix, shape ``(k, n*n)``.

    Two push sets darken the same plate exactly when they differ by a null-space vector.
    """
    red = plate_push_matrix(n).astype(np.uint8)
    size = n * n
    pivots: list[int] = []
    for col in range(size):
        rank = len(pivots)
        hits = np.flatnonzero(red[rank:, col]) + rank
        if hits.size == 0:
            continue
        red[[rank, hits[0]]] = red[[hits[0], rank]]
        others = np.flatnonzero(red[:, col])
        others = others[others != rank]
        red[others] ^= red[rank]
        pivots.append(col)
    free = [c for c in range(size) if c not in set(pivots)]
    basis = np.zeros((len(free), size), dtype=np.uint8)
    for k, f in enumerate(free):
        basis[k, f] = 1
        basis[k, pivots] = red[: len(pivots), f]
    basis.setflags(write=False)
    return basis


def plate_solutions(lit: np.ndarray) -> NDArray[np.bool_]:
    """Every push set (each cell at most once) that darkens the plate.

    Args:
        lit: Boolean ``(n, n)`` plate, True where a cell is lit.

    Returns:
        Boolean array ``(k, n*n)`` of row-major push sets (``k`` is a power of two), empty
        ``(0, n*n)`` when the plate cannot be darkened.
    """
    lit = np.asarray(lit, dtype=bool)
    n = lit.shape[0]
    particular = solve_plate(lit)
    if particular is None:
        return np.zeros((0, n * n), dtype=bool)
    basis = plate_null_basis(n)
    k = basis.shape[0]
    coeffs = ((np.arange(2**k)[:, None] >> np.arange(k)[None, :]) & 1).astype(np.int64)
    options = (coeffs @ basis.astype(np.int64) + particular.ravel().astype(np.int64)) % 2
    return options.astype(bool)


def _best_plate_plan(lit: np.ndarray, pushed: np.ndarray) -> NDArray[np.bool_] | None:
    """The solution with fewest take-backs, then fewest pushes, then lowest row-major code."""
    sols = plate_solutions(lit)
    if sols.shape[0] == 0:
        return None
    size = sols.shape[1]
    takebacks = (sols & pushed.ravel()[None, :]).sum(axis=1)
    cost = takebacks * (size + 1) + sols.sum(axis=1)
    best = sols[cost == cost.min()]
    # lexsort on reversed columns: the first row is the lexicographically smallest.
    return best[np.lexsort(best.T[::-1])[0]]


# ---------------------------------------------------------------------------------------
# WALL-1 helpers
# ---------------------------------------------------------------------------------------


def _best_completion(oracle: WallOracle, prefix: tuple[int, ...]) -> tuple[int, ...]:
    """The oracle's scoring restricted to guesses that start with the rings already set."""
    free = oracle.num_rings - len(prefix)
    cands = oracle.candidates
    grids = np.indices((oracle.num_symbols,) * free).reshape(free, -1).T
    pool = np.concatenate([np.tile(np.asarray(prefix, np.int64), (grids.shape[0], 1)), grids], 1)
    answers = (pool[:, None, :] == cands[None, :, :]).sum(axis=2)
    counts = np.stack([(answers == k).sum(axis=1) for k in range(oracle.num_rings + 1)], 1)
    score = (counts**2).sum(axis=1)
    is_candidate = counts[:, oracle.num_rings] > 0
    best = np.lexsort((~is_candidate, score))[0]
    return tuple(int(v) for v in pool[best])


def choose_worker(s, e: int = 0) -> int:
    """The member who should work a lock: a standing Rogue (WALL-1 ring, PLATE-1 free hint),
    else the first standing member in marching order; -1 if nobody stands."""
    standing = [int(m) for m in s.order[e] if m >= 0 and s.in_party[e, m] and s.hp[e, m] > 0]
    for m in standing:
        if s.cls[e, m] == ROGUE:
            return m
    return standing[0] if standing else -1


class VaultOracleAgent:
    """Plays a vault lock optimally with the exact WALL-1 / PLATE-1 oracles.

    One agent may play many episodes and envs: it keys its wall knowledge by the state
    arrays, env slot and floor, and rebuilds it from the wall's answers whenever they do not
    follow on from what it saw last.
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget the wall being worked (optional: `act` notices a new wall by itself)."""
        self._key: tuple | None = None
        self._oracle: WallOracle | None = None
        self._seen = 0  # wall guesses already fed to the oracle
        self._plan: tuple[int, ...] | None = None

    def act(self, env, e: int = 0) -> int:
        """The next action index for slot `e` of `env` (a DelveEnv or any wrapper of one).

        Raises:
            ValueError: If the party is neither working a lock nor standing in a locked vault.
        """
        s = env.unwrapped.engine.state
        mode = int(s.mode[e])
        if mode == WALL:
            return self._wall_action(s, e)
        if mode == PLATE:
            return self._plate_action(s, e)
        f = int(s.floor[e])
        if mode == EXPLORE and f > 0 and self._in_locked_vault(s, e, f):
            m = choose_worker(s, e)
            if m >= 0:
                return A_WORK + m
        raise ValueError(f"slot {e} is not at a vault lock (mode {mode})")

    # --- wall ----------------------------------------------------------------------------
    @staticmethod
    def _in_locked_vault(s, e: int, f: int) -> bool:
        r = int(s.room_of[e, f, s.y[e], s.x[e]])
        return (
            r >= 0
            and int(s.vault_room[e, f]) == r
            and int(s.vault_lock[e, f]) != 0
            and not bool(s.vault_open[e, f])
        )

    @staticmethod
    def _known_first(s, e: int, f: int) -> int | None:
        """WALL-1: a Rogue worker knows the first ring; the engine shows it preset."""
        if s.cls[e, s.worker[e]] == ROGUE and s.wall_num_set[e, f] >= 1:
            return int(s.wall_set[e, f, 0])
        return None

    def _sync_wall(self, s, e: int, f: int) -> WallOracle:
        symbols = int(num_symbols(f))
        known = self._known_first(s, e, f)
        key = (id(s.wall_history), e, f, known)
        done = int(s.wall_guesses[e, f])
        history = s.wall_history[e, f]
        fresh = done - self._seen
        if self._oracle is None or key != self._key or not 0 <= fresh <= WALL_HISTORY:
            self._key, self._plan = key, None
            self._oracle = self._rebuild(symbols, known, history, min(done, WALL_HISTORY))
        else:
            for h in range(fresh - 1, -1, -1):
                guess, right = history[h, :WALL_RINGS], int(history[h, WALL_RINGS])
                try:
                    self._oracle.observe(guess, right)
                except ValueError:  # a wrong guess about the known ring: start over
                    self._oracle = self._rebuild(symbols, None, history, min(done, WALL_HISTORY))
                    break
            if fresh:
                self._plan = None
        self._seen = done
        return self._oracle

    @staticmethod
    def _rebuild(symbols: int, known: int | None, history: np.ndarray, count: int):
        for first in (known, None) if known is not None else (None,):
            oracle = WallOracle(symbols, WALL_RINGS, known_first=first)
            try:
                for h in range(count - 1, -1, -1):
                    if history[h, 0] >= 0:
                        oracle.observe(history[h, :WALL_RINGS], int(history[h, WALL_RINGS]))
            except ValueError:
                continue
            return oracle
        raise RuntimeError("the wall's answers contradict each other")

    def _wall_action(self, s, e: int) -> int:
        f = int(s.floor[e])
        oracle = self._sync_wall(s, e, f)
        k = int(s.wall_num_set[e, f])
        prefix = tuple(int(v) for v in s.wall_set[e, f, :k])
        if self._plan is None or self._plan[:k] != prefix:
            guess = oracle.next_guess()
            if guess[:k] != prefix:
                if k == 1 and prefix[0] == oracle.known_first:
                    # Every candidate has the known symbol there: same answers, shifted by one.
                    guess = prefix + guess[1:]
                else:
                    guess = _best_completion(oracle, prefix)
            self._plan = guess
        return A_RING + self._plan[k]

    # --- plate ---------------------------------------------------------------------------
    @staticmethod
    def _plate_action(s, e: int) -> int:
        f = int(s.floor[e])
        n = int(plate_size(f))
        lit = np.array(s.plate_lit[e, f, :n, :n], dtype=bool)
        pushed = np.array(s.plate_pushed[e, f, :n, :n], dtype=bool)
        plan = _best_plate_plan(lit, pushed)
        if plan is None:
            raise RuntimeError("the plate cannot be darkened")
        cells = np.flatnonzero(plan & ~pushed.ravel())
        if cells.size == 0:  # every solution takes a push back
            cells = np.flatnonzero(plan)
        return A_PUSH + int(cells[0])
