"""Hostile document text renders as text: <script>, onerror= attributes, javascript:
links and a huge line, in the hits, a node, the outline and grounding; and the page's
Content-Security-Policy stops an inline script even if one were ever inserted."""

from __future__ import annotations

import pytest
from explorer_store import HOSTILE, api

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NO_MARKUP = """() => ({
  scripts: document.querySelectorAll('main script').length,
  images: document.querySelectorAll('main img').length,
  anchors: document.querySelectorAll('a').length,
  bold: document.querySelectorAll('main b').length,
})"""


def assert_no_markup(page) -> None:
    assert page.evaluate(NO_MARKUP) == {"scripts": 0, "images": 0, "anchors": 0, "bold": 0}


def test_hostile_hits_and_nodes_render_as_text(watched):
    watched.sign_in("admin")
    page = watched.page
    page.fill("#search-query", "zebra")
    page.click("#search-form button")
    page.wait_for_selector("#search-hits li.hit")
    watched.idle()
    hits_text = page.inner_text("#search-hits")
    assert "<script>window.__pwned = 1</script>" in hits_text
    assert 'onerror="window.__pwned = 2"' in hits_text
    assert_no_markup(page)
    for title in ("Image handler", "Link", "Huge line"):
        page.click("#tabs button[data-view=search]")
        page.click(f"#search-hits .hit-title:text('{title}')")
        watched.idle()
        page.click(f"#search-hits li.selected .path button:text('{title}')")
        page.wait_for_selector(f"#node-panel .node-title:text('{title}')")
        watched.idle()
        assert_no_markup(page)
    content = page.inner_text("#node-panel .content")
    node_id = page.get_attribute("#node-id", "value") or page.input_value("#node-id")
    stored = api(watched.base, "admin", "/graph/show", {"node_id": node_id})["content"]
    assert content == stored and len(max(stored.split(), key=len)) >= 1000
    wide = page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert wide, "a huge line must wrap, not widen the page"
    watched.shot("hostile")


def test_hostile_titles_in_the_outline_and_grounding_render_as_text(watched):
    watched.sign_in("admin")
    page = watched.page
    page.click("#tabs button[data-view=outline]")
    page.wait_for_selector("#doc-list li")
    assert "Hostile <b>notes</b>" in page.inner_text("#doc-list")
    page.click("#tabs button[data-view=grounding]")
    sentence = HOSTILE.splitlines()[3]
    page.fill("#ground-answer", sentence + " <img src=x onerror=window.__pwned=5>")
    page.click("#ground-form button")
    page.wait_for_selector("#ground-claims li.claim")
    watched.idle()
    assert "<script>" in page.inner_text("#ground-text")
    assert_no_markup(page)


def test_the_policy_blocks_inline_script(watched):
    watched.sign_in("admin")
    ran = watched.page.evaluate(
        """() => {
          const s = document.createElement('script');
          s.textContent = 'window.__inline = 1';
          document.body.append(s);
          return window.__inline;
        }"""
    )
    assert ran is None
