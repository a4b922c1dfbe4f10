"""EFFECT-1 isolation: each timed effect (a lantern's WARD, the scrolls' ESP, SATED and
LIGHT; the Light spell and create light start LIGHT, shape air a warding WARD, on the same
clock) changes only what its rule names.

The same hand-set scene is played twice, step for step with the same actions and the same
seed, once with the effect started (`effects.light_lantern` / `effects.read_scroll`, as a
lantern lit or a scroll read does) and once without. After every step each field of the
engine state (`env.unwrapped.engine.state`) must be equal in the two runs, except the
effect's allow-list below: its own count of paces and the one thing its rule names. The
meal clock, rations eaten, the heal-by-walking clock, HP, mana, XP, luck, gold, the rng (so
every roll: wandering, listening, searching), what is seen (fog, tiles, reach) and the other
effects' counts are compared wherever the rule does not name them. The allowed fields are
then checked against the rule itself (SATED's meals against FOOD-4, ESP's hearing against
LISTEN-1, LIGHT's find against SECRET-2), so an allowed field cannot hide a leak either.

The scene: floor 1, the party on the door of room 0 (a band in it only where ESP is to hear
one), wandering chances a billionth (rolled every pace, never a band: the roll's outcome
does not depend on WARD), listen and search chances 0, four members wounded and low on
mana with 200 rations, the meal clock at 100 (a meal due at pace 20, FOOD-1). Each of 64
paces is one of: listen and search and wait at the door, step out, search and wait there,
step back. The effects last 30 paces (`lantern_paces` / `scroll_paces`), so they run out
within the window and the paces after they end are compared too.
"""

import numpy as np
import pytest
from conftest import direction, make_scene
from spellkit import NAMER, WIZ, cast, power, teach

from delve_env.engine.core.actions import (
    A_LISTEN,
    A_SEARCH,
    A_USE,
    A_WAIT,
    action_name,
    select_action,
)
from delve_env.engine.core.params import (
    P_HALL_WANDER,
    P_HALL_WANDER_HUNT,
    P_HEAL_PACES,
    P_JUNCTION_WANDER,
    P_JUNCTION_WANDER_HUNT,
    P_LISTEN_HEAR,
    P_MEAL_PACES,
    P_SEARCH_FIND,
)
from delve_env.engine.core.tables import (
    DOOR,
    ESP,
    ESP_SCROLL,
    EV_HEARD,
    FOUL_LANTERN,
    LIGHT,
    LIGHT_SCROLL,
    M_HEARTS,
    MONSTERS,
    NUM_EFFECTS,
    ROCK,
    SATED,
    SATED_SCROLL,
    SECRET,
    WARD,
    WARDING_LANTERN,
)
from delve_env.engine.core.tables import NUM_EQUIP as PACK
from delve_env.engine.generation.floors import DX, DY
from delve_env.engine.rules.effects import light_lantern, read_scroll
from delve_env.engine.rules.spells import LIGHT_SPELL
from delve_env.engine.rules.wander import wander_chance

GOBLIN = 1
F, R = 1, 0  # the scene's floor and room
PACES = 64
LASTS = 30  # lantern_paces and scroll_paces of the scene
MEAL_CLOCK = 100  # a meal due at pace 20
TINY = 1e-9  # every wandering chance: rolled each pace, never a band in 64
NAME = {WARD: "WARD", ESP: "ESP", SATED: "SATED", LIGHT: "LIGHT"}

# What each effect may change besides its own count (`effects[:, k]`): the fields its rule
# names. Every other field, and every other effect's count, is compared. Keys: (effect,
# variant); "quiet" is the scene where the rule's thing has nothing to act on.
ALLOWED = {
    # WANDER-2: the wandering chance; at a billionth no band comes either way, so nothing.
    (WARD, "warding"): set(),
    # ... the foul lantern also marks the WARD slot foul until WARD runs out (EFFECT-1).
    (WARD, "foul"): {"ward_foul"},
    # LISTEN-1: an empty room: ESP has no band to hear, the listen roll is not drawn either way.
    (ESP, "quiet"): set(),
    # LISTEN-1: a band at chance 0: ESP hears it (no roll drawn), the plain run never does.
    (ESP, "heard"): {"rng", "room_heard", "room_code", "kind_met", "events", "achieved"},
    # FOOD-4: the meal interval: when the meals come (the clock's count, the rations eaten).
    (SATED, "meals"): {"meal_clock", "rations", "stat_eaten"},
    # SECRET-2: no secret door beside the party: LIGHT finds nothing more.
    (LIGHT, "quiet"): set(),
    # SECRET-2: a secret door at chance 0: LIGHT finds it at the first search (no roll drawn);
    # the door is seen (tiles, fog, the known map's sets).
    (LIGHT, "secret"): {"rng", "tiles", "fog", "reach", "events", "achieved"},
}


# --- the scene ----------------------------------------------------------------------------


def door_scene(band: bool, secret: bool):
    """The scene (module docstring); returns it with (door, outside) tiles and the secret's."""
    sc = make_scene(lantern_paces=LASTS, scroll_paces=LASTS)
    s, p = sc.s, sc.p
    for i in (P_HALL_WANDER, P_HALL_WANDER_HUNT, P_JUNCTION_WANDER, P_JUNCTION_WANDER_HUNT):
        p[i] = TINY
    p[P_LISTEN_HEAR] = p[P_SEARCH_FIND] = 0.0
    sc.clear_band(F, R)
    if band:
        s.band_kind[0, F, R, 0] = GOBLIN
        s.band_hp[0, F, R, 0] = MONSTERS[GOBLIN, M_HEARTS]
    s.room_heard[0, F, R] = False
    door, _, out = sc.door_of(F, R)
    t = sc.tiles(F)
    around = [(x + DX[d], y + DY[d]) for x, y in (door, out) for d in range(4)]
    assert all(t[y, x] != SECRET for x, y in around), "the scene has a secret door already"
    hidden = next((x, y) for x, y in around[4:] if t[y, x] == ROCK)  # beside the outside tile
    if secret:
        t[hidden[1], hidden[0]] = SECRET
    sc.put(F, *out)
    sc.act(direction(door[0] - out[0], door[1] - out[1]))  # up to the door (a pace)
    s.pace[0] = 0
    s.meal_clock[0], s.heal_clock[0] = MEAL_CLOCK, 0
    s.rations[0] = 200
    for m in range(4):
        s.ceiling[0, m], s.hp[0, m] = 100, 40 + m
        s.well[0, m], s.mana[0, m] = 50, m
    s.xp[0, :4] = (5, 6, 7, 8)
    s.gold[0] = 123
    return sc, door, out, hidden


def actions(door, out):
    """The 7-pace round: listen, search, wait at the door; out; search, wait; back."""
    step_out = direction(out[0] - door[0], out[1] - door[1])
    step_in = direction(door[0] - out[0], door[1] - out[1])
    return (A_LISTEN, A_SEARCH, A_WAIT, step_out, A_SEARCH, A_WAIT, step_in)


def state(sc) -> dict:
    """Every state field of env 0, copied (the comparison's view of `engine.state`)."""
    return {name: np.array(a[0], copy=True) for name, a in zip(sc.s._fields, sc.s)}


def leaks(got: dict, base: dict, effect: int, allowed: set) -> list:
    """The fields (and other effects' counts) that differ outside the allow-list."""
    out = []
    for name in got:
        if name in allowed:
            continue
        a, b = got[name], base[name]
        if name == "effects":
            others = [k for k in range(NUM_EFFECTS) if k != effect]
            a, b = a[others], b[others]
            name = "effects (another effect's count)"
        if not np.array_equal(a, b):
            out.append(name)
    return out


def twin_runs(effect: int, variant: str, foul: bool = False):
    """Play the scene with and without `effect`; after each pace check that only the allowed
    fields differ and that the effect's count is LASTS less the paces passed. Yields (pace,
    run with, run without) after each step for the rule's own checks."""
    band, secret = variant == "heard", variant == "secret"
    with_it, door, out, hidden = door_scene(band, secret)
    without, *_ = door_scene(band, secret)
    assert leaks(state(with_it), state(without), -1, set()) == []  # the same scene
    if effect == WARD:
        light_lantern(with_it.s, with_it.p, 0, foul)
    else:
        read_scroll(with_it.s, with_it.p, 0, effect)
    allowed = ALLOWED[effect, variant]
    plan = actions(door, out)
    for t in range(1, PACES + 1):
        a = plan[(t - 1) % len(plan)]
        with_it.act(a)
        without.act(a)
        got, base = state(with_it), state(without)
        assert got["pace"] == base["pace"] == t
        assert got["effects"][effect] == max(0, LASTS - t) and base["effects"][effect] == 0
        bad = leaks(got, base, effect, allowed)
        assert not bad, f"pace {t} ({action_name(a)}): {bad} differ, {NAME[effect]} started"
        yield t, with_it, without, hidden


# --- one test per effect ------------------------------------------------------------------


@pytest.mark.parametrize("foul", [False, True], ids=["warding", "foul"])
def test_effect_1_ward_changes_only_the_wandering_chance(foul):
    """WARD (a lantern, or shape air's warding one) halves (foul: doubles) the wandering
    chance and nothing else: every clock, roll and number but its count (and the foul mark
    while it burns) is the same with and without it, and no band comes either way."""
    variant = "foul" if foul else "warding"
    for t, a, b, _ in twin_runs(WARD, variant, foul):
        assert a.s.mode[0] == b.s.mode[0] == 0  # exploring: no band, no fight
        plain = wander_chance(b.s, b.p, 0, False)
        assert plain == pytest.approx(TINY)
        want = (2.0 if foul else 0.5) * plain if t < LASTS else plain
        assert wander_chance(a.s, a.p, 0, False) == pytest.approx(want)
        assert bool(a.s.ward_foul[0]) == (foul and t < LASTS)


@pytest.mark.parametrize("variant", ["quiet", "heard"])
def test_effect_1_esp_changes_only_what_a_listen_hears(variant):
    """ESP makes a listen hear the band (LISTEN-1) and nothing else: at an empty room nothing
    differs but its count; at a guarded room at chance 0 the band is heard (the room heard
    and shown, the bestiary's meeting, the event, the listen roll not drawn) only under ESP."""
    heard = variant == "heard"
    for t, a, b, _ in twin_runs(ESP, variant):
        assert not b.s.room_heard[0, F, R] and not b.s.events[0] & EV_HEARD
        assert a.s.room_heard[0, F, R] == heard  # from the first listen on
        listened = (t - 1) % 7 == 0  # the round's first pace: a listen
        assert bool(a.s.events[0] & EV_HEARD) == (heard and listened and t <= LASTS)


def meals(t: int, sated: int, meal_paces: int) -> tuple[int, int]:
    """FOOD-1 and FOOD-4 counted out: (meal clock, meals eaten) after t paces from the
    scene's meal clock, SATED running for its first `sated` paces."""
    clock, eaten = MEAL_CLOCK, 0
    for pace in range(t):
        clock += 1
        if clock >= (2 if pace < sated else 1) * meal_paces:  # read before the pace spends it
            clock, eaten = 0, eaten + 1
    return clock, eaten


def test_food_4_sated_changes_only_when_the_meals_come():
    """SATED doubles the meal interval and nothing else: the heal clock, HP, mana, the rng
    and the other counts stay as without it; its own fields follow FOOD-4: the meal clock
    keeps counting through SATED (no meal at pace 20 under it), and the pace after SATED ends
    with 130 paces since the last meal brings the meal."""
    for t, a, b, _ in twin_runs(SATED, "meals"):
        meal_paces = int(a.p[P_MEAL_PACES])
        for run, sated in ((a, LASTS), (b, 0)):
            clock, eaten = meals(t, sated, meal_paces)
            s = run.s
            run_name = "SATED" if sated else "plain"
            assert s.meal_clock[0] == clock, f"pace {t}, {run_name} run: meal clock"
            assert s.rations[0] == 200 - 4 * eaten, f"pace {t}, {run_name} run: rations"
            assert s.stat_eaten[0] == 4 * eaten
    assert meals(PACES, LASTS, 120) == (PACES - LASTS - 1, 1)  # the meal at pace 31
    assert meals(PACES, 0, 120) == (PACES - 20, 1)  # the meal at pace 20


@pytest.mark.parametrize("variant", ["quiet", "secret"])
def test_effect_1_light_changes_only_what_a_search_finds(variant):
    """LIGHT makes a search find every secret door beside the party (SECRET-2) and nothing
    else: with no secret door nothing differs but its count; with one at chance 0 LIGHT finds
    it at the first search beside it (then it is a seen door) and the plain run never does."""
    for t, a, b, hidden in twin_runs(LIGHT, variant):
        x, y = hidden
        if variant == "secret":
            assert b.tiles(F)[y, x] == SECRET
            assert a.tiles(F)[y, x] == (DOOR if t >= 5 else SECRET)  # pace 5: search outside


def test_effect_1_the_scene_passes_meals_and_heals_for_every_effect_to_leak_into():
    """The scene is one where a leak would show: within its 64 paces, while the effects run
    (30), a meal comes (pace 20) and the heal clock turns over (every 6 paces), wounded
    members heal and regain mana."""
    sc, door, out, _ = door_scene(False, False)
    assert int(sc.p[P_HEAL_PACES]) == 6 and int(sc.p[P_MEAL_PACES]) == 120
    plan = actions(door, out)
    hp = sc.s.hp[0, :4].copy()
    for t in range(1, LASTS + 1):
        sc.act(plan[(t - 1) % len(plan)])
    s = sc.s
    assert s.rations[0] == 200 - 4 and s.meal_clock[0] == LASTS - 20
    assert (s.hp[0, :4] == hp + LASTS // 6).all() and (s.mana[0, :4] > np.arange(4)).all()


# --- each effect lasts its tunable --------------------------------------------------------

TUNED = {"lantern_paces": "scroll_paces", "scroll_paces": "lantern_paces"}
ITEMS = {
    "warding lantern": (WARDING_LANTERN, WARD, "lantern_paces"),
    "foul lantern": (FOUL_LANTERN, WARD, "lantern_paces"),
    "ESP scroll": (ESP_SCROLL, ESP, "scroll_paces"),
    "SATED scroll": (SATED_SCROLL, SATED, "scroll_paces"),
    "LIGHT scroll": (LIGHT_SCROLL, LIGHT, "scroll_paces"),
}
SPELLS = {  # spells and name spells cast outside a fight start an effect on the same clock
    "light": (LIGHT, "scroll_paces"),
    "create light": (LIGHT, "scroll_paces"),
    "shape air": (WARD, "lantern_paces"),
}


def runs_out_after(sc, effect: int, paces: int) -> None:
    """The effect was just started: it has `paces` left, loses one a waited pace, is still
    running after paces - 1 and gone after exactly `paces`."""
    s = sc.s
    assert s.effects[0, effect] == paces
    for t in range(1, paces + 1):
        sc.act(A_WAIT)
        assert s.effects[0, effect] == paces - t, t
    sc.act(A_WAIT)
    assert s.effects[0, effect] == 0


@pytest.mark.parametrize("paces", [30, 75])
@pytest.mark.parametrize("item", list(ITEMS))
def test_effect_1_an_item_effect_lasts_exactly_its_tunable_paces(item, paces):
    """Lit or read through the action (ITEM-1), the effect runs out after exactly
    `lantern_paces` (a lantern) or `scroll_paces` (a scroll) paces, at 30 and at 75; the
    other key (set to 11) is not read."""
    kind, effect, key = ITEMS[item]
    sc = make_scene(**{key: paces, TUNED[key]: 11})
    sc.calm()
    x, y = sc.hall_tile(F, junction=False)
    sc.put(F, x, y)
    s = sc.s
    s.item[0, 0, PACK], s.item_dv[0, 0, PACK], s.item_wear[0, 0, PACK] = kind, 0, 0
    sc.act(select_action(0, PACK))  # the Hero: a reader
    sc.act(A_USE + 0)
    assert s.item[0, 0, PACK] == 0 and s.pace[0] == 0  # used up, no time
    runs_out_after(sc, effect, paces)


@pytest.mark.parametrize("paces", [30, 75])
@pytest.mark.parametrize("spell", list(SPELLS))
def test_effect_1_a_spell_effect_lasts_exactly_its_tunable_paces(spell, paces):
    """Cast outside a fight, the Light spell and create light start LIGHT for `scroll_paces`,
    shape air a warding WARD for `lantern_paces` (SPELL-1, the name spells): it runs out
    after exactly that many paces, at 30 and at 75; the other key (set to 11) is not read."""
    effect, key = SPELLS[spell]
    sc = make_scene(party=("wizard", "hero", "cleric", "namer"), **{key: paces, TUNED[key]: 11})
    sc.calm()
    s = sc.s
    sc.tough(200)
    for m in range(4):
        s.mana[0, m] = s.well[0, m] = 50
    s.spells_known[0, :] = 0
    s.spells_spent[0, :] = 0
    s.names_known[0, :] = 0
    sc.put(F, int(s.stair_up[0, F, 0]), int(s.stair_up[0, F, 1]))
    if spell == "light":
        s.spells_known[0, WIZ] = 1 << LIGHT_SPELL
        cast(sc, WIZ, LIGHT_SPELL)
    else:
        teach(sc, spell)
        cast(sc, NAMER, power("name: " + spell))
    assert s.pace[0] == 0 and not s.ward_foul[0]
    runs_out_after(sc, effect, paces)
