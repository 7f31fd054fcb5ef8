"""The browser tests' store: a small guide, hostile markdown, and two tenants' facts."""

from __future__ import annotations

from typing import Any

import httpx

from groundgraph.graph import DocumentGraph
from groundgraph.service import MemoryService
from service_server import bearer

GUIDE = """# Setup guide

## Installation
Install the tool with pip. Then read Configuration before the first start.

## Configuration
The config file is read at start. Acme Corp wrote it with Bob Smith.

## Troubleshooting
When the config fails to load, check the Configuration section. Acme Corp answers tickets.
"""

#: Markdown that would run script if the page ever parsed document text as HTML.
HOSTILE = (
    "# Hostile notes\n\n"
    "## Script tag\n"
    "The payload <script>window.__pwned = 1</script> sits in the zebra text.\n\n"
    "## Image handler\n"
    'An image <img src=x onerror="window.__pwned = 2"> follows the zebra.\n\n'
    "## Link\n"
    'A [zebra link](javascript:window.__pwned=3) and <a href="javascript:window.__pwned=4">'
    "click</a>.\n\n"
    "## Huge line\n"
    "zebra " + "w" * 60000 + "\n"
)

ALICE_FACTS = (
    "Heavy rain caused the flood in the valley.",
    "The flood in the valley caused the road closure.",
    "Alice lives in Lisbon.",
    "Alice lives in Porto.",
)
BOB_FACTS = ("Bob secretly plans the Zephyr merger.",)


def explorer_service() -> MemoryService:
    graph = DocumentGraph()
    graph.add_document(GUIDE, "Setup guide", doc_id="setup")
    graph.add_document(HOSTILE, "Hostile <b>notes</b>", doc_id="hostile")
    service = MemoryService(graph)
    for text in ALICE_FACTS:
        service.push("acme/alice", text)
    for text in BOB_FACTS:
        service.push("acme/bob", text)
    return service


def api(base: str, key: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """What the API answers ``key`` (service_server.MATRIX_KEYS) for a POST to ``path``."""
    answer = httpx.post(base + path, json=body or {}, headers=bearer(key))
    answer.raise_for_status()
    return answer.json()
