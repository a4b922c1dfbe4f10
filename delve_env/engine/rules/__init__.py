"""The rules, one module per mechanic: each a few compiled functions of (state, params, env)."""
