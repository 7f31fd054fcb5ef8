"""``pair_sums`` finds each (owner, key) pair once with its summed weight, by either path."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.index import similarity

entries = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 40), st.floats(0.0, 10.0)), min_size=1
)


def _arrays(items: list[tuple[int, int, float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    owners, keys, weights = zip(*items, strict=True)
    return np.array(owners), np.array(keys), np.array(weights, dtype=np.float64)


def _summed_in_entry_order(items: list[tuple[int, int, float]]) -> dict[tuple[int, int], float]:
    sums: dict[tuple[int, int], float] = {}
    for owner, key, weight in items:
        sums[owner, key] = sums.get((owner, key), 0.0) + weight
    return sums


@pytest.mark.parametrize("dense", [True, False])
@given(items=entries)
def test_pairs_come_once_in_order_with_the_sum_of_their_weights(dense, items):
    with pytest.MonkeyPatch.context() as patch:
        # Always a table of cells, or never one (the sorting path).
        patch.setattr(similarity, "DENSE_CELLS_PER_ENTRY", 10**9 if dense else 0)
        owners, keys, sums = similarity.pair_sums(*_arrays(items))
    want = _summed_in_entry_order(items)
    assert list(zip(owners.tolist(), keys.tolist(), strict=True)) == sorted(want)
    assert sums.tolist() == [want[pair] for pair in sorted(want)]  # the same floats
