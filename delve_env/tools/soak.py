"""Delve reliability runs: random-agent soaks with invariants, determinism, generation checks.

The runner of the checks in delve_env/checks/ (invariants, outputs, incremental outputs,
determinism, generation), and its command (`delve soak`, `python -m delve_env.tools.soak`, or
`python quality/soak.py` from a checkout):

    delve soak                # CI sizes: a quick pass of everything (~1 min)
    delve soak --long         # long sizes: 10^7 legal + 10^6 strict steps per id,
                              # 10,000 generated dungeons per preset, determinism
                              # of 100 seeds x 10^4 steps at batch sizes 1/4/16/64
    delve soak --only soak,generation --ids Delve-v0
    delve soak digest --id Delve-v0 --seeds 0:20 --steps 10000 [--runner single]
                              # one JSON object of per-seed sha256 digests (used by
                              # the cross-process determinism tests)

Memory (is RSS flat over long runs?) is its own script in a checkout: `python
benchmarks/memory.py`.

Every check reports violations instead of stopping at the first, so a table of figures comes out
even when something breaks; the exit status is 1 if anything was found. The soak checks every
invariant (delve_env/checks/invariants.py) after every step of every slot, and every
`incremental_every` calls the observation record and mask kept from the dirty parts against a
full recompute (delve_env/checks/incremental.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

import delve_env
from delve_env.checks.determinism import (
    GOLDEN_STEPS,
    PRESETS,
    choose_legal,
    choose_legal_one,
    digest_single,
    digest_vector,
    golden_path,
    mismatches,
)
from delve_env.checks.generation import check_generation
from delve_env.checks.incremental import check_incremental, check_kept
from delve_env.checks.invariants import InvariantChecker, state_copy, state_diff
from delve_env.checks.outputs import (
    check_obs_batch,
    check_obs_single,
    check_state,
    check_vector_outputs,
)
from delve_env.engine.core.actions import NUM_ACTIONS
from delve_env.engine.core.tables import FIGHT, STATUE, STORE

from .args import Parser


# ------------------------------------------------------------------------------------------
# Soaks
# ------------------------------------------------------------------------------------------
@dataclass
class SoakReport:
    name: str
    env_id: str
    slots: int
    calls: int = 0
    steps: int = 0  # actions taken (autoreset steps not counted)
    episodes: int = 0
    terminated: int = 0
    truncated: int = 0
    refusals: int = 0  # masked actions refused with ValueError (strict mode)
    noops: int = 0  # masked actions taken as no-ops (noop mode)
    fights: int = 0  # steps taken in FIGHT mode
    recomputes: int = 0  # slots whose kept outputs were checked against a full recompute
    visits: dict = field(default_factory=dict)  # what random play reached (`VISITS`) -> count
    exceptions: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # invariant and API violations
    problem_count: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.exceptions and self.problem_count == 0

    def add_problem(self, msg: str, limit: int = 50) -> None:
        self.problem_count += 1
        if len(self.problems) < limit:
            self.problems.append(msg)

    def row(self) -> dict:
        return {
            "check": self.name,
            "id": self.env_id,
            "slots": self.slots,
            "steps": self.steps,
            "episodes": self.episodes,
            "term": self.terminated,
            "trunc": self.truncated,
            "fight steps": self.fights,
            "recomputed": self.recomputes,
            **{what: self.visits.get(what, 0) for what in VISITS},
            "refused": self.refusals,
            "noops": self.noops,
            "problems": self.problem_count,
            "exceptions": len(self.exceptions),
            "seconds": round(self.seconds, 1),
            "steps/s": int(self.steps / max(self.seconds, 1e-9)),
        }


# What the rooms' features and the economy saw in a soak: entries into a mode, or the rise of an
# episode statistic (issue 9: random play must reach every one of them).
VISITS = {
    "stores": lambda s: s.mode == STORE,
    "statues": lambda s: s.mode == STATUE,
    "chests": lambda s: s.stat_chests,
    "traps": lambda s: s.stat_traps,
    "bought": lambda s: s.stat_bought,
    "sold": lambda s: s.stat_sold,
    "bids": lambda s: s.stat_bids,
    "baths": lambda s: s.stat_baths,
    "bouts": lambda s: s.stat_bouts,
}


def count_visits(visits: dict, before: dict, s, same: np.ndarray) -> dict:
    """Add to `visits` what each slot still in its episode (`same`) reached since `before`
    (the `VISITS` values then); returns the values now."""
    now = {what: np.asarray(get(s)).astype(np.int64) for what, get in VISITS.items()}
    for what, value in now.items():
        visits[what] = visits.get(what, 0) + int(np.maximum(value - before[what], 0)[same].sum())
    return now


def soak_vector(
    env_id: str = "Delve-v0",
    slots: int = 100,
    calls: int = 10_000,
    seed: int = 0,
    agent: str = "legal",
    config: dict | None = None,
    hook: Callable | None = None,
    check_every: int = 1,
    incremental_every: int = 10,
) -> SoakReport:
    """Random play in the native vector env with the invariants checked after every call, and
    every `incremental_every` calls (0: never) every slot's kept observation and mask against
    a full recompute (checks/incremental.py).

    agent="legal": a uniformly random legal action per slot (mask respected).
    agent="strict": a uniformly random action of the whole space per slot with
    invalid_action="raise": whenever a live slot's action is masked the call must raise
    ValueError naming the first such slot, its action and mode, and leave state, observations
    and masks unchanged; then the masked picks are replaced by legal ones and the call is made.
    `hook(venv, call)` runs after every call, before the checks (negative controls plant
    defects there).
    """
    cfg = {**PRESETS[env_id], **(config or {})}
    if agent == "strict":
        cfg["invalid_action"] = "raise"
    rep = SoakReport(f"vector-{agent}", env_id, slots)
    t0 = time.perf_counter()
    venv = delve_env.make_vec(slots, **cfg)
    space = venv.single_observation_space
    checker = InvariantChecker()
    rng = np.random.default_rng(seed)
    try:
        obs, info = venv.reset(seed=seed)
        for msg in check_obs_batch(obs, slots, space):
            rep.add_problem(f"reset: {msg}")
        checker.check(venv.engine.state, np.ones(slots, bool))
        done = np.zeros(slots, bool)
        mask = info["action_mask"]
        seen = count_visits(
            rep.visits, {w: 0 for w in VISITS}, venv.engine.state, np.zeros(slots, bool)
        )
        for call in range(calls):
            if agent == "strict":
                actions = rng.integers(0, NUM_ACTIONS, size=slots)
                bad = np.flatnonzero(~done & ~mask[np.arange(slots), actions])
                if len(bad):
                    _strict_refusal(venv, actions, int(bad[0]), rep, call)
                    legal = choose_legal(mask, rng.integers(0, 2**63, size=slots, dtype=np.uint64))
                    actions[bad] = legal[bad]
            else:
                actions = choose_legal(mask, rng.integers(0, 2**63, size=slots, dtype=np.uint64))
            in_fight = (venv.engine.state.mode == FIGHT) & ~done
            obs, rew, term, trunc, info = venv.step(actions)
            rep.calls += 1
            rep.steps += int((~done).sum())
            rep.fights += int(in_fight.sum())
            if hook is not None:
                hook(venv, call)
            new_episode = done
            seen = count_visits(rep.visits, seen, venv.engine.state, ~done & ~(term | trunc))
            mask = info["action_mask"]
            if call % check_every == 0 or done.any() or term.any() or trunc.any():
                for msg in check_vector_outputs(obs, rew, term, trunc, info, done, space):
                    rep.add_problem(f"call {call}: {msg}")
            broken = checker.check(venv.engine.state, new_episode)
            for v in broken:
                rep.add_problem(f"call {call}: {v}")
            if not broken and call % check_every == 0:  # (a broken state reads outside its arrays)
                for msg in check_state(venv):
                    rep.add_problem(f"call {call}: {msg}")
            for msg in check_kept(venv.engine):
                rep.add_problem(f"call {call}: {msg}")
            if incremental_every and call % incremental_every == 0:
                rep.recomputes += slots
                for v in check_incremental(venv.engine):
                    rep.add_problem(f"call {call}: {v}")
            ended = term | trunc
            rep.terminated += int(term.sum())
            rep.truncated += int(trunc.sum())
            rep.episodes += int(ended.sum())
            done = ended
    except Exception as ex:  # a crash is a finding, reported with where it happened
        rep.exceptions.append(f"call {rep.calls}: {type(ex).__name__}: {ex}")
    rep.problem_count += checker.count - len(checker.violations)  # those past its limit
    rep.seconds = time.perf_counter() - t0
    return rep


def _strict_refusal(venv, actions, first_bad: int, rep: SoakReport, call: int) -> None:
    """A batch with a masked action must raise ValueError and change nothing."""
    saved = state_copy(venv.engine.state)
    obs_before = {k: v.copy() for k, v in venv.engine.obs.items()}
    masks_before = venv.engine.masks.copy()
    try:
        venv.step(actions)
    except ValueError as ex:
        rep.refusals += 1
        msg = str(ex)
        a = int(actions[first_bad])
        if f"env {first_bad}: action {a}" not in msg or "not legal in mode" not in msg:
            rep.add_problem(
                f"call {call}: refusal message {msg!r} does not name env {first_bad} and action {a}"
            )
    else:
        rep.add_problem(
            f"call {call}: masked action {int(actions[first_bad])} of env "
            f"{first_bad} was not refused"
        )
        return
    changed = state_diff(venv.engine.state, saved)
    if changed:
        rep.add_problem(f"call {call}: a refused step changed state fields {changed}")
    if not np.array_equal(venv.engine.masks, masks_before) or any(
        not np.array_equal(venv.engine.obs[k], obs_before[k]) for k in obs_before
    ):
        rep.add_problem(f"call {call}: a refused step changed observations or masks")


def soak_single(
    env_id: str = "Delve-v0",
    seeds: Iterable[int] = range(4),
    steps: int = 10_000,
    agent: str = "legal",
    config: dict | None = None,
) -> SoakReport:
    """Random play through `gymnasium.make` (the user's path) with API and invariant checks.

    agent="legal": random legal actions. agent="noop": random actions of the whole space with
    invalid_action="noop" (a masked one must change nothing but the step count, report
    `invalid_action`, keep the clock). agent="strict": the same with invalid_action="raise" (a
    masked one must raise ValueError naming the action and mode and change nothing).
    """
    import gymnasium as gym

    cfg = dict(config or {})
    if agent in ("noop", "strict"):
        cfg["invalid_action"] = "noop" if agent == "noop" else "raise"
    seeds = list(seeds)
    rep = SoakReport(f"single-{agent}", env_id, len(seeds))
    t0 = time.perf_counter()
    env = gym.make(env_id, **cfg)
    base = env.unwrapped
    space = env.observation_space
    checker = InvariantChecker()
    try:
        for seed in seeds:
            rng = np.random.default_rng(seed)
            obs, info = env.reset(seed=seed)
            _check_single_output(rep, obs, 0.0, False, False, info, space, "reset")
            checker.check(base.engine.state, np.ones(1, bool))
            for t in range(steps):
                mask = info["action_mask"]
                a = (
                    int(rng.integers(NUM_ACTIONS))
                    if agent != "legal"
                    else choose_legal_one(mask, int(rng.integers(2**63)))
                )
                legal = bool(mask[a])
                in_fight = base.engine.state.mode[0] == FIGHT
                saved = None if legal else state_copy(base.engine.state)
                if not legal and agent == "strict":
                    try:
                        env.step(a)
                    except ValueError as ex:
                        rep.refusals += 1
                        if f"action {a}" not in str(ex) or "not legal in mode" not in str(ex):
                            rep.add_problem(f"seed {seed} t {t}: refusal says {ex}")
                    else:
                        rep.add_problem(f"seed {seed} t {t}: masked action {a} not refused")
                    changed = state_diff(base.engine.state, saved)
                    if changed:
                        rep.add_problem(f"seed {seed} t {t}: refused step changed {changed}")
                    a = choose_legal_one(mask, int(rng.integers(2**63)))
                    legal, saved = True, None
                obs_before = {k: v.copy() for k, v in obs.items()} if not legal else None
                obs, rew, term, trunc, info = env.step(a)
                rep.calls += 1
                rep.steps += 1
                rep.fights += int(in_fight)
                _check_single_output(rep, obs, rew, term, trunc, info, space, f"seed {seed} t {t}")
                if info.get("invalid_action") is not (not legal):
                    rep.add_problem(
                        f"seed {seed} t {t}: invalid_action "
                        f"{info.get('invalid_action')!r} for legal={legal}"
                    )
                if not legal:  # noop mode: only the step counter (and the step's outputs) move
                    rep.noops += 1
                    changed = state_diff(
                        base.engine.state, saved, ignore=("steps", "events", "reward")
                    )
                    if changed:
                        rep.add_problem(f"seed {seed} t {t}: a masked no-op changed {changed}")
                    if rew != 0.0 and not (term or trunc):
                        rep.add_problem(f"seed {seed} t {t}: a masked no-op was rewarded {rew}")
                    if not (term or trunc) and any(
                        not np.array_equal(obs[k], obs_before[k]) for k in obs
                    ):
                        rep.add_problem(f"seed {seed} t {t}: a masked no-op changed the obs")
                for v in checker.check(base.engine.state):
                    rep.add_problem(f"seed {seed} t {t}: {v}")
                if term or trunc:
                    rep.episodes += 1
                    rep.terminated += int(term)
                    rep.truncated += int(trunc)
                    if "episode_stats" not in info:
                        rep.add_problem(f"seed {seed} t {t}: no episode_stats at the end")
                    obs, info = env.reset()
                    _check_single_output(rep, obs, 0.0, False, False, info, space, "autoreset")
                    checker.check(base.engine.state, np.ones(1, bool))
    except Exception as ex:
        rep.exceptions.append(f"step {rep.calls}: {type(ex).__name__}: {ex}")
    env.close()
    rep.seconds = time.perf_counter() - t0
    return rep


def _check_single_output(rep, obs, rew, term, trunc, info, space, where) -> None:
    for msg in check_obs_single(obs, space):
        rep.add_problem(f"{where}: {msg}")
    if type(rew) is not float or not np.isfinite(rew):
        rep.add_problem(f"{where}: reward {rew!r} is not a finite Python float")
    if type(term) is not bool or type(trunc) is not bool:
        rep.add_problem(f"{where}: terminated/truncated {term!r}/{trunc!r} are not Python bools")
    mask = info.get("action_mask")
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (NUM_ACTIONS,):
        rep.add_problem(f"{where}: action_mask {type(mask)} {getattr(mask, 'dtype', None)}")
    elif not mask.any():
        rep.add_problem(f"{where}: empty action mask")


# ------------------------------------------------------------------------------------------
# Command line
# ------------------------------------------------------------------------------------------
def print_table(rows: list[dict]) -> None:
    if not rows:
        return
    cols = list(dict.fromkeys(k for r in rows for k in r))
    width = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in cols}
    print("  ".join(c.rjust(width[c]) for c in cols))
    for r in rows:
        print("  ".join(str(r.get(c, "")).rjust(width[c]) for c in cols))
    sys.stdout.flush()


def _progress(row: dict) -> None:
    print("  done: " + ", ".join(f"{k} {v}" for k, v in row.items()), flush=True)


def _digest_cli(argv: list[str], prog: str = "delve soak digest") -> int:
    ap = Parser(prog=prog)
    ap.add_argument("--id", default="Delve-v0")
    ap.add_argument("--seeds", default="0:20", help="start:stop")
    ap.add_argument("--steps", type=int, default=GOLDEN_STEPS)
    ap.add_argument("--runner", choices=("vector", "single"), default="vector")
    ap.add_argument("--batch", type=int, default=None)
    ap.add_argument("--config", default="{}", help="JSON config overrides")
    ap.add_argument(
        "--perturb",
        default=None,
        metavar="SEED:CALL",
        help="negative control: five more gold for that seed at that call",
    )
    a = ap.parse_args(argv)
    start, stop = (int(x) for x in a.seeds.split(":"))
    cfg = json.loads(a.config)
    hook = None
    if a.perturb:
        p_seed, p_call = (int(x) for x in a.perturb.split(":"))
        batch = a.batch or (stop - start)

        def hook(venv, call):
            if call == p_call:
                venv.engine.state.gold[(p_seed - start) % batch] += 5  # one more unit of the obs

        if a.runner != "vector" or (p_seed - start) // batch != 0:
            raise SystemExit("--perturb needs the vector runner and a seed of the first batch")
    if a.runner == "vector":
        d = digest_vector(a.id, range(start, stop), a.steps, a.batch, cfg, hook=hook)
    else:
        d = digest_single(a.id, range(start, stop), a.steps, cfg)
    print(
        json.dumps(
            {
                "digests": d,
                "hashseed": os.environ.get("PYTHONHASHSEED"),
                "jit_disabled": os.environ.get("NUMBA_DISABLE_JIT", "0"),
            }
        )
    )
    return 0


def run_determinism(ids: list[str], seeds: range, steps: int) -> tuple[list[dict], list[str]]:
    """Vector digests of `seeds` at batch sizes 64, 16, 4, 1 (and the single env), compared
    with each other and, where they cover the golden run, with the golden files."""
    rows, problems = [], []
    for env_id in ids:
        t0 = time.perf_counter()
        ref = digest_vector(env_id, seeds, steps, batch=64)
        for b in (16, 4, 1):
            got = digest_vector(env_id, seeds, steps, batch=b)
            bad = mismatches(got, ref)
            if bad:
                problems.append(f"{env_id}: batch {b} differs from batch 64 on seeds {bad[:10]}")
        single = digest_single(env_id, seeds, steps)
        bad = mismatches(single, ref)
        if bad:
            problems.append(f"{env_id}: single env differs from batch 64 on seeds {bad[:10]}")
        gp = golden_path(env_id)
        golden_ok = "-"
        if gp.exists() and steps == GOLDEN_STEPS:
            g = json.loads(gp.read_text())
            sub = {k: v for k, v in ref.items() if k in g["digests"]}
            bad = mismatches(sub, {k: v for k, v in g["digests"].items() if k in sub})
            golden_ok = "yes" if not bad else "NO"
            if bad:
                problems.append(f"{env_id}: differs from {gp.name} on seeds {bad[:10]}")
        rows.append(
            {
                "check": "determinism",
                "id": env_id,
                "seeds": len(seeds),
                "steps": steps,
                "batches": "64/16/4/1+single",
                "golden": golden_ok,
                "problems": sum(env_id in p for p in problems),
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
    return rows, problems


PARTS = ("soak", "single", "generation", "determinism")  # what `--only` may name


def main(argv: list[str] | None = None, prog: str = "delve soak") -> int:
    """The command: every part at CI sizes (or `--long`), a table, the problems; exit status 1
    if any. `digest ...` prints one run's digests instead (`_digest_cli`)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "digest":
        return _digest_cli(argv[1:], prog=f"{prog} digest")
    ap = Parser(
        prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--long", action="store_true", help="the long sizes (about an hour on 2 cores)")
    ap.add_argument("--ids", default=",".join(PRESETS), help="comma-separated env ids")
    ap.add_argument(
        "--only",
        default=",".join(PARTS),
        help="comma-separated parts to run (memory is benchmarks/memory.py in a checkout)",
    )
    a = ap.parse_args(argv)
    ids = a.ids.split(",")
    unknown = [i for i in ids if i not in PRESETS]
    if unknown:
        ap.error(f"--ids: unknown ids {unknown}; choose from {', '.join(PRESETS)}")
    parts = set(a.only.split(","))
    if parts - set(PARTS):
        ap.error(f"--only: unknown parts {sorted(parts - set(PARTS))}; choose from {PARTS}")
    if a.long:
        legal = (100, 100_000)  # 10^7 steps per id
        strict = (100, 10_000)  # 10^6 steps per id
        single = (range(4), 25_000)  # 10^5 steps per id and agent through gym.make
        gen_seeds = range(10_000)
        det = (range(100), 10_000)
    else:
        legal = (100, 10_000)
        strict = (100, 2_000)
        single = (range(2), 5_000)
        gen_seeds = range(300)
        det = (range(20), 2_000)
    rows: list[dict] = []
    problems: list[str] = []
    print(
        f"delve reliability {'long' if a.long else 'CI'} run, ids {ids}, "
        f"{os.cpu_count()} CPUs, python {sys.version.split()[0]}\n",
        flush=True,
    )
    for env_id in ids:
        reports = []
        if "soak" in parts:
            reports.append(soak_vector(env_id, *legal, agent="legal"))
            reports.append(soak_vector(env_id, *strict, agent="strict"))
        if "single" in parts:
            for agent in ("legal", "noop", "strict"):
                reports.append(soak_single(env_id, single[0], single[1], agent=agent))
        for r in reports:
            rows.append(r.row())
            problems += [f"{r.name} {env_id}: {p}" for p in r.exceptions + r.problems]
            _progress(r.row())
        if "generation" in parts:
            g = check_generation(env_id, gen_seeds)
            rows.append(g.row())
            problems += [f"generation {env_id}: {p}" for p in g.problems]
            _progress(g.row())
    if "determinism" in parts:
        drows, dprob = run_determinism(ids, *det)
        rows += drows
        problems += dprob
    print("\nsummary")
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault(tuple(r), []).append(r)
    for group in groups.values():
        print()
        print_table(group)
    print(f"\n{len(problems)} problems")
    for p in problems[:100]:
        print(" ", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
