"""GraphRack's calls on the graph: chained adds (add_record), save/load to one file,
search(top_k=), bridges between plain words, and a repeated id in one index run reported
(issue 18)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph.bridge_words import WORD_PREFIX
from groundgraph.ingest import SkippedFile, parse_jsonl, plan_folder

TEXTS = {
    "orchard": "The orchard grows pears and plums beside the old mill.",
    "mill": "The old mill ground flour for the village bakery.",
    "bakery": "The village bakery sells plum cake in autumn.",
    "river": "The river floods the lower meadow every spring.",
}


@pytest.fixture
def graph():
    with DocumentGraph() as built:
        for doc_id, text in TEXTS.items():
            built.add_document(text, doc_id, doc_id=doc_id, format="text")
        yield built


def test_add_record_chains_and_adds_what_a_json_lines_record_adds():
    chained = DocumentGraph()
    assert chained.add_record("orchard", TEXTS["orchard"]).add_record("mill", TEXTS["mill"]) is (
        chained
    )
    lines = "".join(
        json.dumps({"id": doc_id, "text": TEXTS[doc_id]}) + "\n" for doc_id in ("orchard", "mill")
    )
    with chained, DocumentGraph() as read:
        list(read.add_documents(parse_jsonl(lines)))
        for doc_id in ("orchard", "mill"):
            made, parsed = chained.node(doc_id), read.node(doc_id)
            assert replace(made, created_at="") == replace(parsed, created_at="")
            assert chained.node(doc_id).title == doc_id
        assert chained.search("old mill") == read.search("old mill")


def test_add_record_replaces_the_same_id_and_refuses_a_bad_one(graph):
    graph.add_record("mill", "The mill was sold in spring.")
    assert "sold" in graph.node("mill").content
    assert len(graph.documents()) == len(TEXTS)
    with pytest.raises(InputError):
        graph.add_record("a#b", "No id may hold a hash.")
    with pytest.raises(InputError):
        graph.add_record("mill", None)  # type: ignore[arg-type]


def test_save_writes_one_file_that_load_reads_back(graph, tmp_path):
    path = tmp_path / "graph.json"
    counts = graph.save(path)
    assert counts["documents"] == len(TEXTS) and path.is_file()
    assert not list(tmp_path.glob("*.part"))
    with DocumentGraph(tmp_path / "copy.db") as copy:
        assert copy.load(path) == len(TEXTS)
        assert _canonical(copy.to_json()) == _canonical(graph.to_json())
        assert copy.search("plum cake") == graph.search("plum cake")


def _canonical(saved: dict) -> dict:
    # The same graph whatever order its edges were written in (derived links are rewritten
    # in bulk): the edge lists compared as sorted lists.
    def sort(items: list) -> list:
        return sorted(items, key=lambda e: (e["from"], e["to"], e["type"], str(e.get("label"))))

    extension = dict(saved["groundgraph"])
    extension["edges"] = sort(extension["edges"])
    return {**saved, "edges": sort(saved["edges"]), "groundgraph": extension}


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 6), st.sampled_from(["mill", "plum village", "spring floods"]))
def test_top_k_is_max_results(k, query):
    with DocumentGraph() as graph:
        for doc_id, text in TEXTS.items():
            graph.add_document(text, doc_id, doc_id=doc_id, format="text")
        assert graph.search(query, top_k=k) == graph.search(query, max_results=k)


def test_top_k_and_max_results_that_disagree_are_refused(graph):
    with pytest.raises(InputError, match="top_k=2 and max_results=3"):
        graph.search("mill", top_k=2, max_results=3)


def test_a_bridge_between_plain_words_cites_each_hop(graph):
    bridges = graph.bridge("pears", "flour")
    assert bridges
    first = bridges[0]
    assert first.nodes[0] == WORD_PREFIX + "pears" and first.nodes[-1] == WORD_PREFIX + "flour"
    assert first.names[0] == "pears" and first.names[-1] == "flour"
    opening, closing = first.hops[0], first.hops[-1]
    assert opening.type == closing.type == "contains"
    assert opening.support is not None and "pears" in opening.support.text
    assert closing.support is not None and "flour" in closing.support.text
    assert all(hop.support is not None for hop in first.hops)


def test_a_word_no_node_holds_is_not_found(graph):
    with pytest.raises(NotFoundError, match="no node, entity or indexed word"):
        graph.bridge("pears", "zeppelin")


def test_a_repeated_id_in_one_run_is_reported_and_the_first_kept(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("Pears ripen in the orchard.", encoding="utf-8")
    (folder / "b.jsonl").write_text(
        '{"id": "a", "text": "Plums ripen late."}\n'
        '{"id": "c", "text": "Flour comes from the mill."}\n'
        '{"id": "c", "text": "Cake comes from the bakery."}\n',
        encoding="utf-8",
    )
    with DocumentGraph() as graph:
        results = list(graph.index_files(plan_folder([folder]).files, workers=0))
        repeats = [r for _, r in results if isinstance(r, SkippedFile)]
        assert len(repeats) == 2
        assert "'a'" in repeats[0].reason and "a.txt" in repeats[0].reason
        assert "'c'" in repeats[1].reason and "b.jsonl" in repeats[1].reason
        assert "Pears" in graph.node("a").content
        assert "Flour" in graph.node("c").content


@pytest.mark.parametrize("workers", [0, 2])
def test_a_repeated_id_in_one_add_documents_call_stops_it_there(workers):
    lines = "".join(
        json.dumps({"id": doc_id, "text": text}) + "\n"
        for doc_id, text in [
            ("a", "Pears ripen in the orchard."),
            ("b", "Flour comes from the mill."),
            ("a", "Plums ripen late."),
            ("c", "Cake comes from the bakery."),
        ]
    )
    with DocumentGraph() as graph:
        added = []
        with pytest.raises(InputError, match=r"document 3 has the id 'a' of document 1"):
            for document in graph.add_documents(parse_jsonl(lines), workers=workers):
                added.append(document.doc_id)
        assert added == ["a", "b"]
        assert "Pears" in graph.node("a").content
        assert [d.doc_id for d in graph.documents()] == ["a", "b"]
        # A call of its own replaces, as ids do.
        list(graph.add_documents(parse_jsonl(json.dumps({"id": "a", "text": "Plums."}))))
        assert graph.node("a").content == "Plums."
