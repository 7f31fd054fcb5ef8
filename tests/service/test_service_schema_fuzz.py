"""Schemathesis against the served OpenAPI schema, on a real uvicorn: a bounded number of
generated requests per operation, with an admin key and with a scoped one; none is a 5xx."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from groundgraph.service.http_app import create_app
from service.conftest import tenant_service
from service_server import bearer, matrix_ring, running

pytestmark = pytest.mark.slow

EXAMPLES = 12


@pytest.mark.parametrize("who", ["admin", "alice"])
def test_no_generated_request_is_a_server_error(who):
    service = tenant_service()
    app = create_app(service, keys=matrix_ring(), allowed_hosts=["127.0.0.1"])
    failures: list = []
    statuses: list[int] = []
    with running(app) as base:
        schema = schemathesis.openapi.from_url(base + "/openapi.json")
        for found in schema.get_all_operations():
            fuzz(found.ok(), base, who, failures, statuses)
    service.graph.close()
    assert not failures, failures[:5]
    assert statuses.count(200) > len(statuses) // 10  # most operations were reached


def fuzz(operation, base: str, who: str, failures: list, statuses: list) -> None:
    """Send EXAMPLES generated requests of one operation; note each 5xx."""

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def check(case):
        response = case.call(base_url=base, headers=bearer(who), timeout=30)
        statuses.append(response.status_code)
        if response.status_code >= 500:
            failures.append((operation.label, case.body, response.text[:300]))

    check()
