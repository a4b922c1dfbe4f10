"""Using powers: spells, class features and name spells through one selection step
(SPELL-1, PAGE-2, NAME-1, the class table's features).

`A_CAST + m` picks who (`start_casting`), `A_POWER + i` what (`choose_power`), and a power
that needs a target takes it as `A_USE + b` or `A_ATTACK + k` (`aim_power`). What each power
does and whether a member has it lives in `spells` (spells and name spells) and `classes`
(features); this module only routes, and keeps the rules every power shares: who may cast
(a standing member; in a fight only the acting one), what a target may be, and that a power
used in a fight costs the acting member's turn where the table says so (tables.PW_TURN).
"""

from ..compiled.jit import njit
from ..core.state import DIRTY_MAGIC, DIRTY_PARTY, DIRTY_SELECT
from ..core.tables import (
    FIGHT,
    FIRST_FEATURE,
    FIRST_NAME_SPELL,
    MAX_FOES,
    MAX_MEMBERS,
    NO_USE,
    NUM_POWERS,
    POWERS,
    PW_EXPLORE,
    PW_FIGHT,
    PW_TURN,
    T_FOE,
    T_MEMBER,
)
from .classes import feature_cost, feature_suits, has_feature, ready_features, use_feature
from .fights import is_foe_alive
from .party import is_standing
from .spells import (
    cast_name,
    cast_spell,
    has_name_spell,
    has_spell,
    name_cost,
    name_suits,
    ready_names,
    ready_spells,
    spell_cost,
    spell_suits,
)


def usable_bits(column):
    """Bits by power index of the powers a screen (tables.PW_EXPLORE or PW_FIGHT) offers."""
    return sum(1 << i for i in range(NUM_POWERS) if POWERS[i, column] != NO_USE)


EXPLORING_BITS, FIGHTING_BITS = usable_bits(PW_EXPLORE), usable_bits(PW_FIGHT)


@njit(cache=True)
def power_target(s, e, i):
    """The kind of target power i takes on this screen (tables.T_*), or NO_USE."""
    return POWERS[i, PW_FIGHT] if s.mode[e] == FIGHT else POWERS[i, PW_EXPLORE]


@njit(cache=True)
def has_power(s, p, e, m, i):
    """Member m has power i ready: learned, chosen or granted, and not spent for this floor.
    Says nothing of mana, screen or targets (the `magic` observation shows it)."""
    if i < FIRST_FEATURE:
        return has_spell(s, p, e, m, i)
    if i < FIRST_NAME_SPELL:
        return has_feature(s, p, e, m, i)
    return has_name_spell(s, p, e, m, i)


@njit(cache=True, inline="always")
def power_cost(s, p, e, m, i):
    """The mana member m pays for power i (lay on hands: per hit point)."""
    if i < FIRST_FEATURE:
        return spell_cost(s, p, e, m, i)
    if i < FIRST_NAME_SPELL:
        return feature_cost(s, p, e, m, i)
    return name_cost(s, p, e, m, i)


@njit(cache=True)
def can_aim(s, p, e, m, i, t):
    """Target t (a member slot or a foe row, by the power's target kind) is one power i may
    be aimed at now. The power's own module may narrow it further (`can_use_power`)."""
    kind = power_target(s, e, i)
    if kind == T_MEMBER:
        return 0 <= t < MAX_MEMBERS and s.in_party[e, t] and is_standing(s, e, t)
    if kind == T_FOE:
        return 0 <= t < MAX_FOES and is_foe_alive(s, e, t)
    return t < 0


@njit(cache=True)
def ready_powers(s, e, m):
    """Every power member m has ready (`has_power`), as bits by power index: what the mask
    and the `magic` key read, found once a member rather than once a power."""
    return ready_spells(s, e, m) | ready_features(s, e, m) | ready_names(s, e, m)


@njit(cache=True, inline="always")
def offered_powers(s, e, m):
    """`ready_powers` less those this screen does not offer (no target kind here), which
    `has_target` would refuse only after the cost of asking."""
    return ready_powers(s, e, m) & (FIGHTING_BITS if s.mode[e] == FIGHT else EXPLORING_BITS)


@njit(cache=True, inline="always")
def can_pay(s, p, e, m, i):
    return s.mana[e, m] >= power_cost(s, p, e, m, i)


@njit(cache=True)
def power_suits(s, e, m, i, t):
    """Power i used by member m on t (already a valid target) does something here: each
    power's module says (a heal needs someone hurt, a mark an unmarked foe, ...)."""
    if i < FIRST_FEATURE:
        return spell_suits(s, e, i, t)
    if i < FIRST_NAME_SPELL:
        return feature_suits(s, e, m, i, t)
    return name_suits(s, e, m, i - FIRST_NAME_SPELL, t)


@njit(cache=True)
def can_use_power(s, p, e, m, i, t):
    """Member m may use power i now on target t (-1 for a power without one): m has it and
    can pay, and t is a target it may be aimed at and does something to."""
    if power_target(s, e, i) == NO_USE or not can_aim(s, p, e, m, i, t):
        return False
    return has_power(s, p, e, m, i) and can_pay(s, p, e, m, i) and power_suits(s, e, m, i, t)


@njit(cache=True)
def has_target(s, p, e, m, i):
    """Power i, used by member m now, has a target it may be aimed at and does something to."""
    kind = power_target(s, e, i)
    if kind == T_MEMBER:
        for b in range(MAX_MEMBERS):
            if can_aim(s, p, e, m, i, b) and power_suits(s, e, m, i, b):
                return True
        return False
    if kind == T_FOE:
        for k in range(MAX_FOES):
            if can_aim(s, p, e, m, i, k) and power_suits(s, e, m, i, k):
                return True
        return False
    return kind != NO_USE and power_suits(s, e, m, i, -1)


@njit(cache=True)
def can_choose_power(s, p, e, m, i):
    """Power i may be chosen: m has it, can pay, and it can be used on at least one target."""
    return has_power(s, p, e, m, i) and can_pay(s, p, e, m, i) and has_target(s, p, e, m, i)


@njit(cache=True)
def can_cast(s, p, e, m):
    """`A_CAST + m`: m stands (in a fight: m is the acting member) and has a power to use."""
    if not (s.in_party[e, m] and is_standing(s, e, m)):
        return False
    if s.mode[e] == FIGHT and (s.actor[e] < 0 or s.order[e, s.actor[e]] != m):
        return False
    ready = offered_powers(s, e, m)
    for i in range(NUM_POWERS):
        if (ready >> i) & 1 == 1 and can_pay(s, p, e, m, i) and has_target(s, p, e, m, i):
            return True
    return False


@njit(cache=True)
def start_casting(s, e, m):
    """Member m will use a power: only the powers m can use are offered next."""
    s.caster[e] = m
    s.sel_power[e] = -1
    s.dirty[e] |= DIRTY_SELECT


@njit(cache=True)
def stop_casting(s, e):
    """Put the power back: nothing was spent."""
    s.caster[e] = -1
    s.sel_power[e] = -1
    s.dirty[e] |= DIRTY_SELECT


@njit(cache=True)
def choose_power(s, p, e, i, rng):
    """The caster picks power i: used at once when it takes no target, else it waits for one.
    Returns whether it cost the acting member's turn."""
    kind = power_target(s, e, i)
    if kind == T_MEMBER or kind == T_FOE:
        s.sel_power[e] = i
        s.dirty[e] |= DIRTY_SELECT
        return False
    return use_power(s, p, e, s.caster[e], i, -1, rng)


@njit(cache=True)
def aim_power(s, p, e, t, rng):
    """The chosen power is aimed at member or foe t and used. Returns whether it cost the
    acting member's turn."""
    return use_power(s, p, e, s.caster[e], s.sel_power[e], t, rng)


@njit(cache=True)
def use_power(s, p, e, m, i, t, rng):
    """Member m uses power i on t; its module pays and does it. Returns whether it cost the
    acting member's turn."""
    s.caster[e] = -1
    s.sel_power[e] = -1
    s.dirty[e] |= DIRTY_SELECT | DIRTY_PARTY | DIRTY_MAGIC
    s.stat_casts[e] += 1
    if i < FIRST_FEATURE:
        cast_spell(s, p, e, m, i, t, rng)
    elif i < FIRST_NAME_SPELL:
        use_feature(s, p, e, m, i, t, rng)
    else:
        cast_name(s, p, e, m, i, t, rng)
    return s.mode[e] == FIGHT and POWERS[i, PW_TURN] == 1
