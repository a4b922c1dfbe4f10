"""Checks of the engine that the tests, the soak (`delve soak`, delve_env/tools/soak.py) and
users share, one job a module:

invariants   the state invariants (`InvariantChecker`), checked after every step; whether a
             step touched the state (`state_copy`, `state_diff`)
outputs      what the Gymnasium layer hands out: observations in the space, a vector step's
             rewards, flags, masks and episode stats
incremental  the observation and mask a step kept from its dirty parts against a full
             recompute from the state, byte for byte
determinism  the determinism digests: the stateless legal policy, per-seed sha256 over a
             game's records, the golden runs
generation   every floor of a generated dungeon connected and well formed
"""
