"""The live nodes that hold every one of a few terms: a conjunctive postings lookup.

Titles are looked for this way (``graph.linking``, ``graph.title_mentions``): which nodes
hold every term of a title, before the exact words are checked. Each term's postings are
ascending positions with no repeat (``LexicalIndex.postings``), so the lookup starts from
the rarest term and keeps, for every other term, the positions that a binary search finds
in its postings: O(r · t · log P) for r positions of the rarest of t terms, where sorting
or merging whole postings lists would cost O(P) per frequent term, and a title such as
"Compiler Error C2065" pairs one rare term with very frequent ones.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from groundgraph.index.bm25 import LexicalIndex

IntArray = npt.NDArray[np.int64]


def positions_with_every_term(index: LexicalIndex, terms: Sequence[str]) -> IntArray | None:
    """Ascending positions of the live nodes holding every term (analysed terms, as the
    index keeps them); None when a term is not in the index at all, and every live node
    when ``terms`` is empty."""
    if not terms:
        return np.flatnonzero(index.alive_mask(np.arange(len(index.node_ids))))
    lists = []
    for term in dict.fromkeys(terms):
        tid = index.term_id(term)
        if tid is None:
            return None
        lists.append(index.postings(tid)[0])
    lists.sort(key=len)
    common = lists[0].astype(np.int64)
    for other in lists[1:]:
        if not len(common):
            break
        at = np.searchsorted(other, common)
        inside = at < len(other)
        hit = np.zeros(len(common), dtype=bool)
        hit[inside] = other[at[inside]] == common[inside]
        common = common[hit]
    return common[index.alive_mask(common)] if len(common) else common
