"""Memory facts: ids, statuses, scopes, dedup, entities, datasets, and hostile inputs."""

from __future__ import annotations

import numpy as np
import pytest

from groundgraph import DocumentGraph, InputError, InputTooLargeError, NotFoundError
from groundgraph.ingest.entities import Mention
from groundgraph.memory import Fact, dataset_names, fact_id
from groundgraph.memory.facts import MAX_FACT_CHARS
from groundgraph.memory.scopes import MAX_SCOPE_DEPTH, ScopeReader, check_scopes


@pytest.fixture
def graph() -> DocumentGraph:
    return DocumentGraph(conflict_resolver=False)


def test_a_fact_is_a_one_node_document(graph):
    fact = graph.add_text("Marie Curie worked in Paris.", scopes=["lab/a"], source="agent-7")
    assert isinstance(fact, Fact) and fact.status == "added"
    assert fact.fact_id == fact_id("Marie Curie worked in Paris.")
    nodes = graph.store.reads.document_nodes(fact.fact_id)
    assert [(n.node_id, n.kind, n.content) for n in nodes] == [
        (fact.fact_id, "document", "Marie Curie worked in Paris.")
    ]
    assert nodes[0].scopes == ("lab/a",) and nodes[0].created_at == fact.created_at
    assert graph.store.reads.get_document(fact.fact_id).source == "agent-7"
    assert set(fact.entities) == {"Marie Curie", "Paris"}
    # The fact is searchable like any section, and its entities are the graph's entities.
    assert graph.search("Curie")[0].node_id == fact.fact_id
    assert "entity:paris" in {n.node_id for n in graph.store.reads.entity_nodes()}


def test_the_same_statement_is_the_same_fact(graph):
    first = graph.add_text("The server room is on floor 3.", scopes=["ops"])
    again = graph.add_text("  the server room is on floor 3  ", scopes=["ops/night"])
    assert again.fact_id == first.fact_id and again.status == "existing"
    assert again.text == "The server room is on floor 3."  # the first spelling stays
    assert again.scopes == ("ops", "ops/night")
    assert graph.fact(first.fact_id).scopes == ("ops", "ops/night")
    assert len([d for d in graph.documents() if d["docId"].startswith("fact:")]) == 1


def test_near_duplicates_merge_and_union_scopes(graph):
    kept = graph.add_text("The quarterly report is due on the first Monday of April.", ["a"])
    merged = graph.add_text("The quarterly report is due on the first Monday of April!!", ["a/x"])
    assert merged.fact_id == kept.fact_id and merged.status in ("existing", "merged")
    near = graph.add_text("The quarterly report is due on the first Monday of April 2025", ["a"])
    assert near.status == "merged" and near.fact_id == kept.fact_id
    assert near.similarity is not None and 0.9 <= near.similarity < 1.0
    assert set(graph.fact(kept.fact_id).scopes) == {"a", "a/x"}
    different = graph.add_text("The quarterly report is due on the last Friday of June.", ["a"])
    assert different.status == "added"


def test_near_duplicates_do_not_merge_across_unrelated_scopes(graph):
    graph.add_text("The launch code phrase for project falcon is blue heron seven", ["t1"])
    other = graph.add_text("The launch code phrase for project falcon is blue heron eight", ["t2"])
    assert other.status == "added"  # t2 would otherwise read t1's words


def test_dedup_threshold_per_call_and_off(graph):
    graph.add_text("Bananas ripen faster next to apples in a paper bag.")
    off = graph.add_text(
        "Bananas ripen faster next to apples in a paper bag today.", dedup_threshold=1.0
    )
    assert off.status == "added"
    plain = DocumentGraph(dedup_threshold=None, conflict_resolver=False)
    plain.add_text("Bananas ripen faster next to apples in a paper bag.")
    assert (
        plain.add_text("Bananas ripen faster next to apples in a paper bag too.").status == "added"
    )


def test_an_embedder_decides_near_duplicates_by_cosine():
    calls = []

    def embed(texts):
        calls.append(list(texts))
        # Deterministic fake: texts about cats point one way, everything else another.
        return np.array([[1.0, 0.0] if "cat" in t.lower() else [0.0, 1.0] for t in texts])

    graph = DocumentGraph(embedder=embed, conflict_resolver=False, causal_extractor=False)
    first = graph.add_text("My cat sleeps on the sofa all afternoon.")
    second = graph.add_text("The cat naps on the sofa in the afternoon.")
    assert second.status == "merged" and second.fact_id == first.fact_id
    assert second.similarity == pytest.approx(1.0)
    third = graph.add_text("The dog sleeps on the sofa all afternoon.")
    assert third.status == "added" and calls
    bad = DocumentGraph(embedder=lambda texts: np.zeros(3), causal_extractor=False)
    bad.add_text("Alpha beta gamma delta.")
    with pytest.raises(InputError, match="one row per text"):
        bad.add_text("Alpha beta gamma delta epsilon.")


def test_a_callable_entity_extractor(graph):
    fact = graph.add_text("we met at the old mill", extractor=lambda t: ["old mill", "Nowhere"])
    assert set(fact.entities) >= {"old mill", "nowhere"}  # not in the text: its key
    spans = {e.target: e.spans for e in graph.store.reads.edges_touching([fact.fact_id])}
    assert spans["entity:old mill"] == ((fact.fact_id, 14, 22),)
    mention = Mention(0, 2, "we", "we", "name")
    assert graph.add_text("we two", extractor=lambda t: [mention]).entities == ("we",)
    with pytest.raises(InputError, match="extractor"):
        graph.add_text("broken extractor here", extractor=lambda t: [42])
    with pytest.raises(InputError, match="extractor"):
        graph.add_text("another broken one", extractor=lambda t: "not a list")


def test_add_texts_keeps_order_and_checks_everything_first(graph):
    facts = graph.add_texts(["Oslo is in Norway.", "Bergen is in Norway."], scopes="nordic")
    assert [f.text for f in facts] == ["Oslo is in Norway.", "Bergen is in Norway."]
    assert all(f.scopes == ("nordic",) for f in facts)
    before = graph.store.reads.counts().documents
    with pytest.raises(InputError):
        graph.add_texts(["Fine text.", ""])
    assert graph.store.reads.counts().documents == before  # nothing of a bad batch is written
    with pytest.raises(InputError, match="list of texts"):
        graph.add_texts("one string is one fact")


@pytest.mark.parametrize(
    "text, error",
    [
        ("", InputError),
        ("   \n\t ", InputError),
        ("...", InputError),
        (None, InputError),
        (42, InputError),
        (b"bytes", InputError),
        ("binary\x00data", InputError),
        ("x" * (MAX_FACT_CHARS + 1), InputTooLargeError),
    ],
)
def test_hostile_fact_texts_are_refused_with_typed_errors(graph, text, error):
    with pytest.raises(error):
        graph.add_text(text)
    assert graph.store.reads.counts().documents == 0


def test_a_fact_at_the_size_cap_is_accepted(graph):
    text = ("word " * (MAX_FACT_CHARS // 5))[:MAX_FACT_CHARS]
    assert graph.add_text(text).status == "added"


@pytest.mark.parametrize(
    "scopes",
    [
        [""],
        ["a//b"],
        ["/a"],
        ["a/"],
        ["has space"],
        ["ünïcode"],
        ["-dash-first"],
        ["x" * 65],
        ["/".join(["s"] * (MAX_SCOPE_DEPTH + 1))],
        [42],
        [["nested"]],
        42,
        b"bytes",
        [f"s{i}" for i in range(40)],
    ],
)
def test_bad_scope_names_are_refused(graph, scopes):
    with pytest.raises(InputError):
        graph.add_text("A perfectly fine fact.", scopes=scopes)
    with pytest.raises(InputError):
        graph.query("fine", scopes=scopes)


def test_scope_hierarchy_reads_ancestors_only():
    reader = ScopeReader(check_scopes(["acme/team-a/alice/s1"]))
    assert reader.reads(("acme",)) and reader.reads(("acme/team-a",))
    assert reader.reads(("acme/team-a/alice/s1",))
    assert not reader.reads(("acme/team-b",)) and not reader.reads(("acme/team-a/alice/s1/x",))
    assert not reader.reads(("acme/team",))  # a prefix of a name is not a parent
    assert not reader.reads(())  # an unscoped fact belongs to no tenant
    assert ScopeReader(None).reads(())


def test_unknown_facts_are_not_found(graph):
    graph.add_text("Something is stored.")
    for name in ("fact:0123456789abcdef", "Nothing like this is stored.", "fact:nothex"):
        with pytest.raises(NotFoundError):
            graph.fact(name)
    with pytest.raises(InputError):
        graph.fact(None)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        graph.fact("y" * 30_000)


def test_memory_options_are_checked():
    for options in (
        {"conflict_resolver": "rules"},
        {"isolate_traversal": "yes"},
        {"forget_after": -1},
        {"forget_after": "30"},
        {"forget_every": -5},
        {"causal_extractor": 3},
        {"synthesizer": "template"},
        {"embedder": 1.5},
        {"dedup_threshold": 0},
        {"dedup_threshold": 1.5},
    ):
        with pytest.raises(InputError):
            DocumentGraph(**options)


def test_every_builtin_dataset_loads(graph):
    names = dataset_names()
    assert len(names) >= 3
    facts = graph.load_dataset(names[0])
    assert facts and all(f.fact_id.startswith("fact:") for f in facts)
    assert graph.query(facts[0].text.split()[0]) != []
    with pytest.raises(InputError):
        graph.load_dataset("../../etc/passwd")


def test_facts_survive_reopening_the_store(tmp_path):
    path = tmp_path / "memory.db"
    with DocumentGraph(path, conflict_resolver=False) as graph:
        added = graph.add_text("Kyoto was the capital of Japan.", scopes=["history"])
    with DocumentGraph(path) as again:
        assert again.fact(added.fact_id).scopes == ("history",)
        assert again.query("capital of Japan", scopes=["history"]) == [added.text]


def test_a_second_process_sees_new_facts(tmp_path):
    path = tmp_path / "shared.db"
    reader = DocumentGraph(path)
    writer = DocumentGraph(path)
    assert reader.query("lighthouse") == []
    writer.add_text("The lighthouse keeper lives on Skerry Island.")
    assert reader.query("lighthouse") == ["The lighthouse keeper lives on Skerry Island."]
    writer.close()
    reader.close()
