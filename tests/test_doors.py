"""At a room's door: LISTEN-1 (hearing the band) and SNEAK-1 (one member goes in first)."""

from conftest import make_rng

from delve_env.engine.core.actions import A_ATTACK, A_LISTEN, A_SNEAK, A_WAIT
from delve_env.engine.core.params import P_LISTEN_HEAR, P_MEAL_PACES
from delve_env.engine.core.tables import (
    ESP,
    EV_AMBUSH,
    EV_HEARD,
    EXPLORE,
    FIGHT,
    M_HEARTS,
    MONSTERS,
)
from delve_env.engine.outputs.layout import BAND_HERE, CROP, FIGHT_SNEAK, STATUS_HEARD

GOBLIN, RAT = 1, 0


def at_door(scene, kinds, f=1, r=0):
    """The party on a door of room r guarded by `kinds` (nothing heard yet)."""
    s = scene.s
    scene.calm()
    scene.tough()
    s.band_kind[0, f, r] = -1
    s.band_hp[0, f, r] = 0
    for k, kind in enumerate(kinds):
        s.band_kind[0, f, r, k] = kind
        s.band_hp[0, f, r, k] = MONSTERS[kind, M_HEARTS]
    s.room_heard[0, f, r] = False
    (dx, dy), inside, (ox, oy) = scene.door_of(f, r)
    scene.put(f, ox, oy)
    scene.act(scene.direction(dx - ox, dy - oy))  # walk up to the door: its room's edge is seen
    return inside


def hear_rate(scene, kinds, trials=900):
    at_door(scene, kinds)
    saved = scene.save()
    heard = 0
    for t in range(trials):
        scene.load(saved)
        scene.s.rng[0] = make_rng(7_919 * t + 3)[0]
        scene.act(A_LISTEN)
        heard += bool(scene.s.room_heard[0, 1, 0])
    return heard / trials


def test_listen_1_a_band_is_heard_one_time_in_three(scene):
    """LISTEN-1: 1/3 is told from 1/2 over 900 listens."""
    assert 0.29 < hear_rate(scene, [GOBLIN]) < 0.38


def test_listen_1_the_chance_is_a_config_key(scene_factory):
    scene = scene_factory(listen_chance=0.5)
    assert scene.p[P_LISTEN_HEAR] == 0.5
    assert 0.45 < hear_rate(scene, [GOBLIN]) < 0.56


def test_listen_1_under_esp_the_band_is_always_heard(scene):
    """LISTEN-1: ESP hears the band with the listen chance at 0, on every one of 20 listens
    (one listen at the default 1/3 would pass a third of the time without ESP)."""
    at_door(scene, [GOBLIN, RAT])
    scene.p[P_LISTEN_HEAR] = 0.0
    scene.s.effects[0, ESP] = 200
    saved = scene.save()
    for t in range(20):
        scene.load(saved)
        scene.s.rng[0] = make_rng(t + 1)[0]
        scene.act(A_LISTEN)
        assert scene.s.room_heard[0, 1, 0] and scene.s.events[0] & EV_HEARD


def test_listen_1_esp_is_read_before_the_listens_pace_is_spent(scene):
    """LISTEN-1 with EFFECT-1: ESP with one pace left still hears the band on the listen
    that spends that pace (as a search reads LIGHT before its pace), even with the listen
    chance at 0; with no ESP left, nothing is heard at chance 0."""
    at_door(scene, [GOBLIN])
    scene.p[P_LISTEN_HEAR] = 0.0
    saved = scene.save()
    scene.s.effects[0, ESP] = 1
    scene.act(A_LISTEN)
    assert scene.s.room_heard[0, 1, 0] and scene.s.effects[0, ESP] == 0
    scene.load(saved)
    scene.act(A_LISTEN)
    assert not scene.s.room_heard[0, 1, 0]


def test_listen_1_costs_a_pace_and_an_empty_room_is_never_heard_nor_told_apart(scene):
    """LISTEN-1: one pace; the mask offers listening (and sneaking) at every room door, band
    or not, so it never tells an empty room; nothing is heard from it."""
    at_door(scene, [GOBLIN])
    with_band = scene.refresh().copy()
    scene.clear_band(1, 0)
    without = scene.refresh().copy()
    assert (with_band == without).all() and with_band[A_LISTEN]
    pace = int(scene.s.pace[0])
    scene.s.effects[0, ESP] = 20
    scene.act(A_LISTEN)
    assert scene.s.pace[0] == pace + 1 and not scene.s.room_heard[0, 1, 0]


def test_listen_1_a_heard_band_is_shown_behind_the_door(scene):
    """LISTEN-1: heard, the band's kinds show in `status` at that door and its room's tiles
    in the crop show a band."""
    at_door(scene, [GOBLIN, RAT, GOBLIN])
    scene.s.effects[0, ESP] = 20
    before = scene.obs()
    assert list(before["status"][STATUS_HEARD : STATUS_HEARD + 2]) == [0, 0]
    scene.act(A_LISTEN)
    obs = scene.obs()
    assert list(obs["status"][STATUS_HEARD : STATUS_HEARD + 2]) == [GOBLIN + 1, RAT + 1]
    assert (obs["map"][0] == BAND_HERE).any() and not (before["map"][0] == BAND_HERE).any()
    assert (obs["map"][0].reshape(CROP, CROP) >= 0).all()


def test_listen_1_only_at_a_door(scene):
    scene.stand_in_room(1, 0)
    scene.refresh()
    assert not scene.legal(A_LISTEN) and not scene.legal(A_SNEAK)


def test_sneak_1_one_member_goes_in_alone_then_the_band_answers_on_that_member(scene):
    """SNEAK-1: member 2 sneaks in: no ambush roll, member 2 acts first and alone; after the
    turn the band's round falls on member 2 only; then the ordinary fight starts from the
    front of the marching order."""
    s = scene.s
    for seed in range(40):
        at_door(scene, [GOBLIN, GOBLIN, GOBLIN])
        s.rng[0] = make_rng(seed + 1)[0]
        m = int(s.order[0, 2])
        scene.act(A_SNEAK + m)
        assert s.mode[0] == FIGHT and not s.events[0] & EV_AMBUSH
        assert s.order[0, s.actor[0]] == m and scene.obs()["fight"][FIGHT_SNEAK] == 1
        hp = s.hp[0].copy()
        scene.act(A_ATTACK + 1)
        others = [b for b in range(5) if b != m and s.in_party[0, b]]
        assert (s.hp[0, others] == hp[others]).all()
        if s.mode[0] == FIGHT:
            assert s.actor[0] == 0 and scene.obs()["fight"][FIGHT_SNEAK] == 0
        if s.hp[0, m] < hp[m]:
            return
    raise AssertionError("the band never hit the sneaker in 40 tries")


def test_sneak_1_the_sneakers_foes_are_surprised(scene):
    """SNEAK-1: a surprised goblin resists with its defense alone and never counters: the
    sneaker's blow lands far more often than an ordinary one and is never answered."""
    s = scene.s
    hits = {True: 0, False: 0}
    for sneaking in (True, False):
        for t in range(300):
            at_door(scene, [GOBLIN])
            s.rng[0] = make_rng(t + 101)[0]
            m = int(s.order[0, 0])
            s.item[0, m, 0] = 0  # bare hands: no skill die
            if sneaking:
                scene.act(A_SNEAK + m)
            else:
                scene.fight([GOBLIN], room=0)
            hp, foe = int(s.hp[0, m]), int(s.foe_hp[0, 0])
            s.sneaker[0] = m if sneaking else -1
            from delve_env.engine.rules.fights import member_attack

            member_attack(s, scene.p, 0, 0, False, 1, s.rng)
            hits[sneaking] += int(s.foe_hp[0, 0]) < foe
            if sneaking:
                assert int(s.hp[0, m]) == hp  # no counter-blow
    assert hits[True] > 280 and hits[False] < 220, hits


def test_sneak_1_a_sneaker_killed_by_the_steps_meal_takes_no_lone_turn(scene):
    """SNEAK-1 with FOOD-2: the sneak's pace brings a meal with no rations and the sneaker
    (1 HP, no luck) dies of hunger: no lone turn for the dead; the party walks in and it is
    an ordinary fight, a standing member to act."""
    s = scene.s
    deaths = 0
    for seed in range(12):
        at_door(scene, [GOBLIN, GOBLIN])
        s.rng[0] = make_rng(seed + 1)[0]
        m = int(s.order[0, 2])
        s.hp[0, m], s.luck[0, m] = 1, 0
        s.rations[0] = 0
        s.meal_clock[0] = int(scene.p[P_MEAL_PACES]) - 1
        scene.act(A_SNEAK + m)
        if s.hp[0, m] > 0:
            continue  # the death save stood him up: he sneaks in as ever
        deaths += 1
        assert s.mode[0] == FIGHT and s.sneaker[0] < 0
        assert s.hp[0, s.order[0, s.actor[0]]] > 0
        assert scene.obs()["fight"][FIGHT_SNEAK] == 0
    assert deaths >= 5


def test_sneak_1_into_an_empty_room_is_just_walking_in(scene):
    inside = at_door(scene, [])
    scene.act(A_SNEAK + int(scene.s.order[0, 0]))
    s = scene.s
    assert s.mode[0] == EXPLORE and (int(s.x[0]), int(s.y[0])) == inside
    assert scene.legal(A_WAIT)
