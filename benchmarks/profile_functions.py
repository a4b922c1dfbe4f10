"""Where the compiled step's time goes, by function: `perf` samples of a random-legal run, named
after the numba functions they fell in.

    python benchmarks/profile_functions.py                  # N=1024, 10 s, top 30
    python benchmarks/profile_functions.py --num-envs 4096 --seconds 5 --top 50

Needs Linux `perf` allowed to attach to its parent (root, or kernel.perf_event_paranoid <= 1).
Numba keeps the symbol table of the machine code only for what it compiles in this process, so
the engine is compiled afresh into a scratch cache first (minutes). The run is
`profile_step.py`'s (the rules and the outputs, as `Engine.step`) on games already under way;
perf samples only that run (not the games' first reset), and learns the functions' addresses
from /tmp/perf-<pid>.map. An inlined function counts in its caller; numba's reference
counting shows as NRT_incref / NRT_decref.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SCRATCH = tempfile.mkdtemp(prefix="delve-numba-")
os.environ["NUMBA_CACHE_DIR"] = SCRATCH  # before numba is imported: a fresh compile

import profile_step  # noqa: E402  (this folder; imports numba)
from numba.core.registry import CPUDispatcher  # noqa: E402
from numba.core.runtime import nrt  # noqa: E402

from delve_env.tools.bench import new_engine  # noqa: E402


def _readable(symbol: str) -> str:
    """`module.function` from numba's mangled name (_ZN9delve_env6engine6travel11first_steps...)."""
    rest, parts = symbol[3:] if symbol.startswith("_ZN") else "", []
    while rest[:1].isdigit():
        digits = re.match(r"\d+", rest).group()
        n, rest = int(digits), rest[len(digits) :]
        parts.append(rest[:n])
        rest = rest[n:]
    parts = [p for p in parts if p not in ("delve_env", "engine", "cpython")]
    return ".".join(parts[-2:]) if parts else symbol


def write_perf_map() -> int:
    """/tmp/perf-<pid>.map: every function of every library compiled in this process."""
    # the engine imported every module it compiled: read them off sys.modules
    modules = [profile_step] + [m for name, m in list(sys.modules.items())
                                if name.startswith("delve_env.")]  # fmt: skip
    libraries = {}
    for obj in (obj for module in modules for obj in vars(module).values()):
        if isinstance(obj, CPUDispatcher):
            for compiled in obj.overloads.values():
                libraries[id(compiled.library)] = compiled.library
    symbols = {}
    for library in libraries.values():
        try:
            machine_code = library._get_compiled_object()
        except RuntimeError:  # never compiled in this process
            continue
        with tempfile.NamedTemporaryFile(suffix=".o") as f:
            f.write(machine_code)
            f.flush()
            table = subprocess.run(["nm", "--defined-only", "-S", f.name], capture_output=True,
                                   text=True, check=True).stdout  # fmt: skip
        for line in table.splitlines():
            fields = line.split()
            if len(fields) == 4 and fields[2] in "tT":
                address = library.get_pointer_to_function(fields[3])
                if address:
                    symbols[address] = (int(fields[1], 16), _readable(fields[3]))
    for name in ("NRT_incref", "NRT_decref"):
        symbols[nrt.rtsys.library.get_pointer_to_function(name)] = (16, name)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for address, (size, name) in sorted(symbols.items()):
            f.write(f"{address:x} {size:x} {name}\n")
    return len(symbols)


def sample(num_envs: int, seconds: float) -> list[tuple[str, str]]:
    """(share %, function) of perf's samples over `seconds` of profile_step's run, largest first."""
    engine = new_engine(num_envs)  # its resets fall outside perf's window
    profile_step.profile(num_envs, 0.5, engine=engine)  # compiles, walks the games on a while
    print(f"{write_perf_map()} compiled functions mapped; sampling...", file=sys.stderr)
    data = os.path.join(SCRATCH, "perf.data")
    perf = subprocess.Popen(["perf", "record", "-F", "999", "-p", str(os.getpid()), "-o", data],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    time.sleep(1.0)  # perf attaches
    profile_step.profile(num_envs, seconds, engine=engine)
    perf.send_signal(signal.SIGINT)
    perf.wait()
    report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "sym",
                             "--stdio"], capture_output=True, text=True).stdout  # fmt: skip
    return re.findall(r"^\s+([\d.]+)%\s+\[[.k]\]\s+(.+?)\s*$", report, re.MULTILINE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    try:
        if shutil.which("perf") is None or shutil.which("nm") is None:
            print("needs `perf` and `nm` (binutils) on the PATH", file=sys.stderr)
            return 2
        print("compiling the engine into a scratch cache (minutes)...", file=sys.stderr)
        rows = sample(args.num_envs, args.seconds)
    finally:  # the scratch cache and the map are this run's alone
        shutil.rmtree(SCRATCH, ignore_errors=True)
        with contextlib.suppress(FileNotFoundError):
            os.remove(f"/tmp/perf-{os.getpid()}.map")
    print(f"share of all samples, N={args.num_envs}, one thread, {args.seconds:g} s")
    for share, name in rows[: args.top]:
        print(f"{float(share):6.2f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
