"""Semantic edges by shared terms and by cosine when the graph has an embedder (the cosine
floor is then ``min_similarity``, Grounded Graph of Thought's meaning), by shared terms
alone without one."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from fake_embedder import hashed_bag
from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.graph.settings import link_params
from groundgraph.index.links import LinkParams
from groundgraph.index.semantic import Nearest, linkable_nodes
from groundgraph.index.vector_links import (
    DEFAULT_MIN_COSINE,
    SEED_MIN_COSINE,
    CosineLinks,
    TermAndCosineLinks,
)
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


def plain_graph() -> DocumentGraph:
    graph = DocumentGraph()
    for doc_id, text in DOCS.items():
        graph.add_document(text, doc_id.title(), doc_id=doc_id)
    return graph


def pairs(edges: dict[tuple[str, str], float]) -> dict[frozenset[str], float]:
    return {frozenset(pair): weight for pair, weight in edges.items()}


@pytest.mark.parametrize("floor", [None, SEED_MIN_COSINE])
def test_every_edge_is_a_term_link_or_a_pair_above_the_cosine_floor(floor: float | None) -> None:
    graph = built(list(DOCS), min_similarity=floor)
    least = DEFAULT_MIN_COSINE if floor is None else floor
    edges, cos = semantic(graph), cosines(graph)
    terms = pairs(semantic(plain_graph()))
    assert terms and set(terms) <= set(pairs(edges))  # term links are kept
    if floor is not None:
        assert set(pairs(edges)) > set(terms)  # and meaning adds links
    for (a, b), weight in edges.items():
        by_terms = terms.get(frozenset((a, b)))
        if by_terms is None:  # a pair only the cosine links
            assert cos[(a, b)] >= least - 1e-6, (a, b)
            assert weight == pytest.approx(semantic_weight(cos[(a, b)]), abs=1e-5)
        else:
            assert weight == by_terms


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
    cos = cosines(built(list(DOCS)))
    terms = set(pairs(semantic(plain_graph())))
    floors = [SEED_MIN_COSINE, 0.4, DEFAULT_MIN_COSINE, 0.9]
    found = [set(semantic(built(list(DOCS), min_similarity=f))) for f in floors]
    assert set(semantic(built(list(DOCS)))) == found[floors.index(DEFAULT_MIN_COSINE)]
    assert {frozenset(p) for p in found[-1]} == terms  # nothing is that close: terms only
    assert found[0] > found[-1]  # the seed's floor links more
    for floor, edges in zip(floors, found, strict=True):
        extra = [pair for pair in edges if frozenset(pair) not in terms]
        assert all(cos[pair] >= floor - 1e-6 for pair in extra)
    for looser, stricter in itertools.pairwise(found):
        assert looser >= stricter


def test_the_edges_do_not_depend_on_the_order_documents_came_in() -> None:
    first = semantic(built(["cars", "trips", "kitchen"]))
    assert all(semantic(built(list(order))) == first for order in itertools.permutations(DOCS))


def test_without_an_embedder_edges_come_from_shared_terms_at_0_08() -> None:
    plain = DocumentGraph()
    for doc_id, text in DOCS.items():
        plain.add_document(text, doc_id.title(), doc_id=doc_id)
    embedded = semantic(built(list(DOCS), min_similarity=SEED_MIN_COSINE))
    assert set(semantic(plain)) < set(embedded)
    assert link_params(5, None) == LinkParams(neighbours=5)
    assert (LinkParams().min_similarity, LinkParams().min_cosine) == (0.08, DEFAULT_MIN_COSINE)
    assert link_params(5, 0.2) == LinkParams(neighbours=5, min_similarity=0.2)
    assert link_params(5, 0.2, embedded=True) == LinkParams(neighbours=5, min_cosine=0.2)


def nearest(rows: list[int], cols: list[int], sims: list[float]) -> Nearest:
    return Nearest(np.array(rows, np.int64), np.array(cols, np.int64), np.array(sims))


def test_a_pair_both_kinds_propose_is_one_link_at_its_term_similarity(monkeypatch) -> None:
    import groundgraph.index.vector_links as vector_links

    terms = nearest([0, 1, 2], [1, 2, 3], [0.1, 0.2, 0.3])
    cosine = nearest([1, 2, 2, 3, 0], [0, 1, 1, 0, 3], [0.7, 0.1, 0.15, 0.6, 0.6])
    monkeypatch.setattr(vector_links, "term_similarity", lambda index, nodes, params: terms)
    both = TermAndCosineLinks(lambda index, nodes, params: cosine)  # type: ignore[arg-type]
    nodes = linkable_nodes(built(["cars"]).index)
    found = both(None, nodes, LinkParams())  # type: ignore[arg-type]
    links = {
        (r, c): s
        for r, c, s in zip(
            found.rows.tolist(), found.cols.tolist(), found.sims.tolist(), strict=True
        )
    }
    # Term links stay as they are; the pairs only the cosine proposes (0-3, both ways)
    # come after them.
    assert links == {(0, 1): 0.1, (1, 2): 0.2, (2, 3): 0.3, (3, 0): 0.6, (0, 3): 0.6}


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
