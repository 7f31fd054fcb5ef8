"""The conflict gate and the claim prefilter: a fact the gate lets pass unchecked is
contradicted by none of the facts it has seen, and the prefiltered claims are the claims."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from groundgraph.memory import RuleConflictResolver, parse_claims
from groundgraph.memory.conflicts.gate import ConflictGate
from groundgraph.memory.conflicts.resolvers import Contradiction
from groundgraph.memory.timeline import FactState
from groundgraph.model.ids import fact_id

RESOLVER = RuleConflictResolver()
SUBJECTS = ["Ilse", "The API", "Acme", "The compiler", "Our team", "Teo", "The build"]
VERBS = [
    "lives in",
    "is based in",
    "moved to",
    "works at",
    "left",
    "is",
    "is not",
    "no longer",
    "isn't",
    "emits",
    "is now",
    "reports to",
    "costs",
    "has",
    "was cancelled",
    "took over",
    "returns",
    "does not return",
    "manages",
    "is stable",
    "is not stable",
    "uses",
]
OBJECTS = [
    "Graz",
    "Leeds",
    "a warning",
    "stable",
    "$40",
    "12 people",
    "the project",
    "Bas",
    "active",
    "the value",
    "anymore",
    "now",
    "done",
]
LEADS = ["", "Now ", "From next week ", "Also ", "Previously "]


@st.composite
def facts(draw: st.DrawFn) -> str:
    lead = draw(st.sampled_from(LEADS))
    parts = [draw(st.sampled_from(SUBJECTS)), draw(st.sampled_from(VERBS))]
    parts.append(draw(st.sampled_from(OBJECTS)))
    text = lead + " ".join(parts) + "."
    if draw(st.booleans()):
        text += " " + draw(st.sampled_from(SUBJECTS)) + " " + draw(st.sampled_from(VERBS)) + "."
    return text


def _states(texts: list[str]) -> dict[str, FactState]:
    return {fact_id(t): FactState(fact_id(t), t, "2026-01-01T00:00:00Z", (), None) for t in texts}


@given(facts(), st.lists(facts(), max_size=8))
def test_a_fact_the_gate_passes_contradicts_no_fact_seen(new: str, old: list[str]) -> None:
    gate = ConflictGate()
    gate.see(_states(old))
    if not gate.may_contradict(RESOLVER, new):
        assert RESOLVER.contradictions(new, old) == []
    assert gate.may_contradict(RESOLVER, new, gated=False)


@given(facts(), st.lists(facts(), max_size=8))
def test_facts_seen_one_by_one_gate_as_seen_at_once(new: str, old: list[str]) -> None:
    at_once, one_by_one = ConflictGate(), ConflictGate()
    states = _states(old)
    at_once.see(states)
    for fact in states:
        one_by_one.see(states, [fact])
    assert at_once.may_contradict(RESOLVER, new) == one_by_one.may_contradict(RESOLVER, new)


def test_plain_facts_pass_and_others_are_checked() -> None:
    gate = ConflictGate()
    gate.see(_states(["The API is stable.", "The compiler does not emit a warning."]))
    assert not gate.may_contradict(RESOLVER, "The linker emits a warning.")
    assert gate.may_contradict(RESOLVER, "The compiler emits a warning.")  # negated before
    assert gate.may_contradict(RESOLVER, "The API is not stable.")  # negates one seen
    assert gate.may_contradict(RESOLVER, "Ilse moved to Graz.")  # a claim
    assert gate.may_contradict(RESOLVER, "The team no longer meets on Mondays.")

    class Wider(RuleConflictResolver):
        def contradictions(self, new: str, candidates: object) -> list[Contradiction]:
            return []

    assert gate.may_contradict(Wider(), "The linker emits a warning.")  # not the rules'


@given(facts())
def test_prefiltered_claims_are_the_claims(text: str) -> None:
    assert parse_claims(text) == parse_claims(text, prefilter=False)
