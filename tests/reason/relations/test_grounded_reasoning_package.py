"""Cross-check against Grounded Reasoning's own package (``grounded-reasoning==0.1.8``,
in the dev extra): the same facts give the same verdicts, proofs and confidences through
its README's calls and ours, its spectrum functions agree with ours, and the tool calls a
model writes from its ``TOOL_SPEC`` run through our tool executor with its answers."""

from __future__ import annotations

import itertools
import json

import grounded_reasoning as theirs
import numpy as np
import pytest
from grounded_reasoning.reasoning import relation_spectrum as their_spectrum
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.reason.relations import (
    GroundedReasoner,
    cycle_members,
    diffusion_sum,
    is_acyclic,
    is_nilpotent,
    katz_resolvent,
    row_stochastic,
    run_tool,
    spectral_radius,
    verify_relation,
)
from groundgraph.tools import execute_tools, got_tools

ENTITIES = [f"e{i}" for i in range(7)]
RELATIONS = ["parent", "part_of", "causes", "before"]  # every kind the seed's README uses

facts_strategy = st.lists(
    st.tuples(st.sampled_from(ENTITIES), st.sampled_from(RELATIONS), st.sampled_from(ENTITIES)),
    min_size=1,
    max_size=16,
)
claim_strategy = st.tuples(
    st.sampled_from(ENTITIES), st.sampled_from([None, *RELATIONS]), st.sampled_from(ENTITIES)
)


def both(facts: list[tuple[str, str, str]]) -> tuple[theirs.GroundedReasoner, GroundedReasoner]:
    reference, ours = theirs.GroundedReasoner(), GroundedReasoner()
    reference.add_facts(facts)
    ours.add_facts(facts)
    return reference, ours


def same_verdict(
    reference: theirs.Verdict,
    ours: object,
    facts: list[tuple[str, str, str]] | None = None,
    via: list[str | None] | None = None,
) -> None:
    """The same verdict, confidence and relation, and the same proof; where several walks
    tie (``facts`` and ``via`` given), any one of them. The package keeps each node's
    successors in a ``set`` of strings, so which of two tied walks it gives changes with
    the interpreter's string hashing (``PYTHONHASHSEED``); ours follow the facts' order."""
    mine = ours.as_dict()  # type: ignore[attr-defined]
    expected = reference.as_dict()
    assert mine["grounded"] == expected["grounded"]
    proof = None if mine["proof"] is None else list(mine["proof"])
    if proof != expected["proof"] and facts is not None and via is not None:
        assert proof is not None and expected["proof"] is not None
        assert len(proof) == len(expected["proof"]) and len(via) == len(proof) - 1
        assert (proof[0], proof[-1]) == (expected["proof"][0], expected["proof"][-1])
        for hop, a, b, relation in zip(ours.hops, proof, proof[1:], via, strict=True):  # type: ignore[attr-defined]
            assert (hop.subject, hop.object) == (a, b)
            assert relation is None or hop.relation == relation
            assert (a, hop.relation, b) in facts  # each hop is a fact
    else:
        assert proof == expected["proof"]
    assert mine["confidence"] == pytest.approx(expected["confidence"], abs=1e-9)
    assert mine["relation"] == expected["relation"]


@settings(max_examples=200, deadline=None)
@given(facts_strategy, st.lists(claim_strategy, min_size=1, max_size=8))
def test_verify_gives_the_packages_verdicts_proofs_and_confidences(
    facts: list[tuple[str, str, str]], claims: list[tuple[str, str | None, str]]
) -> None:
    reference, ours = both(facts)
    for subject, via, obj in claims:
        expected = reference.verify(subject, obj, via=via)
        hops = None if expected.proof is None else [via] * (len(expected.proof) - 1)
        same_verdict(expected, ours.verify(subject, obj, via=via), facts, hops)
        assert ours.confidence(subject, obj) == pytest.approx(
            reference._confidence(subject, obj), abs=1e-12
        )


@settings(max_examples=150, deadline=None)
@given(
    facts_strategy,
    st.sampled_from(ENTITIES),
    st.sampled_from(ENTITIES),
    st.lists(st.sampled_from(RELATIONS), min_size=1, max_size=4),
)
def test_verify_path_gives_the_packages_verdicts(
    facts: list[tuple[str, str, str]], subject: str, obj: str, via: list[str]
) -> None:
    reference, ours = both(facts)
    same_verdict(
        reference.verify_path(subject, obj, via),
        ours.verify_path(subject, obj, via),
        facts,
        list(via),
    )


@settings(max_examples=150, deadline=None)
@given(facts_strategy, st.sampled_from(RELATIONS))
def test_contradictions_find_a_cycle_exactly_when_the_package_does(
    facts: list[tuple[str, str, str]], relation: str
) -> None:
    reference, ours = both(facts)
    mine, expected = ours.contradictions(relation), reference.contradictions(relation)
    assert bool(mine) == bool(expected)
    for cycle in mine:  # any cycle will do; each step must be a real fact
        assert cycle[0] == cycle[-1]
        assert all((a, relation, b) in facts for a, b in itertools.pairwise(cycle))


@st.composite
def matrices(draw: st.DrawFn) -> np.ndarray:
    n = draw(st.integers(1, 8))
    cells = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    matrix = np.zeros((n, n))
    for i, j in cells:
        matrix[i, j] = 1.0
    return matrix


@settings(max_examples=150, deadline=None)
@given(matrices(), st.floats(0.05, 0.9))
def test_the_spectrum_agrees_with_the_packages(matrix: np.ndarray, alpha: float) -> None:
    assert spectral_radius(matrix) == pytest.approx(
        their_spectrum.spectral_radius(matrix), abs=1e-9
    )
    assert is_nilpotent(matrix) == their_spectrum.is_nilpotent(matrix)
    assert is_acyclic(matrix) == their_spectrum.is_acyclic(matrix)
    assert cycle_members(matrix) == set(their_spectrum.cycle_members(matrix))
    assert np.allclose(row_stochastic(matrix), their_spectrum.row_stochastic(matrix))
    assert np.allclose(
        diffusion_sum(matrix, alpha, 6), their_spectrum.diffusion_sum(matrix, alpha, 6)
    )
    if alpha * spectral_radius(matrix) < 0.95:
        assert np.allclose(
            katz_resolvent(matrix, alpha), their_spectrum.katz_resolvent(matrix, alpha)
        )


def same_or_tied_proof(
    mine: object, expected: list[str] | None, facts: list[tuple[str, str, str]], relation: str
) -> None:
    """The package's proof, or one as short between the same ends: among equal paths the
    package's own choice follows the process's hash seed (its facts pass through a set)."""
    if expected is None or mine is None:
        assert mine == expected
        return
    path = list(mine)  # type: ignore[call-overload]
    if path == expected:
        return
    assert len(path) == len(expected) and path[0] == expected[0] and path[-1] == expected[-1]
    assert all((a, relation, b) in facts for a, b in itertools.pairwise(path)), path


def model_calls(tool_input: dict[str, object]) -> list[dict[str, object]]:
    """The same call as each provider writes it from the package's tool specs."""
    name = theirs.TOOL_SPEC["name"]
    function = theirs.openai_tool_spec()["function"]["name"]
    return [
        {"name": name, "input": tool_input},  # Anthropic's tool_use block
        {"function": {"name": function, "arguments": json.dumps(tool_input)}},  # OpenAI's
        {"name": name, "arguments": tool_input},
    ]


@settings(max_examples=60, deadline=None)
@given(facts_strategy, claim_strategy.filter(lambda claim: claim[1] is not None))
def test_the_packages_tool_calls_run_through_our_executor(
    facts: list[tuple[str, str, str]], claim: tuple[str, str, str]
) -> None:
    subject, relation, obj = claim
    tool_input = {"facts": [list(f) for f in facts], "subject": subject}
    tool_input |= {"relation": relation, "object": obj}
    expected = theirs.run_tool(tool_input)
    tools = got_tools(DocumentGraph())
    for result in execute_tools(model_calls(tool_input), tools):
        assert result.get("ok", True), result
        assert result["grounded"] == expected["grounded"]
        same_or_tied_proof(result["proof"], expected["proof"], facts, relation)
        assert result["confidence"] == pytest.approx(expected["confidence"], abs=1e-6)
    mine = run_tool({"name": theirs.TOOL_SPEC["name"], "input": tool_input})
    assert mine["grounded"] == expected["grounded"]
    assert verify_relation(**tool_input)["grounded"] == expected["grounded"]


def test_our_tool_spec_accepts_what_the_packages_spec_asks_for() -> None:
    from groundgraph.reason.relations import TOOL_SPEC, openai_tool_spec

    assert TOOL_SPEC["name"] == theirs.TOOL_SPEC["name"]
    assert openai_tool_spec()["function"]["name"] == theirs.openai_tool_spec()["function"]["name"]
    ours, reference = TOOL_SPEC["input_schema"], theirs.TOOL_SPEC["input_schema"]
    assert set(ours["properties"]) == set(reference["properties"])
    assert set(ours["required"]) == set(reference["required"])
    for name, prop in reference["properties"].items():
        assert ours["properties"][name]["type"] == prop["type"]


def test_the_readme_example_reads_the_same() -> None:
    facts = [("alice", "parent", "bob"), ("bob", "parent", "carol")]
    reference, ours = both(facts)
    same_verdict(
        reference.verify("alice", "carol", via="parent"),
        ours.verify("alice", "carol", via="parent"),
    )
    same_verdict(
        reference.verify("carol", "alice", via="parent"),
        ours.verify("carol", "alice", via="parent"),
    )
