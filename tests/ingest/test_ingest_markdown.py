"""Markdown and plain-text parsing: headings, merging, chunks, edges, links, spans, limits."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.ingest import ParsedDocument, parse_markdown, parse_plaintext
from groundgraph.ingest.chunks import chunk_spans, hard_split
from groundgraph.ingest.edges import EdgeSet
from groundgraph.ingest.front_matter import blank_front_matter, read_front_matter
from groundgraph.ingest.headings import leading_title, scan_markdown
from groundgraph.model import NEXT, PARENT_CHILD, REFERENCE

PC, NX, REF = PARENT_CHILD, NEXT, REFERENCE


def triples(parsed: ParsedDocument) -> list[tuple[str, str, str]]:
    return [(e.source, e.target, e.type) for e in parsed.edges]


def titles(parsed: ParsedDocument) -> list[str]:
    return [n.title for n in parsed.nodes]


def assert_well_formed(parsed: ParsedDocument, max_chunk_chars: int | None = None) -> None:
    """Spans slice to contents, contents are stripped, edges are one per pair between nodes."""
    ids = {n.node_id for n in parsed.nodes}
    assert len(ids) == len(parsed.nodes)
    for node in parsed.nodes:
        start, end = node.span
        assert 0 <= start <= end <= len(parsed.source_text)
        assert parsed.source_text[start:end] == node.content
        assert node.content == node.content.strip()
        if max_chunk_chars is not None:
            assert len(node.content) <= max_chunk_chars
        assert node.parent_id is None or node.parent_id in ids
    pairs = [frozenset((e.source, e.target)) for e in parsed.edges]
    assert len(pairs) == len(set(pairs))
    for edge in parsed.edges:
        assert edge.source != edge.target
        assert {edge.source, edge.target} <= ids
        assert edge.sources == (edge.source,)
        assert edge.created_at == ""


# --- headings ---------------------------------------------------------------------------


def test_atx_headings_levels_titles_and_non_headings() -> None:
    text = (
        "# One\nbody one\n## Two ##\nbody two\n   ### Three   ###   \nbody three\n"
        "    #### indented code\n#NoSpace\n####### seven\n#\n#   \n"
    )
    parsed = parse_markdown(text, "Doc")
    assert [(n.title, n.level, n.kind) for n in parsed.nodes] == [
        ("Doc", 0, "document"),
        ("One", 1, "section"),
        ("Two", 2, "section"),
        ("Three", 3, "section"),
    ]
    three = parsed.nodes[3]
    assert three.content == ("body three\n    #### indented code\n#NoSpace\n####### seven\n#\n#")
    assert [n.parent_id for n in parsed.nodes] == [None, "doc", "doc#1", "doc#2"]
    assert_well_formed(parsed)


def test_atx_closing_hashes_follow_the_seed_regex() -> None:
    parsed = parse_markdown("## C#\nx\n## C# ##\ny\n# ##\nz", "T")
    assert titles(parsed)[1:] == ["C", "C#", "#"]


def test_setext_headings() -> None:
    text = (
        "Top\n===\nintro text\n\nFirst\n=====\ntext a\n\nSecond\n--\ntext b\n\n"
        "- item\n---\nLine after text\n---\n\nx\n-\n"
    )
    parsed = parse_markdown(text, "Doc")
    assert [(n.title, n.level) for n in parsed.nodes[1:]] == [
        ("Top", 1),
        ("First", 1),
        ("Second", 2),
    ]
    second = parsed.nodes[3]
    assert second.content == "text b\n\n- item\n---\nLine after text\n---\n\nx\n-"
    assert second.parent_id == "doc#2"
    assert_well_formed(parsed)


def test_fenced_code_is_never_a_heading() -> None:
    text = (
        "```\n# not a heading\n```\n# Real\n~~~\n## no\n```\n## still no\n~~~\n"
        "````\n```\n# no\n````\n```inline``` code\n## After\n```python\n# comment\n\nNot\n===\n"
    )
    parsed = parse_markdown(text, "Doc")
    assert titles(parsed)[1:] == ["Real", "After"]
    assert parsed.nodes[0].content == "```\n# not a heading\n```"
    assert parsed.nodes[2].content == "```python\n# comment\n\nNot\n==="
    layout = scan_markdown(parsed.source_text)
    assert len(layout.fences) == 4
    assert layout.fences[-1][1] == len(parsed.source_text)  # an unclosed fence runs to the end


def test_crlf_cr_and_bom_are_normalised() -> None:
    parsed = parse_markdown("\ufeff# A\r\nx\r\n\r\n## B\ry\r", "Doc")
    assert parsed.source_text == "# A\nx\n\n## B\ny\n"
    assert [(n.title, n.content) for n in parsed.nodes[1:]] == [("A", "x"), ("B", "y")]
    assert_well_formed(parsed)


def test_leading_title() -> None:
    assert leading_title("\n\n# Guide #\nbody") == "Guide"
    assert leading_title("Guide\n=====\nbody") == "Guide"
    assert leading_title("## Not level one\n") is None
    assert leading_title("Preface\n# Guide\n") is None
    assert leading_title("```\n# Guide\n```") is None
    assert leading_title("- item\n===") is None
    assert leading_title("   \n") is None


# --- root, merging, sections --------------------------------------------------------------


def test_first_heading_equal_to_title_merges_into_root() -> None:
    parsed = parse_markdown("# Guide\n\nWelcome.\n\n## Setup\nDo it.", "  guide ")
    assert [(n.node_id, n.title, n.content) for n in parsed.nodes] == [
        ("guide", "  guide ", "Welcome."),
        ("guide#1", "Setup", "Do it."),
    ]
    assert parsed.nodes[1].parent_id == "guide"
    assert_well_formed(parsed)


def test_merged_heading_with_a_preamble_is_an_exact_slice() -> None:
    parsed = parse_markdown("Preface.\n\n# Guide\nWelcome.\n## Setup\nx", "Guide")
    assert parsed.root.content == "Preface.\n\n# Guide\nWelcome."
    assert parsed.root.span == (0, len("Preface.\n\n# Guide\nWelcome."))
    assert titles(parsed) == ["Guide", "Setup"]
    empty_body = parse_markdown("Preface.\n# Guide\n## Setup\nx", "Guide")
    assert empty_body.root.content == "Preface."


def test_setext_title_heading_merges_and_later_equal_heading_does_not() -> None:
    assert parse_markdown("Guide\n=====\nWelcome.", "Guide").root.content == "Welcome."
    parsed = parse_markdown("# Other\nx\n# Guide\ny", "Guide")
    assert titles(parsed) == ["Guide", "Other", "Guide"]
    assert parsed.root.content == ""


def test_root_holds_description_when_there_is_no_preamble() -> None:
    parsed = parse_markdown("## A\nx", "T", description="About T")
    assert parsed.root.content == "About T"
    assert parsed.root.span[0] == parsed.root.span[1]
    assert parsed.document.description == "About T"
    with_preamble = parse_markdown("Intro.\n## A\nx", "T", description="About T")
    assert with_preamble.root.content == "Intro."


def test_sections_nest_by_level_and_chain_in_reading_order() -> None:
    parsed = parse_markdown("# A\n## B\n### C\n## D\n# E\n### F\n", "T")
    assert [(n.node_id, n.level, n.parent_id) for n in parsed.nodes] == [
        ("t", 0, None),
        ("t#1", 1, "t"),
        ("t#2", 2, "t#1"),
        ("t#3", 3, "t#2"),
        ("t#4", 2, "t#1"),
        ("t#5", 1, "t"),
        ("t#6", 3, "t#5"),
    ]
    assert triples(parsed) == [
        ("t", "t#1", PC),
        ("t#1", "t#2", PC),
        ("t#2", "t#3", PC),
        ("t#1", "t#4", PC),
        ("t", "t#5", PC),
        ("t#5", "t#6", PC),
        ("t#3", "t#4", NX),
        ("t#4", "t#5", NX),
    ]


def test_document_record_and_ids() -> None:
    parsed = parse_markdown("x", "Hello, World!", source="notes/hello.md")
    doc = parsed.document
    assert (doc.doc_id, doc.title, doc.source) == ("hello-world", "Hello, World!", "notes/hello.md")
    assert len(doc.content_hash) == 64
    assert parse_markdown("x", "T", doc_id="custom").root.node_id == "custom"
    assert doc.content_hash != parse_markdown("y", "Hello, World!").document.content_hash


# --- chunks -------------------------------------------------------------------------------


def test_long_section_is_chunked_with_ids_titles_and_edges() -> None:
    text = "## S\naaaa aaaa aaaa\n\nbbbb bbbb bbbb\n\n\ncccc cccc cccc\n\ndddd\n## T\nshort\n"
    parsed = parse_markdown(text, "Doc", max_chunk_chars=30)
    assert [
        (n.node_id, n.kind, n.title, n.level, n.parent_id, n.content) for n in parsed.nodes
    ] == [
        ("doc", "document", "Doc", 0, None, ""),
        ("doc#1", "section", "S", 2, "doc", "aaaa aaaa aaaa\n\nbbbb bbbb bbbb"),
        ("doc#2", "chunk", "S (part 2/2)", 3, "doc#1", "cccc cccc cccc\n\ndddd"),
        ("doc#3", "section", "T", 2, "doc", "short"),
    ]
    assert triples(parsed) == [
        ("doc", "doc#1", PC),
        ("doc#1", "doc#2", PC),
        ("doc", "doc#3", PC),
        ("doc#1", "doc#3", NX),
    ]
    assert_well_formed(parsed, 30)


def test_three_parts_chain_with_next_edges_and_keep_blank_lines() -> None:
    parsed = parse_markdown("## S\naaaa\n\nbbbbbbbb\n\n\n\ncccc\n\ncc", "Doc", max_chunk_chars=10)
    assert [(n.node_id, n.title, n.content) for n in parsed.nodes[1:]] == [
        ("doc#1", "S", "aaaa"),
        ("doc#2", "S (part 2/3)", "bbbbbbbb"),
        ("doc#3", "S (part 3/3)", "cccc\n\ncc"),
    ]
    assert triples(parsed) == [
        ("doc", "doc#1", PC),
        ("doc#1", "doc#2", PC),
        ("doc#1", "doc#3", PC),
        ("doc#2", "doc#3", NX),
    ]
    spaced = parse_markdown("## S\naaaa\n\n\n\nbb\n\ncccccccccc", "Doc", max_chunk_chars=10)
    assert spaced.nodes[1].content == "aaaa\n\n\n\nbb"


def test_long_paragraph_is_hard_split_at_whitespace() -> None:
    text = " ".join(f"w{i:03d}" for i in range(60))
    spans = chunk_spans(text, 0, len(text), 42)
    pieces = [text[s:e] for s, e in spans]
    assert all(len(p) <= 42 for p in pieces)
    assert " ".join(pieces).split() == text.split()  # no word was cut
    assert len(pieces) == 8  # 8 words of 4 chars fit in 42 (39 chars), 60 words -> 8 pieces
    unbroken = "x" * 100
    assert hard_split(unbroken, 0, 100, 40) == [(0, 40), (40, 80), (80, 100)]


def test_plaintext_root_and_chunk_nodes() -> None:
    parsed = parse_plaintext("p1\n\np2\n\np3", "T", max_chunk_chars=5)
    assert [
        (n.node_id, n.kind, n.title, n.level, n.parent_id, n.content) for n in parsed.nodes
    ] == [
        ("t", "document", "T", 0, None, "p1"),
        ("t#1", "chunk", "T (part 2/3)", 1, "t", "p2"),
        ("t#2", "chunk", "T (part 3/3)", 1, "t", "p3"),
    ]
    assert triples(parsed) == [("t", "t#1", PC), ("t", "t#2", PC), ("t#1", "t#2", NX)]
    assert_well_formed(parsed, 5)


def test_plaintext_reads_no_markup() -> None:
    parsed = parse_plaintext("# Not a heading\n\nSee [x](other.md).\n", "T")
    assert len(parsed.nodes) == 1
    assert parsed.root.content == "# Not a heading\n\nSee [x](other.md)."
    assert parsed.links == []
    assert parsed.edges == []


def test_root_is_chunked_before_sections_take_ids() -> None:
    parsed = parse_markdown("aaaa\n\nbbbb\n## S\nx", "Doc", max_chunk_chars=5)
    assert [(n.node_id, n.kind, n.content) for n in parsed.nodes] == [
        ("doc", "document", "aaaa"),
        ("doc#1", "chunk", "bbbb"),
        ("doc#2", "section", "x"),
    ]


# --- references and links ------------------------------------------------------------------

SEED_DOC = """Deployment guide for the service.

## Installation
Install the package with pip.

## Configuration
Set the config file path in settings.

## Deployment
Ship it to the servers.

## Troubleshooting
If config fails, see the Configuration section.
"""


def test_seed_example_edges() -> None:
    parsed = parse_markdown(SEED_DOC, "Ops")
    assert titles(parsed) == [
        "Ops",
        "Installation",
        "Configuration",
        "Deployment",
        "Troubleshooting",
    ]
    assert triples(parsed) == [
        ("ops", "ops#1", PC),
        ("ops", "ops#2", PC),
        ("ops", "ops#3", PC),
        ("ops", "ops#4", PC),
        ("ops#1", "ops#2", NX),
        ("ops#2", "ops#3", NX),
        ("ops#3", "ops#4", NX),
        ("ops#4", "ops#2", REF),
    ]
    weights = {(e.source, e.target): e.weight for e in parsed.edges}
    assert weights[("ops", "ops#1")] == 0.8
    assert weights[("ops#1", "ops#2")] == 0.4
    assert weights[("ops#4", "ops#2")] == 0.75


def test_reference_replaces_the_weaker_next_edge() -> None:
    text = (
        "# FAQ\n\n## Refunds\nMoney back within 30 days.\n\n## Shipping\nSee Refunds for returns."
    )
    parsed = parse_markdown(text, "FAQ")
    assert parsed.root.content == ""
    assert triples(parsed) == [
        ("faq", "faq#1", PC),
        ("faq", "faq#2", PC),
        ("faq#2", "faq#1", REF),
    ]


def test_weaker_reference_keeps_parent_child() -> None:
    parsed = parse_markdown("Read Refunds first.\n## Refunds\nx", "FAQ")
    assert [(e.source, e.target, e.type, e.weight) for e in parsed.edges] == [
        ("faq", "faq#1", PC, 0.8)
    ]


def test_edge_set_precedence() -> None:
    edges = EdgeSet()
    edges.link("a", "b", PC)
    edges.link("b", "a", "semantic", 0.9)  # stronger: parent-child keeps type and direction
    edges.link("a", "b", NX)  # weaker: dropped
    edges.link("c", "d", REF)
    edges.link("d", "c", REF)  # equal weight: the first stays
    edges.link("e", "f", NX)
    edges.link("f", "e", REF)  # stronger and not parent-child: replaces
    edges.link("g", "g", PC)  # self-links are ignored
    assert [(e.source, e.target, e.type, e.weight) for e in edges.to_list()] == [
        ("a", "b", PC, 0.9),
        ("c", "d", REF, 0.75),
        ("f", "e", REF, 0.75),
    ]


def test_reference_needs_a_whole_word_sequence_of_a_long_enough_title() -> None:
    text = (
        "## API\nx\n## Deploy\ny\n## Error Handling\nz\n## Gap\ng\n"
        "## Notes\nCall the API to redeploy; deployment and deploying differ. See error-handling.\n"
    )
    parsed = parse_markdown(text, "Doc")
    refs = [(e.source, e.target) for e in parsed.edges if e.type == REF]
    assert refs == [("doc#5", "doc#3")]


def test_no_reference_to_self_or_parent_but_from_chunks() -> None:
    text = (
        "# Setup\nThe Setup steps.\n## Linux\nSetup on linux.\n"
        "## Usage\nuse it in a way\n\nSee Linux now."
    )
    parsed = parse_markdown(text, "Doc", max_chunk_chars=20)
    assert [(n.node_id, n.title, n.parent_id) for n in parsed.nodes[1:]] == [
        ("doc#1", "Setup", "doc"),
        ("doc#2", "Linux", "doc#1"),
        ("doc#3", "Usage", "doc#1"),
        ("doc#4", "Usage (part 2/2)", "doc#3"),
    ]
    refs = [(e.source, e.target) for e in parsed.edges if e.type == REF]
    assert refs == [("doc#4", "doc#2")]


def test_anchor_links_reference_sections() -> None:
    text = (
        "See [how](#install-steps), [news](#Whats-New) and [the second](#example-1).\n"
        "## Install Steps\nx\n## What's new?\ny\n## Example\na\n## Example\nb\n"
        "## Usage\n[up](#install-steps) [missing](#nowhere)\n```\n[code](#example)\n```\n"
    )
    parsed = parse_markdown(text, "Doc")
    refs = [(e.source, e.target) for e in parsed.edges if e.type == REF]
    assert refs == [("doc#5", "doc#1")]  # root→#1..#4 stay parent-child, #3 is not linked
    assert ("doc", "doc#4", PC) in triples(parsed)
    merged = parse_markdown("# Guide\nTop.\n## A\nx\n## B\n[top](#guide)", "Guide")
    assert ("guide#2", "guide", PC) not in triples(merged)
    assert ("guide", "guide#2", PC) in triples(merged)


def test_anchor_link_to_a_merged_heading_from_a_nested_section() -> None:
    text = "# Guide\nTop.\n## A\nx\n### B\n[top](#guide)"
    parsed = parse_markdown(text, "Guide")
    assert ("guide#2", "guide", REF) in triples(parsed)


def test_shared_titles_reference_the_nearest_section() -> None:
    text = (
        "## Alpha\n### Example\none\n## Beta\n### Example\ntwo\n### Usage\nsee the example above\n"
    )
    parsed = parse_markdown(text, "Doc")
    refs = [(e.source, e.target) for e in parsed.edges if e.type == REF]
    assert refs == [("doc#5", "doc#4")]
    assert parsed.edges[-1].source == "doc#5"


def test_links_to_other_documents() -> None:
    text = (
        "[a](other.md) [b](other.md#sec) [c](https://x.org/y.md) [d](mailto:me@x.org)\n"
        '[e](#local) ![img](pic.png) [f](<with space.md>) [g](dir/third.md "Title")\n'
        "[h](//cdn.example/y.md) [i](other-doc) [j](wiki/Foo_(bar))\n"
        "```\n[z](code.md)\n```\n"
    )
    parsed = parse_markdown(text, "Doc")
    assert parsed.links == [
        "other.md",
        "with space.md",
        "dir/third.md",
        "other-doc",
        "wiki/Foo_(bar)",
    ]


# --- properties -----------------------------------------------------------------------------

LINES = st.one_of(
    st.sampled_from(
        [
            "",
            "   ",
            "# Title",
            "## Sub section",
            "### Deep",
            "Title",
            "===",
            "---",
            "-",
            "- item",
            "```",
            "~~~",
            "````",
            "```python",
            "# ",
            "#",
            "    # indented",
            "####### seven",
            "see the Sub section",
            "[link](other.md) and [up](#sub-section)",
            "\t",
            "   ## spaced ##",
        ]
    ),
    st.text(alphabet=st.sampled_from(list("ab #=-`~*+\t\r[]()!.x")), max_size=30),
    st.text(max_size=20),
)
MARKDOWN = st.lists(LINES, max_size=40).map("\n".join)


def _heading_ranges(parsed: ParsedDocument) -> list[tuple[int, int]]:
    # Headings as the parser finds them: in the text with its front matter blanked out.
    source = parsed.source_text
    front = read_front_matter(source)
    body = source if front is None else blank_front_matter(source, front)
    return [(h.start, h.end) for h in scan_markdown(body).headings]


def _headings_line_by_line(source: str) -> list[tuple[int, str, int, int]]:
    """The heading rules applied the plain way, one line after another: the oracle."""
    atx = re.compile(r"^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
    opener = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")
    lines = source.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    found: list[tuple[int, str, int, int]] = []
    fence = ""
    previous_blank = True
    i = 0
    while i < len(lines):
        line = lines[i]
        if fence:
            closer = re.fullmatch(r"\s*(`{3,}|~{3,})\s*", line)
            if closer and closer.group(1)[0] == fence[0] and len(closer.group(1)) >= len(fence):
                fence = ""
            previous_blank = False
            i += 1
            continue
        opened = opener.match(line)
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            fence = opened.group(1)
            previous_blank = False
            i += 1
            continue
        heading = atx.match(line)
        if heading and heading.group(2).strip():
            level, title = len(heading.group(1)), heading.group(2)
            found.append((level, title, starts[i], starts[i] + len(line)))
            previous_blank = False
            i += 1
            continue
        if previous_blank and line.strip() and i + 1 < len(lines):
            under = lines[i + 1].strip()
            is_item = re.match(r"[-*+]\s", line.lstrip())
            level = 1 if re.fullmatch("=+", under) else 2 if re.fullmatch("-{2,}", under) else 0
            if level and not is_item:
                end = starts[i + 1] + len(lines[i + 1])
                found.append((level, line.strip(), starts[i], end))
                previous_blank = False
                i += 2
                continue
        previous_blank = not line.strip()
        i += 1
    return found


@settings(max_examples=500, deadline=None)
@given(MARKDOWN)
def test_heading_scan_agrees_with_a_line_by_line_oracle(text: str) -> None:
    source = text.replace("\r\n", "\n").replace("\r", "\n")
    headings = scan_markdown(source).headings
    assert [(h.level, h.title, h.start, h.end) for h in headings] == _headings_line_by_line(source)


@settings(max_examples=300, deadline=None)
@given(MARKDOWN, st.sampled_from(["Title", "Other"]), st.integers(min_value=1, max_value=60))
def test_parsing_keeps_every_non_heading_character(text: str, title: str, max_chars: int) -> None:
    parsed = parse_markdown(text, title, max_chunk_chars=max_chars)
    assert parsed.source_text == text.replace("\r\n", "\n").replace("\r", "\n")
    assert_well_formed(parsed, max_chars)
    covered = [False] * len(parsed.source_text)
    for node in parsed.nodes:
        for i in range(*node.span):
            covered[i] = True
    for start, end in _heading_ranges(parsed):
        for i in range(start, end):
            covered[i] = True
    # Issue 12: a YAML front-matter block is the document's metadata (its title and
    # description), not text of any node; it is accounted for like a heading line.
    front = read_front_matter(parsed.source_text)
    for i in range(front.end if front is not None else 0):
        covered[i] = True
    lost = [
        (i, ch) for i, ch in enumerate(parsed.source_text) if not ch.isspace() and not covered[i]
    ]
    assert lost == []


@settings(max_examples=300, deadline=None)
@given(MARKDOWN, st.sampled_from(["Title", "Other"]))
@example("---\n---\nTitle\n===", "Title")  # a heading right after empty front matter
def test_every_non_heading_line_is_in_some_node(text: str, title: str) -> None:
    parsed = parse_markdown(text, title)
    source = parsed.source_text
    headings = _heading_ranges(parsed)
    contents = [n.content for n in parsed.nodes]
    front = read_front_matter(source)  # metadata, in no node (issue 12)
    metadata_end = front.end if front is not None else 0
    pos = 0
    for line in source.split("\n"):
        start, end = pos, pos + len(line)
        pos = end + 1
        if not line.strip() or start < metadata_end:
            continue
        if any(s <= start and end <= e for s, e in headings):
            continue
        assert any(line.strip() in content for content in contents), line


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.integers(min_value=1, max_value=50))
def test_plaintext_keeps_every_character(text: str, max_chars: int) -> None:
    parsed = parse_plaintext(text, "T", max_chunk_chars=max_chars)
    assert_well_formed(parsed, max_chars)
    kept = "".join(n.content for n in parsed.nodes)
    assert "".join(kept.split()) == "".join(parsed.source_text.split())


# --- inputs and hostile inputs ---------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   \n\n  ", "\r\n", "\n\n\n"])
@pytest.mark.parametrize("parse", [parse_markdown, parse_plaintext])
def test_empty_text_gives_an_empty_root(
    text: str, parse: Callable[[str, str], ParsedDocument]
) -> None:
    parsed = parse(text, "Empty")
    assert [(n.node_id, n.content) for n in parsed.nodes] == [("empty", "")]
    assert parsed.edges == []
    assert parsed.links == []
    assert_well_formed(parsed)


def test_bad_arguments_raise_input_errors() -> None:
    with pytest.raises(InputError, match="str"):
        parse_markdown(b"bytes", "T")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="max_chunk_chars"):
        parse_markdown("x", "T", max_chunk_chars=0)
    with pytest.raises(InputError, match="doc_id"):
        parse_plaintext("x", "T", doc_id=" ")
    with pytest.raises(InputTooLargeError, match="max_text_chars"):
        parse_markdown("x" * 101, "T", max_text_chars=100)
    with pytest.raises(InputTooLargeError):
        parse_plaintext("x" * 101, "T", max_text_chars=100)


def _ten_megabytes() -> str:
    rng = random.Random(7)
    vocab = ["alpha", "beta", "gamma", "delta", "install", "configure", "deploy", "guide"]
    vocab += ["section", "notes"]
    parts = []
    size = 0
    i = 0
    while size < 10_000_000:
        para = " ".join(rng.choice(vocab) for _ in range(90))
        part = f"## Section {vocab[i % 10]} {i}\n\n{para}\n\n{para}\n\n"
        parts.append(part)
        size += len(part)
        i += 1
    return "".join(parts)


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_ten_megabytes_of_markdown_and_text() -> None:
    text = _ten_megabytes()
    parsed = parse_markdown(text, "Big")
    assert len(parsed.nodes) == text.count("## Section") + 1 > 7000
    assert all(len(n.content) <= 2000 for n in parsed.nodes)
    sample = parsed.nodes[:: len(parsed.nodes) // 50]
    assert all(parsed.source_text[slice(*n.span)] == n.content for n in sample)
    plain = parse_plaintext(text, "Big")
    assert len(plain.nodes) > 5000
    assert plain.nodes[-1].content == text.strip()[-len(plain.nodes[-1].content) :]


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_a_hundred_thousand_headings() -> None:
    text = "\n".join(f"## Heading {i}\nsee Heading {i + 2}" for i in range(100_000))
    parsed = parse_markdown(text, "Many")
    assert len(parsed.nodes) == 100_001
    assert parsed.nodes[-1].node_id == "many#100000"
    kinds = [e.type for e in parsed.edges]
    assert (kinds.count(PC), kinds.count(NX), kinds.count(REF)) == (100_000, 99_999, 99_998)
    assert ("many#1", "many#3", REF) in triples(parsed)


@pytest.mark.timeout(60)
def test_deeply_nested_headings() -> None:
    text = "\n".join("#" * (i % 6 + 1) + f" T{i}\nbody {i}" for i in range(6000))
    parsed = parse_markdown(text, "Nest")
    nodes = parsed.nodes
    assert len(nodes) == 6001
    for i in range(1, 6001):
        expected_parent = "nest" if (i - 1) % 6 == 0 else nodes[i - 1].node_id
        assert nodes[i].parent_id == expected_parent
    assert_well_formed(parsed)


@pytest.mark.timeout(60)
def test_binary_looking_text() -> None:
    rng = random.Random(3)
    text = bytes(rng.randrange(256) for _ in range(300_000)).decode("latin-1")
    text += "".join(chr(rng.randrange(0xD7FF)) for _ in range(100_000))
    parsed = parse_markdown(text, "Bin")
    assert_well_formed(parsed, 2000)
    plain = parse_plaintext(text, "Bin")
    assert_well_formed(plain, 2000)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "text",
    [
        "](" * 500_000,
        "[a](" + " " * 1_000_000 + "x",
        "# a" + " " * 1_000_000 + "b",
        "[" * 500_000 + "](" * 500_000,
        ("\n" + " " * 1000) * 1000 + "x",
        "[a](#b) " * 200_000,
        "x" * 2_000_000,
    ],
    ids=[
        "link-openers",
        "spaces-in-link",
        "spaces-in-heading",
        "brackets",
        "blank",
        "anchors",
        "one-word",
    ],
)
def test_inputs_that_could_make_regexes_quadratic(text: str) -> None:
    parsed = parse_markdown(text, "Hostile")
    assert len(parsed.nodes) >= 1
    assert_well_formed(parsed, 2000)
