"""The `delve` command line and what it runs: benchmarks, playtests, replays, the soak (the
runner of delve_env/checks/)."""
