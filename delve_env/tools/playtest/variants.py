"""What a playtest plays: presets and the variants of them a designer asks about.

A preset is a name and a config (`config.Config` keys): one of the three difficulties, with
any `--set` overrides. A variant is a preset with some rule numbers changed, compared with the
preset it changes (its base): one point of a `--sweep KEY=V1,V2,...` (a grid where several
keys are swept), a named `--variant NAME:KEY=V,KEY=V`, or a `--preset-file` (whose base is
the preset of its difficulty). Every variant and its base play the same seeds.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ...config import KEYS, TUNABLES, Config
from ...engine.core.params import DIFFICULTIES

MAX_VARIANTS = 12  # points of one base's sweep grid, the base included
SWEEPABLE = (*TUNABLES, "depth", "max_steps")  # the rule numbers a sweep may vary


@dataclass(frozen=True)
class Preset:
    """A named config to playtest; `base` names the preset it is compared with (None: it is a
    base), and `changes` are the keys it sets differently from that base."""

    name: str
    config: dict = field(default_factory=dict)
    base: str | None = None
    changes: dict = field(default_factory=dict)

    def validated(self) -> Preset:
        Config.from_kwargs(**self.config)  # a bad key or value raises ValueError
        return self

    @property
    def difficulty(self) -> str:
        return Config.from_kwargs(**self.config).difficulty

    def canonical(self) -> dict:
        """The config as the game is played: every rule number at its value (so two presets
        that play the same game compare equal)."""
        return Config.from_kwargs(**self.config).snapshot_dict()

    def slug(self) -> str:
        return slug(self.name)


def slug(name: str) -> str:
    """A name as a file name."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", name).strip("_") or "_"


def parse_value(text: str):
    """A value from the command line: JSON where it reads as JSON (numbers, true/false,
    lists), else the string itself."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    return tuple(value) if isinstance(value, list) else value


def parse_overrides(pairs: list[str]) -> dict:
    """`key=value` strings as config keywords."""
    out = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or key not in KEYS:
            raise ValueError(
                f"bad override {pair!r}: write key=value with a key from {', '.join(KEYS)}"
            )
        out[key] = parse_value(text)
    return out


def parse_sweep(text: str) -> tuple[str, list]:
    """`KEY=V1,V2,...` as (key, values): a rule number `SWEEPABLE` names, at least two
    values, none repeated."""
    key, sep, values = text.partition("=")
    if not sep or key not in SWEEPABLE:
        raise ValueError(
            f"bad sweep {text!r}: write KEY=V1,V2,... with a key from {', '.join(SWEEPABLE)}"
        )
    parsed = [parse_value(v) for v in values.split(",") if v.strip()]
    if len(parsed) < 2:
        raise ValueError(f"sweep {text!r}: a sweep of {key} needs at least two values, "
                         "comma-separated (e.g. band_size=2,3,4)")  # fmt: skip
    if len(set(parsed)) < len(parsed):
        raise ValueError(f"sweep {text!r}: a value of {key} is given twice")
    return key, parsed


def parse_variant(text: str) -> tuple[str, dict]:
    """`NAME:KEY=V,KEY=V` as (name, config keys)."""
    name, sep, pairs = text.partition(":")
    if not sep or not name.strip() or not pairs.strip():
        raise ValueError(f"bad variant {text!r}: write NAME:KEY=V,KEY=V (e.g. "
                         "crowded:guard_chance=0.9,band_size=4)")  # fmt: skip
    changes = parse_overrides([p for p in pairs.split(",") if p.strip()])
    if "difficulty" in changes:
        raise ValueError(f"variant {name!r}: a variant changes rule numbers of its base preset; "
                         "choose the bases with --presets, not difficulty=")  # fmt: skip
    return name.strip(), changes


def load_preset(path: str | Path) -> Preset:
    """A custom preset from a JSON file: `name` plus any config keys; its base is the preset
    of its difficulty (normal where it names none)."""
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as err:
        raise ValueError(f"preset file {path}: not JSON ({err})") from None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ValueError(
            f"{path}: a preset file is a JSON object with a string 'name' and config keys"
        )
    name = data.pop("name")
    if isinstance(data.get("party"), list):
        data["party"] = tuple(data["party"])
    base = data.get("difficulty", "normal")
    changes = {k: v for k, v in data.items() if k != "difficulty"}
    return Preset(name, data, base if base in DIFFICULTIES else None, changes).validated()


def standard_presets(names=DIFFICULTIES, depth: int | None = None, overrides=None) -> list[Preset]:
    base = dict(overrides or {})
    if depth is not None:
        base["depth"] = depth
    return [Preset(n, {**base, "difficulty": n}).validated() for n in names]


def _label(changes: dict) -> str:
    return " ".join(f"{k}={list(v) if isinstance(v, tuple) else v}" for k, v in changes.items())


def sweep_points(base: Preset, sweeps: list[tuple[str, list]]) -> list[Preset]:
    """The grid of `sweeps` over `base`: one variant per combination of values but the one
    that plays the base's own game (the base plays either way)."""
    played = base.canonical()
    points = []
    for values in itertools.product(*(v for _, v in sweeps)):
        changes = dict(zip((k for k, _ in sweeps), values))
        variant = Preset(f"{base.name} {_label(changes)}", {**base.config, **changes}, base.name,
                         changes).validated()  # fmt: skip
        if variant.canonical() != played:
            points.append(variant)
    if 1 + len(points) > MAX_VARIANTS:
        sizes = " x ".join(str(len(v)) for _, v in sweeps)
        raise ValueError(f"the sweep's grid ({sizes}) makes {1 + len(points)} variants of "
                         f"{base.name} with its base; at most {MAX_VARIANTS} are allowed")  # fmt: skip
    return points


def plan(names=DIFFICULTIES, overrides=None, depth: int | None = None, sweeps=(), variants=(),
         files=()) -> list[Preset]:  # fmt: skip
    """Every preset to play, bases first, then their variants in the order asked.

    Args:
        names: The difficulties whose presets are the bases.
        overrides: Config keys every preset takes (`--set`), `depth` likewise.
        sweeps: (key, values) pairs: their grid over every base (`sweep_points`).
        variants: (name, changes) pairs: each a variant of every base.
        files: `load_preset`s: each a variant of the preset of its difficulty (which joins
            the bases if not among them).

    Raises:
        ValueError: A bad key or value, a name used twice, a grid past MAX_VARIANTS, or a
            variant that plays its base's very game.
    """
    overrides = dict(overrides or {})
    asked = list(dict.fromkeys(names))
    files_only = [f.base for f in files if f.base is not None and f.base not in asked]
    bases = standard_presets([*asked, *dict.fromkeys(files_only)], depth, overrides)
    out = list(bases)
    for base in bases[: len(asked)]:  # a base joined for a preset file is not swept
        if sweeps:
            out += sweep_points(base, list(sweeps))
        for name, changes in variants:
            label = name if len(bases) == 1 else f"{base.name} {name}"
            out.append(Preset(label, {**base.config, **changes}, base.name, changes).validated())
    for f in files:
        config = {**overrides, **({"depth": depth} if depth is not None else {}), **f.config}
        out.append(Preset(f.name, config, f.base, f.changes).validated())
    by_name: dict[str, Preset] = {}
    for p in out:
        if p.name in by_name:
            raise ValueError(f"two presets are named {p.name!r}: name each variant apart")
        by_name[p.name] = p
    for p in out:
        if p.base is not None and p.canonical() == by_name[p.base].canonical():
            raise ValueError(f"variant {p.name!r} plays the very game of its base {p.base!r} "
                             f"({_label(p.changes) or 'no change'}): change a rule number "
                             "from the base's value")  # fmt: skip
    return out
