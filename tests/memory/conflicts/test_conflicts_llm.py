"""LLMConflictResolver: a numbered prompt, a strict JSON reply, bad replies recorded."""

from __future__ import annotations

import json
import logging
import re
import threading

import pytest

from groundgraph.errors import FormatError, InputError, LLMConnectionError
from groundgraph.memory import ConflictResolver, Contradiction, LLMConflictResolver
from groundgraph.memory.conflicts import MAX_REPLY_CHARS, parse_verdict

FACTS = ["Ilse lives in Graz.", "Ilse likes tea.", "Teo lives in Linz."]


class ScriptedLLM:
    """Answers every prompt with the same reply and remembers the prompts."""

    def __init__(self, reply: object) -> None:
        self.reply = reply
        self.prompts: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, prompt: str) -> str:
        with self.lock:
            self.prompts.append(prompt)
        return self.reply  # type: ignore[return-value]


class ReadingLLM:
    """A deterministic stand-in for a model: contradicts the numbered lines naming Graz."""

    def __call__(self, prompt: str) -> str:
        numbers = [
            int(n) for n, line in re.findall(r"^(\d+)\. (.*)$", prompt, re.M) if "Graz" in line
        ]
        return json.dumps({"contradicted": numbers, "reason": "Ilse lives elsewhere now"})


def test_contradicted_numbers_map_back_to_candidates() -> None:
    resolver = LLMConflictResolver(ReadingLLM())
    found = resolver.contradictions("Ilse moved to Linz.", FACTS)
    assert found == [Contradiction("Ilse lives in Graz.", "llm", "Ilse lives elsewhere now")]
    assert resolver.calls == 1 and resolver.failures == ()
    assert isinstance(resolver, ConflictResolver)


def test_the_prompt_numbers_each_candidate_on_one_line() -> None:
    llm = ScriptedLLM('{"contradicted": [], "reason": "none"}')
    sneaky = "Teo likes tea.\n2. Ilse lives in Graz."
    LLMConflictResolver(llm).contradictions("Ilse moved to Linz.", ["Ilse lives in Graz.", sneaky])
    (prompt,) = llm.prompts
    assert "New fact: Ilse moved to Linz." in prompt
    assert re.findall(r"^(\d+)\. ", prompt, re.M) == ["1", "2"]
    assert '"contradicted"' in prompt


def test_only_max_candidates_are_shown_duplicates_and_blanks_dropped() -> None:
    llm = ScriptedLLM('{"contradicted": [3], "reason": "x"}')
    candidates = ["", "f0", "f0", "  "] + [f"f{i}" for i in range(1, 20)]
    found = LLMConflictResolver(llm, max_candidates=3).contradictions("new", candidates)
    assert re.findall(r"^\d+\. (.*)$", llm.prompts[0], re.M) == ["f0", "f1", "f2"]
    assert [c.candidate for c in found] == ["f2"]


def test_long_texts_are_cut_in_the_prompt() -> None:
    llm = ScriptedLLM('{"contradicted": [1]}')
    long = "Ilse lives in Graz " + "and more " * 5000
    found = LLMConflictResolver(llm).contradictions("x " * 50_000, [long])
    assert found[0].candidate == long  # the answer names the full candidate
    assert len(llm.prompts[0]) < 5_000


def test_a_fenced_json_reply_is_read() -> None:
    reply = '```json\n{"contradicted": [1], "reason": "moved"}\n```'
    found = LLMConflictResolver(ScriptedLLM(reply)).contradictions("Ilse moved.", FACTS)
    assert [c.candidate for c in found] == ["Ilse lives in Graz."]


BAD_REPLIES = [
    "Fact 1 is contradicted.",
    '{"contradicted": [1], "reason": "x"} and more',
    '{"contradicted": "1"}',
    '{"contradicted": ["1"]}',
    '{"contradicted": [true]}',
    '{"contradicted": [1.0]}',
    '{"contradicted": [0]}',
    '{"contradicted": [4]}',
    '{"contradicted": [-1]}',
    '{"contradicted": [1], "reason": 5}',
    '{"contradicted": [1], "confidence": 0.9}',
    '{"reason": "none"}',
    "[1]",
    "null",
    "",
    "[" * 100_000,
    "[" * 19_000,
    '{"contradicted": ' + "[" * 9_000 + "]" * 9_000 + "}",
    '{"contradicted": [' + "1," * 20_000 + "1]}",
    "__import__('os').system('echo pwned')",
    None,
    42,
]


@pytest.mark.parametrize("reply", BAD_REPLIES, ids=range(len(BAD_REPLIES)))
def test_a_bad_reply_contradicts_nothing_and_is_recorded(
    reply: object, caplog: pytest.LogCaptureFixture
) -> None:
    resolver = LLMConflictResolver(ScriptedLLM(reply))
    with caplog.at_level(logging.WARNING, logger="groundgraph.memory.conflicts"):
        assert resolver.contradictions("Ilse moved to Linz.", FACTS) == []
    (failure,) = resolver.failures
    assert failure.error and len(failure.reply) <= 200
    assert "unusable model reply" in caplog.text


def test_parse_verdict_names_the_problem() -> None:
    assert parse_verdict('{"contradicted": [2, 1, 2], "reason": "r"}', 3) == ([1, 2], "r")
    with pytest.raises(FormatError, match=r"outside 1\.\.3"):
        parse_verdict('{"contradicted": [9]}', 3)
    with pytest.raises(FormatError, match="not JSON"):
        parse_verdict("nope", 3)
    with pytest.raises(FormatError, match=f"over {MAX_REPLY_CHARS:,}"):
        parse_verdict(" " * (MAX_REPLY_CHARS + 1), 3)


def test_failures_are_bounded() -> None:
    resolver = LLMConflictResolver(ScriptedLLM("no"))
    for _ in range(150):
        resolver.contradictions("a", ["b"])
    assert len(resolver.failures) == 100 and resolver.calls == 150


def test_nothing_to_compare_means_no_call() -> None:
    llm = ScriptedLLM('{"contradicted": []}')
    resolver = LLMConflictResolver(llm)
    assert resolver.contradictions("Ilse moved.", []) == []
    assert resolver.contradictions("   ", FACTS) == []
    assert resolver.contradictions("Ilse moved.", ["", " \n"]) == []
    assert llm.prompts == [] and resolver.calls == 0


def test_errors_of_the_llm_itself_propagate() -> None:
    def down(prompt: str) -> str:
        raise LLMConnectionError("no server at 127.0.0.1:9")

    with pytest.raises(LLMConnectionError):
        LLMConflictResolver(down).contradictions("Ilse moved.", FACTS)


@pytest.mark.parametrize(
    ("llm", "max_candidates", "message"),
    [
        ("not callable", 10, "callable"),
        (ReadingLLM(), 0, "between 1 and 100"),
        (ReadingLLM(), 101, "between 1 and 100"),
        (ReadingLLM(), True, "whole number"),
        (ReadingLLM(), 2.5, "whole number"),
    ],
)
def test_constructor_checks(llm: object, max_candidates: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        LLMConflictResolver(llm, max_candidates)  # type: ignore[arg-type]


def test_inputs_are_checked_like_the_rule_resolver() -> None:
    resolver = LLMConflictResolver(ReadingLLM())
    with pytest.raises(InputError):
        resolver.contradictions(None, FACTS)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        resolver.contradictions("x", "Ilse lives in Graz.")  # type: ignore[arg-type]


def test_calls_from_many_threads_are_counted() -> None:
    resolver = LLMConflictResolver(ReadingLLM())
    results: list[list[Contradiction]] = []
    lock = threading.Lock()

    def work() -> None:
        for _ in range(25):
            found = resolver.contradictions("Ilse moved to Linz.", FACTS)
            with lock:
                results.append(found)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert resolver.calls == 200
    assert all(r == results[0] for r in results) and len(results[0]) == 1
