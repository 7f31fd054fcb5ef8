"""Small weighted graphs with seeds, for the property tests of the PageRank walkers."""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from groundgraph.model import Edge

TYPES = ["parent-child", "next", "reference", "semantic"]


@st.composite
def seeded_graphs(draw: st.DrawFn, max_nodes: int = 10) -> tuple[list[Edge], dict[str, float]]:
    """Edges between up to ``max_nodes`` nodes, and seed scores on some of their ends."""
    n = draw(st.integers(2, max_nodes))
    names = [f"n{i}" for i in range(n)]
    pairs = draw(
        st.lists(st.sampled_from(list(itertools.combinations(names, 2))), unique=True, min_size=1)
    )
    edges = [
        Edge(a, b, draw(st.sampled_from(TYPES)), draw(st.sampled_from([0.3, 0.4, 0.75, 0.8])))
        for a, b in pairs
    ]
    nodes = sorted({e.source for e in edges} | {e.target for e in edges})
    seeds = draw(st.dictionaries(st.sampled_from(nodes), st.sampled_from([0.5, 1.0]), min_size=1))
    return edges, seeds
