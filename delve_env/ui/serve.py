"""`delve serve`: a person plays Delve in the browser, each game kept as a replay.

A small HTTP server (the standard library's) on 127.0.0.1 unless told otherwise. The page sends
each key press to the server, which plays it through the same UI as `delve play` (`PlayUI`:
the same keys, the menu of legal actions, the reports, why() for a refused key) and answers
with the frame `render_mode="rgb_array"` draws and the text beside it. Every game is written
after every step to OUT/<game>.json in the replay format of `delve record` (config, seed,
actions, a state hash after each), with `"player": "human"`, so `delve replay` checks it and
`delve playtest --human OUT` sets it beside the agents.

The API (JSON bodies): POST /api/new {"seed": S} starts a game; POST /api/key {"game": ID,
"key": K} presses a key. A malformed body, an unknown key or game is answered 400 or 404 with
{"error": ...} and changes nothing; a key whose action is masked is refused in the game's
log, as in the terminal.
"""

from __future__ import annotations

import json
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from ..tools.files import write_whole
from .page import data_uri
from .play import ACTION_KEYS, MOVE_KEYS, REPORT_KEYS, PlayUI

KEYS = (*MOVE_KEYS, *ACTION_KEYS, *REPORT_KEYS, "enter", "esc", "x", "p", "?", "y", "n",
        *map(str, range(1, 10)))  # fmt: skip


class Game:
    """One person's game: the UI, and its replay as it grows."""

    def __init__(self, config: dict, seed: int, out: Path, gid: str):
        from ..env import DelveEnv
        from ..tools.replay import FORMAT, VERSION, state_hash

        self.env = DelveEnv(**config, render_mode="rgb_array")
        self.ui = PlayUI(self.env, seed)
        self.hash = state_hash
        self.path = out / f"{gid}.json"
        self.replay = {"format": FORMAT, "version": VERSION,
                       "config": self.env.config.snapshot_dict(), "seed": seed, "actions": [],
                       "hashes": [state_hash(self.env)], "player": "human"}  # fmt: skip
        self.lock = threading.Lock()
        step = self.env.step

        def recorded(action):  # every action the UI takes, as the replay's next step
            got = step(action)
            self.replay["actions"].append(int(action))
            self.replay["hashes"].append(self.hash(self.env))
            return got

        self.env.step = recorded
        self.save()

    def save(self) -> None:
        write_whole(self.path, json.dumps(self.replay) + "\n")

    def key(self, k: str) -> dict:
        with self.lock:
            before = len(self.replay["actions"])
            self.ui.key(k)
            if len(self.replay["actions"]) != before:
                self.save()
            return self.view()

    def view(self) -> dict:
        text = self.ui.screen().split("\n")
        return {"frame": data_uri(self.env.render()), "text": "\n".join(text),
                "steps": len(self.replay["actions"]), "over": self.ui.over,
                "replay": self.path.name}  # fmt: skip


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, config: dict, out: Path):
        self.config, self.out = config, Path(out)
        self.games: dict[str, Game] = {}
        self.lock = threading.Lock()
        super().__init__(address, Handler)


class Handler(BaseHTTPRequestHandler):
    server: Server

    def log_message(self, *args) -> None:  # quiet: the terminal is the person's
        pass

    def answer(self, code: int, body, kind: str = "application/json") -> None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if urlsplit(self.path).path in ("/", "/index.html"):
            self.answer(200, PAGE, "text/html; charset=utf-8")
        else:
            self.answer(404, {"error": f"no page {self.path}: the game is at /"})

    def do_POST(self) -> None:
        try:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            if not isinstance(body, dict):
                raise ValueError("the body must be a JSON object")
        except ValueError as err:
            return self.answer(400, {"error": f"a malformed body: {err}"})
        if self.path == "/api/new":
            seed = body.get("seed", secrets.randbelow(1 << 31))
            if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
                return self.answer(400, {"error": f"seed must be an integer >= 0, got {seed!r}"})
            gid = f"game-{seed}-{secrets.token_hex(4)}"
            game = Game(self.server.config, seed, self.server.out, gid)
            with self.server.lock:
                self.server.games[gid] = game
            return self.answer(200, {"game": gid, **game.view()})
        if self.path == "/api/key":
            game = self.server.games.get(body.get("game"))
            if game is None:
                return self.answer(404, {"error": f"no game {body.get('game')!r}: start one "
                                                  "with POST /api/new"})  # fmt: skip
            k = body.get("key")
            if k not in KEYS:
                return self.answer(400, {"error": f"key {k!r}: one of {', '.join(KEYS)}"})
            return self.answer(200, game.key(k))
        return self.answer(404, {"error": f"no API {self.path}: /api/new, /api/key"})


def serve(config: dict, out: Path, host: str = "127.0.0.1", port: int = 8000) -> Server:
    """The server, bound (port 0: any free one) but not yet serving (`serve_forever`)."""
    Path(out).mkdir(parents=True, exist_ok=True)
    return Server((host, port), config, out)


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Delve</title>
<style>
body { background: #16141c; color: #ddd; font: 14px/1.4 system-ui, sans-serif; margin: 16px; }
img { image-rendering: pixelated; display: block; border: 1px solid #333; }
#text { white-space: pre-wrap; font: 12px/1.35 ui-monospace, monospace; background: #0e0d12;
  padding: 8px; max-width: 1088px; }
#error { color: #f06060; }
</style></head><body>
<div>Delve: keys as in <code>delve play</code>: arrows move, o explore, G / U travel, z rest,
Tab autofight, Enter the actions (x the masked ones, and why), m u k e reports, ? help.
<span id="steps"></span> <span id="error"></span></div>
<img id="frame" alt="the game">
<div id="text"></div>
<script>
"use strict";
let game = null, busy = Promise.resolve();
const NAMES = {ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
               Enter: "enter", Escape: "esc", Tab: "\\t"};
function show(v) {
  document.getElementById("frame").src = v.frame;
  document.getElementById("text").textContent = v.text;
  document.getElementById("steps").textContent = `step ${v.steps}` + (v.over ? ", over" : "");
}
async function post(path, body) {
  const r = await fetch(path, {method: "POST", body: JSON.stringify(body)});
  const v = await r.json();
  document.getElementById("error").textContent = v.error || "";
  if (r.ok) show(v);
  return v;
}
document.addEventListener("keydown", e => {
  const k = NAMES[e.key] || (e.key.length === 1 ? e.key : null);
  if (!k || !game) return;
  e.preventDefault();
  busy = busy.then(() => post("/api/key", {game, key: k}));
});
const seed = new URLSearchParams(location.search).get("seed");
window.delveReady = post("/api/new", seed === null ? {} : {seed: Number(seed)})
  .then(v => { game = v.game; });
window.delveIdle = () => busy;
</script></body></html>
"""
