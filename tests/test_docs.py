"""The documented tables match the spaces they describe."""

import re

from delve_env import DelveEnv
from delve_env.engine.actions import NUM_ACTIONS, action_name


def test_env_docstring_action_table_matches_the_action_space():
    doc = DelveEnv.__doc__
    assert f"`Discrete({NUM_ACTIONS})`" in doc
    last = 0
    for first, end, text in re.findall(r"\| (\d+)(?:-(\d+))? \| ([^|]+) \|", doc):
        first, end = int(first), int(end or first)
        assert first == last, f"the table skips or repeats index {last}"
        word = text.split()[0].lower()
        assert word in action_name(first).lower() or word in ("member", "wall"), (first, text)
        last = end + 1
    assert last == NUM_ACTIONS


def test_env_docstring_observation_shapes_match_the_space():
    env = DelveEnv()
    for key, box in env.observation_space.spaces.items():
        shape = " x ".join(map(str, box.shape))
        doc = DelveEnv.__doc__
        assert f"`{key}`" in doc and shape in doc[doc.index(f"`{key}`") :], key


def test_observation_doc_is_the_generated_layout_table():
    """docs/OBSERVATION.md carries `layout.markdown()` as generated from the code."""
    from pathlib import Path

    from delve_env.engine.layout import markdown

    page = (Path(__file__).resolve().parents[1] / "docs" / "OBSERVATION.md").read_text()
    marker = "<!-- generated below -->\n"
    assert page.split(marker, 1)[1] == markdown(), (
        "regenerate the table: python -m delve_env.engine.layout"
    )


def test_config_doc_is_the_generated_tunables_table_and_names_every_key():
    from pathlib import Path

    from delve_env.config import KEYS, markdown

    page = (Path(__file__).resolve().parents[1] / "docs" / "CONFIG.md").read_text()
    marker = "<!-- generated below -->\n"
    assert page.split(marker, 1)[1] == markdown(), (
        "regenerate the table: python -c 'from delve_env.config import markdown; "
        'print(markdown(), end="")\''
    )
    for key in KEYS:
        assert f"`{key}`" in page, key
