"""Processes for the many-process tests: ``python pg_workers.py write URL WRITER ROUNDS``
replaces shared and own documents through a DocumentGraph; ``read URL SECONDS`` searches
and checks every document it reads is whole, until the time is up. Each prints one JSON
line of what it did and exits 0 only if nothing went wrong."""

from __future__ import annotations

import json
import sys
import time

from groundgraph import DocumentGraph

SHARED = 3


def document(writer: int, round_: int, doc_id: str) -> tuple[str, str]:
    """A document (text, title) whose every section names its writer and round, and whose
    title says how many sections it has: a reader can tell a whole one from a mix."""
    sections = 1 + (writer + round_) % 4
    body = "\n\n".join(
        f"## Part {i} w{writer} r{round_}\n\nwriter{writer} round{round_} wrote part {i}."
        for i in range(sections)
    )
    title = f"{doc_id} w{writer} r{round_} n{sections}"
    return f"# {title}\n\nbody of {doc_id}.\n\n{body}", title


def write(url: str, writer: int, rounds: int) -> dict[str, object]:
    writes = 0
    with DocumentGraph(url) as graph:
        for r in range(rounds):
            for doc_id in (f"shared-{r % SHARED}", f"own-{writer}-{r}"):
                text, title = document(writer, r, doc_id)
                graph.add_document(text, title, doc_id)
                writes += 1
    return {"writes": writes}


def whole(graph: DocumentGraph, doc_id: str) -> bool:
    """Whether the stored document is one writer's one version, all its sections there."""
    nodes = graph.store.reads.document_nodes(doc_id)
    if not nodes:
        return True  # not there (yet): fine
    head = nodes[0].title.split()
    marks = {(n.title.split()[-2], n.title.split()[-1]) for n in nodes[1:]}
    expected = int(head[-1].removeprefix("n"))
    return len(nodes) - 1 == expected and marks <= {(head[1], head[2])} and len(marks) == 1


def read(url: str, seconds: float) -> dict[str, object]:
    checks = half = 0
    with DocumentGraph(url) as graph:
        deadline = time.monotonic() + seconds
        while True:
            graph.search("writer0 round1 part")
            for doc in graph.store.reads.documents():
                checks += 1
                half += not whole(graph, doc.doc_id)
            if time.monotonic() > deadline:
                break
    return {"checks": checks, "half": half}


if __name__ == "__main__":
    verb, url = sys.argv[1], sys.argv[2]
    if verb == "write":
        out = write(url, int(sys.argv[3]), int(sys.argv[4]))
    else:
        out = read(url, float(sys.argv[3]))
    print(json.dumps(out))
    sys.exit(1 if out.get("half") else 0)
