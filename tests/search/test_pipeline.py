"""The one retrieval pipeline: its stages, and document search and memory recall agreeing
where they should (same index, same BM25, same fusion)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.model import TermScore
from groundgraph.search import fuse_noisy_or, noisy_or, rank
from groundgraph.walk.dijkstra import Reached


class Scores:
    """A lexical stage over fixed normalised scores (``seedable`` may start the walk)."""

    def __init__(self, scores: dict[str, float], seedable: set[str] | None = None) -> None:
        self.scores = scores
        self.seedable = set(scores) if seedable is None else seedable

    def top(self, k: int) -> list[tuple[str, float]]:
        ranked = sorted(self.seedable & set(self.scores), key=lambda n: (-self.scores[n], n))
        return [(n, self.scores[n]) for n in ranked[:k]]

    def scores_of(self, node_ids: Sequence[str]) -> dict[str, float]:
        return {n: self.scores[n] for n in node_ids if n in self.scores}

    def terms(self, node_id: str) -> tuple[TermScore, ...]:
        return ()


def walker_to(reached: dict[str, Reached]):
    seen: list[dict[str, float]] = []

    def walk(seeds: dict[str, float]) -> dict[str, Reached]:
        seen.append(dict(seeds))
        return {**{s: Reached(s, v, 0, (s,), ()) for s, v in seeds.items()}, **reached}

    return walk, seen


def test_seeds_are_the_best_matches_and_reached_nodes_fuse_by_noisy_or() -> None:
    lexical = Scores({"a": 1.0, "b": 0.5, "c": 0.4, "d": 0.2})
    via = Reached("c", 0.6, 1, ("a", "c"), ("next",))
    walk, seen = walker_to({"c": via, "x": Reached("x", 0.3, 1, ("a", "x"), ("next",))})
    ranked = rank(lexical, 2, 10, walk)
    assert seen == [{"a": 1.0, "b": 0.5}]
    scores = {c.node_id: c.score for c in ranked.candidates}
    assert scores["c"] == pytest.approx(1 - (1 - 0.6) * (1 - 0.4))  # reached and matched
    assert scores["x"] == pytest.approx(0.3)  # reached only
    assert scores["d"] == 0.2  # matched only, not reached
    assert scores["a"] == 1.0  # a seed is not counted twice
    assert [c.node_id for c in ranked.candidates] == ["a", "c", "b", "x", "d"]


def test_keep_drops_candidates_and_ties_break_by_id() -> None:
    lexical = Scores({"b": 0.5, "a": 0.5, "z": 0.5})
    walk, _ = walker_to({})
    ranked = rank(lexical, 3, 10, walk, keep=lambda n: n != "z")
    assert [c.node_id for c in ranked.candidates] == ["a", "b"]


def test_only_seedable_matches_start_the_walk_but_all_matches_fuse() -> None:
    lexical = Scores({"mine": 0.5, "theirs": 1.0}, seedable={"mine"})
    walk, seen = walker_to({"theirs": Reached("theirs", 0.4, 1, ("mine", "theirs"), ("x",))})
    ranked = rank(lexical, 5, 5, walk)
    assert seen == [{"mine": 0.5}]
    theirs = next(c for c in ranked.candidates if c.node_id == "theirs")
    assert theirs.lexical == 1.0 and theirs.score == pytest.approx(noisy_or(0.4, 1, 1.0))


def test_no_seed_means_no_walk() -> None:
    walk, seen = walker_to({})
    assert rank(Scores({}), 5, 5, walk).candidates == [] and seen == []
    assert fuse_noisy_or(None, None) == 0.0


_WORDS = ["rain", "flood", "valley", "power", "outage", "river", "bridge", "storm", "grid"]
_FACTS = st.lists(
    st.lists(st.sampled_from(_WORDS), min_size=2, max_size=6).map(" ".join),
    min_size=1,
    max_size=12,
    unique=True,
)


@settings(max_examples=40, deadline=None)
@given(_FACTS, st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3).map(" ".join))
def test_memory_recall_and_search_share_one_index_and_one_bm25(
    facts: list[str], query: str
) -> None:
    # With no walk, recall over every fact and search over a graph of facts alone are the
    # same lexical stage: the same index, the same statistics, the same order and parts.
    graph = DocumentGraph(causal_extractor=False, conflict_resolver=False, dedup_threshold=None)
    for text in facts:
        graph.add_text(text.capitalize() + ".")
    k = len(facts)
    hits = graph.search(query, max_hops=0, max_results=k)
    found = graph.query_detailed(query, top_k=k, hops=0)
    # recall fills up to top_k (memory.fill), after the lexical stage's own hits
    recalled = [r for r in found if r.explanation.seeding.mode != "fill"]
    assert len(found) == k and found[: len(recalled)] == recalled
    assert [h.node_id for h in hits] == [r.fact_id for r in recalled]
    for hit, fact in zip(hits, recalled, strict=True):
        assert hit.lexical_score == pytest.approx(fact.lexical_score, abs=1e-12)
        assert [t.term for t in hit.terms] == [t.term for t in fact.terms]
        for a, b in zip(hit.terms, fact.terms, strict=True):
            assert a.score == pytest.approx(b.score, abs=1e-12) and a.idf == pytest.approx(b.idf)
