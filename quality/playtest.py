"""Playtest difficulty: the scripted expert (and any trained policies) over many seeds of each
preset; a markdown table, the DIFF-1 ladder, and with --out a PNG and the raw runs.

A thin script over `delve_env.tools.playtest` (the same report `delve playtest` prints):

    python quality/playtest.py --seeds 500 --out docs/playtest        # easy, normal, hard
    python quality/playtest.py --presets normal --set guard_chance=0.9 --seeds 200
    python quality/playtest.py --preset-file brutal.json --policy scripted --policy random
"""

import argparse
import sys

from delve_env.tools.playtest import add_arguments, run

if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="playtest", description=__doc__.splitlines()[0])
    add_arguments(parser)
    sys.exit(run(parser.parse_args(sys.argv[1:])))
