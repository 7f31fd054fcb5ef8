"""The per-row cut before the sort of ``index.semantic`` keeps every entry a row's best
``k`` need, so the links are those a sort of all candidates gives."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.index.semantic import best_per_row, within_top

# Few distinct similarities, so that ties at the cut are common.
entries = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 30), st.sampled_from([0.1, 0.25, 0.5, 0.9, 1.0])),
    max_size=80,
    unique_by=lambda e: (e[0], e[1]),
)


@given(entries, st.integers(0, 6))
def test_the_cut_changes_no_row_s_best(found, k):
    found.sort(key=lambda e: e[0])  # rows ascending, columns in any order
    rows = np.array([e[0] for e in found], dtype=np.int64)
    cols = np.array([e[1] for e in found], dtype=np.int64)
    sims = np.array([e[2] for e in found], dtype=np.float64)
    top = within_top(rows, sims, k)
    whole = best_per_row(rows, cols, sims, k)
    cut = best_per_row(rows[top], cols[top], sims[top], k)
    for a, b in zip(
        (whole.rows, whole.cols, whole.sims), (cut.rows, cut.cols, cut.sims), strict=True
    ):
        assert a.tolist() == b.tolist()
    for row in set(rows.tolist()):  # and it does cut: at most k plus the ties at the k-th
        mine = sims[rows == row]
        if k and len(mine) > k:
            kth = np.sort(mine)[::-1][k - 1]
            assert int(top[rows == row].sum()) == int((mine >= kth).sum())
