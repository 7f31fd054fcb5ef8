"""The evidence layer through the DocumentGraph: entities, bridges, answers, relation facts."""

from __future__ import annotations

import pytest

from groundgraph import DocumentGraph, InputError, NotFoundError

LAB = """# Aurora Project

## Origins

Aurora was developed by Aster Research in Lisbon.

## Evaluation

Aurora was evaluated on the Atlas benchmark. The Atlas benchmark measures recall.
"""

PEOPLE = """# Family Notes

## Parents

Bo Lind is the father of Ann Lind. Cy Lind is the father of Bo Lind.

## Work

Ann Lind works at Aster Research.
"""


@pytest.fixture
def graph() -> DocumentGraph:
    g = DocumentGraph()
    g.add_document(LAB, "Aurora Project")
    g.add_document(PEOPLE, "Family Notes")
    return g


def test_entities_are_shared_nodes_with_mentions(graph):
    entities = {n.node_id: n.title for n in graph.store.reads.entity_nodes()}
    assert entities["entity:aster research"] == "Aster Research"
    mentions = {
        e.source
        for e in graph.store.reads.iter_edges(["mentions"])
        if e.target == "entity:aster research"
    }
    assert mentions == {"aurora-project#1", "family-notes#2"}
    for edge in graph.store.reads.iter_edges(["mentions", "co-occurs"]):
        node_id, start, end = edge.spans[0]
        content = graph.node(node_id).content
        assert 0 <= start < end <= len(content)


def test_walk_crosses_section_entity_section(graph):
    hits = graph.search("Ann Lind works")
    lab = [h for h in hits if h.doc_id == "aurora-project"]
    assert lab, "the shared entity should bring the lab's sections in"
    assert any(node.startswith("entity:") for node in lab[0].path)


def test_bridge_cites_every_hop(graph):
    bridges = graph.bridge("Aurora", "Ann Lind")
    assert bridges
    first = bridges[0]
    assert first.nodes[0] == "entity:aurora" and first.nodes[-1] == "entity:ann lind"
    assert first.names[0] == "Aurora"
    for hop in first.hops:
        assert hop.support is not None
        content = graph.node(hop.support.node_id).content
        assert content[hop.support.start : hop.support.end] == hop.support.text
    lengths = [len(b.hops) for b in bridges]
    assert lengths == sorted(lengths)


def test_bridge_errors_are_clear(graph):
    with pytest.raises(NotFoundError, match="no node, entity or indexed word"):
        graph.bridge("Nobody Here", "Aurora")
    with pytest.raises(InputError, match="max_hops"):
        graph.bridge("Aurora", "Atlas", max_hops=99)
    assert graph.bridge("Aurora", "aurora-project#2", max_hops=1)


def test_ask_answers_with_copied_cited_sentences(graph):
    answer = graph.ask("Who developed Aurora?")
    assert answer.status == "answered"
    cite = answer.sentences[0]
    assert cite.text == "Aurora was developed by Aster Research in Lisbon."
    node = graph.node(cite.node_id)
    assert node.content[cite.start : cite.end] == cite.text
    assert cite.source_start is not None and cite.source_end - cite.source_start == len(cite.text)


def test_ask_abstains_on_an_unrelated_question(graph):
    assert graph.ask("What is the boiling point of mercury?").status == "insufficient_evidence"
    assert graph.ask("").status == "insufficient_evidence"
    strict = graph.ask("Who developed Aurora?", threshold=1.01)
    assert strict.status == "insufficient_evidence" and strict.sentences == ()


def test_relation_statements_become_proofs_with_sources(graph):
    reasoner = graph.reasoner()
    verdict = reasoner.verify("Ann Lind", "Cy Lind", via="father")
    assert verdict.grounded
    assert verdict.proof == ("Ann Lind", "Bo Lind", "Cy Lind")
    assert all(hop.sources == ("family-notes#1",) for hop in verdict.hops)


def test_add_fact_with_and_without_a_source(graph):
    graph.add_fact("Ann Lind", "manager", "Dee Moss", source="family-notes#2")
    graph.add_fact("Dee Moss", "manager", "Eve Ro")
    verdict = graph.reasoner().verify("Ann Lind", "Eve Ro", via="manager")
    assert verdict.grounded and verdict.hops[0].sources == ("family-notes#2",)
    assert graph.store.reads.get_document("facts") is not None
    with pytest.raises(NotFoundError):
        graph.add_fact("A", "b", "C", source="missing#9")
    with pytest.raises(InputError):
        graph.add_fact("", "manager", "X")
    graph.remove_document("family-notes")
    assert not graph.reasoner().verify("Ann Lind", "Dee Moss", via="manager").grounded


def test_removing_a_document_removes_its_orphan_entities(graph):
    graph.remove_document("aurora-project")
    ids = {n.node_id for n in graph.store.reads.entity_nodes()}
    assert "entity:aurora" not in ids and "entity:atlas benchmark" not in ids
    assert "entity:aster research" in ids  # still named by the family notes


def test_extractors_can_be_swapped_or_turned_off():
    plain = DocumentGraph(entities=None, relations=None)
    plain.add_document(LAB, "Aurora Project")
    assert plain.store.reads.entity_nodes() == []

    def shouting(text):
        from groundgraph.ingest.entities import Mention

        i = text.find("recall")
        return [Mention(i, i + 6, "recall", "recall", "name")] if i >= 0 else []

    custom = DocumentGraph(entities=shouting, relations=None)
    custom.add_document(LAB, "Aurora Project")
    assert [n.node_id for n in custom.store.reads.entity_nodes()] == ["entity:recall"]


def test_document_titles_are_entities_in_other_documents():
    g = DocumentGraph()
    g.add_document("# Tidal Atlas\n\nCharts of the bay.", "Tidal Atlas")
    g.add_document("# Log\n\n## Monday\n\nwe checked the tidal atlas before leaving.", "Log")
    from groundgraph.ingest import normalise_entity

    mentioned = {e.target for e in g.store.reads.iter_edges(["mentions"]) if e.source == "log#1"}
    assert "entity:" + normalise_entity("Tidal Atlas") in mentioned
