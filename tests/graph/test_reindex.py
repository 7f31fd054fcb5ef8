"""Incremental re-indexing: unchanged files are not read again, changed ones replace their
documents, vanished ones are pruned on request, and the plan says so before any write."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.graph import reindex
from groundgraph.graph.reindex import UnchangedFile
from groundgraph.ingest import plan_folder
from groundgraph.ingest.folder import SkippedFile
from groundgraph.store import SQLiteStore
from groundgraph.store.sqlite.schema import MIGRATIONS

TOPICS = ("queue", "cache", "ledger", "gateway", "scheduler", "replica")


def _text(name: str, version: int) -> str:
    topic = TOPICS[(len(name) + version) % len(TOPICS)]
    return (
        f"# {name.title()} notes\n\nThe {topic} of {name} keeps version {version}.\n\n"
        f"## Running {name}\n\nStart the {topic} before the gateway; see Usage.\n"
    )


def _write(folder, name: str, version: int = 0) -> None:
    (folder / f"{name}.md").write_text(_text(name, version), encoding="utf-8")


def _outcomes(graph: DocumentGraph, folder, **kwargs) -> dict[str, str]:
    """File name -> 'unchanged', 'skipped' or 'written' for one index run."""
    got = {}
    for planned, result in graph.index_files(plan_folder([folder]).files, workers=0, **kwargs):
        if isinstance(result, UnchangedFile):
            got[planned.relative] = "unchanged"
        elif isinstance(result, SkippedFile):
            got[planned.relative] = "skipped"
        else:
            got[planned.relative] = "written"
    return got


def _rows(path) -> dict[str, list[tuple]]:
    with sqlite3.connect(path) as conn:
        return {
            "nodes": sorted(conn.execute("SELECT node_id, content FROM nodes")),
            "edges": sorted(
                conn.execute(
                    "SELECT s.node_id, t.node_id, k.name, COALESCE(e.weight, k.weight)"
                    " FROM edges e JOIN nodes s ON s.key = e.src JOIN nodes t ON t.key = e.dst"
                    " JOIN edge_types k ON k.code = e.type"
                )
            ),
        }


@pytest.fixture
def folder(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("alpha", "beta", "gamma"):
        _write(docs, name)
    return docs


def test_an_unchanged_folder_is_not_read_or_written_again(folder, tmp_path, monkeypatch) -> None:
    db = tmp_path / "g.db"
    with DocumentGraph(db) as graph:
        assert set(_outcomes(graph, folder).values()) == {"written"}
        generation = graph.stats().generation
    before = _rows(db)

    def no_parse(*args, **kwargs):
        raise AssertionError("an unchanged file was parsed")

    monkeypatch.setattr("groundgraph.graph.prepare.read_file", no_parse)
    with DocumentGraph(db) as graph:
        assert _outcomes(graph, folder) == dict.fromkeys(
            ("alpha.md", "beta.md", "gamma.md"), "unchanged"
        )
        assert graph.stats().generation == generation
    assert _rows(db) == before


def test_a_changed_file_replaces_only_its_document(folder, tmp_path) -> None:
    with DocumentGraph(tmp_path / "g.db") as graph:
        _outcomes(graph, folder)
        _write(folder, "beta", version=1)
        assert _outcomes(graph, folder) == {
            "alpha.md": "unchanged",
            "beta.md": "written",
            "gamma.md": "unchanged",
        }
        assert "version 1" in graph.node("beta").content


def test_a_new_parser_version_reads_every_file_again(folder, tmp_path, monkeypatch) -> None:
    with DocumentGraph(tmp_path / "g.db") as graph:
        _outcomes(graph, folder)
        key = graph.store.reads.get_document("alpha").ingest
        assert key.startswith(f"groundgraph-ingest/{reindex.INGEST_VERSION} ")
        monkeypatch.setattr(reindex, "INGEST_VERSION", reindex.INGEST_VERSION + 1)
        assert set(_outcomes(graph, folder).values()) == {"written"}
        assert graph.store.reads.get_document("alpha").ingest != key


def test_force_reads_every_file(folder, tmp_path) -> None:
    with DocumentGraph(tmp_path / "g.db") as graph:
        _outcomes(graph, folder)
        assert set(_outcomes(graph, folder, force=True).values()) == {"written"}


def test_other_settings_make_another_key(tmp_path) -> None:
    with (
        DocumentGraph(tmp_path / "a.db") as one,
        DocumentGraph(tmp_path / "b.db", max_chunk_chars=300) as two,
    ):
        assert one.writer.ingest_key() != two.writer.ingest_key()
    with DocumentGraph(tmp_path / "c.db", entities=None) as three:
        assert "entities=off" in three.writer.ingest_key()
    with DocumentGraph(tmp_path / "d.db", entities=_no_entities) as four:
        assert "entities=test_reindex._no_entities" in four.writer.ingest_key()


def _no_entities(text: str) -> list:
    return []


def test_json_lines_documents_compare_one_by_one(tmp_path) -> None:
    folder = tmp_path / "lines"
    folder.mkdir()
    rows = [
        {"id": f"doc-{i}", "title": f"Doc {i}", "text": f"The {t} runs."}
        for i, t in enumerate(TOPICS[:3])
    ]
    path = folder / "docs.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    with DocumentGraph(tmp_path / "g.db") as graph:
        first = list(graph.index_files(plan_folder([folder]).files, workers=0))
        assert [d.doc_id for d in first[0][1]] == ["doc-0", "doc-1", "doc-2"]
        rows[1]["text"] = "The replica lags."
        path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
        plan = graph.plan_index(plan_folder([folder]).files)
        assert plan.ids("changed") == ["doc-1"] and plan.ids("unchanged") == ["doc-0", "doc-2"]
        second = list(graph.index_files(plan_folder([folder]).files, workers=0))
        assert [d.doc_id for d in second[0][1]] == ["doc-1"]
        assert "lags" in graph.node("doc-1").content
        # The records left alone are yielded as such, after the file's result, as the
        # plan says: a run reports what its dry run does.
        unchanged = [r.doc_id for _, r in second[1:] if isinstance(r, UnchangedFile)]
        assert unchanged == plan.ids("unchanged")
        assert all(planned is second[0][0] for planned, _ in second)


def test_prune_names_only_vanished_files_under_the_folders_given(folder, tmp_path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    _write(other, "delta")
    with DocumentGraph(tmp_path / "g.db") as graph:
        _outcomes(graph, folder)
        _outcomes(graph, other)
        (folder / "beta.md").unlink()
        (other / "delta.md").unlink()
        assert graph.plan_index([], prune=[folder]).removed == ("beta",)
        assert graph.plan_index([]).removed == ()


def test_a_store_of_schema_version_2_opens_and_its_documents_count_as_changed(
    folder, tmp_path
) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        for version in (1, 2):
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
        conn.execute(
            "INSERT INTO documents(doc_id, title, source, content_hash, added_at, seq)"
            " VALUES ('alpha', 'Alpha notes', ?, ?, '2026-01-01T00:00:00+00:00', 1)",
            (str(folder / "alpha.md"), reindex.file_digest(folder / "alpha.md")),
        )
        conn.execute("PRAGMA user_version = 2")
    store = SQLiteStore(db)
    document = store.reads.get_document("alpha")
    assert document is not None and document.ingest == "" and document.metadata == ()
    store.close()
    with DocumentGraph(db) as graph:
        assert graph.plan_index(plan_folder([folder]).files).ids("changed") == ["alpha"]


def test_front_matter_is_kept_as_metadata_and_survives_export(tmp_path) -> None:
    folder = tmp_path / "fm"
    folder.mkdir()
    (folder / "page.md").write_text(
        "---\ntitle: Queue guide\nms.date: 2026-01-02\nauthor: 'Ana'\n---\n\nThe queue drains.\n",
        encoding="utf-8",
    )
    with DocumentGraph(tmp_path / "g.db") as graph:
        _outcomes(graph, folder)
        document = graph.store.reads.get_document("page")
        assert document.metadata == (
            ("title", "Queue guide"),
            ("ms.date", "2026-01-02"),
            ("author", "Ana"),
        )
        copy = DocumentGraph.from_json(json.loads(json.dumps(graph.to_json())))
        assert copy.store.reads.get_document("page").metadata == document.metadata
        assert copy.store.reads.get_document("page").ingest == document.ingest


EDITS = st.lists(
    st.tuples(
        st.sampled_from(("alpha", "beta", "gamma", "delta", "epsilon")),
        st.sampled_from(("write", "edit", "delete")),
    ),
    max_size=6,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edits=EDITS)
def test_the_plan_is_what_the_run_does(tmp_path_factory, edits) -> None:
    base = tmp_path_factory.mktemp("plan")
    folder = base / "docs"
    folder.mkdir()
    for name in ("alpha", "beta", "gamma"):
        _write(folder, name)
    with DocumentGraph(base / "g.db") as graph:
        _outcomes(graph, folder)
        for name, edit in edits:
            path = folder / f"{name}.md"
            if edit == "delete":
                path.unlink(missing_ok=True)
            else:
                _write(folder, name, version=2 if edit == "edit" else 0)
        before = {d.doc_id for d in graph.store.reads.documents()}
        files = plan_folder([folder]).files
        plan = graph.plan_index(files, prune=[folder])
        done = {"added": [], "changed": [], "unchanged": []}
        for _, result in graph.index_files(files, workers=0):
            if isinstance(result, UnchangedFile):
                done["unchanged"].append(result.doc_id)
            else:
                for document in result:
                    done["changed" if document.doc_id in before else "added"].append(
                        document.doc_id
                    )
        for change in ("added", "changed", "unchanged"):
            assert sorted(plan.ids(change)) == sorted(done[change]), change
        present = {p.stem for p in folder.glob("*.md")}
        assert set(plan.removed) == before - present


@pytest.mark.slow
def test_the_cli_reports_and_prunes(folder, tmp_path) -> None:
    db = str(tmp_path / "cli.db")

    def run(*args: str) -> dict:
        command = [sys.executable, "-m", "groundgraph", "--db", db, "index", *args, "--json"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    first = run(str(folder))
    assert first["added"] == ["alpha", "beta", "gamma"] and first["documents"] == 3
    _write(folder, "gamma", version=3)
    _write(folder, "delta")
    (folder / "alpha.md").unlink()
    plan = run(str(folder), "--prune", "--dry-run")
    assert plan["dryRun"] and "store" not in plan
    expected = {
        "added": ["delta"],
        "changed": ["gamma"],
        "unchanged": ["beta"],
        "removed": ["alpha"],
    }
    assert {k: plan[k] for k in expected} == expected
    kept = run(str(folder))  # without --prune nothing is removed
    assert kept["removed"] == [] and kept["store"]["documents"] == 4
    pruned = run(str(folder), "--prune")
    assert pruned["removed"] == ["alpha"] and pruned["unchanged"] == ["beta", "delta", "gamma"]
    assert pruned["store"]["documents"] == 3
    text = subprocess.run(
        [sys.executable, "-m", "groundgraph", "--db", db, "index", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "indexed 0 documents (0 added, 0 changed, 3 unchanged, 0 removed)" in text.stdout
