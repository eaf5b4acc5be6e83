"""Sokoban's SLC (XML) collections: levels as XSB reads them, titles and metadata, errors
located in the file, recognition by content, and the command line on such a file."""

from xml.sax.saxutils import escape, quoteattr

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fewest.engine import sokoban as S
from fewest.levels import sokoban as L
from fewest.levels.base import LevelFormatError
from fewest.levels.files import read_file_each, read_text_each
from fewest.levels.sokoban_grid import xsb_rows
from fewest.tui.cli.main import main
from tests.levels.test_sokoban import levels, texts

FIRST = ["#######", "#@ $ .#", "#######"]
SECOND = ["  ####", "###  #", "#@$ .#", "######"]


def slc(*levels: str, collection: str = ' Copyright="Ann"', head: str = "") -> str:
    return (
        '<?xml version="1.0" encoding="ISO-8859-1"?>\n'
        '<SokobanLevels xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        f"  <Title>Pack</Title>\n{head}"
        f"  <LevelCollection{collection}>\n" + "".join(levels) + "  </LevelCollection>\n</SokobanLevels>\n"
    )


def level(rows: list[str], attributes: str = "", inside: str = "") -> str:
    return f"    <Level{attributes}>\n" + "".join(f"      <L>{row}</L>\n" for row in rows) + inside + "    </Level>\n"


def test_levels_read_as_the_same_grids_in_xsb_do():
    text = slc(level(FIRST, ' Id="One" Width="7" Height="3"'), level(SECOND, ' Id="2" Copyright="Bob"'))
    first, second = L.read_slc(text, "pack.slc")
    assert first.level == L.read_xsb("\n".join(FIRST))[0].level
    assert second.level == L.read_xsb("\n".join(SECOND))[0].level
    assert (first.title, first.index, first.line, first.format) == ("One", 1, 5, "slc")
    assert (second.title, second.index, second.line) == ("2", 2, 10)
    assert dict(first.metadata) == {"Copyright": "Ann"}  # (the collection's)
    assert dict(second.metadata) == {"Copyright": "Bob"}  # (its own)


def test_dash_and_underscore_are_floor_and_other_elements_are_metadata():
    inside = "      <Comment>\n        A first   level\n      </Comment>\n"
    (entry,) = L.read_slc(slc(level(["#####", "#@$.#", "#-_ #", "#####"], inside=inside), collection=""))
    assert entry.level == L.read_xsb("#####\n#@$.#\n#   #\n#####")[0].level
    assert dict(entry.metadata) == {"Comment": "A first level"} and entry.title == ""


def test_a_bad_character_is_located_and_the_other_levels_still_read():
    text = slc(level(FIRST), level(["#####", "#@$X.#", "#####"]), level(SECOND))
    collection = read_text_each(text, "pack.slc")
    assert [e.index for e in collection.entries] == [1, 3]
    (bad,) = collection.unreadable
    assert bad.index == 2
    assert str(bad.error) == "pack.slc, line 12, col 13: unknown character 'X' in a row"


def test_a_level_breaking_the_rules_is_located_at_its_first_row():
    with pytest.raises(LevelFormatError) as caught:
        L.read_slc(slc(level(["#####", "#@$$.#", "######"])), "x.slc")
    assert str(caught.value) == "x.slc, line 6: 2 boxes but 1 goal"


ERRORS = {
    "malformed": (
        slc(level(FIRST)).replace("</Level>", "</Levl>"), "line 9, col 7: not well-formed XML: mismatched tag"
    ),
    "unfinished": ("<SokobanLevels>\n  <Level>\n", "line 3, col 1: not well-formed XML: no element found"),
    "no rows": (slc(level([])), "line 5: level has no rows (<L> elements)"),
    "no level": (slc(), "line 1: no <Level> element: no Sokoban level found"),
    "line break": (
        slc(level(["#@$.#", "#   #\n#", "#####"])), "line 7, col 15: unknown character a line break in a row"
    ),
    "long row": (slc(level(["#@$.#", "#" + " " * 10_001 + "#"])), "line 7, col 10010: row is longer than 10000 cells"),
    "large level": (slc(level(["#" * 100] * 101)), "line 106: level is larger than 10000 cells"),
    "entity": (
        slc(level(["#@$.#"])).replace("<Sok", '<!DOCTYPE x [<!ENTITY a "aa">]>\n<Sok'),
        "line 2, col 25: declares the entity 'a': not allowed in a level file",
    ),
}


@pytest.mark.parametrize(("text", "message"), ERRORS.values(), ids=ERRORS)
def test_errors_name_the_line_and_column(text, message):
    with pytest.raises(LevelFormatError) as caught:
        L.read_slc(text, "x.slc")
    assert str(caught.value) == f"x.slc, {message}"


def test_an_slc_file_is_recognised_by_content_and_an_xsb_file_is_not_taken_for_one():
    text = slc(level(FIRST))
    assert L.sniff_slc(text) and not L.sniff_xsb(text) and not L.sniff_contest(text)
    assert read_text_each(text, "levels.txt").entries[0].format == "slc"
    assert read_text_each("\n".join(FIRST), "levels.slc").entries[0].format == "xsb"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(levels(), min_size=1, max_size=3), texts)
def test_levels_written_as_slc_read_back_the_same(drawn, title):
    text = slc(*(level(xsb_rows(each), f" Id={quoteattr(title)}") for each in drawn))
    read = L.read_slc(text)
    assert [entry.level for entry in read] == drawn
    assert all(entry.title == title.strip() for entry in read)


xml_text = st.text(alphabet='<>/="?! LevelIdCopyright#@$*.-_ \n&;x', max_size=300)


@settings(max_examples=300, deadline=None)
@given(xml_text)
def test_fuzzed_xml_only_raises_level_format_errors(tail):
    try:
        found = L.read_slc("<SokobanLevels><Level><L>" + tail)
    except LevelFormatError:
        return
    assert found and all(isinstance(entry.level, S.Level) for entry in found)


def test_the_command_line_solves_an_slc_file_and_says_where_one_is_wrong(tmp_path, capsys):
    path = tmp_path / "pack.slc"
    path.write_text(slc(level(FIRST, ' Id="Start"'), level(SECOND)), encoding="utf-8")
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path} #1 'Start' (sokoban): 3 moves, 2 pushes, optimal" in out
    assert f"{path} #2 (sokoban): 2 moves, 2 pushes, optimal" in out
    path.write_text(slc(level(["#@$X.#"])), encoding="utf-8")
    assert main(["solve", str(path)]) == 2
    assert f"{path}, line 6, col 13: unknown character 'X' in a row" in capsys.readouterr().err


def test_a_latin_1_file_keeps_its_accents(tmp_path):
    path = tmp_path / "pack.slc"
    text = slc(level(FIRST, f' Id={quoteattr("Été")}'), head=f"  <Description>{escape('à & è')}</Description>\n")
    path.write_bytes(text.encode("latin-1"))
    assert read_file_each(path).entries[0].title == "Été"
