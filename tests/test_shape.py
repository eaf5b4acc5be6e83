"""The code keeps its readable shape: no function in solvers/ over about 100 lines."""

import ast

from tests.paths import ROOT

LONGEST = 100


def test_no_solver_function_is_over_a_hundred_lines():
    long = []
    for path in sorted((ROOT / "solvers").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > LONGEST:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, "\n".join(long)
