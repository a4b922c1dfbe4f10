"""Every `delve` command refuses bad input in one line: exit status 2, the argument named and
what is allowed, no traceback, and nothing written. The commands come from the parser, so a
new one fails here until its cases are added."""

import os
import zipfile
from pathlib import Path

import pytest

from delve_env.tools import cli
from delve_env.tools.playtest import players as players_module

pytestmark = pytest.mark.fast
HEADER = """# Bad input: what every command says

Every `delve` command refuses bad input before any game or training, in one line naming the
argument and what is allowed, with exit status 2 and nothing written. The cases below are
tests/test_bad_input.py's, each with the line it gets (DIR: the test's folder; as root,
`/sys` stands for a folder that cannot be written). Regenerate with `python
tests/test_bad_input.py > docs/ERRORS.md`.

"""


@pytest.fixture
def files(tmp_path):
    paths = bad_files(tmp_path)
    yield paths
    if paths["readonly"] != Path("/sys"):
        paths["readonly"].chmod(0o755)


def bad_files(tmp_path: Path) -> dict:
    """Bad files of every kind: missing, empty, corrupt, truncated, of another kind; a file
    where a folder is wanted; a read-only folder."""
    from delve_env.policy import shipped_path

    shipped = shipped_path("easy").read_bytes()
    paths = {"missing": tmp_path / "missing.zip", "empty": tmp_path / "empty.zip",
             "corrupt": tmp_path / "corrupt.zip", "truncated": tmp_path / "truncated.zip",
             "other": tmp_path / "other.zip", "blocker": tmp_path / "blocker",
             "readonly": tmp_path / "readonly", "json": tmp_path / "bad.json"}  # fmt: skip
    if os.geteuid() == 0:  # root writes through a folder's mode bits: sysfs refuses it
        paths["readonly"] = Path("/sys")
    paths["empty"].write_bytes(b"")
    paths["corrupt"].write_bytes(b"not a zip at all")
    paths["truncated"].write_bytes(shipped[: len(shipped) // 2])
    with zipfile.ZipFile(paths["other"], "w") as z:
        z.writestr("hello.txt", "a zip of something else")
    paths["blocker"].write_text("a file where a folder is wanted")
    if paths["readonly"] != Path("/sys"):
        paths["readonly"].mkdir()
        paths["readonly"].chmod(0o555)
    paths["json"].write_text("{not json")
    return paths


def cases(f):
    """(command, arguments, what the line must name), by command."""
    out_blocked = str(f["blocker"] / "out")
    return {
        "play": [(["--seed", "-3"], "--seed"), (["--depth", "99"], "depth"),
                 (["--difficulty", "brutal"], "--difficulty")],
        "watch": [(["--seed", "-1", "--steps", "1"], "--seed"), (["--seed", "x"], "--seed"),
                  (["--agent", "expert"], "--agent"), (["--steps", "-5"], "--steps"),
                  (["--agent", f"model:{f['corrupt']}", "--steps", "1"], "not a Delve policy"),
                  (["--fps", "0"], "--fps")],
        "record": [(["--out", str(f["missing"].parent / "no" / "x.json")], "no such folder"),
                   (["--out", str(f["readonly"] / "x.json")], "cannot write"),
                   (["--out", str(f["blocker"].parent)], "a folder"),
                   (["--out", "x.json", "--agent", f"sampled:{f['truncated']}"], "not a Delve policy"),
                   (["--out", "x.json", "--seed", "1.5"], "--seed")],
        "replay": [([str(f["missing"])], "missing.zip"), ([str(f["empty"])], "not a replay"),
                   ([str(f["json"])], "not a replay"), ([str(f["corrupt"])], "not a replay")],
        "playtest": [(["--seeds", "0"], "--seeds"), (["--out", out_blocked], "--out"),
                     (["--out", str(f["readonly"] / "x")], "--out"),
                     (["--policy", f"sampled:{f['corrupt']}"], "sampled:"),
                     (["--presets", "brutal"], "--presets"), (["--seeds", "many"], "--seeds"),
                     (["--preset-file", str(f["json"])], "preset"),
                     (["--html-games", "-1"], "--html-games")],
        "serve": [(["--port", "-1"], "--port"), (["--preset", "brutal"], "--preset"),
                  (["--set", "nope=1"], "nope"), (["--variant", "nothing"], "NAME:KEY=V"),
                  (["--preset-file", str(f["json"])], "preset file"),
                  (["--out", out_blocked], "--out"), (["--set", "band_size=99"], "band_size"),
                  (["--variant", "x:band_size=3", "--preset-file", str(f["json"])], "one variant")],
        "tune": [(["--key", "nope", "--target", "0.5"], "--key"),
                 (["--key", "band_size", "--target", "2"], "--target"),
                 (["--key", "band_size", "--target", "0.5", "--out", out_blocked], "--out"),
                 (["--key", "band_size", "--target", "0.5", "--seeds", "-2"], "--seeds"),
                 (["--key", "band_size", "--target", "0.5", "--html-games", "-1"], "--html-games"),
                 (["--key", "band_size", "--target", "0.5", "--policy", "adapted",
                   "--adapt-runs", "0"], "--adapt-runs")],
        "bench": [(["--sizes", "0"], "--sizes"), (["--seconds", "-1"], "--seconds"),
                  (["--threads", "zero"], "--threads")],
        "train": [(["Delve-Nope-v0"], "Delve-Nope-v0"),
                  (["Delve-Easy-v0", "--out", out_blocked], "--out"),
                  (["Delve-Easy-v0", "--timesteps", "-1"], "--timesteps"),
                  (["Delve-Easy-v0", "--extractor", "flat"], "--extractor"),
                  (["Delve-Easy-v0", "--init", str(f["corrupt"])], "--init"),
                  # the protocol's held-out games are never trained on (docs/BASELINES.md)
                  (["Delve-Easy-v0", "--seed", "990"], "overlap the evaluation seeds 1000-1499"),
                  (["Delve-Easy-v0", "--seed", "1400", "--num-envs", "8"], "evaluation seeds"),
                  (["Delve-Easy-v0", "--seed", "-1"], "--seed")],
        "eval": [(["Delve-Easy-v0", str(f["corrupt"])], "not a model"),
                 (["Delve-Easy-v0", str(f["truncated"])], "not a model"),
                 (["Delve-Easy-v0", str(f["other"])], "not a model"),
                 (["Delve-Easy-v0", str(f["missing"])], "no such model file"),
                 (["Delve-Easy-v0", "--agent", "random", "--episodes", "0"], "--episodes")],
        "soak": [(["--ids", "Delve-Nope-v0"], "Delve-Nope-v0"), (["--only", "nothing"], "--only")],
        "dataset": [(["--out", "delve/x-v0", "--episodes", "0"], "--episodes"),
                    (["--out", "no-namespace"], "NAMESPACE/NAME-vN"), (["--out", "d/x-v0", "--seed", "-4"], "--seed"),
                    (["--out", "d/x-v0", "--agent", "expert"], "--agent")],
    }  # fmt: skip


def refusal(command: str, args: list[str]) -> tuple[int, str]:
    """(exit status, what stderr said) of `delve COMMAND ARGS`."""
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            code = cli.main([command, *args])
        except SystemExit as done:  # argparse's own refusals exit as the console script does
            code = done.code
    return code, err.getvalue()


def markdown(tmp_path: Path) -> str:
    """docs/ERRORS.md's table: every case of the battery and the line it gets."""
    f = bad_files(tmp_path)
    rows = ["| command | arguments | exit | the line |", "|---|---|---|---|"]
    for command, table in cases(f).items():
        for args, _ in table:
            code, err = refusal(command, args)
            shown = " ".join(args).replace(str(tmp_path), "DIR")
            line = err.strip().replace(str(tmp_path), "DIR").replace("|", "\\|")
            rows.append(f"| {command} | `{shown}` | {code} | {line} |")
    return "\n".join(rows) + "\n"


def test_errors_doc_lists_every_case(files):
    page = (Path(__file__).resolve().parents[1] / "docs" / "ERRORS.md").read_text()
    for command, table in cases(files).items():
        for args, _ in table:
            shown = " ".join(args).replace(str(files["blocker"].parent), "DIR")
            assert f"| {command} | `{shown}` |" in page, (
                "regenerate docs/ERRORS.md: python tests/test_bad_input.py > docs/ERRORS.md"
            )


def commands() -> list[str]:
    parser = cli.build_parser()
    (sub,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return list(sub.choices)


def test_every_command_has_its_bad_inputs(files):
    assert sorted(cases(files)) == sorted(commands())


@pytest.mark.parametrize("command", commands())
def test_bad_input_is_one_line_exit_2_and_writes_nothing(command, files, capsys, monkeypatch,
                                                         tmp_path):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(players_module, "play_run", lambda job: pytest.fail("a game was played"))
    before = sorted(p.name for p in tmp_path.rglob("*"))
    for args, says in cases(files)[command]:
        code, err = refusal(command, args)
        assert code == 2, (command, args, err)
        assert "Traceback" not in err, (command, args, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and says in lines[0], (command, args, err)
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_a_dataset_whose_folder_cannot_be_written_is_refused_before_any_game(files, capsys,
                                                                            monkeypatch):  # fmt: skip
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(files["readonly"] / "datasets"))
    monkeypatch.setattr("delve_env.tools.dataset.play_episode",
                        lambda *a, **k: pytest.fail("a game was played"))  # fmt: skip
    code, err = refusal("dataset", ["--out", "delve/x-v0", "--episodes", "2"])
    assert code == 2 and "MINARI_DATASETS_PATH" in err and len(err.strip().splitlines()) == 1


if __name__ == "__main__":  # docs/ERRORS.md
    import tempfile

    print(HEADER + markdown(Path(tempfile.mkdtemp())), end="")
