"""Hostile inputs through the whole pipeline: a result or a clear error, within a time cap."""

from __future__ import annotations

import random
import time

import pytest

from groundgraph import DocumentGraph, InputError, InputTooLargeError


def _timed(fn, cap: float):
    start = time.perf_counter()
    result = fn()
    elapsed = time.perf_counter() - start
    assert elapsed < cap, f"took {elapsed:.1f}s, over the cap of {cap}s"
    return result


def test_empty_document():
    graph = DocumentGraph()
    graph.add_document("", "Empty")
    assert graph.outline("empty") == "- [empty] Empty"
    assert graph.search("empty") == []  # a root with no text is not a hit


def test_blank_title_and_wrong_types_are_refused():
    graph = DocumentGraph()
    with pytest.raises(InputError, match="title"):
        graph.add_document("text", "   ")
    with pytest.raises(InputError):
        graph.add_document(b"bytes", "Title")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="format"):
        graph.add_document("text", "Title", format="pdf")


@pytest.mark.slow
def test_ten_megabytes_of_text(tmp_path):
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(20_000)]
    paragraphs = [" ".join(rng.choice(vocab) for _ in range(120)) for _ in range(14_000)]
    text = "# Big\n\n" + "\n\n".join(paragraphs)
    assert len(text) > 10_000_000
    graph = DocumentGraph(tmp_path / "g.db")
    # Adding takes deriving its semantic links too (they are derived at the first read).
    _timed(lambda: (graph.add_document(text, "Big"), graph.indexes.sync()), 120)
    hits = _timed(lambda: graph.search("w17 w4242 w19999"), 5)
    assert hits and all(h.doc_id == "big" for h in hits)
    assert len(graph.outline("big").splitlines()) > 1000  # chunked, not one giant node
    graph.close()


@pytest.mark.slow
def test_hundred_thousand_headings():
    text = "\n".join(f"## Heading {i}\nbody of section {i}" for i in range(100_000))
    graph = DocumentGraph()
    _timed(lambda: graph.add_document(text, "Many"), 120)
    assert graph.stats()["nodes"] == 100_001
    hits = _timed(lambda: graph.search("heading 4242"), 5)
    assert hits[0].title == "Heading 4242"


def test_binary_looking_text():
    rng = random.Random(3)
    junk = "".join(chr(rng.randrange(0, 0x3000)) for _ in range(200_000))
    graph = DocumentGraph()
    _timed(lambda: graph.add_document(junk, "Junk"), 30)
    _timed(lambda: graph.search(junk[:500]), 5)


def test_deeply_nested_headings():
    lines = []
    for i in range(3000):
        lines.append("#" * (i % 6 + 1) + f" Level {i}")
        lines.append(f"text {i}")
    graph = DocumentGraph()
    _timed(lambda: graph.add_document("\n".join(lines), "Deep"), 30)
    assert graph.search("level 2999")[0].title == "Level 2999"


def test_oversized_document_is_refused_before_work():
    graph = DocumentGraph()
    huge = "x" * 50_000_001
    with pytest.raises(InputTooLargeError):
        graph.add_document(huge, "Huge")
    assert graph.stats()["documents"] == 0


def test_hostile_queries():
    graph = DocumentGraph()
    graph.add_document("# A\n\nalpha beta", "A")
    for query in ["\x00\x01", "'; DROP TABLE nodes; --", "((((", "*" * 5000, "ü" * 9000]:
        assert isinstance(graph.search(query), list)
    with pytest.raises(InputError):
        graph.search(None)  # type: ignore[arg-type]
    assert graph.search("alpha")[0].node_id == "a"


@pytest.mark.parametrize("doc_id", ["a#1", "", "entity:x", "x" * 600])
def test_unusable_document_ids_are_refused(doc_id):
    graph = DocumentGraph()
    with pytest.raises(InputError, match="document id"):
        graph.add_parsed(_parsed_with_id(doc_id))
    with pytest.raises(InputError, match="document id"):
        graph.add_document("text", "Title", doc_id="guide#2")
    assert graph.stats()["documents"] == 0


def _parsed_with_id(doc_id):
    from dataclasses import replace

    from groundgraph.ingest import parse_markdown

    parsed = parse_markdown("text", "Title")
    return replace(parsed, document=replace(parsed.document, doc_id=doc_id))
