"""Dense seeds, reciprocal-rank fusion and the reranker slot, with a fake embedder."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fake_embedder import BagEmbedder
from groundgraph import DocumentGraph
from groundgraph.errors import InputError

PAGES = {
    "cars": "# Cars\n\n## Buying\n\nChoose an automobile that fits the family.\n\n"
    "## Repairs\n\nCar breakdown on the road: call a tow truck.\n",
    "sky": "# Sky\n\n## Colour\n\nThe sky is blue because of scattering.\n",
    "garden": "# Garden\n\n## Roses\n\nRoses need sun; the vehicle and automobile path runs by.\n",
}


@pytest.fixture(scope="module")
def graphs() -> tuple[DocumentGraph, DocumentGraph]:
    plain, embedded = DocumentGraph(), DocumentGraph(embed=BagEmbedder())
    for graph in (plain, embedded):
        for doc_id, text in PAGES.items():
            graph.add_document(text, doc_id.title(), doc_id=doc_id)
    return plain, embedded


def test_keyword_search_is_the_same_with_or_without_an_embedder(graphs):
    plain, embedded = graphs
    for query in ("tow truck", "blue sky", "roses", "buying an automobile", "nothing here"):
        assert [h.to_dict() for h in plain.search(query)] == [
            h.to_dict() for h in embedded.search(query)
        ]


def test_a_keyword_hit_says_it_was_seeded_lexically_with_its_rank(graphs):
    hits = graphs[0].search("tow truck")
    assert hits and all(h.seed is not None and h.seed.mode == "keyword" for h in hits)
    direct = [h for h in hits if h.hops == 0]
    assert direct[0].seed.lexical_rank == 1 and direct[0].seed.cosine is None
    walked = [h for h in hits if h.hops > 0]
    assert all(h.seed.node_id == h.path[0] for h in walked)


def test_embedding_seeds_find_what_no_word_matches(graphs):
    plain, embedded = graphs
    assert not plain.search("motor fault")
    hits = embedded.search("motor fault", search_mode="embedding")
    assert hits[0].node_id == "cars#2"  # "breakdown" and "car" share the fake's axes
    seed = hits[0].seed
    assert seed.mode == "embedding" and seed.cosine_rank == 1 and seed.lexical_rank is None
    assert 0.3 <= seed.cosine <= 1 and hits[0].terms == ()


def test_hybrid_fuses_both_rankings_by_reciprocal_rank(graphs):
    _, embedded = graphs
    hits = embedded.search("automobile repairs truck", search_mode="hybrid", rrf_k=60)
    for hit in hits:
        seed = hit.seed
        assert seed is not None and seed.mode == "hybrid"
        expected = sum(1 / (60 + r) for r in (seed.lexical_rank, seed.cosine_rank) if r)
        assert seed.fused == pytest.approx(expected)
    top = hits[0].seed
    assert top.lexical_rank is not None and top.cosine_rank is not None
    assert hits[0].terms  # the lexical parts are kept beside the cosine


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["keyword", "embedding", "hybrid"]), st.integers(1, 200))
def test_every_hit_of_every_mode_explains_its_seed(graphs, mode, rrf_k):
    _, embedded = graphs
    for query in ("automobile breakdown", "sky scattering", "roses vehicle"):
        for hit in embedded.search(query, search_mode=mode, rrf_k=rrf_k):
            assert hit.seed.mode == mode and hit.seed.node_id == hit.path[0]
            if mode != "keyword":
                assert hit.seed.cosine_rank is not None or hit.seed.lexical_rank is not None
            assert hit.seed.to_dict()["nodeId"] == hit.path[0]


def test_bad_fusion_settings_are_refused(graphs):
    with pytest.raises(InputError, match="rrf_k"):
        graphs[1].search("sky", search_mode="hybrid", rrf_k=0)


def fake_reranker(query: str, texts: list[str]) -> list[float]:
    """Deterministic: the shorter the text, the better (ties by nothing: stable)."""
    return [-float(len(t)) for t in texts]


def test_a_reranker_reorders_after_the_walk_and_its_score_is_recorded():
    graph = DocumentGraph(rerank=fake_reranker, rerank_top_k=10)
    plain = DocumentGraph()
    for g in (graph, plain):
        for doc_id, text in PAGES.items():
            g.add_document(text, doc_id.title(), doc_id=doc_id)
    before = plain.search("automobile breakdown buying", max_results=3)
    pool = plain.search("automobile breakdown buying", max_results=10)
    after = graph.search("automobile breakdown buying", max_results=3)
    lengths = {h.node_id: len(f"{h.title}\n{h.content}") for h in pool}
    assert [h.node_id for h in after] == sorted(lengths, key=lambda n: lengths[n])[:3]
    assert all(h.rerank_score == -lengths[h.node_id] for h in after)
    assert all(h.rerank_score is None for h in before)
    by_id = {h.node_id: h for h in pool}
    assert all(h.score == by_id[h.node_id].score for h in after)  # pipeline score kept


def test_a_reranker_that_returns_the_wrong_count_is_refused():
    graph = DocumentGraph(rerank=lambda q, texts: [1.0])
    graph.add_document(PAGES["cars"], "Cars")
    with pytest.raises(InputError, match="one finite score per text"):
        graph.search("automobile breakdown")
    with pytest.raises(InputError, match="rerank"):
        DocumentGraph(rerank="cross-encoder")  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", ["embedding", "hybrid"])
def test_dense_seeds_stay_inside_the_documents_and_scopes_asked_for(mode):
    graph = DocumentGraph(embed=BagEmbedder())
    for doc_id, text in PAGES.items():
        graph.add_document(text, doc_id.title(), doc_id=doc_id)
    everywhere = {h.doc_id for h in graph.search("vehicle motor", search_mode=mode)}
    assert {"cars", "garden"} <= everywhere
    only = graph.search("vehicle motor", search_mode=mode, doc_ids=["garden"])
    assert only and {h.doc_id for h in only} == {"garden"}
    assert all(n.startswith("garden") for h in only for n in h.path)
