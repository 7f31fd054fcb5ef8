"""Batch indexing equals node-by-node indexing: the same index, postings, scores and bytes."""

from __future__ import annotations

import pickle
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.errors import InputError
from groundgraph.index.bm25 import BM25Params, LexicalIndex
from groundgraph.index.postings import TermPostings
from groundgraph.index.snapshot import dump_index
from groundgraph.index.term_batch import TermBatch

WORDS = [f"t{i}" for i in range(12)]

counts_strategy = st.dictionaries(
    st.sampled_from(WORDS),
    st.one_of(st.integers(1, 4), st.sampled_from([65535, 70_000])),  # capped at 65535
    max_size=8,
).map(Counter)

node_strategy = st.tuples(counts_strategy, st.booleans())  # (counts, blank)

operation = st.one_of(
    st.tuples(st.just("add"), st.integers(0, 5), st.lists(node_strategy, max_size=6)),
    st.tuples(st.just("mixed"), st.integers(0, 5), st.lists(node_strategy, max_size=6)),
    st.tuples(st.just("remove"), st.integers(0, 5), st.just([])),
    st.tuples(st.just("compact"), st.just(0), st.just([])),
)
# How the batch side passes a batch's counts: as Counters, as a TermBatch of them, or as
# take() of a TermBatch of more nodes, whose ids were looked up before the last operation.
FORMS = ["counts", "batch", "take"]


def _fresh(buffer: int) -> LexicalIndex:
    index = LexicalIndex(params=BM25Params(title_boost=0))
    index._postings = TermPostings(buffer)
    return index


def _apply(index: LexicalIndex, ops: list[Any], forms: list[str] | None) -> list[str]:
    """Run the operations node by node (``forms`` None) or in batches; what each one did."""
    log = []
    batches = [_batch_for(nodes, f) for (_, _, nodes), f in zip(ops, forms or [], strict=False)]
    for k, (kind, doc, nodes) in enumerate(ops):
        doc_id = f"d{doc}"
        if forms is not None and k + 1 < len(ops):
            batches[k + 1][0].term_ids(index.vocab)  # stale by the time it is used
        if kind == "remove":
            log.append(repr(index.remove_doc(doc_id)))
            continue
        if kind == "compact":
            index.compact()
            continue
        # "mixed": each node names its own document (one of two), as a list of doc ids.
        docs = [f"d{doc + i % 2}" if kind == "mixed" else doc_id for i in range(len(nodes))]
        ids = [f"{d}#{i}" for i, d in enumerate(docs)]
        try:
            if forms is not None:
                given_docs: str | list[str] = doc_id if kind == "add" else docs
                blanks = [b for _, b in nodes]
                log.append(repr(index.add_many(ids, given_docs, batches[k][1], blanks)))
            else:
                positions = []
                for node_id, d, (counts_one, blank) in zip(ids, docs, nodes, strict=True):
                    positions.append(index.add_counts(node_id, d, counts_one, blank))
                log.append(repr(positions))
        except InputError as error:
            log.append(f"error {error}")
    return log


def _batch_for(nodes: list[Any], form: str) -> tuple[TermBatch, Any]:
    """(the batch whose ids get looked up early, what add_many is given)."""
    counts = [c for c, _ in nodes]
    if form == "take":  # the nodes in reverse among others, then picked back in order
        extra = [Counter({"t0": 1, "zz": 2}), Counter({"yy": 1})]
        whole = TermBatch.of(extra + counts[::-1])
        return whole, whole.take([len(extra) + len(counts) - 1 - i for i in range(len(counts))])
    batch = TermBatch.of(counts)
    return batch, batch if form == "batch" else counts


def _state(index: LexicalIndex) -> dict[str, Any]:
    n = len(index.node_ids)
    live = sorted(index.position.values())
    return {
        "terms": list(index.terms),
        "vocab": dict(index.vocab),
        "df": index.df_array().tolist(),
        "node_ids": list(index.node_ids),
        "doc_of": list(index.doc_of),
        "position": dict(index.position),
        "doc_positions": {d: list(p) for d, p in index.doc_positions.items()},
        "length": index.lengths(np.arange(n)).tolist(),
        "alive": index.alive_mask(np.arange(n)).tolist(),
        "blank": [index.is_blank(p) for p in range(n)],
        "counters": (index.live_count, index.total_length, index.dead_postings),
        "posting_count": index.posting_count(),
        "postings": [
            (pos.tolist(), tf.tolist(), str(pos.dtype), str(tf.dtype))
            for pos, tf in map(index.postings, range(len(index.terms)))
        ],
        "node_terms": [
            (index.node_terms(p)[0].tolist(), index.node_terms(p)[1].tolist()) for p in live
        ],
        "all_postings": sorted(zip(*(a.tolist() for a in index.posting_arrays()), strict=True)),
    }


def _scores(index: LexicalIndex) -> list[tuple[list[int], list[float]]]:
    out = []
    for i in range(0, len(WORDS), 3):
        matches = index.match_terms(WORDS[i : i + 3])
        out.append((matches.positions.tolist(), matches.scores.tolist()))
    return out


@settings(max_examples=150, deadline=None)
@given(
    ops=st.lists(operation, max_size=12),
    buffers=st.tuples(st.sampled_from([1, 3, 16, 16_384]), st.sampled_from([1, 5, 16_384])),
    data=st.data(),
)
def test_add_many_equals_add_counts_node_by_node(ops, buffers, data):
    forms = data.draw(st.lists(st.sampled_from(FORMS), min_size=len(ops), max_size=len(ops)))
    one, many = _fresh(buffers[0]), _fresh(buffers[1])
    assert _apply(one, ops, None) == _apply(many, ops, forms)
    assert _state(one) == _state(many)
    assert _scores(one) == _scores(many)
    assert dump_index(one) == dump_index(many)
    assert _state(one) == _state(many)  # after the compaction that dump does


def test_add_many_refuses_a_node_indexed_already_after_adding_those_before_it():
    index = _fresh(16)
    index.add_many(["a#0"], "a", [Counter({"x": 1})], [False])
    with pytest.raises(InputError, match="indexed already"):
        index.add_many(["b#0", "a#0", "b#1"], "b", [Counter({"y": 2})] * 3, [False] * 3)
    assert index.node_ids == ["a#0", "b#0"] and index.df("y") == 1
    with pytest.raises(InputError, match="indexed already"):
        index.add_many(["c#0", "c#0"], "c", [Counter({"z": 1})] * 2, [False] * 2)
    assert index.node_ids == ["a#0", "b#0", "c#0"] and index.df("z") == 1


postings_ops = st.lists(
    st.one_of(
        st.tuples(
            st.just("add"),
            st.lists(
                st.dictionaries(st.integers(0, 9), st.integers(1, 65535), max_size=5),
                max_size=5,
            ),
        ),
        st.tuples(st.just("compact"), st.lists(st.booleans(), min_size=100, max_size=100)),
    ),
    max_size=15,
)


@settings(max_examples=150, deadline=None)
@given(postings_ops, st.sampled_from([1, 2, 4, 7, 16_384]))
def test_term_postings_read_like_a_list_per_term(ops, buffer):
    postings = TermPostings(buffer)
    model: dict[int, list[tuple[int, int]]] = {}
    position = 0
    for kind, payload in ops:
        if kind == "add":
            tids, pos, tfs = [], [], []
            for node in payload:  # one batch: several nodes, each with distinct terms
                for tid, tf in node.items():
                    tids.append(tid)
                    pos.append(position)
                    tfs.append(tf)
                    model.setdefault(tid, []).append((position, tf))
                position += 1
            postings.add(
                np.array(tids, dtype=np.int32),
                np.array(pos, dtype=np.int32),
                np.array(tfs, dtype=np.uint16),
            )
        else:
            alive = np.array(payload)
            kept = postings.compact(alive, 10)
            model = {t: [(p, f) for p, f in found if alive[p]] for t, found in model.items()}
            assert kept == sum(map(len, model.values()))
            assert not postings.has_recent()
        for tid in range(10):
            pos_a, tf_a = postings.get(tid)
            assert list(zip(pos_a.tolist(), tf_a.tolist(), strict=True)) == model.get(tid, [])
    everything = sorted(zip(*(a.tolist() for a in postings.arrays()), strict=True))
    assert everything == sorted((p, t, f) for t, found in model.items() for p, f in found)


def test_a_pickled_term_batch_leaves_its_ids_behind():
    index = _fresh(16)
    index.add_many(["a#0"], "a", [Counter({"x": 1})], [False])
    batch = TermBatch.of([Counter({"x": 2, "y": 1})])
    assert batch.term_ids(index.vocab).tolist() == [0, -1]
    copy = pickle.loads(pickle.dumps(batch))
    assert copy._ids is None and copy._vocab is None
    assert copy.distinct == ["x", "y"] and copy.tf.tolist() == [2, 1]
    assert batch.term_ids(index.vocab).tolist() == [0, -1]  # the original keeps them
