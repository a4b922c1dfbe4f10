"""What the Gymnasium layer hands out, checked: observations inside the space with their exact
dtypes and shapes, and a vector step's rewards, flags, masks and episode stats."""

from __future__ import annotations

import numpy as np

from delve_env.engine.core.actions import NUM_ACTIONS
from delve_env.spaces import observation_space


def check_obs_batch(obs: dict, n: int, space=None) -> list[str]:
    """Every observation of a batch inside the single space, with the exact dtype and shape."""
    space = space or observation_space()
    errors = []
    if set(obs) != set(space.spaces):
        return [f"observation keys {sorted(obs)} != {sorted(space.spaces)}"]
    for key, box in space.spaces.items():
        a = obs[key]
        if not isinstance(a, np.ndarray) or a.dtype != box.dtype or a.shape != (n, *box.shape):
            errors.append(
                f"{key}: {type(a).__name__} {getattr(a, 'dtype', None)} "
                f"{getattr(a, 'shape', None)} != {box.dtype} {(n, *box.shape)}"
            )
            continue
        if a.dtype.kind == "f" and not np.isfinite(a).all():
            errors.append(
                f"{key}: not finite in slots "
                f"{np.flatnonzero(~np.isfinite(a).reshape(n, -1).all(1))}"
            )
        low_bad = (a < box.low).reshape(n, -1).any(1)
        high_bad = (a > box.high).reshape(n, -1).any(1)
        if low_bad.any() or high_bad.any():
            slots = np.flatnonzero(low_bad | high_bad)
            errors.append(
                f"{key}: outside [{box.low.min()}, {box.high.max()}] in slots {slots[:8]}"
                f" (min {a.min()}, max {a.max()})"
            )
    return errors


def check_obs_single(obs: dict, space=None) -> list[str]:
    """One observation: inside the space and with the exact dtype of each box."""
    space = space or observation_space()
    errors = (
        check_obs_batch({k: v[None] for k, v in obs.items()}, 1, space)
        if isinstance(obs, dict)
        else [f"observation is a {type(obs).__name__}"]
    )
    return errors


def check_vector_outputs(obs, rew, term, trunc, info, done, space=None) -> list[str]:
    """One vector step's outputs: observations in the space with exact dtypes, finite float32
    rewards, bool flags, exact-shape non-empty bool masks, no legal action called invalid, an
    autoreset step a fresh start, episode stats at every end. `done`: the slots that ended on
    the previous call (so autoreset on this one)."""
    n = len(done)
    out = check_obs_batch(obs, n, space)
    if not isinstance(rew, np.ndarray) or rew.dtype != np.float32 or rew.shape != (n,):
        out.append(f"rewards are {type(rew).__name__} {getattr(rew, 'dtype', None)}")
    elif not np.isfinite(rew).all():
        out.append(f"rewards not finite in slots {np.flatnonzero(~np.isfinite(rew))}")
    for name, flag in (("terminated", term), ("truncated", trunc)):
        if not isinstance(flag, np.ndarray) or flag.dtype != np.bool_ or flag.shape != (n,):
            out.append(f"{name} is {type(flag).__name__} {getattr(flag, 'dtype', None)}")
    mask = info.get("action_mask")
    if not isinstance(mask, np.ndarray) or mask.shape != (n, NUM_ACTIONS) or mask.dtype != bool:
        out.append(f"mask is {getattr(mask, 'dtype', None)} {getattr(mask, 'shape', None)}")
    elif not mask.any(axis=1).all():
        out.append(f"empty mask in slots {np.flatnonzero(~mask.any(1))}")
    if np.asarray(info.get("invalid_action", np.zeros(n, bool)))[~done].any():
        out.append("a legal action was reported invalid")
    if (term & trunc).any():
        out.append(f"terminated and truncated at once in slots {np.flatnonzero(term & trunc)}")
    if (done & (term | trunc | (rew != 0))).any():
        out.append("an autoreset step was not a fresh start")
    ended = term | trunc
    if ended.any():
        stats, has = info.get("episode_stats"), info.get("_episode_stats")
        if stats is None or has is None or not np.array_equal(has, ended):
            out.append("no episode_stats for the slots that ended")
        elif not all(isinstance(stats[e], dict) for e in np.flatnonzero(ended)):
            out.append("episode_stats entries are not dicts")
    return out


def check_state(venv) -> list[str]:
    """The privileged state (`venv.state()`) of every slot: inside its space, its observation
    part the record the env hands out, the party's tile a walkable one the party has seen, a
    room the party stands in 0 paces away; and asking for it changes nothing."""
    from delve_env.engine.outputs import privileged as pv

    eng = venv.engine
    before = [a.tobytes() for a in eng.state] + [eng.obs_record.tobytes(), eng.masks.tobytes()]
    states = venv.state()
    after = [a.tobytes() for a in eng.state] + [eng.obs_record.tobytes(), eng.masks.tobytes()]
    errors = [] if before == after else ["asking for the state changed the engine"]
    high = venv.single_state_space.high
    s = eng.state
    for e in range(venv.num_envs):
        row = states[e]
        if (row > high).any():
            errors.append(f"slot {e}: state bytes {np.flatnonzero(row > high)[:5]} over their high")
        if row[: eng.obs_record.shape[1]].tobytes() != eng.obs_record[e].tobytes():
            errors.append(f"slot {e}: the state's observation is not the record handed out")
        f, x, y = int(s.floor[e]), int(s.x[e]), int(s.y[e])
        if f == 0:
            continue  # the courtyard: no floor to walk
        tile = int(row[pv.FLOOR_AT + y * pv.WIDTH + x])
        if tile >= pv.UNSEEN or tile - 1 not in (1, 2, 3, 5, 6):  # hall .. stair up, not rock
            errors.append(f"slot {e}: the party stands on state tile code {tile}")
        r = int(s.room_of[e, f, y, x])
        if r >= 0 and row[pv.ROOMS_AT + r * pv.ROOM_ROW + pv.ROOM_PACES] != 0:
            errors.append(f"slot {e}: the party's own room {r} is not 0 paces away")
    return errors
