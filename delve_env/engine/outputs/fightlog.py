"""The structured fight log: what a step's fights did, as rows of int32 (config `fight_log`).

Each env has a fixed-size table `s.log` of LOG_SIZE rows (code, then five values) and a count
`s.log_n`; the step clears the count to 0 when the log is on and to -1 when it is off, so a
mechanic's `log_event` costs one comparison when off. Past LOG_SIZE rows a step's events are
only counted. `delve_env.fightlog.decode` turns the rows into dicts for `info["log"]`.
"""

from ..compiled.jit import njit

LOG_SIZE = 64  # rows a step keeps (a monster round of six foes writes about 20)
LOG_COLS = 6  # code, then five values
(
    LOG_ATTACK,  # member m attacks foe k: m, k, kind, m's roll, the foe's roll
    LOG_MONSTER_ATTACK,  # foe k attacks member m: k, kind, m, the foe's roll, m's roll
    LOG_HIT_FOE,  # member m's blow on foe k: m, k, kind, damage, hearts left
    LOG_HIT_MEMBER,  # foe k's blow wounds member m: k, kind, m, damage, HP left
    LOG_METAL_BITE,  # foe k bites m's ready weapon: k, kind, m, wear now, 1 if destroyed
    LOG_ARMOR_BITE,  # foe k grinds m's shield or armor: k, kind, m, slot, wear now
    LOG_DRAIN,  # foe k drains m: k, kind, m, what (DRAIN_*), amount
    LOG_BRIBE,  # the band is asked: chance %, price, 1 if taken, 0, 0
    LOG_KILL,  # member m (or -1: the ally) kills foe k: m, k, kind, XP, 0
    LOG_SAVE,  # member m's death save: m, total, 1 if it stood, 0, 0
    LOG_DEATH,  # member m dies: m, 0, 0, 0, 0
    LOG_RAISE,  # member m is raised: m, times raised, 0, 0, 0
    LOG_ALLY_ATTACK,  # the ally attacks foe k: k, kind, its roll, the foe's roll, damage
    LOG_ALLY_HIT,  # foe k attacks the ally: k, kind, the foe's roll, the ally's roll, damage
) = range(1, 15)
DRAIN_CEILING, DRAIN_XP, DRAIN_FOOD = range(3)


@njit(cache=True)
def log_event(s, e, code, a, b, c, d, x):
    """Add one row to env e's log of this step (nothing when the log is off)."""
    n = int(s.log_n[e])
    if n < 0:
        return
    if n < LOG_SIZE:
        row = s.log[e, n]
        row[0], row[1], row[2], row[3], row[4], row[5] = code, a, b, c, d, x
    s.log_n[e] = min(n + 1, 32000)
