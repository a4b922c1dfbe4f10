"""A scripted expert for Delve: a privileged policy that reads the engine state of slot 0.

Down: take the courtyard stair; walk (BFS over the floor's walkable tiles) to the rooms worth
a visit (every room of floor 1 for XP, then only the map's), open their chests (CHEST-1: the
Rogue first), loot them, and take the stair
down once it opens. At the bottom free the king, put him at the back in whatever armor and
weapon the packs hold, and climb floor by floor to the courtyard, taking the book on the way
up (taking it earlier starts the hunt sooner, RUN-6). Fights: hit the weakest foe, spend luck
when someone is low, run when the party (or the king) is in real danger, then rest in a room
with no band (no bands wander there; a doorway is a hall tile, WANDER-1) before going back.
At the door of a room never entered it listens once (LISTEN-1: a pace at the hall's risk)
and, when a band is heard, goes to rest in a free room until everyone is nearly whole. It pays a band off (BRIBE-1) when the
price leaves gold to spare and the chance is fair: a band guarding a room that has the party
in danger, or an eater (GEAR-EAT-1..2) about to bite good gear. Rooms behind secret doors: search
next to them; vault locks are left alone.

Items (two actions each: select, then give / use / wear): a light of life raises the fallen
(RAISE-1) as soon as a standing member holds one, in a fight on the holder's turn; the fallen's
consumables go to a standing member and their gear to whoever it suits (PARTY-4); gems of
strength and mind sharpeners are used at once, on the king when he is there; in a fight the
acting member gives medicinal ale to a member who is low.

Class features and level options (CLASS-1, CHOICE-1): a level choice takes the option of
`OPTION_PREFERENCE` (else the first legal one). In a fight the Hero primes ferocious and double
strike (smite with an oath) against a strong foe, the Rogue focuses, the Cleric lays hands on a
member below half their ceiling and blesses the Hero against a strong band, and the casters
(readers, the Wizard, the Namer) throw their hardest fight spell or name. Outside fights the
Cleric lays hands on (or touches, as a healer) the most wounded member, and a wounded Hero takes
a second wind. A power takes two or three actions (A_CAST, A_POWER, a target): the plan is kept
in `cast_plan`.

Stores (STORE-1..2): before going down from the courtyard, and in a store room on the way,
buy a light of life when none is held and the gold covers one, then rations up to
`ration_target`; nothing is sold.
"""

import numpy as np

from agents.paths import walk_step
from delve_env.engine.core.actions import (
    A_ATTACK,
    A_BRIBE,
    A_BUY,
    A_CANCEL,
    A_CAST,
    A_CHOOSE,
    A_GIVE,
    A_LEAVE,
    A_LISTEN,
    A_LOOT,
    A_LUCK,
    A_OPEN,
    A_POWER,
    A_RUN,
    A_SEARCH,
    A_SHOP,
    A_STAIRS,
    A_SWAP,
    A_USE,
    A_WAIT,
    A_WEAR,
    select_action,
)
from delve_env.engine.core.tables import (
    ARMOR,
    CAT_ARMOR,
    CAT_WEAPON,
    CHOICE,
    CLERIC,
    EXPLORE,
    FEAT_STORE,
    FIGHT,
    GEM_OF_STRENGTH,
    HALL,
    HERO,
    I_AV,
    I_CAT,
    I_DICE,
    I_FLAT,
    I_PRICE,
    I_RANGED,
    ITEMS,
    KING_SLOT,
    LIGHT_OF_LIFE,
    M_BRIBE,
    M_DICE,
    M_FLAGS,
    M_FLAT,
    M_PRICE,
    MAX_MEMBERS,
    MAX_RAISES,
    MAX_ROOMS,
    MEDICINAL_ALE,
    MF_ARMOR_EATER,
    MF_METAL_EATER,
    MF_UNDEAD,
    MIND_SHARPENER,
    MONSTERS,
    NUM_EQUIP,
    NUM_ITEM_SLOTS,
    OFF_HAND,
    RATIONS_PRICE,
    READY,
    ROGUE,
    SECRET,
    STORE,
    STORE_FACTOR_HALVES,
    STORE_FLOOR_EVERY,
    STORE_STOCK,
    WARD,
    WARDING_LANTERN,
)
from delve_env.engine.generation.floors import DX, DY, is_walkable, walk_distances
from delve_env.engine.rules.powers import can_choose_power, can_use_power

# Powers the expert uses (tables.POWER_NAMES indices) and the options it prefers, per class
# and level (tables.CLASS_OPTIONS order): Hero swords then oath, Rogue daggers (it starts with
# two) then expertise, Wizard wand magic, Cleric healer then divine spellcasting, Namer blood
# magic then true speaker.
FEROCIOUS, DOUBLE, SECOND_WIND, FOCUS, LAY_ON_HANDS, BLESS, SMITE = 12, 13, 14, 17, 18, 19, 20
HEALING_TOUCH = 23
# Fight spells the casters throw at a strong band, the hardest-hitting first: a reader's
# (spellbook or the Wizard's own), then the Namer's names (one foe, then every foe)
SPELL_BOLTS = (3, 11, 8, 1)  # firebolt, guiding bolt, inflict wounds, magic missile
NAME_BOLTS = (27, 26)  # project lightning, project fire
NAME_BLASTS = (40, 28)  # project thunder, project cold: every foe
OPTION_PREFERENCE = {(HERO, 2): 0, (HERO, 3): 0, (ROGUE, 2): 0, (ROGUE, 3): 0, (CLERIC, 2): 0}
STRONG_FOE_HP = 8  # a foe with more hearts left is worth priming features against


USED = frozenset((WARDING_LANTERN, LIGHT_OF_LIFE, GEM_OF_STRENGTH, MIND_SHARPENER,
                  MEDICINAL_ALE))  # the kinds item_action uses or hands on  # fmt: skip


def aim(target: int) -> int:
    """The power's target index in an action: A_USE + member, or A_ATTACK + foe."""
    return target - A_USE if target >= A_USE else target - A_ATTACK


def gear_value(kind: int, cat: int) -> float:
    """How good an item is in its worn slot: armor by AV, weapons by mean damage."""
    if kind <= 0 or ITEMS[kind, I_CAT] != cat:
        return -1.0
    if cat == CAT_ARMOR:
        return float(ITEMS[kind, I_AV])
    return 3.5 * ITEMS[kind, I_DICE] + ITEMS[kind, I_FLAT] + 0.5 * ITEMS[kind, I_RANGED]


# gear_value of every item kind in the armor and the weapon slot (gear_action reads it per step)
GEAR = {
    cat: np.array([gear_value(k, cat) for k in range(len(ITEMS))])
    for cat in (CAT_ARMOR, CAT_WEAPON)
}


def in_rooms(room_of: np.ndarray, rooms) -> np.ndarray:
    """The tiles of `room_of` (a floor's room per tile, -1 outside rooms) in any of `rooms`."""
    pick = np.zeros(MAX_ROOMS + 1, dtype=bool)  # the last entry stands for -1: no room
    pick[list(rooms)] = True
    return pick[room_of]


class ScriptedAgent:
    """`act(env)` returns a legal action for a `DelveEnv` (or a wrapper around one)."""

    def __init__(self, explore_to: int = 1, rest_below: float = 0.6, book: bool = True,
                 ration_target: int = 40):  # fmt: skip
        self.explore_to = explore_to  # visit every room of floors 1..explore_to (XP) going down
        self.ration_target = ration_target  # buy rations in stores up to this many
        self.rest_below = rest_below  # rest when someone stands below this share of their ceiling
        self.book = book  # take the book on the way up (it starts the hunt, RUN-6)
        self.last_step = 0  # the step count last seen (0 or a smaller one is a new game)
        self.fit_for_band = 0.9  # with a band heard inside, rest to this share first
        self.bribe_odds = (30, 20)  # least bribe chance: when in danger, against eaters
        self.new_game()

    def new_game(self) -> None:
        """Forget the last game: what was listened at, refused, selected or being cast. A game
        plays the same whatever this agent played before it (a playtest worker plays many)."""
        self.follow = None  # (member, slot, follow-up) of the item just selected
        self.refused = {}  # (member, slot, follow-up) -> the step it was refused at
        self.cast_plan = None  # (member, power, target action or None) being used
        self.listened = set()  # (floor, room) listened at (LISTEN-1: once a room)
        self.rest_to = 0.0  # rest until everyone stands at this share (a band heard), or 0
        self.no_gear = None  # (items, in party, standing) where gear_action found no upgrade
        self._standing = self._packs = None

    def act(self, env) -> int:
        env = env.unwrapped
        s, mask = env.engine.state, env.action_masks()
        self.params = env.engine.params
        self._standing = self._packs = None  # this step's, read when first asked
        if int(s.steps[0]) == 0 or int(s.steps[0]) < self.last_step:
            self.new_game()
        self.last_step = int(s.steps[0])
        if s.sel_member[0] >= 0:  # an item is selected: do what it was selected for
            plan, self.follow = self.follow, None
            a = plan[2] if plan is not None else None
            if plan is None or plan[:2] != (int(s.sel_member[0]), int(s.sel_slot[0])):
                a = A_CANCEL
            elif not mask[a]:
                self.refused[plan] = int(s.steps[0])
                a = A_CANCEL
        elif s.caster[0] >= 0:
            a = self.power_step(s, mask)
        elif s.mode[0] == CHOICE:
            a = self.level_choice(s, mask)
        elif s.mode[0] == FIGHT:
            a = self.fight(s, mask)
        elif s.mode[0] == STORE:
            a = self.store_buy(s, mask)
        elif s.mode[0] != EXPLORE:
            a = A_LEAVE  # vault locks are left alone
        elif mask[A_SHOP] and self.store_buy(s, mask) != A_LEAVE:
            a = A_SHOP
        elif s.floor[0] == 0:
            a = A_STAIRS
        else:
            a = self.explore(s, mask)
        if a is None or not mask[a]:
            a = A_WAIT if mask[A_WAIT] else int(np.flatnonzero(mask)[0])
        return int(a)

    # --- stores ---------------------------------------------------------------------------
    def store_buy(self, s, mask):
        """What to buy at the store where the party stands (in it or at its door): a light of
        life when none is held, then rations up to the target; A_LEAVE when nothing."""
        f = int(s.floor[0])
        r = int(s.room_of[0, f, s.y[0], s.x[0]])
        if f > 0 and (r < 0 or s.room_feature[0, f, r] != FEAT_STORE):
            return A_LEAVE
        level = f // STORE_FLOOR_EVERY
        factor = int(STORE_FACTOR_HALVES[level])
        gold, inside = int(s.gold[0]), s.mode[0] == STORE
        light = 1 + int(np.flatnonzero(STORE_STOCK[level] == LIGHT_OF_LIFE)[0])
        held = any(self.holding(s, m, LIGHT_OF_LIFE) is not None for m in self.standing(s))
        room = any((s.item[0, m, NUM_EQUIP:] == 0).any() for m in self.standing(s))
        if not held and room and gold >= (ITEMS[LIGHT_OF_LIFE, I_PRICE] * factor + 1) // 2:
            return A_BUY + light if inside else A_SHOP
        if s.rations[0] < self.ration_target and gold >= (RATIONS_PRICE * factor + 1) // 2:
            return A_BUY if inside else A_SHOP
        return A_LEAVE

    # --- fights ---------------------------------------------------------------------------
    def fight(self, s, mask):
        foes = [k for k, kind in enumerate(s.foe_kind[0]) if kind >= 0 and s.foe_hp[0, k] > 0]
        if foes and mask[A_BRIBE] and not s.bribe_asked[0] and self.worth_a_bribe(s, foes):
            return A_BRIBE
        if not foes or self.in_danger(s, foes):
            return A_RUN  # (a band killed by counter-blows in its ambush leaves only RUN)
        a = self.fight_item(s, mask)
        if a is None:
            a = self.fight_power(s, mask, foes)
        if a is not None:
            return a
        k = min(foes, key=lambda k: s.foe_hp[0, k])
        low = any(s.hp[0, m] * 3 <= s.ceiling[0, m] for m in self.standing(s))
        return A_LUCK + k if low and mask[A_LUCK + k] else A_ATTACK + k

    # --- class features and level options ------------------------------------------------
    def level_choice(self, s, mask):
        """CHOICE-1: the preferred option of the member owing one, else the first legal."""
        legal = [o for o in range(6) if mask[A_CHOOSE + o]]
        if not legal:
            return None
        owed = [m for m in range(MAX_MEMBERS) if s.in_party[0, m] and s.cls[0, m] >= 0
                and any(s.level[0, m] >= lv and s.options[0, m, lv - 2] < 0 for lv in (2, 3))]  # fmt: skip
        if owed:
            m = owed[0]
            level = 2 if s.options[0, m, 0] < 0 else 3
            o = OPTION_PREFERENCE.get((int(s.cls[0, m]), level))
            if o in legal:
                return A_CHOOSE + o
        return A_CHOOSE + legal[0]

    def cast(self, s, mask, m, power, target=None):
        """Start using `power` as member m (then `power_step` finishes it); None if masked,
        if m cannot use it on that target now, or if the same plan was put back lately."""
        if not mask[A_CAST + m] or not self.offers(s, m, power):
            return None
        if target is not None and not can_use_power(s, self.params, 0, m, power, aim(target)):
            return None
        refused = self.refused.get(("power", m, power, target))
        if refused is not None and 0 <= int(s.steps[0]) - refused < 50:
            return None
        self.cast_plan = (m, power, target)
        return A_CAST + m

    def first_cast(self, s, mask, m, powers, target=None):
        """`cast` for the first of `powers` member m can use now (on `target`), else None."""
        for power in powers:
            a = self.cast(s, mask, m, power, target)
            if a is not None:
                return a
        return None

    def power_step(self, s, mask):
        """A caster is chosen: the planned power, then its target; else put it back."""
        plan = self.cast_plan
        if plan is None or plan[0] != int(s.caster[0]):
            self.cast_plan = None
            return A_CANCEL
        m, power, target = plan
        if s.sel_power[0] < 0:
            if mask[A_POWER + power]:
                if target is None:
                    self.cast_plan = None
                return A_POWER + power
        elif target is not None and mask[target]:
            self.cast_plan = None
            return target
        self.refused[("power", m, power, target)] = int(s.steps[0])
        self.cast_plan = None
        return A_CANCEL

    def fight_power(self, s, mask, foes):
        """On the actor's turn: the Cleric lays hands on a member below half their ceiling
        and blesses the Hero against a strong band; against a strong foe the Hero primes
        ferocious strike, then double strike (smite with an oath, first against the undead),
        and the Rogue focuses. The primes cost no turn: the attack follows. Otherwise a caster
        throws its hardest fight spell or name at the weakest foe (a blast at three or more)."""
        m = int(s.order[0, s.actor[0]])
        cls = int(s.cls[0, m])
        k = min(foes, key=lambda k: s.foe_hp[0, k])
        strong = s.foe_hp[0, k] > STRONG_FOE_HP or len(foes) >= 3
        undead = MONSTERS[s.foe_kind[0, k], M_FLAGS] & MF_UNDEAD
        if cls == CLERIC:
            low = [b for b in self.standing(s) if s.hp[0, b] * 2 < s.ceiling[0, b]]
            if low:
                b = min(low, key=lambda b: s.hp[0, b])
                a = self.first_cast(s, mask, m, (HEALING_TOUCH, LAY_ON_HANDS), A_USE + b)
                if a is not None:
                    return a
            heroes = [b for b in self.standing(s) if s.cls[0, b] == HERO and not s.blessed[0, b]]
            return self.cast(s, mask, m, BLESS, A_USE + heroes[0]) if heroes and strong else None
        primes = {HERO: (SMITE, FEROCIOUS, DOUBLE) if undead else (FEROCIOUS, DOUBLE, SMITE),
                  ROGUE: (FOCUS,)}.get(cls, ())  # fmt: skip
        if not strong and not undead:
            return None
        blasts = NAME_BLASTS if len(foes) >= 3 else ()
        a = self.first_cast(s, mask, m, primes + blasts)
        return (
            a
            if a is not None
            else self.first_cast(s, mask, m, SPELL_BOLTS + NAME_BOLTS, A_ATTACK + k)
        )

    def offers(self, s, m, power) -> bool:
        """Member m may use `power` now on some target (the engine's own predicate)."""
        return bool(can_choose_power(s, self.params, 0, m, power))

    def heal_power(self, s, mask):
        """Outside fights: the Cleric heals the member missing the most HP, 4 or more (healing
        touch as a healer, else lay on hands); else a Hero missing 4 HP takes a second wind."""
        wounded = [b for b in self.standing(s) if s.hp[0, b] + 3 < s.ceiling[0, b]]
        if not wounded:
            return None
        b = max(wounded, key=lambda b: int(s.ceiling[0, b]) - int(s.hp[0, b]))
        for m in self.standing(s):
            if s.cls[0, m] == CLERIC:
                a = self.first_cast(s, mask, m, (HEALING_TOUCH, LAY_ON_HANDS), A_USE + b)
                if a is not None:
                    return a
        return self.cast(s, mask, b, SECOND_WIND) if s.cls[0, b] == HERO else None

    def worth_a_bribe(self, s, foes) -> bool:
        """BRIBE-1: pay when the price leaves half the purse and the chance is fair, for a band
        guarding a room that has the party in danger, or for eaters facing good gear. Asked
        once a fight: a refusal is a free round, and a party in danger runs instead."""
        kinds = [int(s.foe_kind[0, k]) for k in foes]
        odds = min(int(MONSTERS[k, M_BRIBE]) for k in kinds) + (25 if s.goodwill[0] else 0)
        price = 5 * int(s.floor[0]) * sum(int(MONSTERS[k, M_PRICE]) for k in kinds)
        if 2 * price > int(s.gold[0]):
            return False
        danger, eaters = self.bribe_odds
        if odds >= danger and s.fight_room[0] >= 0 and self.in_danger(s, foes):
            return True
        eats = any(MONSTERS[k, M_FLAGS] & (MF_METAL_EATER | MF_ARMOR_EATER) for k in kinds)
        return eats and odds >= eaters and self.good_gear(s)

    def good_gear(self, s) -> bool:
        """Someone standing wears a weapon of two dice or more, a shield or real armor."""
        for m in self.standing(s):
            ready, off, armor = (int(s.item[0, m, i]) for i in (READY, OFF_HAND, ARMOR))
            if ITEMS[ready, I_DICE] >= 2 or off > 0 or ITEMS[armor, I_AV] >= 1:
                return True
        return False

    def in_danger(self, s, foes) -> bool:
        """Someone who may be hit could fall this round, while the band is far from beaten."""
        worst = max(
            6 * MONSTERS[s.foe_kind[0, k], M_DICE] + MONSTERS[s.foe_kind[0, k], M_FLAT]
            for k in foes
        )
        if s.has_king[0] and s.hp[0, KING_SLOT] <= 2 * worst:
            return True
        foe_hp = sum(int(s.foe_hp[0, k]) for k in foes)
        if foe_hp <= 4:
            return False  # one good blow ends it
        front = self.standing(s)[:2]
        return any(s.hp[0, m] <= worst for m in front) or len(self.standing(s)) == 1

    def fight_item(self, s, mask):
        """On the actor's turn: raise a fallen member with a light of life (RAISE-1), else
        give ale to a member below a third of their ceiling."""
        m = int(s.order[0, s.actor[0]])
        fallen = self.raisable(s)
        if fallen:
            a = self.plan_item(s, mask, m, self.holding(s, m, LIGHT_OF_LIFE), A_USE + fallen[0])
            if a is not None:
                return a
        low = [b for b in self.standing(s) if s.hp[0, b] * 3 <= s.ceiling[0, b]]
        if low:
            b = min(low, key=lambda b: s.hp[0, b])
            return self.plan_item(s, mask, m, self.holding(s, m, MEDICINAL_ALE), A_USE + b)
        return None

    # --- items ----------------------------------------------------------------------------
    def plan_item(self, s, mask, m, slot, follow):
        """Select member m's item slot to do `follow` with it next; None if it cannot be
        selected or the same plan was refused lately."""
        if slot is None or not mask[select_action(m, slot)]:
            return None
        refused = self.refused.get((m, slot, follow))
        if refused is not None and 0 <= int(s.steps[0]) - refused < 50:
            return None
        self.follow = (m, slot, follow)
        return select_action(m, slot)

    def packs(self, s) -> list:
        """Per member, the first pack slot holding each item kind it carries, read once a step."""
        if self._packs is None:
            self._packs = []
            for row in s.item[0].tolist():
                first = {}
                for slot in range(NUM_ITEM_SLOTS - 1, NUM_EQUIP - 1, -1):
                    first[row[slot]] = slot  # (the first slot written last)
                self._packs.append(first)
        return self._packs

    def holding(self, s, m, kind):
        """Member m's first pack slot holding `kind`, or None."""
        return self.packs(s)[m].get(kind)

    @staticmethod
    def raisable(s) -> list:
        """Fallen members the light of life can raise (RAISE-1)."""
        return [
            m
            for m in range(MAX_MEMBERS)
            if s.in_party[0, m] and s.hp[0, m] <= 0 and m != KING_SLOT
            and s.raised[0, m] < MAX_RAISES
        ]  # fmt: skip

    def item_action(self, s, mask):
        """Outside fights: raise the fallen, hand the fallen's consumables on, use gems and
        sharpeners; light the aura of warding while hunted and no ward burns (WANDER-2)."""
        carried = USED.intersection(set().union(*self.packs(s)))
        if not carried:
            return None  # nobody carries anything it would use or hand on
        # (a loop over a kind nobody carries would find nothing: it is skipped)
        standing = self.standing(s)
        fallen = self.raisable(s) if LIGHT_OF_LIFE in carried else []
        hunted = s.hunting[0] and (s.effects[0, WARD] == 0 or s.ward_foul[0])
        if hunted and WARDING_LANTERN in carried:
            for m in standing:
                slot = self.holding(s, m, WARDING_LANTERN)
                a = self.plan_item(s, mask, m, slot, A_USE + m)
                if a is not None:
                    return a
        boosts = GEM_OF_STRENGTH in carried or MIND_SHARPENER in carried
        for m in standing if boosts or (fallen and LIGHT_OF_LIFE in carried) else ():
            slot = self.holding(s, m, LIGHT_OF_LIFE)
            if fallen and slot is not None:
                a = self.plan_item(s, mask, m, slot, A_USE + fallen[0])
                if a is not None:
                    return a
            for kind in (GEM_OF_STRENGTH, MIND_SHARPENER):
                slot = self.holding(s, m, kind)
                b = KING_SLOT if KING_SLOT in standing else standing[0]
                a = self.plan_item(s, mask, m, slot, A_USE + b)
                if a is not None:
                    return a
        for m in range(MAX_MEMBERS) if carried != {WARDING_LANTERN} else ():
            if not s.in_party[0, m] or m in standing:
                continue
            for kind in (LIGHT_OF_LIFE, MEDICINAL_ALE, GEM_OF_STRENGTH, MIND_SHARPENER):
                slot = self.holding(s, m, kind)
                for b in standing:
                    a = self.plan_item(s, mask, m, slot, A_GIVE + b)
                    if a is not None:
                        return a
        return None

    # --- walking --------------------------------------------------------------------------
    def explore(self, s, mask):
        f, x, y = int(s.floor[0]), int(s.x[0]), int(s.y[0])
        for plan in (self.item_action, self.heal_power, self.order_action, self.gear_action):
            a = plan(s, mask)
            if a is not None:
                return a
        a = self.open_action(s, mask)
        if a is not None:
            return a
        if mask[A_LOOT] and self.may_loot(s):
            return A_LOOT
        tiles = s.tiles[0, f]
        a = self.listen_action(s, mask)
        if a is not None:
            return a
        if self.needs_rest(s):
            if s.room_of[0, f, y, x] >= 0:
                return A_WAIT
            return self.walk(s, self.rest_spots(s))
        stair = self.stair_goal(s)
        rooms = self.wanted_rooms(s) if stair is None or not s.has_king[0] else []
        a = self.walk(s, in_rooms(s.room_of[0, f], rooms), allow=rooms) if rooms else None
        if a is not None:
            return a
        if stair is not None:
            if (x, y) == stair:
                return A_STAIRS
            goal = np.zeros(tiles.shape, dtype=bool)
            goal[stair[1], stair[0]] = True
            a = self.walk(s, goal)
        return a if a is not None else self.unstick(s)

    def listen_action(self, s, mask):
        """LISTEN-1 at the door of a room never entered: listen once; with a band heard there,
        go and rest in a free room until everyone is nearly whole (a doorway is a hall tile,
        WANDER-1, so resting there is not safe)."""
        r = self.fresh_door(s, mask)
        if r is None:
            return None
        f = int(s.floor[0])
        if (f, r) not in self.listened:
            self.listened.add((f, r))
            return A_LISTEN
        heard = s.room_heard[0, f, r] and s.band_kind[0, f, r, 0] >= 0
        low = any(s.hp[0, m] < self.fit_for_band * s.ceiling[0, m] for m in self.standing(s))
        if heard and low:
            self.rest_to = self.fit_for_band  # kept until rested, so it does not come back
            return self.walk(s, self.rest_spots(s))
        return None

    @staticmethod
    def fresh_door(s, mask):
        """The room never entered whose door the party stands at, when it may listen there
        (LISTEN-1, rations in hand), else None."""
        if not mask[A_LISTEN] or s.rations[0] <= 0:
            return None
        f, x, y = int(s.floor[0]), int(s.x[0]), int(s.y[0])
        rooms = [int(s.room_of[0, f, y + DY[d], x + DX[d]]) for d in range(4)]
        rooms = [r for r in rooms if r >= 0 and not s.room_entered[0, f, r]]
        return rooms[0] if rooms else None

    def open_action(self, s, mask):
        """CHEST-1: a shut chest holds the room's items and map: open it once rested, the Rogue
        first (best at avoiding traps), else whoever has the most HP."""
        openers = [m for m in range(MAX_MEMBERS) if mask[A_OPEN + m]]
        if not openers or self.needs_rest(s):
            return None
        rogues = [m for m in openers if s.cls[0, m] == ROGUE]
        return A_OPEN + (rogues[0] if rogues else max(openers, key=lambda m: int(s.hp[0, m])))

    def stair_goal(self, s):
        """The stair to take now, as (x, y), or None while this floor still has work."""
        f, depth = int(s.floor[0]), s.floor_visited.shape[1] - 1
        if s.has_king[0]:
            if f == s.book_floor[0] and not s.has_book[0] and self.book:
                return None
            return tuple(int(v) for v in s.stair_up[0, f])
        if f < depth and (int(s.maps_held[0]) >> f) != 0:
            return tuple(int(v) for v in s.stair_down[0, f])
        return None

    def wanted_rooms(self, s) -> list:
        """Rooms to walk into next: the quest's, then unvisited ones and those we fled from."""
        f, depth = int(s.floor[0]), s.floor_visited.shape[1] - 1
        quest = []
        if f == s.book_floor[0] and not s.has_book[0] and s.has_king[0] and self.book:
            quest.append(int(s.book_room[0]))
        if f == depth and not s.has_king[0]:
            quest.append(int(s.king_room[0]))
        if s.has_king[0]:
            return quest
        rooms = []
        for r in range(s.num_rooms[0, f]):
            unfinished = not s.room_entered[0, f, r] or s.band_kind[0, f, r, 0] >= 0
            map_here = s.room_map[0, f, r] and (int(s.maps_held[0]) >> f) == 0
            if map_here or (f <= self.explore_to and unfinished):
                rooms.append(r)
        return quest + [r for r in rooms if r not in quest]

    def may_loot(self, s) -> bool:
        """Loot, but leave the book until the king is in hand (unless the map lies with it)."""
        f = int(s.floor[0])
        r = s.room_of[0, f, s.y[0], s.x[0]]
        if f != s.book_floor[0] or r != s.book_room[0] or s.has_book[0]:
            return True
        return bool(s.has_king[0] and self.book) or bool(s.room_map[0, f, r])

    def walk(self, s, goal, allow=()):
        """One move along a shortest path to the nearest goal tile; None if none is reachable.

        Rooms still guarded by a band are walled off (but those in `allow`) while another way
        exists."""
        f = int(s.floor[0])
        n = int(s.num_rooms[0, f])
        shut = np.zeros(MAX_ROOMS + 1, dtype=bool)
        shut[:n] = s.band_kind[0, f, :n, 0] >= 0
        return self.step_to(s, goal, shut, allow, blind=False)

    @staticmethod
    def step_to(s, goal, shut, allow, blind):
        """`paths.walk_step` from where the party stands, the rooms in `allow` left open."""
        f = int(s.floor[0])
        shut[list(allow)] = False
        a = walk_step(s.tiles[0, f], s.fog[0, f], blind, s.room_of[0, f], shut, int(s.x[0]),
                      int(s.y[0]), goal)  # fmt: skip
        return None if a < 0 else int(a)

    def unstick(self, s):
        """No way on: search beside a secret door with unreached ground behind it (SECRET-2),
        else walk to hall tiles never seen."""
        f, x, y = int(s.floor[0]), int(s.x[0]), int(s.y[0])
        tiles = s.tiles[0, f]
        dist = np.empty(tiles.shape, dtype=np.int64)
        walk_distances(tiles, x, y, dist)
        spots = np.zeros(tiles.shape, dtype=bool)
        for sy, sx in zip(*np.nonzero(tiles == SECRET)):
            near = [(sy + DY[d], sx + DX[d]) for d in range(4)]
            near = [(ny, nx) for ny, nx in near if is_walkable(tiles[ny, nx])]
            if any(dist[n] < 0 for n in near):
                for n in near:
                    spots[n] = dist[n] >= 0
        if spots[y, x]:
            return A_SEARCH
        a = self.walk(s, spots)
        return a if a is not None else self.walk(s, (tiles == HALL) & (s.fog[0, f] == 0))

    def rest_spots(self, s):
        """Tiles where no band wanders: rooms with no band in them (not doorways, WANDER-1)."""
        f = int(s.floor[0])
        free = [r for r in range(s.num_rooms[0, f]) if s.band_kind[0, f, r, 0] < 0]
        return in_rooms(s.room_of[0, f], free)

    def needs_rest(self, s) -> bool:
        if s.rations[0] <= 0:
            return False  # FOOD-3: no healing without rations
        share = max(self.rest_below, self.rest_to)
        hp, ceiling = s.hp[0].tolist(), s.ceiling[0].tolist()
        low = any(hp[m] < share * ceiling[m] for m in self.standing(s))
        if not low:
            self.rest_to = 0.0
        return low

    # --- the party ------------------------------------------------------------------------
    def standing(self, s) -> tuple:
        """Standing member slots in marching order."""
        if self._standing is None:  # read once a step
            party, hp = s.in_party[0].tolist(), s.hp[0].tolist()
            self._standing = tuple(
                m for m in s.order[0].tolist() if m >= 0 and party[m] and hp[m] > 0
            )
        return self._standing

    def order_action(self, s, mask):
        """Bubble the king toward the back of the marching order (PARTY-2)."""
        if not s.has_king[0]:
            return None
        order = [int(m) for m in s.order[0] if m >= 0]
        pos = order.index(KING_SLOT)
        return A_SWAP + pos if pos < len(order) - 1 and mask[A_SWAP + pos] else None

    def gear_action(self, s, mask):
        """Wear a better armor or weapon from anyone's pack or a fallen member's body; the
        king is dressed first."""
        standing = self.standing(s)
        key = (s.item[0].tobytes(), s.in_party[0].tobytes(), standing)
        if key == self.no_gear:  # nothing better to wear than when last looked
            return None
        items = np.maximum(s.item[0], 0)  # (GEAR[cat][0] is -1: no item)
        # the slots gear may come from: anyone's pack, and all a fallen member carries or wears
        source = np.zeros(items.shape, dtype=bool)
        source[:, NUM_EQUIP:] = True
        for m in range(MAX_MEMBERS):
            source[m, :NUM_EQUIP] = s.in_party[0, m] and m not in standing
        best = {}  # per category: the first of the best slots, in owner then slot order
        for cat in GEAR:
            values = np.where(source, GEAR[cat][items], -1.0)
            at = int(np.argmax(values))
            best[cat] = (values.flat[at], *divmod(at, NUM_ITEM_SLOTS))
        better = False
        for m in sorted(standing, key=lambda m: m != KING_SLOT):
            for cat, worn in ((CAT_ARMOR, ARMOR), (CAT_WEAPON, READY)):
                value, owner, slot = best[cat]
                if value <= GEAR[cat][items[m, worn]]:
                    continue
                better = True
                follow = A_WEAR if owner == m else A_GIVE + m
                a = self.plan_item(s, mask, owner, slot, follow)
                if a is not None:
                    return a
        if not better:  # the same gear, owners and standing will find nothing again
            self.no_gear = key
        return None
