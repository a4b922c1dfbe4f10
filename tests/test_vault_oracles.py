"""Tests for the exact vault oracles (PLATE-1 lock plate, WALL-1 tumbler wall)."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from agents.vault_oracles import (
    WallOracle,
    apply_push,
    is_plate_solvable,
    plate_push_matrix,
    play_wall,
    random_solvable_plate,
    solve_plate,
    wall_answer,
)

# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------


def _press_all(lit: np.ndarray, pushes: np.ndarray) -> np.ndarray:
    """Apply a push set cell by cell, independently of the matrix formulation."""
    out = lit.copy()
    for r, c in zip(*np.nonzero(pushes), strict=True):
        out = apply_push(out, int(r), int(c))
    return out


def _code(bits: np.ndarray) -> np.ndarray:
    """Encode row-major bool vectors as integers, cell 0 as the most significant bit."""
    size = bits.shape[-1]
    weights = 1 << np.arange(size - 1, -1, -1, dtype=np.int64)
    return bits.astype(np.int64) @ weights


@functools.cache
def _brute_force(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Best push set for every lit pattern by trying all 2**(n*n) push sets.

    Returns:
        ``(min_weight, best_code)`` indexed by the lit pattern's code; weight is -1 where the
        pattern is unreachable, and ``best_code`` is the lowest code among minimum-weight
        push sets (the documented tie-break).
    """
    size = n * n
    codes = np.arange(2**size, dtype=np.int64)
    pushes = ((codes[:, None] >> np.arange(size - 1, -1, -1)) & 1).astype(np.int64)
    lit_codes = _code((pushes @ plate_push_matrix(n).T.astype(np.int64)) % 2)
    weights = pushes.sum(axis=1)
    # Sorting by (weight, push code) makes the first hit per lit code the preferred answer.
    order = np.lexsort((codes, weights))
    first = np.unique(lit_codes[order], return_index=True)
    min_weight = np.full(2**size, -1, dtype=np.int64)
    best_code = np.full(2**size, -1, dtype=np.int64)
    min_weight[first[0]] = weights[order][first[1]]
    best_code[first[0]] = codes[order][first[1]]
    return min_weight, best_code


def _plate_from_code(code: int, n: int) -> np.ndarray:
    bits = (code >> np.arange(n * n - 1, -1, -1)) & 1
    return bits.astype(bool).reshape(n, n)


def _full_search_guess(oracle: WallOracle) -> tuple[int, ...]:
    """The guess a brute-force search over every combination would make."""
    cands = oracle.candidates
    if cands.shape[0] <= 2:
        return tuple(int(s) for s in cands[0])
    rings = oracle.num_rings
    pool = np.array(list(itertools.product(range(oracle.num_symbols), repeat=rings)))
    answers = (pool[:, None, :] == cands[None, :, :]).sum(axis=2)
    counts = np.stack([(answers == k).sum(axis=1) for k in range(rings + 1)], axis=1)
    score = (counts**2).sum(axis=1)
    best = np.lexsort((~(counts[:, rings] > 0), score))[0]
    return tuple(int(s) for s in pool[best])


# ---------------------------------------------------------------------------------------
# PLATE-1
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 7))
def test_push_matrix_shape_and_symmetry(n: int) -> None:
    mat = plate_push_matrix(n)
    assert mat.shape == (n * n, n * n)
    assert mat.dtype == np.uint8
    assert np.array_equal(mat, mat.T)
    assert np.all(np.diag(mat) == 1)
    assert set(np.unique(mat)) <= {0, 1}
    # A push flips itself plus 2 to 4 neighbours (fewer on a 1x1 plate).
    assert mat.sum(axis=0).max() <= 5


@pytest.mark.parametrize("n", [3, 4, 6])
def test_push_matrix_columns_match_apply_push(n: int) -> None:
    mat = plate_push_matrix(n)
    dark = np.zeros((n, n), dtype=bool)
    for j in range(n * n):
        assert np.array_equal(apply_push(dark, j // n, j % n).ravel(), mat[:, j].astype(bool))


def test_push_matrix_is_a_copy() -> None:
    mat = plate_push_matrix(3)
    mat[:] = 0
    assert plate_push_matrix(3).sum() == 33


def test_apply_push_returns_new_array() -> None:
    lit = np.zeros((3, 3), dtype=bool)
    out = apply_push(lit, 1, 1)
    assert not lit.any()
    assert out.sum() == 5
    assert np.array_equal(apply_push(out, 1, 1), lit)
    with pytest.raises(IndexError):
        apply_push(lit, 3, 0)


def test_solve_plate_all_n3_plates_are_minimal() -> None:
    min_weight, best_code = _brute_force(3)
    for code in range(2**9):
        lit = _plate_from_code(code, 3)
        pushes = solve_plate(lit)
        assert pushes is not None
        assert pushes.dtype == np.bool_ and pushes.shape == (3, 3)
        assert not _press_all(lit, pushes).any()
        assert pushes.sum() == min_weight[code]
        assert _code(pushes.ravel()) == best_code[code]


def test_solve_plate_random_n4_plates_are_minimal() -> None:
    min_weight, best_code = _brute_force(4)
    rng = np.random.default_rng(4)
    for _ in range(50):
        lit = random_solvable_plate(rng, 4)
        pushes = solve_plate(lit)
        code = int(_code(lit.ravel()))
        assert pushes is not None
        assert not _press_all(lit, pushes).any()
        assert pushes.sum() == min_weight[code]
        assert _code(pushes.ravel()) == best_code[code]


def test_solvability_matches_brute_force_n4() -> None:
    min_weight, _ = _brute_force(4)
    rng = np.random.default_rng(44)
    for code in rng.integers(0, 2**16, size=500):
        lit = _plate_from_code(int(code), 4)
        reachable = bool(min_weight[code] >= 0)
        assert is_plate_solvable(lit) == reachable
        assert (solve_plate(lit) is None) == (not reachable)
    # The 4x4 push matrix has a 4-dimensional kernel, so 1 plate in 16 is solvable.
    assert np.mean(min_weight >= 0) == pytest.approx(1 / 16)


@pytest.mark.parametrize("n", [4, 5])
def test_single_lit_corner_is_unsolvable(n: int) -> None:
    lit = np.zeros((n, n), dtype=bool)
    lit[0, 0] = True
    assert not is_plate_solvable(lit)
    assert solve_plate(lit) is None


def test_single_lit_corner_is_unsolvable_brute_force_n4() -> None:
    min_weight, _ = _brute_force(4)
    assert min_weight[1 << 15] == -1


@pytest.mark.parametrize("n", [3, 6])
def test_every_plate_is_solvable_when_matrix_is_invertible(n: int) -> None:
    rng = np.random.default_rng(n)
    for _ in range(50):
        lit = rng.random((n, n)) < 0.5
        assert is_plate_solvable(lit)
        pushes = solve_plate(lit)
        assert pushes is not None
        assert not _press_all(lit, pushes).any()


@pytest.mark.parametrize("n", [5, 6])
def test_solve_plate_beats_generating_pushes(n: int) -> None:
    rng = np.random.default_rng(100 + n)
    for _ in range(30):
        generating = rng.random((n, n)) < 0.5
        lit = _press_all(np.zeros((n, n), dtype=bool), generating)
        pushes = solve_plate(lit)
        assert pushes is not None
        assert not _press_all(lit, pushes).any()
        assert pushes.sum() <= generating.sum()


def test_dark_plate_needs_no_pushes() -> None:
    for n in range(3, 7):
        pushes = solve_plate(np.zeros((n, n), dtype=bool))
        assert pushes is not None
        assert not pushes.any()


def test_solve_plate_rejects_non_square() -> None:
    with pytest.raises(ValueError):
        solve_plate(np.zeros((3, 4), dtype=bool))


@pytest.mark.parametrize("n", range(3, 7))
def test_random_solvable_plate(n: int) -> None:
    for seed in range(40):
        lit = random_solvable_plate(np.random.default_rng(seed), n)
        assert lit.shape == (n, n) and lit.dtype == np.bool_
        assert lit.any()
        assert is_plate_solvable(lit)
        again = random_solvable_plate(np.random.default_rng(seed), n)
        assert np.array_equal(lit, again)


# ---------------------------------------------------------------------------------------
# WALL-1
# ---------------------------------------------------------------------------------------


def _sane_bound(num_symbols: int) -> int:
    # Trying one new symbol per ring per guess finds every ring within S guesses, so a
    # greedy searcher should never need much more than that.
    return num_symbols + 4


def test_wall_answer() -> None:
    assert wall_answer((1, 2, 3), (1, 2, 3)) == 3
    assert wall_answer((1, 2, 3), (3, 2, 1)) == 1
    assert wall_answer((0, 0, 0), (1, 1, 1)) == 0
    with pytest.raises(ValueError):
        wall_answer((1, 2), (1, 2, 3))


def test_initial_candidates() -> None:
    assert WallOracle(7).num_candidates == 343
    assert WallOracle(7, known_first=3).num_candidates == 49
    assert np.all(WallOracle(7, known_first=3).candidates[:, 0] == 3)
    assert WallOracle(5, num_rings=2).num_candidates == 25


def test_opens_every_combination_s5() -> None:
    for combo in itertools.product(range(5), repeat=3):
        assert 1 <= play_wall(combo, 5) <= _sane_bound(5)
        assert 1 <= play_wall(combo, 5, known_first=combo[0]) <= _sane_bound(5)


@pytest.mark.parametrize("floor", range(1, 13))
def test_opens_random_combinations_every_floor(floor: int) -> None:
    symbols = 4 + floor
    rng = np.random.default_rng(floor)
    for combo in rng.integers(0, symbols, size=(8, 3)):
        combo = tuple(int(s) for s in combo)
        assert play_wall(combo, symbols) <= _sane_bound(symbols)
        assert play_wall(combo, symbols, known_first=combo[0]) <= _sane_bound(symbols)


@pytest.mark.parametrize("symbols", [6, 10])
def test_known_first_reduces_mean_guesses(symbols: int) -> None:
    rng = np.random.default_rng(symbols)
    combos = [tuple(int(s) for s in c) for c in rng.integers(0, symbols, size=(40, 3))]
    plain = np.mean([play_wall(c, symbols) for c in combos])
    rogue = np.mean([play_wall(c, symbols, known_first=c[0]) for c in combos])
    assert rogue < plain


@pytest.mark.parametrize(("symbols", "known"), [(5, False), (9, False), (16, False), (16, True)])
def test_every_answer_is_consistent_and_informative(symbols: int, known: bool) -> None:
    rng = np.random.default_rng(symbols + known)
    for combo in rng.integers(0, symbols, size=(5, 3)):
        combo = tuple(int(s) for s in combo)
        oracle = WallOracle(symbols, known_first=combo[0] if known else None)
        seen: set[tuple[int, ...]] = set()
        while True:
            guess = oracle.next_guess()
            assert len(guess) == 3 and all(0 <= s < symbols for s in guess)
            assert guess not in seen
            seen.add(guess)
            answer = wall_answer(guess, combo)
            if answer == 3:
                break
            before = oracle.num_candidates
            oracle.observe(guess, answer)
            # The true combination survives and every guess rules something out.
            assert combo in {tuple(int(s) for s in c) for c in oracle.candidates}
            assert oracle.num_candidates < before


@pytest.mark.parametrize(("symbols", "known"), [(5, False), (6, False), (6, True)])
def test_guesses_match_full_search(symbols: int, known: bool) -> None:
    rng = np.random.default_rng(7 * symbols + known)
    for combo in rng.integers(0, symbols, size=(6, 3)):
        combo = tuple(int(s) for s in combo)
        oracle = WallOracle(symbols, known_first=combo[0] if known else None)
        while True:
            guess = oracle.next_guess()
            assert guess == _full_search_guess(oracle)
            answer = wall_answer(guess, combo)
            if answer == 3:
                break
            oracle.observe(guess, answer)


def test_oracle_is_deterministic() -> None:
    combo = (3, 11, 7)
    runs = []
    for _ in range(2):
        oracle, guesses = WallOracle(12), []
        while (guess := oracle.next_guess()) != combo:
            guesses.append(guess)
            oracle.observe(guess, wall_answer(guess, combo))
        runs.append(guesses)
    assert runs[0] == runs[1]


def test_observe_rejects_bad_input() -> None:
    oracle = WallOracle(5)
    with pytest.raises(ValueError):
        oracle.observe((0, 0), 0)
    with pytest.raises(ValueError):
        oracle.observe((0, 0, 0), 4)
    with pytest.raises(ValueError):
        oracle.observe((0, 0, 5), 0)
    oracle.observe((0, 0, 0), 3)
    assert oracle.num_candidates == 1
    with pytest.raises(ValueError):
        oracle.observe((0, 0, 0), 0)
    assert oracle.num_candidates == 1


def test_play_wall_rejects_wrong_known_first() -> None:
    with pytest.raises(ValueError):
        play_wall((1, 2, 3), 6, known_first=2)
