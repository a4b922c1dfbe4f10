"""Tunable rule numbers (GAME.md *(tunable)*, STYLE.md "literal chances and sizes move to the
preset table"): each lives in `engine/core/params.py`, is set by a config key (`config.TUNABLES`),
and the engine reads it. Each test sets a key away from its default and checks what the
generated dungeon (or a fight's end) shows, so a mechanic that ignored the key fails.

LOOT-1 (room gold, items, pages), MON-1 (band sizes and kinds), WANDER-3 (a wandering band's
gold), VAULT-1 (vault chance, gold, items, lock), RUN-2 (the guard chance)."""

import numpy as np
import pytest

from delve_env import DelveEnv
from delve_env.config import TUNABLES, Config
from delve_env.engine.core.params import (
    P_BAND_SECOND_KIND,
    P_BAND_SIZE,
    P_BAND_SIZE_PER_TIER,
    P_BATH_CEILING_DOWN,
    P_BATH_CEILING_UP,
    P_BATH_CHANCE,
    P_BATH_HEAL,
    P_BATH_LEVEL,
    P_BATH_NOTHING,
    P_BATH_XP_LOSS,
    P_BRIBE_REVEAL,
    P_BRIBE_STONE,
    P_CHEST_CHANCE,
    P_CHEST_TRAP,
    P_CHEST_TRAP_PER_FLOOR,
    P_FREE_ACTIONS,
    P_GUARD_CHANCE,
    P_LANTERN_PACES,
    P_LISTEN_HEAR,
    P_MAP_CHEST,
    P_PAGES_PER_FLOOR,
    P_PRACTICE_MAX_LEVEL,
    P_PRACTICE_XP,
    P_ROOM_GOLD_CHANCE,
    P_ROOM_GOLD_DICE,
    P_ROOM_ITEM_CHANCE,
    P_SCROLL_PACES,
    P_STATUE_CHANCE,
    P_STATUE_PRICE,
    P_TRAVEL_PACES,
    P_VAULT_CHANCE,
    P_VAULT_GOLD_FACTOR,
    P_VAULT_ITEMS,
    P_VAULT_WALL_CHANCE,
    P_WANDER_GOLD_DICE,
    make_params,
)
from delve_env.engine.core.tables import (
    EXPLORE,
    FEAT_NONE,
    MAX_FOES,
    PLATE_LOCK,
    ROOM_ITEMS,
    WALL_LOCK,
    tier_of,
)
from delve_env.engine.rules.fights import end_turn, hit_foe

pytestmark = pytest.mark.fast  # bad input and the API: CI runs these again under python -O

SEEDS = range(12)
GOBLIN = 1  # tables.MONSTER_NAMES

# Today's values (the same in every preset): moving them into the table changed nothing.
DEFAULTS = {
    P_GUARD_CHANCE: 0.5,
    P_ROOM_GOLD_CHANCE: 0.6,
    P_ROOM_GOLD_DICE: 2,
    P_ROOM_ITEM_CHANCE: 0.3,
    P_PAGES_PER_FLOOR: 2,
    P_BAND_SIZE: 2,
    P_BAND_SIZE_PER_TIER: 1,
    P_BAND_SECOND_KIND: 0.3,
    P_WANDER_GOLD_DICE: 1,
    P_VAULT_CHANCE: 0.5,
    P_VAULT_GOLD_FACTOR: 3,
    P_VAULT_ITEMS: 2,
    P_VAULT_WALL_CHANCE: 0.5,
    P_LANTERN_PACES: 600,
    P_SCROLL_PACES: 240,
    P_STATUE_CHANCE: 0.3,
    P_STATUE_PRICE: 25,
    P_LISTEN_HEAR: 1 / 3,
    P_BRIBE_REVEAL: 0.5,
    P_BRIBE_STONE: 0.25,
    P_CHEST_CHANCE: 0.25,  # CHEST-1, BATH-1, COURT-2: their own tests (test_chests.py, ...)
    P_MAP_CHEST: 0.5,
    P_CHEST_TRAP: 0.3,
    P_CHEST_TRAP_PER_FLOOR: 0.02,
    P_BATH_CHANCE: 0.25,
    P_PRACTICE_XP: 0.25,
    P_PRACTICE_MAX_LEVEL: 3,
    P_BATH_LEVEL: 1,
    P_BATH_CEILING_UP: 2,
    P_BATH_CEILING_DOWN: 2,
    P_BATH_XP_LOSS: 2,
    P_BATH_HEAL: 2,
    P_BATH_NOTHING: 3,
    P_TRAVEL_PACES: 100,
    P_FREE_ACTIONS: 40,
}


def dungeons(depth: int = 12, seeds=SEEDS, **config):
    """(state, floor, room, is_vault) for every room of every floor of a few fresh games, but
    the rooms of stores, statues and baths (they hold nothing else, features.place_feature)."""
    env = DelveEnv(depth=depth, **config)
    s = env.engine.state
    for seed in seeds:
        env.reset(seed=seed)
        for f in range(1, depth + 1):
            for r in range(int(s.num_rooms[0, f])):
                if s.room_feature[0, f, r] == FEAT_NONE:
                    yield s, f, r, bool(s.vault_room[0, f] == r)


def band_sizes(**config) -> dict[int, list[int]]:
    """Monsters per guarding band, by floor tier, every room guarded (but the king's and the
    book's rooms, whose guards are one stronger: MON-2, docs/rules-fights10.md)."""
    sizes: dict[int, list[int]] = {t: [] for t in range(4)}
    for s, f, r, _ in dungeons(guard_chance=1.0, **config):
        depth = s.tiles.shape[1] - 1
        if (f == s.book_floor[0] and r == s.book_room[0]) or (f == depth and r == s.king_room[0]):
            continue
        sizes[tier_of(f)].append(int((s.band_kind[0, f, r] >= 0).sum()))
    return sizes


# --- the table and the config keys ----------------------------------------------------------


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_defaults_are_todays_numbers_in_every_preset(difficulty):
    p = make_params(difficulty)
    for index, value in DEFAULTS.items():
        assert p[index] == value


@pytest.mark.parametrize("key", list(TUNABLES))
def test_each_key_sets_its_number_and_none_keeps_the_presets(key):
    index, kind, low, high, _ = TUNABLES[key]
    value = high if kind == "int" else 0.25
    assert Config.from_kwargs(**{key: value}).params()[index] == value
    assert Config.from_kwargs(**{key: low}).params()[index] == low
    assert Config.from_kwargs(difficulty="hard").params()[index] == make_params("hard")[index]
    assert DelveEnv(**{key: value}).engine.params[index] == value  # reaches the engine


@pytest.mark.parametrize("key", list(TUNABLES))
def test_bad_values_raise_naming_the_key_and_what_is_allowed(key):
    _, kind, low, high, _ = TUNABLES[key]
    bad = [low - 1, high + 1, "1", True, [1]]
    bad += [1.0, 0.5] if kind == "int" else [float("nan")]
    for value in bad:
        with pytest.raises(ValueError) as err:
            DelveEnv(**{key: value})
        assert key in str(err.value)
        assert f"{low}..{high}" in str(err.value) or f"[{low}, {high}]" in str(err.value)


def test_a_snapshot_records_the_tunables_it_was_played_under():
    env = DelveEnv(vault_gold_factor=5, band_second_kind=0.0)
    env.reset(seed=0)
    snap = env.save_state()
    d = env.config.snapshot_dict()
    assert d["vault_gold_factor"] == 5 and d["band_second_kind"] == 0.0
    assert d["room_gold_chance"] == 0.6  # None stands for the preset's value
    other = DelveEnv(vault_gold_factor=3, band_second_kind=0.0)
    other.reset(seed=0)
    with pytest.raises(ValueError, match="vault_gold_factor: snapshot 5, this env 3"):
        other.load_state(snap)
    same = DelveEnv(vault_gold_factor=5, band_second_kind=0)
    same.reset(seed=1)
    same.load_state(snap)
    assert same.save_state() == snap


# --- RUN-2 / LOOT-1: guards, gold, items, pages -----------------------------------------------


def test_guard_chance_zero_leaves_every_room_unguarded_and_one_guards_them_all():
    assert all(s.band_kind[0, f, r, 0] < 0 for s, f, r, _ in dungeons(guard_chance=0.0))
    assert all(s.band_kind[0, f, r, 0] >= 0 for s, f, r, _ in dungeons(guard_chance=1.0))


def test_room_gold_chance_zero_leaves_rooms_without_gold_and_one_gilds_them_all():
    rooms = list(dungeons(room_gold_chance=0.0, vault_chance=0.0))
    assert all(s.room_gold[0, f, r] == 0 for s, f, r, _ in rooms)
    golds = [int(s.room_gold[0, f, r]) for s, f, r, _ in dungeons(room_gold_chance=1.0)]
    assert min(golds) > 0


def test_room_gold_dice_sets_the_gold_roll():
    """LOOT-1: a room's gold is (room gold dice) d6 x floor: 5 dice give at least 5 x floor
    (two give as little as 2 x floor), none give nothing."""
    for dice, low, high in ((5, 5, 30), (1, 1, 6)):
        for s, f, r, _ in dungeons(room_gold_chance=1.0, room_gold_dice=dice, vault_chance=0.0):
            gold = int(s.room_gold[0, f, r])
            assert gold % f == 0 and low <= gold // f <= high
    rooms = dungeons(room_gold_chance=1.0, room_gold_dice=0, vault_chance=0.0)
    assert all(s.room_gold[0, f, r] == 0 for s, f, r, _ in rooms)


def test_room_item_chance_zero_leaves_rooms_empty_and_one_fills_them():
    for s, f, r, vault in dungeons(room_item_chance=0.0):
        if not vault:
            assert (s.room_items[0, f, r] == 0).all()
    for s, f, r, _ in dungeons(room_item_chance=1.0):
        assert s.room_items[0, f, r, 0] > 0


def test_pages_per_floor_sets_the_pages_lying_in_rooms():
    counts = {n: 0 for n in (0, 5)}
    for n in counts:
        for s, f, r, _ in dungeons(pages_per_floor=n, seeds=range(4)):
            counts[n] += int((s.room_pages[0, f, r] >= 0).sum())
    assert counts[0] == 0
    assert counts[5] > 4 * 12 * 2  # more than the default 2 a floor (a full room drops some)


# --- MON-1: bands ---------------------------------------------------------------------------


def test_band_size_one_without_growth_gives_bands_of_one():
    sizes = band_sizes(band_size=1, band_size_per_tier=0)
    assert all(n == 1 for tier in sizes.values() for n in tier)


def test_band_size_per_tier_grows_the_most_by_tier():
    """1 + 2 x tier: bands of one on floors 1-3, up to three on 4-6 (the default's most there
    is 2 + 1), capped at MAX_FOES on 10-12."""
    sizes = band_sizes(band_size=1, band_size_per_tier=2)
    assert set(sizes[0]) == {1}
    assert set(sizes[1]) == {1, 2, 3}
    assert max(sizes[3]) == MAX_FOES
    defaults = band_sizes()
    assert set(defaults[0]) == {1, 2} and set(defaults[1]) == {1, 2, 3}
    assert set(band_sizes(band_size=5, band_size_per_tier=0)[0]) == {1, 2, 3, 4, 5}


def test_band_second_kind_zero_gives_bands_of_one_kind():
    for s, f, r, _ in dungeons(guard_chance=1.0, band_second_kind=0.0):
        kinds = s.band_kind[0, f, r]
        assert len(set(kinds[kinds >= 0].tolist())) == 1
    mixed = 0
    for s, f, r, _ in dungeons(guard_chance=1.0, band_second_kind=1.0):
        kinds = s.band_kind[0, f, r]
        mixed += len(set(kinds[kinds >= 0].tolist())) == 2
    assert mixed > 0


# --- WANDER-3: a wandering band's gold --------------------------------------------------------


@pytest.mark.parametrize(("dice", "low", "high"), [(0, 0, 0), (3, 3, 18)])
def test_wander_gold_dice_sets_a_wandering_bands_gold(scene_factory, dice, low, high):
    """Killing a wandering goblin on floor 2 gives (wander gold dice) d6 x 2 gold."""
    sc = scene_factory(depth=2, wander_gold_dice=dice)
    s, p = sc.s, sc.p
    sc.put(2, *sc.hall_tile(2, junction=False))
    snap = sc.save()
    gains = []
    for seed in range(30):
        sc.load(snap)
        g = sc.rng(seed)
        sc.fight([GOBLIN], hps=[1])
        gold = int(s.gold[0])
        hit_foe(s, p, 0, 0, 0, g)
        end_turn(s, p, 0, g)
        assert s.mode[0] == EXPLORE
        gains.append(int(s.gold[0]) - gold)
    assert all(g % 2 == 0 and low <= g // 2 <= high for g in gains)
    assert max(gains) // 2 > 6 or dice == 0  # more than one d6 can give


# --- VAULT-1: chance, gold, items, lock -------------------------------------------------------


def test_vault_chance_zero_gives_no_vaults_and_one_gives_more():
    assert not any(vault for *_, vault in dungeons(vault_chance=0.0))
    always = sum(vault for *_, vault in dungeons(vault_chance=1.0))
    half = sum(vault for *_, vault in dungeons())
    assert always > 1.4 * half  # a vault on every floor whose drawn room may hold one


def test_vault_gold_factor_zero_adds_no_gold_and_five_adds_five_rolls():
    for s, f, r, _ in dungeons(room_gold_chance=0.0, vault_chance=1.0, vault_gold_factor=0):
        assert s.room_gold[0, f, r] == 0
    vaults = 0
    for s, f, r, vault in dungeons(room_gold_chance=0.0, vault_chance=1.0, vault_gold_factor=5):
        gold = int(s.room_gold[0, f, r])
        if vault:
            vaults += 1
            assert gold % (5 * f) == 0 and 2 <= gold // (5 * f) <= 12  # 5 x 2d6 x floor
        else:
            assert gold == 0
    assert vaults > 0


@pytest.mark.parametrize("n", [0, ROOM_ITEMS])
def test_vault_items_sets_the_items_a_vault_adds(n):
    vaults = 0
    for s, f, r, vault in dungeons(room_item_chance=0.0, vault_chance=1.0, vault_items=n):
        if vault:
            vaults += 1
            assert (s.room_items[0, f, r] > 0).sum() == n
    assert vaults > 0


def test_vault_wall_chance_picks_the_lock():
    for chance, lock in ((0.0, PLATE_LOCK), (1.0, WALL_LOCK)):
        locks = [
            int(s.vault_lock[0, f]) for s, f, r, vault in dungeons(vault_chance=1.0,
                                                                   vault_wall_chance=chance)
            if vault
        ]  # fmt: skip
        assert locks and set(locks) == {lock}


def test_the_default_config_rolls_the_same_dungeon_as_the_explicit_defaults():
    """Setting every key to its default value changes nothing (a check beside the golden
    digests, which pin the default config's whole trajectories)."""
    explicit = {key: DEFAULTS[index] for key, (index, *_) in TUNABLES.items()}
    a, b = DelveEnv(), DelveEnv(**explicit)
    a.reset(seed=3)
    b.reset(seed=3)
    for name, x, y in zip(a.engine.state._fields, a.engine.state, b.engine.state):
        assert np.array_equal(x, y), name
    assert np.array_equal(a.engine.params, b.engine.params)
