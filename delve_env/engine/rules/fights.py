"""Party fights: initiative, rounds, opposed attacks, damage and armor, kills, flight
(FIGHT-1..2, ROUND-1, ATTACK-1, DMG-1, PARTY-2, XP-1, RUN-AWAY-1)."""

from ..compiled.jit import njit
from ..core.params import (
    P_FRONT_AIM,
    P_KILL_XP,
    P_MONSTER_ATK,
    P_PRACTICE_MAX_LEVEL,
    P_PRACTICE_XP,
    P_WANDER_GOLD_DICE,
)
from ..core.rng import chance, randint, roll
from ..core.state import DIRTY_MAGIC, DIRTY_MAP, DIRTY_PACK, DIRTY_PARTY
from ..core.tables import (
    ARMOR,
    CAT_SHIELD,
    EV_AMBUSH,
    EV_ARMOR_BITE,
    EV_DRAINED,
    EV_FIGHT,
    EV_FLED,
    EV_KILL,
    EV_METAL_BITE,
    EXPLORE,
    FAM_DAGGER,
    FIGHT,
    FS_BLIND,
    FS_BOUND,
    FS_MARKED,
    I_CAT,
    I_DICE,
    I_FLAT,
    I_RANGED,
    ITEMS,
    M_ATK,
    M_AV,
    M_DEF,
    M_DICE,
    M_FLAGS,
    M_FLAT,
    MAX_FOES,
    MAX_MEMBERS,
    MF_ARMOR_EATER,
    MF_DRAINER,
    MF_FOOD_THIEF,
    MF_METAL_EATER,
    MF_RANGED,
    MF_UNDEAD,
    MF_XP_DRAINER,
    MONSTERS,
    NUM_MONSTERS,
    OFF_HAND,
    PRIME_FEROCIOUS,
    PRIME_GROW,
    PRIME_SMITE,
    READY,
    ROGUE,
)
from ..outputs.fightlog import (
    DRAIN_CEILING,
    DRAIN_FOOD,
    DRAIN_XP,
    LOG_ALLY_ATTACK,
    LOG_ALLY_HIT,
    LOG_ARMOR_BITE,
    LOG_ATTACK,
    LOG_DRAIN,
    LOG_HIT_FOE,
    LOG_HIT_MEMBER,
    LOG_KILL,
    LOG_METAL_BITE,
    LOG_MONSTER_ATTACK,
    log_event,
)
from .bestiary import count_kill, learn_special, meet_band
from .monsters import monster_hearts, random_kind
from .moving import land_in_hall
from .party import (
    drop_item,
    first_standing_position,
    gain_xp,
    is_standing,
    lower_ceiling,
    share_xp,
    wound,
)
from .quest import free_king
from .traits import (
    ROGUE_DAGGERS,
    clear_prime,
    d20,
    dodge,
    focus_bonus,
    full_av,
    has_advantage,
    has_option,
    piece_av,
    ready_family,
    roll_bonus,
    skill_dice,
    spend_attack_primes,
)
from .traits import num_attacks as primed_attacks

UNARMED_DAMAGE = 2  # DMG-1
SMITE_DICE, SMITE_UNDEAD_DICE = 2, 4  # oath: a smite's extra d6, against undead and fiends
HOLY_SWORD_BONUS_DICE, HOLY_SWORD_DICE = 2, 2  # holy weapon: its attack bonus and damage
FAMILIAR = NUM_MONSTERS  # ally_kind of find familiar's varmint (no bestiary row)
ALLY_TARGET = MAX_MEMBERS  # `pick_target`'s answer when the foe aims at the ally (ALLY-1)
XP_PER_DRAIN = 10  # DRAIN-1: XP an XP drainer takes per point of its damage


@njit(cache=True)
def is_foe_alive(s, e, k):
    return s.foe_kind[e, k] >= 0 and s.foe_hp[e, k] > 0


@njit(cache=True)
def num_foes_alive(s, e):
    n = 0
    for k in range(MAX_FOES):
        if is_foe_alive(s, e, k):
            n += 1
    return n


@njit(cache=True)
def line_up(s, p, e, room):
    """The foes line up for a fight: a guarded room's band (room >= 0) is copied in, wounds
    and all; a wandering band is already in the foe rows. No bribe asked, no goodwill yet."""
    f = s.floor[e]
    for k in range(MAX_FOES):
        if room >= 0:
            s.foe_kind[e, k] = s.band_kind[e, f, room, k]
            s.foe_hp[e, k] = s.band_hp[e, f, room, k]
        kind = s.foe_kind[e, k]
        s.foe_max[e, k] = monster_hearts(p, kind) if kind >= 0 else 0
    s.mode[e] = FIGHT
    s.fight_room[e] = room
    s.fight_round[e] = 1
    s.bribe_asked[e] = False
    s.goodwill[e] = False  # BRIBE-3: a goodwill scroll lasts one fight
    s.sneaker[e] = -1
    s.ally_kind[e] = -1  # a summoned ally fights one fight (ITEM-1)
    s.ally_hp[e] = 0
    s.foe_status[e, :] = 0  # what spells leave on foes, blessings and hiding last one fight
    s.decoys[e] = 0
    s.holy_sword[e] = -1
    s.charging[e] = False
    s.blessed[e, :] = False
    s.hidden[e, :] = False
    if not s.practice[e]:  # a practice bout counts in stat_bouts only (COURT-2)
        s.stat_fights[e] += 1
        meet_band(s, e, s.foe_kind[e], True)  # the bestiary record
    s.events[e] |= EV_FIGHT


@njit(cache=True)
def start_fight(s, p, e, room, rng):
    """FIGHT-1..2: the foes line up; each side rolls a d6 and a higher band swings first."""
    line_up(s, p, e, room)
    if roll(rng, e, 1) > roll(rng, e, 1):  # the band's d6 beat the party's: an ambush
        s.events[e] |= EV_AMBUSH
        monster_round(s, p, e, rng)
        if num_foes_alive(s, e) == 0:  # counter-blows can finish a band in its free round
            win_fight(s, p, e, rng)
            return
    s.actor[e] = first_standing_position(s, e, 0)
    if s.actor[e] < 0 and s.practice[e]:  # the free round put everyone down: the bout ends
        end_bout(s, e)


@njit(cache=True)
def start_sneak(s, p, e, room, m):
    """SNEAK-1: nothing in the room sees member m come in: m takes a whole turn alone against
    surprised foes (`member_attack`), then the band takes one round on m alone (`end_turn`),
    then it is an ordinary fight with no ambush roll."""
    line_up(s, p, e, room)
    s.sneaker[e] = m
    for pos in range(MAX_MEMBERS):
        if s.order[e, pos] == m:
            s.actor[e] = pos
    s.stat_sneaks[e] += 1


@njit(cache=True)
def is_ranged_weapon(kind):
    return ITEMS[kind, I_RANGED] == 1


@njit(cache=True)
def weapon_left(kind, wear):
    """GEAR-EAT-1: (dice, flat bonus) a weapon has left after `wear` bites: each bite takes a
    point of the bonus first, then a whole die."""
    flat, dice, wear = int(ITEMS[kind, I_FLAT]), int(ITEMS[kind, I_DICE]), int(wear)
    return max(0, dice - max(0, wear - flat)), max(0, flat - wear)


@njit(cache=True)
def weapon_damage(s, e, m, rng):
    """DMG-1: weapon dice plus flat bonus, what eaters left of them; unarmed is 2."""
    kind = s.item[e, m, READY]
    if kind == 0:
        return UNARMED_DAMAGE
    dice, flat = weapon_left(kind, s.item_wear[e, m, READY])
    return roll(rng, e, dice) + flat


@njit(cache=True)
def skill_bonus(s, e, m, rng):
    """ATTACK-1: a d6 when the member's class is skilled with the weapon in hand, 2d6 with
    a specialty (CLASS-1, `traits.skill_dice`)."""
    dice = skill_dice(s, e, m)
    return roll(rng, e, dice) if dice > 0 else 0


@njit(cache=True)
def absorb(s, e, m, damage):
    """DMG-1: shield then armor each subtract their AV; each piece that absorbs loses a DV."""
    for slot in (OFF_HAND, ARMOR):
        av = piece_av(s, e, m, slot)  # 0 once its DV is spent (the Armorer's: -5)
        if damage <= 0:
            continue
        if av > 0:
            damage = max(0, damage - av)
            s.item_dv[e, m, slot] -= 1
            s.dirty[e] |= DIRTY_PACK | DIRTY_PARTY
    return damage


@njit(cache=True)
def hit_foe(s, p, e, m, k, rng):
    """A counter-blow: member m deals weapon damage (a primed grow sword's d6 more) less AV to
    foe k (`damage_foe`)."""
    kind = s.foe_kind[e, k]
    damage_foe(
        s, p, e, m, k, weapon_damage(s, e, m, rng) + grown(s, e, m, rng) - MONSTERS[kind, M_AV], rng
    )


@njit(cache=True)
def grown(s, e, m, rng):
    """A primed grow sword (NAME-1): a d6 more on member m's next hit, then spent."""
    if not s.primed[e, m] & PRIME_GROW:
        return 0
    clear_prime(s, e, m, PRIME_GROW)
    return roll(rng, e, 1)


@njit(cache=True)
def damage_foe(s, p, e, m, k, amount, rng):
    """Member m's blow, power or conjured sword takes `amount` hearts (armor already taken
    off) from foe k; the last blow earns the kill (XP-1). A practice kill (COURT-2) gives the
    practice share of that XP, only to a member below the practice level, and is no kill in
    the statistics or events (no shaped reward to farm)."""
    if not is_foe_alive(s, e, k):
        return
    kind = s.foe_kind[e, k]
    amount = max(0, amount)
    s.foe_hp[e, k] = max(0, int(s.foe_hp[e, k]) - amount)
    log_event(s, e, LOG_HIT_FOE, m, k, kind, amount, s.foe_hp[e, k])
    if s.foe_hp[e, k] == 0:
        xp = int(s.foe_max[e, k] * p[P_KILL_XP])
        if s.practice[e]:
            if s.level[e, m] < p[P_PRACTICE_MAX_LEVEL]:
                gain_xp(s, p, e, m, int(xp * p[P_PRACTICE_XP]), rng)
            return
        s.stat_kills[e] += 1
        s.events[e] |= EV_KILL
        count_kill(s, e, kind)
        log_event(s, e, LOG_KILL, m, k, kind, xp, 0)
        gain_xp(s, p, e, m, xp, rng)


@njit(cache=True)
def bite_weapon(s, e, m, k):
    """GEAR-EAT-1: metal eater k wears the ready weapon by one; ground to nothing, it is gone
    and the hand is empty."""
    kind = s.item[e, m, READY]
    if kind == 0:
        return
    s.item_wear[e, m, READY] += 1
    s.events[e] |= EV_METAL_BITE
    learn_special(s, e, s.foe_kind[e, k], MF_METAL_EATER)  # the bestiary record
    dice, flat = weapon_left(kind, s.item_wear[e, m, READY])
    gone = dice == 0 and flat == 0
    log_event(
        s, e, LOG_METAL_BITE, k, s.foe_kind[e, k], m, s.item_wear[e, m, READY], 1 if gone else 0
    )
    if gone:
        drop_item(s, e, m, READY)
    s.dirty[e] |= DIRTY_PACK | DIRTY_PARTY


@njit(cache=True)
def grind_armor(s, e, m, k):
    """GEAR-EAT-2: armor eater k takes 1 AV off the shield on the arm, else off the armor
    (the Armorer's +1 too); a piece at 0 AV keeps its row until repaired, and a worn shield
    at 0 AV still takes the bites (the armor is ground only with no shield on the arm)."""
    slot = OFF_HAND if ITEMS[s.item[e, m, OFF_HAND], I_CAT] == CAT_SHIELD else ARMOR
    if s.item[e, m, slot] > 0 and s.item_wear[e, m, slot] < full_av(s, e, m, slot):
        s.item_wear[e, m, slot] += 1
        s.events[e] |= EV_ARMOR_BITE
        s.dirty[e] |= DIRTY_PACK | DIRTY_PARTY
        learn_special(s, e, s.foe_kind[e, k], MF_ARMOR_EATER)  # the bestiary record
        log_event(s, e, LOG_ARMOR_BITE, k, s.foe_kind[e, k], m, slot, s.item_wear[e, m, slot])


@njit(cache=True)
def hit_member(s, p, e, k, m, rng):
    """Foe k's damage dice, less armor, wound member m (MON-2): eaters bite as well, drainers
    drain instead (DRAIN-1: the ceiling to a floor of 1, XP never below the level's start,
    rations)."""
    kind = s.foe_kind[e, k]
    flags = MONSTERS[kind, M_FLAGS]
    damage = roll(rng, e, MONSTERS[kind, M_DICE]) + MONSTERS[kind, M_FLAT]
    damage = absorb(s, e, m, dodge(s, e, m, damage, rng))  # a primed dodge, then armor
    if s.practice[e]:  # COURT-2: a practice blow only wounds
        flags = 0
    if flags & MF_METAL_EATER:
        bite_weapon(s, e, m, k)
    if flags & MF_ARMOR_EATER:
        grind_armor(s, e, m, k)
    if damage <= 0:
        return
    special = flags & (MF_DRAINER | MF_XP_DRAINER | MF_FOOD_THIEF)
    if special == 0:
        wound(s, e, m, damage, rng)
        log_event(s, e, LOG_HIT_MEMBER, k, kind, m, damage, s.hp[e, m])
        return
    if flags & MF_DRAINER:
        lower_ceiling(s, e, m, damage)
        what, special = DRAIN_CEILING, MF_DRAINER
    elif flags & MF_XP_DRAINER:
        s.xp[e, m] = max(0, s.xp[e, m] - XP_PER_DRAIN * damage)
        what, special = DRAIN_XP, MF_XP_DRAINER
    else:
        s.rations[e] = max(0, s.rations[e] - damage)
        what = DRAIN_FOOD
    learn_special(s, e, kind, special)  # the bestiary record
    log_event(s, e, LOG_DRAIN, k, kind, m, what, damage)
    s.events[e] |= EV_DRAINED
    s.dirty[e] |= DIRTY_PARTY


@njit(cache=True)
def member_attack(s, p, e, k, use_luck, num_attacks, rng):
    """ATTACK-1..2: the acting member's d20 + skill + bonus (+ luck die) against foe k's d20 +
    defense, once per attack; the bonus dice are rolled once for all of them. Each higher or
    tied roll hits. A melee strike that wins no exchange outright takes the counter-blow: a
    failed one, and a tie (a tie hits both); with several attacks, only when none of them won
    (ATTACK-2: the target counters only if all of them fail to beat it). Class features
    (CLASS-1): a primed double strike or dual-wielding adds an attack, ferocious strike and
    charge! (and a spell's mark) give advantage, focus and a blessing add a d6 (`traits`);
    they are spent by this attack (`strike_foe`)."""
    m = s.order[e, s.actor[e]]
    kind = s.foe_kind[e, k]
    if s.hidden[e, m] or s.invisible[e, m]:  # MON-2: attacking gives the attacker away
        s.hidden[e, m] = s.invisible[e, m] = False
        s.dirty[e] |= DIRTY_MAGIC
    bonus = skill_bonus(s, e, m, rng) + s.atk[e, m] + roll_bonus(s, e, m, rng)
    bonus += focus_bonus(s, e, m, rng)
    if use_luck:
        s.luck[e, m] -= 1  # LUCK-2
        s.dirty[e] |= DIRTY_PARTY
        bonus += roll(rng, e, 1)
    surprised = s.sneaker[e] == m  # SNEAK-1: a surprised foe resists with its defense alone
    num_attacks = max(num_attacks, primed_attacks(s, e, m))
    advantage = has_advantage(s, e, m) or (s.foe_status[e, k] & FS_MARKED) != 0
    s.foe_status[e, k] = int(s.foe_status[e, k]) & ~FS_MARKED  # a mark gives one advantage
    wins = 0
    for _ in range(num_attacks):
        mine = d20(rng, e, advantage) + bonus
        theirs = MONSTERS[kind, M_DEF] + (0 if surprised else randint(rng, e, 20) + 1)
        log_event(s, e, LOG_ATTACK, m, k, kind, mine, theirs)
        wins += mine > theirs
        if mine >= theirs and is_foe_alive(s, e, k):
            strike_foe(s, p, e, m, k, surprised, rng)
    spend_attack_primes(s, e, m)
    melee = not is_ranged_weapon(s.item[e, m, READY])
    counters = melee and (MONSTERS[kind, M_FLAGS] & MF_RANGED) == 0
    if counters and not surprised and wins == 0:
        hit_member(s, p, e, k, m, rng)


@njit(cache=True)
def strike_foe(s, p, e, m, k, surprised, rng):
    """A hit of member m's own attack on foe k: weapon damage (ferocious strike primed: the
    dice's maximum), a primed smite's extra 2d6 on a melee hit (4d6 on an undead or fiend;
    spent), the daggers specialty's extra d6 with a dagger against a surprised foe, a primed
    grow sword's d6 (`grown`); less AV."""
    kind = s.foe_kind[e, k]
    weapon = s.item[e, m, READY]
    if s.primed[e, m] & PRIME_FEROCIOUS and weapon == 0:
        damage = UNARMED_DAMAGE
    elif s.primed[e, m] & PRIME_FEROCIOUS:
        dice, flat = weapon_left(weapon, s.item_wear[e, m, READY])
        damage = 6 * dice + flat
    else:
        damage = weapon_damage(s, e, m, rng)
    if s.primed[e, m] & PRIME_SMITE and not is_ranged_weapon(weapon):
        undead = MONSTERS[kind, M_FLAGS] & MF_UNDEAD
        damage += roll(rng, e, SMITE_UNDEAD_DICE if undead else SMITE_DICE)
        clear_prime(s, e, m, PRIME_SMITE)
    dagger = ready_family(s, e, m, READY) == FAM_DAGGER
    if surprised and dagger and has_option(s, e, m, ROGUE, 2, ROGUE_DAGGERS):
        damage += roll(rng, e, 1)
    damage_foe(s, p, e, m, k, damage + grown(s, e, m, rng) - MONSTERS[kind, M_AV], rng)


@njit(cache=True)
def weakest_foe(s, e):
    """The living foe with the fewest hearts (the first of equals), -1 none: whom the holy
    sword and the ally strike."""
    target = -1
    for k in range(MAX_FOES):
        if is_foe_alive(s, e, k) and (target < 0 or s.foe_hp[e, k] < s.foe_hp[e, target]):
            target = k
    return target


@njit(cache=True)
def holy_sword_attack(s, p, e, rng):
    """Holy weapon (CLASS-1): after the members' turns the caster's conjured sword strikes the
    living foe with the fewest hearts: d20 + 2d6 against the foe's d20 + defense, 2d6 less the
    foe's armor; its kills are the caster's (XP-1)."""
    m = s.holy_sword[e]
    if m < 0 or not is_standing(s, e, m):
        return
    target = weakest_foe(s, e)
    if target < 0:
        return
    foe = s.foe_kind[e, target]
    mine = randint(rng, e, 20) + 1 + roll(rng, e, HOLY_SWORD_BONUS_DICE)
    theirs = randint(rng, e, 20) + 1 + MONSTERS[foe, M_DEF]
    if mine >= theirs:
        damage = roll(rng, e, HOLY_SWORD_DICE) - MONSTERS[foe, M_AV]
        damage_foe(s, p, e, m, target, max(0, damage), rng)


@njit(cache=True)
def summon_ally(s, p, e, rng):
    """ITEM-1: a summoning stone calls a monster of the floor's tier to fight for the party
    for the rest of this fight, at full hearts."""
    kind = random_kind(s.floor[e], rng, e)
    s.ally_kind[e] = kind
    s.ally_hp[e] = monster_hearts(p, kind)


@njit(cache=True)
def ally_attack(s, p, e, rng):
    """After the members' turns the ally strikes the living foe with the fewest hearts: its d20
    + attack against the foe's d20 + defense, its damage dice less the foe's armor. Its kills
    earn nobody XP (XP-1: only members' blows)."""
    if s.ally_kind[e] < 0:
        return
    target = weakest_foe(s, e)
    if target < 0:
        return
    ally, foe = s.ally_kind[e], s.foe_kind[e, target]
    if ally == FAMILIAR:  # find familiar: a varmint's 1 damage, never missing, no roll
        mine, theirs, damage = 0, 0, 1
    else:
        mine = randint(rng, e, 20) + 1 + MONSTERS[ally, M_ATK]
        theirs = randint(rng, e, 20) + 1 + MONSTERS[foe, M_DEF]
        damage = 0
        if mine >= theirs:
            damage = roll(rng, e, MONSTERS[ally, M_DICE]) + MONSTERS[ally, M_FLAT]
            damage = max(0, damage - MONSTERS[foe, M_AV])
    s.foe_hp[e, target] = max(0, s.foe_hp[e, target] - damage)
    log_event(s, e, LOG_ALLY_ATTACK, target, foe, mine, theirs, damage)
    if damage > 0 and s.foe_hp[e, target] == 0 and not s.practice[e]:
        count_kill(s, e, foe)  # the bestiary record (no XP: XP-1)
        log_event(s, e, LOG_KILL, -1, target, foe, 0, 0)


@njit(cache=True)
def is_unseen(s, e, m):
    """MON-2: a hidden or invisible member is not aimed at."""
    return s.hidden[e, m] or s.invisible[e, m]


@njit(cache=True)
def has_ally(s, e):
    """ALLY-1: an ally stands in the fight (it is gone once its hearts run out)."""
    return s.ally_kind[e] >= 0 and s.ally_hp[e] > 0


@njit(cache=True)
def pick_target(s, p, e, rng):
    """PARTY-2: the front (first two standing) is aimed at with the front chance. MON-2: the
    hidden and invisible are passed over while anyone else can be hit. ALLY-1: the ally is
    aimed at like a member standing after the last of the marching order (`ALLY_TARGET`)."""
    ally = has_ally(s, e)
    anyone_seen = ally
    for m in range(MAX_MEMBERS):
        anyone_seen = anyone_seen or (is_standing(s, e, m) and not is_unseen(s, e, m))
    front = 0
    rest = 0
    for pos in range(MAX_MEMBERS + 1):
        m = s.order[e, pos] if pos < MAX_MEMBERS else ALLY_TARGET
        if is_aimed_at(s, e, m, ally, anyone_seen):
            if front < 2:
                front += 1
            else:
                rest += 1
    if front == 0:
        return -1
    pick = randint(rng, e, front)
    if rest > 0 and not chance(rng, e, p[P_FRONT_AIM]):
        pick = front + randint(rng, e, rest)
    for pos in range(MAX_MEMBERS + 1):
        m = s.order[e, pos] if pos < MAX_MEMBERS else ALLY_TARGET
        if is_aimed_at(s, e, m, ally, anyone_seen):
            if pick == 0:
                return m
            pick -= 1
    return -1


@njit(cache=True)
def is_aimed_at(s, e, m, ally, anyone_seen):
    """`pick_target`'s candidates: the ally (ALLY_TARGET) while it stands, a standing member
    not passed over for being unseen."""
    if m == ALLY_TARGET:
        return ally
    return is_standing(s, e, m) and not (anyone_seen and is_unseen(s, e, m))


@njit(cache=True)
def monster_attack(s, p, e, k, rng):
    """ATTACK-1 from the band's side, at a target picked by PARTY-2's aim. A bound foe (bind
    rope) loses this blow; an illusion (minor illusion) takes it instead of a member."""
    if s.foe_status[e, k] & FS_BOUND:
        s.foe_status[e, k] = int(s.foe_status[e, k]) & ~FS_BOUND
        return
    if s.decoys[e] > 0:
        s.decoys[e] -= 1
        return
    m = pick_target(s, p, e, rng)
    if m == ALLY_TARGET:
        attack_ally(s, p, e, k, rng)
    elif m >= 0:
        attack_member(s, p, e, k, m, rng)


@njit(cache=True)
def attack_ally(s, p, e, k, rng):
    """ALLY-1: foe k's d20 + attack against the ally's d20 + defense (the familiar's 0); a
    tie or better deals the foe's damage dice less the ally's armor, and at 0 hearts the ally
    is gone. The ally strikes only on its own turn (`ally_attack`); drains and bites are for
    members (an ally has no ceiling, XP or gear)."""
    kind, ally = s.foe_kind[e, k], s.ally_kind[e]
    theirs = randint(rng, e, 20) + 1
    if s.foe_status[e, k] & FS_BLIND:  # blinded: the worse of two d20s
        theirs = min(theirs, randint(rng, e, 20) + 1)
    theirs += int(MONSTERS[kind, M_ATK]) + int(p[P_MONSTER_ATK])
    mine, armor, damage = randint(rng, e, 20) + 1, 0, 0
    if ally != FAMILIAR:
        mine += int(MONSTERS[ally, M_DEF])
        armor = int(MONSTERS[ally, M_AV])
    if theirs >= mine:
        damage = roll(rng, e, MONSTERS[kind, M_DICE]) + int(MONSTERS[kind, M_FLAT])
        damage = max(0, damage - armor)
        s.ally_hp[e] = max(0, int(s.ally_hp[e]) - damage)
    log_event(s, e, LOG_ALLY_HIT, k, kind, theirs, mine, damage)
    if s.ally_hp[e] == 0:
        s.ally_kind[e] = -1  # gone: find familiar and a summoning stone may call another
        s.dirty[e] |= DIRTY_MAGIC


@njit(cache=True)
def attack_member(s, p, e, k, m, rng):
    """ATTACK-1: foe k's d20 + attack against member m's d20; the higher hits, and a tie hits
    both where both can hit: a melee foe and a member with a melee weapon (or none)."""
    kind = s.foe_kind[e, k]
    theirs = randint(rng, e, 20) + 1
    if s.foe_status[e, k] & FS_BLIND:  # blinded: the worse of two d20s
        theirs = min(theirs, randint(rng, e, 20) + 1)
    theirs += MONSTERS[kind, M_ATK] + int(p[P_MONSTER_ATK])
    mine = randint(rng, e, 20) + 1 + roll_bonus(s, e, m, rng)  # a blessing helps resist
    log_event(s, e, LOG_MONSTER_ATTACK, k, kind, m, theirs, mine)
    melee = (MONSTERS[kind, M_FLAGS] & MF_RANGED) == 0
    counters = melee and not is_ranged_weapon(s.item[e, m, READY])
    if theirs >= mine:
        hit_member(s, p, e, k, m, rng)
    if theirs <= mine and counters and is_standing(s, e, m):
        hit_foe(s, p, e, m, k, rng)


@njit(cache=True)
def monster_round(s, p, e, rng):
    """ROUND-1: every living foe acts once, in order."""
    for k in range(MAX_FOES):
        if is_foe_alive(s, e, k):
            monster_attack(s, p, e, k, rng)


@njit(cache=True)
def end_fight_for_room(s, p, e, rng):
    """The band is gone (beaten or paid): the fight ends and a guarded room is the party's."""
    s.mode[e] = EXPLORE
    s.sneaker[e] = -1
    f, room = s.floor[e], s.fight_room[e]
    if room >= 0:
        s.band_kind[e, f, room, :] = -1
        s.band_hp[e, f, room, :] = 0
        s.ways_known[e] = 0  # a room whose band was fled is no goal for explore any more
        free_king(s, p, e, rng)


@njit(cache=True)
def win_fight(s, p, e, rng):
    """The band is dead: a room is the party's; a wandering band leaves a little gold; a
    practice bout just ends (no gold, COURT-2)."""
    if s.practice[e]:
        end_bout(s, e)
        return
    end_fight_for_room(s, p, e, rng)
    f, room = s.floor[e], s.fight_room[e]
    if room < 0:
        gold = roll(rng, e, int(p[P_WANDER_GOLD_DICE])) * f  # WANDER-3
        s.gold[e] += gold
        s.stat_gold[e] += gold
        share_xp(s, p, e, gold, rng)


@njit(cache=True)
def end_turn(s, p, e, rng):
    """Pass the turn down the marching order; after the last member the band acts. After a
    sneaker's lone turn the band takes its round on the sneaker alone, then the rest walk in
    (SNEAK-1)."""
    if num_foes_alive(s, e) == 0:
        win_fight(s, p, e, rng)
        return
    if s.sneaker[e] >= 0:
        m = s.sneaker[e]
        s.sneaker[e] = -1
        for k in range(MAX_FOES):
            if is_foe_alive(s, e, k) and is_standing(s, e, m):
                attack_member(s, p, e, k, m, rng)
        if num_foes_alive(s, e) == 0:
            win_fight(s, p, e, rng)
            return
        s.actor[e] = first_standing_position(s, e, 0)
        s.dirty[e] |= DIRTY_PARTY
        return
    nxt = first_standing_position(s, e, s.actor[e] + 1)
    if nxt < 0:
        ally_attack(s, p, e, rng)
        holy_sword_attack(s, p, e, rng)
        if num_foes_alive(s, e) == 0:
            win_fight(s, p, e, rng)
            return
        monster_round(s, p, e, rng)
        s.charging[e] = False  # charge! lasts the members' round
        s.fight_round[e] += 1
        if num_foes_alive(s, e) == 0:  # counter-blows can finish a band
            win_fight(s, p, e, rng)
            return
        nxt = first_standing_position(s, e, 0)
    s.actor[e] = nxt
    if nxt < 0 and s.practice[e]:  # everyone is down: the bout ends (COURT-2)
        end_bout(s, e)
    s.dirty[e] |= DIRTY_PARTY  # the acting member


@njit(cache=True)
def run_away(s, e, rng):
    """RUN-AWAY-1: the band keeps its wounds where it was: in its room, or a wandering band on
    the tile of the fight (`linger_*`, one a floor: a newer one takes the place of an older);
    the party lands in a random hall. Running from a practice bout ends it where it was, in
    the courtyard (COURT-2)."""
    if s.practice[e]:
        s.events[e] |= EV_FLED
        end_bout(s, e)
        return
    f, room = s.floor[e], s.fight_room[e]
    if room >= 0:
        keep_band(s, e, s.band_kind[e, f, room], s.band_hp[e, f, room])
    else:
        keep_band(s, e, s.linger_kind[e, f], s.linger_hp[e, f])
        s.linger_xy[e, f, 0], s.linger_xy[e, f, 1] = s.x[e], s.y[e]
    s.foe_kind[e, :] = -1
    s.mode[e] = EXPLORE
    s.sneaker[e] = -1
    s.stat_flights[e] += 1
    s.events[e] |= EV_FLED
    land_in_hall(s, e, rng)


@njit(cache=True)
def keep_band(s, e, kinds, hps):
    """The living foes, wounds and all, packed to the front of `kinds` / `hps` (a room's band
    or a floor's lingering one); the rest of the rows emptied."""
    kinds[:] = -1
    hps[:] = 0
    n = 0
    for k in range(MAX_FOES):
        if is_foe_alive(s, e, k):
            kinds[n] = s.foe_kind[e, k]
            hps[n] = s.foe_hp[e, k]
            n += 1


@njit(cache=True)
def has_lingering_band(s, e, f):
    """RUN-AWAY-1: floor f holds a wandering band the party fled from."""
    return s.linger_kind[e, f, 0] >= 0 and s.linger_hp[e, f, 0] > 0


@njit(cache=True)
def meet_lingering_band(s, p, e, rng):
    """RUN-AWAY-1: a party that walks (or waits, or searches) onto the tile where it left a
    wandering band fights it again, wounds and all (with the initiative roll, FIGHT-2).
    Returns whether it did."""
    f = s.floor[e]
    if f == 0 or not has_lingering_band(s, e, f):
        return False
    if s.linger_xy[e, f, 0] != s.x[e] or s.linger_xy[e, f, 1] != s.y[e]:
        return False
    for k in range(MAX_FOES):
        s.foe_kind[e, k] = s.linger_kind[e, f, k]
        s.foe_hp[e, k] = s.linger_hp[e, f, k]
    s.linger_kind[e, f, :] = -1
    s.linger_hp[e, f, :] = 0
    s.dirty[e] |= DIRTY_MAP  # its mark leaves the map even if the fight ends this very step
    start_fight(s, p, e, -1, rng)
    return True


@njit(cache=True)
def end_bout(s, e):
    """COURT-2: a practice bout is over (won, fled, or everyone down): every member who fell
    in it stands at 1 HP, the dummies go, and the party explores the courtyard again. Writes
    `hp`, `bout_down`, `practice`, the foe rows and `mode`."""
    for m in range(MAX_MEMBERS):
        if s.bout_down[e, m] and s.in_party[e, m] and s.hp[e, m] <= 0:
            s.hp[e, m] = 1
        s.bout_down[e, m] = False
    s.practice[e] = False
    s.foe_kind[e, :] = -1
    s.foe_hp[e, :] = 0
    s.mode[e] = EXPLORE
    s.dirty[e] |= DIRTY_PARTY | DIRTY_PACK
