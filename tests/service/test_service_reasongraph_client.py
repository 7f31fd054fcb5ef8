"""ReasonGraph's own ``MemoryClient`` (httpx only, copied unchanged into
tests/reasongraph_client.py) against a real uvicorn serving groundgraph: remember,
remember_many, correct, recall, discover, facts, stats, forget_session."""

from __future__ import annotations

import pytest

from groundgraph.service import MemoryService
from groundgraph.service.http_app import create_app
from reasongraph_client import MemoryClient
from service_server import MATRIX_KEYS, matrix_ring, running

pytestmark = pytest.mark.slow


def test_reasongraphs_client_runs_unchanged():
    with MemoryService() as service, running(create_app(service, keys=matrix_ring())) as base:
        memory = MemoryClient(base, api_key=MATRIX_KEYS["alice"][0])
        other = MemoryClient(base, api_key=MATRIX_KEYS["bob"][0])
        try:
            use(memory, other)
        finally:  # the client never closes its connection pool itself
            memory._http.close()
            other._http.close()


def use(memory: MemoryClient, other: MemoryClient) -> None:
    """Every call the ReasonGraph agents make, as Alice; Bob may not write for her."""
    session = "acme/alice"
    pushed = memory.remember(session, "TSMC is building a chip fab in Phoenix, Arizona.")
    assert pushed["session"] == session
    many = memory.remember_many(
        session,
        ["A drought in Taiwan caused a water shortage.", "The water shortage caused delays."],
    )
    assert many["count"] == 2
    corrected = memory.correct(
        session,
        "TSMC is building a chip fab in Phoenix, Arizona.",
        "TSMC is building two chip fabs in Phoenix, Arizona.",
    )
    assert corrected["superseded"] is True
    recalled = memory.recall("chip fab Phoenix", session=session)
    assert recalled[0] == "TSMC is building two chip fabs in Phoenix, Arizona."
    found = memory.discover("What caused the delays?", session=session)
    assert any("water shortage" in c["content"] for c in found)
    facts = memory.facts(["The water shortage caused delays."])["facts"]
    assert facts[0]["stored"] and facts[0]["sessions"] == [session]
    assert memory.stats()["facts"] == 4  # the corrected fact stays, retired
    gone = memory.forget_session(session)
    assert gone["deleted"] == 4
    assert memory.stats()["facts"] == 0
    with pytest.raises(Exception, match="403"):
        other.remember(session, "Bob writes into Alice's session.")
