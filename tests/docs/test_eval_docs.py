"""The examples of docs/evaluation.md run and print what the page says they print."""

from __future__ import annotations

import re

from page_examples import DOCS, run_examples

PAGE = DOCS / "evaluation.md"


def test_every_python_example_runs_and_prints_what_the_page_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_examples(PAGE, 4, every_block_prints=True)


def test_the_question_file_example_is_a_valid_question_file():
    from groundgraph.eval.questions import parse_questions

    text = PAGE.read_text(encoding="utf-8")
    block = re.search(r"```text\n(.*?)```", text, re.DOTALL)
    assert block is not None
    assert [q.id for q in parse_questions(block.group(1))] == ["q1", "q2"]
