"""The progress store: atomic JSON files, corrupt files moved aside, nothing else lost."""

from __future__ import annotations

import json
import os

from fewest.engine import sokoban
from fewest.engine.game import Game
from fewest.levels import read_file, read_text
from fewest.tui.services.progress import LOCK_FILE, LevelRecord, ProgressStore, SavedGame, default_data_dir


def test_solves_bests_and_assisted_marks_survive_a_restart(tmp_path):
    store = ProgressStore(str(tmp_path))
    assert store.record_solve("pack:a#1", 30, 5, assisted=True) is False  # help never sets a best
    assert store.level("pack:a#1") == LevelRecord(solved=True, assisted=True)
    assert store.record_solve("pack:a#1", 40, 9, assisted=False) is True
    assert store.record_solve("pack:a#1", 41, 2, assisted=False) is False
    assert store.record_solve("pack:a#1", 40, 8, assisted=False) is True  # same moves, fewer pushes
    store.record_solve("pack:a#1", 20, 1, assisted=True)  # help after a solo solve: still solo
    store.remember_par("pack:a#1", 38)
    again = ProgressStore(str(tmp_path))
    assert again.level("pack:a#1") == LevelRecord(True, False, 40, 8, 38, push_best=2, push_best_moves=41)
    assert again.level("pack:a#2") == LevelRecord()
    assert again.messages == []


def test_the_best_solves_moves_are_kept_with_it(tmp_path):
    store = ProgressStore(str(tmp_path))
    store.record_solve("k#1", 5, 1, assisted=False, plan="rrRdd")
    store.record_solve("k#1", 3, 1, assisted=True, plan="rRd")  # with help: not a best
    store.record_solve("k#1", 6, 1, assisted=False, plan="rrRddu")
    assert ProgressStore(str(tmp_path)).level("k#1").best_plan == "rrRdd"
    store.record_solve("k#1", 4, 1, assisted=False, plan="rRdd")
    assert ProgressStore(str(tmp_path)).level("k#1") == LevelRecord(
        True, False, 4, 1, None, "rRdd", push_best=1, push_best_moves=4, push_best_plan="rRdd")
    # a best recorded before plans were: the next solve as short fills it in
    levels = {"old#1": {"solved": True, "best_moves": 4, "best_pushes": 1}, "odd#1": {"solved": True, "best_plan": 7}}
    (tmp_path / "progress.json").write_text(json.dumps({"levels": levels}))
    store = ProgressStore(str(tmp_path))
    assert store.level("odd#1") == LevelRecord(solved=True)  # a malformed plan costs only itself
    store.record_solve("old#1", 5, 1, assisted=False, plan="xxxxx")
    assert store.level("old#1").best_plan is None
    store.record_solve("old#1", 4, 1, assisted=False, plan="rRdd")
    assert ProgressStore(str(tmp_path)).level("old#1").best_plan == "rRdd"


def test_the_best_by_pushes_is_a_solve_of_its_own(tmp_path):
    store = ProgressStore(str(tmp_path))
    assert store.record_solve("k#1", 19, 9, assisted=False, plan="a", metric="pushes") is True
    assert store.record_solve("k#1", 25, 7, assisted=False, plan="b", metric="pushes") is True  # (more moves)
    assert store.record_solve("k#1", 24, 7, assisted=False, plan="c") is False  # (not the best by moves)
    assert store.record_solve("k#1", 26, 7, assisted=False, plan="d", metric="pushes") is False
    assert store.record_solve("k#1", 2, 1, assisted=True, metric="pushes") is False  # help never sets a best
    record = ProgressStore(str(tmp_path)).level("k#1")
    assert (record.best_moves, record.best_pushes, record.best_plan) == (19, 9, "a")
    assert (record.push_best, record.push_best_moves, record.push_best_plan) == (7, 24, "c")
    assert [(record.best_by(m), record.best_plan_by(m)) for m in ("moves", "pushes")] == [(19, "a"), (7, "c")]
    # a best kept before bests by pushes were: a solve of its pushes, and its own best by them
    (tmp_path / "progress.json").write_text(json.dumps({"levels": {"old#1": {
        "solved": True, "best_moves": 4, "best_pushes": 2, "best_plan": "rRdD"}}}))
    store = ProgressStore(str(tmp_path))
    old = store.level("old#1")
    assert (old.best_by("pushes"), old.best_plan_by("pushes")) == (2, "rRdD")
    assert store.record_solve("old#1", 3, 3, assisted=False, plan="xyz", metric="pushes") is False  # (by moves)
    old = ProgressStore(str(tmp_path)).level("old#1")
    assert (old.best_moves, old.best_plan, old.push_best, old.push_best_moves, old.push_best_plan) == (
        3, "xyz", 2, 4, "rRdD")
    # a family that counts no pushes keeps no best by them
    assert store.record_solve("traffic#1", 5, None, assisted=False, plan="A1") is True
    kept = json.loads((tmp_path / "progress.json").read_text(encoding="utf-8"))["levels"]["traffic#1"]
    assert (kept["best_moves"], kept["best_pushes"], kept["push_best"], kept["push_best_plan"]) == (5, 0, None, None)
    bad = {"solved": True, "push_best": -1}
    (tmp_path / "progress.json").write_text(json.dumps({"levels": {"bad#1": bad}}))
    assert ProgressStore(str(tmp_path)).level("bad#1") == LevelRecord()


def test_a_par_by_pushes_is_kept_apart_from_the_par_by_moves(tmp_path):
    store = ProgressStore(str(tmp_path))
    store.remember_par("k#1", 19, "rRdd")
    store.remember_par("k#1", 7, metric="pushes")
    store.remember_par("k#1", 7, "LLuR", metric="pushes")  # (the same par, now with its plan)
    store.remember_par("k#1", 7, "UUdR", metric="pushes")  # (another: the first stays)
    record = ProgressStore(str(tmp_path)).level("k#1")
    assert record == LevelRecord(par=19, par_plan="rRdd", push_par=7, push_par_plan="LLuR")
    assert (record.par_by("moves"), record.par_by("pushes")) == (19, 7)
    store.remember_par("k#1", 6, metric="pushes")
    assert ProgressStore(str(tmp_path)).level("k#1") == LevelRecord(par=19, par_plan="rRdd", push_par=6)


def test_a_proven_par_keeps_its_plan_until_another_par_is_proven(tmp_path):
    store = ProgressStore(str(tmp_path))
    store.remember_par("k#1", 4)
    store.remember_par("k#1", 4, "rRdd")  # the same par, now with a plan: kept
    assert ProgressStore(str(tmp_path)).level("k#1").par_plan == "rRdd"
    store.remember_par("k#1", 4, "dRrd")  # another plan as short: the first stays
    store.remember_par("k#1", 4)
    assert ProgressStore(str(tmp_path)).level("k#1") == LevelRecord(par=4, par_plan="rRdd")
    store.remember_par("k#1", 3)  # a new par: the old plan is not one of its length
    assert ProgressStore(str(tmp_path)).level("k#1") == LevelRecord(par=3)
    store.remember_par("k#1", 2, "RR")
    assert ProgressStore(str(tmp_path)).level("k#1") == LevelRecord(par=2, par_plan="RR")
    # a malformed plan costs only itself
    (tmp_path / "progress.json").write_text(json.dumps({"levels": {"odd#1": {"par": 2, "par_plan": ["R"]}}}))
    assert ProgressStore(str(tmp_path)).level("odd#1") == LevelRecord(par=2)


def test_saved_games_replay_through_the_mid_end(tmp_path):
    entry = read_text("#####\n#@$.#\n# $.#\n#####\n", "two.xsb")[0]
    game = Game(sokoban, entry.level)
    game.play("R")
    game.restart()
    game.undo()
    store = ProgressStore(str(tmp_path))
    store.save_game(entry.key, SavedGame(game.to_record(), 12.5, 2, "dRuR"))
    saved = ProgressStore(str(tmp_path)).saved_game(entry.key)
    assert saved is not None and saved.seconds == 12.5 and saved.hints == 2 and saved.plan == "dRuR"
    again = Game.from_record(sokoban, entry.level, saved.record)
    assert again.state == game.state and again.can_redo
    assert saved.push_plan is None and saved.plan_by("moves") == "dRuR" and saved.plan_by("pushes") is None
    store.save_game(entry.key, SavedGame(game.to_record(), 12.5, 2, None, "RuRd"))  # (by pushes alone)
    saved = ProgressStore(str(tmp_path)).saved_game(entry.key)
    assert (saved.plan, saved.push_plan) == (None, "RuRd")
    raw = json.loads((tmp_path / "games.json").read_text(encoding="utf-8"))
    raw["games"][entry.key]["push_plan"] = ["R"]  # (malformed: costs only itself)
    (tmp_path / "games.json").write_text(json.dumps(raw), encoding="utf-8")
    saved = ProgressStore(str(tmp_path)).saved_game(entry.key)
    assert saved is not None and saved.push_plan is None and saved.seconds == 12.5
    store.save_game(entry.key, SavedGame(game.to_record(), 12.5, 2))  # (no plan known there)
    assert ProgressStore(str(tmp_path)).saved_game(entry.key).plan is None
    store.drop_game(entry.key)
    assert ProgressStore(str(tmp_path)).saved_game(entry.key) is None


def test_recent_files_are_absolute_unique_newest_first(tmp_path):
    store = ProgressStore(str(tmp_path))
    store.add_recent("a.xsb")
    store.add_recent(str(tmp_path / "b.xsb"))
    store.add_recent("a.xsb")
    assert store.recent == [os.path.abspath("a.xsb"), str(tmp_path / "b.xsb")]
    store.remove_recent(os.path.abspath("a.xsb"))
    assert ProgressStore(str(tmp_path)).recent == [str(tmp_path / "b.xsb")]


def test_a_corrupt_file_is_moved_aside_and_the_others_kept(tmp_path):
    store = ProgressStore(str(tmp_path))
    store.record_solve("k#1", 5, 0, assisted=False)
    store.add_recent("x.xsb")
    (tmp_path / "progress.json").write_text('{"levels": {"k#1": {"solved": tr', encoding="utf-8")
    again = ProgressStore(str(tmp_path))
    assert again.level("k#1") == LevelRecord()
    assert again.recent == [os.path.abspath("x.xsb")]  # a different file: untouched
    assert len(again.messages) == 1 and "progress.json" in again.messages[0]
    aside = [p for p in os.listdir(tmp_path) if p.startswith("progress.json.corrupt-")]
    assert len(aside) == 1
    assert (tmp_path / aside[0]).read_text(encoding="utf-8").endswith("tr")
    again.record_solve("k#2", 7, 0, assisted=False)  # and it writes a fresh, valid file
    assert json.loads((tmp_path / "progress.json").read_text(encoding="utf-8"))["levels"]["k#2"]["solved"]


def test_wrong_shapes_and_bad_records_never_crash(tmp_path):
    (tmp_path / "games.json").write_text("[1, 2, 3]", encoding="utf-8")
    (tmp_path / "recent.json").write_text('{"files": "not a list"}', encoding="utf-8")
    (tmp_path / "progress.json").write_text(json.dumps({"levels": {
        "good#1": {"solved": True, "best_moves": 3},
        "bad#1": {"solved": "yes"},
        "bad#2": {"best_moves": -4},
        "bad#3": [],
    }}), encoding="utf-8")
    (tmp_path / "settings.json").write_bytes(b"\xff\xfe not utf-8")
    store = ProgressStore(str(tmp_path))
    assert store.level("good#1").best_moves == 3
    assert store.level("bad#1") == store.level("bad#2") == store.level("bad#3") == LevelRecord()
    assert store.recent == [] and store.saved_game("x#1") is None
    assert len(store.messages) == 4  # games, recent and settings were moved aside
    assert "3 level record(s) unreadable: ignored, and left in the file" in store.messages[-1]
    store.record_solve("good#2", 4, 0, assisted=False)  # a write keeps the records it can't read
    assert json.loads((tmp_path / "progress.json").read_text())["levels"]["bad#1"] == {"solved": "yes"}


def test_writes_are_atomic_and_leave_no_temp_files(tmp_path):
    store = ProgressStore(str(tmp_path / "deep" / "dir"))
    for i in range(5):
        store.record_solve(f"k#{i}", i + 1, 0, assisted=False)
    files = sorted(os.listdir(tmp_path / "deep" / "dir"))
    assert [name for name in files if name != LOCK_FILE] == ["progress.json"]


def test_an_unwritable_data_dir_is_reported_not_raised(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    store = ProgressStore(str(blocker / "data"))
    store.record_solve("k#1", 3, 0, assisted=False)
    assert store.level("k#1").solved  # still known for this session
    assert store.messages and "Cannot save" in store.messages[0]
    named = ProgressStore(str(blocker))  # the data folder named is a file: said so, not "File exists"
    named.record_solve("k#1", 3, 0, assisted=False)
    assert named.messages == [f"Cannot save {blocker}/progress.json: {blocker} is a file, not a folder"]


def test_pasted_levels_are_kept_once_each_and_a_refusing_disk_is_reported(tmp_path):
    store = ProgressStore(str(tmp_path / "data"))
    first = store.keep_pasted("#####\n#@$.#\n#####\n", ".xsb")
    again = store.keep_pasted("#####\n#@$.#\n#####\n", ".xsb")
    other = store.keep_pasted("#####\n#.$@#\n#####\n", ".xsb")
    assert first == again != other and first is not None and other is not None
    assert sorted(os.listdir(tmp_path / "data" / "pasted")) == sorted(map(os.path.basename, (first, other)))
    with open(first, encoding="utf-8") as handle:
        assert handle.read() == "#####\n#@$.#\n#####\n"
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    refused = ProgressStore(str(blocker / "data"))
    assert refused.keep_pasted("#####\n#@$.#\n#####\n", ".xsb") is None
    assert refused.messages and "Cannot save" in refused.messages[-1]


def test_data_dir_env_overrides_the_platform_default(monkeypatch, tmp_path):
    monkeypatch.setenv("FEWEST_DATA_DIR", str(tmp_path))
    assert default_data_dir() == str(tmp_path)
    monkeypatch.delenv("FEWEST_DATA_DIR")
    assert default_data_dir() != str(tmp_path)


def test_out_of_range_numbers_in_a_saved_game_never_crash(tmp_path):
    entry = read_text("#####\n#@$.#\n#####\n", "one.xsb")[0]
    (tmp_path / "games.json").write_text(
        '{"games": {"a#1": {"record": {"entries": [["move", "R"]], "position": 1e400}, "seconds": 1e400},'
        ' "b#1": {"record": {"entries": []}, "seconds": NaN, "hints": -3, "plan": ["R"]}}}', encoding="utf-8")
    store = ProgressStore(str(tmp_path))
    first, second = store.saved_game("a#1"), store.saved_game("b#1")
    assert first.seconds == 0.0 and second.seconds == 0.0 and second.hints == 0 and second.plan is None
    try:
        Game.from_record(sokoban, entry.level, first.record)
    except ValueError as exc:  # (the board drops such a game and says why)
        assert "malformed saved game" in str(exc)
    else:
        raise AssertionError("a position of 1e400 was taken")


def test_two_stores_on_one_folder_keep_each_others_writes(tmp_path):
    # two instances of the app at once: each writes only what it changed into the file as it is now
    first, second = ProgressStore(str(tmp_path)), ProgressStore(str(tmp_path))
    first.record_solve("a#1", 10, 2, assisted=False, plan="R")
    second.record_solve("b#1", 5, 1, assisted=False)
    second.record_solve("a#1", 8, 2, assisted=False, plan="L")  # the same level, better
    first.record_solve("a#1", 14, 1, assisted=False, plan="P")  # (better by pushes only)
    first.remember_par("a#1", 8)
    second.remember_par("a#1", 1, "P", metric="pushes")
    second.remember_par("c#1", 3, "RRR")
    first.remember_par("c#1", 3)  # (the same par, proven again without its plan: the plan stays)
    first.save_game("x#3", SavedGame({"entries": [["move", "R"]]}, 3.0, 0))
    second.save_game("y#3", SavedGame({"entries": [["move", "L"]]}, 4.0, 1))
    second.drop_game("x#3", finished=True)  # (it finished that level, whose game the first saved)
    first.add_recent(str(tmp_path / "x.xsb"))
    second.add_recent(str(tmp_path / "y.xsb"))
    first.remove_recent(str(tmp_path / "gone.xsb"))
    first.set_setting("theme", "textual-light")
    second.set_setting("keymap", {"undo": "f5"})
    later = ProgressStore(str(tmp_path))
    a = later.level("a#1")
    assert a.solved and (a.best_moves, a.best_plan, a.par) == (8, "L", 8) and later.level("b#1").best_moves == 5
    assert (a.push_best, a.push_best_moves, a.push_best_plan, a.push_par, a.push_par_plan) == (1, 14, "P", 1, "P")
    assert later.saved_game("x#3") is None and later.saved_game("y#3").seconds == 4.0
    assert later.recent == [str(tmp_path / "y.xsb"), str(tmp_path / "x.xsb")]
    assert later.setting("theme") == "textual-light" and later.setting("keymap") == {"undo": "f5"}
    assert first.level("b#1").solved  # (each store reads the other's solves as it writes)
    assert later.level("c#1") == LevelRecord(par=3, par_plan="RRR")


THREE = ["#####\n#@$.#\n#####", "######\n#@$ .#\n######", "#######\n#@$  .#\n#######"]


def test_progress_follows_a_level_when_its_file_gains_or_loses_levels(tmp_path):
    path = tmp_path / "z.xsb"
    path.write_text("\n\n".join(THREE) + "\n", encoding="utf-8")
    store = ProgressStore(str(tmp_path / "data"))
    store.record_solve(read_file(path)[2].key, 4, 1, assisted=False)
    path.write_text("\n\n".join(THREE[1:]) + "\n", encoding="utf-8")  # the first level removed
    second, third = read_file(path)
    later = ProgressStore(str(tmp_path / "data"))
    assert later.level(third.key).best_moves == 4 and not later.level(second.key).solved
    path.write_text("\n\n".join(THREE[::-1]) + "\n", encoding="utf-8")  # all three, the other way round
    assert [later.level(e.key).solved for e in read_file(path)] == [True, False, False]


def test_progress_kept_by_a_levels_place_is_moved_to_its_own_id_once(tmp_path):
    path = tmp_path / "z.xsb"
    path.write_text("\n\n".join(THREE) + "\n", encoding="utf-8")
    entries = read_file(path)
    data = tmp_path / "data"
    data.mkdir()
    (data / "progress.json").write_text(json.dumps(
        {"levels": {entries[0].legacy_key: {"solved": True, "best_moves": 3}}}), encoding="utf-8")
    (data / "games.json").write_text(json.dumps(
        {"games": {entries[1].legacy_key: {"record": {"entries": [["move", "R"]]}}}}), encoding="utf-8")
    store = ProgressStore(str(data))
    store.adopt(entries)
    assert store.level(entries[0].key).best_moves == 3 and store.saved_game(entries[1].key) is not None
    on_disk = json.loads((data / "progress.json").read_text())["levels"]
    assert list(on_disk) == [entries[0].key]  # (the old id is gone: a later edit can't misplace it)
    assert entries[0].key != entries[0].legacy_key


def test_temp_files_a_killed_write_left_are_swept_when_old(tmp_path):
    stale, fresh = tmp_path / ".progress.json.abc123.tmp", tmp_path / ".games.json.def456.tmp"
    mine = tmp_path / ".notes.tmp"  # (not the store's: left alone)
    for path in (stale, fresh, mine):
        path.write_text("{", encoding="utf-8")
    os.utime(stale, (0, 0))
    os.utime(mine, (0, 0))
    ProgressStore(str(tmp_path))
    assert not stale.exists() and fresh.exists() and mine.exists()


def test_a_plan_a_search_found_is_kept_while_none_shorter_is_found(tmp_path):
    store = ProgressStore(str(tmp_path))
    assert store.remember_found("k#1", "moves", 30, 6, "R" * 30) is True
    assert store.remember_found("k#1", "moves", 30, 5, "L" * 30) is True  # (as many moves, fewer pushes)
    assert store.remember_found("k#1", "moves", 31, 1, "U" * 31) is False
    assert store.remember_found("k#1", "pushes", 4, 40, "D" * 40) is True  # (apart, by the other metric)
    record = ProgressStore(str(tmp_path)).level("k#1")
    assert (record.found_by("moves"), record.found_pushes, record.found_plan) == (30, 5, "L" * 30)
    assert (record.found_by("pushes"), record.push_found_moves, record.push_found_plan) == (4, 40, "D" * 40)
    # a count kept without its text (or a text of another type) is no plan: both go, the rest stays
    (tmp_path / "progress.json").write_text(json.dumps({"levels": {
        "odd#1": {"par": 2, "found_moves": 9, "found_plan": ["R"], "push_found": 3, "push_found_plan": "RRR"},
        "odd#2": {"found_moves": "9", "found_plan": "R"}}}))
    again = ProgressStore(str(tmp_path))
    assert again.level("odd#1") == LevelRecord(par=2, push_found=3, push_found_plan="RRR")
    assert again.level("odd#2") == LevelRecord() and again.messages  # (a count not a number: unreadable)


def test_two_stores_keep_the_shorter_plan_either_found(tmp_path):
    first, second = ProgressStore(str(tmp_path)), ProgressStore(str(tmp_path))
    first.remember_found("a#1", "moves", 50, 9, "R" * 50)
    second.remember_found("a#1", "moves", 40, 12, "L" * 40)
    first.remember_found("a#1", "moves", 45, 9, "U" * 45)  # (shorter than its own, not than the other's)
    assert ProgressStore(str(tmp_path)).level("a#1").found_plan == "L" * 40
