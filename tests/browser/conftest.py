"""Fixtures of the browser tests: Debian's chromium driven by Playwright for Python, and a
real uvicorn serving the explorer over the tests' own store, with API keys on.

Without playwright or /usr/bin/chromium the tests are skipped;
GROUNDGRAPH_REQUIRE_BROWSER=1 (``make test-browser``) turns that skip into a failure.
GROUNDGRAPH_EXPLORER_SCREENSHOTS=1 saves a screenshot of each view into docs/explorer/.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from explorer_store import explorer_service

from groundgraph.service.http_app import create_app
from repo_paths import ROOT
from service_server import MATRIX_KEYS, matrix_ring, running

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = ROOT / "docs" / "explorer"


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (make test-browser installs it)"
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        return "no chromium (apt-get install chromium)"
    return None


# Module-scoped: sync Playwright runs an event loop in this thread while it is open, so
# it must be closed before other tests call asyncio.run.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = _missing()
    if reason is not None:
        if os.environ.get("GROUNDGRAPH_REQUIRE_BROWSER") == "1":
            pytest.fail(f"GROUNDGRAPH_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        found = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield found
        found.close()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    service = explorer_service()
    app = create_app(service, keys=matrix_ring(), allowed_hosts=["127.0.0.1"])
    with running(app) as base:
        yield base
    service.graph.close()


class Watched:
    """A page with what went wrong on it: script errors, and requests naming a key."""

    def __init__(self, page: Any, base: str) -> None:
        self.page = page
        self.base = base
        self.errors: list[str] = []
        self.urls: list[str] = []
        self.headers: list[dict[str, str]] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("request", self._request)

    def _request(self, request: Any) -> None:
        self.urls.append(request.url)
        self.headers.append(dict(request.headers))

    def sign_in(self, name: str) -> None:
        """Open the page and give it the key of ``name`` (service_server.MATRIX_KEYS)."""
        self.page.goto(self.base + "/")
        self.page.wait_for_selector("#key-panel:not([hidden])")
        self.page.fill("#key-input", MATRIX_KEYS[name][0])
        self.page.click("#key-form button")
        self.page.wait_for_selector("#key-panel", state="hidden")

    def idle(self) -> None:
        """Wait until the page's last action finished; fail on the error it shows."""
        self.page.wait_for_function(
            "() => !document.getElementById('status').classList.contains('busy')"
        )
        kind = self.page.get_attribute("#status", "class") or ""
        assert "error" not in kind, self.page.inner_text("#status")

    def shot(self, name: str) -> None:
        if os.environ.get("GROUNDGRAPH_EXPLORER_SCREENSHOTS") == "1":
            SHOTS.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


@pytest.fixture
def watched(browser: Any, server: str) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    found = Watched(page, server)
    yield found
    assert found.errors == []
    assert page.evaluate("() => window.__pwned") is None
    context.close()
