"""benchmarks/datasets.py: the scores it prints are computed from the answers it got."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest

from groundgraph import DocumentGraph
from groundgraph.memory import dataset_questions
from repo_paths import ROOT

SCRIPT = ROOT / "benchmarks" / "datasets.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("datasets_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_an_empty_graph_recalls_nothing(bench) -> None:
    rows = bench.score(DocumentGraph(), "causal", verbose=False)
    assert len(rows) == len(dataset_questions("causal"))
    assert all(r["recall"] == 0.0 and not r["full"] for r in rows)


def test_a_graph_holding_only_the_chains_recalls_them_fully(bench) -> None:
    graph = DocumentGraph()
    for question in dataset_questions("medical"):
        for fact in question.chain:
            graph.add_text(fact)
    rows = bench.score(graph, "medical", verbose=False)
    summary = bench.summary(rows)
    # a chain of more than five facts could not fit; ours have at most four
    assert summary["chain_recall@5"] > 0.5
    assert summary["in_domain"] == 1.0


def test_the_run_covers_the_six_domains_and_prints_a_row_each(bench) -> None:
    result = bench.run(separate=True, verbose=False)
    assert list(result["by_domain"]) == bench.DOMAINS
    assert result["overall"]["questions"] == sum(len(dataset_questions(n)) for n in bench.DOMAINS)
    printed = bench.table(result)
    for name in bench.DOMAINS:
        assert f"| {name} |" in printed
    assert 0.0 <= result["overall"]["chain_recall@5"] <= 1.0
