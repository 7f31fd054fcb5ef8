"""Indexing files looks for the titles the run will bring from its first document on
(``graph.title_mentions.expect_titles``): the graph is the one that adding the documents
one at a time gives, also when an expected title never arrives or the run dies."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.graph.title_mentions import EXPECTED_SETTING, expect_titles
from groundgraph.ingest import plan_folder
from groundgraph.ingest.folder import TITLE_PROBE_BYTES, expected_title, parse_file

TITLES = ["Brass Lantern", "Copper Kettle", "Iron Gate", "Tin Whistle", "Oak Barrel"]
WORDS = ["polish", "rivet", "hinge", "solder", "varnish", "handle", "spout"]


def _text(title: str, named: list[int], words: list[str]) -> str:
    mentions = " ".join(f"It sits by the {TITLES[n].lower()}." for n in named)
    return f"# {title}\n\n## Care\n\nAdd {' '.join(words)} weekly. {mentions}\n"


def _edges(graph: DocumentGraph) -> dict[tuple[str, str, str], float]:
    graph.indexes.sync()  # derived edges and title mentions settle at the first read
    return {(e.source, e.target, e.type): e.weight for e in graph.store.reads.iter_edges()}


def _entities(graph: DocumentGraph) -> set[str]:
    return {n.node_id for n in graph.store.reads.entity_nodes()}


files = st.lists(
    st.tuples(
        st.lists(st.integers(0, len(TITLES) - 1), max_size=3),
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=5),
    ),
    min_size=2,
    max_size=len(TITLES),
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(files, st.integers(0, 4))
def test_a_run_gives_the_graph_of_documents_added_one_by_one(tmp_path, docs, stored):
    folder = tmp_path / f"run{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    texts = {f"d{i}": _text(TITLES[i], named, words) for i, (named, words) in enumerate(docs)}
    for name, text in texts.items():
        (folder / f"{name}.md").write_text(text, encoding="utf-8")
    plan = plan_folder([folder]).files
    assert [expected_title(f) for f in plan] == [parse_file(f)[0].document.title for f in plan]

    by_run = DocumentGraph()
    earlier = plan[: stored % len(plan)]  # some documents are in the store before the run
    for _ in by_run.index_files(earlier, workers=0):
        pass
    for _ in by_run.index_files(plan, workers=0):
        pass
    one_by_one = DocumentGraph()
    for name in reversed(sorted(texts)):  # another order: the graph does not depend on it
        title = TITLES[int(name[1:])]
        one_by_one.add_document(texts[name], title, doc_id=f"d{name[1:]}")
    assert _edges(by_run) == _edges(one_by_one)
    assert _entities(by_run) == _entities(one_by_one)


def test_an_expected_title_that_never_arrives_leaves_no_mention(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text(_text("Brass Lantern", [1], ["polish"]), encoding="utf-8")
    # Its head promises the title "Copper Kettle", but a byte past the probe is not UTF-8,
    # so the file is skipped and the title never joins the graph.
    head = _text("Copper Kettle", [], ["rivet"]).encode()
    (folder / "b.md").write_bytes(head + b"x" * TITLE_PROBE_BYTES + b"\xff\n")
    plan = plan_folder([folder]).files
    assert expected_title(plan[1]) == "Copper Kettle"

    graph = DocumentGraph(tmp_path / "run.db")
    results = [result for _, result in graph.index_files(plan, workers=0)]
    assert any(getattr(r, "reason", "").find("UTF-8") >= 0 for r in results)
    alone = DocumentGraph()
    alone.add_document(_text("Brass Lantern", [1], ["polish"]), "Brass Lantern", doc_id="a")
    assert _edges(graph) == _edges(alone)
    assert "entity:copper kettle" not in _entities(graph)
    assert not graph.store.settings.get_setting(EXPECTED_SETTING)  # settled at relink


def test_titles_expected_by_a_run_that_died_are_settled_by_the_next_process(tmp_path):
    db = tmp_path / "died.db"
    dying = DocumentGraph(db)
    indexes = dying.indexes
    expect_titles(indexes.titles, dying.store, indexes.matcher(), ["Iron Gate", "Oak Barrel"])
    text = _text("Tin Whistle", [2, 4], ["hinge"])
    dying.add_document(text, "Tin Whistle", doc_id="t")
    assert "entity:iron gate" in _entities(dying)  # looked for before its document came
    dying.store.close()  # the process dies: no relink, the expected titles stay stored

    after = DocumentGraph(db)
    clean = DocumentGraph()
    clean.add_document(text, "Tin Whistle", doc_id="t")
    assert _edges(after) == _edges(clean)
    assert _entities(after) == _entities(clean)
    assert not after.store.settings.get_setting(EXPECTED_SETTING)


def test_expected_title_reads_only_the_head_and_knows_no_jsonl(tmp_path):
    note = tmp_path / "note.md"
    note.write_text("---\ntitle: Iron Gate\n---\n\n# Another heading\n\nText.\n", encoding="utf-8")
    lines = tmp_path / "rows.jsonl"
    lines.write_text('{"id": "r", "text": "x"}\n', encoding="utf-8")
    plain = tmp_path / "plain.txt"
    plain.write_text("no heading here\n", encoding="utf-8")
    by_name = {f.path.name: f for f in plan_folder([tmp_path]).files}
    assert expected_title(by_name["note.md"]) == "Iron Gate"
    assert expected_title(by_name["rows.jsonl"]) is None
    plain_title = parse_file(by_name["plain.txt"])[0].document.title
    assert expected_title(by_name["plain.txt"]) == plain_title
    by_name["note.md"].path.unlink()
    assert expected_title(by_name["note.md"]) is None  # gone: no guess, no error


def test_a_title_in_a_front_matter_longer_than_the_probe_is_expected(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    keywords = ", ".join(f'"KEY/{n}"' for n in range(TITLE_PROBE_BYTES // 8))
    text = f'---\ntitle: "Copper Kettle"\nkeywords: [{keywords}]\n---\n\nIt pours.\n'
    assert len(text.encode()) > TITLE_PROBE_BYTES
    (folder / "kettle-page.md").write_text(text, encoding="utf-8")
    plan = plan_folder([folder]).files
    assert expected_title(plan[0]) == parse_file(plan[0])[0].document.title == "Copper Kettle"
