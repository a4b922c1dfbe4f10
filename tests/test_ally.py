"""ITEM-1's summoning stone: an ally joins this fight and fights for the party; ALLY-1: foes
aim at it too and it leaves when its hearts run out."""

import numpy as np

from delve_env.engine.core.actions import A_USE, select_action
from delve_env.engine.core.params import P_FRONT_AIM, P_MONSTER_ATK
from delve_env.engine.core.tables import (
    EXPLORE,
    FIGHT,
    M_AV,
    MONSTERS,
    SUMMONING_STONE,
    TIER_KINDS,
)
from delve_env.engine.outputs.layout import FIGHT_ALLY, FIGHT_ALLY_HP
from delve_env.engine.rules.fights import (
    ALLY_TARGET,
    FAMILIAR,
    ally_attack,
    monster_attack,
    pick_target,
    weakest_foe,
)

GOBLIN, ORC = 1, 4
PACK = 3  # the first pack slot


def stone_scene(scene):
    s = scene.s
    scene.tough()
    scene.put(1, int(s.stair_up[0, 1, 0]), int(s.stair_up[0, 1, 1]))
    m = int(s.order[0, 0])
    s.item[0, m, PACK] = SUMMONING_STONE
    return m


def test_item_1_a_summoning_stone_calls_an_ally_into_this_fight(scene):
    """The acting member uses the stone on themself (their turn): a monster of the floor's
    tier joins at full hearts, shown in `fight`; the stone is used up; a second stone waits
    for the next fight; outside fights the stone cannot be used."""
    s = scene.s
    m = stone_scene(scene)
    assert not scene.offers(m, PACK, A_USE + m)  # exploring: no fight to join
    scene.fight([GOBLIN], hps=[30000])
    scene.act(select_action(m, PACK))
    scene.act(A_USE + m)
    assert s.mode[0] == FIGHT and s.ally_kind[0] in TIER_KINDS[0] and s.ally_hp[0] > 0
    fight = scene.obs()["fight"]
    assert fight[FIGHT_ALLY] == s.ally_kind[0] + 1 and fight[FIGHT_ALLY_HP] == s.ally_hp[0]
    assert (s.item[0, :, :] != SUMMONING_STONE).all()
    s.item[0, int(s.order[0, s.actor[0]]), PACK] = SUMMONING_STONE
    assert not scene.offers(int(s.order[0, s.actor[0]]), PACK, A_USE + int(s.order[0, s.actor[0]]))


def test_item_1_the_ally_strikes_the_weakest_foe_and_leaves_with_the_fight(scene, rng):
    s = scene.s
    stone_scene(scene)
    scene.fight([GOBLIN, GOBLIN], hps=[30000, 500])
    s.ally_kind[0], s.ally_hp[0] = 4, 9  # an orc
    for _ in range(40):
        ally_attack(s, scene.p, 0, rng)
    assert s.foe_hp[0, 0] == 30000 and s.foe_hp[0, 1] < 500
    s.mode[0] = EXPLORE  # the next fight (a guarded room) starts without it
    s.foe_kind[0] = -1
    s.band_kind[0, 1, 0] = -1
    s.band_kind[0, 1, 0, 0] = GOBLIN
    s.band_hp[0, 1, 0, 0] = 30000
    scene.enter_room(1, 0)
    assert s.mode[0] == FIGHT and s.ally_kind[0] == -1 and scene.obs()["fight"][FIGHT_ALLY] == 0


def ally_share(scene, rng, n=6000):
    """How often `pick_target` aims at the ally, over n picks."""
    return np.mean([pick_target(scene.s, scene.p, 0, rng) == ALLY_TARGET for _ in range(n)])


def test_ally_1_foes_aim_at_an_ally_like_a_member_after_the_marching_order(scene, rng):
    """ALLY-1 with PARTY-2: the ally is one more target, standing after the last member. Four
    standing members: it is one of three in the rear, aimed at with (1 - front chance) / 3;
    one member standing: it is in the front, half the blows; everyone hidden: every blow."""
    s, p = scene.s, scene.p
    stone_scene(scene)
    scene.fight([GOBLIN], hps=[30000])
    s.ally_kind[0], s.ally_hp[0] = FAMILIAR, 1
    for aim, want in ((0.7, 0.1), (0.0, 1 / 3), (1.0, 0.0)):
        p[P_FRONT_AIM] = aim
        assert abs(ally_share(scene, rng) - want) < 0.03, aim
    p[P_FRONT_AIM] = 0.7
    alone = int(s.order[0, 0])
    for m in range(4):
        if m != alone:
            s.hp[0, m] = 0
    assert abs(ally_share(scene, rng) - 0.5) < 0.04
    s.hidden[0, alone] = True  # the ally can be hit, so the hidden member is passed over
    assert ally_share(scene, rng, 500) == 1.0
    s.ally_kind[0], s.ally_hp[0] = -1, 0  # no ally: the hidden member is aimed at after all
    assert ally_share(scene, rng, 500) == 0.0


def test_ally_1_a_hit_ally_loses_hearts_and_is_gone_when_they_run_out(scene, rng):
    """ALLY-1: a foe that beats the ally's d20 (+ defense) deals its damage less the ally's
    armor; the familiar (1 heart) goes at the first blow; a summoned orc (AV 1) keeps fighting
    until its hearts run out. The members, all hidden, take nothing."""
    s, p = scene.s, scene.p
    stone_scene(scene)
    scene.fight([GOBLIN], hps=[30000])
    s.hidden[0, :] = True
    hp = s.hp[0].copy()
    p[P_MONSTER_ATK] = 100  # every blow lands
    s.ally_kind[0], s.ally_hp[0] = FAMILIAR, 1
    monster_attack(s, p, 0, 0, rng)
    assert s.ally_kind[0] == -1 and s.ally_hp[0] == 0
    assert scene.obs()["fight"][FIGHT_ALLY] == 0
    for hearts in (40, 9):
        s.ally_kind[0], s.ally_hp[0] = ORC, hearts
        blows = 0
        while s.ally_kind[0] == ORC:
            before = int(s.ally_hp[0])
            monster_attack(s, p, 0, 0, rng)
            assert 0 <= before - s.ally_hp[0] <= 6 - MONSTERS[ORC, M_AV]  # a goblin's d6, AV 1
            blows += 1
        assert s.ally_hp[0] == 0 and s.ally_kind[0] == -1 and blows >= hearts // 5
    assert (s.hp[0] == hp).all()
    p[P_MONSTER_ATK] = -100  # no blow lands: the familiar stays
    s.ally_kind[0], s.ally_hp[0] = FAMILIAR, 1
    for _ in range(50):
        monster_attack(s, p, 0, 0, rng)
    assert s.ally_kind[0] == FAMILIAR and s.ally_hp[0] == 1


def test_item_1_the_ally_strikes_the_first_of_equally_weak_foes(scene, rng):
    """Of two foes tied on the fewest hearts the ally strikes the first (the holy sword's
    rule too, `fights.weakest_foe`)."""
    s = scene.s
    stone_scene(scene)
    scene.fight([GOBLIN, GOBLIN, GOBLIN], hps=[30000, 500, 500])
    s.ally_kind[0], s.ally_hp[0] = 4, 9  # an orc
    assert weakest_foe(s, 0) == 1
    for _ in range(40):
        ally_attack(s, scene.p, 0, rng)
    assert s.foe_hp[0, 0] == 30000 and s.foe_hp[0, 1] < 500 and s.foe_hp[0, 2] == 500
