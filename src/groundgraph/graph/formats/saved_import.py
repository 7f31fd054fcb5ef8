"""Reading a saved graph file in bounded memory, one document at a time.

``saved.saved_graph`` needs the whole file as Python objects, and groups every node and
edge by document before the first is written: gigabytes at 100k sections. Here the file
is read once, in pieces (``json_stream``), each item checked as it comes and kept in a
temporary SQLite file (deleted on close) that a document's nodes and edges are read back
from. Everything is checked before anything is handed out, so a bad file still leaves
the graph untouched; the checks and messages are those of ``saved_graph``, the shape of
each piece included (``saved_limits``: JSON types, depth, sizes, counts). What stays in
memory is small: the documents, the node ids and entity ids, the conflicts.

    with SavedGraphFile.read(path) as saved:
        for parsed, extension in saved.documents():
            graph.load_json_documents([parsed], extension)
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from groundgraph.errors import FormatError
from groundgraph.graph.formats.json_stream import START, stream_object
from groundgraph.graph.formats.saved import (
    FORMAT,
    VERSION,
    check_header,
    check_listed_once,
    check_parent,
    document_from_json,
    edge_from_json,
    in_saved_order,
    later,
    node_from_json,
    stray_documents,
    unknown_end,
)
from groundgraph.graph.formats.saved_extension import (
    KEY,
    SavedExtension,
    asserting_node,
    check_edge_ends,
    check_extension_edge,
    check_extension_header,
    checked_extension_edge,
    conflict_from_json,
    entity_from_json,
    entity_node,
    fact_event_from_json,
    not_a_fact,
)
from groundgraph.graph.formats.saved_limits import MAX_ITEMS, check_json_value
from groundgraph.ingest.parsed import ParsedDocument
from groundgraph.model import Document, Edge
from groundgraph.store.base import ConflictRecord

__all__ = ["SavedGraphFile"]

_BATCH = 2000
_DECODE = json.JSONDecoder().decode
_LISTS = ("documents", "nodes", "edges")
_EXTENSION_LISTS = ("entities", "edges", "factEvents", "conflicts")
_SCHEMA = (
    "CREATE TABLE nodes (seq INTEGER PRIMARY KEY, node_id TEXT, doc_id TEXT, item TEXT)",
    "CREATE TABLE edges (seq INTEGER PRIMARY KEY, source TEXT, target TEXT, type TEXT, w REAL)",
    # The document each edge loads with (``saved.later``), filled once the file is read.
    "CREATE TABLE edge_owners (seq INTEGER PRIMARY KEY, doc_id TEXT)",
    "CREATE TABLE entities (node_id TEXT PRIMARY KEY, title TEXT, created TEXT)",
    "CREATE TABLE evidence (seq INTEGER PRIMARY KEY, source TEXT, target TEXT, "
    "asserting TEXT, item TEXT)",
    "CREATE TABLE events (seq INTEGER PRIMARY KEY, fact TEXT, item TEXT)",
)
# The spool is scratch: no journal, no syncs; a small page cache (8 MiB): its reads are
# index lookups a document at a time, served as well by the system's file cache, and a
# larger one only adds to the import's peak memory (32 MiB made it 66 MiB higher at 100k).
_PRAGMAS = ("PRAGMA journal_mode=OFF", "PRAGMA synchronous=OFF", "PRAGMA cache_size=-8192")
_INDEXES = (
    "CREATE INDEX nodes_by_doc ON nodes (doc_id, seq)",
    "CREATE INDEX nodes_by_id ON nodes (node_id)",
    "CREATE INDEX edges_by_source ON edges (source)",
    "CREATE INDEX evidence_by_asserting ON evidence (asserting)",
    "CREATE INDEX events_by_fact ON events (fact)",
)
_INSERT = {
    "nodes": "INSERT INTO nodes VALUES (?, ?, ?, ?)",
    "edges": "INSERT INTO edges VALUES (?, ?, ?, ?, ?)",
    "entities": "INSERT OR REPLACE INTO entities VALUES (?, ?, ?)",
    "evidence": "INSERT INTO evidence VALUES (?, ?, ?, ?, ?)",
    "events": "INSERT INTO events VALUES (?, ?, ?)",
}


class SavedGraphFile:
    """A saved graph file, read and checked whole, handed out a document at a time."""

    def __init__(self) -> None:
        self._spool = sqlite3.connect("", isolation_level=None)  # a private temporary file
        for statement in _PRAGMAS + _SCHEMA:
            self._spool.execute(statement)
        self._pending: dict[str, list[tuple[Any, ...]]] = {name: [] for name in _INSERT}
        self._members: dict[str, Any] = {}  # top-level members but the lists
        self._streamed: set[tuple[str, ...]] = set()  # the lists met, as lists
        self._extension: dict[str, Any] | None = None  # the extension's members but lists
        self._owner: dict[str, str] = {}  # node id -> document id
        self._parents: list[tuple[int, str]] = []  # (node position, its parent id)
        self._entities: set[str] = set()
        self._listed: list[tuple[Document, list[str]]] = []
        self._listed_ids: set[str] = set()
        self.conflicts: list[ConflictRecord] = []

    @classmethod
    def read(cls, path: str | Path) -> SavedGraphFile:
        """Read and check the saved graph at ``path``; FormatError says what is wrong."""
        saved = cls()
        try:
            with open(path, encoding="utf-8") as stream:
                saved._spool.execute("BEGIN")
                paths = [(key,) for key in _LISTS] + [(KEY, key) for key in _EXTENSION_LISTS]
                for where, index, value, text in stream_object(stream, paths):
                    saved._take(where, index, value, text)
                saved._flush()
                saved._spool.execute("COMMIT")
            saved._check()
            saved._forget_checked()
        except UnicodeDecodeError as exc:
            saved.close()
            raise FormatError(f"{path} is not UTF-8 JSON ({exc}); export it again") from exc
        except BaseException:
            saved.close()
            raise
        return saved

    def close(self) -> None:
        """Delete the temporary file."""
        self._spool.close()

    def __enter__(self) -> SavedGraphFile:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def has_extension(self) -> bool:
        return self._extension is not None

    # ----------------------------------------------------------------- reading
    def _take(self, where: tuple[str, ...], index: int | None, value: Any, text: str) -> None:
        """Check one piece of the file and keep it; the spool keeps an item's own text."""
        if index is not None and index >= MAX_ITEMS:
            raise FormatError(f"{'.'.join(where)}: more than {MAX_ITEMS:,} items")
        if index != START:
            at = ".".join(where) + ("" if index is None else f"[{index}]")
            check_json_value(value, at, len(where) + (index is not None))
        if where[0] == KEY:
            self._take_extension(where[1:], index, value, text)
        elif index is None:
            self._members[where[0]] = value
            if where[0] in ("format", "version"):  # refuse another format before reading on
                check_header({"format": FORMAT, "version": VERSION, where[0]: value})
        elif index == START:
            self._streamed.add(where)
        elif where == ("nodes",):
            node = node_from_json(value, f"nodes[{index}]")
            if node.node_id in self._owner:
                raise FormatError(f"nodes[{index}]: node id {node.node_id!r} appears twice")
            self._owner[node.node_id] = node.doc_id
            if node.parent_id is not None:
                self._parents.append((index, node.parent_id))
            self._add("nodes", (index, node.node_id, node.doc_id, text))
        elif where == ("edges",):
            edge = edge_from_json(value, f"edges[{index}]")
            self._add("edges", (index, edge.source, edge.target, edge.type, edge.weight))
        else:
            document, order = document_from_json(value, f"documents[{index}]")
            check_listed_once(document.doc_id, self._listed_ids, f"documents[{index}]")
            self._listed.append((document, order))

    def _take_extension(
        self, where: tuple[str, ...], index: int | None, value: Any, text: str
    ) -> None:
        if not where:  # the object starts, or the key holds null (no extension) or junk
            if index == START:
                self._extension = {}
            elif value is not None:
                check_extension_header(value)
            return
        if self._extension is None:
            self._extension = {}
        key = where[0]
        if index is None:
            if key in _EXTENSION_LISTS:
                raise FormatError(f"{KEY}.{key} must be a list of objects")
            self._extension[key] = value
            return
        if index == START:
            return
        at = f"{KEY}.{key}[{index}]"
        if key == "entities":
            node = entity_from_json(value, at)
            self._entities.add(node.node_id)
            self._add("entities", (node.node_id, node.title, node.created_at))
        elif key == "edges":
            item = check_extension_edge(value, at)
            source, sources = item["from"], item.get("sources", ())
            row = (index, source, item["to"], asserting_node(sources, source), text)
            self._add("evidence", row)
        elif key == "factEvents":
            event = fact_event_from_json(value, at)
            self._add("events", (index, event.fact_id, text))
        else:
            self.conflicts.append(conflict_from_json(value, at))

    def _add(self, table: str, row: tuple[Any, ...]) -> None:
        pending = self._pending[table]
        pending.append(row)
        if len(pending) >= _BATCH:
            self._spool.executemany(_INSERT[table], pending)
            pending.clear()

    def _flush(self) -> None:
        for table, pending in self._pending.items():
            self._spool.executemany(_INSERT[table], pending)
            pending.clear()
        for statement in _INDEXES:
            self._spool.execute(statement)

    # ----------------------------------------------------------------- checking
    def _check(self) -> None:
        """What ``saved_graph`` checks across items, once every item is read."""
        check_header(self._members)
        for key in _LISTS:
            if (key,) not in self._streamed:
                raise FormatError(f"a saved graph needs a list under {key!r}")
        for index, parent in self._parents:
            check_parent(parent, self._owner, f"nodes[{index}]")
        rank = {document.doc_id: i for i, (document, _) in enumerate(self._listed)}
        owners: list[tuple[int, str]] = []  # written a batch at a time: 1.9M edges at 100k
        self._spool.execute("BEGIN")
        for seq, source, target in self._spool.cursor().execute(
            "SELECT seq, source, target FROM edges ORDER BY seq"
        ):
            if source not in self._owner or target not in self._owner:
                raise unknown_end(f"edges[{seq}]")
            owners.append((seq, later(self._owner[source], self._owner[target], rank)))
            if len(owners) >= _BATCH:
                self._spool.executemany("INSERT INTO edge_owners VALUES (?, ?)", owners)
                owners.clear()
        self._spool.executemany("INSERT INTO edge_owners VALUES (?, ?)", owners)
        self._spool.execute("COMMIT")
        self._spool.execute("CREATE INDEX edge_owners_by_doc ON edge_owners (doc_id, seq)")
        stray = stray_documents(set(self._owner.values()), {d.doc_id for d, _ in self._listed})
        if stray is not None:
            raise stray
        if self._extension is None:
            return
        check_extension_header(self._extension)
        for seq, source, target, asserting in self._spool.execute(
            "SELECT seq, source, target, asserting FROM evidence ORDER BY seq"
        ):
            at = f"{KEY}.edges[{seq}]"
            check_edge_ends(source, target, asserting, at, self._owner, self._entities, rank)
        for seq, fact in self._spool.execute("SELECT seq, fact FROM events ORDER BY seq"):
            if fact not in self._owner:
                raise not_a_fact(f"{KEY}.factEvents[{seq}]", fact)

    def _forget_checked(self) -> None:
        """Drop what only the checks needed (every node id, twice over, and every entity
        id: some 50 MiB at 100k sections), before the documents are handed out."""
        self._owner, self._parents, self._entities = {}, [], set()

    # ----------------------------------------------------------------- handing out
    def documents(self) -> Iterator[tuple[ParsedDocument, SavedExtension | None]]:
        """Each listed document with its nodes and edges, in the file's order, and the
        part of the extension that goes with it (None for a plain v2 file)."""
        for document, order in self._listed:
            doc_id = document.doc_id
            rows = self._spool.execute(
                "SELECT item FROM nodes WHERE doc_id = ? ORDER BY seq", (doc_id,)
            )
            nodes = in_saved_order([node_from_json(_DECODE(r), "") for (r,) in rows], order)
            edges = [
                Edge(source, target, kind, weight, (source,))
                for source, target, kind, weight in self._spool.execute(
                    "SELECT e.source, e.target, e.type, e.w FROM edge_owners o "
                    "JOIN edges e ON e.seq = o.seq WHERE o.doc_id = ? ORDER BY o.seq",
                    (doc_id,),
                )
            ]
            parsed = ParsedDocument(document, nodes, edges, [], "")
            yield parsed, (self._extension_of(doc_id) if self.has_extension else None)

    def _extension_of(self, doc_id: str) -> SavedExtension:
        evidence = [
            checked_extension_edge(_DECODE(row))
            for (row,) in self._spool.execute(
                "SELECT v.item FROM evidence v JOIN nodes n ON n.node_id = v.asserting "
                "WHERE n.doc_id = ? ORDER BY v.seq",
                (doc_id,),
            )
        ]
        # The ends that are entities: the spool's entities table holds every one.
        ends = sorted({end for e in evidence for end in (e.source, e.target)})
        entities = {
            str(node_id): entity_node(str(node_id), str(title), str(created))
            for node_id, title, created in self._spool.execute(
                "SELECT node_id, title, created FROM entities "
                "WHERE node_id IN (SELECT value FROM json_each(?))",
                (json.dumps(ends),),
            )
        }
        events = [
            fact_event_from_json(_DECODE(row), "")
            for (row,) in self._spool.execute(
                "SELECT item FROM events WHERE fact = ? ORDER BY seq", (doc_id,)
            )
        ]
        return SavedExtension(entities, {doc_id: evidence}, {doc_id: events} if events else {}, [])

    def load_into(
        self, load: Callable[[Sequence[ParsedDocument], SavedExtension | None], list[Document]]
    ) -> int:
        """Hand every document to ``load`` (``DocumentGraph.load_json_documents``), then
        the conflicts; how many documents were loaded."""
        loaded = 0
        for parsed, extension in self.documents():
            loaded += len(load([parsed], extension))
        if self.conflicts:
            load([], SavedExtension({}, {}, {}, self.conflicts))
        return loaded
