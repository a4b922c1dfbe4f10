"""BRIBE-1..3: a band's bribe chance and price, asked again after a refusal, what a paid
band gives."""

from conftest import make_rng

from delve_env.engine.core.actions import A_ATTACK, A_BRIBE
from delve_env.engine.core.params import P_BRIBE_REVEAL, P_BRIBE_STONE
from delve_env.engine.core.tables import (
    EV_BRIBE,
    EXPLORE,
    FIGHT,
    HALL,
    M_BRIBE,
    MONSTERS,
    SUMMONING_STONE,
)
from delve_env.engine.outputs.layout import FIGHT_BRIBE_ASKED, FIGHT_BRIBE_CHANCE, FIGHT_BRIBE_PRICE

RAT, GOBLIN, SLINGER, SKELETON, ORC = 0, 1, 2, 5, 4  # tables.MONSTER_NAMES


def bribe_scene(scene, kinds, floor=1, gold=500, room=0):
    """The party in room `room` of `floor`, fighting its band of `kinds`, with `gold`."""
    s = scene.s
    scene.calm()
    scene.tough()
    scene.stand_in_room(floor, room)
    s.band_kind[0, floor, room] = -1
    for k, kind in enumerate(kinds):
        s.band_kind[0, floor, room, k] = kind
        s.band_hp[0, floor, room, k] = 5
    scene.fight(kinds, room=room)
    s.bribe_asked[0] = False
    s.goodwill[0] = False
    s.sneaker[0] = -1
    s.gold[0] = gold


def take_rate(scene, kinds, trials=600, goodwill=False):
    """Share of asks taken by a band of `kinds`, over `trials` asks from the same scene with
    the RNG moved on each time."""
    bribe_scene(scene, kinds)
    scene.s.goodwill[0] = goodwill
    saved = scene.save()
    taken = 0
    for t in range(trials):
        scene.load(saved)
        scene.s.rng[0] = make_rng(1_000_003 * t + 7)[0]
        scene.act(A_BRIBE)
        taken += bool(scene.s.events[0] & EV_BRIBE)
    return taken / trials


def test_bribe_1_the_band_shows_its_lowest_kinds_chance_and_a_price_by_floor_and_band(scene):
    """BRIBE-1: a rat (40) and a goblin (30) ask 30 in 100, for 5 gold x floor per price
    factor (rat 1 + goblin 2 = 15 gold on floor 1, 30 on floor 2)."""
    for kinds in ([RAT, GOBLIN], [GOBLIN, RAT]):
        bribe_scene(scene, kinds)
        obs = scene.obs()["fight"]
        assert obs[FIGHT_BRIBE_CHANCE] == 30
        assert obs[FIGHT_BRIBE_PRICE] == 15 // 5
    bribe_scene(scene, [RAT, GOBLIN], floor=2)
    assert scene.obs()["fight"][FIGHT_BRIBE_PRICE] == 30 // 5
    assert all(MONSTERS[:, M_BRIBE] >= 10)  # every kind takes a bribe at least 1 in 10


def test_bribe_1_a_band_takes_a_bribe_with_its_chance(scene):
    """BRIBE-1: 10 (skeleton) and 35 (kobold slinger) points of bribe chance are told apart
    over 600 asks each."""
    low, high = take_rate(scene, [SKELETON]), take_rate(scene, [SLINGER])
    assert 0.06 < low < 0.15, low
    assert 0.29 < high < 0.41, high


def test_bribe_1_a_paid_band_ends_the_fight_without_xp_and_leaves_the_room(scene):
    """BRIBE-1: the gold is paid, the fight ends, nobody earns XP, the room's band is gone
    (and with it anything that held the room's loot back)."""
    bribe_scene(scene, [RAT, RAT])
    s, saved = scene.s, scene.save()
    for t in range(200):
        scene.load(saved)
        s.rng[0] = make_rng(t + 1)[0]
        xp, gold = s.xp[0].copy(), int(s.gold[0])
        scene.act(A_BRIBE)
        if s.events[0] & EV_BRIBE:
            break
    assert s.events[0] & EV_BRIBE, "a 40 in 100 band never took a bribe in 200 asks"
    assert s.mode[0] == EXPLORE and (s.band_kind[0, 1, 0] < 0).all()
    assert int(s.gold[0]) == gold - 5 * 1 * 2
    assert (s.xp[0] == xp).all()
    assert s.stat_bribes[0] == 1


def test_bribe_1_a_refused_ask_hands_the_band_a_free_round_and_may_be_asked_again(scene):
    """BRIBE-1: a refused ask is answered by a round of the band (members get hurt) and the
    same actor goes on; the band may be asked again (the mask still offers it) and a second
    refusal hands it another free round."""
    bribe_scene(scene, [ORC, ORC, ORC])
    s, saved = scene.s, scene.save()
    hurt = again = 0
    for t in range(60):
        scene.load(saved)
        s.rng[0] = make_rng(t + 1)[0]
        hp, actor = int(s.hp[0].sum()), int(s.actor[0])
        scene.act(A_BRIBE)
        if s.events[0] & EV_BRIBE:
            continue
        assert s.mode[0] == FIGHT and s.actor[0] == actor
        assert scene.legal(A_BRIBE) and scene.obs()["fight"][FIGHT_BRIBE_ASKED] == 1
        hurt += int(s.hp[0].sum()) < hp
        hp = int(s.hp[0].sum())
        scene.act(A_BRIBE)
        if s.events[0] & EV_BRIBE:
            continue
        assert s.mode[0] == FIGHT and s.actor[0] == actor
        again += int(s.hp[0].sum()) < hp
    assert hurt > 20 and again > 10


def test_bribe_1_each_ask_is_the_same_chance_again(scene):
    """BRIBE-1: after a refusal, the next ask is taken with the band's chance again: 10
    (skeleton) and 35 (kobold slinger) points told apart over the second asks of 800 fights
    each (those whose first ask was refused)."""
    for kind, lo, hi in ((SKELETON, 0.06, 0.15), (SLINGER, 0.27, 0.43)):
        bribe_scene(scene, [kind])
        saved = scene.save()
        asks = taken = 0
        for t in range(800):
            scene.load(saved)
            scene.s.rng[0] = make_rng(1_000_003 * t + 7)[0]
            scene.act(A_BRIBE)
            if scene.s.events[0] & EV_BRIBE or scene.s.mode[0] != FIGHT:
                continue
            scene.act(A_BRIBE)
            asks += 1
            taken += bool(scene.s.events[0] & EV_BRIBE)
        assert asks > 400 and lo < taken / asks < hi, (kind, asks, taken)


def test_bribe_1_asking_needs_the_gold_to_pay(scene):
    bribe_scene(scene, [GOBLIN, GOBLIN], gold=19)  # the price is 20
    assert not scene.legal(A_BRIBE) and scene.legal(A_ATTACK)
    scene.s.gold[0] = 20
    assert scene.legal(A_BRIBE)


def paid(scene, kinds, goodwill=False):
    """Ask until the band takes it (the RNG moved on each time)."""
    saved = scene.save()
    for t in range(300):
        scene.load(saved)
        scene.s.rng[0] = make_rng(t + 11)[0]
        scene.s.goodwill[0] = goodwill
        scene.act(A_BRIBE)
        if scene.s.events[0] & EV_BRIBE:
            return
    raise AssertionError("never paid")


def after_a_bribe(scene_factory, reveal: float, stone: float):
    """A rat band paid off under BRIBE-2's chances (config keys, checked to reach the
    engine), the floor's rooms first forgotten: (rooms known, summoning stones held)."""
    scene = scene_factory(bribe_reveal_chance=reveal, bribe_stone_chance=stone)
    assert scene.p[P_BRIBE_REVEAL] == reveal and scene.p[P_BRIBE_STONE] == stone
    bribe_scene(scene, [RAT])
    scene.s.room_known[0, 1] = False
    paid(scene, [RAT])
    known = scene.s.room_known[0, 1, : int(scene.s.num_rooms[0, 1])]
    return known, int((scene.s.item[0] == SUMMONING_STONE).sum())


def test_bribe_2_a_paid_band_may_reveal_the_floors_rooms_and_hand_a_stone(scene_factory):
    """BRIBE-2 at non-default chances (config keys): 1 reveals every room of the floor and
    always hands over a summoning stone; 0 never does."""
    for chance in (1.0, 0.0):
        known, stones = after_a_bribe(scene_factory, chance, chance)
        if chance:
            assert known.all() and stones == 1
        else:
            assert known.sum() <= 1 and stones == 0  # only the room the party stands in


def test_bribe_3_goodwill_adds_25_points_never_to_certainty(scene):
    """BRIBE-3: a goodwill scroll read this fight adds 25 points (skeleton 10 -> 35), capped
    at 95."""
    bribe_scene(scene, [SKELETON])
    scene.s.goodwill[0] = True
    assert scene.obs()["fight"][FIGHT_BRIBE_CHANCE] == 35
    assert 0.29 < take_rate(scene, [SKELETON], goodwill=True) < 0.41


def test_bribe_3_a_bribe_under_goodwill_reveals_the_whole_floor_and_hands_a_stone(
    scene_factory,
):
    """BRIBE-3: even with BRIBE-2's chances at 0, a band paid under goodwill shows every hall
    tile of the floor and hands over a stone."""
    scene = scene_factory(bribe_reveal_chance=0.0, bribe_stone_chance=0.0)
    bribe_scene(scene, [RAT])
    s = scene.s
    s.fog[0, 1] = 0
    paid(scene, [RAT], goodwill=True)
    halls = s.tiles[0, 1] == HALL
    assert (s.fog[0, 1][halls] > 0).all()
    assert int((s.item[0] == SUMMONING_STONE).sum()) == 1


def test_bribe_2_the_reveal_and_the_stone_roll_each_with_their_own_chance(scene_factory):
    """BRIBE-2: the reveal rolls with bribe_reveal_chance and the stone with
    bribe_stone_chance: at (1, 0) every room is known and no stone is handed over; at (0, 1)
    a stone and no reveal."""
    for reveal, stone in ((1.0, 0.0), (0.0, 1.0)):
        known, stones = after_a_bribe(scene_factory, reveal, stone)
        if reveal:
            assert known.all() and stones == 0
        else:
            assert known.sum() <= 1 and stones == 1
