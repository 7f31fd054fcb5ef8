"""The built wheel carries the explorer's files: the page, its style and script, and the
vendored cytoscape.js with its licence, byte for byte as in the source tree.

Building a wheel takes a few seconds, so this runs with the browser tests
(``make test-browser``, ``-m browser``) rather than in ``make test``.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from groundgraph.service.http_explorer import FILES

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "groundgraph" / "service" / "web"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_wheel_holds_every_explorer_file(tmp_path: Path) -> None:
    # Without hatchling in the environment pip builds in isolation (fetching hatchling).
    isolation = [] if importlib.util.find_spec("hatchling") is None else ["--no-build-isolation"]
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation,
         "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-2000:]
    wheels = list(tmp_path.glob("groundgraph-*.whl"))
    assert len(wheels) == 1, wheels
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = set(wheel.namelist())
        for name in FILES:
            inside = f"groundgraph/service/web/{name}"
            assert inside in names, f"{inside} is missing from {wheels[0].name}"
            assert wheel.read(inside) == (WEB / name).read_bytes(), name
        licence = wheel.read("groundgraph/service/web/LICENSE.cytoscape").decode()
        assert "MIT" in licence or "Permission is hereby granted" in licence
