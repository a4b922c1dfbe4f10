"""The king in fights (PARTY-1..2, ROUND-1, HEAL-1, RUN-4): he acts in marching order when in
the party, monsters aim at him like any member, he heals by walking, the run is lost when he
dies and goes on while he or any member stands."""

from __future__ import annotations

import numpy as np

from delve_env.engine.core.actions import A_ATTACK, A_WAIT
from delve_env.engine.core.tables import EV_LOST, EXPLORE, FIGHT, KING_SLOT, MONSTER_NAMES
from delve_env.engine.rules.fights import pick_target
from delve_env.engine.rules.party import join_king

GOBLIN = MONSTER_NAMES.index("goblin")
BIG = 30000


def with_king(scene, rng):
    """The default party with the king joined at the back (marching position 5)."""
    s = scene.s
    join_king(s, 0, rng)
    assert s.has_king[0] and s.order[0, 4] == KING_SLOT
    return s


def test_round_1_the_king_acts_in_marching_order(scene, rng):
    s = with_king(scene, rng)
    scene.tough()
    scene.put(1, *scene.hall_tile(1, junction=False))
    scene.fight([GOBLIN], hps=[BIG])
    actors = []
    for _ in range(10):
        actors.append(int(s.order[0, s.actor[0]]))
        scene.act(A_ATTACK)
    assert actors == [0, 1, 2, 3, KING_SLOT] * 2
    s.order[0, :] = [KING_SLOT, 0, 1, 2, 3]  # at the front he acts first
    scene.fight([GOBLIN], hps=[BIG])
    assert s.order[0, s.actor[0]] == KING_SLOT


def test_party_2_monsters_aim_at_the_king_like_any_member(scene, rng):
    """At the back he is one of three in the rear (30% / 3); at the front one of two (70% / 2)."""
    s, p = with_king(scene, rng), scene.p
    scene.fight([GOBLIN], hps=[BIG])
    g = scene.rng(7)
    back = np.mean([pick_target(s, p, 0, g) == KING_SLOT for _ in range(6000)])
    assert abs(back - 0.1) < 0.02
    s.order[0, :] = [KING_SLOT, 0, 1, 2, 3]
    front = np.mean([pick_target(s, p, 0, g) == KING_SLOT for _ in range(6000)])
    assert abs(front - 0.35) < 0.03


def test_heal_1_the_king_heals_by_walking(scene, rng):
    s = with_king(scene, rng)
    scene.calm()
    scene.put(1, *scene.hall_tile(1, junction=False))
    s.hp[0, KING_SLOT] = 10
    s.heal_clock[0] = 0
    for _ in range(12):
        scene.act(A_WAIT)
    assert s.hp[0, KING_SLOT] == 12  # HEAL-1: 1 HP every 6 paces
    s.hp[0, KING_SLOT] = s.ceiling[0, KING_SLOT]
    for _ in range(6):
        scene.act(A_WAIT)
    assert s.hp[0, KING_SLOT] == s.ceiling[0, KING_SLOT]  # never past the ceiling


def test_run_4_the_run_is_lost_when_the_king_dies_though_members_stand(scene, rng):
    s = with_king(scene, rng)
    scene.tough()
    s.hp[0, KING_SLOT], s.luck[0, KING_SLOT] = 1, 0
    s.order[0, :] = [KING_SLOT, 0, 1, 2, 3]  # in front, where the goblins aim
    scene.put(1, *scene.hall_tile(1, junction=False))
    scene.fight([GOBLIN] * 6, hps=[BIG] * 6)
    terminated = False
    for _ in range(400):
        _, reward, terminated, _, info = scene.env.step(A_ATTACK)
        if terminated:
            break
        s.hp[0, KING_SLOT] = min(int(s.hp[0, KING_SLOT]), 1)  # (no help from a death save)
    assert terminated and s.outcome[0] == 2 and s.hp[0, KING_SLOT] <= 0
    assert info["events"] & EV_LOST and reward < 0
    assert all(s.hp[0, m] > 0 for m in range(4))  # everyone else stood


def test_run_4_the_run_goes_on_while_the_king_stands_alone(scene, rng):
    s = with_king(scene, rng)
    scene.put(1, *scene.hall_tile(1, junction=False))
    s.hp[0, :4] = 0  # every delver dead
    s.hp[0, KING_SLOT] = s.ceiling[0, KING_SLOT] = BIG
    scene.fight([GOBLIN], hps=[BIG])
    assert s.order[0, s.actor[0]] == KING_SLOT
    for _ in range(5):
        _, _, terminated, _, _ = scene.env.step(A_ATTACK)
        assert not terminated and s.outcome[0] == 0 and s.mode[0] == FIGHT
        assert s.order[0, s.actor[0]] == KING_SLOT  # he alone acts, every turn
    s.hp[0, KING_SLOT] = 5
    s.foe_kind[0] = -1
    s.mode[0] = EXPLORE
    scene.calm()
    _, _, terminated, _, _ = scene.act(A_WAIT)
    assert not terminated and s.outcome[0] == 0
