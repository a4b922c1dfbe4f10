"""ITEM-1's summoning stone: an ally joins this fight and fights for the party."""

from delve_env.engine.actions import A_USE, select_action
from delve_env.engine.fights import ally_attack
from delve_env.engine.layout import FIGHT_ALLY, FIGHT_ALLY_HP
from delve_env.engine.tables import EXPLORE, FIGHT, SUMMONING_STONE, TIER_KINDS

GOBLIN = 1
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
