"""The documented tables match the spaces they describe."""

import re

from delve_env import DelveEnv
from delve_env.engine.core.actions import NUM_ACTIONS, docstring_table
from delve_env.engine.core.actions import markdown as actions_markdown


def test_env_docstring_action_table_is_the_generated_table():
    """The DelveEnv docstring's action table is `actions.docstring_table()`, and its rows cover
    every index once, in order."""
    doc = DelveEnv.__doc__
    assert f"`Discrete({NUM_ACTIONS})`" in doc
    table = docstring_table()
    assert table.replace("\n", "\n    ") in doc
    last = 0
    for first, end in re.findall(r"\| (\d+)(?:-(\d+))? \| [^|]+ \|", table):
        first, end = int(first), int(end or first)
        assert first == last, f"the table skips or repeats index {last}"
        last = end + 1
    assert last == NUM_ACTIONS


def test_actions_doc_is_the_generated_families_table():
    """docs/ACTIONS.md is `actions.markdown()` as generated from `actions.FAMILIES`."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "ACTIONS.md").read_text()
    assert page == actions_markdown(), (
        "regenerate it: python -m delve_env.engine.core.actions > docs/ACTIONS.md"
    )


def test_env_docstring_observation_shapes_match_the_space():
    env = DelveEnv()
    for key, box in env.observation_space.spaces.items():
        shape = " x ".join(map(str, box.shape))
        doc = DelveEnv.__doc__
        assert f"`{key}`" in doc and shape in doc[doc.index(f"`{key}`") :], key


def test_observation_doc_is_the_generated_layout_table():
    """docs/OBSERVATION.md carries `layout.markdown()` as generated from the code."""
    from pathlib import Path

    from delve_env.engine.outputs.layout import markdown

    page = (Path(__file__).resolve().parents[1] / "docs" / "OBSERVATION.md").read_text()
    marker = "<!-- generated below -->\n"
    assert page.split(marker, 1)[1] == markdown(), (
        "regenerate the table: python -m delve_env.engine.outputs.layout"
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
