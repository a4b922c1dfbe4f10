"""The action table (engine/actions.FAMILIES): every index in one family, the constants and
arrays derived from it, and the indices the API promises."""

import numpy as np

from delve_env.engine.core import actions
from delve_env.engine.core.actions import (
    A_AUTOFIGHT,
    A_SELECT,
    A_STAIRS,
    ACTION_NAMES,
    ARG,
    FAMILIES,
    FAMILY,
    FIRSTS,
    NUM_ACTIONS,
    TIMED,
    family_name,
    select_action,
)


def test_every_index_is_one_action_of_one_family():
    assert NUM_ACTIONS == 257 == len(ACTION_NAMES) == len(FAMILY) == len(ARG) == len(TIMED)
    assert len({f.key for f in FAMILIES}) == len(FAMILIES)
    for i, f in enumerate(FAMILIES):
        first = getattr(actions, f"A_{f.key}")
        assert first == FIRSTS[i] and getattr(actions, f"F_{f.key}") == i
        assert list(FAMILY[first : first + f.size]) == [i] * f.size
        assert list(ARG[first : first + f.size]) == list(range(f.size))
        assert all(TIMED[first : first + f.size] == f.timed)
        names = [family_name(f, k) for k in range(f.size)]
        assert tuple(names) == ACTION_NAMES[first : first + f.size] and f.doc and f.where
    assert FIRSTS[-1] + FAMILIES[-1].size == NUM_ACTIONS
    assert np.all(np.diff(FAMILY) >= 0)


def test_the_indices_the_api_names_stay_put():
    """README's `env.step(6)` takes the stairs; autofight is the last index."""
    assert A_STAIRS == 6 and ACTION_NAMES[6] == "take the stairs"
    assert A_AUTOFIGHT == NUM_ACTIONS - 1 and ACTION_NAMES[-1] == "autofight"
    assert select_action(1, 3) == A_SELECT + 14 and ACTION_NAMES[A_SELECT + 14].endswith(
        "member 2's pack slot 1"
    )
