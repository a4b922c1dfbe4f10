"""Delve throughput: steps per second with a random-legal policy, mask included.

A thin script over `delve_env.tools.bench` (the same measurement `delve bench` runs):

    python benchmarks/throughput.py                 # table: single env, vector N=1,64,1024,4096
                                                    # at 1 and all threads
    python benchmarks/throughput.py --seconds 1 --sizes 1,256
    python benchmarks/throughput.py --json          # one JSON object on stdout, nothing else
    python benchmarks/throughput.py --engine --cold # + bare Engine.step rows, cold compile time
    python benchmarks/throughput.py --peers --plot out.png  # + CartPole, MiniGrid (Crafter,
                                                    # NetHack if installed), ratios, bar chart
    python benchmarks/throughput.py --threads 1,4   # vector rows at 1 and 4 threads
"""

import sys

from delve_env.tools.bench import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
