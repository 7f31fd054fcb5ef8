"""docs/explorer.md: every screenshot it shows exists, every view of the page is described,
and the Content-Security-Policy it quotes is the one the server sends."""

from __future__ import annotations

import re

from groundgraph.service.http_explorer import CSP, explorer_file
from repo_paths import ROOT

PAGE = ROOT / "docs" / "explorer.md"


def test_every_screenshot_exists():
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", PAGE.read_text("utf-8"))
    assert images
    for image in images:
        assert (PAGE.parent / image).is_file(), image


def test_every_view_of_the_page_is_described():
    text = PAGE.read_text("utf-8")
    views = re.findall(r'data-view="(\w+)"', explorer_file("index.html").decode())
    assert len(views) == 7
    for view in views:
        assert f"**{view.capitalize()}.**" in text, view


def test_the_quoted_policy_is_the_one_served():
    text = " ".join(PAGE.read_text("utf-8").split())
    quoted = re.search(r"`Content-Security-Policy: ([^`]+)`", text)
    assert quoted is not None
    served = re.sub(r"'sha256-[^']+'", "'sha256-…'", CSP)
    assert quoted.group(1) == served
