"""Playtest difficulty: the scripted expert (and any other players) over many seeds of each
preset and variant; a markdown table, each variant against its base, DIFF-1, and with --out a
PNG and the raw runs.

A thin script over `delve_env.tools.playtest` (the same report `delve playtest` prints):

    python quality/playtest.py --seeds 500 --out docs/playtest        # easy, normal, hard
    python quality/playtest.py --presets normal --set guard_chance=0.9 --seeds 200
    python quality/playtest.py --preset-file brutal.json --policy scripted --policy random
    python quality/playtest.py --presets easy --sweep band_size=2,4,6 --policy ladder --adapt
"""

import argparse
import sys

from delve_env.tools.playtest import add_arguments, run

if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="playtest", description=__doc__.splitlines()[0])
    add_arguments(parser)
    sys.exit(run(parser.parse_args(sys.argv[1:])))
