"""Prompts the reasoner writes, and strict reading of what the model replies."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from groundgraph.reason.thought.prompts import (
    MAX_ANSWER_CHARS,
    MAX_EVIDENCE_CHARS,
    NO_EVIDENCE,
    Candidate,
    EvidenceText,
    first_json_object,
    generate_prompt,
    header,
    parse_answer,
    parse_candidates,
    rewrite_prompt,
)


def test_header_lists_evidence_as_id_title_content():
    text = header("Why?", [EvidenceText("d#1", "Setup", "Run it."), EvidenceText("d#2", "B", "x")])
    assert text.startswith("Question: Why?\n\nEvidence:\n")
    assert "[d#1] Setup\nRun it." in text and "[d#2] B\nx" in text
    assert text.index("[d#1]") < text.index("[d#2]")


def test_header_without_evidence_says_so():
    assert header("Why?", []).endswith(f"Evidence:\n{NO_EVIDENCE}")


def test_evidence_content_is_cut_at_the_cap():
    long = "word " * 1000
    text = header("Q", [EvidenceText("d#1", "T", long)])
    assert long[:MAX_EVIDENCE_CHARS] in text
    assert long[: MAX_EVIDENCE_CHARS + 5] not in text


def test_generate_prompt_asks_for_k_and_json():
    prompt = generate_prompt("Q", [], 3)
    assert "3 different candidate answers" in prompt and '{"thoughts"' in prompt
    assert "one answer" in generate_prompt("Q", [], 1)
    assert "An earlier answer" in generate_prompt("Q", [], 2, previous="Old text.")
    assert "An earlier answer" not in generate_prompt("Q", [], 2)


def test_rewrite_prompt_lists_only_the_unsupported_sentences():
    prompt = rewrite_prompt("Q", [], "Good one. Bad one.", ["Bad one."])
    assert "- Bad one." in prompt and "- Good one." not in prompt
    assert "Answer:\nGood one. Bad one." in prompt


def test_thoughts_reply_is_read_in_order_and_cut_at_k():
    reply = json.dumps(
        {"thoughts": [{"answer": "A.", "missing": "x"}, {"answer": "B."}, {"answer": "C."}]}
    )
    assert parse_candidates(reply, 2) == [Candidate("A.", "x"), Candidate("B.")]


def test_json_after_prose_or_in_a_code_fence_is_found():
    reply = 'Sure! Here you go:\n```json\n{"thoughts": [{"answer": "A."}]}\n```'
    assert parse_candidates(reply, 3) == [Candidate("A.")]
    assert parse_answer('Text {not json} then {"answer": "B."}') == Candidate("B.")


def test_a_lone_answer_object_is_one_candidate():
    assert parse_candidates('{"answer": "Only.", "missing": ""}', 3) == [Candidate("Only.")]


def test_wrong_shapes_fall_back_to_the_whole_reply():
    for reply in (
        '{"thoughts": "oops"}',
        '{"thoughts": [1, 2, 3]}',
        '{"thoughts": [{"answer": 7}]}',
        '{"result": "x"}',
        "[1, 2, 3]",
        "just words.",
        '{"thoughts": [{"answer": "unterminated',
    ):
        assert parse_candidates(reply, 3) == [Candidate(reply.strip())], reply
    assert parse_answer('{"answer": ["a"]}') == Candidate('{"answer": ["a"]}')


def test_bad_items_are_skipped_and_empty_answers_dropped():
    reply = json.dumps({"thoughts": [{"answer": 3}, {"answer": "Kept.", "missing": 5}, {}]})
    assert parse_candidates(reply, 5) == [Candidate("Kept.", "")]
    assert parse_candidates(json.dumps({"thoughts": [{"answer": "  "}]}), 3) == []
    assert parse_answer('{"answer": ""}') is None
    assert parse_candidates("", 3) == [] and parse_answer("   ") is None


def test_deep_nesting_and_huge_replies_do_not_break_the_reader():
    deep = "{" * 200_000
    assert first_json_object(deep) is None
    assert parse_candidates(deep, 2) == [Candidate(deep[:MAX_ANSWER_CHARS])]
    nested = '{"a": ' * 5000 + "1" + "}" * 5000
    assert first_json_object(nested) is None  # too deep for json: treated as no object
    huge = json.dumps({"answer": "x" * 500_000})
    assert first_json_object(huge) is None  # past the part of a reply that is read
    assert len(parse_answer(huge).answer) == MAX_ANSWER_CHARS


def test_replies_are_never_evaluated(tmp_path: Path):
    marker = tmp_path / "ran"
    code = f"__import__('pathlib').Path({str(marker)!r}).write_text('x')"
    for reply in (code, '{"answer": ' + code + "}", "{" + code + "}"):
        parse_candidates(reply, 3)
        parse_answer(reply)
    assert not marker.exists()


@given(st.text(max_size=300), st.integers(1, 5))
def test_any_reply_gives_at_most_k_non_empty_candidates(reply: str, k: int):
    found = parse_candidates(reply, k)
    assert len(found) <= k
    assert all(c.answer and c.answer == c.answer.strip() for c in found)
    single = parse_answer(reply)
    assert single is None or single.answer


@given(
    st.lists(
        st.tuples(st.text(min_size=1, max_size=40).filter(str.strip), st.text(max_size=20)),
        min_size=1,
        max_size=5,
    )
)
def test_well_formed_replies_round_trip(items: list[tuple[str, str]]):
    reply = json.dumps({"thoughts": [{"answer": a, "missing": m} for a, m in items]})
    assert parse_candidates(reply, 5) == [Candidate(a.strip(), m.strip()) for a, m in items]
