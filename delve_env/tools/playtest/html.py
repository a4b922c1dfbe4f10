"""playtest.html: the report as one page that opens from disk with no network (`delve
playtest` writes it beside playtest.md).

It holds the rows, the comparisons and the hazard per floor as tables sorted by a click on a
column; the charts, drawn in SVG by the page's own few lines of script (win rate per player
and preset with its interval, for a sweep against the swept value; the hazard per floor as
small multiples, a panel a player; the losses by cause), each mark showing its numbers on
hover and listing its row's games on a click; and a replay player for the games it holds: of
every (preset, player), up to K games lost and one won (`--html-games K`), each played again
alone from its seed (the same game as in the playtest: checked against its record) and
drawn exactly as `render_mode="rgb_array"` draws it (ui/page.py).
"""

from __future__ import annotations

import html

import numpy as np

from ...ui.page import Atlas, film, page
from .players import Player

HTML_GAMES = 2  # lost games held a (preset, player) by default, beside one won


def chosen(runs: list[dict], k: int) -> list[dict]:
    """The runs whose games the page holds: per (preset, player), the first k lost and the
    first won, by seed (first attempts of the first training run)."""
    out, taken = [], {}
    for r in sorted(runs, key=lambda r: r["seed"]):
        if r.get("attempt", 0) or r.get("run", 0):
            continue
        lost, won = taken.setdefault((r["preset"], r["policy"]), [0, 0])
        if (not r["won"] and lost < k) or (r["won"] and not won and k > 0):
            taken[(r["preset"], r["policy"])][0 if not r["won"] else 1] += 1
            out.append(r)
    return out


def player_policy(player: Player, source, seed: int):
    """`policy(env, info) -> action` playing as `player` plays seed `seed` in a playtest
    (None where its games cannot be played again alone: an SB3 model)."""
    if player.solo:
        from .players import _agent

        agent = _agent(player.spec)
        return lambda env, info: int(agent.act(env))
    from ...policy import Agent, PolicyNet, choose, is_policy_file, uniforms

    if source is None:  # random: every legal action alike, from the seed's stream
        step = [0]

        def uniform(env, info):
            logits = np.where(info["action_mask"], 0.0, -np.inf)[None]
            u = uniforms(np.array([seed], dtype=np.uint64), np.array([step[0]]))
            step[0] += 1
            return int(choose(logits, u)[0])

        return uniform
    if not is_policy_file(source):
        return None
    return Agent(PolicyNet.load(source), seed, sampled=player.sampled)


def held_games(runs: list[dict], presets: list, cast: list, sources: dict,
               k: int) -> tuple[list[dict], Atlas]:  # fmt: skip
    """The games the page holds (`chosen`), each played again alone (a person's from its own
    replay), checked against its playtest record and filmed."""
    from ..replay import load, record

    configs = {p.name: p.config for p in presets}
    players = {p.name: p for p in cast}
    atlas, games = Atlas(), []
    for r in chosen(runs, k):
        if "replay" in r:
            replay = load(r["replay"])
        else:
            player = players.get(r["policy"])
            source = sources.get((r["preset"], r["policy"], 0))
            policy = None if player is None else player_policy(player, source, r["seed"])
            if policy is None:
                continue
            replay = record(configs[r["preset"]], r["seed"], policy)
        game = film(replay, atlas)
        if any(game["end"][key] != r[key] for key in ("won", "cause", "floor", "deepest", "steps")):
            raise RuntimeError(f"{r['policy']} on {r['preset']} seed {r['seed']}: the game "
                               "played alone is not the playtest's")  # fmt: skip
        game.update({"preset": r["preset"], "policy": r["policy"],
                     "title": f"{r['preset']}, {r['policy']}, seed {r['seed']}: "
                              + ("won" if r["won"] else f"lost on floor {r['floor']} "
                                                        f"({r['cause']})")})  # fmt: skip
        games.append(game)
    return games, atlas


def table(title: str, header: list[str], rows: list[list], marks=None) -> str:
    """A sortable table (a click on a column sorts by it)."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = []
    for i, row in enumerate(rows):
        cls = ' class="real"' if marks and marks[i] else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(cell(v))}</td>" for v in row)
                    + "</tr>")  # fmt: skip
    return (f"<h2>{html.escape(title)}</h2><table class=\"sortable\"><thead><tr>{head}</tr>"
            f"</thead><tbody>{''.join(body)}</tbody></table>")  # fmt: skip


def cell(v) -> str:
    if isinstance(v, (tuple, list)) and len(v) == 2 and all(isinstance(x, float) for x in v):
        return f"{v[0]:.1f}-{v[1]:.1f}"
    if isinstance(v, float):
        return f"{v:.1f}"
    return str(v)


def playtest_page(data: dict, games: list[dict], atlas: Atlas, title: str = "Delve playtest",
                  intro: str | None = None) -> str:  # fmt: skip
    """playtest.html from playtest.json's `data` and the held games; a tune's page (tune.html)
    is the same page over its probes, each probed value a preset, under its own `title` and
    `intro`."""
    from .players import LOSS_CAUSES

    rows = data["rows"]
    if intro is None:
        intro = (f"{len(data['presets'])} presets, players {', '.join(data['players'])}; seeds "
                 f"{data['seeds'][0]}-{data['seeds'][0] + data['seeds'][1] - 1}.")  # fmt: skip
    parts = [f"<h1>{html.escape(title)}</h1>",
             f"<p>{html.escape(intro)} Hover a mark for its numbers; click it for its games.</p>",
             '<h2>Win rate</h2><div id="wins"></div>',
             '<h2>The hazard per floor (lost on a floor, of those reaching it)</h2>'
             '<div id="hazard"></div>', '<h2>Losses by cause</h2><div id="causes"></div>',
             '<h2>Games</h2><div id="chosen" class="games"></div>']  # fmt: skip
    parts.append(table("Rows", ["preset", "policy", "runs", "win %", "95% interval",
                                "deepest", "members lost", *(f"lost: {c}" for c in LOSS_CAUSES)],
                       [[r["preset"], r["policy"], r["runs"], r["win %"], r["95% interval"],
                         r["deepest"], r["members lost"],
                         *(r[f"lost: {c}"] for c in LOSS_CAUSES)] for r in rows]))  # fmt: skip
    comps = data["comparisons"]
    if comps:
        parts.append(table("Each variant against its base (same seeds; highlighted where the "
                           "95% interval leaves out 0)",
                           ["variant", "base", "policy", "difference", "95% interval", "p"],
                           [[c["preset"], c["base"], c["policy"], c["difference"],
                             tuple(c["interval"]), f"{c['p']:.3g}"] for c in comps],
                           [c["real"] for c in comps]))  # fmt: skip
    parts.append(table("The hazard per floor, % (lost / reached)",
                       ["preset", "policy", *(str(f["floor"]) for f in
                                              data["hazard"][0]["floors"])],
                       [[h["preset"], h["policy"],
                         *(f"{f['hazard %']:.1f} ({f['lost']}/{f['reached']})"
                           for f in h["floors"])] for h in data["hazard"]]))  # fmt: skip
    chart = {"rows": [{k: r[k] for k in ("preset", "policy", "win %", "95% interval", "runs")}
                      | {"lost": {c: r[f"lost: {c}"] for c in LOSS_CAUSES}} for r in rows],
             "hazard": data["hazard"], "sweeps": data.get("sweeps", [])}  # fmt: skip
    return page(title, "\n".join(parts), games, atlas, chart, CHARTS)


def write(path, data: dict, runs: list[dict], presets: list, cast: list, sources: dict,
          k: int = HTML_GAMES, title: str = "Delve playtest",
          intro: str | None = None) -> dict:  # fmt: skip
    """playtest.html at `path` (or a tune's page: `title`, `intro`), written whole; returns
    its size (`bytes`, `games`, their `steps`)."""
    from ..files import write_whole

    games, atlas = held_games(runs, presets, cast, sources, k)
    text = playtest_page(data, games, atlas, title, intro)
    write_whole(path, text)
    return {"bytes": len(text.encode()), "games": len(games),
            "steps": sum(len(g["steps"]) - 1 for g in games)}  # fmt: skip


CHARTS = r"""
const D = DATA.data, NS = "http://www.w3.org/2000/svg";
const COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
                "#8c8c8c", "#ccb974", "#64b5cd"];
function el(name, attrs, parent, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
function tip(e, text) { el("title", {}, e, text); }
const presets = [...new Set(D.rows.map(r => r.preset))];
const policies = [...new Set(D.rows.map(r => r.policy))];
function listGames(preset, policy) {  // the held games of one row, or of every row
  const box = document.getElementById("chosen");
  box.innerHTML = "";
  D.rows.forEach(r => {
    if (preset !== undefined && (r.preset !== preset || r.policy !== policy)) return;
    const line = document.createElement("div");
    line.textContent = `${r.preset}, ${r.policy}: `;
    box.appendChild(line);
    DATA.games.forEach((g, i) => {
      if (g.preset !== r.preset || g.policy !== r.policy) return;
      const a = document.createElement("a");
      a.textContent = (g.end.won ? "won" : `lost on floor ${g.end.floor} (${g.end.cause})`) +
                      `, seed ${g.seed}`;
      a.dataset.game = i;
      a.addEventListener("click", () => load(i));
      line.appendChild(a);
    });
    if (!line.querySelector("a")) line.appendChild(document.createTextNode("no game held"));
  });
}
function sweepChart() {  // win rate against the swept value, a line a (base, player)
  if (!D.sweeps.length) return;
  const w = 520, h = 260, x0 = 40, y0 = 10, pw = w - x0 - 150, ph = h - y0 - 40;
  const svg = el("svg", {width: w, height: h}, document.getElementById("wins"));
  const xs = D.sweeps.flatMap(l => l.values), lo = Math.min(...xs), hi = Math.max(...xs);
  const X = v => x0 + pw * (v - lo) / Math.max(1e-9, hi - lo), Y = v => y0 + ph * (1 - v / 100);
  [...new Set(xs)].forEach(v => el("text", {x: X(v) - 6, y: h - 22}, svg, `${v}`));
  el("text", {x: x0 + pw / 2 - 20, y: h - 6}, svg, D.sweeps[0].key);
  [0, 50, 100].forEach(v => el("text", {x: 4, y: Y(v) + 4}, svg, `${v}%`));
  D.sweeps.forEach((l, j) => {  // a tune's line: its target and the crossing's interval
    if (l.target === undefined) return;
    if (l.interval) el("rect", {x: X(l.interval[0]), y: y0, height: ph, class: "crossing",
                                width: Math.max(1, X(l.interval[1]) - X(l.interval[0])),
                                fill: "#dd8452", "fill-opacity": 0.25}, svg);
    const t = el("line", {x1: x0, x2: x0 + pw, y1: Y(l.target), y2: Y(l.target), class: "target",
                          stroke: "#c44e52", "stroke-dasharray": "4 3"}, svg);
    tip(t, `target ${l.target.toFixed(1)}%` + (l.crossing === null ? "" :
           `; crossed at ${l.key}=${l.crossing.toPrecision(4)}`));
  });
  D.sweeps.forEach((l, j) => {
    const color = COLORS[policies.indexOf(l.policy) % 10];
    el("polyline", {points: l.values.map((v, i) => `${X(v)},${Y(l["win %"][i])}`).join(" "),
                    fill: "none", stroke: color}, svg);
    el("text", {x: x0 + pw + 10, y: y0 + 14 * j + 10, style: `fill: ${color}`}, svg, l.label);
    l.values.forEach((v, i) => {
      const [a, b] = l.intervals[i];
      el("line", {x1: X(v), x2: X(v), y1: Y(a), y2: Y(b), stroke: color}, svg);
      const dot = el("circle", {cx: X(v), cy: Y(l["win %"][i]), r: 4, fill: color,
                                class: "mark", "data-value": v, "data-rate": l["win %"][i],
                                "data-low": a, "data-high": b}, svg);
      tip(dot, `${l.label} at ${l.key}=${v}: ${l["win %"][i].toFixed(1)}% (${a.toFixed(1)}-` +
               `${b.toFixed(1)})`);
    });
  });
}
function winChart() {  // a dot a (preset, player) with its interval
  const h = 22 * D.rows.length + 40, w = 720, x0 = 260, span = w - x0 - 20;
  const svg = el("svg", {width: w, height: h}, document.getElementById("wins"));
  [0, 25, 50, 75, 100].forEach(v => {
    el("line", {x1: x0 + span * v / 100, x2: x0 + span * v / 100, y1: 10, y2: h - 20,
                stroke: "#333"}, svg);
    el("text", {x: x0 + span * v / 100 - 8, y: h - 5}, svg, `${v}%`);
  });
  D.rows.forEach((r, i) => {
    const y = 24 + 22 * i, [lo, hi] = r["95% interval"];
    el("text", {x: 4, y: y + 4}, svg, `${r.preset}: ${r.policy}`);
    el("line", {x1: x0 + span * lo / 100, x2: x0 + span * hi / 100, y1: y, y2: y,
                stroke: COLORS[policies.indexOf(r.policy) % 10], "stroke-width": 2}, svg);
    const dot = el("circle", {cx: x0 + span * r["win %"] / 100, cy: y, r: 5, class: "mark",
                              fill: COLORS[policies.indexOf(r.policy) % 10],
                              "data-preset": r.preset, "data-policy": r.policy,
                              "data-win": r["win %"], "data-low": lo, "data-high": hi}, svg);
    tip(dot, `${r.preset}, ${r.policy}: ${r["win %"].toFixed(1)}% (${lo.toFixed(1)}-` +
             `${hi.toFixed(1)}) over ${r.runs} seeds`);
    dot.addEventListener("click", () => listGames(r.preset, r.policy));
  });
}
function hazardCharts() {  // small multiples: a panel a player, its presets overlaid
  const box = document.getElementById("hazard");
  policies.forEach(policy => {
    const w = 260, h = 180, x0 = 34, y0 = 20, pw = w - x0 - 10, ph = h - y0 - 30;
    const svg = el("svg", {width: w, height: h}, box);
    el("text", {x: x0, y: 12}, svg, policy);
    const mine = D.hazard.filter(c => c.policy === policy);
    const floors = Math.max(...mine.map(c => c.floors.length));
    const X = f => x0 + pw * f / Math.max(1, floors - 1), Y = v => y0 + ph * (1 - v / 100);
    [0, 50, 100].forEach(v => el("text", {x: 2, y: Y(v) + 4}, svg, `${v}%`));
    for (let f = 0; f < floors; f++) el("text", {x: X(f) - 3, y: h - 8}, svg, `${f}`);
    mine.forEach(c => {
      const color = COLORS[presets.indexOf(c.preset) % 10];
      el("polyline", {points: c.floors.map(f => `${X(f.floor)},${Y(f["hazard %"])}`).join(" "),
                      fill: "none", stroke: color}, svg);
      c.floors.forEach(f => {
        const [lo, hi] = f["95% interval"];
        el("line", {x1: X(f.floor), x2: X(f.floor), y1: Y(lo), y2: Y(hi), stroke: color}, svg);
        const dot = el("circle", {cx: X(f.floor), cy: Y(f["hazard %"]), r: 3.5, fill: color,
                                  class: "mark", "data-preset": c.preset, "data-policy": policy,
                                  "data-floor": f.floor, "data-hazard": f["hazard %"]}, svg);
        tip(dot, `${c.preset}, floor ${f.floor}: ${f["hazard %"].toFixed(1)}% ` +
                 `(${f.lost} of ${f.reached}; ${lo.toFixed(1)}-${hi.toFixed(1)})`);
        dot.addEventListener("click", () => listGames(c.preset, policy));
      });
    });
  });
}
function causeChart() {  // each row's losses by cause, stacked
  const causes = Object.keys(D.rows[0].lost), w = 720, x0 = 260, span = w - x0 - 20;
  const h = 22 * D.rows.length + 30;
  const svg = el("svg", {width: w, height: h}, document.getElementById("causes"));
  causes.forEach((c, j) => {
    el("rect", {x: x0 + 110 * j, y: 2, width: 10, height: 10, fill: COLORS[j + 3]}, svg);
    el("text", {x: x0 + 110 * j + 14, y: 11}, svg, c);
  });
  D.rows.forEach((r, i) => {
    const y = 20 + 22 * i;
    el("text", {x: 4, y: y + 12}, svg, `${r.preset}: ${r.policy}`);
    let at = 0;
    causes.forEach((c, j) => {
      const n = r.lost[c], bar = el("rect", {x: x0 + span * at / r.runs, y: y,
        width: span * n / r.runs, height: 14, fill: COLORS[j + 3], class: "mark",
        "data-preset": r.preset, "data-policy": r.policy, "data-cause": c, "data-lost": n}, svg);
      tip(bar, `${r.preset}, ${r.policy}: ${n} of ${r.runs} lost to ${c}`);
      bar.addEventListener("click", () => listGames(r.preset, r.policy));
      at += n;
    });
  });
}
document.querySelectorAll("table.sortable").forEach(t => {
  t.querySelectorAll("th").forEach((th, col) => th.addEventListener("click", () => {
    const body = t.tBodies[0], rows = [...body.rows], down = th.dataset.down !== "1";
    const key = r => { const s = r.cells[col].textContent, n = parseFloat(s);
                       return isNaN(n) ? s : n; };
    rows.sort((a, b) => (key(a) > key(b) ? 1 : key(a) < key(b) ? -1 : 0) * (down ? 1 : -1));
    th.dataset.down = down ? "1" : "0";
    rows.forEach(r => body.appendChild(r));
  }));
});
winChart(); sweepChart(); hazardCharts(); causeChart(); listGames();
"""
