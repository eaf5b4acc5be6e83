"""`fewest bench sokoban --set FILE`: solve a collection level by level and print the table."""

from __future__ import annotations

from fewest.solvers.sokoban_bench import format_row, format_summary, run_collection


def run_collection_bench(path: str, metric: str, timeout: float, expected_csv: str | None = None) -> int:
    print(f"fewest bench sokoban --set {path} --metric {metric} --timeout {timeout:g}")
    summary = run_collection(
        path,
        metric=metric,
        timeout=timeout,
        on_row=lambda row: print(format_row(row), flush=True),
        expected_csv=expected_csv,
    )
    print(format_summary(summary))
    return 1 if summary.mismatches else 0
