"""The per-row cut before the sort of ``index.semantic`` keeps every entry a row's best
``k`` need, so the links are those a sort of all candidates gives."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.index import semantic
from groundgraph.index.link_params import LinkParams
from groundgraph.index.semantic import TermRows, best_per_row, within_top

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


@given(
    st.lists(
        st.lists(st.tuples(st.integers(0, 11), st.sampled_from([0.5, 1.0, 2.0])), max_size=5),
        min_size=1,
        max_size=25,
    ),
    st.sampled_from([1, 2, 7, 64]),
)
def test_the_nearest_rows_do_not_depend_on_the_row_block(terms, block):
    # Rows are scored ROW_BLOCK at a time (semantic.ROW_BLOCK): any block gives the links
    # one product of all the rows gives.
    import scipy.sparse as sp

    cells = {(r, t): w for r, row in enumerate(terms) for t, w in row}
    rows = [r for r, _ in cells]
    shared = sp.csr_matrix(
        (list(cells.values()), (rows, [t for _, t in cells])), shape=(len(terms), 12)
    )
    shared.sort_indices()
    marks = shared.copy()
    marks.data[:] = 1.0
    mass = np.asarray(shared.sum(axis=1)).ravel() + 0.5
    found = TermRows(shared, marks.T.tocsr(), mass, LinkParams(neighbours=3))
    original = semantic.ROW_BLOCK
    try:
        semantic.ROW_BLOCK = len(terms) + 1
        whole = found.nearest(0, len(terms))
        semantic.ROW_BLOCK = block
        parts = found.nearest(0, len(terms))
    finally:
        semantic.ROW_BLOCK = original
    for a, b in zip(
        (whole.rows, whole.cols, whole.sims), (parts.rows, parts.cols, parts.sims), strict=True
    ):
        assert a.tolist() == b.tolist()
