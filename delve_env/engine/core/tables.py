"""Rules tables as data: tiles, modes, classes, items, monsters, spells.

Every table is a numpy array indexed by the enums beside it, so compiled code reads
them as constants. Numbers come from GAME.md and the seeds; tunable numbers live in
`params.py`, not here.
"""

import numpy as np

from ..compiled.jit import njit

# --- Static sizes (capacities, not tunables) ---------------------------------------------
MAX_MEMBERS = 5  # four delvers + the king
KING_SLOT = 4  # the king always takes member slot 4 when he joins
NUM_EQUIP = 3  # item slots 0..2: ready hand, off hand, armor
PACK_SLOTS = 8  # item slots 3..10: the pack (PARTY-3)
NUM_ITEM_SLOTS = NUM_EQUIP + PACK_SLOTS
MAX_FOES = 6  # a band is 1-6 monsters (MON-1)
MAX_ROOMS = 8  # one room per 12 x 12 cell of a 48 x 24 floor
ROOM_ITEMS = 3
ROOM_PAGES = 2
MAX_DEPTH = 12
WALL_RINGS = 3  # WALL-1
MAX_SYMBOLS = 4 + MAX_DEPTH  # S = 4 + floor symbols a ring
WALL_HISTORY = 8  # guesses the observation remembers
MAX_PLATE = 3 + (MAX_DEPTH - 1) // 3  # PLATE-1: n = 3 + (floor - 1) // 3
NO_LOCK, WALL_LOCK, PLATE_LOCK = 0, 1, 2
NUM_SPELLS = 12
CELL = 12  # floors are cut into CELL x CELL cells, one room each
VIEW = 15  # the observation's map crop and coarse floor view are VIEW x VIEW

READY, OFF_HAND, ARMOR = 0, 1, 2

# --- What a room may hold besides loot and a band (STORE-1, STATUE-1, BATH-1) --------------
FEAT_NONE, FEAT_STORE, FEAT_STATUE, FEAT_BATH = 0, 1, 2, 3
FEATURE_NAMES = ("", "store", "living statue", "Bath of Fates")
STORE_FLOOR_EVERY = 3  # STORE-1: stores on floors 3, 6, 9, 12 (and the courtyard)
MAX_STOCK = 16  # lines a store's list can show (line 0: ten rations)

# --- Chests (CHEST-1): a room's chest holds the room's items and map until opened -----------
CHEST_NONE, CHEST_SHUT, CHEST_TRAPPED, CHEST_OPEN = 0, 1, 2, 3

# --- Party effects (EFFECT-1): one count of paces each -------------------------------------
WARD, ESP, SATED, LIGHT = 0, 1, 2, 3
NUM_EFFECTS = 4
EFFECT_NAMES = ("WARD", "ESP", "SATED", "LIGHT")

# --- Tiles ---------------------------------------------------------------------------------
ROCK, HALL, ROOM, DOOR, SECRET, STAIR_DOWN, STAIR_UP = 0, 1, 2, 3, 4, 5, 6
TILE_NAMES = ("rock", "hall", "room", "door", "secret door", "stair down", "stair up")

# --- Modes (observation one-hot order is fixed by ENV.md) ----------------------------------
EXPLORE, FIGHT, WALL, PLATE, STORE, STATUE, BATH, CHOICE = 0, 1, 2, 3, 4, 5, 6, 7
NUM_MODES = 8
MODE_NAMES = ("explore", "fight", "wall", "plate", "store", "statue", "bath", "choice")

# --- Classes -------------------------------------------------------------------------------
HERO, ROGUE, WIZARD, CLERIC, NAMER, KING = 0, 1, 2, 3, 4, 5
NUM_CLASSES = 6
CLASS_NAMES = ("hero", "rogue", "wizard", "cleric", "namer", "king")
PLAYABLE = ("hero", "rogue", "wizard", "cleric", "namer")

# Weapon families; a class skilled in a family adds a d6 to attacks with it (ATTACK-1).
FAM_NONE, FAM_DAGGER, FAM_STAFF, FAM_SWORD, FAM_AXE, FAM_BOW, FAM_CROSSBOW, FAM_SLING = range(8)
ALL_WEAPONS = 0xFF
SKILL_MAGIC = 1 << 8  # the magic skill's bit beside the families: +d6 to spell rolls (SKILL-1)

# columns of CLASSES
C_HP, C_HP_DIE, C_WELL, C_SKILLS, C_LEVEL, C_ATK, C_READER = range(7)
CLASSES = np.array(
    [
        # start hp, +d6?, mana well, skills bitmask (weapon families, magic), level, attack
        # bonus, reader
        [15, 1, 3, ALL_WEAPONS, 1, 0, 1],  # Hero
        [12, 0, 3, (1 << FAM_DAGGER) | (1 << FAM_BOW), 1, 0, 0],  # Rogue
        [11, 0, 6, SKILL_MAGIC, 1, 0, 1],  # Wizard
        [12, 0, 6, SKILL_MAGIC, 1, 0, 0],  # Cleric
        [12, 0, 7, SKILL_MAGIC, 1, 0, 0],  # Namer
        [30, 0, 8, ALL_WEAPONS | SKILL_MAGIC, 5, 1, 1],  # King
    ],
    dtype=np.int16,
)

# --- Items (ITEM-1) -------------------------------------------------------------------------
(
    NO_ITEM,
    DAGGER,
    STAFF,
    SWORD,
    HAND_AXE,
    GREATSWORD,
    SHORT_BOW,
    CROSSBOW,
    SLING,
    WOODEN_SHIELD,
    ROBES,
    LEATHER,
    RING_MAIL,
    MEDICINAL_ALE,
    MIND_SHARPENER,
    GEM_OF_STRENGTH,
    HONING_STONE,
    LIGHT_OF_LIFE,
    SUMMONING_STONE,
    WARDING_LANTERN,
    FOUL_LANTERN,
    GOODWILL_SCROLL,
    ESP_SCROLL,
    SATED_SCROLL,
    LIGHT_SCROLL,
    LAMP,
    BITTER_DRAUGHT,
) = range(27)
NUM_ITEMS = 27
ITEM_NAMES = (
    "",
    "dagger",
    "staff",
    "sword",
    "hand axe",
    "greatsword",
    "short bow",
    "crossbow",
    "sling",
    "wooden shield",
    "robes",
    "leather armor",
    "ring mail",
    "medicinal ale",
    "mind sharpener",
    "gem of strength",
    "honing stone",
    "light of life",
    "summoning stone",
    "aura of warding",
    "foul lantern",
    "goodwill scroll",
    "ESP scroll",
    "SATED scroll",
    "LIGHT scroll",
    "lamp",
    "bitter draught",
)

CAT_NONE, CAT_WEAPON, CAT_SHIELD, CAT_ARMOR, CAT_CONSUMABLE, CAT_LANTERN, CAT_SCROLL, CAT_TOOL = (
    range(8)
)
# columns of ITEMS
I_CAT, I_DICE, I_FLAT, I_RANGED, I_FAMILY, I_AV, I_DV, I_PRICE = range(8)
ITEMS = np.array(
    [
        # category, d6 dice, flat damage, ranged, family, AV, DV, price (gold)
        [CAT_NONE, 0, 0, 0, FAM_NONE, 0, 0, 0],
        [CAT_WEAPON, 1, 0, 0, FAM_DAGGER, 0, 0, 4],
        [CAT_WEAPON, 1, 0, 0, FAM_STAFF, 0, 0, 3],
        [CAT_WEAPON, 2, 0, 0, FAM_SWORD, 0, 0, 15],
        [CAT_WEAPON, 2, 0, 0, FAM_AXE, 0, 0, 12],
        [CAT_WEAPON, 3, 0, 0, FAM_SWORD, 0, 0, 30],
        [CAT_WEAPON, 2, 0, 1, FAM_BOW, 0, 0, 15],
        [CAT_WEAPON, 2, 1, 1, FAM_CROSSBOW, 0, 0, 25],
        [CAT_WEAPON, 0, 2, 1, FAM_SLING, 0, 0, 1],
        [CAT_SHIELD, 0, 0, 0, FAM_NONE, 1, 10, 10],
        [CAT_ARMOR, 0, 0, 0, FAM_NONE, 0, 0, 2],
        [CAT_ARMOR, 0, 0, 0, FAM_NONE, 1, 15, 15],
        [CAT_ARMOR, 0, 0, 0, FAM_NONE, 3, 25, 40],
        [CAT_CONSUMABLE, 2, 0, 0, FAM_NONE, 0, 0, 10],
        [CAT_CONSUMABLE, 0, 0, 0, FAM_NONE, 0, 0, 60],
        [CAT_CONSUMABLE, 1, 0, 0, FAM_NONE, 0, 0, 50],
        [CAT_CONSUMABLE, 0, 0, 0, FAM_NONE, 0, 0, 15],
        [CAT_CONSUMABLE, 0, 0, 0, FAM_NONE, 0, 0, 100],
        [CAT_CONSUMABLE, 0, 0, 0, FAM_NONE, 0, 0, 40],
        [CAT_LANTERN, 0, 0, 0, FAM_NONE, 0, 0, 30],
        [CAT_LANTERN, 0, 0, 0, FAM_NONE, 0, 0, 30],
        [CAT_SCROLL, 0, 0, 0, FAM_NONE, 0, 0, 40],
        [CAT_SCROLL, 0, 0, 0, FAM_NONE, 0, 0, 25],
        [CAT_SCROLL, 0, 0, 0, FAM_NONE, 0, 0, 25],
        [CAT_SCROLL, 0, 0, 0, FAM_NONE, 0, 0, 25],
        [CAT_TOOL, 0, 0, 0, FAM_NONE, 0, 0, 5],
        [CAT_CONSUMABLE, 0, 0, 0, FAM_NONE, 0, 0, 10],  # priced as the ale it looks like
    ],
    dtype=np.int16,
)

# What a consumable does when a member uses it on member b (ITEM-1, RAISE-1); a kind whose
# effect is USE_NONE cannot be used. Effects: heal dice x d6 up to the ceiling (HP-1); raise a
# fallen member to 1 HP; +dice x d6 to the ceiling (and to HP); the XP the next level still
# costs; mend the ready weapon's wear. Targets: a standing member; a fallen member who is not
# the king and was raised fewer than MAX_RAISES times; a standing member with a weapon in hand.
# Party effects (EFFECT-1), used on oneself: a lantern lit fills the WARD slot (the argument
# column: 1 for the foul lantern); a scroll read starts the effect in the argument column; a
# goodwill scroll read in a fight raises the band's bribe chance (BRIBE-3). Targets: the user
# themself, standing; the user themself, a reader (C_READER). A bitter draught lowers the
# ceiling by 1d(argument), never below 1 (HP-1).
USE_NONE, USE_HEAL, USE_RAISE, USE_CEILING, USE_NEXT_LEVEL, USE_HONE = range(6)
USE_LANTERN, USE_SCROLL, USE_GOODWILL, USE_SUMMON, USE_BITTER = range(6, 11)
ON_STANDING, ON_FALLEN, ON_ARMED, ON_SELF, ON_SELF_READER = range(5)
MAX_RAISES = 3  # RAISE-1
# columns of USES: what it does, its dice (or the effect's argument), on whom
U_EFFECT, U_DICE, U_TARGET = range(3)
USES = np.zeros((NUM_ITEMS, 3), dtype=np.int16)
USES[MEDICINAL_ALE] = (USE_HEAL, 2, ON_STANDING)  # heal 2d6
USES[LIGHT_OF_LIFE] = (USE_RAISE, 0, ON_FALLEN)  # stands at 1 HP (RAISE-1)
USES[GEM_OF_STRENGTH] = (USE_CEILING, 1, ON_STANDING)  # +1d6 ceiling
USES[MIND_SHARPENER] = (USE_NEXT_LEVEL, 0, ON_STANDING)  # +XP to reach the next level
USES[HONING_STONE] = (USE_HONE, 0, ON_ARMED)  # restores the weapon in hand
USES[WARDING_LANTERN] = (USE_LANTERN, 0, ON_SELF)  # WARD: half the wandering chance
USES[FOUL_LANTERN] = (USE_LANTERN, 1, ON_SELF)  # WARD, foul: twice the wandering chance
USES[GOODWILL_SCROLL] = (USE_GOODWILL, 0, ON_SELF_READER)  # BRIBE-3, in a fight
USES[ESP_SCROLL] = (USE_SCROLL, ESP, ON_SELF_READER)
USES[SATED_SCROLL] = (USE_SCROLL, SATED, ON_SELF_READER)
USES[LIGHT_SCROLL] = (USE_SCROLL, LIGHT, ON_SELF_READER)
USES[SUMMONING_STONE] = (USE_SUMMON, 0, ON_SELF)  # an ally joins this fight
USES[BITTER_DRAUGHT] = (USE_BITTER, 3, ON_STANDING)  # -1d3 ceiling, a bad bottle

# ITEM-2: kinds with a look are unknown until used or named by a statue (starting gear and
# bought items are known); an unknown item shows only its look. Kinds of one look share their
# target (USES), so what may be done with an unknown item never tells which kind it is.
LOOK_NONE, LOOK_BOTTLE, LOOK_SCROLL, LOOK_LANTERN = range(4)
NUM_LOOKS = 4
LOOK_NAMES = ("", "unknown bottle", "unknown scroll", "unknown lantern")
LOOK = np.zeros(NUM_ITEMS, dtype=np.int8)
LOOK[MEDICINAL_ALE] = LOOK[MIND_SHARPENER] = LOOK[BITTER_DRAUGHT] = LOOK_BOTTLE
LOOK[GOODWILL_SCROLL] = LOOK[ESP_SCROLL] = LOOK[SATED_SCROLL] = LOOK[LIGHT_SCROLL] = LOOK_SCROLL
LOOK[WARDING_LANTERN] = LOOK[FOUL_LANTERN] = LOOK_LANTERN

# Starting gear per class: (ready hand, off hand, armor, first pack item) (PARTY-3).
START_GEAR = np.array(
    [
        [SWORD, WOODEN_SHIELD, LEATHER, NO_ITEM],  # Hero
        [DAGGER, DAGGER, NO_ITEM, SHORT_BOW],  # Rogue
        [STAFF, NO_ITEM, ROBES, NO_ITEM],  # Wizard
        [STAFF, NO_ITEM, ROBES, NO_ITEM],  # Cleric
        [DAGGER, NO_ITEM, NO_ITEM, LAMP],  # Namer
        [NO_ITEM, NO_ITEM, NO_ITEM, NO_ITEM],  # King, in rags
    ],
    dtype=np.int16,
)

# Items a room may hold, by floor tier (0..3); drawn uniformly among the kinds found on the
# floor (LOOT-1, FOUND_FROM: the bitter draught from floor 2, ITEM-1; vaults.draw_room_item).
ROOM_ITEM_TABLE = np.array(
    [
        [DAGGER, STAFF, SLING, WOODEN_SHIELD, LEATHER, MEDICINAL_ALE, LIGHT_SCROLL, HAND_AXE,
         BITTER_DRAUGHT],
        [SWORD, HAND_AXE, SHORT_BOW, WOODEN_SHIELD, FOUL_LANTERN, MEDICINAL_ALE, HONING_STONE,
         ESP_SCROLL, BITTER_DRAUGHT],
        [GREATSWORD, CROSSBOW, RING_MAIL, WARDING_LANTERN, MEDICINAL_ALE, GEM_OF_STRENGTH,
         SATED_SCROLL, LIGHT_OF_LIFE, BITTER_DRAUGHT],
        [GREATSWORD, CROSSBOW, RING_MAIL, RING_MAIL, MIND_SHARPENER, GEM_OF_STRENGTH,
         LIGHT_OF_LIFE, GOODWILL_SCROLL, BITTER_DRAUGHT],
    ],
    dtype=np.int16,
)  # fmt: skip
ROOM_ITEM_KINDS = ROOM_ITEM_TABLE.shape[1]
FOUND_FROM = np.ones(NUM_ITEMS, dtype=np.int8)  # the shallowest floor a room holds the kind on
FOUND_FROM[BITTER_DRAUGHT] = 2


# --- Stores (STORE-1..2, ITEM-1: the stock and prices are data) ------------------------------
# A store's level: 0 the courtyard's, then 1..4 for floors 3, 6, 9, 12 (floor // 3). Its price
# factor is STORE_FACTOR_HALVES[level] / 2: 1.0, 1.5, 2.0, 2.5, 3.0. Line 0 of every store's
# list is ten rations; lines 1.. are STORE_STOCK[level] (0 = no line). Each level's row repeats
# the one above it and adds a little, so a kind keeps its line number in every store; the light
# of life is line 1 everywhere (STORE-2).
NUM_STORE_LEVELS = 1 + MAX_DEPTH // STORE_FLOOR_EVERY
STORE_FACTOR_HALVES = np.array([2, 3, 4, 5, 6], dtype=np.int16)
RATIONS_PER_BUY = 10  # STORE-2: ten to a purchase, to the party
RATIONS_PRICE = 20  # ... for 20 gold x factor
RATIONS_CODE = NUM_ITEMS  # how line 0 (rations) shows in the observation
REPAIR_WEAR_GOLD = 3  # gold x factor per point of wear (damage or AV lost to eaters) mended
REPAIR_DV_GOLD = 1  # gold x factor per point of durability (DV) restored
STORE_STOCK = np.array(
    [
        [LIGHT_OF_LIFE, MEDICINAL_ALE, DAGGER, STAFF, SLING, WOODEN_SHIELD, LEATHER,
         0, 0, 0, 0, 0, 0, 0, 0],  # the courtyard
        [LIGHT_OF_LIFE, MEDICINAL_ALE, DAGGER, STAFF, SLING, WOODEN_SHIELD, LEATHER,
         SWORD, HAND_AXE, HONING_STONE, 0, 0, 0, 0, 0],  # floor 3
        [LIGHT_OF_LIFE, MEDICINAL_ALE, DAGGER, STAFF, SLING, WOODEN_SHIELD, LEATHER,
         SWORD, HAND_AXE, HONING_STONE, SHORT_BOW, ESP_SCROLL, 0, 0, 0],  # floor 6
        [LIGHT_OF_LIFE, MEDICINAL_ALE, DAGGER, STAFF, SLING, WOODEN_SHIELD, LEATHER,
         SWORD, HAND_AXE, HONING_STONE, SHORT_BOW, ESP_SCROLL, RING_MAIL, CROSSBOW, 0],  # 9
        [LIGHT_OF_LIFE, MEDICINAL_ALE, DAGGER, STAFF, SLING, WOODEN_SHIELD, LEATHER,
         SWORD, HAND_AXE, HONING_STONE, SHORT_BOW, ESP_SCROLL, RING_MAIL, CROSSBOW,
         GREATSWORD],  # floor 12
    ],
    dtype=np.int16,
)  # fmt: skip


# --- Monsters (MON-1) -------------------------------------------------------------------------
MF_METAL_EATER, MF_ARMOR_EATER, MF_DRAINER, MF_XP_DRAINER = 1, 2, 4, 8
MF_FOOD_THIEF, MF_UNDEAD, MF_RANGED = 16, 32, 64

# columns of MONSTERS
M_TIER, M_HEARTS, M_ATK, M_DEF, M_DICE, M_FLAT, M_AV, M_BRIBE, M_PRICE, M_FLAGS = range(10)
MONSTER_NAMES = (
    "giant rat",
    "goblin",
    "kobold slinger",
    "rust mite",
    "orc",
    "skeleton",
    "giant spider",
    "acid slug",
    "ogre",
    "wight",
    "dark archer",
    "ghoul",
    "troll",
    "wraith",
    "minotaur",
    "fiend",
    # MON-1: the bestiary grew from 16 to 24 kinds; the new ones come last so that every older
    # kind keeps its index (a kind's tier is its M_TIER column, TIER_KINDS lists them)
    "zombie",
    "stirge",
    "hobgoblin archer",
    "shadow",
    "rust monster",
    "gelatinous cube",
    "vampire",
    "hill giant",
)
MONSTERS = np.array(
    [
        # tier, hearts, attack, defense, d6 dice, flat, AV, bribe %, price factor, flags
        [0, 3, 0, 0, 0, 2, 0, 40, 1, MF_FOOD_THIEF],
        [0, 5, 1, 1, 1, 0, 0, 30, 2, 0],
        [0, 4, 0, 0, 0, 2, 0, 35, 1, MF_RANGED],
        [0, 4, 0, 1, 1, 0, 1, 20, 1, MF_METAL_EATER],
        [1, 9, 2, 1, 1, 1, 1, 25, 3, 0],
        [1, 8, 1, 2, 1, 0, 1, 10, 2, MF_UNDEAD],
        [1, 7, 2, 1, 1, 1, 0, 15, 2, 0],
        [1, 8, 1, 0, 1, 0, 0, 15, 2, MF_ARMOR_EATER],
        [2, 16, 3, 1, 2, 0, 1, 30, 4, 0],
        [2, 12, 3, 2, 1, 0, 1, 10, 4, MF_DRAINER | MF_UNDEAD],
        [2, 10, 3, 2, 2, 0, 1, 25, 4, MF_RANGED],
        [2, 11, 2, 1, 1, 1, 0, 15, 3, MF_FOOD_THIEF | MF_UNDEAD],
        [3, 24, 4, 2, 2, 1, 2, 20, 6, 0],
        [3, 18, 4, 3, 2, 0, 1, 10, 6, MF_XP_DRAINER | MF_UNDEAD],
        [3, 28, 5, 2, 3, 0, 2, 20, 7, 0],
        [3, 22, 5, 3, 2, 0, 2, 10, 8, MF_UNDEAD | MF_ARMOR_EATER],
        [0, 6, 0, 0, 1, 0, 0, 10, 1, MF_UNDEAD],
        [0, 2, 1, 2, 0, 1, 0, 30, 1, MF_DRAINER],
        [1, 8, 2, 1, 1, 1, 1, 20, 3, MF_RANGED],
        [1, 7, 2, 2, 1, 0, 0, 10, 3, MF_XP_DRAINER | MF_UNDEAD],
        [2, 14, 3, 2, 1, 1, 2, 15, 4, MF_METAL_EATER],
        [2, 18, 2, 0, 2, 0, 0, 15, 4, MF_ARMOR_EATER],
        [3, 20, 5, 3, 2, 0, 1, 10, 7, MF_DRAINER | MF_UNDEAD],
        [3, 26, 4, 2, 3, 0, 1, 25, 7, MF_RANGED],
    ],
    dtype=np.int16,
)
NUM_MONSTERS = len(MONSTER_NAMES)
NUM_TIERS = 4  # floors 1-3, 4-6, 7-9, 10-12
KINDS_PER_TIER = 6
# TIER_KINDS[t]: the kinds of tier t (a band of a tier-t floor draws from this row, MON-1)
TIER_KINDS = np.array(
    [np.flatnonzero(MONSTERS[:, M_TIER] == t) for t in range(NUM_TIERS)], dtype=np.int16
)

# --- Spells (SPELL-1); pages carry one each ---------------------------------------------------
SPELL_NAMES = (
    "light",
    "magic missile",
    "find familiar",
    "firebolt",
    "invisibility",
    "minor illusion",
    "aid",
    "dispel magic",
    "inflict wounds",
    "locate creature",
    "truth",
    "guiding bolt",
)

MAGE_SPELLS = 6  # spells 0-5 are seed 003's mage spells, 6-11 the divine ones

# --- Powers: everything a member casts or uses from mana (SPELL-1, class features, NAME-1) ---
# One table for the 12 spells, the class features and the Namer's verb + noun spells, so one
# action family (actions.A_POWER) and one selection step serve them all. A power is used by
# `actions.A_CAST + m` (who), then `A_POWER + i` (what), then, where it needs one, a target:
# `A_USE + b` (a member) or `A_ATTACK + k` (a foe).
T_SELF, T_MEMBER, T_FOE, T_PARTY = 0, 1, 2, 3  # the caster / a member / a foe / no target
NO_USE = -1  # not usable in this kind of screen
# columns of POWERS: mana cost, target in a fight, target outside fights, takes the turn
PW_COST, PW_FIGHT, PW_EXPLORE, PW_TURN = range(4)
POWER_NAMES = SPELL_NAMES + (
    "ferocious strike",  # 12 Hero
    "double strike",  # 13 Hero (and a Rogue with the bows specialty)
    "second wind",  # 14 Hero
    "dodge",  # 15 Rogue
    "hide",  # 16 Rogue
    "focus",  # 17 Rogue
    "lay on hands",  # 18 Cleric: the cost is per hit point healed
    "bless",  # 19 Cleric
    "smite",  # 20 Hero, oath (level 3)
    "charge!",  # 21 Hero, commander (level 3)
    "holy water",  # 22 Cleric, exorcist (level 2)
    "healing touch",  # 23 Cleric, healer (level 2)
    "holy weapon",  # 24 Cleric, holy weapon (level 2)
    "blood magic",  # 25 Namer (level 2): 1 HP for d6 mana
) + tuple(f"name: {verb} {noun}" for verb, noun in (
    ("project", "fire"), ("project", "lightning"), ("project", "cold"), ("create", "light"),
    ("remove", "curse"), ("locate", "coin"), ("locate", "spirit"), ("conceal", "shadow"),
    ("conceal", "sight"), ("bind", "rope"), ("create", "water"), ("shape", "air"),
    ("locate", "sound"), ("curse", "thought"), ("project", "thunder"), ("grow", "sword"),
))  # fmt: skip
FIRST_FEATURE = NUM_SPELLS
FIRST_NAME_SPELL = FIRST_FEATURE + 14
NUM_POWERS = len(POWER_NAMES)
_F, _M, _T, _P, _N = T_FOE, T_MEMBER, T_SELF, T_PARTY, NO_USE
POWERS = np.array(
    [
        # cost, in a fight, outside, turn
        [1, _F, _P, 1],  # light: blinds a foe / LIGHT
        [1, _F, _N, 1],  # magic missile: 3 darts of 2, always hit
        [1, _P, _P, 1],  # find familiar: a 1-heart ally / listen at every door in sight
        [2, _F, _N, 1],  # firebolt: ranged 2d6, mana back with chance 2/3
        [2, _M, _M, 1],  # invisibility
        [1, _P, _N, 1],  # minor illusion: the band's next blow strikes the illusion
        [1, _M, _M, 1],  # aid: heal d6, past the ceiling
        [2, _F, _P, 1],  # dispel magic: 2d6 to an undead or fiend / ends a bad effect
        [2, _F, _N, 1],  # inflict wounds: 4d6, halved on a save
        [1, _F, _P, 1],  # locate creature: marks a foe / the king's or book's room
        [2, _F, _N, 1],  # truth: the band tells the floor's rooms unless it saves
        [2, _F, _N, 1],  # guiding bolt: ranged 3d6, marks the target
        [1, _T, _N, 0],  # ferocious strike
        [1, _T, _N, 0],  # double strike
        [2, _T, _T, 0],  # second wind
        [1, _T, _N, 0],  # dodge
        [1, _T, _N, 0],  # hide
        [1, _T, _N, 0],  # focus
        [1, _M, _M, 1],  # lay on hands
        [1, _M, _N, 1],  # bless
        [2, _T, _N, 0],  # smite
        [1, _P, _N, 0],  # charge!
        [1, _F, _N, 1],  # holy water
        [1, _M, _M, 1],  # healing touch
        [1, _P, _N, 1],  # holy weapon
        [0, _T, _T, 0],  # blood magic
        [2, _F, _N, 1],  # project fire: 2d6 to one foe
        [3, _F, _N, 1],  # project lightning: 3d6 to one foe
        [2, _P, _N, 1],  # project cold: d6 to every foe
        [1, _N, _P, 1],  # create light: LIGHT
        [1, _N, _P, 1],  # remove curse: ends the foul ward
        [1, _N, _P, 1],  # locate coin: shows the floor's rooms holding gold
        [1, _N, _P, 1],  # locate spirit: shows the king's or the book's room
        [1, _M, _N, 1],  # conceal shadow: the member hides
        [2, _M, _M, 1],  # conceal sight: invisibility
        [2, _F, _N, 1],  # bind rope: the foe loses its next blow
        [2, _M, _M, 1],  # create water: heal d6
        [2, _N, _P, 1],  # shape air: WARD
        [1, _N, _P, 1],  # locate sound: hear every band behind a door in sight
        [1, _F, _N, 1],  # curse thought: the foe strikes with disadvantage
        [3, _P, _N, 1],  # project thunder: 2d6 to every foe
        [1, _T, _N, 0],  # grow sword: the caster's next hit deals a d6 more
    ],
    dtype=np.int8,
)
assert len(POWERS) == NUM_POWERS

# Seed 003's D66 table of true names (NAME-1): index 6 x (tens - 1) + (ones - 1)
TRUE_NAMES = (
    "spirit", "fire", "water", "air", "earth", "word",
    "create", "transmute", "shape", "remove", "project", "curse",
    "taste", "touch", "smell", "sight", "sound", "thought",
    "cold", "gravity", "lightning", "thunder", "light", "shadow",
    "wand", "cup", "sword", "coin", "arrow", "rope",
    "grow", "shrink", "bind", "release", "locate", "conceal",
)  # fmt: skip
NUM_NAMES = len(TRUE_NAMES)
# the two names each name spell needs, in POWER_NAMES order from FIRST_NAME_SPELL
NAME_SPELLS = np.array(
    [[TRUE_NAMES.index(w) for w in POWER_NAMES[i][6:].split()]
     for i in range(FIRST_NAME_SPELL, NUM_POWERS)],
    dtype=np.int8,
)  # fmt: skip

# Primed features: bits of `primed`, spent by the member's next attack or the next hit taken
PRIME_FEROCIOUS, PRIME_DOUBLE, PRIME_FOCUS, PRIME_DODGE, PRIME_SMITE, PRIME_GROW = (
    1, 2, 4, 8, 16, 32
)  # fmt: skip
# What spells leave on a foe: bits of `foe_status`
FS_MARKED, FS_BLIND, FS_BOUND = 1, 2, 4

# --- Level 2 and 3 options (CLASS-1, CHOICE-1): CLASS_OPTIONS[class][level - 2] ----------------
MAX_OPTIONS = 6
CLASS_OPTIONS = (
    (("swords", "bows", "armorer"), ("oath", "commander")),  # Hero
    (("daggers", "bows"), ("expertise", "swords", "magic")),  # Rogue
    (("wand magic",), tuple(f"signature: {n}" for n in SPELL_NAMES[:MAGE_SPELLS])),  # Wizard
    (("healer", "holy weapon", "exorcist"), ("divine spellcasting",)),  # Cleric
    (("blood magic",), ("true speaker",)),  # Namer
    ((), ()),  # King: level 5 from the start, no choices
)
NUM_OPTIONS = np.array([[len(lv) for lv in c] for c in CLASS_OPTIONS], dtype=np.int8)


@njit(cache=True)
def tier_of(floor):
    """Monster and loot tier of a floor: 1-3 -> 0, 4-6 -> 1, 7-9 -> 2, 10-12 -> 3."""
    return min(3, max(0, (floor - 1) // 3))


# --- Sixpence's events (SIX-1): once a run each gives a hint and a gift ----------------------
KEEPER_EVENTS = (
    "start",
    "king found",
    "first spell page",
    "first member dead",
    "first metal bite",
    "first trap sprung on a non-rogue",
    "300 paces without reading a report",
    "first locked stair",
    "rations ran out",
    "first flight",
    "first vault worked by a non-rogue",
    "first secret door walked past",
    "first party effect",
    "a store floor reached",
    "first armor bite",
    "first level gained",
    "first ceiling drained",
    "hunting starts",
    "first ambush at a door",
    "first item broken by a statue",
    "first bribe asked",
)
(
    SIX_START, SIX_KING, SIX_PAGE, SIX_DEATH, SIX_METAL_BITE, SIX_TRAP, SIX_NO_REPORT,
    SIX_LOCKED_STAIR, SIX_RATIONS_OUT, SIX_FLIGHT, SIX_VAULT, SIX_SECRET, SIX_EFFECT,
    SIX_STORE_FLOOR, SIX_ARMOR_BITE, SIX_LEVEL, SIX_CEILING, SIX_HUNTING, SIX_AMBUSH,
    SIX_STATUE_BROKE, SIX_BRIBE,
) = range(len(KEEPER_EVENTS))  # fmt: skip
NUM_KEEPER_EVENTS = len(KEEPER_EVENTS)
REPORT_PACES = 300  # SIX-1: paces without reading a report before Sixpence speaks up
# columns of KEEPER_GIFTS: an item kind (0 none), gold, rations, the floor's map (1)
G_ITEM, G_GOLD, G_RATIONS, G_MAP = range(4)
KEEPER_GIFTS = np.array(
    [
        [MEDICINAL_ALE, 0, 0, 0],
        [RING_MAIL, 0, 0, 0],
        [NO_ITEM, 0, 10, 0],
        [LIGHT_OF_LIFE, 0, 0, 0],
        [HAND_AXE, 0, 0, 0],
        [NO_ITEM, 1, 0, 0],
        [NO_ITEM, 1, 0, 0],
        [NO_ITEM, 1, 0, 0],
        [NO_ITEM, 0, 10, 0],
        [NO_ITEM, 0, 0, 1],
        [WOODEN_SHIELD, 0, 0, 0],
        [SHORT_BOW, 0, 0, 0],
        [NO_ITEM, 1, 0, 0],
        [HONING_STONE, 0, 0, 0],
        [WOODEN_SHIELD, 0, 0, 0],
        [MIND_SHARPENER, 0, 0, 0],
        [GEM_OF_STRENGTH, 0, 0, 0],
        [WARDING_LANTERN, 0, 0, 0],
        [ESP_SCROLL, 0, 0, 0],
        [NO_ITEM, 1, 0, 0],
        [GOODWILL_SCROLL, 0, 0, 0],
    ],
    dtype=np.int16,
)
assert len(KEEPER_GIFTS) == NUM_KEEPER_EVENTS


# --- Events: bits a step raises, read by rewards, stats and the keeper -------------------------
EVENT_NAMES = (
    "new room",
    "new floor",
    "fight",
    "kill",
    "level up",
    "death",
    "map",
    "page",
    "book",
    "king",
    "won",
    "lost",
    "ambush",
    "fled",
    "secret door found",
    "wandering band",
    "hunger",
    "loot",
    "hunting",
    "vault opened",
    "vault wound",
    "bribe paid",
    "band heard",
    "metal bite",
    "armor bite",
    "drained",
)
(
    EV_NEW_ROOM,
    EV_NEW_FLOOR,
    EV_FIGHT,
    EV_KILL,
    EV_LEVEL,
    EV_DEATH,
    EV_MAP,
    EV_PAGE,
    EV_BOOK,
    EV_KING,
    EV_WON,
    EV_LOST,
    EV_AMBUSH,
    EV_FLED,
    EV_SECRET,
    EV_WANDER,
    EV_HUNGER,
    EV_LOOT,
    EV_HUNTING,
    EV_VAULT_OPEN,
    EV_VAULT_WOUND,
    EV_BRIBE,
    EV_HEARD,
    EV_METAL_BITE,
    EV_ARMOR_BITE,
    EV_DRAINED,
) = (1 << i for i in range(len(EVENT_NAMES)))
NUM_EVENTS = len(EVENT_NAMES)
