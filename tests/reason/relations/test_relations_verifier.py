"""GroundedReasoner: verdicts, proofs, normalisation, the transitivity guard, input errors."""

from __future__ import annotations

import pytest

from groundgraph.errors import InputError
from groundgraph.reason.relations import GroundedReasoner, Hop, Verdict


@pytest.fixture
def family() -> GroundedReasoner:
    gr = GroundedReasoner()
    gr.add_facts([("alice", "parent", "bob"), ("bob", "parent", "carol")])
    return gr


def test_the_seed_example(family: GroundedReasoner) -> None:
    verdict = family.verify("alice", "carol", via="parent")
    assert verdict.grounded
    assert verdict.proof == ("alice", "bob", "carol")
    assert verdict.confidence == pytest.approx(0.36)
    assert verdict.relation == "parent"


def test_a_claim_without_a_path_is_refused(family: GroundedReasoner) -> None:
    verdict = family.verify("alice", "zed", via="parent")
    assert verdict == Verdict(grounded=False, proof=None, confidence=0.0, relation="parent")
    assert family.verify("carol", "alice", via="parent").grounded is False  # direction matters


def test_verify_by_a_relation_uses_only_that_relation() -> None:
    gr = GroundedReasoner()
    gr.add_facts([("a", "parent", "b"), ("b", "friend", "c")])
    assert not gr.verify("a", "c", via="parent").grounded
    any_relation = gr.verify("a", "c")
    assert any_relation.grounded and any_relation.relation is None
    assert [hop.relation for hop in any_relation.hops] == ["parent", "friend"]


def test_the_proof_is_a_shortest_path() -> None:
    gr = GroundedReasoner()
    gr.add_facts([("a", "r", "b"), ("b", "r", "c"), ("c", "r", "d"), ("a", "r", "d")])
    assert gr.verify("a", "d", via="r").proof == ("a", "d")


def test_self_claims_need_a_real_cycle() -> None:
    gr = GroundedReasoner()
    gr.add_facts([("a", "r", "b")])
    assert not gr.verify("a", "a", via="r").grounded
    gr.add_fact("b", "r", "a")
    assert gr.verify("a", "a", via="r").proof == ("a", "b", "a")


def test_verify_path_takes_exactly_the_relations_given() -> None:
    gr = GroundedReasoner()
    gr.add_facts([("ann", "parent", "ben"), ("ben", "employer", "acme"), ("ann", "employer", "x")])
    verdict = gr.verify_path("ann", "acme", via=["parent", "employer"])
    assert verdict.grounded and verdict.proof == ("ann", "ben", "acme")
    assert verdict.relation == "parent->employer"
    assert not gr.verify_path("ann", "acme", via=["employer"]).grounded
    assert not gr.verify_path("ann", "acme", via=["parent", "employer", "employer"]).grounded


def test_verify_path_is_not_a_closure() -> None:
    gr = GroundedReasoner()
    gr.add_facts([("a", "p", "b"), ("b", "p", "c")])
    assert not gr.verify_path("a", "c", via=["p"]).grounded
    assert gr.verify("a", "c", via="p").grounded


@pytest.mark.parametrize("via", [[], "parent", [1]])
def test_verify_path_needs_a_list_of_relations(family: GroundedReasoner, via: object) -> None:
    with pytest.raises(InputError, match="via"):
        family.verify_path("alice", "carol", via=via)  # type: ignore[arg-type]


def test_hops_carry_their_sources() -> None:
    gr = GroundedReasoner()
    gr.add_fact("alice", "parent", "bob", source="family#1")
    gr.add_fact("bob", "parent", "carol", source="family#2")
    gr.add_fact("bob", "parent", "carol", source="letters#4")
    verdict = gr.verify("alice", "carol", via="parent")
    assert verdict.hops == (
        Hop("alice", "parent", "bob", ("family#1",)),
        Hop("bob", "parent", "carol", ("family#2", "letters#4")),
    )
    assert verdict.as_dict()["hops"][1]["sources"] == ["family#2", "letters#4"]


def test_as_dict_rounds_the_scores(family: GroundedReasoner) -> None:
    data = family.verify("alice", "carol", via="parent").as_dict()
    assert data["proof"] == ["alice", "bob", "carol"]
    assert data["confidence"] == 0.36
    assert 0.0 < data["confidenceNormalized"] < 1.0
    assert data["grounded"] is True and data["relation"] == "parent"


def test_normalisation_merges_spellings_and_shows_the_first() -> None:
    strict = GroundedReasoner()
    strict.add_facts([("Bob", "parent", "Carol"), ("bob ", "parent", "Dan")])
    assert not strict.verify("Bob", "Dan", via="parent").grounded

    gr = GroundedReasoner(normalize=lambda s: s.strip().casefold())
    gr.add_facts([("Alice", "parent", "Bob"), ("bob ", "parent", "Carol")])
    verdict = gr.verify("ALICE", "carol", via="parent")
    assert verdict.proof == ("Alice", "Bob", "Carol")


def test_a_normaliser_must_return_a_name() -> None:
    gr = GroundedReasoner(normalize=lambda s: "")
    with pytest.raises(InputError, match="normalize"):
        gr.add_fact("a", "r", "b")


def test_the_transitivity_guard() -> None:
    gr = GroundedReasoner(transitive_relations={"parent"})
    gr.add_facts([("a", "trusts", "b"), ("b", "trusts", "c"), ("a", "parent", "b")])
    with pytest.raises(InputError, match="'trusts' is not declared transitive"):
        gr.verify("a", "c", via="trusts")
    assert gr.verify("a", "b", via="parent").grounded
    assert gr.verify_path("a", "c", via=["trusts", "trusts"]).grounded  # a fixed chain is fine
    assert gr.verify("a", "c").grounded  # any-relation reachability is not guarded


@pytest.mark.parametrize(
    ("fact", "problem"),
    [
        (("a", "r"), "3 items"),
        ("abc", "tuple or list"),
        (("a", "", "b"), "relation is empty"),
        (("a", "r", 3), "object must be a string"),
        ((None, "r", "b"), "subject must be a string"),
        (("a", "r", "b", 7), "source"),
    ],
)
def test_add_facts_names_the_bad_fact(fact: object, problem: str) -> None:
    gr = GroundedReasoner()
    with pytest.raises(InputError, match=rf"fact #1 .*{problem}"):
        gr.add_facts([("x", "r", "y"), fact])  # type: ignore[list-item]
    assert len(gr) == 0  # nothing is added when one fact is bad


def test_add_fact_rejects_blank_names() -> None:
    with pytest.raises(InputError, match="subject is empty"):
        GroundedReasoner().add_fact("  ", "r", "b")


def test_facts_with_sources_in_add_facts() -> None:
    gr = GroundedReasoner()
    gr.add_facts([("a", "r", "b", "doc#1"), ("b", "r", "c", None)])
    assert gr.facts == [("a", "r", "b"), ("b", "r", "c")]
    assert gr.verify("a", "c", via="r").hops[0].sources == ("doc#1",)


@pytest.mark.parametrize(("walk_len", "alpha"), [(0, 0.6), (8, 0.0), (8, 1.5), (2.5, 0.6)])
def test_bad_parameters(walk_len: int, alpha: float) -> None:
    with pytest.raises(InputError):
        GroundedReasoner(walk_len=walk_len, alpha=alpha)


def test_filter_claims(family: GroundedReasoner) -> None:
    family.add_fact("carol", "employer", "acme")
    results = family.filter_claims(
        [
            ("alice", "carol", "parent"),
            ("alice", "zed", "parent"),
            ("bob", "acme", ["parent", "employer"]),
            ("alice", "acme"),
        ]
    )
    assert [verdict.grounded for _, verdict in results] == [True, False, True, True]
    assert results[2][1].relation == "parent->employer"
    with pytest.raises(InputError, match="claim #0"):
        family.filter_claims([("alice",)])  # type: ignore[list-item]


def test_contradictions_finds_a_cycle() -> None:
    gr = GroundedReasoner()
    gr.add_facts([("a", "is_a", "b"), ("b", "is_a", "c")])
    assert gr.contradictions("is_a") == []
    gr.add_fact("c", "is_a", "a")
    gr.add_fact("x", "part_of", "x")
    assert gr.contradictions("is_a") == [["a", "b", "c", "a"]]
    assert gr.contradictions("part_of") == [["x", "x"]]
    assert gr.contradictions("unknown") == []


def test_confidence_counts_repeated_facts_and_other_relations() -> None:
    gr = GroundedReasoner()
    gr.add_facts([("a", "r", "b"), ("a", "s", "c")])
    assert gr.confidence("a", "b") == pytest.approx(0.3)  # half of a's weight goes to c
    gr.add_fact("a", "r", "b")  # asserted again: twice the weight
    assert gr.confidence("a", "b") == pytest.approx(0.6 * 2 / 3)
    assert gr.confidence("a", "nobody") == 0.0


def test_unknown_entities_are_refused_not_errors() -> None:
    gr = GroundedReasoner()
    assert not gr.verify("a", "b").grounded
    assert not gr.verify_path("a", "b", via=["r"]).grounded
