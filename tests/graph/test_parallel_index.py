"""Indexing with worker processes builds the graph that adding one document at a time builds."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.graph import pool
from groundgraph.ingest import SkippedFile, plan_folder
from groundgraph.ingest.markdown import parse_markdown

CITIES = ["Harwick", "Lindqvist Point", "Osterby", "Marrow Bay", "Quill Ferry", "Tessaly"]
TOOLS = ["`ferry.toml`", "`load_manifest`", "--dry-run", "GDPR", "NATO", "API"]


def _corpus(count: int) -> list[tuple[str, str, str]]:
    """(doc id, title, markdown): documents that name each other's titles, people,
    code and acronyms, link to each other and repeat key phrases."""
    docs = []
    for i in range(count):
        title = f"Harbour Log {i}"
        city, other_city = CITIES[i % len(CITIES)], CITIES[(i * 5 + 1) % len(CITIES)]
        tool = TOOLS[i % len(TOOLS)]
        named = f"Harbour Log {(i * 7 + 3) % count}"  # later and earlier documents
        sections = []
        for k in range(3 + i % 4):
            sections.append(
                f"## Crossing {k}\n\nThe night ferry from {city} to {other_city} runs with "
                f"{tool} checks. Anna Kovacs said the tide tables were wrong; the tide "
                f"tables come from {named}. See [the log](log-{(i + 1) % count}.md) and "
                f'[crossing](#crossing-{(k + 1) % 3}). "Cold storage" holds crates.\n'
            )
        docs.append((f"log-{i}", title, f"# {title}\n\nNotes on {city}.\n\n" + "\n".join(sections)))
    return docs


def _dump(graph: DocumentGraph) -> list[str]:
    graph.indexes.sync()  # semantic edges are derived at the first read after writes
    rows = []
    for node in [*graph.store.reads.iter_nodes(), *graph.store.reads.entity_nodes()]:
        fields = dataclasses.asdict(node)
        fields.pop("created_at", None)
        rows.append(json.dumps(["node", fields], sort_keys=True, default=str))
    for edge in graph.store.reads.iter_edges():
        fields = dataclasses.asdict(edge)
        fields.pop("created_at", None)
        rows.append(json.dumps(["edge", fields], sort_keys=True, default=str))
    return sorted(rows)


@pytest.fixture
def small_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers start after two documents and take three at a time."""
    monkeypatch.setattr(pool, "DEFAULT_WARM", 2)
    monkeypatch.setattr(pool, "DEFAULT_CHUNK", 3)


def test_workers_build_the_graph_one_at_a_time_builds(tmp_path, small_pool):
    docs = _corpus(24)
    one_by_one = DocumentGraph(tmp_path / "a.db")
    for doc_id, title, text in docs:
        one_by_one.add_document(text, title, doc_id=doc_id)
    parallel = DocumentGraph(tmp_path / "b.db")
    parsed = (parse_markdown(text, title, doc_id=doc_id) for doc_id, title, text in docs)
    added = [d.doc_id for d in parallel.add_documents(parsed, workers=2)]
    assert added == [doc_id for doc_id, _, _ in docs]
    expected = _dump(one_by_one)
    # Titles are found as entities also where they were named before their document came.
    assert any('"node_id": "entity:harbour log 12"' in row for row in expected)
    assert any('"node_id": "entity:harbour log 3"' in row for row in expected)
    assert _dump(parallel) == expected
    for query in ("night ferry Harwick", "tide tables", "load_manifest"):
        assert parallel.search(query) == one_by_one.search(query)


def test_index_files_with_workers_matches_in_process(tmp_path, small_pool):
    folder = tmp_path / "docs"
    folder.mkdir()
    for doc_id, _, text in _corpus(15):
        (folder / f"{doc_id}.md").write_text(text, encoding="utf-8")
    (folder / "broken.md").write_bytes(b"# Broken\n\n\xff\xfe not text")
    (folder / "more.jsonl").write_text(
        '{"id": "j1", "title": "Quay", "text": "Osterby quay notes."}\n', encoding="utf-8"
    )
    files, _ = plan_folder([folder])
    results = {}
    for workers in (0, 2):
        graph = DocumentGraph(tmp_path / f"w{workers}.db")
        outcome = [
            (planned.relative, [d.doc_id for d in got] if isinstance(got, list) else got.reason)
            for planned, got in graph.index_files(files, workers=workers)
        ]
        results[workers] = (outcome, _dump(graph))
    assert results[2] == results[0]
    outcome = dict(results[2][0])
    assert "UTF-8" in outcome["broken.md"]
    assert outcome["more.jsonl"] == ["j1"]


def test_an_extractor_of_the_graphs_own_still_runs_here(tmp_path, small_pool):
    seen: list[str] = []

    def shouting(text: str) -> list:  # a closure: it cannot go to another process
        seen.append(text)
        return []

    graph = DocumentGraph(tmp_path / "g.db", entities=shouting)
    docs = _corpus(8)
    parsed = [parse_markdown(text, title, doc_id=doc_id) for doc_id, title, text in docs]
    list(graph.add_documents(parsed, workers=2))
    assert len(seen) == sum(len(p.nodes) for p in parsed)
    assert graph.store.reads.entity_nodes() == [] or all(
        not n.node_id.startswith("entity:anna") for n in graph.store.reads.entity_nodes()
    )


def test_a_script_without_a_main_guard_can_index_with_workers(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    for doc_id, _, text in _corpus(40):
        (folder / f"{doc_id}.md").write_text(text, encoding="utf-8")
    script = tmp_path / "index_it.py"
    script.write_text(
        textwrap.dedent(
            f"""
            from groundgraph import DocumentGraph
            from groundgraph.ingest import plan_folder
            graph = DocumentGraph({str(tmp_path / "s.db")!r})
            files, _ = plan_folder([{str(folder)!r}])
            done = sum(len(got) for _, got in graph.index_files(files, workers=2))
            print("indexed", done)
            """
        ),
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "indexed 40"


def test_a_worker_that_dies_stops_the_batch_with_a_clear_error(tmp_path, small_pool, monkeypatch):
    monkeypatch.setattr(pool, "_WORKER_CODE", "import sys; sys.exit(3)")
    graph = DocumentGraph(tmp_path / "g.db")
    docs = _corpus(10)
    parsed = (parse_markdown(text, title, doc_id=doc_id) for doc_id, title, text in docs)
    landed = []
    with pytest.raises(pool.WorkerError, match="exit code 3"):
        for document in graph.add_documents(parsed, workers=1):
            landed.append(document.doc_id)
    # What landed before the failure is whole and searchable; nothing after it is there.
    assert landed == ["log-0", "log-1"]
    assert sorted(d.doc_id for d in graph.store.reads.documents()) == landed
    assert graph.search("night ferry")


def test_a_worker_that_writes_to_standard_output_still_answers(tmp_path, small_pool, monkeypatch):
    # Text a library (or a profiler) prints in the worker, through Python and straight to
    # file descriptor 1, must not land in the answers the parent reads there.
    noisy = (
        "import os, sys; from groundgraph.graph import prepare; "
        "_prepare = prepare.Preparer.prepare; "
        "prepare.Preparer.prepare = lambda self, item: ("
        "print('noise ' * 50), os.write(1, b'raw noise'), _prepare(self, item))[-1]; "
        + pool._WORKER_CODE
    )
    monkeypatch.setattr(pool, "_WORKER_CODE", noisy)
    docs = _corpus(12)
    parsed = [parse_markdown(text, title, doc_id=doc_id) for doc_id, title, text in docs]
    with_workers = DocumentGraph(tmp_path / "w.db")
    landed = [d.doc_id for d in with_workers.add_documents(parsed, workers=1)]
    alone = DocumentGraph(tmp_path / "a.db")
    list(alone.add_documents(parsed, workers=0))
    assert landed == [doc_id for doc_id, _, _ in docs]
    assert _dump(with_workers) == _dump(alone)


def test_a_worker_that_answers_garbage_is_a_clear_error(tmp_path, small_pool, monkeypatch):
    garbage = (
        "import sys; sys.stdin.buffer.read(8); sys.stdout.buffer.write(b'not a frame' * 9); "
        "sys.stdout.flush(); sys.stdin.read()"
    )
    monkeypatch.setattr(pool, "_WORKER_CODE", garbage)
    graph = DocumentGraph(tmp_path / "g.db")
    parsed = (parse_markdown(text, title, doc_id=doc_id) for doc_id, title, text in _corpus(10))
    with pytest.raises(pool.WorkerError, match="garbled frame"):
        list(graph.add_documents(parsed, workers=1))


@pytest.mark.parametrize("value", ["two", "-1", "999"])
def test_a_bad_worker_count_is_refused(monkeypatch, value):
    monkeypatch.setenv(pool.WORKERS_ENV, value)
    with pytest.raises(InputError, match=r"0 to 64|whole number"):
        pool.default_workers()


def test_the_worker_count_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv(pool.WORKERS_ENV, "3")
    assert pool.default_workers() == 3
    monkeypatch.setenv(pool.WORKERS_ENV, "0")
    assert pool.default_workers() == 0


def test_records_cross_to_workers_unchanged():
    from groundgraph.model import Document, Edge, Node

    records = [
        Node("d#1", "d", "section", "Tide", "Text", 2, "d", (4, 8), ("team",), "t0", "t1"),
        Edge("d#1", "d#2", "reference", 0.75, ("d#1",), "label", "t0", None, (("d#1", 1, 5),)),
        Document("d", "Title", "about", "d.md", "abc", ("team/a",), "t0"),
    ]
    for record in records:
        assert pickle.loads(pickle.dumps(record)) == record


_TEXT = st.text(
    alphabet=st.sampled_from(list("abcdeéüßİıя THE the and a1_-.`[]()#\n")), max_size=120
)
_LANGUAGES = ["english", "german", "french", "turkish", "russian"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_LANGUAGES), _TEXT, st.text(max_size=30))
def test_prepared_term_counts_are_the_index_term_counts(language, content, title):
    import Stemmer

    from groundgraph.graph.prepare import Preparer, PrepareSettings
    from groundgraph.ingest.markdown import parse_markdown
    from groundgraph.text import Analyzer, words

    parsed = parse_markdown(f"## {title}\n\n{content}", "Doc", doc_id="doc")
    prepared = Preparer(PrepareSettings(language, 3, 2000, True, True)).prepare(parsed)
    stop, stemmer = Analyzer(language).stop, Stemmer.Stemmer(language)

    def plain(text: str) -> list[str]:  # the analyzer's definition, without its cache
        return stemmer.stemWords([w for w in words(text) if len(w) > 1 and w not in stop])

    for row, node in enumerate(parsed.nodes):
        expected = Counter(plain(node.content))
        for term in plain(node.title):
            expected[term] += 3
        batch = prepared.counts.take([row])
        got = [(batch.distinct[i], int(tf)) for i, tf in zip(batch.local, batch.tf, strict=True)]
        assert got == list(expected.items())  # same terms, tfs and order


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_LANGUAGES), st.lists(_TEXT, min_size=1, max_size=4))
def test_remembered_stems_are_the_stemmers_stems(language, texts):
    import Stemmer

    from groundgraph.text import Analyzer, words

    analyzer = Analyzer(language)
    stemmer = Stemmer.Stemmer(language)
    for text in texts:  # later texts hit the stems remembered from earlier ones
        kept = [w for w in words(text) if len(w) > 1 and w not in analyzer.stop]
        assert analyzer.terms(text) == stemmer.stemWords(kept)


def test_the_index_command_gives_the_same_store_with_and_without_workers(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    for doc_id, _, text in _corpus(40):
        (folder / f"{doc_id}.md").write_text(text, encoding="utf-8")
    summaries = []
    for workers in ("0", "1"):
        db = tmp_path / f"cli{workers}.db"
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "groundgraph",
                "--db",
                str(db),
                "index",
                str(folder),
                "--json",
                "--workers",
                workers,
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert run.returncode == 0, run.stderr
        summaries.append(json.loads(run.stdout))
        graph = DocumentGraph(db)
        summaries.append(_dump(graph))
        graph.close()
    assert summaries[0]["documents"] == 40
    assert summaries[0] == summaries[2] and summaries[1] == summaries[3]


def test_workers_import_the_groundgraph_this_process_runs(monkeypatch):
    import groundgraph

    monkeypatch.setenv("PYTHONPATH", "elsewhere")
    first, rest = pool._python_path().split(os.pathsep, 1)
    assert (Path(first) / "groundgraph" / "__init__.py").samefile(groundgraph.__file__)
    assert rest == "elsewhere"


def test_a_file_whose_document_id_is_unusable_is_skipped_not_fatal(tmp_path, small_pool):
    folder = tmp_path / "docs"
    folder.mkdir()
    for doc_id, _, text in _corpus(6):
        (folder / f"{doc_id}.md").write_text(text, encoding="utf-8")
    bad = '{"id": "bad#id", "title": "X", "text": "y"}\n'
    (folder / "a-bad.jsonl").write_text(bad, encoding="utf-8")
    files, _ = plan_folder([folder])
    for workers in (0, 1):
        graph = DocumentGraph(tmp_path / f"w{workers}.db")
        got = [(p.relative, r) for p, r in graph.index_files(files, workers=workers)]
        (line,) = [r for p, r in got if p == "a-bad.jsonl" and isinstance(r, SkippedFile)]
        assert "'#'" in line.reason and line.line == 1
        assert next(r for p, r in got if p == "a-bad.jsonl") == []  # the file's result first
        assert len(graph.store.reads.documents()) == 6


@pytest.mark.slow
def test_workers_die_with_a_killed_parent(tmp_path):
    # Issue 17: 11 of 50 killed `groundgraph index` runs left workers alive 1.8 s later.
    import psutil

    folder = tmp_path / "docs"
    folder.mkdir()
    # Files slow enough to prepare that a worker is busy with one when its parent dies.
    part = " ".join(f"Word{i} topic{i % 17} met Ann Lee{i % 5}." for i in range(3000))
    for i in range(80):
        (folder / f"d{i}.md").write_text(f"# Doc {i}\n\n" + f"## Part\n\n{part}\n\n" * 4)
    env = {**os.environ, "GROUNDGRAPH_WORKERS": "2", "GROUNDGRAPH_DB": str(tmp_path / "s.db")}
    parent = subprocess.Popen(
        [sys.executable, "-m", "groundgraph", "index", str(folder), "-q"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        process = psutil.Process(parent.pid)
        workers: list[psutil.Process] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # until both workers run
            workers = process.children()
            if len(workers) >= 2 or parent.poll() is not None:
                break
            time.sleep(0.05)
        assert len(workers) >= 2, "the index run ended before its workers could be seen"
    finally:
        parent.kill()
        parent.wait()
    _, alive = psutil.wait_procs(workers, timeout=1)
    running = [w for w in alive if _running(w)]  # a dead worker may wait as a zombie
    assert not running, f"{len(running)} workers outlived their parent"


def _running(process) -> bool:
    import psutil

    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
