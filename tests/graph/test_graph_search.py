"""Search through the DocumentGraph facade: the seed example and explanations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph, InputError, InputTooLargeError, NotFoundError


def test_seed_readme_example_runs_unchanged(guide):
    graph = DocumentGraph()
    graph.add_document(guide, "User Guide")
    rows = [
        (hit["title"], hit["edgeType"], round(hit["score"], 2))
        for hit in graph.search("config fails")
    ]
    assert [r[0] for r in rows] == [
        "Troubleshooting",
        "Configuration",
        "Deployment",
        "Installation",
    ]
    assert rows[0][1] is None and rows[0][2] == 1.0
    assert rows[1][1] == "reference" and rows[1][2] == pytest.approx(0.78, abs=0.03)
    assert rows[2][1] == "next" and rows[2][2] == pytest.approx(0.34, abs=0.03)
    assert rows[3][1] == "parent-child" and rows[3][2] == pytest.approx(0.23, abs=0.03)
    context = graph.retrieve("deploy")
    assert context.startswith("### Deployment [user-guide#3]\nPush the build")


def test_hits_explain_themselves(guide):
    graph = DocumentGraph()
    graph.add_document(guide, "User Guide")
    hits = {h.title: h for h in graph.search("config fails")}
    trouble, config, install = hits["Troubleshooting"], hits["Configuration"], hits["Installation"]
    assert trouble.hops == 0 and trouble.via is None and trouble.path == ("user-guide#4",)
    assert {t.term for t in trouble.terms} == {"config", "fail"}
    assert sum(t.score for t in trouble.terms) > 0
    assert config.via == "user-guide#4" and config.path == ("user-guide#4", "user-guide#2")
    assert config.lexical_score > 0 and config.graph_score == pytest.approx(0.75 * 0.85)
    assert 1 - (1 - config.graph_score) * (1 - config.lexical_score) == pytest.approx(config.score)
    assert install.path == ("user-guide#4", "user-guide", "user-guide#1")
    assert install.edge_types == ("parent-child", "parent-child")
    assert install.to_dict()["lexicalScore"] == 0.0


def test_outline_and_show(guide):
    graph = DocumentGraph()
    graph.add_document(guide, "User Guide")
    assert graph.outline("user-guide").splitlines() == [
        "- [user-guide] User Guide",
        "  - [user-guide#1] Installation",
        "  - [user-guide#2] Configuration",
        "  - [user-guide#3] Deployment",
        "  - [user-guide#4] Troubleshooting",
    ]
    view = graph.show("user-guide#4")
    assert view["parentId"] == "user-guide"
    assert {(link["nodeId"], link["type"]) for link in view["links"]} >= {
        ("user-guide#2", "reference"),
        ("user-guide#3", "next"),
    }
    with pytest.raises(NotFoundError, match="unknown node"):
        graph.show("nope#1")
    with pytest.raises(NotFoundError, match="unknown document"):
        graph.outline("nope")


def test_walk_crosses_documents_by_title(kitchen, garden):
    graph = DocumentGraph()
    graph.add_document(kitchen, "Kitchen Notes")
    graph.add_document(garden, "Garden Log")
    view = graph.show("garden-log#2")
    assert ("kitchen-notes", "reference") in {(x["nodeId"], x["type"]) for x in view["links"]}
    hits = graph.search("tomatoes harvest")
    assert hits[0].node_id == "garden-log#2"
    assert any(h.doc_id == "kitchen-notes" and h.hops > 0 for h in hits)


def test_doc_ids_filter(kitchen, garden):
    graph = DocumentGraph()
    graph.add_document(kitchen, "Kitchen Notes")
    graph.add_document(garden, "Garden Log")
    hits = graph.search("flour", doc_ids=["garden-log"])
    assert hits and all(h.doc_id == "garden-log" for h in hits)


def test_no_match_gives_no_hits_and_bad_queries_are_clear(guide):
    graph = DocumentGraph()
    graph.add_document(guide, "User Guide")
    assert graph.search("zebra quantum") == []
    assert graph.search("") == []
    assert graph.search("the and of") == []
    with pytest.raises(InputTooLargeError, match="shorten the query"):
        graph.search("config " * 5000)
    with pytest.raises(InputError):
        graph.search("config", max_results=0)


def test_empty_graph_searches_cleanly():
    assert DocumentGraph().search("anything") == []


VOCAB = ["river", "stone", "bridge", "lamp", "harbor", "salt", "copper", "wind", "garden"]
section = st.tuples(
    st.lists(st.sampled_from(VOCAB), min_size=1, max_size=2),
    st.lists(st.sampled_from(VOCAB), min_size=0, max_size=12),
)
documents = st.lists(st.lists(section, min_size=1, max_size=5), min_size=1, max_size=4)


@settings(max_examples=40, deadline=None)
@given(documents, st.lists(st.sampled_from(VOCAB), min_size=1, max_size=3))
def test_every_hit_path_follows_real_edges(docs, query):
    graph = DocumentGraph()
    for d, sections in enumerate(docs):
        text = "\n\n".join(f"## {' '.join(t)}\n\n{' '.join(b)}" for t, b in sections)
        graph.add_document(text, f"Doc {d}", doc_id=f"doc{d}")
    edges = {}
    for edge in graph.store.reads.iter_edges():
        edges.setdefault(frozenset((edge.source, edge.target)), set()).add(edge.type)
    for hit in graph.search(" ".join(query)):
        assert hit.path[-1] == hit.node_id
        assert len(hit.path) == hit.hops + 1
        for a, b, kind in zip(hit.path[:-1], hit.path[1:], hit.edge_types, strict=True):
            assert kind in edges.get(frozenset((a, b)), set()), (a, b, kind)
        if hit.hops:
            assert hit.via == hit.path[-2] and hit.edge_type == hit.edge_types[-1]
        assert 0 < hit.score <= 1.0 + 1e-9
