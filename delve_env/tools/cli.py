"""The `delve` command line (also `python -m delve_env`).

delve play                     a person plays in the terminal (full-screen UI)
delve record / delve replay    save a game as a replay file / re-simulate and check one
delve playtest                 difficulty report over many seeds of each preset
delve tune                     the value of a rule number that gives a target win rate
delve watch                    the best shipped agent plays a whole game, live
delve bench                    throughput table (steps per second)
delve soak                     reliability: random-agent soaks with every invariant, determinism
                               digests, generation checks (delve_env/tools/soak.py)
delve train TASK / delve eval  MaskablePPO training and evaluation (training/train_ppo.py,
                               training/evaluate.py)
delve dataset                  a Minari dataset of a player's games (delve_env/tools/dataset.py)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..engine.core.actions import (
    A_LOOT,
    A_MOVE,
    A_RUN,
    A_SEARCH,
    A_STAIRS,
    A_WAIT,
    ACTION_NAMES,
)
from ..engine.core.params import DIFFICULTIES
from .args import Parser
from .files import writable_file, writable_folder, write_whole

# Short keys for `play`: w/a/s/d move, then one letter per common action.
ACTION_KEYS = {
    "w": A_MOVE + 0,  # north
    "d": A_MOVE + 1,  # east
    "s": A_MOVE + 2,  # south
    "a": A_MOVE + 3,  # west
    "z": A_WAIT,
    "f": A_SEARCH,
    "t": A_STAIRS,
    "l": A_LOOT,
    "r": A_RUN,
}
KEY_OF = {a: k for k, a in ACTION_KEYS.items()}
REPORT_KEYS = {"m": "member", "u": "quest", "k": "bestiary", "e": "effects"}  # VIEW-1: no time

TRAINING_COMMANDS = ("train", "eval")
PASSED_ON = (*TRAINING_COMMANDS, "soak", "dataset")  # everything after it is the command's own


# --- helpers ---------------------------------------------------------------------------------


class UsageError(Exception):
    """A bad command-line value: printed, exit status 2."""


def _make_env(args: argparse.Namespace):
    from ..env import DelveEnv

    config = {"render_mode": "ansi"}
    if args.difficulty is not None:
        config["difficulty"] = args.difficulty
    if args.depth is not None:
        config["depth"] = args.depth
    try:
        return DelveEnv(**config)
    except ValueError as err:  # the config names the key and what is allowed
        raise UsageError(str(err)) from None


def _format_stats(stats: dict) -> str:
    lines = ["Episode stats:"]
    for key, value in stats.items():
        if isinstance(value, list):
            value = ", ".join(value) or "-"
        lines.append(f"  {key:<15} {value}")
    return "\n".join(lines)


def _legal_lines(mask, s=None) -> list[str]:
    """One line per legal action; with the state `s`, selecting an item names the item."""
    from ..engine.core.actions import A_GIVE, A_SELECT
    from ..engine.core.tables import NUM_ITEM_SLOTS
    from ..ui.text import item_name

    lines = []
    for a in range(len(mask)):
        if mask[a]:
            key = f"[{KEY_OF[a]}]" if a in KEY_OF else "   "
            what = ""
            if s is not None and A_SELECT <= a < A_GIVE:
                m, slot = divmod(a - A_SELECT, NUM_ITEM_SLOTS)
                what = f" ({item_name(s, 0, s.item[0, m, slot])})"
            lines.append(f"  {a:>3} {key} {ACTION_NAMES[a]}{what}")
    return lines


# --- play ------------------------------------------------------------------------------------


PLAY_HELP = (
    "Type an action's number, or a key: w/a/s/d move, z wait, f search, t stairs, l loot, "
    "r run away; reports (no time passes): m member status, u quest status, k bestiary, "
    "e effects; h help, q quit. On a terminal `delve play` is full-screen instead (keys act "
    "at once: arrows move, Enter lists every legal action, ? help); --lines keeps this prompt."
)


def cmd_play(args: argparse.Namespace) -> int:
    """A person plays one episode: full-screen on a terminal (delve_env/ui/play.py), else (or
    with --lines) a line prompt that reads actions from stdin, which may be a pipe."""
    env = _make_env(args)
    if sys.stdin.isatty() and sys.stdout.isatty() and not args.lines:
        from ..ui.play import run

        return run(env, args.seed)
    _, info = env.reset(seed=args.seed)
    print(PLAY_HELP)
    total, steps, show = 0.0, 0, True
    while True:
        mask = info["action_mask"]
        if show:
            print()
            print(env.render_text())
            print("Legal actions:")
            print("\n".join(_legal_lines(mask, env.unwrapped.engine.state)))
        show = True
        print("action> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:  # end of input
            print()
            print("(end of input)")
            return 0
        cmd = line.strip().lower()
        if not sys.stdin.isatty():  # piped input: echo it so the transcript reads well
            print(cmd)
        if cmd in ("q", "quit", "exit"):
            print(f"Quit after {steps} steps, total reward {total:g}.")
            return 0
        if cmd in ("h", "?", "help", ""):
            print(PLAY_HELP)
            show = cmd == ""
            continue
        if cmd in REPORT_KEYS:
            print(env.report(REPORT_KEYS[cmd]))
            show = False
            continue
        if cmd in ACTION_KEYS:
            action = ACTION_KEYS[cmd]
        elif cmd.isdigit():
            action = int(cmd)
        else:
            print(f"Unknown input {cmd!r}. {PLAY_HELP}")
            show = False
            continue
        if not (0 <= action < len(mask)) or not mask[action]:
            name = ACTION_NAMES[action] if 0 <= action < len(mask) else "out of range"
            print(f"Action {action} ({name}) is not legal now.")
            show = False
            continue
        _, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        print(f"> {ACTION_NAMES[action]}" + (f"  (reward {reward:+g})" if reward else ""))
        if terminated or truncated:
            print()
            print(env.render_text())
            outcome = "won" if info["episode_stats"]["won"] else "over"
            print(f"The game is {outcome} after {steps} steps, total reward {total:g}.")
            print(_format_stats(info["episode_stats"]))
            return 0


# --- watch -----------------------------------------------------------------------------------


AGENTS = ("scripted", "fog", "trained", "random", "model:PATH.zip", "sampled:PATH.zip")


def agent_spec(text: str) -> str:
    """An `--agent` of watch and record: a player of `delve playtest`."""
    if text in AGENTS[:4] or (text.startswith(("model:", "sampled:")) and text.split(":", 1)[1]):
        return text
    raise argparse.ArgumentTypeError(f"{text!r}: one of {', '.join(AGENTS)}")


def make_policy(name: str, seed: int | None, env=None) -> tuple[str, Callable]:
    """(name actually used, policy(env, info) -> action) for an `--agent` (`AGENTS`). The
    scripted agent is imported lazily; if it cannot be imported the random-legal agent stands
    in (with a note). The trained agent is the policy shipped for `env`'s difficulty
    (`policy.shipped`); a model file's policy plays its likeliest actions (`model:`) or
    samples them (`sampled:`) from the seed's stream. A model file that is not a Delve policy
    raises ValueError."""
    if name == "trained":
        from ..policy import Agent, shipped

        return "trained", Agent(shipped(env.unwrapped.config.difficulty), seed)
    if name.startswith(("model:", "sampled:")):
        from ..policy import Agent, PolicyNet, is_policy_file

        kind, path = name.split(":", 1)
        if not is_policy_file(path):
            raise ValueError(f"--agent {name}: {path} is not a Delve policy file (a model.zip "
                             "of delve train, or a shipped policy)")  # fmt: skip
        return name, Agent(PolicyNet.load(path), seed, sampled=kind == "sampled")
    if name == "fog":
        from agents.fog import FogExpert

        fog = FogExpert()
        return "fog", lambda env, info: int(fog.act(env))
    if name == "scripted":
        try:
            from agents.scripted import ScriptedAgent

            agent = ScriptedAgent()
        except Exception as err:  # noqa: BLE001 - any broken import means: fall back
            print(f"scripted agent unavailable ({err!r}); using random", file=sys.stderr)
        else:
            return "scripted", lambda env, info: int(agent.act(env))
    from agents.random_legal import RandomLegalAgent

    rand = RandomLegalAgent(seed)
    return "random", lambda env, info: int(rand.act(info["action_mask"]))


def cmd_watch(args: argparse.Namespace) -> int:
    """A policy plays one whole game (or `--steps` steps), shown live (delve_env/ui/watch.py);
    with `--gif FILE` the `rgb_array` frames are recorded into an animated GIF instead."""
    from ..ui.watch import play_through, watch

    image_module = _gif_writer() if args.gif else None
    env = _make_env(args)
    try:
        used, policy = make_policy(args.agent, args.seed, env)
    except ValueError as err:
        raise UsageError(str(err)) from None
    if args.gif:
        frames = []
        step, total, done, info, truncated = play_through(
            env, policy, used, args.seed, args.steps, lambda _: frames.append(_rgb_frame(env))
        )
        fps = args.fps or 8.0
        _write_gif(image_module, frames, args.gif, fps)
        print(f"wrote {len(frames)} frames ({frames[0].shape[1]} x {frames[0].shape[0]}, "
              f"{fps:g} fps) of the {used} agent, seed {args.seed}, to {args.gif}")  # fmt: skip
    else:
        step, total, done, info, truncated = watch(
            env, policy, used, args.seed, args.steps, args.fps or 12.0
        )
    if done:
        stats = info["episode_stats"]
        print(f"The {used} agent {'won' if stats['won'] else 'lost'} seed {args.seed} in "
              f"{step} steps{' (the step cap)' if truncated else ''}, "
              f"total reward {total:g}.")  # fmt: skip
    else:
        from ..spaces import episode_stats

        stats = episode_stats(env.unwrapped.engine.state, 0)
        print(f"Stopped after {step} steps (the game goes on), total reward {total:g}.")
    print(_format_stats(stats))
    return 0


def _gif_writer():
    """Pillow's Image module, or a UsageError that says how to get it."""
    try:
        from PIL import Image
    except ImportError:
        raise UsageError(
            "--gif needs Pillow: pip install pillow (it comes with the train extra)"
        ) from None
    return Image


def _rgb_frame(env):
    """The env's `rgb_array` picture now (whatever its render mode)."""
    from ..ui.picture import render_rgb

    return render_rgb(env.unwrapped.engine.state, env.unwrapped.engine.params, 0)


def _write_gif(image_module, frames, path, fps: float) -> None:
    """An animated GIF of the frames at `fps`, looping, the last frame held two seconds."""
    images = [image_module.fromarray(f) for f in frames]
    step_ms = max(20, int(round(1000 / fps)))
    durations = [step_ms] * len(images)
    durations[-1] = max(step_ms, 2000)
    try:
        images[0].save(path, save_all=True, append_images=images[1:], duration=durations,
                       loop=0, optimize=False)  # fmt: skip
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err}") from None


def _positive_float(text: str) -> float:
    """A `--fps` value: a number above zero."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0: {text!r}")
    return value


# --- record, replay --------------------------------------------------------------------------


def cmd_record(args: argparse.Namespace) -> int:
    """A player plays one episode; its replay (config, seed, actions, state hashes) is saved.
    The output is checked first, and written whole or not at all."""
    from ..env import DelveEnv
    from . import replay

    config = {}
    if args.difficulty is not None:
        config["difficulty"] = args.difficulty
    if args.depth is not None:
        config["depth"] = args.depth
    try:
        writable_file(args.out)
        used, policy = make_policy(args.agent, args.seed, DelveEnv(**config))
        rec = replay.record(config, args.seed, policy, args.steps)
        replay.save(rec, args.out)
    except (OSError, ValueError) as err:
        raise UsageError(str(err)) from None
    print(f"recorded {len(rec['actions'])} steps of the {used} agent (seed {args.seed}) "
          f"to {args.out}")  # fmt: skip
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Re-simulate a replay file, checking the state hash after every step; exit status 1 at
    the first step that differs. With `--html OUT`, write the game's replay page."""
    from . import replay

    try:
        data = replay.load(args.file)
        if args.html is not None:
            writable_file(args.html, "--html")
    except OSError as err:
        raise UsageError(f"{args.file}: {err.strerror or err}") from None
    except ValueError as err:
        raise UsageError(str(err)) from None
    if args.html is not None:
        from ..ui.page import game_page

        try:
            page = game_page(data)
        except ValueError as err:  # the game differs from this engine's
            print(f"delve replay: {err}", file=sys.stderr)
            return 1
        write_whole(args.html, page)
        print(f"wrote the replay page of {len(data['actions'])} steps to {args.html}")
        return 0

    def show(env, k, action):
        print(f"=== step {k}: {ACTION_NAMES[action]} ===")
        print(env.render_text())
        if args.delay > 0:
            time.sleep(args.delay)

    verdict = replay.replay(data, show if args.show else None)
    print(verdict, file=sys.stdout if verdict.ok else sys.stderr)
    return 0 if verdict.ok else 1


# --- bench, train, eval ----------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import run

    return run(args)


def cmd_playtest(args: argparse.Namespace) -> int:
    from .playtest import run

    try:
        return run(args)
    except ValueError as err:  # a bad preset file, override or policy
        raise UsageError(str(err)) from err


def cmd_serve(args: argparse.Namespace) -> int:
    """A person plays a preset or a variant in the browser (delve_env/ui/serve.py)."""
    from ..config import Config
    from ..ui.serve import serve
    from .playtest.variants import load_preset, parse_overrides, parse_variant

    try:
        config = {"difficulty": args.preset, **parse_overrides(args.set)}
        if args.variant and args.preset_file:
            raise ValueError("--variant and --preset-file: play one variant at a time")
        if args.variant:
            config.update(parse_variant(args.variant)[1])
        if args.preset_file:
            config = {**parse_overrides(args.set), **load_preset(args.preset_file).config}
        Config.from_kwargs(**config)
        out = writable_folder(args.out)
        server = serve(config, out, args.host, args.port)
    except OSError as err:
        raise UsageError(f"--host {args.host} --port {args.port}: {err.strerror or err}") from None
    except ValueError as err:
        raise UsageError(str(err)) from None
    host, port = server.server_address[:2]
    print(f"Delve at http://{host}:{port}/ (?seed=N for a seed); each game is kept in {out}/; "
          "Ctrl-C stops", flush=True)  # fmt: skip
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0


def cmd_tune(args: argparse.Namespace) -> int:
    from .playtest.tune import run

    try:
        return run(args)
    except ValueError as err:  # a bad key, range, target, budget, player or floor
        raise UsageError(str(err)) from None


def _training_main(command: str) -> Callable[..., int]:
    """The `main` of the training script behind `delve train` / `delve eval` (the repository's
    training/ package, installed beside delve_env; it needs the `train` extra)."""
    if command == "train":
        from training.train_ppo import main
    else:
        from training.evaluate import main
    return main


def cmd_training(args: argparse.Namespace) -> int:
    """Run the training script's `main(rest)` in this process (`python -m training.train_ppo`
    and `python -m training.evaluate` do the same)."""
    try:
        main = _training_main(args.command)
    except ModuleNotFoundError as err:
        if err.name != "training" and not (err.name or "").startswith("training."):
            raise  # a missing dependency: say which
        print(
            f"delve {args.command}: the training package is not installed; it lives in the "
            "repository's training/ folder (clone the repository and install it with "
            "`pip install -e .[train]`).",
            file=sys.stderr,
        )
        return 2
    try:
        return main(args.rest, prog=f"delve {args.command}")
    except SystemExit as done:  # argparse: 0 after --help, 2 after a usage error
        code = done.code
        return code if isinstance(code, int) else int(code is not None)


def cmd_soak(args: argparse.Namespace) -> int:
    """The reliability runs' own command line (`python -m delve_env.tools.soak` does the same),
    or the datasets' (`delve dataset`)."""
    if args.command == "dataset":
        from .dataset import main
    else:
        from .soak import main

    try:
        return main(args.rest, prog=f"delve {args.command}")
    except SystemExit as done:  # argparse: 0 after --help, 2 after a usage error
        code = done.code
        return code if isinstance(code, int) else int(code is not None)


# --- parser ----------------------------------------------------------------------------------


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=_non_negative_int, default=0, help="episode seed (default 0)")
    p.add_argument("--difficulty", choices=DIFFICULTIES, default=None, help="default: normal")
    p.add_argument("--depth", type=int, default=None, help="floors (default: the difficulty's)")


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0: {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    from .bench import add_arguments as add_bench_arguments
    from .playtest import add_arguments as add_playtest_arguments
    from .playtest.tune import add_arguments as add_tune_arguments

    parser = Parser(
        prog="delve", description="Delve: a party-based dungeon crawl as an RL environment."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play in the terminal", description=PLAY_HELP)
    _add_game_options(play)
    play.add_argument("--lines", action="store_true",
                      help="a line prompt instead of the full-screen UI (also when piped)")  # fmt: skip
    play.set_defaults(func=cmd_play)

    watch = sub.add_parser("watch", help="watch a policy play, rendered")
    watch.add_argument("--agent", type=agent_spec, default="scripted", metavar="AGENT",
                       help="scripted: the expert; fog: the expert on the party's knowledge; "
                       "trained: the policy shipped for the difficulty (delve_env/policies/); "
                       "random: random-legal; model:PATH.zip / sampled:PATH.zip: a policy "
                       "file's likeliest or sampled actions")  # fmt: skip
    _add_game_options(watch)
    watch.add_argument("--steps", type=_non_negative_int, default=None,
                       help="stop after this many steps (default: play the whole game)")  # fmt: skip
    watch.add_argument("--fps", type=_positive_float, default=None,
                       help="frames per second on a terminal (default 12) or in the GIF "
                       "(default 8); piped output prints every frame at once")  # fmt: skip
    watch.add_argument("--gif", metavar="FILE", default=None,
                       help="record the rgb_array frames into an animated GIF (needs Pillow) "
                       "instead of showing them")  # fmt: skip
    watch.set_defaults(func=cmd_watch)

    bench = sub.add_parser("bench", help="throughput table: steps per second")
    add_bench_arguments(bench)
    bench.set_defaults(func=cmd_bench)

    rec = sub.add_parser("record", help="a policy plays; save its replay file")
    rec.add_argument("--out", required=True, help="the replay file to write (JSON)")
    rec.add_argument("--agent", type=agent_spec, default="scripted", metavar="AGENT",
                     help=f"who plays: {', '.join(AGENTS)} (default scripted)")  # fmt: skip
    _add_game_options(rec)
    rec.add_argument("--steps", type=_non_negative_int, default=None, help="most steps")
    rec.set_defaults(func=cmd_record)

    rep = sub.add_parser("replay", help="re-simulate a replay file, checking every step")
    rep.add_argument("file", help="a file written by `delve record`")
    rep.add_argument("--show", action="store_true", help="print every frame")
    rep.add_argument("--delay", type=float, default=0.0, help="seconds between frames")
    rep.add_argument("--html", metavar="OUT.html", default=None,
                     help="write the game's replay page: one file that opens from disk, "
                          "every step drawn as rgb_array draws it")  # fmt: skip
    rep.set_defaults(func=cmd_replay)

    playtest = sub.add_parser(
        "playtest",
        help="difficulty report: players play many seeds of each preset and variant",
        description="Win and book-home rates with 95% intervals, deepest floor, losses by "
        "cause, the hazard per floor, DIFF-1, and each variant against its base on the "
        "same seeds (delve_env/tools/playtest/).",
    )
    add_playtest_arguments(playtest)
    playtest.set_defaults(func=cmd_playtest)

    srv = sub.add_parser("serve", help="play in the browser, each game kept as a replay")
    srv.add_argument("--preset", choices=DIFFICULTIES, default="normal", help="default normal")
    srv.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                     help="a config override (e.g. guard_chance=0.9)")  # fmt: skip
    srv.add_argument("--variant", default=None, metavar="NAME:KEY=V,KEY=V",
                     help="a variant of the preset, as delve playtest takes it")  # fmt: skip
    srv.add_argument("--preset-file", default=None, metavar="FILE.json",
                     help="a custom preset, as delve playtest takes it")  # fmt: skip
    srv.add_argument("--out", type=Path, default=Path("runs/serve"),
                     help="where each game's replay is kept (default runs/serve)")  # fmt: skip
    srv.add_argument("--host", default="127.0.0.1",
                     help="the address to listen on (default 127.0.0.1: this machine only)")  # fmt: skip
    srv.add_argument("--port", type=_non_negative_int, default=8000,
                     help="default 8000; 0 for any free port")  # fmt: skip
    srv.set_defaults(func=cmd_serve)

    tune = sub.add_parser(
        "tune",
        help="the value of one rule number at which a player's win rate crosses a target",
        description="Probes values of the key on the same seeds, each chosen from what was "
        "played, until the crossing's 95%% interval is within the tolerance; then confirms the "
        "value on fresh seeds (delve_env/tools/playtest/tune.py).",
    )
    add_tune_arguments(tune)
    tune.set_defaults(func=cmd_tune)

    for name, helptext in (
        ("train", "train a policy on a task (training/train_ppo.py)"),
        ("eval", "evaluate a model or a baseline agent (training/evaluate.py)"),
    ):
        p = sub.add_parser(name, help=helptext, add_help=False, description=helptext)
        p.add_argument("rest", nargs=argparse.REMAINDER, help="arguments for the script")
        p.set_defaults(func=cmd_training)
    soak = sub.add_parser("soak", help="reliability: soaks with invariants, determinism, "
                          "generation (delve soak --help)", add_help=False)  # fmt: skip
    soak.add_argument("rest", nargs=argparse.REMAINDER, help="arguments for the soak")
    soak.set_defaults(func=cmd_soak)
    dataset = sub.add_parser("dataset", help="a Minari dataset of a player's games (delve "
                             "dataset --help)", add_help=False)  # fmt: skip
    dataset.add_argument("rest", nargs=argparse.REMAINDER, help="arguments for the dataset")
    dataset.set_defaults(func=cmd_soak)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `delve` console script; returns the exit status."""
    parser = build_parser()
    if argv is None and sys.argv[1:2] in (["watch"], ["play"]):
        from ..engine.compiled.first_run import play_while_compiling

        play_while_compiling(sys.argv[1:])  # an empty cache: a game now, the compile aside
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in PASSED_ON:  # everything after the command is the command's own
        func = cmd_training if argv[0] in TRAINING_COMMANDS else cmd_soak
        args = argparse.Namespace(command=argv[0], rest=argv[1:], func=func)
    else:
        args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except UsageError as err:
        print(f"delve {args.command}: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `delve watch | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
