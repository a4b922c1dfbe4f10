"""The long reliability runs: `python quality/soak.py --help` (delve_env/tools/soak.py)."""

import sys

from delve_env.tools.soak import main

if __name__ == "__main__":
    sys.exit(main())
