"""The exact vector index: top-k by cosine, against a brute-force sort."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.index.embedder import unit_rows
from groundgraph.index.vectors import VectorIndex


def brute_top(vectors: dict[str, np.ndarray], query: np.ndarray, k: int, low: float):
    scored = [(float(v @ query), n) for n, v in vectors.items()]
    scored = [(s, n) for s, n in scored if s >= low]
    scored.sort(key=lambda x: (-x[0], x[1]))
    return scored[:k]


@given(
    st.lists(st.tuples(st.sampled_from("abcdefghij"), st.booleans()), max_size=40),
    st.integers(0, 2**31),
    st.integers(1, 6),
)
def test_top_k_matches_a_brute_force_sort_after_puts_and_removes(ops, seed, k):
    rng = np.random.default_rng(seed)
    index = VectorIndex(4)
    held: dict[str, np.ndarray] = {}
    for node, put in ops:
        if put:
            vector = unit_rows(rng.normal(size=(1, 4)))
            index.put([node], vector)
            held[node] = vector[0]
        else:
            index.remove([node])
            held.pop(node, None)
    assert sorted(index.ids) == sorted(held) and len(index) == len(held)
    query = unit_rows(rng.normal(size=(1, 4)))[0]
    got = index.top(query, k, min_cosine=-0.2)
    want = brute_top(held, query, k, -0.2)
    assert [n for n, _ in got] == [n for _, n in want]
    np.testing.assert_allclose([s for _, s in got], [s for s, _ in want], atol=1e-5)


def test_keep_filters_and_the_list_still_fills_up():
    index = VectorIndex(2)
    ids = [f"n{i:02d}" for i in range(50)]
    index.put(ids, unit_rows(np.array([[1.0, i / 50] for i in range(50)])))
    got = index.top(np.array([1.0, 0.0], np.float32), 5, keep=lambda n: int(n[1:]) % 10 == 9)
    assert [n for n, _ in got] == ["n09", "n19", "n29", "n39", "n49"]
