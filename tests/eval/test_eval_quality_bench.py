"""benchmarks/quality.py on tiny data sets of its layouts, and its section of benchmarks.md."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from repo_paths import ROOT

SCRIPT = ROOT / "benchmarks" / "quality.py"


@pytest.fixture(scope="module")
def quality() -> ModuleType:
    spec = importlib.util.spec_from_file_location("quality_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


SPEED = "# Benchmarks\n\n## Speed\n\nspeed table\n"


def test_the_section_is_appended_then_replaced_and_the_rest_kept(quality, tmp_path):
    path = tmp_path / "benchmarks.md"
    path.write_text(SPEED, encoding="utf-8")
    quality.write_section(path, "first table\n")
    text = path.read_text(encoding="utf-8")
    assert text == (
        SPEED + "\n## Retrieval quality\n\n<!-- quality:start -->\nfirst table\n"
        "<!-- quality:end -->\n"
    )
    path.write_text(text + "\n## Later\n\nkept\n", encoding="utf-8")
    quality.write_section(path, "second table\n")
    text = path.read_text(encoding="utf-8")
    assert "first table" not in text
    assert text.startswith(SPEED)
    assert (
        "<!-- quality:start -->\nsecond table\n<!-- quality:end -->\n\n## Later\n\nkept\n" in text
    )


def test_a_section_without_markers_is_replaced_up_to_the_next_heading(quality, tmp_path):
    path = tmp_path / "benchmarks.md"
    path.write_text(SPEED + "\n## Retrieval quality\n\nold\n\n## Speed notes\n\nkept\n", "utf-8")
    quality.write_section(path, "new\n")
    text = path.read_text(encoding="utf-8")
    assert "old" not in text
    assert text.startswith(SPEED)
    assert text.endswith("<!-- quality:end -->\n\n## Speed notes\n\nkept\n")


def passage(title: str, text: str, supporting: bool) -> dict[str, object]:
    return {"title": title, "paragraph_text": text, "is_supporting": supporting}


def tiny_data(root: Path) -> Path:
    """The four layouts the benchmark reads, a few records each."""
    mq = root / "musique-kag"
    mq.mkdir(parents=True)
    records = [
        {
            "id": "2hop__1",
            "question": "Which city is the founder of the Corner Bakery from?",
            "paragraphs": [
                passage("Corner Bakery", "The Corner Bakery was founded by Ada Smith.", True),
                passage("Ada Smith", "Ada Smith was born in Leeds.", True),
                passage("Leeds", "Leeds is a city in England.", False),
            ],
        },
        {
            "id": "2hop__2",
            "question": "What grain does the mill by the river grind?",
            "paragraphs": [
                passage("River Mill", "The River Mill grinds rye.", True),
                passage("Rye", "Rye is a grain.", True),
            ],
        },
    ]
    (mq / "musique_qa_100.json").write_text(json.dumps(records), "utf-8")
    (mq / "qa_train.json").write_text(json.dumps(records), "utf-8")
    corpus = [
        {"title": p["title"], "text": p["paragraph_text"]} for r in records for p in r["paragraphs"]
    ]
    (mq / "train_corpus.json").write_text(json.dumps(corpus), "utf-8")
    hp = root / "hotpotqa-kag"
    hp.mkdir()
    sentences = {
        "Corner Bakery": ["The Corner Bakery was founded by Ada Smith."],
        "Ada Smith": ["Ada Smith was born in Leeds."],
        "Leeds": ["Leeds is a city."],
    }
    qa = [
        {
            "_id": "h1",
            "question": "Which city is the founder of the Corner Bakery from?",
            "supporting_facts": [["Corner Bakery", 0], ["Ada Smith", 0]],
            "context": [[t, s] for t, s in sentences.items()],
        }
    ]
    (hp / "qa_train.json").write_text(json.dumps(qa), "utf-8")
    (hp / "train_corpus.json").write_text(json.dumps(sentences), "utf-8")
    sf = root / "scifact-beir"
    (sf / "qrels").mkdir(parents=True)
    docs = [("10", "Rye bread", "Rye bread is dense."), ("11", "Oats", "Oats are soft.")]
    (sf / "corpus.jsonl").write_text(
        "\n".join(json.dumps({"_id": i, "title": t, "text": x}) for i, t, x in docs), "utf-8"
    )
    queries = [{"_id": "1", "text": "dense rye bread"}, {"_id": "2", "text": "soft oats"}]
    (sf / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in queries), "utf-8")
    (sf / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\t10\t1\n2\t11\t1\n")
    return root


def test_a_full_run_writes_its_section(quality, tmp_path, capsys):
    data = tiny_data(tmp_path / "data")
    markdown = tmp_path / "benchmarks.md"
    markdown.write_text(SPEED, encoding="utf-8")
    report = tmp_path / "reports.json"
    quality.main(
        [
            "--data",
            str(data),
            "--markdown",
            str(markdown),
            "--resamples",
            "20",
            "--json",
            str(report),
            "--examples",
            "1",
        ]
    )
    text = markdown.read_text(encoding="utf-8")
    assert text.startswith(SPEED)
    for name in ("musique-100", "musique-train", "hotpotqa", "scifact"):
        assert f"| {name} | bm25 |" in text
        assert f"| {name} | walk |" in text
    assert "beats BM25 recall@5 by ≥ 3 points" in text
    assert "BM25-only SciFact nDCG@10 ≥ 0.66 | 1.000 | **met** |" in text
    assert "benchmarks/quality.py --data" in text
    saved = json.loads(report.read_text(encoding="utf-8"))
    assert saved["scifact"]["configs"]["bm25"]["rankings"]["1"][0] == "10"
    assert "Retrieval quality" not in capsys.readouterr().err


def test_sets_and_configs_can_be_chosen(quality, tmp_path, capsys):
    data = tiny_data(tmp_path / "data")
    quality.main(
        ["--data", str(data), "--sets", "hotpotqa", "--configs", "bm25,walk", "--no-write"]
    )
    printed = capsys.readouterr().out
    assert "| hotpotqa | walk |" in printed
    assert "| hotpotqa | ppr |" not in printed
    assert "scifact" not in printed.split("How it was measured")[0]
    with pytest.raises(SystemExit):
        quality.main(["--data", str(data), "--configs", "walk"])  # bm25 must come first
