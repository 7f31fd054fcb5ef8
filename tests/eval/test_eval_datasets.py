"""Dataset loaders: MuSiQue, HotpotQA and 2Wiki layouts, title corpora and BEIR folders."""

from __future__ import annotations

import json

import pytest

from groundgraph import DocumentGraph
from groundgraph.errors import FormatError, InputError
from groundgraph.eval.beir import load_beir
from groundgraph.eval.datasets import (
    Passage,
    add_passages,
    load_multihop,
    load_musique,
    load_title_corpus,
    passages_to_jsonl,
)
from groundgraph.ingest import parse_jsonl

MUSIQUE = [
    {
        "id": "2hop__1_2",
        "question": "Where was the founder of the Corner Bakery born?",
        "paragraphs": [
            {
                "idx": 0,
                "title": "Corner Bakery",
                "paragraph_text": "The Corner Bakery was founded by Ada Smith.",
                "is_supporting": True,
            },
            {
                "idx": 1,
                "title": "Ada Smith",
                "paragraph_text": "Ada Smith was born in Leeds.",
                "is_supporting": True,
            },
            {
                "idx": 2,
                "title": "Leeds",
                "paragraph_text": "Leeds is a city.",
                "is_supporting": False,
            },
        ],
    },
    {
        "id": "2hop__3_4",
        "question": "What river runs through the birthplace of Ada Smith?",
        "paragraphs": [
            {"title": "Ada Smith", "paragraph_text": "Ada Smith was born in Leeds."},
            {
                "title": "Leeds",
                "paragraph_text": "The River Aire runs through Leeds.",
                "is_supporting": True,
            },
            {
                "title": "Ada Smith",
                "paragraph_text": "Ada Smith was born in Leeds.",
                "is_supporting": True,
            },
        ],
    },
    {"id": "2hop__5_6", "question": "Unanswerable?", "paragraphs": [{"title": "X", "text": "x"}]},
]


def write(path, data):
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_musique_corpus_is_the_union_of_paragraphs(tmp_path):
    data = load_musique(write(tmp_path / "musique.json", MUSIQUE), name="m")
    # 4 distinct (title, text) pairs among 7 paragraphs, plus "X" of the third record
    assert [(p.doc_id, p.title) for p in data.passages] == [
        ("corner-bakery", "Corner Bakery"),
        ("ada-smith", "Ada Smith"),
        ("leeds", "Leeds"),
        ("leeds-2", "Leeds"),  # same title, other text: another passage
        ("x", "X"),
    ]
    assert [(q.id, q.relevant) for q in data.questions] == [
        ("2hop__1_2", ("corner-bakery", "ada-smith")),
        ("2hop__3_4", ("leeds-2", "ada-smith")),
    ]  # the question with no supporting paragraph measures nothing and is left out
    assert data.summary() == "m: 2 questions, 5 passages, 4 relevant pairs"


def test_musique_reads_json_lines(tmp_path):
    path = tmp_path / "musique.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in MUSIQUE) + "\n", encoding="utf-8")
    assert len(load_musique(path).questions) == 2


def test_musique_bad_records_name_their_place(tmp_path):
    bad = [{"id": "q", "question": "x?", "paragraphs": [{"title": "T"}]}]
    with pytest.raises(FormatError, match=r"record 0 paragraph 0: missing the string field"):
        load_musique(write(tmp_path / "bad.json", bad))
    with pytest.raises(FormatError, match="expected a list of JSON objects"):
        load_musique(write(tmp_path / "string.json", "x"))
    (tmp_path / "broken.json").write_text("[{", encoding="utf-8")
    with pytest.raises(FormatError, match=r"broken\.json: invalid JSON"):
        load_musique(tmp_path / "broken.json")
    (tmp_path / "broken.jsonl").write_text('{"id": 1}\n{oops\n', encoding="utf-8")
    with pytest.raises(FormatError, match="line 2: invalid JSON"):
        load_musique(tmp_path / "broken.jsonl")


def test_musique_questions_over_their_own_corpus(tmp_path):
    corpus = [
        {"title": "Corner Bakery", "text": "The Corner Bakery was founded by Ada Smith."},
        {"title": "Ada Smith", "text": "Ada Smith was born in Leeds."},
        {"title": "Leeds", "text": "The River Aire runs through Leeds."},
        {"title": "Leeds", "text": "Leeds is a city."},
    ]
    data = load_multihop(
        write(tmp_path / "qa.json", MUSIQUE[:2]), write(tmp_path / "corpus.json", corpus)
    )
    assert len(data.passages) == 4
    assert [q.relevant for q in data.questions] == [
        ("corner-bakery", "ada-smith"),
        ("leeds", "ada-smith"),
    ]


HOTPOT_CORPUS = {
    "Corner Bakery": ["The Corner Bakery was founded by Ada Smith.", " It sells rye bread."],
    "Ada Smith": ["Ada Smith was born in Leeds."],
    "Rye": ["Rye is a grass."],
}
HOTPOT_QA = [
    {
        "_id": "5a1",
        "question": "Where was the founder of the Corner Bakery born?",
        "supporting_facts": [["Corner Bakery", 0], ["Ada Smith", 0], ["Corner Bakery", 1]],
        "context": [
            ["Corner Bakery", HOTPOT_CORPUS["Corner Bakery"]],
            ["Rye", HOTPOT_CORPUS["Rye"]],
            ["Ada Smith", HOTPOT_CORPUS["Ada Smith"]],
        ],
    }
]


def test_hotpotqa_gold_titles_from_supporting_facts(tmp_path):
    data = load_multihop(
        write(tmp_path / "qa.json", HOTPOT_QA), write(tmp_path / "corpus.json", HOTPOT_CORPUS)
    )
    assert data.passages[0] == Passage(
        "corner-bakery",
        "Corner Bakery",
        "The Corner Bakery was founded by Ada Smith. It sells rye bread.",  # joined with ""
    )
    # gold in the order of the context, as HippoRAG lists them
    assert data.questions[0].relevant == ("corner-bakery", "ada-smith")


def test_2wiki_layout_joins_sentences_with_a_space(tmp_path):
    corpus = [{"title": "Ada Smith", "text": "Ada Smith was born in Leeds. She baked."}]
    qa = [
        {
            "_id": "w1",
            "question": "Where was Ada Smith born?",
            "supporting_facts": [["Ada Smith", 0]],
            "context": [["Ada Smith", ["Ada Smith was born in Leeds.", "She baked."]]],
        }
    ]
    data = load_multihop(
        write(tmp_path / "qa.json", qa), write(tmp_path / "corpus.json", corpus), joiner=" "
    )
    assert data.questions[0].relevant == ("ada-smith",)


def test_gold_with_other_text_matches_a_unique_title(tmp_path):
    corpus = {"Ada Smith": ["Ada Smith (born 1900) was born in Leeds."]}
    data = load_multihop(
        write(tmp_path / "qa.json", HOTPOT_QA[:1]),
        write(tmp_path / "corpus.json", {**HOTPOT_CORPUS, **corpus}),
    )
    assert data.questions[0].relevant == ("corner-bakery", "ada-smith")


def test_gold_missing_from_the_corpus_is_an_error(tmp_path):
    corpus = {"Corner Bakery": HOTPOT_CORPUS["Corner Bakery"]}
    with pytest.raises(FormatError, match="gold passage 'Ada Smith' is not in"):
        load_multihop(write(tmp_path / "qa.json", HOTPOT_QA), write(tmp_path / "c.json", corpus))


def test_records_without_gold_layout_are_an_error(tmp_path):
    qa = [{"_id": "x", "question": "x?"}]
    with pytest.raises(FormatError, match='needs "paragraphs", or "supporting_facts"'):
        load_multihop(write(tmp_path / "qa.json", qa), write(tmp_path / "c.json", HOTPOT_CORPUS))


def test_title_corpus_ids_are_unique_and_usable(tmp_path):
    corpus = [
        {"title": "Leeds", "text": "one"},
        {"title": "Leeds", "text": "two"},
        {"title": "Leeds 2", "text": "three"},  # its slug is taken: it gets leeds-2-2
        {"title": "entity: Leeds#1", "text": "four"},
        {"title": "", "text": "five"},
        {"title": "Leeds", "text": "one"},  # the same passage again: kept once
    ]
    passages = load_title_corpus(write(tmp_path / "corpus.json", corpus))
    ids = [p.doc_id for p in passages]
    assert ids == ["leeds", "leeds-2", "leeds-2-2", "entity-leeds-1", "passage"]
    assert all("#" not in i and not i.startswith("entity:") for i in ids)


def test_passages_go_into_a_graph_and_out_as_jsonl():
    passages = [
        Passage("bakery", "Corner Bakery", "Rye bread is baked every morning."),
        Passage("untitled", "", "Flour arrives on Mondays."),
    ]
    graph = DocumentGraph()
    assert add_passages(graph, passages) == 2
    assert [h.doc_id for h in graph.search("rye bread", max_hops=0)] == ["bakery"]
    assert [d["title"] for d in graph.documents()] == ["Corner Bakery", "untitled"]
    parsed = parse_jsonl(passages_to_jsonl(passages))
    assert [p.document.doc_id for p in parsed] == ["bakery", "untitled"]


def beir_folder(tmp_path, corpus_ids=("d1", "d2", "d3"), qrels="q1\td1\t1\nq1\td2\t0\nq2\td3\t2\n"):
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    lines = [
        {"_id": i, "title": f"Title {i}", "text": f"Text of {i}.", "metadata": {}}
        for i in corpus_ids
    ]
    (folder / "corpus.jsonl").write_text("\n".join(json.dumps(r) for r in lines), "utf-8")
    queries = [
        {"_id": "q2", "text": "second query", "metadata": {}},
        {"_id": "q1", "text": "first query"},
        {"_id": "q3", "text": "query without judgements"},
    ]
    (folder / "queries.jsonl").write_text("\n".join(json.dumps(r) for r in queries), "utf-8")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + qrels, "utf-8")
    return folder


def test_beir_folder(tmp_path):
    data = load_beir(beir_folder(tmp_path))
    assert data.name == "beir"
    assert [p.doc_id for p in data.passages] == ["d1", "d2", "d3"]
    assert data.passages[0] == Passage("d1", "Title d1", "Text of d1.")
    # queries in the order of queries.jsonl; a grade of 0 is not relevant; no qrel, no question
    assert [(q.id, q.question, q.relevant) for q in data.questions] == [
        ("q2", "second query", ("d3",)),
        ("q1", "first query", ("d1",)),
    ]


@pytest.mark.parametrize(
    ("corpus_ids", "qrels", "message"),
    [
        (("d1", "d#2"), "q1\td1\t1\n", "document id 'd#2' cannot name a document"),
        (("d1", "entity:x"), "q1\td1\t1\n", "cannot name a document"),
        (("d1", "d1"), "q1\td1\t1\n", "appears twice"),
        (("d1",), "q9\td1\t1\n", r"query ids \['q9'\] are not in queries.jsonl"),
        (("d1",), "q1\td1\tyes\n", "score 'yes' is not an integer"),
        (("d1",), "q1\td1\n", "line 2: expected query-id, corpus-id, score"),
    ],
)
def test_beir_errors(tmp_path, corpus_ids, qrels, message):
    with pytest.raises(FormatError, match=message):
        load_beir(beir_folder(tmp_path, corpus_ids, qrels))


def test_beir_folder_must_hold_the_split(tmp_path):
    with pytest.raises(InputError, match=r"dev.tsv is missing"):
        load_beir(beir_folder(tmp_path), split="dev")


def test_text_that_is_not_utf8_is_a_format_error(tmp_path):
    path = tmp_path / "corpus.json"
    path.write_bytes(b'[{"title": "caf\xe9", "text": "x"}]')
    with pytest.raises(FormatError, match="not UTF-8"):
        load_title_corpus(path)
    folder = beir_folder(tmp_path)
    (folder / "qrels" / "test.tsv").write_bytes(b"q1\td\xff1\t1\n")
    with pytest.raises(FormatError, match="not UTF-8"):
        load_beir(folder)
