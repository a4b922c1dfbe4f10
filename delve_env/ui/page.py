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


class Atlas:
    """The distinct 16-pixel blocks of every game on a page, each once: a block's id is its
    place here, and the page draws it from one PNG of them all (`png`), `ATLAS_COLUMNS` a
    row, block i at column i % ATLAS_COLUMNS, row i // ATLAS_COLUMNS. Games share most of
    their blocks (the panel's letters, the map's tiles), so a page of many games grows by
    little more than their steps."""

    def __init__(self):
        self.ids: dict[bytes, int] = {}
        self.blocks: list[bytes] = []

    def add(self, blocks: np.ndarray) -> np.ndarray:
        """The ids of (n, BLOCK * BLOCK * 3) uint8 blocks, new ones added."""
        distinct, back = np.unique(np.ascontiguousarray(blocks).view(
            np.dtype((np.void, blocks.shape[1]))).ravel(), return_inverse=True)  # fmt: skip
        ids = np.empty(len(distinct), dtype=np.int64)
        for i, block in enumerate(distinct.tolist()):
            got = self.ids.get(block)
            if got is None:
                got = self.ids[block] = len(self.blocks)
                self.blocks.append(block)
            ids[i] = got
        if len(self.blocks) > 1 << 16:
            raise ValueError(f"{len(self.blocks)} distinct blocks are past a page's 65,536")
        return ids[back.ravel()]

    def uri(self) -> str:
        tiles = np.frombuffer(b"".join(self.blocks), dtype=np.uint8).reshape(-1, BLOCK, BLOCK, 3)
        rows = max(1, -(-len(tiles) // ATLAS_COLUMNS))
        atlas = np.zeros((rows * ATLAS_COLUMNS, BLOCK, BLOCK, 3), dtype=np.uint8)
        atlas[: len(tiles)] = tiles
        atlas = atlas.reshape(rows, ATLAS_COLUMNS, BLOCK, BLOCK, 3).transpose(0, 2, 1, 3, 4)
        return data_uri(atlas.reshape(rows * BLOCK, ATLAS_COLUMNS * BLOCK, 3))


def b64(array: np.ndarray, deflate: bool = False) -> str:
    data = np.ascontiguousarray(array).tobytes()
    return base64.b64encode(zlib.compress(data, 9) if deflate else data).decode()


def encode(frames, atlas: Atlas) -> dict:
    """A game's frames (any iterable of (H, W, 3) uint8, read one at a time) as blocks of
    `atlas`: the first frame as the block at every position (`first`, row-major), and each
    later step as the (position, block) pairs that changed (`changes`: the pairs of all steps
    in order, deflated; `ends`: where each step's stop), as base64 of little-endian uint16
    / uint32."""
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
    ids = atlas.add(np.concatenate(chosen))
    positions = np.concatenate(positions)
    first = ids[: rows * cols]
    later = np.stack([positions[rows * cols :], ids[rows * cols :]], axis=1).astype("<u2")
    ends = np.cumsum(np.array(counts, dtype=np.int64)).astype("<u4")
    return {"columns": cols, "rows": rows, "first": b64(first.astype("<u2")),
            "changes": b64(later, deflate=True), "ends": b64(ends)}  # fmt: skip


def keeper_lines(info: dict) -> list[str]:
    """What Sixpence said at a step (SIX-2), a line an event: his hint and his gift."""
    return [f"{k['hint']} (gift: {k['gift']})" for k in info.get("keeper", [])]


def film(data: dict, atlas: Atlas) -> dict:
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
              "keeper": keeper_lines(info)}]  # fmt: skip
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
                          "keeper": keeper_lines(info)})  # fmt: skip
            yield env.render()
        check(len(data["actions"]))

    encoded = encode(frames(), atlas)
    record = run_record(env.engine.state, 0, "", "", data["seed"], len(data["actions"]), cut[0])
    end = {k: record[k] for k in ("won", "cause", "floor", "deepest", "steps")}
    h, w, _ = env.render().shape
    return {"width": w, "height": h, "seed": data["seed"], "config": data["config"],
            "frames": encoded, "steps": steps, "end": end}  # fmt: skip


def page(
    title: str,
    body: str,
    games: list[dict],
    atlas: Atlas,
    data: dict | None = None,
    script: str = "",
) -> str:
    """A whole page: `body` (HTML) with the replay player below it, the games (`film`s) and
    `data` in it as JSON, `script` run once the atlas is drawn (the first game loaded)."""
    blob = {"atlas": atlas.uri(), "block": BLOCK, "atlasColumns": ATLAS_COLUMNS,
            "games": games, "data": data or {}}  # fmt: skip
    return (PAGE.replace("__TITLE__", html.escape(title)).replace("__BODY__", body)
            .replace("__SCRIPT__", script)
            .replace("__DATA__", json.dumps(blob, separators=(",", ":")).replace("</", "<\\/")))  # fmt: skip


def game_page(data: dict, title: str | None = None) -> str:
    """One game's replay page (module docstring), as HTML text."""
    atlas = Atlas()
    game = film(data, atlas)
    title = title or f"Delve: seed {data['seed']}, {data['config'].get('difficulty', '')}"
    return page(title, f"<h1>{html.escape(title)}</h1>", [game], atlas)


STYLE = """
body { background: #16141c; color: #ddd; font: 14px/1.4 system-ui, sans-serif; margin: 16px; }
h1 { font-size: 18px; margin: 0 0 8px; } h2 { font-size: 16px; margin: 20px 0 6px; }
canvas { image-rendering: pixelated; display: block; border: 1px solid #333; }
#bar { display: flex; gap: 8px; align-items: center; margin: 8px 0; max-width: 1104px; }
#slider { flex: 1; }
#words { white-space: pre-wrap; font: 12px/1.4 ui-monospace, monospace; background: #0e0d12;
  padding: 8px; min-height: 6em; max-width: 1088px; }
button, select { background: #2a2733; color: #ddd; border: 1px solid #444; padding: 2px 8px; }
table { border-collapse: collapse; font-size: 12px; margin: 4px 0; }
th, td { border: 1px solid #333; padding: 2px 6px; text-align: right; }
th { background: #24212c; cursor: pointer; } td:first-child, th:first-child { text-align: left; }
.real { color: #f0c040; } .games a { color: #8ab4f8; cursor: pointer; margin-right: 8px; }
svg text { fill: #ccc; font-size: 11px; } .mark { cursor: pointer; }
"""

PAGE = (
    """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>"""
    + STYLE
    + """</style></head>
<body>
__BODY__
<div id="player">
<div id="playing"></div>
<canvas id="frame"></canvas>
<div id="bar"><button id="play">play</button>
<select id="speed"><option value="2">2 steps/s</option><option value="8" selected>8 steps/s</option>
<option value="30">30 steps/s</option></select>
<input id="slider" type="range" min="0" value="0"><span id="at"></span></div>
<div id="words"></div>
</div>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const B = DATA.block;
const canvas = document.getElementById("frame"), ctx = canvas.getContext("2d");
const slider = document.getElementById("slider");
const atlas = new Image(); atlas.src = DATA.atlas;
let G = null, N = 0, first, changes, ends, onCanvas, shown = -1, timer = null;
function numbers(b64, Kind) {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  return new Kind(bytes.buffer);
}
async function inflate(b64) {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint16Array(await new Response(stream).arrayBuffer());
}
async function load(i) {  // game i of the page into the player, at its start
  play(false);
  G = DATA.games[i]; N = G.steps.length;
  first = numbers(G.frames.first, Uint16Array); ends = numbers(G.frames.ends, Uint32Array);
  changes = await inflate(G.frames.changes);
  canvas.width = G.width; canvas.height = G.height;
  onCanvas = new Int32Array(G.frames.rows * G.frames.columns).fill(-1);
  slider.max = N - 1;
  document.getElementById("playing").textContent = G.title || "";
  show(0);
}
function gridAt(k) {  // the block at every position at step k
  const grid = Uint16Array.from(first);
  const stop = k ? ends[k - 1] : 0;
  for (let i = 0; i < stop; i++) grid[changes[2 * i]] = changes[2 * i + 1];
  return grid;
}
function show(k) {
  k = Math.max(0, Math.min(N - 1, k));
  const grid = gridAt(k), cols = G.frames.columns, across = DATA.atlasColumns;
  for (let p = 0; p < grid.length; p++) {
    const id = grid[p];
    if (onCanvas[p] === id) continue;
    const sx = (id % across) * B, sy = Math.floor(id / across) * B;
    const dx = (p % cols) * B, dy = Math.floor(p / cols) * B;
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
  if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
  if (e.key === "ArrowRight") { play(false); show(shown + 1); e.preventDefault(); }
  if (e.key === "ArrowLeft") { play(false); show(shown - 1); e.preventDefault(); }
  if (e.key === " ") { play(timer === null); e.preventDefault(); }
});
__SCRIPT__
window.delveReady = atlas.decode().then(() => DATA.games.length ? load(0) : null);
</script></body></html>
"""
)
