"""`fewest bench sokoban --set FILE`: solve a collection level by level and print the table."""

from __future__ import annotations

from fewest.tui.bench.sokoban_anytime import anytime_solved, format_anytime_row, format_anytime_summary, read_known
from fewest.tui.bench.sokoban_set import BenchRow, BenchSummary, format_row, format_summary, run_collection
from fewest.tui.cli.batch_progress import BatchBar
from fewest.tui.cli.usage import UsageError


def run_collection_bench(
    path: str, metric: str, timeout: float, expected_csv: str | None = None, levels: str | None = None,
    jobs: int | None = None, scheduler: str | None = None, anytime: bool = False, known_csv: str | None = None,
) -> int:
    """The table (`anytime`: the anytime solver's, tui/bench/sokoban_anytime.py; else the
    proofs'), a row a level as it ends, then the totals."""
    chosen = None if levels is None else level_numbers(levels)
    only = "" if levels is None else f" --levels {levels}"
    only += "" if jobs is None else f" --jobs {jobs}"
    only += "" if scheduler is None else f" --scheduler {scheduler}"
    only += " --anytime" if anytime else ""
    only += "" if known_csv is None else f" --known {known_csv}"
    print(f"fewest bench sokoban --set {path} --metric {metric} --timeout {timeout:g}{only}")
    done: list[BenchRow] = []
    # (a bar for a run of many at once)
    bar = BatchBar(0 if jobs is None and scheduler is None else _count(path, chosen))

    def totals(summary: BenchSummary) -> str:
        return format_anytime_summary(summary, timeout) if anytime else format_summary(summary)

    def shown(row: BenchRow) -> None:
        done.append(row)
        print(format_anytime_row(row, metric) if anytime else format_row(row, metric), flush=True)
        bar.advance(row.status)

    try:
        with bar:
            summary = run_collection(
                path, metric=metric, timeout=timeout, on_row=shown, expected_csv=expected_csv, levels=chosen, jobs=jobs,
                scheduler=scheduler,
                solved=anytime_solved if anytime else None, known=read_known(known_csv) if known_csv else None,
            )
    except ValueError as exc:  # (another family's file, a level it lacks, a bad table, no scheduler: bad input)
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        # a long run stopped by hand still gets the totals of the levels it finished
        if done:
            print(f"{totals(BenchSummary(metric, tuple(done)))} (interrupted after {len(done)} levels)")
        raise
    print(totals(summary))
    # a wrong count first; then bad input (levels that did not read, each named in its row)
    return 1 if summary.mismatches else 2 if summary.unreadable else 0


def _count(path: str, chosen: set[int] | None) -> int:
    """How many levels the run solves (0 when the file does not read: the run says why)."""
    from fewest.levels import read_file_each

    if chosen is not None:
        return len(chosen)
    try:
        collection = read_file_each(path)
    except (ValueError, OSError):
        return 0
    return len(collection.entries) + len(collection.unreadable)


def level_numbers(text: str) -> set[int]:
    """`93,139-146` -> {93, 139, ..., 146}; a UsageError names what does not parse."""
    numbers: set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()) or int(low) < 1:
            raise UsageError(f"--levels: {part.strip()!r} is not a level number or a range like 3-7")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise UsageError(f"--levels: the range {part.strip()!r} runs backwards")
        numbers.update(range(first, last + 1))
    return numbers
