"""Long work is never lost to a late write: outputs are checked before the work and written
whole or not at all (delve_env/tools/files.py), and a training run stopped by Ctrl-C keeps its
last checkpoint and says where."""

import errno
from pathlib import Path

import pytest

from delve_env.tools import files
from delve_env.tools.cli import main


def full_disk(monkeypatch, after: int = 10):
    """Every write puts down `after` characters, then fails as a full disk does."""

    def write(self, data, *args, **kwargs):
        with open(self, "w" if isinstance(data, str) else "wb") as f:
            f.write(data[:after])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", write)
    monkeypatch.setattr(Path, "write_bytes", write)


def test_a_write_that_fails_half_way_leaves_the_old_file_and_no_part(tmp_path, monkeypatch):
    out = tmp_path / "report.md"
    out.write_text("the old report\n")
    full_disk(monkeypatch)
    with pytest.raises(OSError, match="No space"):
        files.write_whole(out, "a new report, much longer than ten characters\n")
    assert out.read_text() == "the old report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]
    with pytest.raises(OSError):
        files.write_whole(tmp_path / "new.json", b"{}" * 100)
    assert not (tmp_path / "new.json").exists() and len(list(tmp_path.iterdir())) == 1


def test_a_playtest_whose_disk_fills_leaves_no_half_report(tmp_path, monkeypatch):
    from delve_env.tools import playtest

    presets = playtest.standard_presets(("easy",), depth=2)
    runs = playtest.play_all(presets, ["random"], range(2), workers=1, progress=False)
    full_disk(monkeypatch)
    with pytest.raises(OSError):
        playtest.report(runs, presets, tmp_path)
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_a_replay_is_written_whole_too(tmp_path, monkeypatch):
    from delve_env.tools import replay

    rec = {"format": "delve-replay", "version": 1, "config": {}, "seed": 0, "actions": [],
           "hashes": ["x"]}  # fmt: skip
    full_disk(monkeypatch)
    with pytest.raises(OSError):
        replay.save(rec, tmp_path / "game.json")
    assert not list(tmp_path.iterdir())


@pytest.mark.fast
def test_outputs_that_cannot_be_written_are_refused_before_the_work(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    for bad, says in ((blocker / "out", "cannot write there"), (Path("/sys/delve"), "cannot")):
        with pytest.raises(ValueError, match=says):
            files.writable_folder(bad)
    with pytest.raises(ValueError, match="no such folder"):
        files.writable_file(tmp_path / "missing" / "x.json")
    with pytest.raises(ValueError, match="a folder, not a file"):
        files.writable_file(tmp_path)
    assert files.writable_folder(tmp_path / "new" / "deep") == tmp_path / "new" / "deep"
    assert not list((tmp_path / "new" / "deep").iterdir())  # the probe is gone


def test_ctrl_c_keeps_the_last_checkpoint_and_says_where(tmp_path, monkeypatch, capsys):
    from training import evaluate, train_ppo

    def trained_a_while(task, stages, hp, out, seed, curve, **kwargs):
        for steps in (4096, 8192):
            files.save_whole(out / "checkpoints" / f"model_{steps}_steps.zip",
                             lambda p, n=steps: Path(p).write_text(f"weights at {n}"))  # fmt: skip
        raise KeyboardInterrupt

    monkeypatch.setattr(train_ppo, "train_ppo", trained_a_while)
    monkeypatch.setattr(evaluate, "play", lambda *a, **k: {"win_rate": 0.0, "mean_return": 0.0})
    assert main(["train", "Delve-Easy-v0", "--out", str(tmp_path / "run")]) == 130
    err = capsys.readouterr().err
    kept = tmp_path / "run" / "checkpoints" / "model_8192_steps.zip"
    assert f"the last checkpoint is {kept}" in err
    assert kept.read_text() == "weights at 8192"
    assert sorted(p.name for p in kept.parent.iterdir()) == ["model_4096_steps.zip",
                                                             "model_8192_steps.zip"]  # fmt: skip
