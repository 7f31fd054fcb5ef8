"""Each plan operation of GroundedGraphOfThought, driven by a scripted LLM."""

from __future__ import annotations

import pytest

from groundgraph import DocumentGraph
from groundgraph.reason.thought import GroundedGraphOfThought, ReasoningResult, Thought, ops
from thought_fakes import Scripted, answer, make_graph, thoughts

QUESTION = "My config fails. What should I check?"
EDIT = "Edit config.json to customize settings."
SEE = "If config fails, see the Configuration section."
BAKE = "Bake the loaves at 230 degrees for forty minutes."
MOON = "The moon is made of cheese."


@pytest.fixture(scope="module")
def graph() -> DocumentGraph:
    return make_graph()


def run(graph: DocumentGraph, llm: Scripted, plan=None, **options) -> ReasoningResult:
    return GroundedGraphOfThought(graph, llm, **options).reason(QUESTION, plan)


def by_id(result: ReasoningResult) -> dict[str, Thought]:
    return {t.thought_id: t for t in result.thoughts}


# ----------------------------------------------------------------------------- retrieve
def test_retrieve_makes_a_root_with_the_question_hits(graph):
    result = run(graph, Scripted(), [ops.retrieve()])
    (root,) = result.thoughts
    assert root.operation == "retrieve" and root.content == "" and root.parents == ()
    assert root.evidence == tuple(h.node_id for h in graph.search(QUESTION, max_results=10))
    assert result.answer == "" and result.best is None and result.llm_calls == 0


def test_retrieve_with_a_query_puts_its_hits_first_and_regrounds_answers(graph):
    llm = Scripted(thoughts(f"{EDIT} {BAKE}"))
    result = run(graph, llm, [ops.retrieve(), ops.generate(1), ops.retrieve("oven loaves")])
    generated, regrounded = result.thoughts[1], result.thoughts[2]
    assert generated.unsupported == (BAKE,)
    assert regrounded.operation == "ground" and regrounded.parents == (generated.thought_id,)
    found = tuple(h.node_id for h in graph.search("oven loaves", max_results=10))
    assert found[0].startswith("bakery-handbook")
    assert regrounded.evidence[: len(found)] == found
    assert set(generated.evidence) < set(regrounded.evidence)
    assert regrounded.unsupported == () and result.best == regrounded.thought_id
    assert result.llm_calls == 1


# ----------------------------------------------------------------------------- generate
def test_generate_shows_the_evidence_and_reads_k_candidates(graph):
    llm = Scripted(thoughts(EDIT, SEE, MOON))
    result = run(graph, llm, [ops.retrieve(), ops.generate(2)], max_evidence=2)
    (prompt,) = llm.prompts
    assert prompt.startswith(f"Question: {QUESTION}\n\nEvidence:\n")
    assert f"[user-guide#4] Troubleshooting\n{SEE}" in prompt
    assert "[user-guide#2] Configuration" in prompt and "[user-guide#3]" not in prompt
    assert "2 different candidate answers" in prompt
    root, *candidates = result.thoughts
    assert [t.content for t in candidates] == [EDIT, SEE]  # the third is past k
    assert all(t.operation == "generate" and t.parents == (root.thought_id,) for t in candidates)


def test_missing_evidence_is_searched_and_put_first(graph):
    llm = Scripted(thoughts((f"{EDIT} {MOON}", "baking time of loaves")), answer(EDIT))
    result = run(graph, llm, [ops.retrieve(), ops.generate(1), ops.refine(1)])
    generated = result.thoughts[1]
    assert generated.follow_up == "baking time of loaves"
    assert generated.evidence[0] == "bakery-handbook#1"
    assert generated.to_dict()["followUp"] == "baking time of loaves"
    rewrite_prompt = llm.prompts[1]
    assert rewrite_prompt.index("[bakery-handbook#1]") < rewrite_prompt.index("[user-guide#4]")


def test_generate_without_retrieve_starts_from_an_empty_root(graph):
    llm = Scripted(thoughts(EDIT))
    result = run(graph, llm, [ops.generate(1)])
    assert "(no evidence found)" in llm.prompts[0]
    assert result.answer == EDIT and result.unsupported == (EDIT,)
    assert result.citations == ()


# ----------------------------------------------------------------------------- keep_best
def test_keep_best_keeps_the_highest_net(graph):
    llm = Scripted(thoughts(MOON, EDIT, f"{SEE} {EDIT}"))
    result = run(graph, llm, [ops.retrieve(), ops.generate(3), ops.keep_best(1)])
    candidates = [t for t in result.thoughts if t.operation == "generate"]
    assert result.answer == max(candidates, key=lambda t: t.net).content == f"{SEE} {EDIT}"


def test_keep_best_keeps_one_when_none_is_above_zero(graph):
    worse = f"{MOON} The sun is a lemon drop in the sky today."
    llm = Scripted(thoughts(worse, MOON), answer("unused"))
    result = run(graph, llm, [ops.retrieve(), ops.generate(2), ops.keep_best(2), ops.aggregate()])
    assert result.llm_calls == 1  # a single thought left: nothing to merge
    assert result.answer == MOON and all(t.net < 0 for t in result.thoughts[1:])


# ----------------------------------------------------------------------------- aggregate
def test_ungrounded_candidates_are_pruned_before_a_merge(graph):
    llm = Scripted(thoughts(EDIT, "Reinstall the operating system.", MOON))
    result = run(graph, llm)  # the default plan
    assert result.llm_calls == 1
    assert result.answer == EDIT and result.unsupported == ()
    assert not any(t.operation == "aggregate" for t in result.thoughts)


def test_a_merge_that_lowers_grounding_is_rejected(graph):
    bad_merge = f"{EDIT} Also format the disk and reboot the satellite twice."
    llm = Scripted(thoughts(EDIT, SEE), answer(bad_merge))
    result = run(graph, llm)
    assert result.llm_calls == 2
    threads = by_id(result)
    (merged,) = [t for t in result.thoughts if t.operation == "aggregate"]
    parents = [threads[p] for p in merged.parents]
    assert merged.net < max(p.net for p in parents)
    assert result.best != merged.thought_id
    assert result.answer == max(parents, key=lambda t: t.net).content
    assert "Candidate 1:" in llm.prompts[1] and "Candidate 2:" in llm.prompts[1]


def test_a_merge_at_least_as_grounded_is_kept(graph):
    llm = Scripted(thoughts(EDIT, SEE), answer(f"{SEE} {EDIT}"))
    result = run(graph, llm)
    assert result.llm_calls == 2
    merged = by_id(result)[result.best]
    assert merged.operation == "aggregate" and len(merged.parents) == 2
    assert {c.node_id for c in result.citations} == {"user-guide#4", "user-guide#2"}


# ----------------------------------------------------------------------------- refine
def test_an_unsupported_sentence_is_grounded_by_search_without_a_rewrite(graph):
    llm = Scripted(thoughts(f"{EDIT} {BAKE}"))
    result = run(graph, llm, [ops.retrieve(), ops.generate(1), ops.refine()])
    assert result.llm_calls == 1  # the search found it: no rewrite asked
    best = by_id(result)[result.best]
    assert best.operation == "ground" and best.content == f"{EDIT} {BAKE}"
    assert result.unsupported == ()
    assert "bakery-handbook#1" in {c.node_id for c in result.citations}


def test_what_search_cannot_find_is_rewritten(graph):
    llm = Scripted(thoughts(f"{EDIT} {MOON}"), answer(EDIT))
    result = run(graph, llm, [ops.retrieve(), ops.generate(1), ops.refine(2)])
    assert result.llm_calls == 2
    assert f"- {MOON}" in llm.prompts[1] and "Rewrite the answer" in llm.prompts[1]
    best = by_id(result)[result.best]
    assert best.operation == "refine" and result.answer == EDIT and result.unsupported == ()


def test_a_rewrite_that_lowers_grounding_is_discarded_and_stops_the_loop(graph):
    worse = "The sun is made of cheese too. Mars is made of rock and sand."
    llm = Scripted(thoughts(f"{EDIT} {MOON}"), answer(worse))
    result = run(graph, llm, [ops.retrieve(), ops.generate(1), ops.refine(3)])
    assert result.llm_calls == 2  # no second rewrite after a worse one
    assert result.answer == f"{EDIT} {MOON}" and result.unsupported == (MOON,)
    rewrite = [t for t in result.thoughts if t.operation == "refine"]
    assert len(rewrite) == 1 and rewrite[0].content == worse


def test_refine_stops_after_max_rounds(graph):
    half = f"{EDIT} The moon is cheese."
    llm = Scripted(
        thoughts(f"{EDIT} {MOON} Pluto is warm."), answer(f"{EDIT} {MOON}"), answer(half)
    )
    result = run(graph, llm, [ops.retrieve(), ops.generate(1), ops.refine(2)])
    assert result.llm_calls == 3 and result.answer == half
    assert result.unsupported == ("The moon is cheese.",)


def test_refine_leaves_supported_thoughts_alone(graph):
    llm = Scripted(thoughts(EDIT))
    result = run(graph, llm, [ops.retrieve(), ops.generate(1), ops.refine(3)])
    assert result.llm_calls == 1 and len(result.thoughts) == 2


@pytest.mark.parametrize(
    "make",
    [
        lambda: ops.generate(0),
        lambda: ops.generate(True),
        lambda: ops.generate(10_000),
        lambda: ops.keep_best(0),
        lambda: ops.refine(-1),
        lambda: ops.refine(1, per_claim=0),
        lambda: ops.retrieve(""),
        lambda: ops.retrieve("x" * 100_000),
    ],
)
def test_operation_arguments_are_checked(make):
    from groundgraph import InputError

    with pytest.raises(InputError):
        make()
