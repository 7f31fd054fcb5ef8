"""Answers from memory: the template synthesizer, a prompt synthesizer over a fake model,
and the support each sentence reports."""

from __future__ import annotations

import asyncio

import pytest

from groundgraph import DocumentGraph, InputError
from groundgraph.memory import FactContext, PromptSynthesizer, TemplateSynthesizer
from groundgraph.memory.synthesis import causal_order

CHAIN = [
    "Power outages caused hospital disruptions.",
    "Heavy rainfall caused flooding.",
    "Flooding caused power outages.",
]


@pytest.fixture
def memory() -> DocumentGraph:
    graph = DocumentGraph(conflict_resolver=False)
    graph.add_texts(CHAIN, scopes=["city"])
    graph.add_text("The mayor opened a new library.", scopes=["city"])
    return graph


def test_the_template_answer_is_the_facts_causes_first(memory):
    result = memory.answer("Why were hospitals disrupted?", scopes=["city"])
    assert result["status"] == "answered" and result["synthesizer"] == "TemplateSynthesizer"
    assert result["answer"] == " ".join([CHAIN[1], CHAIN[2], CHAIN[0]])
    assert [s["text"] for s in result["sentences"]] == [CHAIN[1], CHAIN[2], CHAIN[0]]
    for sentence in result["sentences"]:
        assert sentence["supported"] and sentence["share"] == pytest.approx(1.0)
        (fact,) = sentence["factIds"]
        assert memory.fact(fact).text == sentence["text"]
    assert result["grounding"]["share"] == pytest.approx(1.0)
    assert {f["content"] for f in result["facts"]} >= set(CHAIN)


def test_no_facts_no_answer(memory):
    result = memory.answer("quantum chromodynamics", scopes=["city"])
    assert result["status"] == "no_facts" and result["answer"] == ""
    assert result["sentences"] == [] and result["grounding"] is None


def test_a_model_answer_reports_each_sentences_support(memory):
    prompts: list[str] = []

    def llm(prompt: str) -> str:
        prompts.append(prompt)
        return (
            "Heavy rainfall caused flooding, which caused power outages. "
            "Alien invaders sabotaged the Zurich observatory telescopes."
        )

    result = memory.answer(
        "Why were hospitals disrupted?", scopes=["city"], synthesizer=PromptSynthesizer(llm)
    )
    assert result["synthesizer"] == "PromptSynthesizer" and len(prompts) == 1
    assert "[1]" in prompts[0] and "Question: Why were hospitals disrupted?" in prompts[0]
    assert "-> " in prompts[0]  # the cause -> effect pairs are given to the model
    first, second = result["sentences"]
    assert first["supported"] and set(first["factIds"]) <= {f["factId"] for f in result["facts"]}
    assert not second["supported"] and second["share"] < 0.5


def test_graph_wide_synthesizer_and_bad_ones():
    graph = DocumentGraph(synthesizer=PromptSynthesizer(lambda prompt: "Flooding came first."))
    graph.add_text("Heavy rainfall caused flooding.")
    assert graph.answer("flooding")["answer"] == "Flooding came first."
    with pytest.raises(InputError):
        graph.answer("flooding", synthesizer=PromptSynthesizer(lambda prompt: 42))  # type: ignore[arg-type,return-value]
    with pytest.raises(InputError):
        PromptSynthesizer("not callable")  # type: ignore[arg-type]
    with pytest.raises(InputError):
        PromptSynthesizer(lambda p: p, max_facts=0)


def test_causal_order_puts_causes_before_effects_and_survives_cycles():
    facts = [
        FactContext("c", "C", causes=(("b", "c"),)),
        FactContext("a", "A", causes=(("a", "b"),)),
        FactContext("x", "X"),
        FactContext("loop1", "L1", causes=(("p", "q"),)),
        FactContext("loop2", "L2", causes=(("q", "p"),)),
    ]
    assert [f.fact_id for f in causal_order(facts)] == ["a", "c", "x", "loop2", "loop1"]
    assert TemplateSynthesizer()("q", [FactContext("f", "No full stop")]) == "No full stop."


def test_an_async_generate_is_awaited_from_sync_and_async_code():
    prompts: list[str] = []

    async def generate(prompt: str) -> str:
        prompts.append(prompt)
        await asyncio.sleep(0)
        return "  Heavy rainfall caused flooding.  "

    graph = DocumentGraph()
    graph.add_text("Heavy rainfall caused flooding.")
    synthesizer = PromptSynthesizer(generate)
    reply = graph.answer("flooding", synthesizer=synthesizer)
    assert reply["answer"] == "Heavy rainfall caused flooding."
    assert reply["sentences"][0]["supported"] and len(prompts) == 1

    async def from_async_code() -> tuple[str, str]:
        # a sync call made inside a running loop, and the awaited form
        inside = graph.answer("flooding", synthesizer=synthesizer)["answer"]
        facts = [FactContext("f1", "Heavy rainfall caused flooding.")]
        awaited = await synthesizer.agenerate("flooding", facts)
        return inside, awaited

    assert asyncio.run(from_async_code()) == ("Heavy rainfall caused flooding.",) * 2
    assert len(prompts) == 3 and "[1] Heavy rainfall caused flooding." in prompts[-1]


def test_an_async_generate_that_returns_no_text_is_refused():
    async def generate(prompt: str) -> object:
        return None

    graph = DocumentGraph()
    graph.add_text("Heavy rainfall caused flooding.")
    with pytest.raises(InputError, match="NoneType, not text"):
        graph.answer("flooding", synthesizer=PromptSynthesizer(generate))  # type: ignore[arg-type]
    with pytest.raises(InputError, match="NoneType, not text"):
        asyncio.run(PromptSynthesizer(generate).agenerate("q", []))  # type: ignore[arg-type]
