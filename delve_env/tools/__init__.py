"""The `delve` command line and what it runs: benchmarks, playtests, replays, the soak and its
invariant checker."""
