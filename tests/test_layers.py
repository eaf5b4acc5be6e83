"""The layers hold and no module imports itself round a cycle.

engine imports nothing of the project; levels and solvers import only engine (and
themselves); tui may import all. Every import counts, those inside functions too
(a lazy import is still a dependency), read from the source with ast.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from tests.paths import ROOT

PACKAGES = ("engine", "levels", "solvers", "tui")
MAY_IMPORT = {
    "engine": {"engine"},
    "levels": {"engine", "levels"},
    "solvers": {"engine", "solvers"},
    "tui": {"engine", "levels", "solvers", "tui"},
}


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found["fewest." + ".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The project modules `name` imports (a `from X import Y` names X.Y when Y is a module)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package
                package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
                for _ in range(node.level - 1):
                    package = package.rsplit(".", 1)[0]
                base = f"{package}.{base}" if base else package
            for alias in node.names:
                out.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {module for module in out if module in MODULES and module != name}


@functools.cache
def graph() -> dict[str, set[str]]:
    """Each module's project imports (read when a test asks: every worker collects this file)."""
    return {name: _imports(name, path) for name, path in MODULES.items()}


def test_the_modules_are_found():
    assert "fewest.engine.sokoban" in MODULES and "fewest.solvers.sokoban.searches.push" in MODULES
    assert "fewest.levels.files" in graph()["fewest.tui.cli.main"] or any(
        m.startswith("fewest.levels") for m in graph()["fewest.tui.cli.main"]
    )


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_imports_only_the_layers_below_it(package):
    wrong = [
        f"{name} imports {target}"
        for name, targets in graph().items()
        if name.split(".")[1] == package
        for target in sorted(targets)
        if target.split(".")[1] not in MAY_IMPORT[package]
    ]
    assert not wrong, "\n".join(wrong)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's method)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    parts: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.append(member)
                if member == node:
                    break
            if len(part) > 1:
                parts.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return parts


def test_no_import_cycles():
    assert _cycles(graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
