"""GraphRack's spellings of groundgraph's options do what groundgraph's own do."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from groundgraph import DocumentGraph
from groundgraph.cli import main

TEXTS = {
    "orchard": "# Orchard\n\nThe orchard grows pears and plums beside the old mill.",
    "mill": "# Mill\n\nThe old mill ground flour for the village bakery.\n\n"
    "## Wheel\n\nThe water wheel of the mill turns in the spring floods.",
    "bakery": "# Bakery\n\nThe village bakery sells plum cake in autumn.",
}


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "index.json"
    with DocumentGraph(path) as graph:
        for doc_id, text in TEXTS.items():
            graph.add_document(text, doc_id.title(), doc_id=doc_id)
    return path


def invoke(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def test_index_names_the_store_after_the_command_as_db_does(tmp_path, store):
    assert invoke("search", "mill flour", "--index", str(store), "--json") == invoke(
        "--db", str(store), "search", "mill flour", "--json"
    )
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("Plums ripen late.", encoding="utf-8")
    invoke("index", str(folder), "--out", str(tmp_path / "new.db"), "--quiet")
    assert "[a] " in invoke("--db", str(tmp_path / "new.db"), "stats", "--docs")


def test_top_k_is_k(store):
    by_top_k = json.loads(invoke("--db", str(store), "search", "mill", "--top-k", "1", "--json"))
    by_k = json.loads(invoke("--db", str(store), "search", "mill", "-k", "1", "--json"))
    assert by_top_k == by_k and len(by_k) == 1


def test_eval_file_is_eval_retrieval(tmp_path, store):
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        '{"id": "q1", "question": "Who bakes plum cake?", "relevant": ["bakery"]}\n'
        '{"id": "q2", "question": "What turns the wheel?", "relevant": ["mill#1"]}\n',
        encoding="utf-8",
    )
    common = ["--config", "bm25", "--json", "--index", str(store)]
    short = json.loads(invoke("eval", str(questions), "--top-k", "2", *common))
    long = json.loads(invoke("eval", "retrieval", str(questions), "-k", "2", *common))
    for report in (short, long):
        for config in report["configs"].values():
            config.pop("latency")
    assert short == long and short["kValues"] == [2]


@pytest.mark.parametrize("weight", [0.0, 0.4, 1.0])
def test_linear_fusion_is_graphracks_formula(store, weight):
    hits = json.loads(
        invoke(
            "--db", str(store), "search", "mill flour", "--json",
            "--fusion", "linear", "--expansion", str(weight),
        )
    )  # fmt: skip
    assert hits
    assert max(h["lexicalScore"] for h in hits) == pytest.approx(1.0)
    for hit in hits:
        graph = hit["graphScore"] if hit["via"] is not None else 0.0
        want = (1 - weight) * hit["lexicalScore"] + weight * graph
        assert hit["score"] == pytest.approx(want)


def test_expansion_alone_asks_for_linear_fusion(store):
    base = ["--db", str(store), "search", "mill flour", "--json"]
    alone = json.loads(invoke(*base, "--expansion", "0.4"))
    linear = json.loads(invoke(*base, "--fusion", "linear", "--graph-weight", "0.4"))
    default = json.loads(invoke(*base))
    assert alone == linear
    assert alone != default  # noisy-or by default, which weighs nothing
    bm25_only = json.loads(invoke(*base, "--expansion", "0", "--top-k", "8"))
    assert all(h["score"] == pytest.approx(h["lexicalScore"]) for h in bm25_only)


def test_expansion_with_noisy_or_is_refused_saying_what_to_give(store):
    result = CliRunner().invoke(
        main,
        ["--db", str(store), "search", "mill", "--fusion", "noisy-or", "--expansion", "0.5"],
    )
    assert result.exit_code == 2
    assert "--fusion linear" in result.output and "Traceback" not in result.output


def test_a_second_index_run_reports_what_its_dry_run_does(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("Plums ripen late.", encoding="utf-8")
    (folder / "b.jsonl").write_text(
        '{"id": "c", "text": "Flour comes from the mill."}\n'
        '{"id": "d", "text": "Cake comes from the bakery."}\n',
        encoding="utf-8",
    )
    args = ["index", str(folder), "--out", str(tmp_path / "index.json"), "--json"]
    first = json.loads(invoke(*args))
    assert sorted(first["added"]) == ["a", "c", "d"]
    planned = json.loads(invoke(*args, "--dry-run"))
    done = json.loads(invoke(*args))
    assert sorted(done["unchanged"]) == sorted(planned["unchanged"]) == ["a", "c", "d"]
    assert done["added"] == done["changed"] == []


def test_index_out_refuses_another_tools_json_index_untouched(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("Plums ripen late.", encoding="utf-8")
    old = tmp_path / "index.json"
    old.write_text('{"chunks": [{"id": "a", "text": "Plums ripen late."}]}', encoding="utf-8")
    before = old.read_bytes()
    result = CliRunner().invoke(main, ["index", str(folder), "--out", str(old)])
    assert result.exit_code == 2
    assert "JSON text" in result.output and "Traceback" not in result.output
    assert old.read_bytes() == before
    for extra in ("-wal", "-shm"):
        assert not old.with_name(old.name + extra).exists()
