"""How the SQLite store lays edges out compactly (schema version 8): type codes with
their usual weights (``edge_types``), and the id runs through which a document's edges
are found (``edge_runs``) instead of an index entry per edge."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from groundgraph.store.sqlite.schema import EDGE_TYPE_CODES

__all__ = [
    "OWNED_IDS",
    "TypeCode",
    "add_runs",
    "prune_runs",
    "type_codes",
    "type_codes_of",
]

#: A type's code and its usual weight (stored as NULL), None if it has none.
TypeCode = tuple[int, float | None]

#: The ids of the edges of document ``:doc`` (its seq): its runs, read by id range, and
#: the edges in them that still name it (an id freed by a deletion can be reused, so runs
#: can overlap and an id come twice: read it as ``id IN (OWNED_IDS)``).
OWNED_IDS = (
    "SELECT e.id FROM edge_runs r JOIN edges e ON e.id BETWEEN r.first AND r.last"
    " WHERE r.doc = :doc AND e.doc = :doc"
)


# The fixed codes every version 8 store holds from its migration on: no query needed.
_FIXED: dict[str, TypeCode] = {name: (code, weight) for code, name, weight in EDGE_TYPE_CODES}


def type_codes(conn: sqlite3.Connection, names: Iterable[str]) -> dict[str, TypeCode]:
    """The code and usual weight of each type name, a new code given to a name not seen
    before (in the caller's transaction: codes never change once committed)."""
    wanted = set(names)
    if wanted <= _FIXED.keys():
        return {n: _FIXED[n] for n in wanted}
    found = _read_codes(conn)
    new = sorted(wanted - found.keys())
    if new:
        conn.executemany("INSERT INTO edge_types(name) VALUES (?)", [(n,) for n in new])
        found = _read_codes(conn)
    return {n: found[n] for n in wanted}


def type_codes_of(conn: sqlite3.Connection, names: Sequence[str]) -> list[int]:
    """The codes of those of ``names`` that are stored types (an unknown type has no
    edges); written, as SQL, nothing."""
    found = _read_codes(conn)
    return [found[n][0] for n in names if n in found]


def _read_codes(conn: sqlite3.Connection) -> dict[str, TypeCode]:
    return {
        str(name): (int(code), None if weight is None else float(weight))
        for code, name, weight in conn.execute("SELECT code, name, weight FROM edge_types")
    }


def add_runs(conn: sqlite3.Connection, docs: Sequence[int], first: int) -> None:
    """Record the runs of edges just stored with ids ``first``, ``first + 1``, ... owned
    by ``docs`` in that order: one run per stretch of one document, joined to the
    document's run that ends just before it."""
    runs: list[tuple[int, int, int]] = []
    for offset, doc in enumerate(docs):
        if runs and runs[-1][0] == doc:
            runs[-1] = (doc, runs[-1][1], first + offset)
        else:
            runs.append((doc, first + offset, first + offset))
    if not runs:
        return
    # Only the first run can join a stored one: the edge just before each later run is
    # the previous run's, of another document.
    doc, start, last = runs[0]
    joined = conn.execute(
        "UPDATE edge_runs SET last = ? WHERE doc = ? AND last = ?", (last, doc, start - 1)
    )
    fresh = runs if joined.rowcount == 0 else runs[1:]
    conn.executemany("INSERT INTO edge_runs(doc, first, last) VALUES (?, ?, ?)", fresh)


def prune_runs(conn: sqlite3.Connection, doc: int | None = None) -> None:
    """Drop the runs (of document ``doc``, or of every document) left with no edge of
    their document."""
    where = "" if doc is None else "doc = :doc AND "
    conn.execute(
        f"DELETE FROM edge_runs WHERE {where}NOT EXISTS (SELECT 1 FROM edges e"
        " WHERE e.id BETWEEN edge_runs.first AND edge_runs.last AND e.doc = edge_runs.doc)",
        {"doc": doc},
    )
