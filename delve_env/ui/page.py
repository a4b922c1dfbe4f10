"""A game as a web page: one self-contained HTML file that replays it step by step, each step's
picture the very pixels `render_mode="rgb_array"` draws (`delve replay FILE --html OUT`).

The game is re-simulated from its replay (config, seed, actions), its state hash checked at
every step, and its frames cut into 16-pixel blocks: the distinct blocks of the whole game go
into one lossless PNG (a few thousand for a game of a thousand steps: the panel's letters and
the map's tiles recur), and each step is the list of positions whose block changed. The
page's script copies blocks from that atlas onto a canvas, never scaled, so the canvas holds
the frame's bytes. Nothing is loaded from anywhere: the script, the style and the pictures are
in the file, which opens from disk with no network.
"""

from __future__ import annotations

import base64
import html
import json
import struct
import zlib

import numpy as np

BLOCK = 16  # the blocks the frames are cut into: the map's tile
ATLAS_COLUMNS = 64  # blocks a row of the atlas


def png(rgb: np.ndarray) -> bytes:
    """A lossless 8-bit PNG of an (H, W, 3) uint8 picture: indexed where it has at most 256
    colours (the frames have a few dozen), else RGB; no colour profile, so browsers draw it
    as the bytes it holds."""
    h, w, _ = rgb.shape
    flat = rgb.reshape(-1, 3)
    packed = (flat[:, 0].astype(np.uint32) << 16) | (flat[:, 1].astype(np.uint32) << 8) | flat[:, 2]
    colours, index = np.unique(packed, return_inverse=True)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + \
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)  # fmt: skip

    if len(colours) <= 256:
        pixels, kind = index.astype(np.uint8).reshape(h, w), 3
        palette = np.stack([colours >> 16, colours >> 8 & 255, colours & 255], axis=1)
        extra = chunk(b"PLTE", palette.astype(np.uint8).tobytes())
    else:
        pixels, kind, extra = rgb.reshape(h, w * 3), 2, b""
    rows = np.concatenate([np.zeros((h, 1), dtype=np.uint8), pixels], axis=1)
    header = struct.pack(">IIBBBBB", w, h, 8, kind, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)) + chunk(b"IEND", b""))  # fmt: skip


def data_uri(rgb: np.ndarray) -> str:
    return "data:image/png;base64," + base64.b64encode(png(rgb)).decode()


def encode(frames) -> dict:
    """A game's frames (any iterable of (H, W, 3) uint8, read one at a time) as 16-pixel
    blocks: the distinct blocks in one atlas PNG (`atlas`, `ATLAS_COLUMNS` a row, block i at
    column i % ATLAS_COLUMNS, row i // ATLAS_COLUMNS), the first frame as the block at every
    position (`first`, row-major), and each later step as the (position, block) pairs that
    changed (`changes`: the pairs of all steps in order, `ends`: where each step's stop), the
    numbers as base64 of little-endian uint16 / uint32."""
    chosen, positions, counts = [], [], []
    last = None
    for frame in frames:
        h, w, _ = frame.shape
        rows, cols = -(-h // BLOCK), -(-w // BLOCK)
        full = np.zeros((rows * BLOCK, cols * BLOCK, 3), dtype=np.uint8)
        full[:h, :w] = frame
        blocks = full.reshape(rows, BLOCK, cols, BLOCK, 3).transpose(0, 2, 1, 3, 4)
        blocks = blocks.reshape(rows * cols, BLOCK * BLOCK * 3)
        where = np.arange(rows * cols) if last is None else \
            np.flatnonzero((blocks != last).any(axis=1))  # fmt: skip
        chosen.append(blocks[where])
        positions.append(where)
        if last is not None:
            counts.append(len(where))
        last = blocks
    chosen = np.ascontiguousarray(np.concatenate(chosen))
    positions = np.concatenate(positions)
    distinct, ids = np.unique(chosen.view(np.dtype((np.void, chosen.shape[1]))).ravel(),
                              return_inverse=True)  # fmt: skip
    if len(distinct) > 1 << 16:
        raise ValueError(f"a game of {len(distinct)} distinct blocks is past a page's 65,536")
    tiles = np.frombuffer(distinct.tobytes(), dtype=np.uint8).reshape(-1, BLOCK, BLOCK, 3)
    atlas_rows = -(-len(tiles) // ATLAS_COLUMNS)
    atlas = np.zeros((atlas_rows * ATLAS_COLUMNS, BLOCK, BLOCK, 3), dtype=np.uint8)
    atlas[: len(tiles)] = tiles
    atlas = atlas.reshape(atlas_rows, ATLAS_COLUMNS, BLOCK, BLOCK, 3).transpose(0, 2, 1, 3, 4)
    atlas = atlas.reshape(atlas_rows * BLOCK, ATLAS_COLUMNS * BLOCK, 3)
    first = ids[: rows * cols]
    later = np.stack([positions[rows * cols :], ids[rows * cols :]], axis=1).astype("<u2")
    ends = np.cumsum(np.array(counts, dtype=np.int64)).astype("<u4")

    def b64(array: np.ndarray) -> str:
        return base64.b64encode(np.ascontiguousarray(array).tobytes()).decode()

    return {"block": BLOCK, "columns": cols, "rows": rows, "atlas": data_uri(atlas),
            "atlasColumns": ATLAS_COLUMNS, "first": b64(first.astype("<u2")),
            "changes": b64(later), "ends": b64(ends)}  # fmt: skip


def film(data: dict) -> dict:
    """Re-simulate a replay (`tools/replay.py`'s dict): its frames `encode`d as they are
    drawn, and every step's words (the action's name, what its fights did, the events, what
    the keeper said), and how the game ended. A state hash that differs from the replay's
    raises ValueError at that step."""
    from ..engine.core.actions import ACTION_NAMES
    from ..engine.core.tables import EVENT_NAMES
    from ..env import DelveEnv
    from ..fightlog import line
    from ..tools.playtest.players import run_record
    from ..tools.replay import state_hash

    config = dict(data["config"])
    config["party"] = tuple(config["party"])
    env = DelveEnv(**config, render_mode="rgb_array", fight_log=True)
    plain = DelveEnv(**config)  # the replay's hashes are of a game without the fight log's
    _, info = env.reset(seed=data["seed"])
    plain.reset(seed=data["seed"])
    steps = [{"action": "", "log": [], "events": [],
              "keeper": [info["keeper"]] if "keeper" in info else []}]  # fmt: skip
    cut = [False]

    def check(k: int) -> None:
        if state_hash(plain) != data["hashes"][k]:
            raise ValueError(f"the replay differs from this Delve at step {k}")

    def frames():
        yield env.render()
        for k, action in enumerate(data["actions"], start=1):
            check(k - 1)
            _, _, terminated, truncated, info = env.step(int(action))
            plain.step(int(action))
            cut[0] = truncated and not terminated
            steps.append({"action": ACTION_NAMES[int(action)],
                          "log": [line(row) for row in info.get("log", [])],
                          "events": [n for i, n in enumerate(EVENT_NAMES) if info["events"] >> i & 1],
                          "keeper": [info["keeper"]] if "keeper" in info else []})  # fmt: skip
            yield env.render()
        check(len(data["actions"]))

    encoded = encode(frames())
    record = run_record(env.engine.state, 0, "", "", data["seed"], len(data["actions"]), cut[0])
    end = {k: record[k] for k in ("won", "cause", "floor", "deepest", "steps")}
    h, w, _ = env.render().shape
    return {"width": w, "height": h, "seed": data["seed"], "config": data["config"],
            "frames": encoded, "steps": steps, "end": end}  # fmt: skip


def game_page(data: dict, title: str | None = None) -> str:
    """One game's replay page (module docstring), as HTML text."""
    game = film(data)
    title = title or f"Delve: seed {data['seed']}, {data['config'].get('difficulty', '')}"
    return PAGE.replace("__TITLE__", html.escape(title)).replace(
        "__GAME__", json.dumps(game, separators=(",", ":")).replace("</", "<\\/")
    )


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body { background: #16141c; color: #ddd; font: 14px/1.4 system-ui, sans-serif; margin: 16px; }
h1 { font-size: 18px; margin: 0 0 8px; }
canvas { image-rendering: pixelated; display: block; border: 1px solid #333; }
#bar { display: flex; gap: 8px; align-items: center; margin: 8px 0; }
#slider { flex: 1; }
#words { white-space: pre-wrap; font: 12px/1.4 ui-monospace, monospace; background: #0e0d12;
  padding: 8px; min-height: 6em; max-width: 1104px; }
button, select { background: #2a2733; color: #ddd; border: 1px solid #444; padding: 2px 8px; }
</style></head>
<body>
<h1>__TITLE__</h1>
<canvas id="frame"></canvas>
<div id="bar"><button id="play">play</button>
<select id="speed"><option value="2">2 steps/s</option><option value="8" selected>8 steps/s</option>
<option value="30">30 steps/s</option></select>
<input id="slider" type="range" min="0" value="0"><span id="at"></span></div>
<div id="words"></div>
<script id="game" type="application/json">__GAME__</script>
<script>
"use strict";
const G = JSON.parse(document.getElementById("game").textContent);
const F = G.frames, B = F.block, N = G.steps.length;
const canvas = document.getElementById("frame"), ctx = canvas.getContext("2d");
canvas.width = G.width; canvas.height = G.height;
const slider = document.getElementById("slider");
slider.max = N - 1;
function numbers(b64, Kind) {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  return new Kind(bytes.buffer);
}
const first = numbers(F.first, Uint16Array), changes = numbers(F.changes, Uint16Array);
const ends = numbers(F.ends, Uint32Array);
const atlas = new Image(); atlas.src = F.atlas;
const onCanvas = new Int32Array(F.rows * F.columns).fill(-1);
let shown = -1, timer = null;
function gridAt(k) {  // the block at every position at step k
  const grid = Uint16Array.from(first);
  const stop = k ? ends[k - 1] : 0;
  for (let i = 0; i < stop; i++) grid[changes[2 * i]] = changes[2 * i + 1];
  return grid;
}
function show(k) {
  k = Math.max(0, Math.min(N - 1, k));
  const grid = gridAt(k);
  for (let p = 0; p < grid.length; p++) {
    const id = grid[p];
    if (onCanvas[p] === id) continue;
    const sx = (id % F.atlasColumns) * B, sy = Math.floor(id / F.atlasColumns) * B;
    const dx = (p % F.columns) * B, dy = Math.floor(p / F.columns) * B;
    ctx.clearRect(dx, dy, B, B);
    ctx.drawImage(atlas, sx, sy, B, B, dx, dy, B, B);
    onCanvas[p] = id;
  }
  shown = k; slider.value = k;
  const s = G.steps[k];
  document.getElementById("at").textContent = `step ${k} / ${N - 1}`;
  const words = [k ? `action: ${s.action}` : "the start"];
  if (s.events && s.events.length) words.push(`events: ${s.events.join(", ")}`);
  s.keeper.forEach(line => words.push(`Sixpence: ${line}`));
  s.log.forEach(line => words.push(line));
  if (k === N - 1) words.push(G.end.won ? "won: the king is home" :
    `lost on floor ${G.end.floor}: ${G.end.cause || "not finished"}`);
  document.getElementById("words").textContent = words.join("\\n");
}
function play(on) {
  clearInterval(timer); timer = null;
  document.getElementById("play").textContent = on ? "pause" : "play";
  if (on) timer = setInterval(() => {
    if (shown >= N - 1) return play(false);
    show(shown + 1);
  }, 1000 / Number(document.getElementById("speed").value));
}
slider.addEventListener("input", () => { play(false); show(Number(slider.value)); });
document.getElementById("play").addEventListener("click", () => play(timer === null));
document.getElementById("speed").addEventListener("change", () => { if (timer) play(true); });
document.addEventListener("keydown", e => {
  if (e.key === "ArrowRight") { play(false); show(shown + 1); e.preventDefault(); }
  if (e.key === "ArrowLeft") { play(false); show(shown - 1); e.preventDefault(); }
  if (e.key === " ") { play(timer === null); e.preventDefault(); }
});
window.delveReady = atlas.decode().then(() => show(0));
</script></body></html>
"""
