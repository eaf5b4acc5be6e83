"""Odd paths and odd names through `fewest check`/`solve`: what is no regular file is
refused at once (exit 2, naming it), and a name or title is printed as one short line (#75)."""

import os
import sys

import pytest

from fewest.levels import LevelFormatError, read_file_each
from fewest.tui.cli.main import main

LEVEL = "#####\n#@$.#\n#####\n"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_at_once_not_waited_on(capsys, tmp_path):
    fifo = tmp_path / "p.xsb"
    os.mkfifo(fifo)  # (nobody writes to it: reading it as a file would block for ever)
    with pytest.raises(LevelFormatError, match=r"p\.xsb: not a regular file \(a FIFO\)"):
        read_file_each(fifo)
    code, out, _ = run(capsys, "check", str(fifo))
    assert code == 2 and f"error: {fifo}: not a regular file (a FIFO)" in out
    code, _, err = run(capsys, "solve", "--timeout", "1", str(fifo))
    assert code == 2 and str(fifo) in err and "FIFO" in err


def test_a_directory_and_a_device_are_refused_naming_them(capsys, tmp_path):
    code, out, _ = run(capsys, "check", str(tmp_path), os.devnull)
    assert code == 2
    assert f"error: {tmp_path}: not a regular file (a directory)" in out
    assert f"error: {os.devnull}: not a regular file (a character device)" in out


def test_a_symlink_loop_is_a_plain_error(capsys, tmp_path):
    (tmp_path / "a.xsb").symlink_to(tmp_path / "b.xsb")
    (tmp_path / "b.xsb").symlink_to(tmp_path / "a.xsb")
    code, out, _ = run(capsys, "check", str(tmp_path / "a.xsb"))
    assert code == 2 and f"error: {tmp_path / 'a.xsb'}: cannot read:" in out


def test_standard_input_still_reads(capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(LEVEL.encode())))
    code, out, _ = run(capsys, "check", "-")
    assert code == 0 and "<stdin>: 1 sokoban level" in out


@pytest.mark.skipif(sys.platform == "win32", reason="no newline in a Windows file name")
def test_a_file_name_with_a_newline_or_an_escape_prints_on_one_line(capsys, tmp_path):
    good = tmp_path / "two\nlines.xsb"
    good.write_text(LEVEL)
    bad = tmp_path / "red\x1b[31m.xsb"
    bad.write_text("#####\n#@$X#\n#####\n")
    code, out, _ = run(capsys, "check", str(good), str(bad))
    assert code == 2
    assert f"{tmp_path}/two\\nlines.xsb: 1 sokoban level" in out
    assert f"{tmp_path}/red\\x1b[31m.xsb, line 2" in out
    assert "\x1b" not in out and "two\nlines" not in out
    code, out, _ = run(capsys, "solve", str(good))
    assert code == 0 and out.startswith(f"{tmp_path}/two\\nlines.xsb #1") and "two\nlines" not in out


def test_check_cuts_a_title_of_megabytes(capsys, tmp_path):
    path = tmp_path / "long.xsb"
    path.write_text("; " + "c" * 3_000_000 + "\nTitle: " + "t" * 3_000_000 + "\n" + LEVEL)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0 and len(out) < 1000 and "t" * 150 in out and "\u2026" in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_bench_refuses_a_fifo_for_its_set_and_its_table(capsys, tmp_path):
    fifo = tmp_path / "counts.csv"
    os.mkfifo(fifo)
    levels = tmp_path / "one.xsb"
    levels.write_text(LEVEL)
    for argv in (["--set", str(fifo)], ["--set", str(levels), "--expect", str(fifo)]):
        code, _, err = run(capsys, "bench", "sokoban", *argv)
        assert code == 2 and f"{fifo}: not a regular file (a FIFO)" in err
