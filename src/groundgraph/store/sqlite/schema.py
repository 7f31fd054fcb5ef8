"""Schema of the SQLite store, as numbered migrations (a PostgreSQL store numbers its own
the same way: version v means the same tables everywhere, up to 7; versions 8 and 9 are
SQLite's).

``MIGRATIONS[v]`` takes a store from version v-1 to v. The first version already carries
what DESIGN.md gives every node and edge (scopes, created_at, invalid_at, sources).
Version 2 adds what agent memory keeps beside the graph: each fact's history after it
was added (``fact_events``: scopes added, retired, revived), so ``as_of`` replays the
past exactly; the contradiction ledger (``conflicts``); and when each fact was last read
(``access``), which forgetting needs and which is not a graph change (no generation bump).
Version 3 gives each document its front-matter ``metadata`` (a JSON list of [key, value]
pairs) and its ``ingest`` key (how it was made), which incremental re-indexing compares.
Version 4 makes edges compact: an edge names its document by the document's ``seq`` (an
integer, unique, renewed when the document is replaced, as all its edges are) instead of
repeating its id, and ``''`` stands for the usual value of three columns (``rows.py``):
``sources`` for [the edge's source node], ``created_at`` for the document's ``added_at``,
``spans`` for none; the node ids in ``sources`` and ``spans`` are written relative to the
edge's source or document (``"#3"`` for node ``doc#3``). Rows written before keep their
explicit values, which still read the same. Version 5 gives every node an integer
``key`` and makes edges name their ends by it (``src``, ``dst``) instead of repeating two
node ids per edge, in the table and in each of its two indexes; an edge's ends must be
stored nodes (an edge to a node that is not there was never walked or shown). Nodes and
pending links name their document by its ``seq`` (0: an entity, which has none) and a
node its parent by key; a node's ``created_at`` equal to its document's ``added_at`` is
``''``.
Version 6 keeps a node's embedding (``node_vectors``: little-endian float32 blob by node
key); a trigger deletes it with its node, in the deleting transaction.
Version 7 makes paged listings index range scans: ``documents.fact`` (a virtual column:
1 for a memory fact's ``fact:`` id) and two indexes in listing order, ``(added_at,
doc_id)`` and ``(fact, added_at, doc_id)``; and ``document_scopes``, one row per scope
name of a document (its listing key beside it), kept by triggers on ``documents`` in the
writing transaction, so that a scoped page or a list of scope names reads the matching
rows only.
Version 8 (SQLite only: a PostgreSQL store stays at 7) makes the store smaller (issue 12,
a compact store). An edge's ``type`` is a
small integer, a code of ``edge_types`` (``EDGE_TYPE_CODES``: the types DESIGN.md names,
the most common ones 0 and 1, which SQLite stores in no bytes; another type gets the next
code when first written), and its ``weight`` is NULL when it is its type's usual weight
(``edge_types.weight``: every structure, mention and co-occurrence edge). A document's
edges are found through ``edge_runs``, the id ranges its writes gave its edges (a row per
write, not an index entry per edge as ``edges_doc`` was), each edge still naming its
``doc`` (``edge_layout.py``). Spans all in the edge's first source are written as bare
integers, start and length (``rows.pack_spans``), and a node's ``content`` or a
document's ``metadata`` of some length as a BLOB of raw deflate when that is shorter
(``rows.pack_text``). Rows written before keep their spans and text, which read as they
did. A pending link names its target by the key of its text in ``link_targets`` (many
links wait for one target).
Version 9 (SQLite only) stores a node's ``created_at`` of its own (an entity's: it has no
document) as 8 bytes when it is a time as the store writes them (``rows.pack_stamp``),
and an edge asserted by its document's root alone with ``sources`` ``'*'`` (an entity's
co-occurrence in a document's first lines; the migration rewrites the ``'[""]'`` that
meant the same); a document's ``ingest`` key as raw deflate against the default key
(``rows.pack_ingest``: 97 characters in 5 bytes) and a ``content_hash`` of 64 hex digits
as its 32 bytes. Other rows read as they did.
"""

from __future__ import annotations

SCHEMA_VERSION = 9

#: The fixed edge type codes of schema version 8 and each type's usual weight (None: none).
EDGE_TYPE_CODES: tuple[tuple[int, str, float | None], ...] = (
    (0, "co-occurs", 0.5),
    (1, "mentions", 0.7),
    (2, "semantic", None),
    (3, "reference", 0.75),
    (4, "parent-child", 0.8),
    (5, "next", 0.4),
    (6, "causes", None),
    (7, "relation", 0.7),
    (8, "supersedes", None),
)


def fact_test(column: str) -> str:
    """Whether ``column`` holds a memory fact's id ("fact:" and 16 hex digits), tested on
    its range first; ltrim() checks the digits many times faster than GLOB."""
    return (
        f"({column} >= 'fact:' AND {column} < 'fact;' AND length({column}) = 21"
        f" AND ltrim(substr({column}, 6), '0123456789abcdef') = '')"
    )


def _scope_rows(row: str) -> str:
    return (
        "INSERT OR IGNORE INTO document_scopes(scope, fact, added_at, doc_id)"
        f" SELECT j.value, {fact_test(row + '.doc_id')}, {row}.added_at, {row}.doc_id"
        f" FROM json_each({row}.scopes) j WHERE j.type = 'text';"
    )


def _no_scope_rows(row: str) -> str:
    return (
        "DELETE FROM document_scopes WHERE scope IN"
        f" (SELECT value FROM json_each({row}.scopes)) AND fact = {fact_test(row + '.doc_id')}"
        f" AND added_at = {row}.added_at AND doc_id = {row}.doc_id;"
    )


#: The lookups of edges by node (schema 5 on): a run that fills an edgeless store builds
#: them when it ends (``SQLiteDocumentWrites.filling``); a writable open makes any that a
#: killed run left out.
EDGE_LOOKUP_COLUMNS = {"edges_src": "src", "edges_dst": "dst"}
EDGE_LOOKUPS = tuple(
    f"CREATE INDEX IF NOT EXISTS {name} ON edges({column})"
    for name, column in EDGE_LOOKUP_COLUMNS.items()
)

MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE documents (
            doc_id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            source TEXT NOT NULL DEFAULT '',
            content_hash TEXT NOT NULL DEFAULT '',
            scopes TEXT NOT NULL DEFAULT '[]',
            added_at TEXT NOT NULL,
            seq INTEGER NOT NULL
        )""",
        "CREATE INDEX documents_seq ON documents(seq)",
        """CREATE TABLE nodes (
            node_id TEXT PRIMARY KEY,
            doc_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            title TEXT NOT NULL,
            content TEXT NOT NULL,
            level INTEGER NOT NULL,
            parent_id TEXT,
            span_start INTEGER NOT NULL,
            span_end INTEGER NOT NULL,
            scopes TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL,
            invalid_at TEXT
        )""",
        "CREATE INDEX nodes_doc ON nodes(doc_id, seq)",
        """CREATE TABLE edges (
            id INTEGER PRIMARY KEY,
            doc_id TEXT NOT NULL,
            source TEXT NOT NULL,
            target TEXT NOT NULL,
            type TEXT NOT NULL,
            weight REAL NOT NULL,
            label TEXT,
            sources TEXT NOT NULL DEFAULT '[]',
            spans TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL,
            invalid_at TEXT
        )""",
        "CREATE INDEX edges_source ON edges(source)",
        "CREATE INDEX edges_target ON edges(target)",
        "CREATE INDEX edges_doc ON edges(doc_id)",
        """CREATE TABLE doc_links (
            node_id TEXT NOT NULL,
            doc_id TEXT NOT NULL,
            target TEXT NOT NULL
        )""",
        "CREATE INDEX doc_links_target ON doc_links(target)",
        "CREATE INDEX doc_links_doc ON doc_links(doc_id)",
        "CREATE TABLE changes (generation INTEGER PRIMARY KEY, doc_id TEXT NOT NULL)",
        "CREATE TABLE blobs (name TEXT PRIMARY KEY, generation INTEGER NOT NULL,"
        " data BLOB NOT NULL)",
    ),
    2: (
        """CREATE TABLE fact_events (
            id INTEGER PRIMARY KEY,
            fact_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            at TEXT NOT NULL,
            scopes TEXT NOT NULL DEFAULT '[]',
            other TEXT
        )""",
        "CREATE INDEX fact_events_fact ON fact_events(fact_id, id)",
        """CREATE TABLE conflicts (
            id INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            new_fact TEXT NOT NULL,
            old_fact TEXT NOT NULL,
            rule TEXT NOT NULL,
            detail TEXT NOT NULL,
            resolver TEXT NOT NULL,
            snapshot TEXT NOT NULL
        )""",
        "CREATE INDEX conflicts_new ON conflicts(new_fact)",
        "CREATE INDEX conflicts_old ON conflicts(old_fact)",
        "CREATE TABLE access (node_id TEXT PRIMARY KEY, at TEXT NOT NULL)",
    ),
    3: (
        "ALTER TABLE documents ADD COLUMN metadata TEXT NOT NULL DEFAULT '[]'",
        "ALTER TABLE documents ADD COLUMN ingest TEXT NOT NULL DEFAULT ''",
    ),
    4: (
        "DROP INDEX edges_doc",
        "ALTER TABLE edges ADD COLUMN doc INTEGER NOT NULL DEFAULT 0",
        "UPDATE edges SET doc = COALESCE("
        "(SELECT seq FROM documents WHERE documents.doc_id = edges.doc_id), 0)",
        "ALTER TABLE edges DROP COLUMN doc_id",
        "CREATE INDEX edges_doc ON edges(doc)",
        "DROP INDEX documents_seq",
        "CREATE UNIQUE INDEX documents_seq ON documents(seq)",
    ),
    5: (
        """CREATE TABLE nodes_v5 (
            key INTEGER PRIMARY KEY,
            node_id TEXT NOT NULL UNIQUE,
            doc INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            title TEXT NOT NULL,
            content TEXT NOT NULL,
            level INTEGER NOT NULL,
            parent INTEGER,
            span_start INTEGER NOT NULL,
            span_end INTEGER NOT NULL,
            scopes TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL DEFAULT '',
            invalid_at TEXT
        )""",
        "INSERT INTO nodes_v5(key, node_id, doc, seq, kind, title, content, level, parent,"
        " span_start, span_end, scopes, created_at, invalid_at)"
        " SELECT o.rowid, o.node_id, COALESCE(d.seq, 0), o.seq, o.kind, o.title, o.content,"
        " o.level, (SELECT p.rowid FROM nodes p WHERE p.node_id = o.parent_id), o.span_start,"
        " o.span_end, o.scopes, CASE WHEN o.created_at = d.added_at THEN '' ELSE o.created_at"
        " END, o.invalid_at FROM nodes o LEFT JOIN documents d ON d.doc_id = o.doc_id"
        " AND o.doc_id != '' ORDER BY o.rowid",
        """CREATE TABLE doc_links_v5 (
            node INTEGER NOT NULL,
            doc INTEGER NOT NULL,
            target TEXT NOT NULL
        )""",
        "INSERT INTO doc_links_v5(node, doc, target) SELECT n.key, n.doc, l.target"
        " FROM doc_links l JOIN nodes_v5 n ON n.node_id = l.node_id ORDER BY l.rowid",
        """CREATE TABLE edges_v5 (
            id INTEGER PRIMARY KEY,
            doc INTEGER NOT NULL,
            src INTEGER NOT NULL,
            dst INTEGER NOT NULL,
            type TEXT NOT NULL,
            weight REAL NOT NULL,
            label TEXT,
            sources TEXT NOT NULL DEFAULT '',
            spans TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL DEFAULT '',
            invalid_at TEXT
        )""",
        "INSERT INTO edges_v5(id, doc, src, dst, type, weight, label, sources, spans,"
        " created_at, invalid_at)"
        " SELECT e.id, e.doc, s.key, t.key, e.type, e.weight, e.label, e.sources, e.spans,"
        " e.created_at, e.invalid_at FROM edges e"
        " JOIN nodes_v5 s ON s.node_id = e.source JOIN nodes_v5 t ON t.node_id = e.target"
        " ORDER BY e.id",
        "DROP TABLE edges",
        "DROP TABLE nodes",
        "DROP TABLE doc_links",
        "ALTER TABLE nodes_v5 RENAME TO nodes",
        "ALTER TABLE edges_v5 RENAME TO edges",
        "ALTER TABLE doc_links_v5 RENAME TO doc_links",
        "CREATE INDEX nodes_doc ON nodes(doc, seq)",
        "CREATE INDEX doc_links_target ON doc_links(target)",
        "CREATE INDEX doc_links_doc ON doc_links(doc)",
        "CREATE INDEX edges_src ON edges(src)",
        "CREATE INDEX edges_dst ON edges(dst)",
        "CREATE INDEX edges_doc ON edges(doc)",
    ),
    6: (
        "CREATE TABLE node_vectors (node INTEGER PRIMARY KEY, vector BLOB NOT NULL)",
        "CREATE TRIGGER node_vectors_gone AFTER DELETE ON nodes"
        " BEGIN DELETE FROM node_vectors WHERE node = old.key; END",
    ),
    7: (
        "ALTER TABLE documents ADD COLUMN fact INTEGER"
        f" GENERATED ALWAYS AS ({fact_test('doc_id')}) VIRTUAL",
        "CREATE INDEX documents_listing ON documents(added_at, doc_id)",
        "CREATE INDEX documents_fact_listing ON documents(fact, added_at, doc_id)",
        """CREATE TABLE document_scopes (
            scope TEXT NOT NULL,
            fact INTEGER NOT NULL,
            added_at TEXT NOT NULL,
            doc_id TEXT NOT NULL,
            PRIMARY KEY (scope, fact, added_at, doc_id)
        ) WITHOUT ROWID""",
        "INSERT OR IGNORE INTO document_scopes(scope, fact, added_at, doc_id)"
        " SELECT j.value, d.fact, d.added_at, d.doc_id FROM documents d, json_each(d.scopes) j"
        " WHERE j.type = 'text'",
        "CREATE TRIGGER document_scopes_added AFTER INSERT ON documents"
        f" BEGIN {_scope_rows('new')} END",
        "CREATE TRIGGER document_scopes_gone AFTER DELETE ON documents"
        f" BEGIN {_no_scope_rows('old')} END",
        "CREATE TRIGGER document_scopes_moved AFTER UPDATE OF doc_id, added_at, scopes ON documents"
        f" BEGIN {_no_scope_rows('old')} {_scope_rows('new')} END",
    ),
    8: (
        "CREATE TABLE edge_types (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
        " weight REAL)",
        "INSERT INTO edge_types(code, name, weight) VALUES "
        + ", ".join(
            f"({code}, '{name}', {'NULL' if weight is None else weight})"
            for code, name, weight in EDGE_TYPE_CODES
        ),
        "INSERT OR IGNORE INTO edge_types(name) SELECT DISTINCT type FROM edges ORDER BY type",
        """CREATE TABLE edges_v8 (
            id INTEGER PRIMARY KEY,
            doc INTEGER NOT NULL,
            src INTEGER NOT NULL,
            dst INTEGER NOT NULL,
            type INTEGER NOT NULL,
            weight REAL,
            label TEXT,
            sources TEXT NOT NULL DEFAULT '',
            spans TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL DEFAULT '',
            invalid_at TEXT
        )""",
        "INSERT INTO edges_v8(id, doc, src, dst, type, weight, label, sources, spans,"
        " created_at, invalid_at)"
        " SELECT e.id, e.doc, e.src, e.dst, k.code,"
        " CASE WHEN e.weight = k.weight THEN NULL ELSE e.weight END, e.label, e.sources,"
        " e.spans, e.created_at, e.invalid_at FROM edges e JOIN edge_types k ON k.name = e.type"
        " ORDER BY e.id",
        "DROP TABLE edges",
        "ALTER TABLE edges_v8 RENAME TO edges",
        "CREATE INDEX edges_src ON edges(src)",
        "CREATE INDEX edges_dst ON edges(dst)",
        """CREATE TABLE edge_runs (
            doc INTEGER NOT NULL,
            first INTEGER NOT NULL,
            last INTEGER NOT NULL,
            PRIMARY KEY (doc, first)
        ) WITHOUT ROWID""",
        # The runs of the edges stored so far: each stretch of ids of one document.
        "INSERT INTO edge_runs(doc, first, last) SELECT doc, MIN(id), MAX(id) FROM"
        " (SELECT id, doc, ROW_NUMBER() OVER (ORDER BY id)"
        " - ROW_NUMBER() OVER (PARTITION BY doc ORDER BY id) AS run FROM edges)"
        " GROUP BY doc, run",
        "CREATE TABLE link_targets (key INTEGER PRIMARY KEY, target TEXT NOT NULL UNIQUE)",
        "INSERT INTO link_targets(target) SELECT target FROM doc_links GROUP BY target"
        " ORDER BY MIN(rowid)",
        """CREATE TABLE doc_links_v8 (
            node INTEGER NOT NULL,
            doc INTEGER NOT NULL,
            target INTEGER NOT NULL
        )""",
        "INSERT INTO doc_links_v8(node, doc, target) SELECT l.node, l.doc, t.key"
        " FROM doc_links l JOIN link_targets t ON t.target = l.target ORDER BY l.rowid",
        "DROP TABLE doc_links",
        "ALTER TABLE doc_links_v8 RENAME TO doc_links",
        "CREATE INDEX doc_links_target ON doc_links(target)",
        "CREATE INDEX doc_links_doc ON doc_links(doc)",
    ),
    9: ("""UPDATE edges SET sources = '*' WHERE sources = '[""]'""",),
}
