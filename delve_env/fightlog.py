"""`info["log"]`: the engine's fight log rows (engine/outputs/fightlog.py) as a list of dicts.

With the config key `fight_log=True` every step's info carries, in order, what its fights did:
attacks with both rolls, blows with their damage, bites, drains, bribes asked (and whether
they were taken), kills, death saves, deaths and raises. Member slots and foe rows count from
0, as in the state; each foe event names the kind.
"""

from .engine.core.tables import MONSTER_NAMES
from .engine.outputs.fightlog import (
    DRAIN_CEILING,
    LOG_ALLY_ATTACK,
    LOG_ALLY_HIT,
    LOG_ARMOR_BITE,
    LOG_ATTACK,
    LOG_BRIBE,
    LOG_DEATH,
    LOG_DRAIN,
    LOG_HIT_FOE,
    LOG_HIT_MEMBER,
    LOG_KILL,
    LOG_METAL_BITE,
    LOG_MONSTER_ATTACK,
    LOG_RAISE,
    LOG_SAVE,
    LOG_SIZE,
)

DRAINS = ("ceiling", "xp", "rations")
SLOTS = ("ready hand", "off hand", "armor")


def _row(code: int, a: int, b: int, c: int, d: int, x: int) -> dict:
    """One log row as a dict: the event's name and its values by name."""
    if code == LOG_ATTACK:
        return {"event": "attack", "member": a, "foe": b, "kind": MONSTER_NAMES[c], "roll": d,
                "against": x, "hit": d >= x}  # fmt: skip
    if code == LOG_MONSTER_ATTACK:
        return {"event": "monster attack", "foe": a, "kind": MONSTER_NAMES[b], "member": c,
                "roll": d, "against": x, "hit": d >= x}  # fmt: skip
    if code == LOG_HIT_FOE:
        return {"event": "damage to foe", "member": a, "foe": b, "kind": MONSTER_NAMES[c],
                "damage": d, "hearts_left": x}  # fmt: skip
    if code == LOG_HIT_MEMBER:
        return {"event": "damage to member", "foe": a, "kind": MONSTER_NAMES[b], "member": c,
                "damage": d, "hp_left": x}  # fmt: skip
    if code == LOG_METAL_BITE:
        return {"event": "metal bite", "foe": a, "kind": MONSTER_NAMES[b], "member": c,
                "wear": d, "destroyed": bool(x)}  # fmt: skip
    if code == LOG_ARMOR_BITE:
        return {"event": "armor bite", "foe": a, "kind": MONSTER_NAMES[b], "member": c,
                "slot": SLOTS[d], "wear": x}  # fmt: skip
    if code == LOG_DRAIN:
        return {"event": "drain", "foe": a, "kind": MONSTER_NAMES[b], "member": c,
                "what": DRAINS[d - DRAIN_CEILING], "amount": x}  # fmt: skip
    if code == LOG_BRIBE:
        return {"event": "bribe asked", "chance": a, "price": b, "paid": bool(c)}
    if code == LOG_KILL:
        return {"event": "kill", "member": a if a >= 0 else None, "by_ally": a < 0, "foe": b,
                "kind": MONSTER_NAMES[c], "xp": d}  # fmt: skip
    if code == LOG_SAVE:
        return {"event": "death save", "member": a, "roll": b, "stood": bool(c)}
    if code == LOG_DEATH:
        return {"event": "death", "member": a}
    if code == LOG_RAISE:
        return {"event": "raise", "member": a, "times_raised": b}
    if code == LOG_ALLY_ATTACK:
        return {"event": "ally attack", "foe": a, "kind": MONSTER_NAMES[b], "roll": c,
                "against": d, "damage": x}  # fmt: skip
    if code == LOG_ALLY_HIT:
        return {"event": "ally hit", "foe": a, "kind": MONSTER_NAMES[b], "roll": c,
                "against": d, "damage": x}  # fmt: skip
    return {"event": "unknown", "code": code, "values": [a, b, c, d, x]}


def decode(state, e: int) -> list[dict]:
    """Env e's fight log of its last step, oldest first; [] when the log is off. Events past
    the table's LOG_SIZE rows are counted in a last {"event": "dropped", "count": n}."""
    n = int(state.log_n[e])
    rows = [_row(*(int(v) for v in state.log[e, i])) for i in range(min(max(n, 0), LOG_SIZE))]
    if n > LOG_SIZE:
        rows.append({"event": "dropped", "count": n - LOG_SIZE})
    return rows


def line(row: dict) -> str:
    """A log row as one line of text: "attack: member 0, foe 0, kind giant rat, ..."."""
    values = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in row.items() if k != "event")
    return f"{row['event']}: {values}" if values else row["event"]
