"""Tests for the `delve` command line: watch, play (piped input), bench --json, train/eval."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from delve_env.tools import cli

pytestmark = pytest.mark.fast  # bad input and the API: CI runs these again under python -O

ROOT = Path(__file__).resolve().parent.parent
# `bench --json` keys without --peers/--engine/--cold; the default --threads 1,all adds
# vector_threads, or a skipped note where the engine refuses num_threads (tests/test_bench.py)
JSON_ALWAYS = {"single", "vector", "vector_paces", "compile_s", "reset_ms", "bytes_per_slot"}
JSON_THREADS = {"vector_threads", "skipped"}


def run_cli(args, capsys, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_help_lists_subcommands(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for command in ("play", "watch", "bench", "train", "eval"):
        assert command in out


def test_every_command_prints_its_help(capsys):
    """`delve COMMAND --help` exits 0 for every command (argparse formats each help string
    with %: a bare percent sign in one would crash it)."""
    commands = cli.build_parser()._subparsers._group_actions[0].choices
    assert {"playtest", "watch", "dataset"} <= set(commands)
    for name in commands:
        try:
            code = cli.main([name, "--help"])
        except SystemExit as exc:
            code = exc.code
        out = capsys.readouterr().out
        assert code == 0, name
        assert "usage:" in out, name


def test_no_command_prints_help(capsys):
    code, out, _ = run_cli([], capsys)
    assert code == 2
    assert "watch" in out


def test_watch_random_prints_frames_and_stats(capsys):
    code, out, _ = run_cli(["watch", "--steps", "30", "--agent", "random", "--seed", "1"], capsys)
    assert code == 0
    assert "=== random agent, seed 1, step 0 ===" in out
    assert out.count("Delve - ") >= 2  # the first frame and at least one more
    assert "hero" in out  # the party block of a frame
    assert "Episode stats:" in out
    for key in ("won", "deepest_floor", "rooms_explored", "kills", "achievements", "events"):
        assert key in out


def test_watch_is_deterministic(capsys):
    args = ["watch", "--steps", "20", "--agent", "random", "--seed", "3"]
    _, first, _ = run_cli(args, capsys)
    _, second, _ = run_cli(args, capsys)
    assert first == second


def test_watch_plays_the_whole_default_game_to_its_outcome(capsys):
    """With no options the scripted expert plays one whole game of the default config: its
    last frame is the game's end, then the outcome and the summary."""
    code, out, err = run_cli(["watch"], capsys)
    assert code == 0 and "unavailable" not in err
    ended = re.search(r"The scripted agent (won|lost) seed 0 in (\d+) steps", out)
    assert ended, out[-2000:]
    steps = int(ended.group(2))
    assert f"=== scripted agent, seed 0, step {steps} ===" in out
    assert f"step {steps + 1} ===" not in out
    assert ("Won: the king is home!" if ended.group(1) == "won" else "Lost.") in out
    assert "Episode stats:" in out and "deepest_floor" in out


def test_watch_steps_stops_early(capsys):
    code, out, _ = run_cli(["watch", "--steps", "5", "--seed", "2", "--depth", "2"], capsys)
    assert code == 0
    assert "=== scripted agent, seed 2, step 5 ===" in out and "step 6 ===" not in out
    assert "Stopped after 5 steps (the game goes on)" in out
    assert "Episode stats:" in out


def test_watch_bad_config_exits_2(capsys):
    code, _, err = run_cli(["watch", "--depth", "99", "--agent", "random"], capsys)
    assert code == 2
    assert "depth" in err


def test_play_piped_stairs_then_quit(capsys, monkeypatch):
    code, out, _ = run_cli(["play", "--seed", "0"], capsys, "6\nq\n", monkeypatch)
    assert code == 0
    assert "Legal actions:" in out
    assert "6 [t] take the stairs" in out
    assert "> take the stairs" in out
    assert "floor 1 of" in out  # the frame after going down
    assert "Quit after 1 steps" in out


def test_play_keys_reports_and_refusals(capsys, monkeypatch):
    code, out, _ = run_cli(["play"], capsys, "w\nt\nm\nu\n999\nxyz\n", monkeypatch)
    assert code == 0
    assert "not legal now" in out  # 'w' in the courtyard, and 999
    assert "MEMBER STATUS" in out and "QUEST STATUS" in out
    assert "Unknown input 'xyz'" in out
    assert "(end of input)" in out  # no q: the end of the pipe quits


def test_bench_json(capsys):
    code, out, _ = run_cli(["bench", "--json", "--seconds", "0.2", "--sizes", "1,4"], capsys)
    assert code == 0
    result = json.loads(out)  # the whole stdout is one JSON object
    assert JSON_ALWAYS <= set(result) <= JSON_ALWAYS | JSON_THREADS
    assert set(result["vector"]) == {"1", "4"}
    assert result["single"] > 0 and all(v > 0 for v in result["vector"].values())
    assert result["compile_s"] >= 0


def test_bench_sampler_picks_legal_actions():
    import numpy as np

    from delve_env.tools.bench import sample_legal

    rng = np.random.default_rng(0)
    masks = rng.random((200, 30)) < 0.2
    masks[0] = False  # a row with nothing legal gets 0
    out = np.full(200, -1, dtype=np.int64)
    sample_legal(masks, rng.random(200), out)
    assert out[0] == 0
    assert all(masks[i, out[i]] for i in range(1, 200) if masks[i].any())
    one = np.zeros((1, 30), dtype=bool)
    one[0, [3, 7, 20]] = True
    picks = set()
    for u in (0.0, 0.34, 0.67, 0.999999):
        sample_legal(one, np.array([u]), out[:1])
        picks.add(int(out[0]))
    assert picks == {3, 7, 20}
    # rows as wide as the game's: the k-th legal index, across its blocks of 32 and the rest,
    # compiled and as plain Python (NUMBA_DISABLE_JIT runs that)
    wide = rng.random((300, 257)) < rng.random((300, 1))
    wide[:, 250:] |= rng.random((300, 7)) < 0.5
    u = rng.random(300)
    for sampler in (sample_legal, getattr(sample_legal, "py_func", sample_legal)):
        out = np.zeros(300, dtype=np.int64)
        sampler(wide, u, out)
        for i, row in enumerate(wide):
            legal = np.flatnonzero(row)
            want = legal[min(int(u[i] * len(legal)), len(legal) - 1)] if len(legal) else 0
            assert out[i] == want


def test_training_missing_package_exits_2(capsys, monkeypatch):
    """Without the training package (an install of delve_env alone) `delve train` says where
    it lives; a missing dependency of the script is raised as itself."""
    monkeypatch.setitem(sys.modules, "training.train_ppo", None)  # import raises ModuleNotFound
    code, _, err = run_cli(["train", "--timesteps", "10"], capsys)
    assert code == 2
    assert "training package is not installed" in err
    monkeypatch.setitem(sys.modules, "training.train_ppo", None)
    monkeypatch.setattr(cli, "_training_main", lambda command: __import__("no_such_dependency"))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency"):
        run_cli(["eval", "--help"], capsys)


def test_python_m_delve_env_help():
    done = subprocess.run(
        [sys.executable, "-m", "delve_env", "--help"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0
    assert "bench" in done.stdout


def test_throughput_script_json():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "throughput.py"), "--json", "--seconds",
         "0.1", "--sizes", "2"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert JSON_ALWAYS <= set(result) <= JSON_ALWAYS | JSON_THREADS
    assert set(result["vector"]) == {"2"}


def test_watch_trained_plays_a_whole_game_with_the_shipped_policy_without_torch():
    """`delve watch --agent trained` plays the policy shipped for the difficulty with numpy
    alone: torch made unimportable, the game runs to its outcome."""
    code = ("import sys; sys.modules['torch'] = None\n"
            "from delve_env.tools import cli\n"
            "sys.exit(cli.main(['watch', '--agent', 'trained', '--difficulty', 'easy',"
            " '--seed', '4', '--fps', '1000']))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    ended = re.search(r"The trained agent (won|lost) seed 4 in (\d+) steps", done.stdout)
    assert ended, done.stdout[-2000:]
    assert f"=== trained agent, seed 4, step {ended.group(2)} ===" in done.stdout


def test_watch_trained_names_the_shipped_policies_when_none_fits(capsys, monkeypatch, tmp_path):
    from delve_env import policy

    monkeypatch.setattr(policy, "SHIPPED", tmp_path)
    code, _, err = run_cli(["watch", "--agent", "trained", "--steps", "1"], capsys)
    assert code == 2 and "no trained policy ships for difficulty 'normal'" in err


def test_a_recurrent_policy_plays_in_watch_playtest_and_play_without_torch(tmp_path):
    """With a recurrent policy shipped for easy (numpy weights; torch made unimportable),
    `delve watch --agent trained`, `delve playtest --policy trained` and `p` in `delve play`
    each play it, its memory carried."""
    from tests.conftest import random_policy_net

    random_policy_net(0, 0.3, memory=True).save(tmp_path / "easy.zip")
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from pathlib import Path\n"
        "from delve_env import DelveEnv, policy\n"
        f"policy.SHIPPED = Path({str(tmp_path)!r})\n"
        "assert policy.shipped('easy').memory == 8\n"
        "from delve_env.tools import cli\n"
        "assert cli.main(['watch', '--agent', 'trained', '--difficulty', 'easy', '--depth',"
        " '2', '--steps', '200', '--seed', '4', '--fps', '1000']) == 0\n"
        f"assert cli.main(['playtest', '--presets', 'easy', '--depth', '2', '--set',"
        f" 'max_steps=200', '--policy', 'trained', '--seeds', '2', '--out',"
        f" {str(tmp_path / 'pt')!r}, '--no-progress']) == 0\n"
        "from delve_env.ui.play import PlayUI\n"
        "ui = PlayUI(DelveEnv(difficulty='easy', depth=2), seed=1)\n"
        "for _ in range(3):\n"
        "    ui.key('p')\n"
        "assert ui.steps == 3 and ui._advisor.steps == 3\n"
        "print('recurrent ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "=== trained agent, seed 4, step 200 ===" in done.stdout
    assert "recurrent ok" in done.stdout
