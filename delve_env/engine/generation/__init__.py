"""The dungeon's generation: floors, where the features stand, the whole dungeon of a run."""
