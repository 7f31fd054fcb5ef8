"""Semantic edges by cosine when the graph has an embedder (Grounded Graph of Thought's
meaning of ``min_similarity``), and by shared terms without one."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from fake_embedder import hashed_bag
from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.graph.settings import link_params
from groundgraph.index.links import LinkParams
from groundgraph.index.semantic import linkable_nodes
from groundgraph.index.vector_links import CosineLinks
from groundgraph.index.vectors import VectorIndex
from groundgraph.model import semantic_weight

DOCS = {
    "cars": "# Car care\n## Breakdowns\nWhen the car has a breakdown on the road, call for a tow.\n"
    "## Buying\nCompare prices before you choose.\n## Insurance\nCover for theft and fire.",
    "trips": "# Road trips\n## Tow trucks\nCall a tow truck when the vehicle breaks down.\n"
    "## Packing\nBring water and a map for the road.",
    "kitchen": "# Kitchen\n## Bread\nKnead the dough and let it rise.\n"
    "## Ovens\nPreheat the oven before the bread goes in.",
}


def semantic(graph: DocumentGraph) -> dict[tuple[str, str], float]:
    graph.search("car")  # semantic edges are brought up to date on a read
    return {(e.source, e.target): e.weight for e in graph.store.reads.iter_edges(["semantic"])}


def built(order: list[str], **options: object) -> DocumentGraph:
    graph = DocumentGraph(embed=hashed_bag, **options)  # type: ignore[arg-type]
    for doc_id in order:
        graph.add_document(DOCS[doc_id], doc_id.title(), doc_id=doc_id)
    return graph


def cosines(graph: DocumentGraph) -> dict[tuple[str, str], float]:
    index = graph.indexes.embeddings.index()
    nodes = set(linkable_nodes(graph.index).node_ids)
    matrix = index.matrix.astype(np.float64) @ index.matrix.T.astype(np.float64)
    return {
        (a, b): float(matrix[index.position[a], index.position[b]])
        for a, b in itertools.permutations(index.ids, 2)
        if a in nodes and b in nodes
    }


def test_every_edge_is_a_pair_at_or_above_the_cosine_floor_weighted_by_its_cosine() -> None:
    graph = built(list(DOCS))
    edges, cos = semantic(graph), cosines(graph)
    assert edges
    for (a, b), weight in edges.items():
        assert cos[(a, b)] >= 0.3 - 1e-6
        assert weight == pytest.approx(semantic_weight(cos[(a, b)]), abs=1e-5)


def test_each_node_proposes_its_nearest_by_cosine_above_the_floor() -> None:
    graph = built(list(DOCS))
    graph.search("car")
    nodes = linkable_nodes(graph.index)
    vectors = graph.indexes.embeddings.index
    found = CosineLinks(vectors, 0.3)(graph.index, nodes, LinkParams(neighbours=1))
    proposed = dict(zip(found.rows.tolist(), found.cols.tolist(), strict=True))
    cos = cosines(graph)
    ids = nodes.node_ids
    for row, node in enumerate(ids):
        others = {b: c for (a, b), c in cos.items() if a == node}
        best = max(sorted(others), key=lambda b: others[b])  # ties to the smaller id
        if others[best] >= 0.3 + 1e-6:
            assert ids[proposed[row]] == best, node
        elif others[best] < 0.3 - 1e-6:
            assert row not in proposed, node


def test_min_similarity_is_the_cosine_floor_with_an_embedder() -> None:
    loose, strict = semantic(built(list(DOCS))), semantic(built(list(DOCS), min_similarity=0.6))
    cos = cosines(built(list(DOCS)))
    assert set(strict) < set(loose)
    assert all(cos[pair] >= 0.6 - 1e-6 for pair in strict)
    assert any(cos[pair] < 0.6 for pair in loose)


def test_the_edges_do_not_depend_on_the_order_documents_came_in() -> None:
    first = semantic(built(["cars", "trips", "kitchen"]))
    assert all(semantic(built(list(order))) == first for order in itertools.permutations(DOCS))


def test_without_an_embedder_edges_come_from_shared_terms_at_0_08() -> None:
    plain = DocumentGraph()
    for doc_id, text in DOCS.items():
        plain.add_document(text, doc_id.title(), doc_id=doc_id)
    embedded = semantic(built(list(DOCS)))
    assert semantic(plain) != embedded
    assert link_params(5, None) == LinkParams(neighbours=5)
    assert (LinkParams().min_similarity, LinkParams().min_cosine) == (0.08, 0.3)


def test_a_node_without_a_vector_is_never_linked_by_cosine() -> None:
    graph = built(list(DOCS))
    graph.search("car")  # the lexical index caught up with the store
    full = graph.indexes.embeddings.index()
    kept = [i for i in full.ids if i != "trips#2"]
    partial = VectorIndex(full.dimension)
    partial.put(kept, full.matrix[[full.position[i] for i in kept]])
    nodes = linkable_nodes(graph.index)
    found = CosineLinks(lambda: partial, 0.0)(graph.index, nodes, LinkParams(neighbours=10))
    at = nodes.node_ids.index("trips#2")
    assert at not in found.rows.tolist() and at not in found.cols.tolist()
    assert len(found.rows) > 0


@pytest.mark.parametrize("bad", ["0.3", True, [0.3]])
def test_min_similarity_must_be_a_number(bad: object) -> None:
    with pytest.raises(InputError, match="min_similarity"):
        DocumentGraph(min_similarity=bad)  # type: ignore[arg-type]
