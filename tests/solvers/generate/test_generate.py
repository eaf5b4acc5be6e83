"""Generated levels: pars proven (plans replayed, checked by the independent BFS on small
boards), the same seed the same level, difficulty ranges kept, traffic levels minimal."""

from dataclasses import replace

import pytest

from fewest.engine.registry import rules_for
from fewest.solvers.common.control import Budget, Control, Stopped
from fewest.solvers.generate import generate
from fewest.solvers.generate.seeding import daily_seed, rng_for
from fewest.solvers.generate.targets import Target, describe, target_for
from tests.oracle import replay_length, shortest_plan

SMALL = [("sokoban", "easy"), ("traffic", "easy"), ("rotation", "easy"), ("shift", "easy"), ("password", "easy")]
QUICK_TRAFFIC = Target(3, 5, (5, 5))  # (small clusters: the tests stay quick)


def small_target(family, difficulty="easy"):
    return QUICK_TRAFFIC if family == "traffic" else target_for(family, difficulty)


def made(family, target, seed=1):
    return generate(family, target, rng_for(seed, family), Control(Budget(seconds=30)))


@pytest.mark.parametrize("family,difficulty", SMALL)
def test_pars_are_the_fewest_moves_by_an_independent_search(family, difficulty):
    rules = rules_for(family)
    target = small_target(family, difficulty)
    for seed in (1, 2):
        proven = made(family, target, seed)
        assert replay_length(rules, proven.level, list(proven.moves)) == proven.par
        assert len(shortest_plan(rules, proven.level)) == proven.par
        assert target.low <= proven.par <= target.high


@pytest.mark.parametrize("family,par", [("rotation", 9), ("shift", 12), ("password", 30), ("traffic", 6)])
def test_an_exact_par_is_met(family, par):
    target = Target(par, par, (5, 5)) if family == "traffic" else target_for(family, par=par)
    proven = made(family, target)
    rules = rules_for(family)
    assert replay_length(rules, proven.level, list(proven.moves)) == par


@pytest.mark.parametrize("family", ["sokoban", "traffic", "rotation", "shift", "password"])
def test_the_same_seed_makes_the_same_level(family):
    target = small_target(family)
    assert made(family, target, 5).level == made(family, target, 5).level
    assert len({made(family, target, seed).level for seed in (5, 6, 7)}) > 1


def test_seeds_are_text_hashed_not_salted():
    # (a fixed first draw: the same on every machine and Python run)
    assert rng_for(1, "traffic").random() == rng_for("1", "traffic").random()
    assert rng_for("a").getrandbits(32) == 4062180072
    assert daily_seed(__import__("datetime").date(2026, 12, 6)) == "daily-2026-12-06"


def test_every_car_of_a_generated_traffic_level_matters():
    rules = rules_for("traffic")
    level = made("traffic", QUICK_TRAFFIC, 3).level
    par = len(shortest_plan(rules, level))
    for at in range(1, len(level.cars)):
        fewer = replace(level, cars=level.cars[:at] + level.cars[at + 1:], start=level.start[:at] + level.start[at + 1:])
        assert len(shortest_plan(rules, fewer)) < par


def test_a_target_no_level_meets_stops_at_the_budget():
    with pytest.raises(Stopped):
        generate("shift", Target(3, 3, (2, 2)), rng_for(1), Control(Budget(seconds=0.3)))


@pytest.mark.parametrize("family,kwargs,message", [
    ("chess", {}, "no generator"),
    ("shift", {"difficulty": "extreme"}, "unknown difficulty"),
    ("traffic", {"par": 99}, "pars 1..40"),
    ("traffic", {"size": (6, 7)}, "square"),
    ("rotation", {"size": (4, 4)}, "one board"),
])
def test_bad_targets_say_what_is_wrong(family, kwargs, message):
    with pytest.raises(ValueError, match=message):
        target_for(family, **kwargs)


def test_no_box_of_a_generated_sokoban_level_starts_on_its_goal():
    for seed in (1, 2, 3):
        level = made("sokoban", target_for("sokoban", "easy"), seed).level
        assert not level.boxes & level.goals and len(level.boxes) == 2


def test_describe_names_every_difficulty():
    assert describe("shift") == "shift: easy 1-4 on 3x3, medium 5-9 on 4x4, hard 10-16 on 5x5, expert 17-26 on 6x6"


def test_box_changes_count_turns_from_one_box_to_another():
    from fewest.engine.sokoban import moves_from_directions
    from fewest.solvers.generate.sokoban import box_changes
    from tests.sokoban_support import level

    room = level("#############\n#.  $ @ $  .#\n#############")
    # the left box, the right one, the left one again: two changes; one box pushed twice: none
    assert box_changes(room, moves_from_directions(room, "llrrrrllllll")) == 2
    assert box_changes(room, moves_from_directions(room, "lll")) == 0


def test_generated_sokoban_plans_make_the_box_changes_asked():
    from fewest.solvers.generate.sokoban import box_changes

    target = replace(target_for("sokoban", "easy"), box_changes=3)
    for seed in (1, 2):
        proven = made("sokoban", target, seed)
        assert replay_length(rules_for("sokoban"), proven.level, list(proven.moves)) == proven.par
        assert box_changes(proven.level, proven.moves) >= 3
    assert target_for("sokoban", "medium").box_changes == 3 and target_for("sokoban", par=50).box_changes == 5
    assert target_for("traffic", "hard").box_changes == 0


def test_traffic_layout_changes_keep_a_valid_board():
    from fewest.solvers.generate.traffic import _random_layout
    from fewest.solvers.generate.traffic_changes import changed, exit_row

    rng = rng_for("changes")
    level = _random_layout(rng, 6, 10)
    kinds = set()
    for _ in range(300):
        after = changed(rng, level)  # (a Level: validated as it is made)
        cells = [c for car, o in zip(after.cars, after.start) for c in car.cells(6, o)]
        assert len(cells) == len(set(cells)) and after.cars[0] == level.cars[0] and after.start[0] == level.start[0]
        assert not any(car.horizontal and car.line == exit_row(6) for car in after.cars[1:])
        assert after != level
        shapes = lambda lv: sorted((c.horizontal, c.length) for c in lv.cars)
        kinds.add("count" if len(after.cars) != len(level.cars) else "shape" if shapes(after) != shapes(level) else "place")
        level = after
    assert kinds == {"count", "shape", "place"}
