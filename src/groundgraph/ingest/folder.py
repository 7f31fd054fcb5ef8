"""Files and folders in, parsed documents out, and a list of what was skipped and why.

Reading is two steps so a caller can show progress: ``plan_folder`` walks the paths (no
file is read) and ``read_file`` parses one planned file; ``read_folder`` does both. One bad
file never stops the others, and one bad line of a JSON Lines file never stops the rest of
that file: each is listed in ``skipped`` with the reason (and the line number). A file left
out by rule (hidden, another kind, a symlink leading out) is listed as ``ignored``.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path, PurePath
from typing import NamedTuple

from groundgraph.errors import FormatError, InputError, InputTooLargeError
from groundgraph.ingest.front_matter import (
    MAX_FRONT_MATTER_CHARS,
    blank_front_matter,
    read_front_matter,
)
from groundgraph.ingest.headings import leading_title
from groundgraph.ingest.jsonl import BadLine, read_jsonl
from groundgraph.ingest.markdown import parse_markdown
from groundgraph.ingest.parsed import DEFAULT_MAX_CHUNK_CHARS, ParsedDocument, normalise_newlines
from groundgraph.ingest.plaintext import parse_plaintext
from groundgraph.model.valid_text import has_surrogates, valid_text
from groundgraph.model.views import SkippedFile as SkippedFile  # defined with the records
from groundgraph.text import slugify

DEFAULT_MAX_FILE_BYTES = 50_000_000
DOC_ID_CHARS = 80
#: File kind by lower-cased suffix.
KINDS: dict[str, str] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "plaintext",
    ".jsonl": "jsonl",
}
_BINARY_PROBE_BYTES = 8192
#: How much of a file ``expected_title`` reads.
TITLE_PROBE_BYTES = 8192

PathArg = str | os.PathLike[str]


@dataclass(frozen=True, slots=True)
class PlannedFile:
    """A file to parse: where it is, how to read it, and the id its document will get
    (a JSON Lines file has none: its records carry theirs, each put in ``id_space``, the
    name space of a scoped writer's ids; "" keeps them as given)."""

    path: Path
    relative: str
    kind: str
    size: int
    doc_id: str
    id_space: str = ""


class FolderPlan(NamedTuple):
    """The files to parse, in order, and what the walk skipped."""

    files: list[PlannedFile]
    skipped: list[SkippedFile]


class FileContents(NamedTuple):
    """The documents read from one file, and the lines of it that were skipped."""

    documents: list[ParsedDocument]
    skipped: list[SkippedFile]


@dataclass(frozen=True)
class FolderResult:
    """The documents read from some files and folders, and what was skipped."""

    documents: list[ParsedDocument]
    skipped: list[SkippedFile]


def _as_paths(paths: PathArg | Iterable[PathArg]) -> list[Path]:
    if isinstance(paths, str | os.PathLike):
        return [Path(paths)]
    return [Path(p) for p in paths]


def _ignored(path: Path, reason: str) -> SkippedFile:
    return SkippedFile(_shown(path), reason, ignored=True)


def _shown(path: Path) -> str:
    """A path as text that can be printed and stored (a name that is not UTF-8 shows
    U+FFFD where its bad bytes are)."""
    return valid_text(str(path)).text


def _walk(root: Path, include_hidden: bool) -> Iterator[tuple[Path, SkippedFile | None]]:
    """(path, None) for each file under ``root`` in sorted order, (path, why) for skips.

    Symlinks are followed only while they stay inside ``root``; each real folder is
    walked once, so a symlink loop ends.
    """
    real_root = root.resolve()
    visited = {real_root}
    stack: list[Iterator[os.DirEntry[str]]] = []

    def enter(folder: Path) -> str | None:
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as exc:
            return f"cannot list the folder: {exc.strerror or exc}"
        stack.append(iter(entries))
        return None

    problem = enter(root)
    if problem is not None:
        yield root, SkippedFile(_shown(root), problem)
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        path = Path(entry.path)
        if entry.name.startswith(".") and not include_hidden:
            yield path, _ignored(path, "hidden (its name starts with '.')")
            continue
        if entry.is_symlink():
            try:
                target = path.resolve(strict=True)
            except (OSError, RuntimeError):
                yield path, SkippedFile(_shown(path), "broken symlink")
                continue
            if not target.is_relative_to(real_root):
                reason = f"symlink to {_shown(target)}, outside the folder {_shown(root)}"
                yield path, _ignored(path, reason + "; not followed")
                continue
        if entry.is_dir():
            real = path.resolve()
            if real in visited:
                reason = f"folder {_shown(real)} was already read (a symlink loop?)"
                yield path, _ignored(path, reason)
                continue
            visited.add(real)
            problem = enter(path)
            if problem is not None:
                yield path, SkippedFile(_shown(path), problem)
        elif entry.is_file():
            yield path, None
        else:
            yield path, _ignored(path, "not a regular file")


def _doc_id(relative: str, used: set[str]) -> str:
    """Slug of the path without its extension, made unique among ``used``."""
    base = slugify(PurePath(relative).with_suffix("").as_posix(), limit=DOC_ID_CHARS)
    doc_id, n = base, 1
    while doc_id in used:
        n += 1
        doc_id = f"{base}-{n}"
    used.add(doc_id)
    return doc_id


def plan_folder(
    paths: PathArg | Iterable[PathArg],
    *,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    include_hidden: bool = False,
) -> FolderPlan:
    """Walk files and folders (each folder in sorted order) and list the files to parse.

    ``.md`` and ``.markdown`` files are markdown, ``.txt`` plain text, ``.jsonl`` JSON
    Lines. Other files, hidden ones, files over ``max_file_bytes`` and symlinks leading
    outside the folder being walked are listed in ``skipped`` with the reason, and so is
    a file whose name is not valid UTF-8 (it could not be stored as the document's source).
    """
    files: list[PlannedFile] = []
    skipped: list[SkippedFile] = []
    seen: set[Path] = set()
    used_ids: set[str] = set()
    for given in _as_paths(paths):
        if given.is_dir():
            found: Iterable[tuple[Path, SkippedFile | None]] = _walk(given, include_hidden)
            root = given
        elif given.is_file():
            found, root = [(given, None)], given.parent
        else:
            skipped.append(SkippedFile(_shown(given), "no such file or folder"))
            continue
        for path, problem in found:
            if problem is not None:
                skipped.append(problem)
                continue
            kind = KINDS.get(path.suffix.lower())
            if kind is None:
                suffix = f"extension {path.suffix!r}" if path.suffix else "no extension"
                skipped.append(_ignored(path, f"{suffix}: not markdown, text or JSONL"))
                continue
            if has_surrogates(str(path)):
                reason = "its name is not valid UTF-8: rename it to read it"
                skipped.append(SkippedFile(_shown(path), reason))
                continue
            real = path.resolve()
            if real in seen:
                skipped.append(_ignored(path, "already listed under another path"))
                continue
            seen.add(real)
            try:
                size = path.stat().st_size
            except OSError as exc:
                skipped.append(SkippedFile(str(path), f"cannot read it: {exc.strerror or exc}"))
                continue
            if size > max_file_bytes:
                reason = f"{size:,} bytes, over the limit of {max_file_bytes:,} (max_file_bytes)"
                skipped.append(SkippedFile(str(path), reason))
                continue
            relative = path.relative_to(root).as_posix()
            doc_id = "" if kind == "jsonl" else _doc_id(relative, used_ids)
            files.append(PlannedFile(path, relative, kind, size, doc_id))
    return FolderPlan(files, skipped)


def _read_text(path: Path, max_file_bytes: int) -> tuple[bytes, str]:
    with path.open("rb") as handle:
        data = handle.read(max_file_bytes + 1)
    if len(data) > max_file_bytes:
        raise InputTooLargeError(
            f"the file {path}", len(data), max_file_bytes, hint="raise max_file_bytes to read it"
        )
    if b"\x00" in data[:_BINARY_PROBE_BYTES]:
        raise FormatError(
            f"{path} contains NUL bytes: it looks binary (or UTF-16); save it as UTF-8 text"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError(
            f"{path} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start});"
            " convert it to UTF-8 to read it"
        ) from None
    return data, normalise_newlines(text)


def _title(text: str, file: PlannedFile) -> str:
    """A markdown or text file's title (``parse_file`` says which)."""
    front = read_front_matter(text) if file.kind == "markdown" else None
    heading = leading_title(text if front is None else blank_front_matter(text, front))
    return (front.title if front is not None else "") or heading or file.path.stem


def expected_title(file: PlannedFile) -> str | None:
    """The title ``parse_file`` will most likely give a markdown or text file, read from
    its first ``TITLE_PROBE_BYTES`` only (more when a front matter runs past them; a
    heading after a long front matter, or bytes that are not UTF-8, may make it wrong);
    None for a JSON Lines file or one not readable."""
    if file.kind == "jsonl":
        return None
    try:
        with file.path.open("rb") as handle:
            head = handle.read(TITLE_PROBE_BYTES)
            if file.kind == "markdown" and head.lstrip(b"\xef\xbb\xbf").startswith(b"---"):
                # A front matter may run past the probe (a long keyword list): read on as
                # far as one can go (``MAX_FRONT_MATTER_CHARS``) and a heading after it.
                text = normalise_newlines(head.decode("utf-8-sig", "ignore"))
                if read_front_matter(text) is None:
                    head += handle.read(4 * MAX_FRONT_MATTER_CHARS)
    except OSError:
        return None
    return _title(normalise_newlines(head.decode("utf-8-sig", "ignore")), file)


def _parse(
    file: PlannedFile, max_chunk_chars: int, max_file_bytes: int
) -> tuple[list[ParsedDocument], list[BadLine]]:
    data, text = _read_text(file.path, max_file_bytes)
    source = str(file.path)
    if file.kind == "jsonl":
        return read_jsonl(
            text, source=source, max_chunk_chars=max_chunk_chars, id_space=file.id_space
        )
    title = _title(text, file)
    parse = parse_markdown if file.kind == "markdown" else parse_plaintext
    parsed = parse(text, title, doc_id=file.doc_id, source=source, max_chunk_chars=max_chunk_chars)
    digest = hashlib.sha256(data).hexdigest()
    return [replace(parsed, document=replace(parsed.document, content_hash=digest))], []


def parse_file(
    file: PlannedFile,
    *,
    max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
) -> list[ParsedDocument]:
    """Read and parse one planned file: one document, or one per line of a JSONL file.

    A markdown file's title is its front matter's ``title``, else the level-1 heading it
    starts with, else its file name without extension (a text file's: the heading, else
    the name); its content hash is that of its bytes. Raises FormatError for
    a file that is not UTF-8 text or has a bad JSONL line (the first is named),
    InputTooLargeError for one over ``max_file_bytes``, OSError when it cannot be read.
    ``read_file`` skips what is bad instead.
    """
    documents, bad = _parse(file, max_chunk_chars, max_file_bytes)
    if bad:
        raise FormatError(f"{file.path} line {bad[0].line}: {bad[0].reason}")
    return documents


def read_file(
    file: PlannedFile,
    *,
    max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
) -> FileContents:
    """Read one planned file as ``parse_file`` does, but never raise for a bad one: a file
    that cannot be read is one skip (``line`` None); a bad line of a JSON Lines file is
    one skip with its ``line``, and the file's good lines are kept."""
    shown = _shown(file.path)
    try:
        documents, bad = _parse(file, max_chunk_chars, max_file_bytes)
    except InputError as exc:
        return FileContents([], [SkippedFile(shown, str(exc))])
    except OSError as exc:
        return FileContents([], [SkippedFile(shown, f"cannot read it: {exc.strerror or exc}")])
    return FileContents(documents, [SkippedFile(shown, b.reason, b.line) for b in bad])


def read_folder(
    paths: PathArg | Iterable[PathArg],
    *,
    max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    include_hidden: bool = False,
) -> FolderResult:
    """Plan and parse files and folders; what cannot be read is added to ``skipped``."""
    plan = plan_folder(paths, max_file_bytes=max_file_bytes, include_hidden=include_hidden)
    documents: list[ParsedDocument] = []
    skipped = list(plan.skipped)
    for file in plan.files:
        contents = read_file(file, max_chunk_chars=max_chunk_chars, max_file_bytes=max_file_bytes)
        documents.extend(contents.documents)
        skipped.extend(contents.skipped)
    return FolderResult(documents, skipped)
