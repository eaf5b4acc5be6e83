"""The wheel installs one namespace, fewest.*, with the bundled packs and styles inside."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        pytest.fail(f"building the wheel failed: {done.stderr[-2000:]}")
    (wheel,) = out.glob("fewest-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_only_the_fewest_namespace_is_installed(wheel_names):
    tops = {name.split("/")[0] for name in wheel_names}
    assert tops == {"fewest", next(t for t in tops if t.endswith(".dist-info"))}
    for package in ("engine", "solvers", "levels", "tui"):
        assert f"fewest/{package}/__init__.py" in wheel_names


def test_bundled_packs_and_styles_are_inside(wheel_names):
    packs = [n for n in wheel_names if n.startswith("fewest/levels/packs/")]
    for family in ("sokoban", "traffic", "rotation", "shift", "password"):
        assert any(Path(n).name.startswith(family + "_") for n in packs), family
    assert "fewest/levels/packs/CREDITS.md" in wheel_names
    assert "fewest/solvers/rotation/data/rotation-distances-k08.bin" in wheel_names
    assert any(n.startswith("fewest/tui/") and n.endswith(".tcss") for n in wheel_names)


def test_every_source_file_is_packaged(wheel_names):
    for folder in ("engine", "solvers", "levels", "tui"):
        for path in (ROOT / folder).rglob("*.py"):
            relative = path.relative_to(ROOT / folder).as_posix()
            assert f"fewest/{folder}/{relative}" in wheel_names, f"{folder}/{relative} not packaged"
