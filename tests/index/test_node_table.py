"""A node table read from a snapshot's written form answers as the whole table does: the
same id and document at every position and the same live position for every id, before
and after it is made whole; an index loaded from a snapshot finds the same nodes and
terms, before and after a write; damaged snapshot bytes are refused; version 2 is read."""

from __future__ import annotations

import io
import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.index.bm25 import LexicalIndex
from groundgraph.index.node_table import (
    DocColumn,
    NodeTable,
    RelativeIds,
    absolute_id,
    relative_id,
)
from groundgraph.index.snapshot import dump_index, load_index, read_snapshot

# Document ids with and without "#" and "="; node ids relative to them or not at all.
doc_ids = st.sampled_from(["a", "b", "a#b", "#", "=x", "doc#1", ""])
suffixes = st.sampled_from(["", "#1", "#2", "#b#1", "#", "=", "x", "=#1", "#=1"])


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[str], list[str], np.ndarray]:
    """Node ids, their documents and which are alive; an id may repeat only when all but
    one of its positions are removed (a document removed and added again)."""
    rows = draw(st.lists(st.tuples(doc_ids, suffixes), max_size=30))
    ids, docs, alive = [], [], []
    live: set[str] = set()
    for doc, suffix in rows:
        node = doc + suffix
        ids.append(node)
        docs.append(doc)
        keep = node not in live and draw(st.booleans())
        alive.append(keep)
        if keep:
            live.add(node)
    return ids, docs, np.array(alive, dtype=bool)


def _lazy(ids: list[str], docs: list[str], alive: np.ndarray) -> NodeTable:
    names: dict[str, int] = {}
    index = np.array([names.setdefault(d, len(names)) for d in docs], dtype=np.int32)
    column = DocColumn(index, list(names))
    written = [relative_id(n, d) for n, d in zip(ids, docs, strict=True)]
    return NodeTable.of(RelativeIds(written, column), column, alive)


@settings(max_examples=300, deadline=None)
@given(tables(), st.lists(st.one_of(doc_ids, st.tuples(doc_ids, suffixes).map("".join))))
def test_a_written_table_answers_as_the_whole_table(table, asked):
    ids, docs, alive = table
    whole = NodeTable.of(ids, docs, alive)
    lazy = _lazy(ids, docs, alive)
    assert len(lazy) == len(whole) == len(ids)
    for pos in range(len(ids)):
        assert lazy.id_at(pos) == whole.id_at(pos) == ids[pos]
        assert lazy.doc_at(pos) == whole.doc_at(pos) == docs[pos]
    backwards = list(range(len(ids)))[::-1]
    assert lazy.ids_at(backwards) == whole.ids_at(backwards) == [ids[p] for p in backwards]
    for node in [*ids, *asked]:
        expected = whole.find(node)
        assert lazy.find(node) == expected
        assert expected is None or (ids[expected] == node and alive[expected])
    assert lazy.ids == ids and lazy.docs == docs and lazy.position == whole.position
    assert all(lazy.find(n) == whole.find(n) for n in ids)  # made whole now


@given(doc_ids, suffixes)
def test_relative_ids_come_back_whole(doc, suffix):
    assert absolute_id(relative_id(doc + suffix, doc), doc) == doc + suffix


def test_an_index_loaded_from_a_snapshot_finds_what_it_held(tmp_path):
    index = LexicalIndex()
    index.add("guide", "guide", "Guide", "ferries cross the harbour")
    index.add("guide#1", "guide", "Tides", "the tide turns twice a day")
    index.add("notes#a#1", "notes#a", "Cranes", "cranes lift cargo")
    index.add("entity:x", "notes#a", "X", "a node whose id is not relative")
    index.add("old#1", "old", "Old", "removed later")
    index.remove_doc("old")
    loaded = load_index(dump_index(index), index.analyzer, index.params)
    assert loaded is not None
    for node in ["guide", "guide#1", "notes#a#1", "entity:x"]:
        pos = loaded.find(node)
        assert pos is not None and loaded.node_id_at(pos) == node
        assert node in loaded
    assert loaded.find("old#1") is None and "old#1" not in loaded
    assert loaded.doc_at(loaded.find("notes#a#1") or 0) == "notes#a"
    hits = loaded.match("tide")
    assert [loaded.node_id_at(p) for p in hits.positions.tolist()] == ["guide#1"]


def _index_with_terms() -> LexicalIndex:
    index = LexicalIndex()
    index.add("guide#1", "guide", "Tides", "the tide turns twice a day near the harbour")
    index.add("guide#2", "guide", "Ferries", "ferries leave the harbour at dawn")
    index.add("notes#1", "notes", "Cranes", "cranes lift cargo from ferries")
    return index


def test_a_loaded_index_finds_every_term_and_takes_new_ones():
    index = _index_with_terms()
    loaded = load_index(dump_index(index), index.analyzer, index.params)
    assert loaded is not None
    for term in [*index.terms, "zebra", "", "a"]:
        assert loaded.term_id(term) == index.term_id(term)
    for query in ["harbour ferries", "tide", "cargo crane", "nothing here"]:
        assert loaded.match(query).scores.tolist() == index.match(query).scores.tolist()
    # A write after the load: new terms and nodes, then the same answers as a fresh index.
    for graph in (index, loaded):
        graph.add("notes#2", "notes", "Zebras", "zebra crossings at the harbour")
    assert loaded.term_id("zebra") == index.term_id("zebra") is not None
    assert (
        loaded.match("zebra harbour").scores.tolist()
        == index.match("zebra harbour").scores.tolist()
    )
    assert dump_index(loaded) == dump_index(index)


def test_damaged_snapshot_bytes_are_refused_not_read():
    data = bytearray(dump_index(_index_with_terms()))
    for at in (len(data) - 3, len(data) // 2, 40, 20, 9):  # arrays .. header, its length
        damaged = bytearray(data)
        damaged[at] ^= 0x55
        assert read_snapshot(bytes(damaged)) is None
    assert read_snapshot(bytes(data[: len(data) - 9])) is None  # cut short
    assert read_snapshot(b"GGBM25\x00\x03" + bytes(8)) is None


def _version_2_bytes(index: LexicalIndex, **changed: object) -> bytes:
    """``index`` as a version 2 snapshot (an ``.npz``), header entries ``changed``."""
    arrays = index.to_arrays()
    docs = {d: i for i, d in enumerate(dict.fromkeys(arrays.doc_of))}
    header = {
        "format": "groundgraph-bm25",
        "version": 2,
        "params": list(arrays.params),
        "language": arrays.language,
        "terms": list(arrays.terms),
        "docs": list(docs),
        "nodeIds": [relative_id(n, d) for n, d in zip(arrays.node_ids, arrays.doc_of, strict=True)],
        **changed,
    }
    buffer = io.BytesIO()
    np.savez(
        buffer,
        header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
        doc_index=np.array([docs[d] for d in arrays.doc_of], dtype=np.int32),
        indptr=arrays.indptr, pos=arrays.pos, tf=arrays.tf, df=arrays.df,
        length=arrays.length, alive=arrays.alive, blank=arrays.blank,
    )  # fmt: skip
    return buffer.getvalue()


def test_a_version_2_snapshot_is_still_read():
    index = _index_with_terms()
    data = _version_2_bytes(index)
    loaded = load_index(data, index.analyzer, index.params)
    assert loaded is not None
    assert loaded.node_ids == index.node_ids and loaded.terms == index.terms
    assert loaded.match("harbour").scores.tolist() == index.match("harbour").scores.tolist()


def test_a_snapshot_whose_ids_are_not_all_text_or_whose_zip_is_damaged_is_refused():
    index = _index_with_terms()
    written = index.to_arrays()
    ids = [relative_id(n, d) for n, d in zip(written.node_ids, written.doc_of, strict=True)]
    assert read_snapshot(_version_2_bytes(index, nodeIds=[7, *ids[1:]])) is None
    assert read_snapshot(_version_2_bytes(index, docs=[None])) is None
    data = _version_2_bytes(index)
    assert read_snapshot(data[: len(data) // 2]) is None  # the .npz cut short
    assert read_snapshot(data) is not None
