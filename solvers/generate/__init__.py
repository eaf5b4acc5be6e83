"""Levels generated with proven pars: random instances kept only when the family's exact
solver proves their fewest moves within budget and that count is the one asked for.

`generate(family, target, rng, control)` gives one `Proven` level. Each family's module
(`traffic.py`, `rotation.py`, `shift.py`, `password.py`) only proposes candidates
(`candidates(rng, target)`); the one loop that proves them and keeps the first whose
par fits is `proof.first_proven` (a module's `fits(proven, target)`, where it has one,
checks the rest: Sokoban's box changes). `targets.py` maps a difficulty (or an exact par) to
the par range and board size; `seeding.py` turns a seed or a date into a generator.
"""

from __future__ import annotations

import importlib
import random

from fewest.solvers.common.control import Control
from fewest.solvers.generate.proof import Proven, first_proven
from fewest.solvers.generate.targets import FAMILIES, Target

__all__ = ["FAMILIES", "Proven", "Target", "generate"]


def generate(family: str, target: Target, rng: random.Random, control: Control) -> Proven:
    """A level of `family` whose proven par lies in the target's range; raises Stopped when
    `control`'s budget runs out (or it is cancelled) before one is found."""
    if family not in FAMILIES:
        raise ValueError(f"no generator for family {family!r} (choose from {', '.join(FAMILIES)})")
    module = importlib.import_module(f"fewest.solvers.generate.{family}")
    return first_proven(family, module.candidates(rng, target), target, control, getattr(module, "fits", None))
