"""YAML front matter: read as the document's title and description, never indexed as text."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.ingest import parse_markdown
from groundgraph.ingest.folder import PlannedFile, parse_file
from groundgraph.ingest.front_matter import (
    MAX_FRONT_MATTER_LINES,
    blank_front_matter,
    read_front_matter,
)

PAGE = """---
description: "Learn about: the Harbor queue, and its limits"
title: 'Harbor Queue Reference'
ms.date: "08/30/2018"
ms.assetid: 9cfa8896-ec10-4e77-855a-3135c40d7d2a
helpviewer_keywords: ["queue", "harbor"]
---
# Harbor Queue Reference

The queue keeps jobs until a worker takes them.

## Limits

A queue holds at most 10,000 jobs.
"""


def test_fields_are_read_and_the_block_ends_after_its_closing_line() -> None:
    front = read_front_matter(PAGE)
    assert front is not None
    assert front.title == "Harbor Queue Reference"
    assert front.description == "Learn about: the Harbor queue, and its limits"
    assert front.fields["ms.date"] == "08/30/2018"
    assert PAGE[front.end :].startswith("# Harbor Queue Reference")
    blanked = blank_front_matter(PAGE, front)
    assert len(blanked) == len(PAGE) and blanked[front.end :] == PAGE[front.end :]
    assert blanked[: front.end].strip() == "" and blanked.count("\n") == PAGE.count("\n")


def test_a_file_takes_its_title_and_description_and_none_of_the_block(tmp_path) -> None:
    path = tmp_path / "harbor-queue.md"
    path.write_text(PAGE, encoding="utf-8")
    planned = PlannedFile(path, path.name, "markdown", path.stat().st_size, "harbor-queue")
    (parsed,) = parse_file(planned)
    assert parsed.document.title == "Harbor Queue Reference"
    assert parsed.document.description == "Learn about: the Harbor queue, and its limits"
    root = parsed.nodes[0]
    assert root.title == "Harbor Queue Reference"  # the H1 merged into the root
    assert root.content.startswith("The queue keeps jobs")
    for node in parsed.nodes:
        assert "ms.assetid" not in node.content and "08/30/2018" not in node.content
        start, end = node.span
        assert parsed.source_text[start:end] == node.content  # spans slice the source


def test_metadata_does_not_become_entities_or_matches() -> None:
    graph = DocumentGraph()
    graph.add_document(PAGE, "Harbor Queue Reference")
    entities = {n.node_id for n in graph.store.reads.entity_nodes()}
    assert not any("assetid" in e or "2018" in e or "ms date" in e for e in entities)
    assert graph.search("assetid 9cfa8896") == []
    assert graph.search("queue jobs")[0].node_id == "harbor-queue-reference"


@pytest.mark.parametrize(
    "text",
    [
        "---\n\nA thematic break, then prose: not front matter.\n---\n",
        "---\ntitle: never closed\n\nSome text.\n",
        "--- \n* a list item\n---\n",
        "---\n---\n",  # an empty block: read as empty front matter
        "Prose first.\n---\ntitle: x\n---\n",
        "----\ntitle: x\n----\n",
    ],
)
def test_what_is_not_front_matter_is_left_alone(text: str) -> None:
    front = read_front_matter(text)
    if text == "---\n---\n":
        assert front is not None and front.fields == {}
        return
    assert front is None
    parsed = parse_markdown(text, "Doc")
    assert parsed.nodes[0].content == text.strip() or parsed.nodes[0].content in text


def test_block_scalars_lists_and_comments() -> None:
    text = (
        "---\n# a comment\ntitle: Plain title # not part of it\ndescription: >\n"
        "  folded over\n  two lines\ntags:\n  - one\n  - two\nbody: |\n  line one\n"
        "  line two\n...\nText.\n"
    )
    front = read_front_matter(text)
    assert front is not None
    assert front.title == "Plain title"
    assert front.description == "folded over two lines"
    assert front.fields["tags"] == "- one - two"
    assert front.fields["body"] == "line one\nline two"
    assert text[front.end :] == "Text.\n"


def test_hostile_blocks_are_bounded() -> None:
    long_block = "---\n" + "key: value\n" * (MAX_FRONT_MATTER_LINES + 10) + "---\nText.\n"
    huge_value = "---\ntitle: " + "x" * 200_000 + "\n---\nText.\n"
    started = time.perf_counter()
    assert read_front_matter(long_block) is None  # too many lines: not read as metadata
    assert read_front_matter(huge_value) is None  # too long: not read as metadata
    assert read_front_matter("---\n" + "\x00\x01: \x02\n" * 1000) is None
    assert time.perf_counter() - started < 1.0
    parsed = parse_markdown(long_block, "Doc")
    assert parsed.nodes  # still parsed, as text


_KEYS = st.from_regex(r"[a-z][a-z0-9_.\-]{0,11}", fullmatch=True)
_VALUES = st.text(
    st.characters(categories=("L", "N", "Zs"), include_characters=":-/#'\""), max_size=30
)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, max_size=6), st.text(max_size=200))
def test_no_node_holds_front_matter_and_spans_slice_the_source(
    fields: dict[str, str], body: str
) -> None:
    head = "".join(f"{k}: {v.strip()}\n" for k, v in fields.items() if "\n" not in v)
    text = f"---\n{head}---\n{body}"
    parsed = parse_markdown(text, "Doc")
    front = read_front_matter(parsed.source_text)
    if front is None:
        return  # a value made the block unreadable: parsed as plain markdown
    for node in parsed.nodes:
        start, end = node.span
        assert parsed.source_text[start:end] == node.content
        assert start >= front.end or start == end
