"""The options of a run of many levels, for `solve` and `bench sokoban --set` (argparse only:
`fewest` builds its parser at every start, and these import nothing more)."""

from __future__ import annotations

import argparse


def add_batch_arguments(parser: argparse.ArgumentParser, resume: bool = True, scheduler: bool = True) -> None:
    parser.add_argument("--jobs", type=_jobs, metavar="N",
                        help="solve N levels at once, each in a worker process (0: one per core)")
    if resume:
        parser.add_argument("--resume", metavar="FILE.jsonl",
                            help="append each level's result to FILE as it ends; a rerun skips the levels there")
    if scheduler:
        parser.add_argument("--scheduler", metavar="ADDRESS",
                            help="send the levels to this Dask cluster (pip install 'fewest[cluster]')")


def _jobs(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of workers (0: one per core)")
    return int(text)


def batched(args: argparse.Namespace) -> bool:
    """Does the run go through workers (any of --jobs, --resume, --scheduler)?"""
    return args.jobs is not None or bool(getattr(args, "resume", None) or getattr(args, "scheduler", None))
