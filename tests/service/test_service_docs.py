"""docs/service.md: its Python example prints what it says, and its route table is the
app's (every route the app serves is documented, and nothing else)."""

from __future__ import annotations

import re

from groundgraph.service import MemoryService
from groundgraph.service.http_app import create_app
from groundgraph.service.http_verbs import HTTP_VERBS
from page_examples import DOCS, run_examples

PAGE = DOCS / "service.md"


def test_the_python_example_prints_what_the_page_says():
    run_examples(PAGE, 2)


def served_routes() -> set[str]:
    schema = create_app(MemoryService()).app.openapi()  # the FastAPI app inside the guard
    return {
        f"{method.upper()} {path}"
        for path, methods in schema["paths"].items()
        for method in methods
        if not path.startswith("/graph/")
    }


def test_every_memory_route_is_in_the_table_and_only_those():
    text = PAGE.read_text(encoding="utf-8")
    table = set(re.findall(r"^\| `((?:GET|POST|DELETE) /[^`]*)`", text, flags=re.MULTILINE))
    probes = {"GET /health", "GET /ready"}
    assert table == served_routes() - probes
    assert all(f"`{probe}`" in text for probe in probes)
    for name in HTTP_VERBS:
        assert f"`{name}`" in text, name
