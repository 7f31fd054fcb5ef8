"""GroundedGraphOfThought as a whole: budget, tokens, ranking, results and hostile input."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph, InputError, InputTooLargeError
from groundgraph.errors import LLMConnectionError, LLMResponseError
from groundgraph.llm import Completion, LLMBudget, budgeted
from groundgraph.reason.thought import GroundedGraphOfThought, ReasoningResult, ops
from thought_fakes import Scripted, answer, make_graph, thoughts

QUESTION = "My config fails. What should I check?"
EDIT = "Edit config.json to customize settings."
SEE = "If config fails, see the Configuration section."
BAKE = "Bake the loaves at 230 degrees for forty minutes."
MOON = "The moon is made of cheese."


@pytest.fixture(scope="module")
def graph() -> DocumentGraph:
    return make_graph()


def reason(graph, llm, plan=None, question=QUESTION, **options) -> ReasoningResult:
    return GroundedGraphOfThought(graph, llm, **options).reason(question, plan)


# ----------------------------------------------------------------------------- budget
def test_a_plan_over_budget_stops_and_returns_the_best_so_far(graph):
    llm = Scripted(thoughts(EDIT, SEE))  # the merge would be a second call
    result = reason(graph, llm, max_llm_calls=1)
    assert result.budget_exhausted and result.llm_calls == 1 and len(llm.prompts) == 1
    candidates = [t for t in result.thoughts if t.operation == "generate"]
    assert result.answer == max(candidates, key=lambda t: t.net).content
    assert result.unsupported == () and result.citations


def test_a_plan_within_budget_does_not_report_exhaustion(graph):
    result = reason(graph, Scripted(thoughts(EDIT)), max_llm_calls=1)
    assert not result.budget_exhausted and result.llm_calls == 1


def test_no_budget_at_all_gives_an_empty_answer(graph):
    result = reason(graph, Scripted(), max_llm_calls=0)
    assert result.budget_exhausted and result.llm_calls == 0
    assert result.answer == "" and result.best is None and result.claims == ()
    assert [t.operation for t in result.thoughts] == ["retrieve"]


def test_budget_running_out_during_refine_keeps_the_last_improvement(graph):
    first = f"{EDIT} {MOON} Pluto is warm."
    llm = Scripted(thoughts(first), answer(f"{EDIT} {MOON}"))
    plan = [ops.retrieve(), ops.generate(1), ops.refine(3)]
    result = reason(graph, llm, plan, max_llm_calls=2)
    assert result.budget_exhausted and result.llm_calls == 2
    assert result.answer == f"{EDIT} {MOON}" and result.unsupported == (MOON,)


def test_the_clients_own_budget_counts_as_exhaustion(graph):
    llm = budgeted(Scripted(thoughts(EDIT, SEE), answer("never sent")), LLMBudget(max_calls=1))
    result = reason(graph, llm)
    assert result.budget_exhausted and result.llm_calls == 1
    assert result.answer in (EDIT, SEE)


# ----------------------------------------------------------------------------- tokens
def test_tokens_are_estimated_for_a_plain_callable(graph):
    replies = [thoughts(EDIT, SEE), answer(f"{SEE} {EDIT}")]
    llm = Scripted(*replies)
    result = reason(graph, llm)
    assert result.tokens.estimated
    assert result.tokens.prompt_tokens == sum(math.ceil(len(p) / 4) for p in llm.prompts)
    assert result.tokens.completion_tokens == sum(math.ceil(len(r) / 4) for r in replies)
    assert result.tokens.total_tokens == result.tokens.prompt_tokens + (
        result.tokens.completion_tokens
    )


class Reporting:
    """An LLM that says what each call cost, as OpenAICompatibleLLM does."""

    def __init__(self, *replies: str) -> None:
        self.script = Scripted(*replies)

    def complete(self, prompt: str) -> Completion:
        return Completion(self.script(prompt), prompt_tokens=100, completion_tokens=7)

    def __call__(self, prompt: str) -> str:
        raise AssertionError("complete() should be used")


def test_tokens_come_from_a_client_that_reports_them(graph):
    result = reason(graph, Reporting(thoughts(EDIT, SEE), answer(f"{SEE} {EDIT}")))
    assert result.llm_calls == 2 and not result.tokens.estimated
    assert (result.tokens.prompt_tokens, result.tokens.completion_tokens) == (200, 14)


# ----------------------------------------------------------------------------- ranking
def test_off_topic_answers_lose_to_relevant_ones(graph):
    llm = Scripted(thoughts(BAKE, EDIT))
    plan = [ops.retrieve(), ops.retrieve("oven loaves"), ops.generate(2), ops.keep_best(1)]
    result = reason(graph, llm, plan)
    off, on = (t for t in result.thoughts if t.operation == "generate")
    assert off.score == on.score == 1.0
    assert off.grounded > on.grounded  # by support alone the off-topic one would win
    assert off.claims[0].relevance < on.claims[0].relevance
    assert result.answer == EDIT


def test_a_claim_vetoed_by_verify_is_not_supported_nor_cited(graph):
    def verify(claim: str, evidence: str) -> float:
        return 0.01 if "customize" in claim else 0.99

    llm = Scripted(thoughts(EDIT))
    result = reason(graph, llm, [ops.retrieve(), ops.generate(1)], verify=verify)
    (claim,) = result.claims
    assert claim.vetoed and not claim.supported and claim.nli == pytest.approx(0.01)
    assert result.citations == () and result.unsupported == (EDIT,)
    plain = reason(graph, Scripted(thoughts(EDIT)), [ops.retrieve(), ops.generate(1)])
    assert plain.claims[0].supported  # the words alone pass: verify is what caught it
    # a negated copy of the section's sentence is refused by the negation rule, no verify
    negated = "Do not edit config.json to customize settings."
    refused = reason(graph, Scripted(thoughts(negated)), [ops.retrieve(), ops.generate(1)])
    assert not refused.claims[0].supported and not refused.claims[0].vetoed


def test_negated_and_empty_answers_lose(graph):
    negated = "Do not edit config.json to customize settings."

    def verify(claim: str, evidence: str) -> float:
        return 0.0 if " not " in claim else 1.0

    llm = Scripted(thoughts(negated, EDIT, "."))
    result = reason(graph, llm, [ops.retrieve(), ops.generate(3), ops.keep_best(1)], verify=verify)
    assert result.answer == EDIT


# ----------------------------------------------------------------------------- results
def test_citations_back_supported_claims_only(graph):
    mixed = f"{EDIT} Push the moon to Mars."
    result = reason(graph, Scripted(thoughts(mixed)), [ops.retrieve(), ops.generate(1)])
    supported = {n for c in result.claims if c.supported for n in c.nodes}
    assert {c.node_id for c in result.citations} == supported == {"user-guide#2"}
    assert result.unsupported == ("Push the moon to Mars.",)
    cited = result.citations[0]
    assert (cited.doc_id, cited.title) == ("user-guide", "Configuration")


def test_result_json_uses_camel_case_and_reads_by_name(graph):
    result = reason(graph, Scripted(thoughts(EDIT, SEE), answer(f"{SEE} {EDIT}")))
    data = json.loads(json.dumps(result.to_dict()))
    assert {"answer", "claims", "unsupported", "citations", "thoughts", "llmCalls"} <= set(data)
    assert data["budgetExhausted"] is False and data["tokens"]["estimated"] is True
    assert data["citations"][0].keys() == {"nodeId", "docId", "title"}
    assert {"id", "operation", "parents", "evidence", "score", "net"} <= set(data["thoughts"][1])
    assert result["llm_calls"] == result.llm_calls == 2
    assert result["answer"] == result.answer
    # Issue 11: every result reads as a Mapping of its JSON form too (seed users write
    # ``"answer" in result``), so the camelCase key reads as well as the field name.
    assert result["llmCalls"] == 2 and "answer" in result and result.get("best") == result.best
    with pytest.raises(KeyError):
        result["noSuchKey"]


def test_results_read_as_the_dict_the_seed_readme_indexes(graph):
    # Grounded Graph of Thought's README: result["answer"], result["claims"], ...,
    # result["llm_calls"], result["budget_exhausted"]; and "answer" in result, .get, dict().
    result = reason(graph, Scripted(thoughts(EDIT, SEE), answer(f"{SEE} {EDIT}")))
    for key in ("answer", "claims", "unsupported", "citations", "thoughts", "llm_calls"):
        assert key in result and result.get(key) is not None
    assert result["budget_exhausted"] is result.budget_exhausted is False
    assert result.get("claims") == [c.to_dict() for c in result.claims]
    claim = result["claims"][0]
    assert {"text", "support", "nodes", "mass", "supported"} <= set(claim)
    assert dict(result) == result.to_dict() and dict(result)["llmCalls"] == result.llm_calls
    assert result.get("no such key", 7) == 7 and "no such key" not in result
    assert result.answer == result["answer"] and result.claims[0].text == claim["text"]


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("question", "error"),
    [("", InputError), ("   ", InputError), (42, InputError), ("x" * 10_000, InputTooLargeError)],
)
def test_bad_questions_are_refused(graph, question, error):
    with pytest.raises(error):
        reason(graph, Scripted(), question=question)


@pytest.mark.parametrize(
    "options",
    [
        {"max_llm_calls": -1},
        {"max_llm_calls": True},
        {"max_llm_calls": 1.5},
        {"min_support": 1.5},
        {"min_support": "half"},
        {"max_workers": 0},
        {"verify": "yes"},
    ],
)
def test_bad_options_are_refused(graph, options):
    with pytest.raises(InputError):
        GroundedGraphOfThought(graph, Scripted(), **options)
    with pytest.raises(InputError):
        GroundedGraphOfThought(graph, "not callable")


@pytest.mark.parametrize("plan", ["retrieve", [ops.retrieve(), "generate"], [ops.retrieve()] * 65])
def test_bad_plans_are_refused(graph, plan):
    with pytest.raises(InputError):
        reason(graph, Scripted(), plan)


def test_malformed_replies_become_plain_answers(graph):
    plan = [ops.retrieve(), ops.generate(2)]
    result = reason(graph, Scripted(f"Sure. {EDIT}"), plan)
    assert result.answer == f"Sure. {EDIT}"
    result = reason(graph, Scripted('{"thoughts": "broken"}'), plan)
    assert result.answer == '{"thoughts": "broken"}' and result.unsupported
    result = reason(graph, Scripted(""), plan)
    assert result.answer == "" and not result.budget_exhausted and result.llm_calls == 1


def test_an_llm_that_returns_no_text_is_an_error(graph):
    with pytest.raises(LLMResponseError):
        reason(graph, lambda prompt: None)


def test_llm_failures_are_raised_not_hidden(graph):
    def down(prompt: str) -> str:
        raise LLMConnectionError("no server")

    with pytest.raises(LLMConnectionError):
        reason(graph, down)


SENTENCES = [EDIT, SEE, BAKE, MOON, "Push the build to the server.", "Pluto is warm.", ""]
REPLIES = st.one_of(
    st.lists(st.sampled_from(SENTENCES), max_size=3).map(lambda xs: thoughts(*xs)),
    st.lists(st.sampled_from(SENTENCES), max_size=3).map(lambda xs: answer(" ".join(xs))),
    st.text(max_size=60),
    st.sampled_from(['{"thoughts": 1}', "{", "[]", "null", '{"answer": {}}']),
)


@settings(max_examples=40)
@given(st.lists(REPLIES, min_size=8, max_size=8), st.integers(0, 6))
def test_any_replies_keep_the_promises(graph, replies, budget):
    class Cycling:
        def __init__(self) -> None:
            self.calls = 0

        def __call__(self, prompt: str) -> str:
            self.calls += 1
            return replies[(self.calls - 1) % len(replies)]

    llm = Cycling()
    result = reason(graph, llm, max_llm_calls=budget, max_workers=1)
    assert result.llm_calls == llm.calls <= budget
    assert min(1, budget) <= result.llm_calls <= 4  # the default plan makes 1 to 4 calls
    seen: set[str] = set()
    for thought in result.thoughts:
        assert set(thought.parents) <= seen  # parents come before their children
        seen.add(thought.thought_id)
    supported = {n for c in result.claims if c.supported for n in c.nodes}
    assert {c.node_id for c in result.citations} == supported
    if result.best is not None:
        assert (
            result.answer == next(t for t in result.thoughts if t.thought_id == result.best).content
        )
    assert set(result.unsupported) == {c.text for c in result.claims if not c.supported}


def test_evidence_removed_during_a_run_is_left_out():
    graph = make_graph()

    def removing_llm(prompt: str) -> str:
        graph.remove_document("bakery-handbook")  # another writer, mid-run
        return thoughts(f"{EDIT} {BAKE}")

    plan = [ops.retrieve(), ops.retrieve("oven loaves"), ops.generate(1)]
    result = reason(graph, removing_llm, plan)
    assert result.unsupported == (BAKE,)
    assert [c.node_id for c in result.citations] == ["user-guide#2"]
