"""``FactLedger.fact_counts``: the whole memory's ``/stats`` counted by the store gives
what counting the facts one by one in Python gives (``inventory.visible_counts``), over
facts with entities, relations and causes, a document beside them, a fact deleted and
one superseded."""

from __future__ import annotations

from groundgraph.graph import DocumentGraph
from groundgraph.service.access import Access
from groundgraph.service.inventory import counts, visible_counts
from groundgraph.service.memory_service import MemoryService
from groundgraph.store import DocumentWrites, FactLedger, GraphReads

REQUIRES = (DocumentWrites, GraphReads, FactLedger)

FACTS = (
    ("acme/alice", "Alice lives in Lisbon."),
    ("acme/alice", "Alice works with Bob on the Atlas plan."),
    ("acme/alice/chat-1", "Heavy rain caused the flood in the valley."),
    ("acme/bob", "The flood in the valley caused the road closure."),
    ("acme/bob", "Bob moved to Porto."),
    ("acme/bob", "Carol manages the Atlas plan."),
)


def test_the_store_counts_what_python_counts(store):
    graph = DocumentGraph(store=store)
    service = MemoryService(graph)
    everyone = Access.everything()
    assert (
        counts(graph, everyone)
        == visible_counts(graph, everyone)
        == {
            "facts": 0,
            "entities": 0,
            "edges": 0,
            "sessions": 0,
            "pending": 0,
        }
    )
    for session, text in FACTS:
        service.push(session, text)
    graph.add_document("# Atlas\nAlice and Carol run the Atlas plan in Lisbon.", "Atlas")
    found = counts(graph, everyone)
    assert found == visible_counts(graph, everyone)
    assert found["facts"] == len(FACTS) and found["sessions"] >= 2
    assert found["entities"] > 0 and found["edges"] > 0
    service.delete(FACTS[1][1])
    service.supersede("acme/bob", FACTS[4][1], "Bob moved to Faro.")
    after = counts(graph, everyone)
    assert after == visible_counts(graph, everyone) and after != found
