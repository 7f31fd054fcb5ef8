"""A paged listing refuses an offset or limit no store could bind, on every store."""

from __future__ import annotations

import pytest

from groundgraph.errors import InputError
from groundgraph.model.store_records import MAX_PAGE_OFFSET, DocumentQuery


@pytest.mark.parametrize(
    ("offset", "limit"),
    [
        (10**30, 10),
        (-1, 10),
        (MAX_PAGE_OFFSET + 1, 10),
        (0, 0),
        (0, 10**12),
        (0, 2_000_000),
        (True, 5),
    ],
)
def test_out_of_range_pages_are_input_errors(store, offset, limit):
    with pytest.raises(InputError, match=r"offset|limit"):
        store.reads.document_page(DocumentQuery(), offset=offset, limit=limit)
    assert (
        store.reads.document_page(DocumentQuery(), offset=MAX_PAGE_OFFSET, limit=5).documents == ()
    )
