"""The party: PARTY-1..4, HP-1..2, RAISE-1, XP-1..4, LUCK-1..2; using items (ITEM-1)."""

from __future__ import annotations

import numpy as np
import pytest

from delve_env import DelveEnv
from delve_env.engine.core.actions import (
    A_ATTACK,
    A_CANCEL,
    A_GIVE,
    A_LOOT,
    A_LUCK,
    A_STAIRS,
    A_SWAP,
    A_USE,
    A_WEAR,
    NUM_ACTIONS,
    select_action,
)
from delve_env.engine.core.params import P_KILL_XP, make_params
from delve_env.engine.core.tables import (
    ARMOR,
    BITTER_DRAUGHT,
    CLERIC,
    EV_DEATH,
    FIGHT,
    GEM_OF_STRENGTH,
    HERO,
    HONING_STONE,
    KING,
    KING_SLOT,
    LEATHER,
    LIGHT_OF_LIFE,
    MEDICINAL_ALE,
    MIND_SHARPENER,
    NUM_EQUIP,
    NUM_ITEM_SLOTS,
    OFF_HAND,
    PACK_SLOTS,
    READY,
    ROGUE,
    SHORT_BOW,
    SWORD,
    WIZARD,
    WOODEN_SHIELD,
)
from delve_env.engine.outputs.layout import (
    PARTY_ARMOR,
    PARTY_RAISED,
    STATUS_SEL_MEMBER,
    STATUS_SEL_SLOT,
)
from delve_env.engine.rules.fights import hit_foe, member_attack, pick_target
from delve_env.engine.rules.loot import take_book
from delve_env.engine.rules.party import (
    add_member,
    gain_level,
    gain_xp,
    heal,
    is_known,
    join_king,
    level_cost,
    wound,
)
from delve_env.engine.rules.quest import free_king

GOBLIN, SPIDER = 1, 6  # bestiary rows (tables.MONSTER_NAMES)


# --- PARTY-1 -------------------------------------------------------------------------------


def test_party_1_default_party_is_hero_rogue_wizard_cleric(scene):
    """PARTY-1: four delvers by default, Hero, Rogue, Wizard, Cleric, in that marching order;
    the fifth slot (the king's) is empty."""
    s = scene.s
    assert list(s.cls[0, :4]) == [HERO, ROGUE, WIZARD, CLERIC]
    assert list(s.in_party[0]) == [True, True, True, True, False]
    assert list(s.order[0]) == [0, 1, 2, 3, -1]


@pytest.mark.parametrize("party", [("rogue",), ("namer", "cleric"), ("hero",) * 4])
def test_party_1_a_party_is_one_to_four_delvers(party):
    """PARTY-1: any 1..4 delvers from the classes make a party."""
    env = DelveEnv(depth=2, party=party)
    env.reset(seed=1)
    s = env.engine.state
    assert s.in_party[0].sum() == len(party)
    assert (s.order[0] >= 0).sum() == len(party)


@pytest.mark.parametrize("party", [(), ("hero",) * 5, ("king",)])
def test_party_1_no_empty_party_no_fifth_delver_and_the_king_is_not_playable(party):
    """PARTY-1: zero or five delvers, or the king as a delver, are refused."""
    with pytest.raises(ValueError):
        DelveEnv(depth=2, party=party)


@pytest.mark.nojit
def test_party_1_the_king_joins_as_a_fifth_member_when_found(scene):
    """PARTY-1: entering the king's room (floor D) with no band there, the king joins as the
    fifth member at the back of the marching order: level 5, attack +1, 30 HP, in rags."""
    s = scene.s
    D, r = scene.depth, int(s.king_room[0])
    scene.clear_band(D, r)
    scene.enter_room(D, r)
    assert s.has_king[0]
    assert s.in_party[0, KING_SLOT] and s.cls[0, KING_SLOT] == KING
    assert list(s.order[0]) == [0, 1, 2, 3, KING_SLOT]
    assert s.hp[0, KING_SLOT] == s.ceiling[0, KING_SLOT] == 30
    assert s.level[0, KING_SLOT] == 5 and s.atk[0, KING_SLOT] == 1
    assert (s.item[0, KING_SLOT] == 0).all()


# --- PARTY-2 -------------------------------------------------------------------------------


def aim_counts(scene, n=4000):
    s, p = scene.s, scene.p
    g = scene.rng(21)
    counts = np.zeros(5, dtype=np.int64)
    for _ in range(n):
        counts[pick_target(s, p, 0, g)] += 1
    return counts / n


def test_party_2_monsters_aim_at_the_front_70_percent_of_the_time(scene):
    """PARTY-2: with four standing, positions 1-2 are hit 70% of the time; everyone can be
    aimed at."""
    freq = aim_counts(scene)
    front = freq[scene.s.order[0, 0]] + freq[scene.s.order[0, 1]]
    assert 0.65 < front < 0.75
    assert (freq[:4] > 0.1).all()


def test_party_2_the_front_is_the_first_two_standing_members(scene):
    """PARTY-2 (project rule): with the first marcher dead, the front is positions 2 and 3;
    the dead are never aimed at."""
    s = scene.s
    s.order[0, :4] = [2, 0, 3, 1]  # wizard first
    s.hp[0, 2] = 0
    freq = aim_counts(scene)
    assert freq[2] == 0
    assert 0.65 < freq[0] + freq[3] < 0.75
    assert 0.25 < freq[1] < 0.35


def test_party_2_marching_order_changes_freely_outside_fights_not_in_them(scene):
    """PARTY-2: a swap outside a fight reorders the marching order; in a fight it is not
    offered."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    scene.act(A_SWAP + 1)
    assert list(s.order[0, :4]) == [0, 2, 1, 3]
    scene.act(A_SWAP + 0)
    assert list(s.order[0, :4]) == [2, 0, 1, 3]
    scene.fight([GOBLIN])
    mask = scene.refresh()
    assert not mask[A_SWAP : A_SWAP + 4].any()


def test_party_2_the_king_at_the_back_is_hit_less_often(scene):
    """PARTY-2: with the king joined at position 5, monsters aim at him 10% of the time (the
    back three share 30%), at each front member 35%."""
    s = scene.s
    s.in_party[0, KING_SLOT] = True
    s.hp[0, KING_SLOT] = 30
    s.order[0, 4] = KING_SLOT
    freq = aim_counts(scene, 6000)
    assert 0.07 < freq[KING_SLOT] < 0.13
    assert 0.31 < freq[0] < 0.39


# --- PARTY-3 -------------------------------------------------------------------------------


def test_party_3_every_member_has_the_listed_attributes(scene):
    """PARTY-3: HP with a ceiling, mana with a well, level, XP, attack bonus, luck dice,
    raised count, equipment (ready hand, off hand, armor) and a pack of 8 slots."""
    s = scene.s
    assert PACK_SLOTS == 8 and NUM_ITEM_SLOTS == NUM_EQUIP + 8
    for m in range(4):
        assert 1 <= s.hp[0, m] <= s.ceiling[0, m]
        assert 0 <= s.mana[0, m] <= s.well[0, m]
        assert s.level[0, m] == 1 and s.xp[0, m] == 0 and s.atk[0, m] == 0
        assert s.luck[0, m] == 3 and s.raised[0, m] == 0
    hero = s.item[0, 0]
    assert hero[READY] == SWORD and hero[ARMOR] > 0 and hero[OFF_HAND] > 0
    assert s.item.shape[2] == NUM_ITEM_SLOTS


def test_party_3_a_hero_starts_at_15_plus_1d6_hp_the_others_at_their_flat_hp(scene):
    """The class table's start HP: a Hero 15 + 1d6 (each of 16..21 seen over 120 joins, HP
    at the ceiling), a Cleric always 12."""
    s = scene.s
    g = scene.rng(7)
    starts = {HERO: set(), CLERIC: set()}
    for _ in range(120):
        for cls in starts:
            s.item[0, 0] = 0
            add_member(s, 0, 0, cls, g)
            assert s.hp[0, 0] == s.ceiling[0, 0]
            starts[cls].add(int(s.hp[0, 0]))
    assert starts == {HERO: set(range(16, 22)), CLERIC: {12}}


def test_party_3_a_pack_holds_8_items_and_no_more(scene):
    """PARTY-3: a member can be handed items until the 8 pack slots are full; then giving
    to them is no longer offered."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    s.item[0, 1, NUM_EQUIP:] = 0
    s.item[0, 1, NUM_EQUIP:] = MEDICINAL_ALE  # the rogue carries 8 ales
    s.item[0, 2, NUM_EQUIP:] = 0  # the wizard's pack is empty
    for k in range(8):
        assert scene.offers(1, NUM_EQUIP + k, A_GIVE + 2)
        scene.give(1, NUM_EQUIP + k, 2)
    assert (s.item[0, 2, NUM_EQUIP:] == MEDICINAL_ALE).all()
    s.item[0, 0, NUM_EQUIP] = SHORT_BOW
    assert not scene.offers(0, NUM_EQUIP, A_GIVE + 2)
    assert scene.offers(0, NUM_EQUIP, A_GIVE + 1)


# --- PARTY-4 -------------------------------------------------------------------------------


def test_party_4_items_pass_between_members_outside_a_fight(scene):
    """PARTY-4: the rogue's short bow (pack slot 1) goes to the wizard's first free pack
    slot, at no cost; selecting it first shows in the observation."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    assert s.item[0, 1, NUM_EQUIP] == SHORT_BOW
    scene.act(select_action(1, NUM_EQUIP))
    status = scene.obs()["status"]
    assert status[STATUS_SEL_MEMBER] == 2 and status[STATUS_SEL_SLOT] == NUM_EQUIP + 1
    scene.act(A_GIVE + 2)
    assert s.item[0, 1, NUM_EQUIP] == 0
    assert s.item[0, 2, NUM_EQUIP] == SHORT_BOW
    assert s.pace[0] == 0 and s.sel_member[0] == -1
    assert scene.obs()["status"][STATUS_SEL_MEMBER] == 0


def test_party_4_a_selection_offers_only_its_follow_ups(scene):
    """PARTY-4: while an item is selected only giving, using, wearing it and putting it back
    are offered, each as the item allows; putting it back changes nothing."""
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    before = scene.save()
    scene.act(select_action(1, NUM_EQUIP))  # the rogue's short bow
    mask = scene.refresh()
    legal = set(np.flatnonzero(mask).tolist())
    assert legal == {A_GIVE + 0, A_GIVE + 2, A_GIVE + 3, A_WEAR, A_CANCEL}
    scene.act(A_CANCEL)
    after = scene.save()
    for name in before:
        if name not in ("dirty", "steps", "events", "keeper_new", "free_streak"):
            assert np.array_equal(before[name], after[name]), name


def test_party_4_a_follow_up_without_a_selection_and_anything_else_with_one_are_refused():
    """PARTY-4: with invalid_action="raise", giving with nothing selected, or walking with an
    item selected, raises ValueError naming the action; the state stays as it was."""
    env = DelveEnv(depth=2, invalid_action="raise")
    env.reset(seed=0)
    before = {
        name: np.array(a, copy=True) for name, a in zip(env.engine.state._fields, env.engine.state)
    }
    with pytest.raises(ValueError, match="give the selected item to member 1"):
        env.step(A_GIVE + 0)
    env.step(select_action(1, NUM_EQUIP))
    with pytest.raises(ValueError, match="take the stairs"):
        env.step(A_STAIRS)
    env.step(A_CANCEL)
    for name, a in zip(env.engine.state._fields, env.engine.state):
        if name not in ("steps", "dirty", "events", "keeper_new", "free_streak"):
            assert np.array_equal(a, before[name]), name


def test_party_4_items_can_be_taken_off_a_fallen_member_outside_a_fight(scene):
    """PARTY-4: a dead member's pack can still be handed out; nobody gives to the dead."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    s.hp[0, 1] = 0
    assert scene.offers(1, NUM_EQUIP, A_GIVE + 0)
    s.item[0, 0, NUM_EQUIP] = MEDICINAL_ALE
    assert not scene.offers(0, NUM_EQUIP, A_GIVE + 1)
    scene.give(1, NUM_EQUIP, 3)
    assert SHORT_BOW in s.item[0, 3, NUM_EQUIP:]


def test_party_4_a_fallen_heros_armor_goes_to_the_king_who_wears_it(scene, rng):
    """PARTY-4: worn gear passes too: the fallen Hero's leather armor goes straight from his
    body to the king's pack, and the king puts it on."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    join_king(s, 0, rng)
    s.hp[0, 0] = 0  # the hero has fallen in his leather armor
    assert s.item[0, 0, ARMOR] == LEATHER and s.item[0, KING_SLOT, ARMOR] == 0
    scene.give(0, ARMOR, KING_SLOT)
    assert s.item[0, 0, ARMOR] == 0
    slot = NUM_EQUIP + int(np.flatnonzero(s.item[0, KING_SLOT, NUM_EQUIP:] == LEATHER)[0])
    scene.wear(KING_SLOT, slot)
    assert s.item[0, KING_SLOT, ARMOR] == LEATHER
    assert scene.obs()["party"][KING_SLOT, PARTY_ARMOR] == 1  # leather's AV
    assert s.pace[0] == 0


def test_party_4_worn_gear_comes_off_into_the_pack(scene):
    """PARTY-4: a standing member takes worn gear off into their first free pack slot (and
    cannot when the pack is full)."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    scene.wear(0, OFF_HAND)  # the hero's wooden shield
    assert s.item[0, 0, OFF_HAND] == 0 and s.item[0, 0, NUM_EQUIP] == WOODEN_SHIELD
    s.item[0, 0, NUM_EQUIP:] = MEDICINAL_ALE
    assert not scene.offers(0, ARMOR, A_WEAR)


@pytest.mark.nojit
def test_party_4_in_a_fight_only_a_fallen_members_items_change_hands_on_the_actors_turn(scene):
    """PARTY-4: in a fight a standing member cannot give; a fallen member's item, worn or
    packed, can go to the acting member only, and doing so takes the actor's turn."""
    s = scene.s
    scene.tough()
    s.hp[0, 1] = 0  # the rogue has fallen, her short bow in pack slot 1
    s.item[0, 0, NUM_EQUIP] = SHORT_BOW
    scene.fight([GOBLIN], hps=[30000])
    assert s.order[0, s.actor[0]] == 0  # the hero acts
    mask = scene.refresh()
    assert not mask[select_action(0, NUM_EQUIP)]  # the hero's own bow: not in a fight
    assert not mask[select_action(2, READY)]  # the standing wizard's staff neither
    assert mask[select_action(1, READY)]  # the fallen rogue's dagger in hand
    scene.act(select_action(1, NUM_EQUIP))
    mask = scene.refresh()
    assert set(np.flatnonzero(mask).tolist()) == {A_GIVE + 0, A_CANCEL}
    scene.act(A_CANCEL)
    assert s.order[0, s.actor[0]] == 0  # putting it back is not a turn
    scene.give(1, NUM_EQUIP, 0)
    assert s.item[0, 0, NUM_EQUIP + 1] == SHORT_BOW and s.item[0, 1, NUM_EQUIP] == 0
    assert s.mode[0] == FIGHT and s.order[0, s.actor[0]] == 2  # the wizard's turn


@pytest.mark.nojit
def test_party_4_a_fallen_fourth_members_items_go_to_the_actor_in_a_fight(scene):
    """PARTY-4 as above from member slot 3, last pack slot (the highest select index)."""
    s = scene.s
    scene.tough()
    s.hp[0, 3] = 0  # the cleric has fallen
    s.item[0, 3, NUM_ITEM_SLOTS - 1] = MEDICINAL_ALE
    scene.fight([GOBLIN], hps=[30000])
    assert s.order[0, s.actor[0]] == 0  # the hero acts
    scene.give(3, NUM_ITEM_SLOTS - 1, 0)
    assert MEDICINAL_ALE in s.item[0, 0, NUM_EQUIP:]


# --- RAISE-1 and using items (ITEM-1) ------------------------------------------------------


def test_raise_1_light_of_life_stands_a_fallen_member_at_1_hp_and_is_used_up(scene):
    """RAISE-1: the wizard, standing, uses a light of life on the fallen rogue: she stands at
    1 HP, her raised count is 1, the light is gone; no time passes."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    s.hp[0, 1] = 0
    s.item[0, 2, NUM_EQUIP] = LIGHT_OF_LIFE
    assert not scene.offers(2, NUM_EQUIP, A_USE + 0)  # only on the fallen
    scene.use(2, NUM_EQUIP, 1)
    assert s.hp[0, 1] == 1 and s.raised[0, 1] == 1
    assert s.item[0, 2, NUM_EQUIP] == 0
    assert scene.obs()["party"][1, PARTY_RAISED] == 1
    assert s.pace[0] == 0


def test_raise_1_nobody_is_raised_more_than_3_times(scene):
    """RAISE-1: a member raised 3 times cannot be raised again; one raised twice can."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    s.item[0, 2, NUM_EQUIP] = LIGHT_OF_LIFE
    for n in range(3):
        s.hp[0, 1] = 0
        s.item[0, 2, NUM_EQUIP] = LIGHT_OF_LIFE
        scene.use(2, NUM_EQUIP, 1)
        assert s.raised[0, 1] == n + 1 and s.hp[0, 1] == 1
    s.hp[0, 1] = 0
    s.item[0, 2, NUM_EQUIP] = LIGHT_OF_LIFE
    assert not scene.offers(2, NUM_EQUIP, A_USE + 1)
    s.raised[0, 1] = 2
    assert scene.offers(2, NUM_EQUIP, A_USE + 1)


def test_raise_1_the_king_is_never_raised(scene, rng):
    """RAISE-1, RUN-4: the light of life is never offered on the king. (A dead king ends the
    run at the next step, so the selection is written into the state and the mask read.)"""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    join_king(s, 0, rng)
    s.hp[0, KING_SLOT] = 0
    s.hp[0, 1] = 0
    s.item[0, 2, NUM_EQUIP] = LIGHT_OF_LIFE
    s.sel_member[0], s.sel_slot[0] = 2, NUM_EQUIP
    mask = scene.refresh()
    assert not mask[A_USE + KING_SLOT]
    assert mask[A_USE + 1]


def test_raise_1_the_dead_use_nothing(scene):
    """RAISE-1: only a standing member uses the light; a fallen one's can be handed on."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    s.hp[0, 1] = s.hp[0, 3] = 0
    s.item[0, 3, NUM_EQUIP] = LIGHT_OF_LIFE
    assert not scene.offers(3, NUM_EQUIP, A_USE + 1)
    assert scene.offers(3, NUM_EQUIP, A_GIVE + 2)


@pytest.mark.nojit
def test_raise_1_in_a_fight_the_actor_raises_and_it_is_their_turn(scene):
    """RAISE-1 in a fight: the acting hero uses his light of life on the fallen rogue; the
    turn passes to the next standing member (the rogue, standing again). Only the actor uses
    items in a fight."""
    s = scene.s
    scene.tough()
    s.hp[0, 1] = 0
    s.item[0, 0, NUM_EQUIP] = LIGHT_OF_LIFE
    s.item[0, 2, NUM_EQUIP] = LIGHT_OF_LIFE
    scene.fight([GOBLIN], hps=[30000])
    assert s.order[0, s.actor[0]] == 0
    assert not scene.legal(select_action(2, NUM_EQUIP))  # the wizard does not act now
    scene.use(0, NUM_EQUIP, 1)
    assert s.hp[0, 1] == 1 and s.raised[0, 1] == 1 and s.item[0, 0, NUM_EQUIP] == 0
    assert s.mode[0] == FIGHT and s.order[0, s.actor[0]] == 1  # the raised rogue acts next


@pytest.mark.nojit
def test_item_1_medicinal_ale_heals_2d6_and_stops_at_the_ceiling(scene):
    """ITEM-1, HP-1: ale heals 2 to 12 HP, both ends seen over 300 uses; never past the
    ceiling; used up."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    healed = []
    for _ in range(300):
        s.ceiling[0, 2] = 100
        s.hp[0, 2] = 50
        s.item[0, 0, NUM_EQUIP] = MEDICINAL_ALE
        scene.use(0, NUM_EQUIP, 2)
        healed.append(int(s.hp[0, 2]) - 50)
        assert s.item[0, 0, NUM_EQUIP] == 0
    assert set(healed) == set(range(2, 13))
    s.ceiling[0, 2] = 12
    s.hp[0, 2] = 11
    s.item[0, 0, NUM_EQUIP] = MEDICINAL_ALE
    scene.use(0, NUM_EQUIP, 2)
    assert s.hp[0, 2] == 12


def test_item_1_ale_is_not_offered_on_the_fallen(scene):
    """ITEM-1, HP-2: the dead never heal, so ale is not offered on them."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    s.hp[0, 1] = 0
    s.item[0, 0, NUM_EQUIP] = MEDICINAL_ALE
    assert not scene.offers(0, NUM_EQUIP, A_USE + 1)
    assert scene.offers(0, NUM_EQUIP, A_USE + 0)


@pytest.mark.nojit
def test_item_1_gem_of_strength_raises_the_ceiling_by_1d6(scene):
    """ITEM-1: a gem of strength adds 1 to 6 to the ceiling (and as much to current HP), each
    value seen over 120 gems."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    gains = []
    for _ in range(120):
        s.hp[0, 2], s.ceiling[0, 2] = 5, 11
        s.item[0, 0, NUM_EQUIP] = GEM_OF_STRENGTH
        scene.use(0, NUM_EQUIP, 2)
        gains.append(int(s.ceiling[0, 2]) - 11)
        assert s.hp[0, 2] - 5 == gains[-1]
    assert set(gains) == {1, 2, 3, 4, 5, 6}


@pytest.mark.nojit
def test_item_1_hp_1_a_bitter_draught_lowers_the_drinkers_ceiling_by_1d3_never_below_1(scene):
    """ITEM-1, HP-1: a bitter draught, drunk by the member it is used on, lowers that member's
    ceiling by 1 to 3 (HP capped to it), never below 1; it is used up and known after."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    for ceiling in (11, 20):
        losses = []
        for _ in range(30):
            s.hp[0, 2], s.ceiling[0, 2] = ceiling, ceiling
            s.item[0, 0, NUM_EQUIP] = BITTER_DRAUGHT
            scene.use(0, NUM_EQUIP, 2)
            losses.append(ceiling - int(s.ceiling[0, 2]))
            assert s.hp[0, 2] == s.ceiling[0, 2] and s.item[0, 0, NUM_EQUIP] == 0
        assert min(losses) >= 1 and max(losses) <= 3 and len(set(losses)) == 3
    assert is_known(s, 0, BITTER_DRAUGHT)
    for _ in range(10):  # a ceiling of 1 or 2 stops at 1
        s.hp[0, 2], s.ceiling[0, 2] = 2, 2
        s.item[0, 0, NUM_EQUIP] = BITTER_DRAUGHT
        scene.use(0, NUM_EQUIP, 2)
        assert s.ceiling[0, 2] >= 1 and s.hp[0, 2] == s.ceiling[0, 2]
    s.ceiling[0, 2] = s.hp[0, 2] = 1
    s.item[0, 0, NUM_EQUIP] = BITTER_DRAUGHT
    scene.use(0, NUM_EQUIP, 2)
    assert s.ceiling[0, 2] == 1 and s.hp[0, 2] == 1


def test_item_1_bitter_draughts_lie_in_rooms_and_chests_from_floor_2_only():
    """ITEM-1: over 40 dungeons of depth 12 with an item in every room, no bitter draught lies on
    floor 1 (vaults included), and ordinary rooms hold some on floors 2-3 (the same loot tier as
    floor 1) and on every deeper tier; about one room item in nine."""
    env = DelveEnv(depth=12, room_item_chance=1.0)
    per_floor = np.zeros(13, dtype=int)  # ordinary rooms (a chest keeps the room's items)
    items = 0
    for seed in range(40):
        env.reset(seed=seed)
        s = env.engine.state
        assert not (s.room_items[0, :2] == BITTER_DRAUGHT).any()  # vaults included
        kinds = s.room_items[0, :, :, 0].copy()
        for f in range(13):
            if s.vault_room[0, f] >= 0:  # a vault's items come from the next tier's table
                kinds[f, s.vault_room[0, f]] = 0
        per_floor += (kinds == BITTER_DRAUGHT).sum(axis=1)
        items += int((kinds[1:] > 0).sum())
    assert per_floor[2:4].sum() > 0
    for tier in range(1, 4):
        assert per_floor[3 * tier + 1 : 3 * tier + 4].sum() > 0, tier
    assert 0.06 < per_floor.sum() / items < 0.16


def test_item_1_mind_sharpener_gives_the_xp_to_the_next_level(scene):
    """ITEM-1: a mind sharpener gives exactly the XP the next level still costs."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    s.xp[0, 2] = 30
    s.item[0, 0, NUM_EQUIP] = MIND_SHARPENER
    scene.use(0, NUM_EQUIP, 2)
    assert s.level[0, 2] == 2 and s.xp[0, 2] == 0


def test_item_1_honing_stone_restores_the_weapon_in_hand(scene):
    """ITEM-1: a honing stone mends the wear on a member's ready weapon; it is only offered
    on a member with a weapon in hand."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    s.item_wear[0, 0, READY] = 2
    s.item[0, 1, NUM_EQUIP] = HONING_STONE
    s.item[0, 2, READY] = 0  # the wizard's hands are empty
    assert not scene.offers(1, NUM_EQUIP, A_USE + 2)
    scene.use(1, NUM_EQUIP, 0)
    assert s.item_wear[0, 0, READY] == 0 and s.item[0, 1, NUM_EQUIP] == 0


# --- HP-1 ----------------------------------------------------------------------------------


def test_hp_1_a_wound_lowers_current_hp_not_the_ceiling(scene, rng):
    """HP-1: a blow of 4 takes 4 from current HP; the ceiling stays."""
    s = scene.s
    hp, ceiling = int(s.hp[0, 2]), int(s.ceiling[0, 2])
    wound(s, 0, 2, 4, rng)
    assert s.hp[0, 2] == hp - 4 and s.ceiling[0, 2] == ceiling


def test_hp_1_healing_stops_at_the_ceiling(scene):
    """HP-1: healing of any kind (here 100 points) stops at the ceiling."""
    s = scene.s
    s.hp[0, 0] = 2
    heal(s, 0, 0, 100)
    assert s.hp[0, 0] == s.ceiling[0, 0]


# --- HP-2 ----------------------------------------------------------------------------------


def death_saves(scene, luck, n=3000):
    """Drop member 0 from 3 HP by 5, `n` times: (survived mask, luck left)."""
    s = scene.s
    g = scene.rng(31)
    survived = np.zeros(n, dtype=bool)
    left = np.zeros(n, dtype=np.int64)
    for i in range(n):
        s.hp[0, 0], s.luck[0, 0] = 3, luck
        wound(s, 0, 0, 5, g)
        assert s.hp[0, 0] in (0, 1)
        survived[i] = s.hp[0, 0] == 1
        left[i] = s.luck[0, 0]
    return survived, left


def test_hp_2_death_save_is_a_d6_where_a_6_survives_at_1_hp(scene):
    """HP-2: with no luck dice, a member dropped below 1 HP survives at exactly 1 HP one time
    in six; otherwise the member is dead (0 HP)."""
    survived, _ = death_saves(scene, luck=0)
    assert 0.13 < survived.mean() < 0.20


def test_hp_2_a_failed_death_save_adds_a_luck_die_automatically(scene):
    """HP-2/LUCK-2: with luck left, a failed d6 spends one luck die and adds a d6 (survive on
    a total of 6+: 26/36); a natural 6 spends nothing."""
    survived, left = death_saves(scene, luck=2)
    assert 0.68 < survived.mean() < 0.76
    kept = left == 2
    assert 0.13 < kept.mean() < 0.20
    assert survived[kept].all()  # luck kept only on a natural 6
    assert set(np.unique(left)) == {1, 2}  # never more than one die per save
    assert 0.62 < survived[~kept].mean() < 0.72  # (20/36) / (30/36) = 2/3


def test_hp_2_falling_to_exactly_1_hp_needs_no_save(scene, rng):
    """HP-2: only HP below 1 calls for a death save; a wound to exactly 1 HP leaves the
    member at 1 HP with their luck untouched."""
    s = scene.s
    s.hp[0, 1], s.luck[0, 1] = 5, 3
    wound(s, 0, 1, 4, rng)
    assert s.hp[0, 1] == 1 and s.luck[0, 1] == 3


def test_hp_2_the_dead_do_nothing_and_are_carried_along(scene, rng):
    """HP-2: a dead member takes no further wounds or healing, takes no turn in a fight, and
    stays in the party as it moves between floors."""
    s = scene.s
    s.hp[0, 1], s.luck[0, 1] = 1, 0
    while s.hp[0, 1] > 0:  # die (a 1 in 6 survival is retried)
        s.hp[0, 1] = 1
        wound(s, 0, 1, 3, rng)
    assert s.events[0] & EV_DEATH
    wound(s, 0, 1, 3, rng)
    heal(s, 0, 1, 5)
    assert s.hp[0, 1] == 0
    scene.act(A_STAIRS)  # the party goes down with him
    assert s.floor[0] == 1 and s.in_party[0, 1] and 1 in s.order[0]
    scene.tough()
    s.hp[0, 1] = 0
    scene.fight([GOBLIN], hps=[30000])
    actors = []
    for _ in range(3):
        actors.append(int(s.order[0, s.actor[0]]))
        scene.act(A_ATTACK)
    assert actors == [0, 2, 3]


# --- XP-1 ----------------------------------------------------------------------------------


def test_xp_1_the_kill_goes_to_the_member_who_struck_the_last_blow(scene):
    """XP-1: the rogue strikes the goblin's (5 hearts) last heart away through the attack
    action: she alone gets 5 x 5 = 25 XP, whatever the goblin had left."""
    s = scene.s
    scene.tough()
    s.band_kind[0, 1, 0] = -1
    s.band_kind[0, 1, 0, 0] = GOBLIN
    s.band_hp[0, 1, 0, 0] = 1
    scene.stand_in_room(1, 0)
    scene.fight([GOBLIN], hps=[1], room=0)
    s.actor[0] = 1  # the rogue's turn
    snap = scene.save()
    for seed in range(1, 200):
        scene.load(snap)
        s.rng[0] = scene.rng(seed)[0]
        scene.act(A_ATTACK)
        if s.stat_kills[0] == 1:
            break
    assert s.stat_kills[0] == 1 and s.mode[0] != FIGHT
    assert list(s.xp[0, :4]) == [0, 25, 0, 0]


def test_xp_1_a_kill_is_worth_max_hearts_times_the_kill_factor(scene, rng):
    """XP-1: the kill XP is the monster's maximum hearts x 5 (tunable: x 7 gives 35)."""
    s = scene.s
    scene.fight([GOBLIN], hps=[1])
    hit_foe(s, scene.p, 0, 3, 0, rng)
    assert s.xp[0, 3] == 25
    scene.fight([GOBLIN], hps=[1])
    p = scene.p.copy()
    p[P_KILL_XP] = 7
    hit_foe(s, p, 0, 2, 0, rng)
    assert s.xp[0, 2] == 35
    assert s.xp[0, 0] == s.xp[0, 1] == 0


# --- XP-2 ----------------------------------------------------------------------------------


def test_xp_2_first_entry_into_a_room_gives_15_xp_split_among_the_standing(scene):
    """XP-2: 15 XP for a room entered the first time, split as equally as possible among the
    standing (3 standing: 5 each; the dead get none); entering again gives nothing."""
    s = scene.s
    scene.calm()
    s.hp[0, 2] = 0
    scene.clear_band(1, 0)
    scene.enter_room(1, 0)
    assert list(s.xp[0, :4]) == [5, 5, 0, 5]
    scene.enter_room(1, 0)
    assert list(s.xp[0, :4]) == [5, 5, 0, 5]


def test_xp_2_room_xp_with_four_standing_sums_to_15(scene):
    """XP-2: with four standing the 15 XP are split 4/4/4/3 (no XP lost, no XP made)."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.enter_room(1, 0)
    assert s.xp[0, :4].sum() == 15 and s.xp[0, :4].max() - s.xp[0, :4].min() <= 1


def test_xp_2_one_xp_per_gold_coin_picked_up(scene):
    """XP-2: looting 12 gold gives 12 XP split among the standing (4 standing: 3 each)."""
    s = scene.s
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    s.room_gold[0, 1, 0] = 12
    gold = int(s.gold[0])
    scene.act(A_LOOT)
    assert s.gold[0] == gold + 12
    assert list(s.xp[0, :4]) == [3, 3, 3, 3]


def test_xp_2_the_book_gives_100_xp_split(scene, rng):
    """XP-2: finding the book gives 100 XP split among the standing (25 each)."""
    take_book(scene.s, scene.p, 0, rng)
    assert list(scene.s.xp[0, :4]) == [25, 25, 25, 25]


def test_xp_2_the_king_gives_100_xp_split_among_those_who_found_him(scene, rng):
    """XP-2: freeing the king gives the four finders 25 XP each; the king starts at 0."""
    s = scene.s
    D, r = scene.depth, int(s.king_room[0])
    scene.clear_band(D, r)
    scene.stand_in_room(D, r)
    free_king(s, scene.p, 0, rng)
    assert s.has_king[0]
    assert list(s.xp[0]) == [25, 25, 25, 25, 0]


# --- XP-3 ----------------------------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize("difficulty, factor", [("easy", 1.0), ("normal", 1.25), ("hard", 1.5)])
def test_xp_3_level_cost_is_100_times_level_times_the_difficulty_factor(difficulty, factor):
    """XP-3: level L -> L+1 costs 100 x L XP times 1.0 / 1.25 / 1.5."""
    p = make_params(difficulty)
    for level in range(1, 13):
        assert level_cost(p, level) == round(100 * level * factor)


@pytest.mark.nojit
@pytest.mark.parametrize(
    "difficulty, level, xp", [("easy", 3, 100), ("normal", 3, 25), ("hard", 2, 250)]
)
def test_xp_3_one_big_gain_can_give_several_levels_and_leftover_carries(
    scene, rng, difficulty, level, xp
):
    """XP-3: 400 XP at level 1: easy pays 100 + 200 (level 3, 100 left), normal 125 + 250
    (level 3, 25 left), hard 150 (level 2, 250 left: not enough for 300)."""
    p = make_params(difficulty)
    s = scene.s
    gain_xp(s, p, 0, 2, 400, rng)
    assert s.level[0, 2] == level and s.xp[0, 2] == xp


# --- XP-4 ----------------------------------------------------------------------------------


def test_xp_4_each_level_adds_1_to_6_to_ceiling_and_hp_and_2_to_the_well(scene):
    """XP-4: every level gained raises the ceiling by 1..6 (each value seen), current HP by
    the same, and the mana well by 2."""
    s = scene.s
    g = scene.rng(41)
    gains = set()
    for _ in range(600):
        s.level[0, 2] = 1
        s.hp[0, 2], s.ceiling[0, 2], s.well[0, 2] = 5, 11, 6
        gain_level(s, 0, 2, g)
        up = int(s.ceiling[0, 2]) - 11
        assert s.hp[0, 2] - 5 == up
        assert s.well[0, 2] == 8
        gains.add(up)
    assert gains == {1, 2, 3, 4, 5, 6}


def test_xp_4_members_without_a_mana_well_get_none(scene, rng):
    """XP-4: +2 to the well only for members that have one."""
    s = scene.s
    s.well[0, 0] = s.mana[0, 0] = 0
    gain_level(s, 0, 0, rng)
    assert s.well[0, 0] == 0


@pytest.mark.nojit
def test_xp_4_attack_bonus_rises_at_level_4_and_every_third_level_after(scene, rng):
    """XP-4: levelling from 1 to 13 adds +1 attack bonus exactly at levels 4, 7, 10, 13."""
    s = scene.s
    raised_at = []
    for _ in range(12):
        atk = int(s.atk[0, 1])
        gain_level(s, 0, 1, rng)
        if s.atk[0, 1] > atk:
            assert s.atk[0, 1] == atk + 1
            raised_at.append(int(s.level[0, 1]))
    assert raised_at == [4, 7, 10, 13]


# --- LUCK-1 --------------------------------------------------------------------------------


def test_luck_1_three_luck_dice_refilled_on_reaching_a_new_floor(scene_factory):
    """LUCK-1: spent luck comes back to 3 on arriving at a floor never visited, not on
    going back to one already visited."""
    sc = scene_factory(depth=3)
    s = sc.s
    assert (s.luck[0, :4] == 3).all()
    s.luck[0, :4] = [0, 1, 2, 0]
    sc.act(A_STAIRS)  # courtyard -> floor 1 (new)
    assert (s.luck[0, :4] == 3).all()
    s.luck[0, :4] = 0
    sc.act(A_STAIRS)  # up to the courtyard (visited)
    sc.act(A_STAIRS)  # down to floor 1 (visited)
    assert (s.luck[0, :4] == 0).all()
    x, y = s.stair_down[0, 1]
    sc.put(1, int(x), int(y))
    s.maps_held[0] = 1 << 1
    sc.act(A_STAIRS)  # floor 2 (new)
    assert s.floor[0] == 2 and (s.luck[0, :4] == 3).all()


# --- LUCK-2 --------------------------------------------------------------------------------


def test_luck_2_the_actor_may_spend_a_luck_die_on_an_attack(scene):
    """LUCK-2: attacking with a luck die spends one of the actor's dice; with none left the
    choice is not offered."""
    s = scene.s
    scene.tough()
    scene.fight([GOBLIN], hps=[30000])
    scene.act(A_LUCK)
    assert s.luck[0, 0] == 2 and s.luck[0, 1] == 3
    s.luck[0, 1] = 0
    mask = scene.refresh()
    assert mask[A_ATTACK] and not mask[A_LUCK]
    assert mask.shape == (NUM_ACTIONS,)


def hit_rate(scene, use_luck, n=4000):
    """The hero (sword: skill d6) attacks a giant spider (defense 1, AV 0) n times."""
    s, p = scene.s, scene.p
    scene.tough()
    g = scene.rng(51)
    hits = 0
    for _ in range(n):
        scene.fight([SPIDER], hps=[30000])
        s.luck[0, 0] = 3
        member_attack(s, p, 0, 0, use_luck, 1, g)
        hits += s.foe_hp[0, 0] < 30000
    return hits / n


def exact_hit_rate(bonus_dice, defense):
    d20 = np.arange(1, 21)
    diff = (d20[:, None] - d20[None, :]).ravel()
    total = 0.0
    faces = np.array(np.meshgrid(*[np.arange(1, 7)] * bonus_dice)).reshape(bonus_dice, -1).sum(0)
    for b in faces:
        total += np.mean(diff + b >= defense)
    return total / len(faces)


def test_luck_2_a_luck_die_adds_a_d6_to_the_attack_roll(scene):
    """LUCK-2/ATTACK-1: the hero hits a defense-1 spider with d20 + d6 against d20 + 1
    (63.5%); with a luck die, d20 + 2d6 (76.5%)."""
    plain, lucky = hit_rate(scene, False), hit_rate(scene, True)
    assert abs(plain - exact_hit_rate(1, 1)) < 0.03
    assert abs(lucky - exact_hit_rate(2, 1)) < 0.03


def test_luck_1_the_king_joins_with_3_luck_dice(scene, rng):
    """LUCK-1: a member who joins (the king, PARTY-1) starts with 3 luck dice."""
    s = scene.s
    join_king(s, 0, rng)
    assert s.luck[0, KING_SLOT] == 3


def test_hp_2_a_wound_to_exactly_1_hp_calls_no_death_save(scene):
    """HP-2: the death save comes only below 1 HP; a blow that leaves exactly 1 HP rolls
    nothing and spends no luck die, whatever the dice (40 seeds)."""
    s = scene.s
    for seed in range(40):
        g = scene.rng(seed)
        s.hp[0, 0], s.luck[0, 0] = 5, 3
        wound(s, 0, 0, 4, g)
        assert s.hp[0, 0] == 1 and s.luck[0, 0] == 3
