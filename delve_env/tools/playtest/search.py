"""The value of one rule number at which a player's rate crosses a target (`delve tune`).

Every probe plays the same seeds, so two probes differ only by the value and each seed's
outcome at one value is paired with its outcome at every other. The rate is taken to be
monotone in the value; between the probes it is read off the isotonic fit (pool adjacent
violators), read on a straight line of the log-odds between the two probes around
the target. The crossing's 95% interval is a bootstrap over the seeds:
a seed drawn takes its outcomes at every probe with it, which keeps the pairing, so the
interval holds the seeds' dice (a search over values cannot narrow it past what its seeds
allow: more seeds can). A player trained for every value (the adapted player) is several
training runs a probe; the bootstrap then draws the runs too (run i at every probe, as run i
of each value starts from run i of its neighbour), and the interval holds their spread.

The ends of the range and its middle are probed first (a curve that dips between its ends is
caught there); the next value probed is where the crossing is believed to be (regula falsi on the fit), kept
half a tolerance inside the two probes that bracket the target, so each probe narrows the
bracket. An integer key ends on the two neighbouring values whose rates bracket the target;
another key when its bracket is at most the tolerance wide (so the straight line read between
them cannot be far off) and the interval is narrower than the tolerance too. The search also
stops when the budget of games would be spent by another probe, or when two neighbouring
probes are ordered against the trend beyond their paired interval (not monotone: said, with
where).

The probes are a `play(value) -> Outcome` the caller gives, so the search runs on the game
(tools/playtest/tune.py) and on synthetic players with a known curve (the tests) alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...stats import paired_difference, pairs, runs_interval, t_quantile, wilson

BOOTSTRAP = 400  # resamples of the seeds (and runs) for the crossing's interval


@dataclass
class Outcome:
    """One probe's games, seed by seed (the same seeds, in the same order, at every probe),
    a row for each training run of a player trained for every value (one row for the rest):
    `hits` of `tries` (a win of a game, or a loss on a floor of the games that reached it;
    `tries` all ones for a win rate)."""

    hits: np.ndarray  # (runs, seeds)
    tries: np.ndarray

    def __post_init__(self):
        self.hits = np.atleast_2d(np.asarray(self.hits, dtype=np.int64))
        self.tries = np.atleast_2d(np.asarray(self.tries, dtype=np.int64))

    @classmethod
    def wins(cls, won) -> Outcome:
        won = np.asarray(won, dtype=np.int64)
        return cls(won, np.ones_like(won))

    @property
    def runs(self) -> int:
        return self.hits.shape[0]

    @property
    def games(self) -> int:
        return self.hits.size

    def rate(self, idx: np.ndarray | None = None, runs: np.ndarray | None = None) -> float:
        """The rate over the seeds `idx` (default all) of the runs `runs` (default all)."""
        h, t = self.hits, self.tries
        if runs is not None:
            h, t = h[runs], t[runs]
        if idx is not None:
            h, t = h[:, idx], t[:, idx]
        return float(h.sum() / t.sum()) if t.sum() else float("nan")

    def run_rates(self) -> list[float]:
        return [self.rate(runs=[r]) for r in range(self.runs)]

    def interval(self) -> tuple[float, float]:
        """Wilson's of one run's games; over several runs, the t interval of their rates
        (which holds the spread between runs as well as the seeds' dice)."""
        if self.runs == 1:
            return wilson(int(self.hits.sum()), int(self.tries.sum()))
        return runs_interval([r for r in self.run_rates() if r == r])


@dataclass
class Search:
    """What a search found; `probes` maps each value played to its outcome."""

    key: str
    target: float
    low: float
    high: float
    integer: bool
    tolerance: float
    probes: dict = field(default_factory=dict)
    crossing: float | None = None
    interval: tuple[float, float] | None = None
    bracket: tuple | None = None  # an integer key's neighbouring values around the target
    verdict: str = ""  # "found", "outside", "not monotone", "budget", "seeds"
    note: str = ""
    curve: list = field(default_factory=list)  # (value, fitted rate) of the final fit

    def ordered(self) -> list:
        return sorted(self.probes)

    def games(self) -> int:
        return sum(o.games for o in self.probes.values())


def isotonic(ys: np.ndarray, increasing: bool) -> np.ndarray:
    """The least-squares monotone fit of `ys` (equal weights): pool adjacent violators."""
    ys = np.asarray(ys, dtype=float) if increasing else -np.asarray(ys, dtype=float)
    blocks: list[list] = []  # [mean, count]
    for y in ys:
        blocks.append([y, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            (m2, n2), (m1, n1) = blocks.pop(), blocks.pop()
            blocks.append([(m1 * n1 + m2 * n2) / (n1 + n2), n1 + n2])
    fit = np.concatenate([np.full(n, m) for m, n in blocks])
    return fit if increasing else -fit


def logit(p: float, n: int) -> float:
    """The log-odds of a rate of n games, kept half a game inside 0 and 1."""
    p = min(max(p, 0.5 / n), 1 - 0.5 / n)
    return float(np.log(p / (1 - p)))


def cross(xs: list, fit: np.ndarray, target: float, n: int) -> float | None:
    """Where the monotone `fit` over `xs` (rates of `n` games) meets `target`, read on a
    straight line of the log-odds between the two probes around it (a logistic curve's own
    shape); None when the target lies outside the fitted rates."""
    for i in range(len(xs) - 1):
        a, b = fit[i] - target, fit[i + 1] - target
        if a == 0 and b == 0:
            return (xs[i] + xs[i + 1]) / 2
        if a == 0:
            return float(xs[i])
        if a * b < 0:
            la, lb, lt = logit(fit[i], n), logit(fit[i + 1], n), logit(target, n)
            share = (lt - la) / (lb - la) if lb != la else 0.5
            return float(xs[i] + min(max(share, 0.0), 1.0) * (xs[i + 1] - xs[i]))
    if len(xs) and fit[-1] == target:
        return float(xs[-1])
    return None


def crossing_at(xs: list, rates: list, target: float, increasing: bool, games: int) -> float:
    """Where the monotone fit of `rates` meets `target`; past the end the rates do not reach
    the target at, the crossing is taken to lie at that end."""
    fit = isotonic(rates, increasing)
    c = cross(xs, fit, target, games)
    if c is None:
        c = xs[-1] if (fit[-1] < target) == increasing else xs[0]
    return c


def estimate(search: Search, increasing: bool, rng: np.random.Generator):
    """(the crossing, its 95% interval, the fitted rates) from the probes so far.

    The interval is a bootstrap over the seeds (and the training runs, where a probe has
    several); with several runs it is widened to hold the crossing plus or minus Student's t
    over the runs' own crossings (a bootstrap of three runs sees too little of their spread:
    in simulation it held a known crossing in 74-88% of tunes where this holds it in 94-96%)."""
    xs = search.ordered()
    outs = [search.probes[x] for x in xs]
    fit = isotonic([o.rate() for o in outs], increasing)
    runs, n, games = outs[0].hits.shape + (outs[0].games,)
    point = cross(xs, fit, search.target, games)
    draws = []
    for _ in range(BOOTSTRAP):
        idx = rng.integers(0, n, n)
        picked = rng.integers(0, runs, runs) if runs > 1 else None
        rates = [o.rate(idx, picked) for o in outs]
        draws.append(crossing_at(xs, rates, search.target, increasing, games))
    low, high = (float(v) for v in np.percentile(draws, [2.5, 97.5]))
    if runs > 1 and point is not None:
        each = [crossing_at(xs, [o.rate(runs=[r]) for o in outs], search.target, increasing, n)
                for r in range(runs)]  # fmt: skip
        half = t_quantile(runs - 1) * float(np.std(each, ddof=1)) / np.sqrt(runs)
        low, high = min(low, point - half), max(high, point + half)
    return point, (low, high), fit


def reversal(search: Search, increasing: bool) -> str:
    """Two neighbouring probes ordered against the trend beyond their paired 95% interval,
    said in words; "" when there are none."""
    xs = search.ordered()
    for a, b in zip(xs, xs[1:]):
        pa, pb = search.probes[a], search.probes[b]
        if pa.runs > 1 or not (pa.tries == 1).all() or not (pb.tries == 1).all():
            low, high = _ratio_difference(pb, pa)
        else:
            _, low, high = paired_difference(pairs(list(pb.hits[0] > 0), list(pa.hits[0] > 0)))
        against = high < 0 if increasing else low > 0
        if against:
            return (f"the rate {'falls' if increasing else 'rises'} from {100 * pa.rate():.1f}% "
                    f"at {search.key}={a} to {100 * pb.rate():.1f}% at {b} (paired 95% interval "
                    f"{100 * low:+.1f} to {100 * high:+.1f} points), against its trend over "
                    f"the range")  # fmt: skip
    return ""


def _ratio_difference(b: Outcome, a: Outcome, rng=None) -> tuple[float, float]:
    """A paired bootstrap interval of b's rate minus a's where the tries differ by seed (a
    floor's hazard) or there are several training runs (resampled too, run i of one value
    with run i of the other: each later value's run i starts from run i of its neighbour)."""
    rng = rng or np.random.default_rng(0)
    runs, n = a.hits.shape
    d = []
    for _ in range(BOOTSTRAP):
        idx = rng.integers(0, n, n)
        picked = rng.integers(0, runs, runs) if runs > 1 else None
        d.append(b.rate(idx, picked) - a.rate(idx, picked))
    d = [x for x in d if x == x]
    return (float(np.percentile(d, 2.5)), float(np.percentile(d, 97.5))) if d else (-1.0, 1.0)


def snap(value: float, search: Search) -> float:
    """A value as probed: an integer for an integer key, else rounded to a tenth of the
    tolerance, inside the range."""
    value = min(max(value, search.low), search.high)
    if search.integer:
        return int(round(value))
    digits = max(0, int(-np.floor(np.log10(search.tolerance / 10))))
    return round(float(value), digits)


def tune(play, key: str, low: float, high: float, target: float, probe_games: int, budget: int,
         integer: bool, tolerance: float | None = None, seed: int = 0,
         on_probe=None) -> Search:  # fmt: skip
    """Search `key` over [low, high] for the value where `play(value)`'s rate crosses
    `target` (module docstring). `probe_games` games a probe (seeds times training runs),
    `budget` games in all (at least three probes); `tolerance` the width of the crossing's
    interval to stop at (default: one step for an integer key, a tenth of the range for
    another). `on_probe(search)` after each."""
    if budget < 3 * probe_games:
        raise ValueError(
            f"a budget of {budget} games is under the first 3 probes' {3 * probe_games}"
        )
    tolerance = (1.0 if integer else (high - low) / 10) if tolerance is None else tolerance
    search = Search(key, target, low, high, integer, tolerance)
    rng = np.random.default_rng(seed)

    def probe(value):
        search.probes[value] = play(value)
        if on_probe is not None:
            on_probe(search)

    for value in (low, high, (low + high) / 2):  # the middle too: a dip between the ends
        if snap(value, search) not in search.probes:
            probe(snap(value, search))
    r_low, r_high = (
        search.probes[snap(low, search)].rate(),
        search.probes[snap(high, search)].rate(),
    )
    increasing = r_high > r_low
    search.curve = [(x, search.probes[x].rate()) for x in search.ordered()]
    turned = reversal(search, increasing)
    rates = [r for _, r in search.curve]
    if turned or not min(rates) <= target <= max(rates):
        search.verdict = "not monotone" if turned else "outside"
        search.note = turned or (f"the target {100 * target:.1f}% lies outside the range: "
                                 f"{100 * r_low:.1f}% at {key}={snap(low, search)}, "
                                 f"{100 * r_high:.1f}% at {key}={snap(high, search)}")  # fmt: skip
        return search
    while True:
        point, interval, fit = estimate(search, increasing, rng)
        search.crossing, search.interval = point, interval
        search.curve = list(zip(search.ordered(), fit))
        turned = reversal(search, increasing)
        if turned:
            search.verdict, search.note = "not monotone", turned
            return search
        xs = search.ordered()
        # the last value probed before the fit passes the target, and the first past it
        past = [(f >= target) == increasing and f != target for _, f in search.curve]
        first = past.index(True)
        a, b = xs[max(first - 1, 0)], xs[max(first, 1)]
        search.bracket = (a, b)
        if integer:
            if b - a <= 1:
                search.verdict = "found"
                return search
            nxt = min(max(snap(point, search), a + 1), b - 1)
        elif b - a <= tolerance:
            search.verdict = "found" if interval[1] - interval[0] < tolerance else "seeds"
            if search.verdict == "seeds":
                runs = search.probes[a].runs
                held = ("the seeds' own dice: more seeds (--seeds)" if runs == 1 else
                        "the seeds' dice and the training runs' spread: more seeds (--seeds) "
                        "or runs (--adapt-runs)")  # fmt: skip
                search.note = (f"the crossing's interval ({interval[1] - interval[0]:.3g} wide) "
                               f"is {held} narrow it, more values do not")  # fmt: skip
            return search
        else:
            # where the crossing is believed to be, but at least half a tolerance inside the
            # bracket, so that every probe narrows it
            nxt = snap(min(max(point, a + tolerance / 2), b - tolerance / 2), search)
        if search.games() + probe_games > budget:
            search.verdict = "budget"
            search.note = f"the budget of {budget} games is spent ({search.games()} played)"
            return search
        probe(nxt)


# --- two keys: where the target's contour runs ------------------------------------------------


@dataclass
class Map:
    """A two-key search: the grid's values of each key, the cells played (their outcomes),
    and for every cell the side of the target it lies on (True: the rate is at or above the
    target; None: not yet known)."""

    keys: tuple
    grids: tuple  # the values of each key
    target: float
    probes: dict = field(default_factory=dict)  # (i, j) -> Outcome
    side: dict = field(default_factory=dict)  # (i, j) -> bool, for every cell known
    verdict: str = ""

    def games(self) -> int:
        return sum(o.games for o in self.probes.values())

    def rates(self) -> np.ndarray:
        out = np.full([len(g) for g in self.grids], np.nan)
        for (i, j), o in self.probes.items():
            out[i, j] = o.rate()
        return out


def grid_values(low: float, high: float, integer: bool, points: int = 5) -> list:
    """The values of one key on the map: every integer of a short range, else `points`
    evenly spaced values with both ends."""
    if integer and high - low + 1 <= points + 2:
        return list(range(int(low), int(high) + 1))
    values = np.linspace(low, high, points)
    return (
        sorted({int(round(v)) for v in values}) if integer else [round(float(v), 6) for v in values]
    )


def tune_map(play, keys: tuple, grids: tuple, target: float, cap: int) -> Map:
    """The side of `target` every cell of the two keys' grid lies on, playing at most `cap`
    cells. The rate is taken to be monotone in each key (its direction read off the
    corners): a cell's rate is then bounded by the cells played that are harder and easier
    than it in both keys, and where both bounds lie on one side of the target its side is
    known without playing it. The corners are played first, then, while any cell's side is
    unknown, the unknown cell whose bounds are widest (nearest the middle of the unknown
    region where they tie). `play((a, b)) -> Outcome`."""
    m = Map(tuple(keys), tuple(grids), target)
    n0, n1 = len(grids[0]), len(grids[1])

    def run(i, j):
        if (i, j) not in m.probes:
            m.probes[(i, j)] = play((grids[0][i], grids[1][j]))

    for i, j in ((0, 0), (n0 - 1, 0), (0, n1 - 1), (n0 - 1, n1 - 1)):
        run(i, j)
    r = m.rates()
    # each key's direction: +1 where the rate rises with it, -1 where it falls
    up0 = 1 if r[n0 - 1, 0] + r[n0 - 1, n1 - 1] >= r[0, 0] + r[0, n1 - 1] else -1
    up1 = 1 if r[0, n1 - 1] + r[n0 - 1, n1 - 1] >= r[0, 0] + r[n0 - 1, 0] else -1
    while True:
        bounds = {}
        for i in range(n0):
            for j in range(n1):
                if (i, j) in m.probes:
                    m.side[(i, j)] = m.probes[(i, j)].rate() >= target
                    continue
                low, high = 0.0, 1.0
                for (a, b), o in m.probes.items():
                    below = (a - i) * up0 <= 0 and (b - j) * up1 <= 0  # no easier in either key
                    above = (a - i) * up0 >= 0 and (b - j) * up1 >= 0
                    if below:
                        low = max(low, o.rate())
                    if above:
                        high = min(high, o.rate())
                if low >= target:
                    m.side[(i, j)] = True
                elif high < target:
                    m.side[(i, j)] = False
                else:
                    m.side.pop((i, j), None)
                    bounds[(i, j)] = high - low
        if not bounds:
            m.verdict = "mapped"
            return m
        if len(m.probes) >= cap:
            m.verdict = "cap"
            return m
        widest = max(bounds.values())
        ties = [c for c, w in bounds.items() if w == widest]
        middle = np.mean(ties, axis=0)
        i, j = min(ties, key=lambda c: (abs(c[0] - middle[0]) + abs(c[1] - middle[1]), c))
        run(i, j)
