"""``GROUNDGRAPH_EMBEDDER`` / ``--embedder`` for ``groundgraph serve`` and ``groundgraph mcp``:
the named embedder (a deterministic fake, registered for the test) embeds what the served
store holds, and an unknown name stops the command with one clear line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from fake_embedder import DIM, hashed_bag
from groundgraph.errors import InputError
from groundgraph.graph import DocumentGraph
from groundgraph.graph.embeddings import EMBEDDER_SETTING
from groundgraph.index import embedders
from groundgraph.index.embedder import TextEmbedder
from groundgraph.service.serve import build_app, config_from, embedder_from, open_service
from service_server import running

FAKE = "hashed-bag"
GARAGE = "# Garage\n\nThe automobile had a breakdown on the bridge."
LUNCH = "# Lunch\n\nLunch is served at noon in the canteen."


@pytest.fixture
def fake_registered(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The fake registered by name, as minilm is; the sizes of the batches it embeds."""
    batches: list[int] = []

    def encode(texts: list[str]):
        batches.append(len(texts))
        return hashed_bag(texts)

    monkeypatch.setitem(embedders._FACTORIES, FAKE, lambda: TextEmbedder(FAKE, encode, DIM))
    return batches


def test_the_embedder_comes_from_the_flag_else_the_environment(fake_registered):
    assert config_from({"db": "m.db"}, {}).embedder is None
    assert config_from({"db": "m.db"}, {"GROUNDGRAPH_EMBEDDER": FAKE}).embedder == FAKE
    assert config_from({"db": "m.db"}, {"GROUNDGRAPH_EMBEDDER": "none"}).embedder is None
    assert embedder_from("none", {"GROUNDGRAPH_EMBEDDER": FAKE}) is None
    assert embedder_from(FAKE, {"GROUNDGRAPH_EMBEDDER": "minilm"}) == FAKE


@pytest.mark.parametrize("bad", ["bogus", "MINILM", "../../minilm", "x" * 5000])
def test_an_unknown_embedder_is_an_error_naming_the_setting_and_the_choices(bad):
    with pytest.raises(InputError) as raised:
        config_from({"db": "m.db"}, {"GROUNDGRAPH_EMBEDDER": bad})
    message = str(raised.value)
    assert message.startswith("GROUNDGRAPH_EMBEDDER=") and "minilm" in message
    assert len(message) < 300


def test_a_served_store_is_embedded_with_the_named_embedder(tmp_path: Path, fake_registered):
    db = str(tmp_path / "e.db")
    config = config_from({"db": db}, {"GROUNDGRAPH_EMBEDDER": FAKE})
    notes: list[str] = []
    with (
        open_service(config.db, config.embedder) as service,
        running(build_app(config, service, notes.append)) as base,
    ):
        for text, title in ((GARAGE, "Garage"), (LUNCH, "Lunch")):
            added = httpx.post(base + "/graph/add_document", json={"content": text, "title": title})
            assert added.status_code == 200, added.text
        assert fake_registered, "the named embedder embedded the documents"
        # no word in common with the garage section: found by its vector alone
        hits = httpx.post(
            base + "/graph/search", json={"query": "motor failure", "search_mode": "embedding"}
        ).json()
        assert hits and "automobile" in hits[0]["content"]
        pushed = httpx.post(base + "/sessions/fleet/memory", json={"text": "A car crashed."})
        assert pushed.status_code == 200
    assert any(FAKE in note for note in notes)
    graph = DocumentGraph(db)
    try:
        assert graph.store.settings.get_setting(EMBEDDER_SETTING) == FAKE
    finally:
        graph.close()


def test_without_an_embedder_an_embedding_search_says_how_to_get_one(tmp_path: Path):
    config = config_from({"db": str(tmp_path / "plain.db")}, {})
    with (
        open_service(config.db, config.embedder) as service,
        running(build_app(config, service, lambda line: None)) as base,
    ):
        httpx.post(base + "/graph/add_document", json={"content": GARAGE, "title": "Garage"})
        answer = httpx.post(
            base + "/graph/search", json={"query": "motor failure", "search_mode": "embedding"}
        )
    assert answer.status_code == 422 and "embedder" in answer.json()["detail"]


@pytest.mark.slow
@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_an_unknown_embedder_stops_the_command_with_one_clear_line(tmp_path, command):
    base = [sys.executable, "-m", "groundgraph", "--db", str(tmp_path / "m.db"), command]
    by_env = subprocess.run(
        base,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "GROUNDGRAPH_EMBEDDER": "bogus"},
        stdin=subprocess.DEVNULL,
    )
    assert by_env.returncode == 2, by_env.stderr
    assert "GROUNDGRAPH_EMBEDDER='bogus' is not an embedder" in by_env.stderr
    assert "minilm" in by_env.stderr and "Traceback" not in by_env.stderr
    by_flag = subprocess.run(
        [*base, "--embedder", "bogus"], capture_output=True, text=True, timeout=60
    )
    assert by_flag.returncode == 2 and "--embedder" in by_flag.stderr
    assert "Traceback" not in by_flag.stderr
