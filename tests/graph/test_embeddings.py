"""A graph with an embedder: vectors computed once per node, kept in the store with the
document, reused on reopen, checked against the embedder that made them."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from fake_embedder import BagEmbedder, hashed_bag
from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.index.embedder import EmbedderMismatchError, TextEmbedder

GUIDE = """# Cars

## Buying

Choose an automobile that fits the family.

## Repairs

A breakdown on the road needs a tow truck.
"""


def test_embed_is_the_seeds_name_for_embedder():
    bag = BagEmbedder()
    graph = DocumentGraph(embed=bag)
    graph.add_document(GUIDE, "Cars")
    assert graph.store.vectors.vector_count() == len(graph.index)
    assert bag.calls == [len(graph.index)]  # one batched call for the document
    with pytest.raises(InputError, match="same option"):
        DocumentGraph(embed=bag, embedder=hashed_bag)


def test_vectors_are_reused_on_reopen_and_not_computed_again(tmp_path):
    path = tmp_path / "g.db"
    bag = BagEmbedder()
    with DocumentGraph(path, embed=bag) as graph:
        graph.add_document(GUIDE, "Cars")
        first = graph.search("vehicle fault", search_mode="embedding")
    again = BagEmbedder()
    with DocumentGraph(path, embed=again) as graph:
        hits = graph.search("vehicle fault", search_mode="embedding")
        assert again.calls == [1]  # the query only
        assert [h.node_id for h in hits] == [h.node_id for h in first]
        assert graph.store.settings.get_setting("embedder") == "hashed-bag"
        assert graph.store.settings.get_setting("embedder_dimension") == str(
            hashed_bag("x").shape[0]
        )


def test_another_embedder_on_the_store_is_a_typed_error(tmp_path):
    path = tmp_path / "g.db"
    with DocumentGraph(path, embed=BagEmbedder()) as graph:
        graph.add_document(GUIDE, "Cars")
    with pytest.raises(EmbedderMismatchError, match="hashed-bag"):
        DocumentGraph(path, embed=hashed_bag)
    wider = TextEmbedder("hashed-bag", lambda texts: np.ones((len(texts), 7)))
    with DocumentGraph(path, embed=wider) as graph, pytest.raises(EmbedderMismatchError):
        graph.search("cars", search_mode="embedding")


def test_replacing_and_removing_a_document_replaces_and_removes_its_vectors():
    graph = DocumentGraph(embed=BagEmbedder())
    graph.add_document(GUIDE, "Cars", doc_id="cars")
    graph.add_document("# Sky\n\nThe sky is blue.\n", "Sky", doc_id="sky")
    graph.add_document("# Cars\n\nOnly one section now about an automobile.\n", "Cars", "cars")
    ids, _, _ = graph.store.vectors.load_vectors(["cars"])
    assert ids == [n.node_id for n in graph.store.reads.document_nodes("cars")]
    hits = graph.search("automobile", search_mode="embedding")
    assert {h.node_id for h in hits} <= set(graph.index.node_ids)
    graph.remove_document("cars")
    assert graph.store.vectors.load_vectors()[0] == [
        n.node_id for n in graph.store.reads.document_nodes("sky")
    ]
    assert all(h.doc_id == "sky" for h in graph.search("automobile", search_mode="embedding"))


def test_another_process_sees_new_vectors(tmp_path):
    path = tmp_path / "g.db"
    reader = DocumentGraph(path, embed=BagEmbedder())
    writer = DocumentGraph(path, embed=BagEmbedder())
    writer.add_document(GUIDE, "Cars")
    assert reader.search("automobile", search_mode="embedding")
    writer.remove_document("cars")
    assert reader.search("automobile", search_mode="embedding") == []


def test_dense_modes_without_an_embedder_say_how_to_get_one():
    graph = DocumentGraph()
    graph.add_document(GUIDE, "Cars")
    with pytest.raises(InputError, match="embed="):
        graph.search("cars", search_mode="hybrid")
    with pytest.raises(InputError, match="search_mode"):
        graph.search("cars", search_mode="dense")


def test_a_killed_writer_leaves_neither_the_document_nor_its_vectors(tmp_path):
    path = tmp_path / "g.db"
    with DocumentGraph(path, embed=BagEmbedder()) as graph:
        graph.add_document(GUIDE, "Cars", doc_id="cars")
        before = graph.store.vectors.load_vectors()
    child = textwrap.dedent(
        f"""
        import os
        from fake_embedder import BagEmbedder
        from groundgraph import DocumentGraph
        graph = DocumentGraph({str(path)!r}, embed=BagEmbedder())
        class Dying:
            def __init__(self, conn):
                self.conn = conn
            def __getattr__(self, name):
                return getattr(self.conn, name)
            def executemany(self, sql, rows):
                self.conn.executemany(sql, rows)
                if "node_vectors" in sql:
                    os._exit(9)  # dies after the document's rows, before the commit
        graph.store._conn = Dying(graph.store._conn)
        graph.add_document("# Cars\\n\\nA new text about vehicles.\\n", "Cars", doc_id="cars")
        """
    )
    tests = str(__import__("pathlib").Path(__file__).parents[1])
    env_path = f"{tests}:{':'.join(sys.path)}"
    result = subprocess.run(
        [sys.executable, "-c", child],
        capture_output=True,
        timeout=60,
        env={"PYTHONPATH": env_path, "OMP_NUM_THREADS": "1"},
    )
    assert result.returncode == 9, result.stderr.decode()
    with DocumentGraph(path, embed=BagEmbedder()) as graph:
        after = graph.store.vectors.load_vectors()
        assert after[0] == before[0]
        np.testing.assert_array_equal(after[2], before[2])
        assert "Buying" in [n.title for n in graph.store.reads.document_nodes("cars")]
