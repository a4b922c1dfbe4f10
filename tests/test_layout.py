"""The package's layout: no import cycle between its modules, and the tests import nothing
from benchmarks/ or quality/ (they import the package, never the other way round)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "delve_env"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every delve_env module that `path` imports, at the top or inside a function."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:  # `from . import replay` names a module
                found.add(f"{base}.{alias.name}")
            found.add(base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m.startswith("delve_env")}


def graph() -> dict[str, set[str]]:
    mods = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {m: {d for d in imports(p) if d in mods and d != m} for m, p in mods.items()}


def find_cycle(g: dict[str, set[str]]) -> list[str]:
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for d in sorted(g[m]):
            # a package's __init__ importing its own modules is how packages work
            if m.startswith(d + "."):
                continue
            if state.get(d) == "open":
                return stack[stack.index(d) :] + [d]
            if d not in state and (cycle := visit(d)):
                return cycle
        stack.pop()
        state[m] = "done"
        return []

    for m in sorted(g):
        if m not in state and (cycle := visit(m)):
            return cycle
    return []


def test_no_import_cycle_in_the_package():
    assert find_cycle(graph()) == []


def test_negative_control_a_cycle_is_found():
    g = graph()
    g["delve_env.ui.text"].add("delve_env.ui.picture")  # picture already imports text
    assert find_cycle(g)


def test_tests_import_nothing_from_benchmarks_or_quality():
    for path in Path(__file__).parent.glob("*.py"):
        text = path.read_text()
        assert not {"benchmarks", "quality"} & {m.split(".")[0] for m in _top_imports(text)}, (
            path.name
        )
        assert "sys.path.insert" not in text or path.name == Path(__file__).name, path.name


def _top_imports(text: str) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out
