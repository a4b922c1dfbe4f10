"""Numba's plumbing: the engine's njit and the compiled view of the state."""
