"""CLUTRR loading, solving and evaluation, on small made-up rows in both CSV layouts."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from clutrr_rows import TEST, VALIDATION, emnlp_csv, hf_csv
from groundgraph.errors import FormatError, InputError
from groundgraph.eval.clutrr import (
    evaluate_clutrr,
    evaluate_rows,
    learn_clutrr_table,
    solve_clutrr,
    story_chains,
)
from groundgraph.eval.clutrr_data import load_clutrr, parse_clutrr_row, read_clutrr_csv


@pytest.fixture
def data(tmp_path: Path) -> Path:
    (tmp_path / "hf").mkdir()
    (tmp_path / "hf" / "validation.csv").write_text(hf_csv(VALIDATION, bom=True), "utf-8")
    (tmp_path / "hf" / "test.csv").write_text(hf_csv(TEST), "utf-8")
    emnlp = tmp_path / "emnlp"
    emnlp.mkdir()
    for hops in (2, 3, 4, 10):
        rows = [row for row in TEST if row["task_name"] == f"task_1.{hops}"]
        (emnlp / f"1.{hops}_test.csv").write_text(emnlp_csv(rows), "utf-8")
    with zipfile.ZipFile(tmp_path / "with_train.zip", "w") as archive:
        archive.writestr("1.2,1.3_train.csv", emnlp_csv(VALIDATION))
        archive.writestr("1.2_test.csv", emnlp_csv(TEST[:1]))
    return tmp_path


def test_both_layouts_read_the_same(data: Path) -> None:
    hf = load_clutrr(data / "hf" / "test.csv")
    emnlp = load_clutrr(data / "emnlp")
    assert sorted(r.row_id for r in hf) == sorted(r.row_id for r in emnlp)
    row = next(r for r in hf if r.row_id == "t1")
    assert row.target == "aunt" and row.hops == 3 and row.clean
    assert row.names == ("Kim", "Lou", "Max", "Ned")
    assert row.genders == ("female", "male", "male", "female")
    assert row.story_edges == ((0, 1), (1, 2), (2, 3)) and row.query_edge == (0, 3)
    assert not next(r for r in hf if r.row_id == "t3").clean


def test_a_folder_is_read_in_hop_order(data: Path) -> None:
    assert [r.hops for r in load_clutrr(data / "emnlp")] == [2, 2, 3, 4]


def test_a_zip_is_read_by_pattern(data: Path) -> None:
    train = load_clutrr(data / "with_train.zip", "*train.csv")
    assert [r.row_id for r in train] == ["v1", "v2", "v3"]
    assert [r.row_id for r in load_clutrr(data / "with_train.zip")] == ["t1"]


def test_missing_paths_and_empty_matches(data: Path) -> None:
    with pytest.raises(InputError, match="not a CLUTRR"):
        load_clutrr(data / "nowhere.csv")
    with pytest.raises(InputError, match="no rows"):
        load_clutrr(data / "emnlp", "*train.csv")


GOOD = {
    "id": "x",
    "story_edges": "[(0, 1)]",
    "edge_types": "['father']",
    "query_edge": "(0, 1)",
    "genders": "A:male,B:male",
    "target": "father",
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"story_edges": "__import__('os').system('false')"}, "not a Python literal"),
        ({"edge_types": "[print('hi')]"}, "not a Python literal"),
        ({"story_edges": "[(0, 1, 2)]"}, r"\(int, int\) pairs"),
        ({"query_edge": "(0, -1)"}, r"\(int, int\) pairs"),
        ({"edge_types": "['father', 'son']"}, "1 story_edges but 2 edge_types"),
        ({"edge_types": "[1]"}, "list of strings"),
        ({"genders": "A-male,B:male"}, "Name:gender"),
        ({"genders": "A:male"}, "node 1 has no entry"),
        ({"story_edges": "[" * 30_000}, "over 20,000 characters"),
    ],
)
def test_bad_rows_are_format_errors(change: dict[str, str], message: str) -> None:
    with pytest.raises(FormatError, match=message):
        parse_clutrr_row({**GOOD, **change}, "test row")


def test_a_row_needs_the_columns() -> None:
    with pytest.raises(FormatError, match="missing CLUTRR column"):
        parse_clutrr_row({"id": "x", "target": "father"})
    with pytest.raises(FormatError, match="row 0"):
        read_clutrr_csv(io.StringIO("id,target\nx,father\n"))


def test_learning_and_solving_with_a_proof(data: Path) -> None:
    table, conflicts, passes = learn_clutrr_table(load_clutrr(data / "hf" / "validation.csv"))
    assert table == {
        ("father", "brother", "male"): "uncle",
        ("son", "wife", "female"): "daughter-in-law",
        ("uncle", "wife", "female"): "aunt",
    }
    assert conflicts == [] and passes == 2
    row = next(r for r in load_clutrr(data / "hf" / "test.csv") if r.row_id == "t1")
    answer = solve_clutrr(row, table)
    assert answer.relation == "aunt"
    assert answer.facts == (
        ("Kim", "father", "Lou"),
        ("Lou", "brother", "Max"),
        ("Max", "wife", "Ned"),
    )
    assert answer.derivations == (
        (("Kim", "father", "Lou"), ("Lou", "brother", "Max"), ("Kim", "uncle", "Max")),
        (("Kim", "uncle", "Max"), ("Max", "wife", "Ned"), ("Kim", "aunt", "Ned")),
    )


def test_a_story_with_back_edges_falls_back_to_the_shortest_path(data: Path) -> None:
    row = next(r for r in load_clutrr(data / "hf" / "test.csv") if r.row_id == "t3")
    chains = story_chains(row)
    # the story's own walk comes first, then the shortest path that skips the back edge
    assert [path for path, _ in chains] == [[0, 1, 0, 2, 3], [0, 2, 3]]
    assert chains[1][1] == [("father", "male"), ("brother", "male")]
    # (husband, wife) is not in this table, so the walk is stuck and the path answers
    answer = solve_clutrr(row, {("father", "brother", "male"): "uncle"})
    assert answer.relation == "uncle"
    assert answer.facts == (("Rae", "father", "Tom"), ("Tom", "brother", "Uli"))


def test_the_story_walk_comes_before_a_shortcut() -> None:
    row = parse_clutrr_row(
        {
            **GOOD,
            "story_edges": "[(0, 1), (1, 2), (2, 1), (1, 3)]",
            "edge_types": "['wife', 'son', 'mother', 'father']",
            "query_edge": "(0, 3)",
            "genders": "A:male,B:female,C:male,D:male",
            "target": "father-in-law",
        }
    )
    chains = story_chains(row)
    assert [path for path, _ in chains] == [[0, 1, 2, 1, 3], [0, 1, 3]]
    table = {
        ("mother", "father", "male"): "m-f",
        ("son", "m-f", "male"): "s-m-f",
        ("wife", "s-m-f", "male"): "father-in-law",
        ("wife", "father", "male"): "shortcut",
    }
    # both chains fold; the story's walk wins over the shortcut through the back edge
    answer = solve_clutrr(row, table)
    assert answer.relation == "father-in-law"
    assert [fact[1] for fact in answer.facts] == ["wife", "son", "mother", "father"]
    # with only the shortcut's rule the walk is stuck and the shortest path answers
    short = solve_clutrr(row, {("wife", "father", "male"): "shortcut"})
    assert short.relation == "shortcut" and len(short.facts) == 2
    stuck = solve_clutrr(row, {})
    assert stuck.relation is None and len(stuck.facts) == 4  # the walk's facts


def test_evaluate_reports_per_hop(data: Path) -> None:
    table, _, _ = learn_clutrr_table(load_clutrr(data / "hf" / "validation.csv"))
    clean = evaluate_clutrr(data / "hf" / "test.csv", table)
    assert [(h.hops, h.n, h.covered, h.correct) for h in clean.per_hop] == [
        (2, 2, 1, 1),
        (3, 1, 1, 1),
    ]
    assert (clean.total.n, clean.total.covered, clean.total.correct) == (3, 2, 2)
    assert [(m.row_id, m.expected, m.got) for m in clean.misses] == [("t4", "brother-in-law", None)]
    every = evaluate_clutrr(data / "hf" / "test.csv", table, clean_only=False)
    assert every.total.n == 4 and every.total.correct == 3
    text = clean.to_table()
    assert "| hops | n | covered | correct |" in text
    assert "| all | 3 | 2 | 2 | 66.67% | 100.00% | 66.67% |" in text
    data_dict = clean.to_dict()
    assert data_dict["total"]["coverage"] == pytest.approx(2 / 3)
    assert data_dict["misses"] == [
        {"id": "t4", "hops": 2, "expected": "brother-in-law", "got": None}
    ]


def test_the_built_in_table_is_the_default(data: Path) -> None:
    report = evaluate_clutrr(data / "emnlp", clean_only=False)
    assert report.total.correct == 4  # the built-in table knows all four compositions
    assert report.table_size > 100
    assert evaluate_rows([], name="empty").total.n == 0
