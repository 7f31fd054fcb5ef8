"""Export and import in bounded memory: what the large-graph paths do differently from the
small ones (node ids from one pass, no memory map while exporting, an import that drops
the index's per-node views now and then) gives the same file and the same graph."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from groundgraph import DocumentGraph
from groundgraph.graph import saved_files
from groundgraph.graph.formats.saved import graph_to_json
from groundgraph.graph.formats.saved_export import LowMemoryStore, write_saved_graph
from groundgraph.graph.formats.saved_import import SavedGraphFile
from groundgraph.model import Node
from saved_graphs import graph_state, memory_graph

TEXTS = [
    f"# Part {k}\n\nIntro {k} about pumps and valves.\n\n## Pumps {k}\nA pump moves water.\n\n"
    f"## Valves {k}\nA valve of part {k} stops water; see Pumps {k}.\n"
    for k in range(7)
]


def filed_graph(tmp_path: Path) -> DocumentGraph:
    graph = DocumentGraph(tmp_path / "source.db")
    for k, text in enumerate(TEXTS):
        graph.add_document(text, f"Part {k}")
    return graph


def pragmas(graph: DocumentGraph) -> tuple[int, int]:
    """The memory map's size and the page cache's of the store's connection."""
    conn = graph.store._db.conn  # type: ignore[attr-defined]
    return tuple(
        int(conn.execute(f"PRAGMA {p}").fetchone()[0]) for p in ("mmap_size", "cache_size")
    )  # type: ignore[return-value]


def test_an_export_from_a_file_is_the_whole_graph_and_leaves_the_caches_as_they_were(tmp_path):
    filed_graph(tmp_path).close()
    graph = DocumentGraph(tmp_path / "source.db")  # opened afresh: it maps its file
    before = pragmas(graph)
    assert isinstance(graph.store, LowMemoryStore) and before[0] > 0 and before[1] < -2000
    with graph.store.low_memory():  # an export reads through read(), with a small cache
        assert pragmas(graph) == (0, -2000)
    out = io.StringIO()
    write_saved_graph(graph.store, out)
    assert out.getvalue() == json.dumps(graph_to_json(graph.store), ensure_ascii=False)
    assert pragmas(graph) == before
    graph.close()


class ShuffledReads:
    """A store's reads whose ``iter_nodes`` gives the documents in another order."""

    def __init__(self, reads: object) -> None:
        self._reads = reads

    def __getattr__(self, name: str) -> object:
        return getattr(self._reads, name)

    def iter_nodes(self, batch: int = 5000) -> Iterator[Node]:
        nodes = list(self._reads.iter_nodes(batch))  # type: ignore[attr-defined]
        docs = list(dict.fromkeys(n.doc_id for n in nodes))
        order = docs[1::2] + docs[0::2]
        return iter(sorted(nodes, key=lambda n: order.index(n.doc_id)))


class ShuffledStore:
    def __init__(self, store: object) -> None:
        self._store = store
        self.reads = ShuffledReads(store.reads)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)


def test_each_document_lists_its_own_node_ids_whatever_order_the_nodes_come_in(tmp_path):
    graph = filed_graph(tmp_path)
    out = io.StringIO()
    write_saved_graph(ShuffledStore(graph.store), out)  # type: ignore[arg-type]
    listed = {d["docId"]: d["nodeIds"] for d in json.loads(out.getvalue())["documents"]}
    assert listed == {
        d.doc_id: [n.node_id for n in graph.store.reads.document_nodes(d.doc_id)]
        for d in graph.store.reads.documents()
    }
    assert len(listed) == len(TEXTS)
    graph.close()


def test_removing_after_forgetting_node_terms_scores_as_never_added():
    graph = DocumentGraph()
    for k, text in enumerate(TEXTS):
        graph.add_document(text, f"Part {k}")
    index = graph.indexes.index
    index.forget_node_terms()
    removed = index.remove_doc("part-3")
    assert removed and all(r.startswith("part-3") for r in removed)
    fresh = DocumentGraph()
    for k, text in enumerate(TEXTS):
        if k != 3:
            fresh.add_document(text, f"Part {k}")
    theirs = fresh.indexes.index
    for query in ("pump moves water", "valve stops", "part 3 intro"):
        a, b = index.match(query), theirs.match(query)
        ours = sorted(
            zip(index.node_ids_at(a.positions.tolist()), a.scores.round(9).tolist(), strict=True)
        )
        want = sorted(
            zip(theirs.node_ids_at(b.positions.tolist()), b.scores.round(9).tolist(), strict=True)
        )
        assert ours == want and ours
    assert {t: index.df(t) for t in theirs.terms} == {t: theirs.df(t) for t in theirs.terms}


@pytest.mark.parametrize("into", ["an empty graph", "a graph holding the documents"])
def test_an_import_that_forgets_node_terms_after_every_document_is_the_same_graph(
    tmp_path, monkeypatch, into
):
    source = filed_graph(tmp_path)
    path = tmp_path / "graph.json"
    source.save(path)
    monkeypatch.setattr(saved_files, "_FORGET_EVERY", 1)
    copy = DocumentGraph(tmp_path / "copy.db")
    if into != "an empty graph":
        for k, text in enumerate(reversed(TEXTS)):  # replaced, so removed from the index
            copy.add_document(text + "\nMore words.\n", f"Part {len(TEXTS) - 1 - k}")
    caches = pragmas(copy)
    assert copy.load(path) == len(TEXTS)
    assert pragmas(copy) == caches  # held down for the import only
    if into == "an empty graph":
        assert graph_state(copy) == graph_state(source)
    assert list(copy.store.reads.iter_nodes()) == list(source.store.reads.iter_nodes())
    for query in ("pump moves water", "valve of part 4", "intro"):  # the index, as built
        assert copy.search(query, max_hops=0) == source.search(query, max_hops=0)
    copy.close()
    reopened = DocumentGraph(tmp_path / "copy.db")  # from the saved index snapshot
    query = "valve stops water"
    assert reopened.search(query, max_hops=0) == source.search(query, max_hops=0)
    reopened.close()
    source.close()


def test_an_opened_file_still_hands_out_entities_once_the_checks_let_go(tmp_path):
    graph = memory_graph()
    path = tmp_path / "graph.json"
    graph.save(path)
    copy = DocumentGraph()
    with SavedGraphFile.read(path) as saved:
        saved.load_into(copy.load_json_documents)
    assert graph_state(copy) == graph_state(graph)
    assert copy.store.reads.entity_nodes() == graph.store.reads.entity_nodes()


def test_an_import_stopped_part_way_leaves_whole_documents_and_the_caches_as_they_were(
    tmp_path, monkeypatch
):
    source = filed_graph(tmp_path)
    path = tmp_path / "graph.json"
    source.save(path)
    monkeypatch.setattr(saved_files, "_FORGET_EVERY", 1)
    copy = DocumentGraph(tmp_path / "copy.db")
    caches = pragmas(copy)
    calls = 0
    load = copy.saved.load_json_documents

    def stopping(*args: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 4:
            raise KeyboardInterrupt
        return load(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(copy.saved, "load_json_documents", stopping)
    with pytest.raises(KeyboardInterrupt):
        copy.load(path)
    assert pragmas(copy) == caches

    def nodes(graph: DocumentGraph, doc_id: str) -> list[tuple[str, str, str]]:
        return [(n.node_id, n.title, n.content) for n in graph.store.reads.document_nodes(doc_id)]

    loaded = [d.doc_id for d in copy.store.reads.documents()]
    assert loaded == [d.doc_id for d in source.store.reads.documents()][:3]
    assert all(nodes(copy, d) == nodes(source, d) for d in loaded)  # each one whole
    for query in ("pump moves water", "valve of part 1"):  # the index is the store's
        assert copy.search(query, max_hops=0) == DocumentGraph(tmp_path / "copy.db").search(
            query, max_hops=0
        )
    copy.close()
    source.close()
