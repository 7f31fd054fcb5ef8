"""A scoped read names an entity by a spelling its own documents wrote
(``graph.entity_spellings``), never one only another tenant's text holds: the same title a
store holding only the readable documents would show."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.errors import NotFoundError

ACME, BETA = "acme", "beta"


def two_tenants() -> DocumentGraph:
    graph = DocumentGraph()
    graph.add_document(
        "# Server\nThe Kestrel listens behind Nginx. Requests reach The Kestrel first.",
        "a",
        scopes=[ACME],
    )
    graph.add_document("# Host\nRequests reach Kestrel behind Nginx.", "b", scopes=[BETA])
    return graph


def test_each_tenant_sees_the_entity_under_its_own_spelling():
    graph = two_tenants()
    stored = graph.store.reads.get_nodes(["entity:kestrel"])["entity:kestrel"].title
    assert stored == "Kestrel"  # the shortest of all mentions: beta's
    assert graph.show("entity:kestrel").title == "Kestrel"
    assert graph.show("entity:kestrel", scopes=[BETA]).title == "Kestrel"
    assert graph.show("entity:kestrel", scopes=[ACME]).title == "The Kestrel"
    assert graph.node("entity:kestrel", scopes=[ACME]).title == "The Kestrel"
    links = {link.node_id: link.title for link in graph.show("a#1", scopes=[ACME]).links}
    assert links["entity:kestrel"] == "The Kestrel"
    bridges = graph.bridge("kestrel", "nginx", scopes=[ACME])
    assert bridges and all(b.names[0] == "The Kestrel" for b in bridges)
    assert graph.bridge("kestrel", "nginx", scopes=[BETA])[0].names[0] == "Kestrel"


def test_an_entity_of_another_tenant_alone_stays_unknown():
    graph = DocumentGraph()
    graph.add_document("# Notes\nZephyr ships from Porto.", "z", scopes=[BETA])
    graph.add_document("# Notes\nThe plan is on time.", "p", scopes=[ACME])
    try:
        graph.show("entity:zephyr", scopes=[ACME])
    except NotFoundError:
        pass
    else:
        raise AssertionError("an entity only beta's text names was shown to acme")


NAMES = ("Kestrel", "The Kestrel", "Kestrels", "Kestrel Server", "Nginx", "The Nginx", "Porto")
sentence = st.builds(
    "Then {} talks to {} on {}.".format,
    st.sampled_from(NAMES),
    st.sampled_from(NAMES),
    st.sampled_from(("Monday", "port 80", "the edge")),
)
documents = st.lists(
    st.tuples(st.sampled_from([ACME, BETA]), st.lists(sentence, min_size=1, max_size=3)),
    min_size=1,
    max_size=5,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_a_scoped_title_is_the_one_a_store_of_the_readable_documents_shows(docs):
    shared = DocumentGraph()
    alone = {ACME: DocumentGraph(), BETA: DocumentGraph()}
    for i, (scope, sentences) in enumerate(docs):
        text = "# Note\n" + " ".join(sentences)
        shared.add_document(text, f"d{i}", scopes=[scope])
        alone[scope].add_document(text, f"d{i}", scopes=[scope])
    for scope, own in alone.items():
        texts = " ".join(" ".join(s) for t, s in docs if t == scope)
        for entity in own.store.reads.entity_nodes():
            shown = shared.show(entity.node_id, scopes=[scope]).title
            assert shown == own.show(entity.node_id).title
            assert shown in texts or shown == entity.node_id.removeprefix("entity:")
    for graph in (shared, *alone.values()):
        graph.close()
