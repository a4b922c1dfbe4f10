"""`delve bench` beyond the basic JSON (test_cli.py): thread counts, peer envs and their ratio
columns, dungeon reset time, state bytes per slot, and the PNG plot."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import os
import sys

import pytest

from delve_env.tools import bench

HAS_MINIGRID = importlib.util.find_spec("minigrid") is not None
HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
ALL_THREADS = os.cpu_count() or 1


@pytest.fixture(scope="module")
def peers_run(tmp_path_factory):
    """One tiny run of the whole benchmark with peers, as JSON, with a plot when it can."""
    png = tmp_path_factory.mktemp("bench") / "bench.png"
    args = ["--seconds", "0.05", "--sizes", "1,4", "--peers", "--json"]
    if HAS_MATPLOTLIB:
        args += ["--plot", str(png)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = bench.main(args)
    assert code == 0
    return json.loads(out.getvalue()), png  # the whole stdout is one JSON object


def test_json_keys(peers_run):
    result, _ = peers_run
    required = {"single", "vector", "compile_s", "reset_ms", "bytes_per_slot", "peers"}
    assert required <= set(result) <= set(bench.JSON_KEYS)
    assert set(result["vector"]) == {"1", "4"}
    assert result["single"] > 0 and all(v > 0 for v in result["vector"].values())
    assert set(result["vector_paces"]) == {"1", "4"}  # random-legal play walks some paces
    assert all(v > 0 for v in result["vector_paces"].values())
    assert 0 < result["reset_ms"] < 1000
    assert result["bytes_per_slot"] > 1000 and isinstance(result["bytes_per_slot"], int)
    if ALL_THREADS > 1:  # the default --threads 1,all: measured, or refused by this engine
        threaded = result.get("vector_threads", {}).get(str(ALL_THREADS))
        refused = [k for k in result.get("skipped", {}) if f"{ALL_THREADS} threads" in k]
        assert threaded is not None or refused
        if threaded is not None:
            assert set(threaded) == {"1", "4"} and all(v > 0 for v in threaded.values())


def test_peers_measured_or_skipped(peers_run):
    result, _ = peers_run
    peers, skipped = result["peers"], result.get("skipped", {})
    assert peers["CartPole-v1"] > 0  # Gymnasium alone: always there
    if HAS_MINIGRID:
        assert peers["MiniGrid-DoorKey-8x8-v0"] > 0
    else:
        assert "not installed" in skipped["MiniGrid-DoorKey-8x8-v0"]
    for name in ("Crafter", "NetHackScore-v0"):
        assert (name in peers) != (name in skipped)


@pytest.mark.skipif(not HAS_MATPLOTLIB, reason="matplotlib is not installed")
def test_plot_is_a_png(peers_run):
    _, png = peers_run
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_exits_2_before_measuring(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    monkeypatch.setattr(bench, "run_all", lambda *a, **k: pytest.fail("measured anyway"))
    code = bench.main(["--plot", str(tmp_path / "x.png")])
    assert code == 2
    assert "matplotlib" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_table_has_threads_and_ratio_columns(capsys):
    result = {
        "single": 40_000.0, "vector": {"1": 20_000.0, "64": 400_000.0},
        "vector_threads": {"2": {"1": 10_000.0, "64": 700_000.0}},
        "peers": {"CartPole-v1": 20_000.0, "MiniGrid-DoorKey-8x8-v0": 4_000.0},
        "peer_notes": {"CartPole-v1": "how", "MiniGrid-DoorKey-8x8-v0": "how"},
        "skipped": {"Crafter": "crafter is not installed (pip install 'delve-env[peers]')"},
        "compile_s": 0.3, "cache_hit": True, "reset_ms": 0.3, "resets": 100,
        "bytes_per_slot": 29_000, "depth": 6, "machine": bench.machine_info(),
    }  # fmt: skip
    bench.format_table(result, 1.0)
    out = capsys.readouterr().out
    for text in ("threads", "vs CartPole", "vs MiniGrid", "peer: CartPole", "peer: MiniGrid"):
        assert text in out
    assert "35.0x" in out and "175x" in out  # 700,000 / 20,000 and / 4,000
    assert "delve-env[peers]" in out  # notes are printed as plain text, not rich markup
    rows = bench.table_rows(result)
    assert [(n, t) for s, n, t, _, peer in rows if s == "gym vector env"] == [
        (1, 1), (64, 1), (1, 2), (64, 2)
    ]  # fmt: skip
    assert [peer for *_, peer in rows] == [False] * 5 + [True] * 2


def test_parse_threads():
    assert bench.parse_threads("1,all") == ([1] if ALL_THREADS == 1 else [1, ALL_THREADS])
    assert bench.parse_threads("4, 2,4,ALL") == list(dict.fromkeys([4, 2, ALL_THREADS]))
    for bad in ("0", "x", "", "1,-2"):
        with pytest.raises(argparse.ArgumentTypeError):
            bench.parse_threads(bad)


def test_num_threads_reaches_the_env_only_when_not_1(monkeypatch):
    import delve_env.vector

    seen = []

    class RefusedError(Exception):
        pass

    def fake_env(num_envs, **config):
        seen.append(config)
        raise RefusedError

    monkeypatch.setattr(delve_env.vector, "DelveVectorEnv", fake_env)
    for t in (1, 3):
        with pytest.raises(RefusedError):
            bench.vector_loop(4, num_threads=t)
    assert seen == [{}, {"num_threads": 3}]


def fake_loop(rate: float, paces: float = 0.0):
    """A loop (bench.vector_loop's kind) that steps `rate` a second and walks `paces`."""

    def run(duration):
        return rate * duration, paces * duration, duration

    return run


@pytest.mark.parametrize("accepts", [False, True])
def test_thread_rows_measured_or_skipped(monkeypatch, accepts):
    """An engine that refuses num_threads skips those rows with its reason; one that takes it
    gets them under vector_threads."""

    def fake_vector(n, num_threads=1):
        if num_threads != 1 and not accepts:
            raise ValueError("unknown config key 'num_threads'")
        return fake_loop(1000.0 * n * num_threads, 2.0 * n)

    monkeypatch.setattr(bench, "vector_loop", fake_vector)
    monkeypatch.setattr(bench, "single_loop", lambda: fake_loop(1.0))
    monkeypatch.setattr(bench, "measure_compile", lambda: 0.0)
    monkeypatch.setattr(bench, "measure_reset", lambda seconds: (0.3, 50))
    monkeypatch.setattr(bench, "bytes_per_slot", lambda: (29_000, 6))
    result = bench.run_all(0.01, [1, 8], threads=[1, 3])
    assert result["single"] == pytest.approx(1.0)
    assert result["vector"] == pytest.approx({"1": 1000.0, "8": 8000.0})
    assert result["vector_paces"] == pytest.approx({"1": 2.0, "8": 16.0})
    if accepts:
        assert result["vector_threads"] == {"3": pytest.approx({"1": 3000.0, "8": 24000.0})}
        assert "skipped" not in result
    else:
        assert "vector_threads" not in result
        [(what, why)] = result["skipped"].items()
        assert what == "vector env, 3 threads, N=1,8" and "num_threads" in why


def test_rows_are_timed_in_turn_over_the_rounds():
    """Each loop is warmed up once, then run ROUNDS times for its share of the seconds, the
    loops taking turns: a drift of the machine's speed falls on every row alike."""
    calls = []

    def loop(name, rate):
        def run(duration):
            calls.append((name, round(duration, 6)))
            return rate * duration, 0.0, duration

        return run

    rates = bench.interleaved([loop("a", 10.0), loop("b", 30.0)], 1.0, 3)
    assert [r for r, _ in rates] == pytest.approx([10.0, 30.0])
    warm = round(bench._warmup(1.0), 6)
    third = round(1.0 / 3, 6)
    assert calls == [("a", warm), ("b", warm)] + [("a", third), ("b", third)] * 3


def test_reset_time_and_bytes_per_slot():
    from delve_env.config import Config
    from delve_env.engine.batch import Engine

    ms, count = bench.measure_reset(0.01)
    assert ms > 0 and count >= bench.RESETS_MIN
    per_slot, depth = bench.bytes_per_slot()
    assert depth == 6
    cfg = Config.from_kwargs()
    one = Engine(1, cfg.params(), cfg.party_classes())
    assert per_slot == sum(a.nbytes for a in one.state)
    assert bench.bytes_per_slot(depth=8)[0] > per_slot
    assert isinstance(per_slot, int)
