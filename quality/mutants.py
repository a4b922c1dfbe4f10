"""Mutation benchmark: do the rule tests catch plausible one-line bugs in the engine's rules?

Each mutant in `MUTANTS` is data: the module file under delve_env/engine/, a piece of one
source line (it must occur exactly once in the file), what it becomes, the test files (and
pytest options, such as `-k`) that cover that mechanic, and one line saying what the bug is.
For each mutant the whole checkout (no .git, caches or virtual environment) is copied to a
temporary folder, the one change is made there (never in the working tree), and

    python -m pytest -x -q -p no:cacheprovider <the mechanic's tests>

runs in that copy (cwd and PYTHONPATH) with NUMBA_DISABLE_JIT=1: the engine runs as plain
Python, so no mutant pays numba's compile (about a minute on 2 cores). A mutant is caught
when the tests fail, survives when they pass; a run past the timeout counts as caught but is
shown apart. A mutant whose line is no longer in its file (others edit the rules) is
"stale" and counts neither way; so is one whose tests fail on the unmutated copy (the
baseline run, once per distinct test selection, unless --no-baseline).

    python quality/mutants.py --list                 # the mutants, nothing run
    python quality/mutants.py                        # every mutant, one at a time
    python quality/mutants.py --only stores,bribes   # the mutants of these modules
    python quality/mutants.py --ids 1,2,17 --jobs 2  # these mutants, two at once
    python quality/mutants.py --json                 # one JSON object on stdout

It runs on demand, not in CI: a mutant takes the time of its tests run interpreted, a
median of 8 s (most 3-20 s; the statistical chest and vault tests 45-200 s), so all 232
take about 23 minutes with `--jobs 2` on 2 cores. Some test files are
slow interpreted (tests/test_vaults.py whole takes over 10 minutes), so those mutants name
the tests that matter with `-k`. `--compiled` runs the tests compiled instead, each mutant with its own empty
NUMBA_CACHE_DIR (numba's cache does not notice a changed callee, so a shared cache would
run the unmutated code): a full compile per mutant, for tests that only work compiled.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = "delve_env/engine"
IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "*.pyc", "*.nbi", "*.nbc", ".pytest_cache", ".ruff_cache",
    "runs", "build", "dist", "*.egg-info",
)  # fmt: skip


def engine_file(root: Path, module: str) -> Path:
    """The engine's file named `module` in `root`'s checkout, in whichever of its folders."""
    found = sorted((root / ENGINE).rglob(module))
    if len(found) != 1:
        raise ValueError(f"{module}: {len(found)} files of that name under {ENGINE}")
    return found[0]


@dataclass(frozen=True)
class Mutant:
    module: str  # file name in a folder of delve_env/engine/ (food.py: rules/food.py)
    original: str  # a piece of one line, found exactly once in the file
    replacement: str
    tests: tuple[str, ...]  # pytest arguments: test files, and options such as -k
    description: str


def mu(module, original, replacement, tests, description):
    return Mutant(module, original, replacement, tuple(shlex.split(tests)), description)


STORES, BRIBES, BATHS = "tests/test_stores.py", "tests/test_bribes.py", "tests/test_baths.py"
CHESTS, STATUES, DOORS = "tests/test_chests.py", "tests/test_statues.py", "tests/test_doors.py"
EFFECTS, CLOCK, KEEPER = "tests/test_effects.py", "tests/test_clock.py", "tests/test_keeper.py"
FIGHTS, PARTY, SPELLS = "tests/test_fights.py", "tests/test_party.py", "tests/test_spells.py"
CLASSES, VAULTS, QUEST = "tests/test_classes.py", "tests/test_vaults.py", "tests/test_quest.py"
COURT, EATERS, LINGER = "tests/test_court.py", "tests/test_eaters.py", "tests/test_linger.py"
FLOORS, BESTIARY, TIES = "tests/test_floors.py", "tests/test_bestiary.py", "tests/test_ties.py"
ISOLATION = "tests/test_effect_isolation.py"
CLASS_DICE = f"{CLASSES} -k 'both_ends or second_wind or healer_holy or blood_magic'"

# fmt: off
MUTANTS: tuple[Mutant, ...] = (
    # --- stores (STORE-1..2) --------------------------------------------------------------
    mu("stores.py", "return (int(gold) * int(STORE_FACTOR_HALVES[level]) + 1) // 2",
      "return (int(gold) * int(STORE_FACTOR_HALVES[level])) // 2", STORES,
      "prices round half down instead of half up"),
    mu("stores.py", "return int(f) // STORE_FLOOR_EVERY",
      "return max(0, int(f) // STORE_FLOOR_EVERY - 1)", STORES,
      "off by one: a store's level is one too low (floor 3's store prices as the courtyard's)"),
    mu("stores.py", "if kind == 0 or s.gold[e] < line_price(level, k):",
      "if kind == 0 or s.gold[e] <= line_price(level, k):", STORES,
      "< to <=: a line that costs exactly the party's gold cannot be bought"),
    mu("stores.py", "return s.rations[e] <= MAX_RATIONS", "return s.rations[e] < MAX_RATIONS",
      STORES, "<= to <: rations stop one purchase early at the int16 cap"),
    mu("stores.py", "return int(price) // 2", "return store_price(price, store_level(s, e)) // 2",
      STORES, "a sale pays half the store's price (its factor), not half the base price"),
    mu("stores.py", "price = min(price, ITEMS[other, I_PRICE])",
      "price = max(price, ITEMS[other, I_PRICE])", STORES,
      "an unknown item sells as the dearest kind of its look (the price tells what it is)"),
    mu("stores.py", "return REPAIR_WEAR_GOLD * wear + REPAIR_DV_GOLD * missing",
      "return REPAIR_DV_GOLD * wear + REPAIR_WEAR_GOLD * missing", STORES,
      "swapped repair rates: wear at 1 gold, missing durability at 3"),
    mu("stores.py", "    s.item_wear[e, m, slot] = 0", "    pass", STORES,
      "a repair restores durability but leaves the wear"),
    mu("stores.py", "s.known_kinds[e] |= 1 << kind", "pass", STORES,
      "a bought item's kind is not known (ITEM-2)"),
    # --- bribes (BRIBE-1..3) --------------------------------------------------------------
    mu("bribes.py", "lowest = min(lowest, int(MONSTERS[s.foe_kind[e, k], M_BRIBE]))",
      "lowest = max(lowest, int(MONSTERS[s.foe_kind[e, k], M_BRIBE]))", BRIBES,
      "min to max: the band takes a bribe with its most willing kind's chance"),
    mu("bribes.py", "lowest = min(MOST_CHANCE, lowest + GOODWILL_POINTS)",
      "lowest = lowest + GOODWILL_POINTS", BRIBES,
      "goodwill's cap removed: a bribe can become certain (BRIBE-3 says never)"),
    mu("bribes.py", "return PRICE_PER_FACTOR * int(s.floor[e]) * total",
      "return PRICE_PER_FACTOR * (int(s.floor[e]) + 1) * total", BRIBES,
      "off by one: the price counts one floor too many"),
    mu("bribes.py", "and s.gold[e] >= bribe_price(s, e)", "and s.gold[e] > bribe_price(s, e)",
      BRIBES, ">= to >: exactly the price in gold cannot bribe"),
    mu("bribes.py", "taken = chance(rng, e, odds / 100.0)",
      "taken = chance(rng, e, 1.0 - odds / 100.0)", BRIBES,
      "the chance inverted: a willing band refuses"),
    mu("bribes.py", "if s.goodwill[e] or chance(rng, e, p[P_BRIBE_STONE]):",
      "if chance(rng, e, p[P_BRIBE_STONE]):", BRIBES,
      "goodwill no longer always hands over a summoning stone (BRIBE-3)"),
    mu("bribes.py", "elif chance(rng, e, p[P_BRIBE_REVEAL]):",
      "elif chance(rng, e, p[P_BRIBE_STONE]):", BRIBES,
      "swapped chances: the reveal rolls with the stone's chance"),
    # --- food and the clock (FOOD-1..4, HEAL-1) ------------------------------------------
    mu("food.py", "return 2 * paces if is_running(s, e, SATED) else paces",
      "return 3 * paces if is_running(s, e, SATED) else paces", f"{CLOCK} {EFFECTS}",
      "SATED triples the meal interval instead of doubling it"),
    mu("food.py", "if s.meal_clock[e] >= meal_interval(s, p, e):",
      "if s.meal_clock[e] > meal_interval(s, p, e):", f"{CLOCK} {EFFECTS}",
      ">= to >: a meal one pace late"),
    mu("food.py", "wound(s, e, m, 1, rng)", "wound(s, e, m, 2, rng)", CLOCK,
      "a hungry member loses 2 HP, not 1"),
    mu("food.py", "if s.rations[e] == 0:", "if s.rations[e] < 0:", CLOCK,
      "FOOD-3 lost: the party heals with no rations"),
    mu("food.py", "s.mana[e, m] = min(s.well[e, m], s.mana[e, m] + 1)",
      "s.mana[e, m] = s.mana[e, m] + 1", CLOCK, "resting mana overflows the well"),
    mu("food.py", "if s.heal_clock[e] >= p[P_HEAL_PACES]:",
      "if s.heal_clock[e] > p[P_HEAL_PACES]:", CLOCK, ">= to >: healing one pace late"),
    # --- wandering bands and effects (WANDER-1..2, EFFECT-1) -----------------------------
    mu("wander.py", "return min(FOUL_CAP, factor * base)", "return factor * base", EFFECTS,
      "the foul lantern's cap removed (WANDER-2)"),
    mu("wander.py", "return junction if hunting else 2 * junction", "return junction", EFFECTS,
      "a search no longer doubles the junction chance"),
    mu("wander.py", "return junction\n    return p[P_HALL_WANDER_HUNT] if hunting else p[P_HALL_WANDER]",
      "return junction\n    return p[P_HALL_WANDER] if hunting else p[P_HALL_WANDER_HUNT]",
      f"{EFFECTS} {FIGHTS} -k 'wander or lantern'",
      "swapped chances: hall chance while hunting and not"),
    mu("effects.py", "return 2.0 if s.ward_foul[e] else 0.5",
      "return 2.0 if s.ward_foul[e] else 0.25", EFFECTS,
      "the warding lantern quarters the chance instead of halving it"),
    mu("effects.py", "s.effects[e, effect] = min(32767, max(0, int(paces)))",
      "s.effects[e, effect] = min(32767, int(s.effects[e, effect]) + max(0, int(paces)))",
      EFFECTS, "an effect started again stacks (EFFECT-1: it restarts)"),
    mu("effects.py", "if s.effects[e, WARD] == 0 and s.ward_foul[e]:",
      "if s.effects[e, WARD] < 0 and s.ward_foul[e]:", EFFECTS,
      "a spent foul lantern is still foul"),
    mu("effects.py", "FOUL_CAP = 0.95", "FOUL_CAP = 1.0", EFFECTS,
      "the foul cap is certainty"),
    # --- statues (STATUE-1..2) ------------------------------------------------------------
    mu("statues.py", "return int(q) * int(s.statue_price[e, s.floor[e]]) // 4",
      "return (int(q) * int(s.statue_price[e, s.floor[e]]) + 3) // 4", STATUES,
      "a bid rounds up, not down"),
    mu("statues.py", "if amount >= threshold:", "if amount > threshold:", STATUES,
      ">= to >: a bid of exactly T does not name the item"),
    mu("statues.py", "elif 2 * amount < threshold:", "elif amount < threshold:", STATUES,
      "a bid between T/2 and T destroys the item"),
    mu("statues.py", "return MEND_PRICE * int(s.floor[e])",
      "return MEND_PRICE * (int(s.floor[e]) + 1)", STATUES, "off by one floor in the mend price"),
    mu("statues.py", "n = min(int(s.ceiling[e, b]) - int(s.hp[e, b]), int(s.gold[e]) // price)",
      "n = int(s.ceiling[e, b]) - int(s.hp[e, b])", STATUES,
      "mending heals more than the gold pays for"),
    mu("statues.py", "return s.hp[e, b] < s.ceiling[e, b] and s.gold[e] >= mend_price(s, e)",
      "return s.hp[e, b] <= s.ceiling[e, b] and s.gold[e] >= mend_price(s, e)", STATUES,
      "< to <=: an unwounded member can be mended"),
    # --- chests (CHEST-1) -----------------------------------------------------------------
    mu("chests.py", "avoid = TRAP_AVOID - TRAP_AVOID_PER_STEP * p[P_TRAP_AVOID_STEP]",
      "avoid = TRAP_AVOID + TRAP_AVOID_PER_STEP * p[P_TRAP_AVOID_STEP]", CHESTS,
      "- to +: harder difficulties make traps easier to avoid"),
    mu("chests.py", "if s.cls[e, m] == ROGUE:", "if s.cls[e, m] != ROGUE:", CHESTS,
      "negated: every class but the Rogue gets the Rogue's +20"),
    mu("chests.py", "s.rations[e] = int(s.rations[e]) - int(s.rations[e]) // 2",
      "s.rations[e] = int(s.rations[e]) // 2", CHESTS,
      "the rations trap keeps the smaller half (rounding)"),
    mu("chests.py", "lower_ceiling(s, e, m, roll(rng, e, 1, 3))",
      "lower_ceiling(s, e, m, roll(rng, e, 1, 4))", CHESTS, "ceiling trap d4, not d3"),
    mu("chests.py", "wound(s, e, b, roll(rng, e, 1, 4), rng)",
      "wound(s, e, m, roll(rng, e, 1, 4), rng)", CHESTS,
      "swapped argument: the gas wounds only the opener, once per standing member"),
    mu("chests.py", "trap = p[P_CHEST_TRAP] + p[P_CHEST_TRAP_PER_FLOOR] * int(f)",
      "trap = p[P_CHEST_TRAP] + p[P_CHEST_TRAP_PER_FLOOR] * (int(f) - 1)", CHESTS,
      "off by one floor in the trap chance"),
    mu("chests.py", "odds = p[P_MAP_CHEST] if s.room_map[e, f, r] else p[P_CHEST_CHANCE]",
      "odds = p[P_CHEST_CHANCE] if s.room_map[e, f, r] else p[P_MAP_CHEST]", CHESTS,
      "swapped chances: map room and plain rooms"),
    mu("chests.py", "NUM_TRAPS = 4", "NUM_TRAPS = 3", CHESTS, "the gas trap never springs"),
    # --- baths (BATH-1) -------------------------------------------------------------------
    mu("baths.py", "if w > 0 and chance(rng, e, w / left):",
      "if w > 0 and chance(rng, e, w / total):", BATHS,
      "the draw divides by the total, not what is left: an unfair draw"),
    mu("baths.py", "s.xp[e, m] = max(0, int(s.xp[e, m]) - XP_LOSS_STEP * roll(rng, e, 1))",
      "s.xp[e, m] = int(s.xp[e, m]) - XP_LOSS_STEP * roll(rng, e, 1)", BATHS,
      "XP loss floor removed: XP can go negative"),
    mu("baths.py", "raise_ceiling(s, e, m, roll(rng, e, 1))",
      "raise_ceiling(s, e, m, roll(rng, e, 2))", BATHS, "dice count: +2d6 ceiling, not 1d6"),
    mu("baths.py", "return not s.bathed[e, s.floor[e], m]", "return True", BATHS,
      "a member may bathe again"),
    mu("baths.py", "gain_xp(s, p, e, m, level_cost(p, s.level[e, m]) - int(s.xp[e, m]), rng)",
      "gain_xp(s, p, e, m, level_cost(p, s.level[e, m]), rng)", BATHS,
      "the level outcome gives a whole level's cost, keeping the XP already had"),
    # --- doors (LISTEN-1, SNEAK-1) --------------------------------------------------------
    mu("doors.py",
      "if has_band(s, e, f, r) and (esp or chance(rng, e, p[P_LISTEN_HEAR])):",
      "if has_band(s, e, f, r) and chance(rng, e, p[P_LISTEN_HEAR]):", DOORS,
      "ESP no longer makes listening certain"),
    mu("doors.py", "    pass_pace(s, p, e, rng)", "    pass", DOORS,
      "listening takes no pace"),
    mu("doors.py", "if f == 0 or s.mode[e] != EXPLORE or s.tiles[e, f, y, x] != DOOR:",
      "if s.mode[e] != EXPLORE or s.tiles[e, f, y, x] != DOOR:", DOORS,
      "the courtyard guard dropped from the door check"),
    # --- fights (FIGHT-1..2, ATTACK-1..2, DMG-1, PARTY-2, XP-1, RUN-AWAY-1) ----------------
    mu("fights.py", "if roll(rng, e, 1) > roll(rng, e, 1):",
      "if roll(rng, e, 1) >= roll(rng, e, 1):", FIGHTS,
      "> to >=: a tied initiative is an ambush"),
    mu("fights.py", "return max(0, dice - max(0, wear - flat)), max(0, flat - wear)",
      "return max(0, dice - wear), max(0, flat - wear)", EATERS,
      "a bite takes a die even while the flat bonus lasts"),
    mu("fights.py", "UNARMED_DAMAGE = 2", "UNARMED_DAMAGE = 1", FIGHTS,
      "unarmed damage 1, not 2 (DMG-1)"),
    mu("fights.py", "        if av > 0:", "        if av > 1:", f"{FIGHTS} {CLASSES}",
      "off by one: a piece of AV 1 absorbs nothing"),
    mu("fights.py", "xp = int(s.foe_max[e, k] * p[P_KILL_XP])",
      "xp = int(MONSTERS[kind, M_HEARTS] * p[P_KILL_XP])", f"{FIGHTS} {COURT}",
      "kill XP from the table's hearts, not the difficulty's"),
    mu("fights.py", "if s.level[e, m] < p[P_PRACTICE_MAX_LEVEL]:",
      "if s.level[e, m] <= p[P_PRACTICE_MAX_LEVEL]:", COURT,
      "< to <=: the practice level itself still earns XP"),
    mu("fights.py", "and s.item_wear[e, m, slot] < full_av(s, e, m, slot):",
      "and s.item_wear[e, m, slot] <= full_av(s, e, m, slot):", f"{EATERS} -k gear_eat_2",
      "< to <=: an armor eater grinds past 0 AV"),
    mu("fights.py", "s.xp[e, m] = max(0, s.xp[e, m] - XP_PER_DRAIN * damage)",
      "s.xp[e, m] = max(0, s.xp[e, m] - damage)", f"{EATERS} {FIGHTS}",
      "an XP drainer takes 1 XP a point, not 10"),
    mu("fights.py", "s.rations[e] = max(0, s.rations[e] - damage)",
      "s.rations[e] = s.rations[e] - damage", f"{EATERS} {FIGHTS}",
      "food thief's floor removed: rations go negative"),
    mu("fights.py", "wins += mine > theirs", "wins += mine >= theirs", f"{FIGHTS} {TIES}",
      "a tie counts as a win: no counter-blow on a tie (ATTACK-1)"),
    mu("fights.py", "if mine >= theirs and is_foe_alive(s, e, k):",
      "if mine > theirs and is_foe_alive(s, e, k):", f"{FIGHTS} {TIES}",
      ">= to >: a tie no longer hits the foe"),
    mu("fights.py",
      "theirs = MONSTERS[kind, M_DEF] + (0 if surprised else randint(rng, e, 20) + 1)",
      "theirs = MONSTERS[kind, M_DEF] + randint(rng, e, 20) + 1", f"{DOORS} {FIGHTS}",
      "a surprised foe still rolls its d20 (SNEAK-1)"),
    mu("fights.py", "damage = 6 * dice + flat", "damage = 6 * dice", CLASSES,
      "ferocious strike drops the flat bonus"),
    mu("fights.py", "damage += roll(rng, e, SMITE_UNDEAD_DICE if undead else SMITE_DICE)",
      "damage += roll(rng, e, SMITE_DICE if undead else SMITE_UNDEAD_DICE)", CLASSES,
      "swapped smite dice: 4d6 against the living"),
    mu("fights.py",
      "if is_foe_alive(s, e, k) and (target < 0 or s.foe_hp[e, k] < s.foe_hp[e, target]):",
      "if is_foe_alive(s, e, k) and (target < 0 or s.foe_hp[e, k] <= s.foe_hp[e, target]):",
      "tests/test_ally.py", "< to <=: the last of equally weak foes is struck, not the first"),
    mu("fights.py", "if front < 2:", "if front < 3:", f"{FIGHTS} {PARTY}",
      "the front is three members, not two (PARTY-2)"),
    mu("fights.py", "if rest > 0 and not chance(rng, e, p[P_FRONT_AIM]):",
      "if rest > 0 and chance(rng, e, p[P_FRONT_AIM]):", f"{FIGHTS} {PARTY}",
      "negated: the back is aimed at with the front chance"),
    mu("fights.py", "theirs = min(theirs, randint(rng, e, 20) + 1)\n    theirs += MONSTERS",
      "theirs = max(theirs, randint(rng, e, 20) + 1)\n    theirs += MONSTERS", SPELLS,
      "a blinded foe rolls with advantage instead of disadvantage"),
    mu("fights.py", "if theirs >= mine:\n        hit_member(", "if theirs > mine:\n        hit_member(",
      f"{FIGHTS} {TIES}",
      ">= to >: a tie no longer hits the member"),
    mu("fights.py", "if theirs <= mine and counters and is_standing(s, e, m):",
      "if theirs < mine and counters and is_standing(s, e, m):", f"{FIGHTS} {TIES}",
      "<= to <: no counter-blow on a tie"),
    mu("fights.py", "gold = roll(rng, e, int(p[P_WANDER_GOLD_DICE])) * f  # WANDER-3",
      "gold = roll(rng, e, int(p[P_WANDER_GOLD_DICE]))  # WANDER-3", FIGHTS,
      "floor factor removed from a wandering band's gold"),
    mu("fights.py", "if s.bout_down[e, m] and s.in_party[e, m] and s.hp[e, m] <= 0:",
      "if s.in_party[e, m] and s.hp[e, m] <= 0:", COURT,
      "a bout's end raises the dead too, not only those down in the bout"),
    mu("fights.py", "s.linger_xy[e, f, 0], s.linger_xy[e, f, 1] = s.x[e], s.y[e]",
      "s.linger_xy[e, f, 0], s.linger_xy[e, f, 1] = s.y[e], s.x[e]", LINGER,
      "swapped x and y of a lingering band's tile"),
    # --- party (HP-1..2, XP-1..4, LUCK-1..2) ----------------------------------------------
    mu("party.py", "if total < 6 and s.luck[e, m] > 0:", "if total < 6 and s.luck[e, m] >= 0:",
      PARTY, "> to >=: a luck die with no luck left"),
    mu("party.py", "    if total >= 6:", "    if total > 6:", PARTY,
      ">= to >: a death save of exactly 6 fails"),
    mu("party.py", "    if hp >= 1:", "    if hp > 1:", PARTY,
      "off by one: a wound to exactly 1 HP calls a death save"),
    mu("party.py", "s.hp[e, m] = max(hp, min(int(s.ceiling[e, m]), hp + amount))",
      "s.hp[e, m] = min(int(s.ceiling[e, m]), hp + amount)", f"{PARTY} {SPELLS}",
      "a heal lowers HP above the ceiling (aid) to the ceiling (HP-1)"),
    mu("party.py", "s.ceiling[e, m] = max(1, int(s.ceiling[e, m]) - amount)",
      "s.ceiling[e, m] = max(0, int(s.ceiling[e, m]) - amount)", f"{CHESTS} {BATHS}",
      "the ceiling's floor of 1 becomes 0"),
    mu("party.py", "return int(100 * int(level) * p[P_XP_FACTOR] + 0.5)",
      "return int(100 * (int(level) + 1) * p[P_XP_FACTOR] + 0.5)", PARTY,
      "off by one: a level costs the next level's XP (XP-3)"),
    mu("party.py", "if s.level[e, m] >= 4 and (s.level[e, m] - 4) % 3 == 0:",
      "if s.level[e, m] >= 4 and (s.level[e, m] - 3) % 3 == 0:", PARTY,
      "+1 attack at levels 6, 9, ... instead of 4, 7, 10 (XP-4)"),
    mu("party.py", "s.well[e, m] += 2", "s.well[e, m] += 1", PARTY,
      "a level adds 1 to the well, not 2 (XP-4)"),
    mu("party.py", "gain_xp(s, p, e, m, share + (1 if rest > 0 else 0), rng)",
      "gain_xp(s, p, e, m, share, rng)", PARTY, "the XP remainder is lost (XP-2)"),
    mu("party.py", "    s.luck[e, m] = 3\n    s.spells_known", "    s.luck[e, m] = 2\n    s.spells_known",
      PARTY, "a member starts with 2 luck dice, not 3 (LUCK-1)"),
    mu("party.py", "while s.xp[e, m] >= level_cost(p, s.level[e, m]):",
      "if s.xp[e, m] >= level_cost(p, s.level[e, m]):", PARTY,
      "one level per gain, not every level paid for (XP-3)"),
    # --- items (ITEM-1..2, RAISE-1) -------------------------------------------------------
    mu("items.py", "and s.raised[e, b] < MAX_RAISES", "and s.raised[e, b] <= MAX_RAISES",
      PARTY, "< to <=: a fourth raise (RAISE-1)"),
    mu("items.py", "and s.cls[e, b] != KING", "and True", PARTY,
      "the king can be raised (RAISE-1 says not)"),
    mu("items.py", "return s.mode[e] != FIGHT or s.hp[e, m] <= 0", "return True", PARTY,
      "in a fight a standing member's items change hands"),
    mu("items.py", "or (s.mode[e] == FIGHT and s.ally_kind[e] < 0)", "or s.mode[e] == FIGHT",
      "tests/test_ally.py",
      "a second ally can be summoned (ITEM-1: one at a time)"),
    mu("items.py", "return b == m and is_reader(s, e, m)", "return b == m", EFFECTS,
      "a non-reader reads scrolls"),
    # --- spells and class features (CLASS-1) ----------------------------------------------
    mu("spells.py", "cost = max(1, (cost + 1) // 2)", "cost = max(1, cost // 2)", SPELLS,
      "the signature spell's half cost rounds down, not up"),
    mu("spells.py", "damage_foe(s, p, e, m, t, MISSILE_DARTS * DART_DAMAGE, rng)",
      "damage_foe(s, p, e, m, t, MISSILE_DARTS + DART_DAMAGE, rng)", SPELLS,
      "* to +: magic missile does 5, not 6"),
    mu("spells.py", "if roll(rng, e, 1) >= FIREBOLT_KEEP:", "if roll(rng, e, 1) > FIREBOLT_KEEP:",
      SPELLS, ">= to >: firebolt keeps its mana 1/2 of the time, not 2/3"),
    mu("spells.py",
      "s.hp[e, t] = min(int(s.ceiling[e, t]) + AID_OVER, int(s.hp[e, t]) + roll(rng, e, 1))",
      "s.hp[e, t] = min(int(s.ceiling[e, t]), int(s.hp[e, t]) + roll(rng, e, 1))", SPELLS,
      "aid stops at the ceiling (it may go 6 past)"),
    mu("spells.py", "if randint(rng, e, 20) + 1 >= caster_roll(s, e, m, rng):",
      "if randint(rng, e, 20) + 1 > caster_roll(s, e, m, rng):", SPELLS,
      ">= to >: a tied save does not halve inflict"),
    mu("spells.py", "return s.decoys[e] < MAX_DECOYS", "return s.decoys[e] <= MAX_DECOYS",
      SPELLS, "< to <=: a fourth illusion"),
    mu("spells.py", "    mine += int(s.atk[e, m]) + magic_bonus(s, e, m, rng)",
      "    mine += magic_bonus(s, e, m, rng)", SPELLS,
      "a spell attack leaves out the caster's attack bonus"),
    mu("spells.py", "return max(1, int(POWERS[i, PW_COST]) - name_discount(s, e, m))",
      "return int(POWERS[i, PW_COST]) - name_discount(s, e, m)",
      f"tests/test_names.py {CLASSES}",
      "the true speaker's floor of 1 removed: a name spell can cost 0"),
    mu("classes.py", "return s.hp[e, m] >= 2 and s.mana[e, m] < s.well[e, m]",
      "return s.hp[e, m] >= 1 and s.mana[e, m] < s.well[e, m]", CLASSES,
      "off by one: blood magic from 1 HP (it would leave the Namer at 0)"),
    mu("classes.py", "cost = min(int(s.ceiling[e, t]) - int(s.hp[e, t]), int(s.mana[e, m]))",
      "cost = int(s.ceiling[e, t]) - int(s.hp[e, t])", CLASSES,
      "lay on hands heals more than the mana pays for"),
    mu("classes.py", "HOLY_WATER_DICE = 3", "HOLY_WATER_DICE = 2", CLASSES,
      "holy water 2d6, not 3d6"),
    mu("classes.py",
      "s.mana[e, m] = min(int(s.well[e, m]), int(s.mana[e, m]) + roll(rng, e, BLOOD_MANA_DICE))",
      "s.mana[e, m] = int(s.mana[e, m]) + roll(rng, e, BLOOD_MANA_DICE)", CLASSES,
      "blood magic's mana overflows the well"),
    mu("classes.py",
      "if i == DOUBLE and has_option(s, e, m, HERO, 2, HERO_BOWS) and bow_ready(s, e, m):",
      "if i == DOUBLE and has_option(s, e, m, HERO, 2, HERO_BOWS):", CLASSES,
      "the bows specialty's free double strike without a bow in hand"),
    mu("traits.py", "return max(0, damage - roll(rng, e, 1))",
      "return max(0, damage - roll(rng, e, 2))", CLASSES, "dodge takes 2d6, not 1d6"),
    mu("traits.py", "return av if s.item_dv[e, m, slot] > dv_floor(s, e, m, slot) else 0",
      "return av if s.item_dv[e, m, slot] >= dv_floor(s, e, m, slot) else 0",
      f"{CLASSES} {FIGHTS} -k 'armorer or dmg_1'",
      "> to >=: a piece at its DV floor still protects"),
    mu("traits.py", "if s.primed[e, m] & PRIME_DOUBLE or dual_wields(s, e, m):",
      "if s.primed[e, m] & PRIME_DOUBLE:", CLASSES,
      "dual-wielding no longer gives two attacks"),
    mu("traits.py", "a = max(a, randint(rng, e, 20) + 1)", "a = min(a, randint(rng, e, 20) + 1)",
      f"{CLASSES} {FIGHTS}", "advantage keeps the worse d20"),
    mu("traits.py", "= 0\n            s.blood_used[e, m] = False", "= 0\n        s.blood_used[e, m] = False",
      f"{CLASSES} -k blood_magic",
      "blood magic's ban ends on any other floor (a stair hop), not only a new one"),
    mu("traits.py", "WAND_CASTS = 3", "WAND_CASTS = 2", f"{CLASSES} {SPELLS}",
      "a wand holds 2 casts a floor, not 3"),
    # --- keeper (SIX-1) -------------------------------------------------------------------
    mu("keeper.py", "if ev & EV_FLED and f > 0:", "if ev & EV_FLED:", KEEPER,
      "fleeing a practice bout counts as a flight"),
    mu("keeper.py", "if s.pace[e] - s.report_pace[e] >= REPORT_PACES:",
      "if s.pace[e] - s.report_pace[e] > REPORT_PACES:", KEEPER,
      ">= to >: the report hint one pace late"),
    mu("keeper.py",
      "if (s.mode[e] == WALL or s.mode[e] == PLATE) and s.cls[e, s.worker[e]] != ROGUE:",
      "if s.mode[e] == WALL or s.mode[e] == PLATE:", KEEPER,
      "a Rogue working a lock triggers the vault hint"),
    mu("keeper.py", "continue  # it waits for pack room", "break  # it waits for pack room",
      KEEPER, "one gift waiting for pack room holds back every later gift"),
    # --- vaults (WALL-1, PLATE-1) ---------------------------------------------------------
    mu("vaults.py", "return 3 + (f - 1) // 3", "return 3 + f // 3", f"{VAULTS} -k 'plate1_subtask_plates or plate1_push_flips'",
      "off by one: the plate grows a floor early"),
    mu("vaults.py", "return 4 + f", "return 3 + f", f"{VAULTS} -k wall1_symbols_grow", "one symbol too few on the wall"),
    mu("vaults.py",
      "wound_worker(s, e, int(wrong * roll(rng, e, 1, 4) * p[P_WALL_WOUND] + 0.5), rng)",
      "wound_worker(s, e, int(right * roll(rng, e, 1, 4) * p[P_WALL_WOUND] + 0.5), rng)",
      f"{VAULTS} -k 'wall1_wrong_guess or wall1_hard_two'",
      "a wrong guess wounds by the rings right, not wrong"),
    mu("vaults.py", "wound_worker(s, e, roll(rng, e, 1, 4) * (tier_of(f) + 1), rng)",
      "wound_worker(s, e, roll(rng, e, 1, 4) * tier_of(f), rng)",
      f"{VAULTS} -k plate1_taking_a_push_back",
      "off by one: a plate taken back on tier 0 wounds nothing"),
    mu("vaults.py", "if s.plate_hints[e, f] == 0 and s.cls[e, s.worker[e]] == ROGUE:",
      "if s.cls[e, s.worker[e]] == ROGUE:",
      f"{VAULTS} -k 'plate1_rogue_gets or plate1_hint_costs'", "every hint is free for a Rogue, not the first"),
    mu("vaults.py", "return HINT_PRICE * int(f)", "return HINT_PRICE", f"{VAULTS} -k plate1_hint_costs",
      "floor factor removed from the hint price"),
    mu("vaults.py", "tier = min(3, tier_of(f) + 1)", "tier = min(3, tier_of(f))",
      f"{VAULTS} -k vault_rooms_hold_better_loot",
      "vault items from the floor's tier, not the next"),
    mu("vaults.py", "if s.cls[e, s.worker[e]] == ROGUE and s.wall_num_set[e, f] == 0:",
      "if s.cls[e, s.worker[e]] == ROGUE:",
      f"{VAULTS} -k 'wall1_rogue_knows or rogue_never_sets'", "the Rogue's known ring is set again mid-guess"),
    # --- loot, rooms, moving, monsters (LOOT-1, XP-2, MON-1, MAP-5, SECRET-2) -------------
    mu("loot.py", "s.room_gold[e, f, r] = roll(g, 0, int(p[P_ROOM_GOLD_DICE])) * f",
      "s.room_gold[e, f, r] = roll(g, 0, int(p[P_ROOM_GOLD_DICE]))",
      "tests/test_tunables.py -k room_gold",
      "floor factor removed from a room's gold"),
    mu("loot.py", "share_xp(s, p, e, gold, rng)  # XP-2: 1 per coin",
      "share_xp(s, p, e, gold // 2, rng)  # XP-2: 1 per coin", f"{PARTY} {QUEST}",
      "1 XP per 2 coins, not per coin"),
    mu("loot.py", "if kind > 0 and not shut and take_item(s, e, kind):",
      "if kind > 0 and take_item(s, e, kind):", CHESTS,
      "a shut chest gives up its items to LOOT"),
    mu("loot.py", "BOOK_XP = 100", "BOOK_XP = 50", f"{PARTY} {QUEST}", "the book shares 50 XP"),
    mu("loot.py",
      "roll_band(p, f, 1 if quest else 0, g, 0, s.band_kind[e, f, r], s.band_hp[e, f, r])",
      "roll_band(p, f, 0, g, 0, s.band_kind[e, f, r], s.band_hp[e, f, r])",
      f"{QUEST} {BESTIARY}", "the book's and king's guards are no stronger (MON-1)"),
    mu("rooms.py", "NEW_ROOM_XP = 15", "NEW_ROOM_XP = 10", f"{PARTY} {QUEST}",
      "a new room shares 10 XP, not 15"),
    mu("rooms.py", "if has_band(s, e, f, r) and sneaker >= 0 and",
      "if has_band(s, e, f, r) and sneaker > 0 and", DOORS,
      "off by one: member slot 0 cannot sneak in"),
    mu("moving.py", "return tile == STAIR_DOWN and (s.maps_held[e] >> f) != 0",
      "return tile == STAIR_DOWN and (s.maps_held[e] >> (f + 1)) != 0", FLOORS,
      "off by one: the stair needs the next floor's map"),
    mu("moving.py",
      "if s.tiles[e, f, ny, nx] == SECRET and (lit or chance(rng, e, p[P_SEARCH_FIND])):",
      "if s.tiles[e, f, ny, nx] == SECRET and chance(rng, e, p[P_SEARCH_FIND]):",
      f"{EFFECTS} {FLOORS}", "LIGHT no longer finds every secret door (SECRET-2)"),
    mu("moving.py", "        refill_luck(s, e)", "        pass", PARTY,
      "luck is not refilled on a new floor (LUCK-1)"),
    mu("monsters.py", "return max(1, int(MONSTERS[kind, M_HEARTS] * p[P_MONSTER_HEARTS] + 0.5))",
      "return max(1, int(MONSTERS[kind, M_HEARTS] * p[P_MONSTER_HEARTS]))",
      f"{FIGHTS} {QUEST}", "monster hearts round down, not half up (DIFF-1)"),
    mu("monsters.py", "count = min(MAX_FOES, 1 + randint(rng, e, most) + extra)",
      "count = min(MAX_FOES, randint(rng, e, most) + extra)", f"{FIGHTS} {BESTIARY}",
      "off by one: a band of 0..most-1"),
    mu("monsters.py", "most = int(p[P_BAND_SIZE]) + int(p[P_BAND_SIZE_PER_TIER]) * tier",
      "most = int(p[P_BAND_SIZE]) + int(p[P_BAND_SIZE_PER_TIER]) * (tier + 1)",
      f"{FIGHTS} {BESTIARY}", "off by one tier in the band size"),
    # --- quest and court (RUN-1..2, COURT-1..2) -------------------------------------------
    mu("quest.py", "if king_dead or num_standing(s, e) == 0:", "if num_standing(s, e) == 0:",
      QUEST, "the king's death no longer loses the game"),
    mu("quest.py", "elif s.floor[e] == 0 and s.has_king[e]:",
      "elif s.floor[e] == 0 and s.has_book[e]:", QUEST,
      "the book, not the king, wins in the courtyard"),
    mu("quest.py", "if r == s.king_room[e] and s.band_kind[e, f, r, 0] < 0:",
      "if r == s.king_room[e]:", f"{QUEST} {PARTY}", "the king joins while his guards still stand"),
    mu("quest.py", "KING_XP = 100", "KING_XP = 10", f"{QUEST} {PARTY}", "the king shares 10 XP, not 100"),
    mu("court.py", "DUMMY_FLOOR = 1", "DUMMY_FLOOR = 2", COURT,
      "practice dummies rolled as floor 2's band"),
    mu("court.py", "return s.floor[e] == 0 and s.mode[e] == EXPLORE and num_standing(s, e) > 0",
      "return s.mode[e] == EXPLORE and num_standing(s, e) > 0", COURT,
      "practice offered on any floor, not only the courtyard"),
    # --- issue 48: multipliers at two values, odd thresholds, both bounds of a draw ---------
    # stores
    mu("stores.py", "return int(f) // STORE_FLOOR_EVERY",
      "return min(1, int(f) // STORE_FLOOR_EVERY)", STORES,
      "every store below the courtyard is floor 3's (the level multiplier held at 1)"),
    mu("stores.py", "return store_price(repair_points(s, e, m, slot), store_level(s, e))",
      "return store_price(repair_points(s, e, m, slot), 0)", STORES,
      "a repair ignores the store's factor (right only in the courtyard)"),
    mu("stores.py", "return store_price(RATIONS_PRICE, level)", "return RATIONS_PRICE", STORES,
      "rations cost the courtyard's price in every store"),
    mu("stores.py", "s.item_dv[e, m, slot] = ITEMS[s.item[e, m, slot], I_DV]", "pass", STORES,
      "a repair removes the wear but leaves the durability lost (STORE-2: as new)"),
    mu("stores.py", "return int(price) // 2", "return (int(price) + 1) // 2", STORES,
      "a sale of an odd-priced kind pays half rounded up, not down"),
    mu("stores.py", "return s.gold[e] >= repair_price(s, e, m, slot)",
      "return s.gold[e] > repair_price(s, e, m, slot)", STORES,
      ">= to >: exactly the repair's price in gold cannot repair"),
    # bribes
    mu("bribes.py", "return PRICE_PER_FACTOR * int(s.floor[e]) * total",
      "return PRICE_PER_FACTOR * total", BRIBES,
      "floor factor dropped from the bribe price (right only on floor 1)"),
    mu("bribes.py", "total += int(MONSTERS[s.foe_kind[e, k], M_PRICE])", "total += 1", BRIBES,
      "the price counts monsters, not their price factors (right for factor-1 kinds)"),
    mu("bribes.py", "lowest = min(MOST_CHANCE, lowest + GOODWILL_POINTS)",
      "lowest = min(MOST_CHANCE, lowest)", BRIBES,
      "goodwill adds nothing to the chance (BRIBE-3's first property)"),
    mu("bribes.py", "        reveal_floor(s, e, f)", "        pass", BRIBES,
      "a band paid under goodwill reveals nothing (BRIBE-3: the whole floor)"),
    mu("bribes.py", "    s.goodwill[e] = False", "    pass", BRIBES,
      "goodwill outlasts the bribe it paid for: equivalent, the fight has ended, goodwill is "
      "shown only in a fight and `fights.start_fight` clears it before the next one"),
    # statues and their placement
    mu("statues.py", "elif 2 * amount < threshold:", "elif amount < threshold // 2:", STATUES,
      "2*x < T to x < T//2: an odd T's bid of (T-1)/2 no longer destroys"),
    mu("statues.py", "return MEND_PRICE * int(s.floor[e])", "return MEND_PRICE", STATUES,
      "floor factor dropped from the mend price (right only on floor 1)"),
    mu("statues.py", "return int(q) * int(s.statue_price[e, s.floor[e]]) // 4",
      "return int(q) * (int(s.statue_price[e, s.floor[e]]) // 4)", STATUES,
      "a bid rounds the quarter first (wrong for a price not a multiple of 4)"),
    mu("features.py", "price = int(p[P_STATUE_PRICE]) * int(f)", "price = int(p[P_STATUE_PRICE])",
      STATUES, "floor factor dropped from the statue's price"),
    mu("features.py", "randint(g, 0, price - price // 4 + 1) + price // 4",
      "randint(g, 0, price - price // 4) + price // 4", STATUES,
      "the secret threshold never reaches P (the range's upper bound one short)"),
    mu("features.py", "randint(g, 0, price - price // 4 + 1) + price // 4",
      "randint(g, 0, price + 1)", STATUES,
      "the secret threshold drawn from 0, not P/4 (the range's lower bound moved)"),
    mu("features.py", "if f % STORE_FLOOR_EVERY == 0:", "if f == STORE_FLOOR_EVERY:", STORES,
      "only floor 3 gets a store, not 6, 9, 12"),
    # food
    mu("food.py", "return 2 * paces if is_running(s, e, SATED) else paces",
      "return paces + 120 if is_running(s, e, SATED) else paces", f"{CLOCK} {EFFECTS}",
      "SATED adds 120 paces instead of doubling (right only at the default 120)"),
    mu("food.py", "            if s.rations[e] > 0:", "            if s.rations[e] > 1:",
      CLOCK, "off by one: the last ration is never eaten"),
    # chests
    mu("chests.py", "        avoid += TRAP_AVOID_EXPERT", "        avoid += 0.0",
      f"{CLASSES} -k expertise",
      "the expertise Rogue's +20 trap avoidance is lost"),
    mu("chests.py", "wound(s, e, m, roll(rng, e, 2), rng)", "wound(s, e, m, roll(rng, e, 1), rng)",
      CHESTS, "the wound trap 1d6, not 2d6 (the upper bound)"),
    mu("chests.py", "lower_ceiling(s, e, m, roll(rng, e, 1, 3))",
      "lower_ceiling(s, e, m, randint(rng, e, 3))", CHESTS,
      "the ceiling trap 0..2, not 1d3 (the lower bound)"),
    mu("chests.py", "wound(s, e, b, roll(rng, e, 1, 4), rng)",
      "wound(s, e, b, roll(rng, e, 1, 3), rng)", CHESTS, "the gas d3, not d4 (the upper bound)"),
    mu("chests.py", "wound(s, e, b, roll(rng, e, 1, 4), rng)",
      "wound(s, e, b, randint(rng, e, 4), rng)", CHESTS, "the gas 0..3, not d4 (the lower bound)"),
    mu("chests.py", "trap = p[P_CHEST_TRAP] + p[P_CHEST_TRAP_PER_FLOOR] * int(f)",
      "trap = p[P_CHEST_TRAP] + p[P_CHEST_TRAP_PER_FLOOR]", CHESTS,
      "floor factor dropped from the trap chance (right only on floor 1)"),
    # baths
    mu("baths.py", "XP_LOSS_STEP * roll(rng, e, 1))", "XP_LOSS_STEP * (roll(rng, e, 1) - 1))", BATHS,
      "XP loss 0..5 x 10, not 1d6 x 10 (the lower bound)"),
    mu("baths.py", "raise_ceiling(s, e, m, roll(rng, e, 1))",
      "raise_ceiling(s, e, m, roll(rng, e, 1) - 1)", BATHS, "ceiling up 0..5, not 1d6 (the lower bound)"),
    mu("baths.py", "lower_ceiling(s, e, m, roll(rng, e, 1, 3))",
      "lower_ceiling(s, e, m, roll(rng, e, 1, 2))", BATHS, "ceiling down d2, not d3 (the upper bound)"),
    mu("baths.py", "heal(s, e, m, int(s.ceiling[e, m]))", "heal(s, e, m, int(s.ceiling[e, m]) // 2)",
      BATHS, "the heal outcome heals half the ceiling, not fully"),
    # party
    mu("party.py", "hp = CLASSES[cls, C_HP] + (roll(rng, e, 1) if CLASSES[cls, C_HP_DIE] else 0)",
      "hp = CLASSES[cls, C_HP] + (randint(rng, e, 6) if CLASSES[cls, C_HP_DIE] else 0)", PARTY,
      "a starting HP die of 0..5, not 1d6 (the lower bound)"),
    mu("party.py", "    raise_ceiling(s, e, m, roll(rng, e, 1))",
      "    raise_ceiling(s, e, m, randint(rng, e, 6))", PARTY,
      "a level's ceiling gain 0..5, not 1d6 (XP-4, the lower bound)"),
    mu("party.py", "return int(100 * int(level) * p[P_XP_FACTOR] + 0.5)",
      "return int(100 * p[P_XP_FACTOR] + 0.5)", PARTY,
      "the level dropped from a level's cost (right only at level 1)"),
    mu("party.py", "if s.level[e, m] >= 4 and (s.level[e, m] - 4) % 3 == 0:",
      "if s.level[e, m] == 4:", PARTY, "+1 attack at level 4 only, not 7, 10 (XP-4)"),
    mu("party.py", "if total < 6 and s.luck[e, m] > 0:", "if total < 5 and s.luck[e, m] > 0:",
      PARTY, "no luck die on a save of exactly 5"),
    mu("party.py", "        s.luck[e, m] -= 1  # LUCK-2", "        pass  # LUCK-2", PARTY,
      "a luck die is not spent (LUCK-2's second property)"),
    mu("party.py", "share, rest = amount // n, amount % n", "share, rest = amount // n, 0",
      PARTY, "the remainder is dropped (XP-2; right when the amount divides)"),
    # items
    mu("items.py", "heal(s, e, b, roll(rng, e, dice))", "heal(s, e, b, roll(rng, e, 1))", PARTY,
      "ale heals 1d6, not 2d6 (the upper bound)"),
    mu("items.py", "raise_ceiling(s, e, b, roll(rng, e, dice))",
      "raise_ceiling(s, e, b, randint(rng, e, 6))", PARTY,
      "a gem adds 0..5, not 1d6 (the lower bound)"),
    mu("items.py", "lower_ceiling(s, e, b, randint(rng, e, dice) + 1)",
      "lower_ceiling(s, e, b, randint(rng, e, dice))", PARTY,
      "a bitter draught lowers 0..2, not 1d3 (the lower bound)"),
    mu("items.py", "        s.item_wear[e, b, READY] = 0", "        pass", PARTY,
      "a honing stone mends nothing"),
    # loot, monsters, vaults (generation)
    mu("loot.py", "s.room_gold[e, f, r] = roll(g, 0, int(p[P_ROOM_GOLD_DICE])) * f",
      "s.room_gold[e, f, r] = roll(g, 0, 1) * f", "tests/test_tunables.py -k room_gold",
      "a room's gold is 1d6 x floor whatever room_gold_dice says"),
    mu("loot.py", "s.room_pages[e, f, r, i] = randint(g, 0, NUM_SPELLS)",
      "s.room_pages[e, f, r, i] = randint(g, 0, NUM_SPELLS - 1)", f"{QUEST} {FLOORS}",
      "the last spell's page is never dropped (the draw's upper bound)"),
    mu("loot.py", "s.room_map[e, f, randint(g, 0, n)] = True",
      "s.room_map[e, f, randint(g, 0, n - 1)] = True", FLOORS,
      "the floor's last room never holds the map (the draw's upper bound)"),
    mu("monsters.py", "return TIER_KINDS[tier_of(floor), randint(rng, e, KINDS_PER_TIER)]",
      "return TIER_KINDS[tier_of(floor), randint(rng, e, KINDS_PER_TIER - 1)]",
      f"{BESTIARY} {FIGHTS}", "a tier's last kind never appears (the draw's upper bound)"),
    mu("vaults.py", "int(p[P_VAULT_GOLD_FACTOR]) * roll(g, 0, int(p[P_ROOM_GOLD_DICE])) * f",
      "int(p[P_VAULT_GOLD_FACTOR]) * roll(g, 0, int(p[P_ROOM_GOLD_DICE]))",
      "tests/test_tunables.py -k vault_gold_factor",
      "floor factor dropped from a vault's added gold"),
    mu("vaults.py", "wound_worker(s, e, roll(rng, e, 1, 4) * (tier_of(f) + 1), rng)",
      "wound_worker(s, e, roll(rng, e, 1, 4) + tier_of(f), rng)",
      f"{VAULTS} -k plate1_taking_a_push_back",
      "a take-back wounds d4 + tier, not d4 x (tier + 1) (right on tier 0)"),
    mu("vaults.py",
      "wound_worker(s, e, int(wrong * roll(rng, e, 1, 4) * p[P_WALL_WOUND] + 0.5), rng)",
      "wound_worker(s, e, int(roll(rng, e, 1, 4) * p[P_WALL_WOUND] + 0.5), rng)",
      f"{VAULTS} -k 'wall1_wrong_guess or wall1_hard_two'",
      "a wrong guess wounds d4 x factor, not x rings wrong (right for one ring wrong)"),
    mu("vaults.py", "s.wall_combo[e, f, i] = randint(g, 0, num_symbols(f))",
      "s.wall_combo[e, f, i] = randint(g, 0, num_symbols(f) - 1)",
      f"{VAULTS} -k 'wall1_symbols_grow or wall1_answer'",
      "a wall's last symbol is never in the answer (the draw's upper bound)"),
    # fights
    mu("fights.py", "xp = int(s.foe_max[e, k] * p[P_KILL_XP])", "xp = int(p[P_KILL_XP])",
      f"{FIGHTS} {COURT}", "kill XP without the hearts (right for 1-heart monsters)"),
    mu("fights.py", "gain_xp(s, p, e, m, int(xp * p[P_PRACTICE_XP]), rng)",
      "gain_xp(s, p, e, m, xp, rng)", COURT, "a practice kill gives the whole XP, not its share"),
    mu("fights.py", "pick = randint(rng, e, front)", "pick = 0", f"{FIGHTS} {PARTY}",
      "the second front member is never aimed at (the draw's range)"),
    mu("fights.py", "    return roll(rng, e, dice) + flat", "    return roll(rng, e, dice)",
      FIGHTS, "a weapon's flat bonus is dropped (DMG-1)"),
    mu("fights.py", "damage = roll(rng, e, MONSTERS[kind, M_DICE]) + MONSTERS[kind, M_FLAT]",
      "damage = roll(rng, e, MONSTERS[kind, M_DICE])", f"{FIGHTS} {EATERS}",
      "a monster's flat damage is dropped from its special's blow"),
    mu("fights.py", "damage = roll(rng, e, HOLY_SWORD_DICE) - MONSTERS[foe, M_AV]",
      "damage = roll(rng, e, HOLY_SWORD_DICE)", CLASSES, "the holy sword ignores armor"),
    # spells
    mu("spells.py", "int(s.hp[e, t]) + roll(rng, e, 1))", "int(s.hp[e, t]) + randint(rng, e, 6))",
      SPELLS, "aid heals 0..5, not 1d6 (the lower bound)"),
    mu("spells.py", "        damage = roll(rng, e, 4)", "        damage = roll(rng, e, 3)", SPELLS,
      "inflict wounds 3d6, not 4d6"),
    mu("spells.py", "if caster_roll(s, e, m, rng) > save:", "if caster_roll(s, e, m, rng) >= save:",
      SPELLS, "> to >=: a tied truth contest tells the floor"),
    mu("spells.py", "damage_foe(s, p, e, m, t, roll(rng, e, 3), rng)\n        if is_foe_alive",
      "damage_foe(s, p, e, m, t, roll(rng, e, 2), rng)\n        if is_foe_alive", SPELLS,
      "guiding bolt 2d6, not 3d6"),
    mu("spells.py", "        if is_foe_alive(s, e, t):\n            mark_foe(s, e, t, FS_MARKED)\n\n",
      "        if is_foe_alive(s, e, t):\n            pass\n\n", SPELLS,
      "guiding bolt no longer marks (its second property)"),
    # classes and traits
    mu("classes.py", "SECOND_WIND_DICE = 1", "SECOND_WIND_DICE = 2", CLASS_DICE,
      "second wind 2d6, not 1d6"),
    mu("classes.py", "HEALING_TOUCH_DICE = 2", "HEALING_TOUCH_DICE = 1", CLASS_DICE,
      "the healer's touch 1d6, not 2d6"),
    mu("classes.py", "BLOOD_MANA_DICE = 1", "BLOOD_MANA_DICE = 2", CLASS_DICE,
      "blood magic 2d6 mana, not 1d6"),
    mu("traits.py", "ARMORER_AV = 1", "ARMORER_AV = 2", CLASSES, "the Armorer's armor +2 AV, not +1"),
    mu("traits.py", "ARMORER_DV = 5", "ARMORER_DV = 4", CLASSES, "the Armorer's armor +4 DV, not +5"),
    mu("traits.py", "return roll(rng, e, 1) if s.primed[e, m] & PRIME_FOCUS else 0",
      "return randint(rng, e, 6) if s.primed[e, m] & PRIME_FOCUS else 0", CLASS_DICE,
      "focus adds 0..5, not 1d6 (the lower bound)"),
    mu("traits.py", "return max(0, damage - roll(rng, e, 1))",
      "return max(0, damage - randint(rng, e, 6))", CLASS_DICE,
      "dodge takes 0..5, not 1d6 (the lower bound)"),
    # thresholds and a search's doubling
    mu("statues.py", "return s.gold[e] >= bid_amount(s, e, q)", "return s.gold[e] > bid_amount(s, e, q)",
      STATUES, ">= to >: exactly a bid's gold cannot bid"),
    mu("powers.py", "return s.mana[e, m] >= power_cost(s, p, e, m, i)",
      "return s.mana[e, m] > power_cost(s, p, e, m, i)", f"{SPELLS} {CLASSES}",
      ">= to >: exactly a power's cost in mana cannot pay for it"),
    mu("keeper.py", "if ev & EV_AMBUSH and s.fight_room[e] >= 0:",
      "if ev & EV_AMBUSH and s.fight_room[e] > 0:", KEEPER,
      "off by one: an ambush at room 0's door is no keeper event"),
    mu("wander.py", "return junction if hunting else 2 * junction",
      "return junction if hunting else junction + 0.03", EFFECTS,
      "a search adds 0.03 to the junction chance instead of doubling it (right at 0.03 only)"),
    mu("food.py", "if s.meal_clock[e] >= meal_interval(s, p, e):",
      "if s.meal_clock[e] // 2 >= meal_interval(s, p, e) // 2:", CLOCK,
      "x >= t to x//2 >= t//2: an odd meal interval's meal comes a pace early"),
    mu("food.py", "if s.heal_clock[e] >= p[P_HEAL_PACES]:",
      "if s.heal_clock[e] // 2 >= p[P_HEAL_PACES] // 2:", CLOCK,
      "x >= t to x//2 >= t//2: an odd heal interval heals a pace early"),
    # spell and name spell dice
    mu("spells.py", "damage_foe(s, p, e, m, t, roll(rng, e, 2), rng)\n        if roll(rng, e, 1) >= FIREBOLT_KEEP",
      "damage_foe(s, p, e, m, t, roll(rng, e, 2, 5), rng)\n        if roll(rng, e, 1) >= FIREBOLT_KEEP",
      f"{SPELLS} -k 'dice_show_both or firebolt'", "firebolt 2d5, not 2d6 (the upper bound)"),
    mu("spells.py", "damage_foe(s, p, e, m, t, roll(rng, e, 2), rng)\n        else:\n            end_foul_ward",
      "damage_foe(s, p, e, m, t, roll(rng, e, 1) + randint(rng, e, 6), rng)\n        else:\n            end_foul_ward",
      f"{SPELLS} -k 'dice_show_both or dispel'", "dispel magic 1..11, not 2d6 (the lower bound)"),
    mu("spells.py", "damage_foe(s, p, e, m, t, roll(rng, e, 3), rng)\n        if is_foe_alive",
      "damage_foe(s, p, e, m, t, roll(rng, e, 3, 5), rng)\n        if is_foe_alive",
      f"{SPELLS} -k 'dice_show_both or guiding'", "guiding bolt 3d5, not 3d6 (the upper bound)"),
    mu("spells.py", "if j == N_FIRE:\n        damage_foe(s, p, e, m, t, roll(rng, e, 2), rng)",
      "if j == N_FIRE:\n        damage_foe(s, p, e, m, t, roll(rng, e, 2, 5), rng)",
      "tests/test_names.py", "project fire 2d5, not 2d6 (the upper bound)"),
    mu("spells.py", "elif j == N_LIGHTNING:\n        damage_foe(s, p, e, m, t, roll(rng, e, 3), rng)",
      "elif j == N_LIGHTNING:\n        damage_foe(s, p, e, m, t, roll(rng, e, 2), rng)",
      "tests/test_names.py", "project lightning 2d6, not 3d6"),
    mu("spells.py", "elif j == N_WATER:\n        heal(s, e, t, roll(rng, e, 1))",
      "elif j == N_WATER:\n        heal(s, e, t, randint(rng, e, 6))",
      "tests/test_names.py", "create water heals 0..5, not 1d6 (the lower bound)"),
    mu("dungeon.py", "s.book_floor[e] = (depth + 1) // 2", "s.book_floor[e] = depth // 2 + 1",
      f"{QUEST} -k run_2_the_book", "the book one floor deeper at an even depth (right at odd D)"),
    # --- effects kept apart (EFFECT-1): an effect leaking into the heal or meal clock ------
    # (appended, so the ids above stay as docs/BENCHMARKS.md cites them; food.py has no WARD,
    # ESP or LIGHT name: 0, 1 and 3 are their tables.py indices)
    mu("food.py", "s.heal_clock[e] += 1", "s.heal_clock[e] += 0 if is_running(s, e, 0) else 1",
      ISOLATION, "leak: while WARD runs the heal clock stands still"),
    mu("food.py", "s.meal_clock[e] += 1", "s.meal_clock[e] += 0 if is_running(s, e, 0) else 1",
      ISOLATION, "leak: while WARD runs the meal clock stands still"),
    mu("food.py", "if s.heal_clock[e] >= p[P_HEAL_PACES]:",
      "if s.heal_clock[e] >= p[P_HEAL_PACES] * (2 if is_running(s, e, 1) else 1):", ISOLATION,
      "leak: ESP doubles the heal interval"),
    mu("food.py", "return 2 * paces if is_running(s, e, SATED) else paces",
      "return 2 * paces if is_running(s, e, SATED) or is_running(s, e, 1) else paces", ISOLATION,
      "leak: ESP doubles the meal interval as SATED does"),
    mu("food.py", "if s.heal_clock[e] >= p[P_HEAL_PACES]:",
      "if s.heal_clock[e] >= p[P_HEAL_PACES] * (2 if is_running(s, e, SATED) else 1):",
      ISOLATION, "leak: SATED doubles the heal interval too, not only the meal interval"),
    mu("food.py", "s.meal_clock[e] += 1", "s.meal_clock[e] += 0 if is_running(s, e, SATED) else 1",
      f"{ISOLATION} {EFFECTS}", "leak: the meal clock stands still under SATED (FOOD-4: it counts)"),
    mu("food.py", "s.heal_clock[e] += 1", "s.heal_clock[e] += 2 if is_running(s, e, 3) else 1",
      ISOLATION, "leak: LIGHT makes the heal clock run twice as fast"),
    mu("food.py", "s.meal_clock[e] += 1", "s.meal_clock[e] += 2 if is_running(s, e, 3) else 1",
      ISOLATION, "leak: LIGHT makes the meal clock run twice as fast"),
    mu("effects.py", "s.effects[e, k] -= 1",
      "s.effects[e, k] -= 1; s.heal_clock[e] = 0 if s.effects[e, k] == 0 else s.heal_clock[e]",
      ISOLATION, "leak: any effect running out restarts the heal clock"),
    mu("doors.py", "esp = s.effects[e, ESP] > 0", "esp = s.effects[e, ESP] > 0; s.meal_clock[e] -= esp",
      ISOLATION, "leak: a listen under ESP costs the meal clock no pace"),
    mu("moving.py", "lit = is_running(s, e, LIGHT)", "lit = is_running(s, e, LIGHT); s.heal_clock[e] += lit",
      ISOLATION, "leak: a search under LIGHT counts two paces on the heal clock"),
    mu("effects.py", "return 2.0 if s.ward_foul[e] else 0.5",
      "s.meal_clock[e] += 1; return 2.0 if s.ward_foul[e] else 0.5", ISOLATION,
      "leak: the wandering roll under WARD also ticks the meal clock"),
)
# fmt: on


@dataclass
class Result:
    id: int
    module: str
    original: str
    replacement: str
    description: str
    tests: list[str]
    status: str  # caught, survived, timeout, stale, baseline-fails
    seconds: float = 0.0
    line: int = 0  # the line number of the original in the file, 0 if stale
    detail: str = field(default="", repr=False)


def locate(mutant: Mutant) -> tuple[int, str]:
    """(line number, "") of the mutant's original in its file, or (0, why) when stale."""
    path = engine_file(ROOT, mutant.module)
    if not path.exists():
        return 0, f"{path} is gone"
    text = path.read_text()
    n = text.count(mutant.original)
    if n != 1:
        return 0, f"found {n} times"
    return text[: text.index(mutant.original)].count("\n") + 1, ""


def copy_checkout(dest: Path) -> Path:
    tree = dest / "checkout"
    shutil.copytree(ROOT, tree, ignore=IGNORE, symlinks=True)
    return tree


def run_tests(tree: Path, tests: tuple[str, ...], timeout: float, compiled: bool):
    """Run pytest on `tests` inside `tree`: ("passed" | "failed" | "timeout", secs, tail)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if compiled:
        env.pop("NUMBA_DISABLE_JIT", None)
        env["NUMBA_CACHE_DIR"] = str(tree / ".numba-cache")
    else:
        env["NUMBA_DISABLE_JIT"] = "1"
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start, ""
    secs = time.perf_counter() - start
    tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
    if proc.returncode == 0:
        return "passed", secs, tail
    if proc.returncode == 5:  # no tests collected: a broken -k, not a caught mutant
        return "error", secs, tail
    return "failed", secs, tail


def check_copy_imports(timeout: float) -> None:
    """The tests of a copy must import the copy's delve_env, not an installed one."""
    with tempfile.TemporaryDirectory(prefix="delve-mutants-") as tmp:
        tree = copy_checkout(Path(tmp))
        env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_DISABLE_JIT="1")
        code = "import delve_env; print(delve_env.__file__)"
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True,
            timeout=timeout,
        ).stdout.strip()  # fmt: skip
        if not out.startswith(str(tree)):
            sys.exit(f"mutants: a copy imports delve_env from {out!r}, not the copy")


def run_mutant(i: int, mutant: Mutant, timeout: float, compiled: bool) -> Result:
    line, why = locate(mutant)
    res = Result(i, mutant.module, mutant.original.strip(), mutant.replacement.strip(),
                 mutant.description, list(mutant.tests), "stale", line=line, detail=why)  # fmt: skip
    if not line:
        return res
    with tempfile.TemporaryDirectory(prefix="delve-mutants-") as tmp:
        tree = copy_checkout(Path(tmp))
        path = engine_file(tree, mutant.module)
        text = path.read_text()
        if text.count(mutant.original) != 1:  # changed between the check and the copy
            res.line, res.detail = 0, "changed while copying"
            return res
        path.write_text(text.replace(mutant.original, mutant.replacement, 1))
        outcome, res.seconds, res.detail = run_tests(tree, mutant.tests, timeout, compiled)
    res.status = {"failed": "caught", "passed": "survived"}.get(outcome, outcome)
    return res


def run_baseline(selections, timeout, compiled, jobs, say) -> dict:
    """Each distinct test selection on an unmutated copy: {tests: (outcome, secs, tail)}."""

    def one(tests):
        with tempfile.TemporaryDirectory(prefix="delve-mutants-") as tmp:
            return tests, run_tests(copy_checkout(Path(tmp)), tests, timeout, compiled)

    out = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for tests, got in pool.map(one, selections):
            out[tests] = got
            say(f"  baseline {shlex.join(tests)}: {got[0]} in {got[1]:.1f}s")
    return out


def one_line(text: str) -> str:
    """A mutant's source text on one line (a piece may span two lines to be unique)."""
    return text.strip().replace("\n", " \\n ")


def summarize(results: list[Result]) -> dict:
    modules: dict[str, dict] = {}
    for r in results:
        row = modules.setdefault(r.module, {"mutants": 0, "caught": 0, "timeout": 0,
                                            "survived": 0, "stale": 0, "error": 0})  # fmt: skip
        row["mutants"] += 1
        key = r.status if r.status in row else "stale"
        row[key] += 1
    counted = [r for r in results if r.status in ("caught", "timeout", "survived")]
    killed = sum(r.status in ("caught", "timeout") for r in counted)
    return {
        "modules": modules,
        "run": len(counted),
        "killed": killed,
        "score": killed / len(counted) if counted else None,
        "seconds": sum(r.seconds for r in results),
    }


def print_table(results: list[Result], summary: dict) -> None:
    print()
    head = f"{'module':<13}{'mutants':>8}{'caught':>8}{'timeout':>8}{'survived':>9}{'stale':>7}"
    print(head)
    print("-" * len(head))
    for mod, row in sorted(summary["modules"].items()):
        stale = row["stale"] + row["error"]
        print(
            f"{mod:<13}{row['mutants']:>8}{row['caught']:>8}{row['timeout']:>8}"
            f"{row['survived']:>9}{stale:>7}"
        )
    print("-" * len(head))
    if summary["score"] is None:
        print("score: no mutant run")
    else:
        print(
            f"score: {summary['killed']} of {summary['run']} caught "
            f"({100 * summary['score']:.1f}%), {summary['seconds']:.0f}s of tests"
        )
    survivors = [r for r in results if r.status == "survived"]
    if survivors:
        print("\nsurvivors:")
        for r in survivors:
            print(f"  #{r.id} {r.module}:{r.line}  {r.description}")
            print(f"      - {one_line(r.original)}\n      + {one_line(r.replacement)}")
            print(f"      tests: {shlex.join(r.tests)}")
    others = [r for r in results if r.status in ("stale", "error", "baseline-fails")]
    if others:
        print("\nnot counted:")
        for r in others:
            print(f"  #{r.id} {r.module} [{r.status}] {r.detail.splitlines()[-1:] or ''}")
            print(f"      {one_line(r.original)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="modules to run, comma-separated (stores,bribes or stores.py)")
    ap.add_argument("--ids", help="mutant ids to run, comma-separated (see --list)")
    ap.add_argument("--list", action="store_true", help="print the mutants, run nothing")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per test run")
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip checking that each test selection passes unmutated")  # fmt: skip
    ap.add_argument("--compiled", action="store_true",
                    help="run the tests compiled (own numba cache per mutant: slow)")  # fmt: skip
    args = ap.parse_args(argv)

    chosen = list(enumerate(MUTANTS, 1))
    if args.only:
        mods = {m.strip().removesuffix(".py") + ".py" for m in args.only.split(",") if m.strip()}
        unknown = mods - {m.module for m in MUTANTS}
        if unknown:
            ap.error(f"no mutants in {sorted(unknown)}")
        chosen = [(i, m) for i, m in chosen if m.module in mods]
    if args.ids:
        ids = {int(x) for x in args.ids.split(",") if x.strip()}
        chosen = [(i, m) for i, m in chosen if i in ids]

    if args.list:
        if args.json:
            rows = []
            for i, m in chosen:
                line, why = locate(m)
                rows.append({"id": i, **asdict(m), "line": line, "stale": why})
            print(json.dumps(rows, indent=1))
            return 0
        for i, m in chosen:
            line, why = locate(m)
            where = f"{m.module}:{line}" if line else f"{m.module} STALE ({why})"
            print(f"#{i:<4}{where:<18}{m.description}")
            print(f"      - {one_line(m.original)}\n      + {one_line(m.replacement)}")
            print(f"      tests: {shlex.join(m.tests)}")
        print(f"{len(chosen)} mutants")
        return 0

    def say(msg):
        print(msg, file=sys.stderr if args.json else sys.stdout, flush=True)

    check_copy_imports(args.timeout)
    baseline = {}
    if not args.no_baseline:
        live = [m for _, m in chosen if locate(m)[0]]
        selections = list(dict.fromkeys(m.tests for m in live))
        say(f"baseline: {len(selections)} test selections on the unmutated checkout")
        baseline = run_baseline(selections, args.timeout, args.compiled, args.jobs, say)

    def job(item):
        i, m = item
        base = baseline.get(m.tests)
        if base is not None and base[0] != "passed":
            r = Result(i, m.module, m.original.strip(), m.replacement.strip(), m.description,
                       list(m.tests), "baseline-fails", line=locate(m)[0], detail=base[2])  # fmt: skip
            return r
        return run_mutant(i, m, args.timeout, args.compiled)

    say(f"{len(chosen)} mutants, {args.jobs} at a time")
    results = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for r in pool.map(job, chosen):
            results.append(r)
            say(f"  #{r.id:<4}{r.module:<13}{r.status:<15}{r.seconds:6.1f}s  {r.description}")
    summary = summarize(results)
    if args.json:
        print(json.dumps({"summary": summary, "mutants": [asdict(r) for r in results]}, indent=1))
    else:
        print_table(results, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
