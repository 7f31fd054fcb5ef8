"""Reading files and folders: order, kinds, titles, ids, and everything that gets skipped."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from groundgraph.errors import FormatError, InputTooLargeError
from groundgraph.ingest import (
    FolderResult,
    SkippedFile,
    parse_file,
    plan_folder,
    read_folder,
)


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_bytes(content.encode("utf-8"))
    return path


def reasons(result: FolderResult) -> dict[str, str]:
    return {Path(s.path).name: s.reason for s in result.skipped}


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    write(root / "b.md", "No heading first.\n# Late\nbody")
    write(root / "a.md", "# Alpha Guide\n\nIntro.\n\n## Setup\nInstall it.\n")
    write(root / "a.txt", "# Plain\n\nText file.")
    write(root / "sub" / "c.markdown", "Title C\n=======\nbody c")
    write(root / "notes.jsonl", '{"id": "n1", "text": "first"}\n{"id": "n2", "text": "second"}\n')
    write(root / "image.png", b"\x89PNG\r\n")
    write(root / "README", "no extension")
    write(root / "Z.MD", "upper-case extension")
    return root


def test_files_are_read_in_sorted_order_with_kinds(docs: Path) -> None:
    result = read_folder(docs)
    assert [(d.document.doc_id, d.document.title) for d in result.documents] == [
        ("z", "Z"),
        ("a", "Alpha Guide"),
        ("a-2", "Plain"),
        ("b", "b"),
        ("n1", "n1"),
        ("n2", "n2"),
        ("sub-c", "Title C"),
    ]
    assert result.skipped == [
        SkippedFile(str(docs / "README"), "no extension: not markdown, text or JSONL", None, True),
        SkippedFile(
            str(docs / "image.png"), "extension '.png': not markdown, text or JSONL", None, True
        ),
    ]


def test_markdown_title_heading_merges_and_text_is_plain(docs: Path) -> None:
    by_id = {d.document.doc_id: d for d in read_folder(docs).documents}
    alpha = by_id["a"]
    assert [(n.node_id, n.title, n.content) for n in alpha.nodes] == [
        ("a", "Alpha Guide", "Intro."),
        ("a#1", "Setup", "Install it."),
    ]
    plain = by_id["a-2"]
    assert plain.root.content == "# Plain\n\nText file."
    assert len(plain.nodes) == 1
    assert [n.title for n in by_id["b"].nodes] == ["b", "Late"]


def test_document_source_and_hash_of_the_bytes(tmp_path: Path) -> None:
    raw = b"\xef\xbb\xbf# Guide\r\nLine one.\r\n"
    path = write(tmp_path / "guide.md", raw)
    [parsed] = read_folder(tmp_path).documents
    assert parsed.document.source == str(path)
    assert parsed.document.content_hash == hashlib.sha256(raw).hexdigest()
    assert parsed.source_text == "# Guide\nLine one.\n"
    assert parsed.root.content == "Line one."


def test_same_titles_in_different_folders_get_different_ids(tmp_path: Path) -> None:
    write(tmp_path / "x" / "readme.md", "# Readme\none")
    write(tmp_path / "y" / "readme.md", "# Readme\ntwo")
    documents = read_folder(tmp_path).documents
    assert [(d.document.doc_id, d.document.title) for d in documents] == [
        ("x-readme", "Readme"),
        ("y-readme", "Readme"),
    ]
    long_name = "a" * 30 + "/" + "b" * 30 + "/" + "c" * 30 + ".md"
    write(tmp_path / long_name, "x")
    ids = [d.document.doc_id for d in read_folder(tmp_path).documents]
    assert ids[0] == ("a" * 30 + "-" + "b" * 30 + "-" + "c" * 30)[:80]


def test_symlinks_leaving_the_folder_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside / "secret.md", "# Secret\nnot for the index")
    root = tmp_path / "root"
    write(root / "a.md", "# A\nkept")
    write(root / "sub" / "b.md", "# B\nkept too")
    os.symlink(outside / "secret.md", root / "link.md")
    os.symlink(outside, root / "linkdir")
    os.symlink(root / "sub", root / "inner")  # stays inside: followed
    os.symlink(root, root / "sub" / "loop")  # a loop back to the root
    os.symlink(root / "missing.md", root / "broken.md")
    result = read_folder(root)
    assert [d.document.doc_id for d in result.documents] == ["a", "inner-b"]
    assert all("Secret" not in d.source_text for d in result.documents)
    why = reasons(result)
    assert "outside the folder" in why["link.md"]
    assert "outside the folder" in why["linkdir"]
    assert why["broken.md"] == "broken symlink"
    assert "already read" in why["sub"]


def test_a_file_that_is_not_utf8_is_skipped_and_the_rest_still_parse(tmp_path: Path) -> None:
    write(tmp_path / "a.md", "# A\nfine")
    write(tmp_path / "bad.md", b"# Bad\n\xff\xfe caf\xe9\n")
    write(tmp_path / "binary.txt", b"ab\x00cd")
    write(tmp_path / "c.txt", "also fine")
    result = read_folder(tmp_path)
    assert [d.document.doc_id for d in result.documents] == ["a", "c"]
    why = reasons(result)
    assert "not valid UTF-8 (byte 0xff at offset 6)" in why["bad.md"]
    assert "NUL" in why["binary.txt"]


def test_a_bad_jsonl_line_is_skipped_with_its_number_and_the_rest_kept(tmp_path: Path) -> None:
    lines = [
        '{"id": "ok", "text": "x"}',
        '{"id": 3, "text": "y"}',
        '{"id": "broken", "text": ',
        '{"id": "lone", "text": "a \\ud800 b"}',
        '{"id": "bad\\udc00id", "text": "z"}',
        '{"id": "last", "text": "w"}',
    ]
    write(tmp_path / "a.jsonl", "\n".join(lines) + "\n")
    write(tmp_path / "b.md", "fine")
    result = read_folder(tmp_path)
    assert [d.document.doc_id for d in result.documents] == ["ok", "lone", "last", "b"]
    assert [(s.line, s.ignored) for s in result.skipped] == [(2, False), (3, False), (5, False)]
    assert '"id" must be a string' in result.skipped[0].reason
    assert "invalid JSON" in result.skipped[1].reason and "surrogate" in result.skipped[2].reason
    lone = result.documents[1]
    assert lone.replaced == 1 and lone.nodes[0].content == "a \ufffd b"
    with pytest.raises(FormatError, match="line 2"):  # parse_file stays strict
        parse_file(plan_folder(tmp_path / "a.jsonl").files[0])


def test_size_cap(tmp_path: Path) -> None:
    write(tmp_path / "big.md", "x" * 2000)
    write(tmp_path / "small.md", "x" * 10)
    result = read_folder(tmp_path, max_file_bytes=1000)
    assert [d.document.doc_id for d in result.documents] == ["small"]
    assert reasons(result)["big.md"] == "2,000 bytes, over the limit of 1,000 (max_file_bytes)"


def test_a_file_that_grows_after_planning_is_still_capped(tmp_path: Path) -> None:
    path = write(tmp_path / "grows.md", "x" * 10)
    files, skipped = plan_folder(tmp_path, max_file_bytes=100)
    assert skipped == []
    write(path, "x" * 500)
    with pytest.raises(InputTooLargeError, match="max_file_bytes"):
        parse_file(files[0], max_file_bytes=100)


def test_plan_then_parse_reads_files_only_when_asked(tmp_path: Path) -> None:
    path = write(tmp_path / "a.md", "before")
    write(tmp_path / "b.txt", "other")
    files, skipped = plan_folder(tmp_path)
    assert skipped == []
    assert [(f.relative, f.kind, f.doc_id, f.size) for f in files] == [
        ("a.md", "markdown", "a", 6),
        ("b.txt", "plaintext", "b", 5),
    ]
    write(path, "after")
    assert parse_file(files[0])[0].root.content == "after"
    write(path, b"\xff")
    with pytest.raises(FormatError, match="not valid UTF-8"):
        parse_file(files[0])


def test_hidden_files_and_folders(tmp_path: Path) -> None:
    write(tmp_path / ".hidden.md", "# Hidden\nx")
    write(tmp_path / ".git" / "notes.md", "x")
    write(tmp_path / "seen.md", "x")
    result = read_folder(tmp_path)
    assert [d.document.doc_id for d in result.documents] == ["seen"]
    assert sorted(reasons(result)) == [".git", ".hidden.md"]
    shown = read_folder(tmp_path, include_hidden=True)
    assert [d.document.doc_id for d in shown.documents] == ["git-notes", "hidden", "seen"]


def test_files_and_missing_paths_given_directly(tmp_path: Path, docs: Path) -> None:
    result = read_folder([docs / "a.md", tmp_path / "nope", docs / "sub"])
    assert [d.document.doc_id for d in result.documents] == ["a", "c"]
    assert result.skipped == [SkippedFile(str(tmp_path / "nope"), "no such file or folder")]
    again = read_folder([docs / "a.md", docs])
    assert [s.reason for s in again.skipped if s.path.endswith("a.md")] == [
        "already listed under another path"
    ]
