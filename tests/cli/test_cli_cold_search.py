"""A cold search loads what searching needs and nothing else (issue 12, cold start).

A search reads the store, the BM25 snapshot, the walk and the records; it never writes,
parses, extracts entities or relations, resolves contradictions, synthesises, grounds or
proves relations. Those modules (and asyncio, which synthesis brings, and scipy, which the
relation verifier brings) must stay unimported by ``groundgraph search`` and by a
``DocumentGraph`` opened to search, while the answer is the one a fully loaded graph gives.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from groundgraph import DocumentGraph
from groundgraph.graph.title_mentions import EXPECTED_SETTING, expect_titles

#: Modules of work a search does not do: writing and parsing documents, extracting
#: entities and relations (their patterns are large), agent memory's conflict rules,
#: synthesis and recall, grounding, the relation verifier and reasoning, the worker pool,
#: saved graphs. (The verb table, which the CLI reads for its help, names the limits of
#: recall and grounding from ``memory.limits`` and ``reason.limits``, not from them.)
NOT_FOR_SEARCH = (
    "asyncio",
    "scipy",
    "groundgraph.graph.writer",
    "groundgraph.graph.pool",
    "groundgraph.graph.prepare",
    "groundgraph.graph.memory",
    "groundgraph.graph.memory_write",
    "groundgraph.graph.grounding",
    "groundgraph.graph.saved_files",
    "groundgraph.graph.formats.saved",
    "groundgraph.ingest.markdown",
    "groundgraph.ingest.folder",
    "groundgraph.ingest.entities.extract",
    "groundgraph.ingest.relations.extract",
    "groundgraph.memory.conflicts",
    "groundgraph.memory.synthesis",
    "groundgraph.memory.recall",
    "groundgraph.reason.ground",
    "groundgraph.reason.relations",
    "groundgraph.reason.thought",
)

PROBE = """
import json, sys
{body}
print("MODULES", json.dumps(sorted(sys.modules)))
"""

CLI_BODY = """
from groundgraph.cli import main
try:
    main({args!r}, prog_name="groundgraph")
except SystemExit as exit:
    assert not exit.code, exit.code
"""

API_BODY = """
from groundgraph import DocumentGraph
graph = DocumentGraph({db!r})
print("HITS", json.dumps([hit.node_id for hit in graph.search({query!r})]))
"""

DOCS = {
    "boiler.md": "# Boiler\n\n## Service\n\nThe boiler is serviced in October by Dana Reyes.\n",
    "radiator.md": "# Radiator\n\nBleed each radiator after the Boiler service.\n",
}


def _run(body: str) -> tuple[list[str], str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(body=body)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("MODULES "))
    return json.loads(line.removeprefix("MODULES ")), done.stdout


def _loaded(modules: list[str]) -> list[str]:
    return [m for m in NOT_FOR_SEARCH if any(x == m or x.startswith(m + ".") for x in modules)]


def _store(tmp_path: Path) -> Path:
    db = tmp_path / "store.db"
    with DocumentGraph(db) as graph:
        for name, text in DOCS.items():
            graph.add_document(text, name.removesuffix(".md").title(), doc_id=name[:-3])
        graph.search("boiler")  # links settled, so a later search has nothing to write
    return db


def test_cli_search_leaves_the_write_memory_and_reasoning_modules_unloaded(tmp_path):
    db = _store(tmp_path)
    args = ["--db", str(db), "search", "boiler service", "--json"]
    modules, stdout = _run(CLI_BODY.format(args=args))
    assert _loaded(modules) == []
    hits = json.loads(stdout[: stdout.index("MODULES ")])
    with DocumentGraph(db) as full:  # every part loaded in this process: the same answer
        assert [h["nodeId"] for h in hits] == [h.node_id for h in full.search("boiler service")]
    assert hits


def test_an_opened_graph_searches_without_its_write_and_memory_parts(tmp_path):
    db = _store(tmp_path)
    modules, stdout = _run(API_BODY.format(db=str(db), query="radiator"))
    assert _loaded(modules) == []
    line = next(x for x in stdout.splitlines() if x.startswith("HITS "))
    assert json.loads(line.removeprefix("HITS "))[0].startswith("radiator")


def test_the_first_write_or_memory_use_loads_the_parts_then(tmp_path):
    body = API_BODY.format(db=str(_store(tmp_path)), query="boiler") + (
        "graph.add_text('The radiator valve is stuck.')\n"
    )
    modules, _ = _run(body)
    assert {"groundgraph.graph.writer", "groundgraph.graph.memory"} <= set(modules)


def test_a_read_that_relinks_settles_the_title_mentions_through_the_writer(tmp_path):
    db = tmp_path / "died.db"
    dying = DocumentGraph(db)
    expect_titles(dying.indexes.titles, dying.store, dying.indexes.matcher(), ["Iron Gate"])
    text = "# Tin Whistle\n\nIt hangs by the iron gate.\n"
    dying.add_document(text, "Tin Whistle", doc_id="t")
    dying.store.close()  # dies before relinking: the expected title stays stored

    after = DocumentGraph(db)
    assert "writer" not in vars(after)  # not made by opening
    after.search("whistle")  # the read relinks, and the writer settles the titles
    clean = DocumentGraph()
    clean.add_document(text, "Tin Whistle", doc_id="t")
    clean.search("whistle")
    edges = {(e.source, e.target, e.type) for e in after.store.reads.iter_edges()}
    assert edges == {(e.source, e.target, e.type) for e in clean.store.reads.iter_edges()}
    assert not after.store.settings.get_setting(EXPECTED_SETTING)
