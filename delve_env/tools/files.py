"""Output files of the commands: checked before long work starts, written whole or not at all.

A command that plays or trains for minutes checks first that its output can be written
(`writable_folder`, `writable_file`), so a bad path costs a line, not the work; and it writes
each file under a temporary name beside it, then renames it (`write_whole`), so a write that
fails half-way (a full disk) leaves the old file or none, never half of one.
"""

from __future__ import annotations

from pathlib import Path


def writable_folder(path: str | Path, option: str = "--out") -> Path:
    """The folder, made if missing; ValueError naming `option` and why where it cannot be
    made or written in."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".delve-writable"
        probe.write_text("")
        probe.unlink()
    except OSError as err:
        raise ValueError(f"{option} {path}: cannot write there ({err.strerror or err})") from None
    return path


def writable_file(path: str | Path, option: str = "--out") -> Path:
    """A file that can be written: its folder exists and takes a file. ValueError naming
    `option` and why, where not."""
    path = Path(path)
    if not path.parent.is_dir():
        raise ValueError(f"{option} {path}: no such folder {path.parent}")
    if path.is_dir():
        raise ValueError(f"{option} {path}: a folder, not a file")
    probe = path.parent / f".{path.name}.writable"
    try:
        probe.write_text("")
        probe.unlink()
    except OSError as err:
        raise ValueError(f"{option} {path}: cannot write in {path.parent} "
                         f"({err.strerror or err})") from None  # fmt: skip
    return path


def save_whole(path: str | Path, save) -> None:
    """`save(tmp)` writes the file under a temporary name beside `path` (keeping its suffix,
    so a writer that reads the format off the name still can), then it is renamed over
    `path`; a failure on the way removes the temporary file and raises."""
    path = Path(path)
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix}")
    try:
        save(tmp)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def write_whole(path: str | Path, data: str | bytes) -> None:
    """`data` at `path`, whole or not at all (`save_whole`)."""
    save_whole(path, lambda tmp: tmp.write_bytes(data) if isinstance(data, bytes)
               else tmp.write_text(data))  # fmt: skip
