"""Fixtures of the service tests: a memory service with facts in two tenants' scopes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from groundgraph.graph import DocumentGraph
from groundgraph.service import MemoryService
from groundgraph.service.http_app import create_app
from service_server import matrix_ring, running

ALICE_FACTS = (
    "Heavy rain caused the flood in the valley.",
    "The flood in the valley caused the road closure.",
    "Alice leads the Atlas team in Lisbon.",
)
BOB_FACTS = (
    "A power cut caused the server outage in Porto.",
    "Bob secretly plans the Zephyr merger.",
    "The flood in the valley caused the Zephyr shipment delay.",
)


def tenant_service() -> MemoryService:
    service = MemoryService(DocumentGraph())
    for text in ALICE_FACTS:
        service.push("acme/alice", text)
    for text in BOB_FACTS:
        service.push("acme/bob", text)
    return service


@pytest.fixture
def service() -> Iterator[MemoryService]:
    found = tenant_service()
    yield found
    found.graph.close()


@pytest.fixture
def keyed_server(service: MemoryService) -> Iterator[str]:
    with running(create_app(service, keys=matrix_ring(), allowed_hosts=["127.0.0.1"])) as base:
        yield base
