"""Sixpence, the courtyard keeper (SIX-1..2): every event gives its gift once a run, and a
second time nothing; a person reads a hint, an agent sees the event in `status` and `info`."""

import conftest
import numpy as np
import pytest
from conftest import Scene

from delve_env import DelveEnv
from delve_env.engine.core.actions import (
    A_ATTACK,
    A_BID,
    A_BRIBE,
    A_LEAVE,
    A_LOOT,
    A_OPEN,
    A_RUN,
    A_STAIRS,
    A_STATUE,
    A_WAIT,
    A_WORK,
    select_action,
)
from delve_env.engine.core.params import P_TRAP_AVOID_STEP
from delve_env.engine.core.tables import (
    ARMOR,
    CHEST_TRAPPED,
    ESP_SCROLL,
    EV_FLED,
    FEAT_STATUE,
    FIGHT,
    GEM_OF_STRENGTH,
    GOODWILL_SCROLL,
    HAND_AXE,
    HONING_STONE,
    KEEPER_EVENTS,
    KEEPER_GIFTS,
    LIGHT_OF_LIFE,
    MEDICINAL_ALE,
    MIND_SHARPENER,
    NUM_EQUIP,
    RING_MAIL,
    SECRET,
    SHORT_BOW,
    SIX_FLIGHT,
    SIX_START,
    STAIR_DOWN,
    WARD,
    WARDING_LANTERN,
    WOODEN_SHIELD,
)
from delve_env.engine.outputs.layout import PACK_KIND, PACK_KNOWN, STATUS_GIFTS_OWED, STATUS_KEEPER
from delve_env.engine.rules.keeper import deliver, watch
from delve_env.engine.rules.party import is_known, level_cost
from delve_env.keeper import HINTS, said


def make_scene(**config) -> Scene:
    """A rule-test scene with Sixpence awake again (conftest's scenes keep him quiet)."""
    scene = conftest.make_scene(**config)
    scene.s.keeper_seen[0] = scene.s.keeper_given[0] = 1 << SIX_START
    return scene


HERO, ROGUE = 0, 1
RUST_MITE, ACID_SLUG, WIGHT, GOBLIN = 3, 7, 9, 1


def count(scene, kind) -> int:
    return int((scene.s.item[0] == kind).sum())


def events(info) -> list[str]:
    return [said_["event"] for said_ in info.get("keeper", [])]


def once(scene, trigger, event, check_gift):
    """`trigger(scene) -> info` makes the event happen: its gift arrives and it is named;
    triggered again, nothing more comes."""
    before = scene.save()
    info = trigger(scene)
    assert event in events(info), events(info)
    check_gift(before)
    again = scene.save()
    info = trigger(scene)
    assert event not in events(info)
    for key in ("keeper_given", "keeper_seen"):
        assert getattr(scene.s, key)[0] == again[key]


def gained(scene, kind, n=1):
    """A check that `kind` was gained n times since `before`."""

    def check(before):
        assert count(scene, kind) == int((before["item"] == kind).sum()) + n

    return check


def gold_up(scene, amount):
    def check(before):
        assert scene.s.gold[0] == before["gold"] + amount

    return check


def wait(scene):
    return scene.act(A_WAIT)[4]


@pytest.fixture
def game():
    scene = make_scene(depth=3)
    scene.calm()
    return scene


# --- the start, and what agents and people see ------------------------------------------------


def test_six_1_the_start_gives_medicinal_ale_once_and_shows_in_status_and_info():
    env = DelveEnv(depth=2)
    _, info = env.reset(seed=5)
    assert events(info) == ["start"]
    assert info["keeper"][0]["gift"] == "medicinal ale" and info["keeper"][0]["hint"] == HINTS[0]
    obs = env.unwrapped.engine.obs
    assert obs["status"][0, STATUS_KEEPER] == SIX_START + 1
    assert (
        int((env.engine.state.item[0] == MEDICINAL_ALE).sum()) == 1 + 0
    )  # the party starts with none
    assert env.engine.state.keeper_given[0] == 1 << SIX_START
    _, _, _, _, info = env.step(A_STAIRS)  # down the stair: nothing new from Sixpence
    assert "keeper" not in info and env.unwrapped.engine.obs["status"][0, STATUS_KEEPER] == 0


def test_six_1_the_sub_tasks_have_no_keeper():
    for task in ("combat", "vault", "explore"):
        env = DelveEnv(task=task)
        _, info = env.reset(seed=1)
        assert "keeper" not in info and env.engine.state.keeper_given[0] == 0


def test_six_2_every_event_has_a_hint_and_a_gift_in_words():
    """SIX-2: a hint in the project's words for every event, and its gift named."""
    assert len(HINTS) == len(KEEPER_EVENTS) == 21
    named = said((1 << len(KEEPER_EVENTS)) - 1)
    assert [n["event"] for n in named] == list(KEEPER_EVENTS)
    assert all(n["gift"] and n["hint"] for n in named)


# --- events read off the clock and the map -----------------------------------------------------


def test_six_1_rations_running_out_gives_ten_once(game):
    def trigger(scene):
        scene.s.rations[0] = 0
        return wait(scene)

    game.put(1, *game.hall_tile(1, False))
    once(game, trigger, "rations ran out", lambda b: None)
    assert game.s.rations[0] == 0  # the second time nothing came (the first gave ten, eaten)


def test_six_1_rations_gift_is_ten(game):
    game.put(1, *game.hall_tile(1, False))
    game.s.rations[0] = 0
    wait(game)
    assert game.s.rations[0] == 10


def test_six_1_300_paces_without_a_report_gives_a_coin_and_reading_one_resets(game):
    game.put(1, *game.hall_tile(1, False))
    game.s.pace[0] = 298
    game.s.report_pace[0] = 0

    def trigger(scene):
        return wait(scene)

    before = game.s.gold[0]
    assert "300 paces without reading a report" not in events(wait(game))  # pace 299
    info = wait(game)  # pace 300
    assert "300 paces without reading a report" in events(info)
    assert game.s.gold[0] == before + 1
    game.s.pace[0] += 400
    assert "300 paces without reading a report" not in events(wait(game))


def test_six_1_a_party_effect_gives_a_coin(game):
    def trigger(scene):
        scene.s.effects[0, WARD] = 5
        return wait(scene)

    game.put(1, *game.hall_tile(1, False))
    once(game, trigger, "first party effect", gold_up(game, 1))


def test_six_1_a_locked_stair_gives_a_coin(game):
    s = game.s
    x, y = (int(v) for v in s.stair_down[0, 1])
    assert s.tiles[0, 1, y, x] == STAIR_DOWN
    s.maps_held[0] = 0

    def trigger(scene):
        scene.put(1, x, y)
        return wait(scene)

    once(game, trigger, "first locked stair", gold_up(game, 1))


def test_six_1_walking_past_an_unfound_secret_door_gives_a_short_bow():
    for seed in range(20):
        scene = make_scene(depth=3, seed=seed)
        scene.calm()
        t = scene.tiles(1)
        found = [(x, y) for y, x in zip(*np.nonzero(t == SECRET))]
        for x, y in found:
            for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
                if t[y + dy, x + dx] in (1, 2):  # a hall or room tile beside it
                    scene.put(1, x + dx, y + dy)
                    once(scene, wait, "first secret door walked past", gained(scene, SHORT_BOW))
                    return
    raise AssertionError("no secret door in 20 seeds")


def test_six_1_a_store_floor_reached_gives_a_honing_stone(game):
    s = game.s
    x, y = (int(v) for v in s.stair_down[0, 2])
    s.maps_held[0] = 0b1111  # every stair open

    def trigger(scene):
        scene.put(2, x, y)
        return scene.act(A_STAIRS)[4]  # down to floor 3, a store floor (STORE-1)

    once(game, trigger, "a store floor reached", gained(game, HONING_STONE))


# --- events of fights ------------------------------------------------------------------------


def fight_until(scene, kind, event, turns=400):
    """Fight a band of one `kind` with a tough party until Sixpence names `event`."""
    scene.tough()
    scene.put(1, *scene.hall_tile(1, False))
    scene.fight([kind], hps=[30000])
    for _ in range(turns):
        info = scene.act(A_ATTACK)[4]
        if event in events(info):
            return info
    raise AssertionError(f"no {event} in {turns} turns")


def test_six_1_the_first_metal_bite_gives_a_hand_axe_once(game):
    before = count(game, HAND_AXE)
    fight_until(game, RUST_MITE, "first metal bite")
    axes = count(game, HAND_AXE)
    assert axes >= before + 1  # (a bitten axe may be the one in hand)
    for _ in range(60):  # more bites: nothing more from Sixpence
        assert "first metal bite" not in events(game.act(A_ATTACK)[4])
    assert game.s.stat_kills[0] == 0


def test_six_1_the_first_armor_bite_gives_a_wooden_shield(game):
    before = count(game, WOODEN_SHIELD)
    fight_until(game, ACID_SLUG, "first armor bite")
    assert count(game, WOODEN_SHIELD) >= before  # one ground down may be replaced by the gift
    assert game.s.keeper_given[0] >> KEEPER_EVENTS.index("first armor bite") & 1


def test_six_1_the_first_ceiling_drained_gives_a_gem_of_strength(game):
    before = count(game, GEM_OF_STRENGTH)
    fight_until(game, WIGHT, "first ceiling drained")
    assert count(game, GEM_OF_STRENGTH) == before + 1


def test_six_1_the_first_flight_gives_that_floors_map(game):
    def trigger(scene):
        scene.put(1, *scene.hall_tile(1, False))
        scene.fight([GOBLIN])
        return scene.act(A_RUN)[4]

    game.s.maps_held[0] = 0

    def check(before):
        assert game.s.maps_held[0] & (1 << 1)

    once(game, trigger, "first flight", check)


def test_six_1_the_first_bribe_asked_gives_a_goodwill_scroll(game):
    def trigger(scene):
        scene.put(1, *scene.hall_tile(1, False))
        scene.s.gold[0] = 10_000
        scene.fight([GOBLIN])
        scene.s.bribe_asked[0] = False
        return scene.act(A_BRIBE)[4]

    once(game, trigger, "first bribe asked", gained(game, GOODWILL_SCROLL))


def test_six_1_the_first_ambush_at_a_door_gives_an_esp_scroll(game):
    s = game.s
    r = next(r for r in range(s.num_rooms[0, 1]) if s.band_kind[0, 1, r, 0] >= 0)
    band = s.band_kind[0, 1, r].copy(), s.band_hp[0, 1, r].copy()
    game.tough()
    for _ in range(60):
        s.band_kind[0, 1, r], s.band_hp[0, 1, r] = band
        info = game.enter_room(1, r)[4]
        if "first ambush at a door" in events(info):
            assert count(game, ESP_SCROLL) == 1
            return
        if s.mode[0] == FIGHT:
            game.act(A_RUN)
    raise AssertionError("no ambush in 60 tries")


def test_six_1_the_first_death_gives_a_light_of_life(game):
    s = game.s
    game.put(1, *game.hall_tile(1, False))
    s.luck[0] = 0
    for _ in range(30):  # the hero misses a meal at 1 HP until a death save fails
        s.hp[0, HERO] = 1
        s.rations[0] = 0
        s.meal_clock[0] = 10_000
        info = wait(game)
        if "first member dead" in events(info):
            assert count(game, LIGHT_OF_LIFE) == 1
            s.hp[0, HERO] = 1
            s.rations[0], s.meal_clock[0] = 0, 10_000
            while "first member dead" not in events(info) or s.hp[0, HERO] > 0:
                info = wait(game)
                if s.hp[0, HERO] <= 0:
                    break
                s.rations[0], s.meal_clock[0] = 0, 10_000
            assert count(game, LIGHT_OF_LIFE) == 1  # a second death: nothing more
            return
    raise AssertionError("the hero never died")


# --- events of rooms and their things ----------------------------------------------------------


def test_six_1_a_trap_sprung_on_a_non_rogue_gives_a_coin_and_on_a_rogue_nothing(game):
    s = game.s
    f, r = 1, next(r for r in range(s.num_rooms[0, 1]) if s.band_kind[0, 1, r, 0] < 0)
    game.p[P_TRAP_AVOID_STEP] = 20  # nobody avoids a trap
    game.tough()
    game.stand_in_room(f, r)
    s.room_chest[0, f, r] = CHEST_TRAPPED
    gold = s.gold[0]
    game.act(A_OPEN + ROGUE)
    assert s.stat_traps[0] == 1 and s.gold[0] == gold
    s.room_chest[0, f, r] = CHEST_TRAPPED
    info = game.act(A_OPEN + HERO)[4]
    assert "first trap sprung on a non-rogue" in events(info) and s.gold[0] == gold + 1


def test_six_1_a_vault_worked_by_a_non_rogue_gives_a_wooden_shield():
    for seed in range(30):
        env = DelveEnv(depth=3)
        env.reset(seed=seed)
        scene = Scene(env)
        s = scene.s
        if s.vault_room[0, 1] < 0:
            continue
        scene.calm()
        r = int(s.vault_room[0, 1])
        scene.clear_band(1, r)
        scene.stand_in_room(1, r)
        shields = count(scene, WOODEN_SHIELD)
        info = scene.act(A_WORK + HERO)[4]
        assert "first vault worked by a non-rogue" in events(info)
        assert count(scene, WOODEN_SHIELD) == shields + 1
        return
    raise AssertionError("no vault on floor 1 in 30 seeds")


def test_six_1_a_rogue_working_a_vault_is_no_event():
    for seed in range(30):
        env = DelveEnv(depth=3)
        env.reset(seed=seed)
        scene = Scene(env)
        if scene.s.vault_room[0, 1] < 0:
            continue
        scene.calm()
        r = int(scene.s.vault_room[0, 1])
        scene.clear_band(1, r)
        scene.stand_in_room(1, r)
        assert "first vault worked by a non-rogue" not in events(scene.act(A_WORK + ROGUE)[4])
        return
    raise AssertionError("no vault on floor 1 in 30 seeds")


def test_six_1_an_item_broken_by_a_statue_gives_a_coin():
    scene = make_scene(depth=3, statue_chance=1.0)
    scene.calm()
    s = scene.s
    r = int(np.flatnonzero(s.room_feature[0, 1] == FEAT_STATUE)[0])
    scene.stand_in_room(1, r)
    s.statue_threshold[0, 1] = 20
    s.gold[0] = 1000

    def trigger(sc):
        s.item[0, HERO, NUM_EQUIP + 5] = WARDING_LANTERN  # unknown: the statue may name it
        s.known_kinds[0] &= ~(1 << WARDING_LANTERN)
        sc.act(A_STATUE)
        sc.act(select_action(HERO, NUM_EQUIP + 5))
        info = sc.act(A_BID)[4]  # a bid of nothing: below half the threshold, it breaks
        sc.act(A_LEAVE)
        return info

    once(scene, trigger, "first item broken by a statue", gold_up(scene, 1))


def test_six_1_a_spell_page_gives_ten_rations(game):
    s = game.s
    f, r = 1, next(r for r in range(s.num_rooms[0, 1]) if s.band_kind[0, 1, r, 0] < 0)

    def trigger(scene):
        scene.stand_in_room(f, r)
        s.room_pages[0, f, r, 0] = 2
        return scene.act(A_LOOT)[4]

    rations = s.rations[0]
    trigger(game)
    assert s.rations[0] == rations + 10
    assert "first spell page" not in events(trigger(game))
    assert s.rations[0] == rations + 10


def test_six_1_the_king_gives_ring_mail_and_hunting_an_aura_of_warding():
    scene = make_scene(depth=2)
    scene.calm()
    s = scene.s
    s.has_book[0] = True
    r = int(s.king_room[0])
    scene.clear_band(2, r)
    info = scene.enter_room(2, r)[4]
    assert {"king found", "hunting starts"} <= set(events(info))
    assert count(scene, RING_MAIL) == 1 and count(scene, WARDING_LANTERN) == 1


def test_item_2_sixpences_gifts_arrive_known():
    """ITEM-2: what Sixpence hands over he names: the medicinal ale of the start and the
    aura of warding of the hunt show their kinds in the pack (not a bottle's or a lantern's
    look, which a foul lantern shares), and the kinds are known from then on."""
    env = DelveEnv(depth=2)
    env.reset(seed=5)
    s = env.engine.state
    assert is_known(s, 0, MEDICINAL_ALE)
    scene = make_scene(depth=2)
    scene.calm()
    s = scene.s
    assert not is_known(s, 0, WARDING_LANTERN)
    s.has_book[0] = True
    r = int(s.king_room[0])
    scene.clear_band(2, r)
    scene.enter_room(2, r)
    m, slot = (int(v[0]) for v in np.nonzero(s.item[0] == WARDING_LANTERN))
    pack = scene.obs()["pack"][m]
    assert pack[slot, PACK_KIND] == WARDING_LANTERN and pack[slot, PACK_KNOWN] == 1
    assert is_known(s, 0, WARDING_LANTERN)


def test_six_1_the_first_level_gives_a_mind_sharpener(game):
    s = game.s
    s.xp[0, :4] = level_cost(game.p, 1) - 1  # a new room's XP, shared, is enough
    r = next(r for r in range(s.num_rooms[0, 1]) if s.band_kind[0, 1, r, 0] < 0)
    info = game.enter_room(1, r)[4]
    assert "first level gained" in events(info)
    assert count(game, MIND_SHARPENER) == 1


def test_six_1_a_gift_waits_for_pack_room_and_status_counts_it(game):
    s = game.s
    game.put(1, *game.hall_tile(1, False))
    s.item[0, :4, NUM_EQUIP:] = MEDICINAL_ALE  # every pack full
    s.effects[0, WARD] = 0
    scene_obs = game.obs()
    assert scene_obs["status"][STATUS_GIFTS_OWED] == 0
    s.xp[0, :4] = 0
    s.hp[0, 0] = s.ceiling[0, 0] - 1
    s.gold[0] = 10_000
    game.fight([GOBLIN])
    info = game.act(A_BRIBE)[4]  # asked: a goodwill scroll is owed, no room for it
    assert "first bribe asked" in events(info)
    assert count(game, GOODWILL_SCROLL) == 0
    assert game.obs()["status"][STATUS_GIFTS_OWED] == 1
    if s.mode[0] == FIGHT:  # refused: still fighting, so run
        game.act(A_RUN)
    s.item[0, HERO, NUM_EQUIP] = 0  # a slot frees up: the scroll comes on the next step
    wait(game)
    assert count(game, GOODWILL_SCROLL) == 1
    assert game.obs()["status"][STATUS_GIFTS_OWED] == 0


def test_six_1_wearing_a_pack_item_makes_room_for_a_waiting_gift_at_once(game):
    """SIX-1: a gift waiting for pack room comes on the very step a member puts on armour from
    a full pack (exploring, a step that only moves items skips the per-action bookkeeping,
    but not while a gift is owed)."""
    s = game.s
    game.put(1, *game.hall_tile(1, False))
    s.item[0, :4, NUM_EQUIP:] = MEDICINAL_ALE  # every pack full
    s.item[0, HERO, ARMOR], s.item[0, HERO, NUM_EQUIP] = 0, RING_MAIL
    k = next(k for k in range(len(KEEPER_GIFTS)) if KEEPER_GIFTS[k, 0] > 0 and k != SIX_START)
    kind = KEEPER_GIFTS[k, 0]
    s.keeper_seen[0] |= 1 << k  # its item owed, with no room for it
    before = count(game, kind)
    game.wear(HERO, NUM_EQUIP)
    assert s.item[0, HERO, ARMOR] == RING_MAIL
    assert count(game, kind) == before + 1 and (int(s.keeper_given[0]) >> k) & 1


def test_six_1_the_soak_checker_flags_a_gift_without_its_event(game):
    from delve_env.checks import invariants

    s = game.s
    checker = invariants.InvariantChecker()
    assert checker.check(s, stepped=False) == []
    s.keeper_given[0] |= 1 << KEEPER_EVENTS.index("first bribe asked")
    rules = [v.rule for v in checker.check(s, stepped=False)]
    assert rules == ["a keeper gift without its event"]


# --- survivors of quality/mutants.py -------------------------------------------------------


def test_six_1_fleeing_a_practice_bout_is_no_flight(game):
    """SIX-1: a flight on the courtyard (a practice bout, COURT-2) is not the first flight;
    the same event on floor 1 is."""
    s = game.s
    s.floor[0] = 0
    s.events[0] = EV_FLED
    watch(s, 0)
    assert not (int(s.keeper_seen[0]) >> SIX_FLIGHT) & 1
    game.put(1, *game.hall_tile(1, False))
    s.events[0] = EV_FLED
    watch(s, 0)
    assert (int(s.keeper_seen[0]) >> SIX_FLIGHT) & 1


def test_six_1_a_gift_waiting_for_pack_room_holds_back_no_later_gift(game):
    """SIX-1: an item gift with no pack room waits; a later gift of gold owed with it is
    handed over at once."""
    s = game.s
    gifts = KEEPER_GIFTS
    item = next(k for k in range(len(gifts)) if gifts[k, 0] > 0 and k != SIX_START)
    coin = next(k for k in range(item + 1, len(gifts)) if gifts[k, 0] == 0 and gifts[k, 1] > 0)
    s.item[0, :4, NUM_EQUIP:] = MEDICINAL_ALE  # every pack full
    gold = int(s.gold[0])
    s.keeper_seen[0] |= (1 << item) | (1 << coin)
    deliver(s, 0)
    assert s.gold[0] == gold + gifts[coin, 1]
    assert (int(s.keeper_given[0]) >> coin) & 1 and not (int(s.keeper_given[0]) >> item) & 1
