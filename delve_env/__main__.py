"""`python -m delve_env` runs the `delve` command line."""

import sys

from .tools.cli import main

sys.exit(main())
