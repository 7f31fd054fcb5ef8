"""MemoryService: ReasonGraph's verbs over a DocumentGraph, sessions as scopes, by key."""

from __future__ import annotations

import json

import pytest

from groundgraph.errors import NotFoundError
from groundgraph.graph import DocumentGraph
from groundgraph.service import Access, AccessDeniedError, MemoryService
from service.conftest import ALICE_FACTS, BOB_FACTS

ALICE = Access(("acme/alice",), True, "alice")
ALICE_RO = Access(("acme/alice",), False, "alice-ro")


def test_a_push_is_read_back_from_its_session(service):
    answer = service.push("acme/alice", "The Atlas launch moved to March.")
    assert answer["session"] == "acme/alice"
    found = service.query("Atlas launch", session="acme/alice")["facts"]
    assert found[0] == "The Atlas launch moved to March."


def test_pushing_the_same_fact_twice_says_duplicate(service):
    again = service.push("acme/alice", ALICE_FACTS[0], access=ALICE)
    assert again.get("duplicate") is True


def test_pushing_another_tenants_fact_does_not_say_it_exists(service):
    # Bob has this text; for Alice it is new: "duplicate" would tell her Bob has it.
    answer = service.push("acme/alice", BOB_FACTS[1], access=ALICE)
    assert "duplicate" not in answer


def test_a_detailed_query_explains_each_fact(service):
    facts = service.query("flood", session="acme/alice", detailed=True)["facts"]
    assert facts and {"content", "score", "created_at", "scopes"} <= set(facts[0])
    assert facts[0]["explanation"]["path"]


def test_a_scoped_key_reads_only_its_scopes(service):
    texts = service.query("flood Zephyr power", top_k=20, access=ALICE)["facts"]
    assert texts and set(texts) <= set(ALICE_FACTS)
    with pytest.raises(AccessDeniedError):
        service.query("flood", session="acme/bob", access=ALICE)


def test_a_read_only_key_cannot_change_memory(service):
    for call in (
        lambda: service.push("acme/alice", "x y z", access=ALICE_RO),
        lambda: service.delete(ALICE_FACTS[0], access=ALICE_RO),
        lambda: service.supersede("acme/alice", ALICE_FACTS[0], "new", access=ALICE_RO),
        lambda: service.forget(access=ALICE_RO),
        lambda: service.delete_session("acme/alice", access=ALICE_RO),
    ):
        with pytest.raises(AccessDeniedError, match="read-only"):
            call()
    assert service.stats(access=ALICE_RO)["facts"] == len(ALICE_FACTS)


def test_delete_reaches_only_the_callers_facts(service):
    assert service.delete(BOB_FACTS[0], access=ALICE) == {"deleted": False}
    assert service.facts([BOB_FACTS[0]])["facts"][0]["stored"] is True
    assert service.delete(ALICE_FACTS[2], access=ALICE) == {"deleted": True}
    assert service.facts([ALICE_FACTS[2]])["facts"][0]["stored"] is False


def test_supersede_retires_the_old_fact_and_history_tells(service):
    done = service.supersede(
        "acme/alice", ALICE_FACTS[2], "Alice leads the Atlas team in Porto.", access=ALICE
    )
    assert done == {"superseded": True, "new": "Alice leads the Atlas team in Porto."}
    history = service.history("Alice leads the Atlas team in Porto.", access=ALICE)
    assert history["supersedes"] == [ALICE_FACTS[2]]
    assert service.history(ALICE_FACTS[2], access=ALICE)["superseded_by"] == [done["new"]]
    now = service.query("Alice Atlas team", session="acme/alice", top_k=3)["facts"]
    assert ALICE_FACTS[2] not in now


def test_history_reads_a_sub_sessions_fact(service):
    old, new = "Alice drafts the Atlas plan.", "Alice drafts the Atlas plan v2."
    service.push("acme/alice/chat-1", old, access=ALICE)
    service.supersede("acme/alice/chat-1", old, new, access=ALICE)
    assert service.history(new, access=ALICE) == {"supersedes": [old], "superseded_by": []}


def test_a_scope_given_as_one_name_is_read_as_that_scope(service):
    hits = service.verb("search", {"query": "flood", "scopes": "acme/alice"}, access=ALICE)
    assert hits and {h["content"] for h in hits} <= set(ALICE_FACTS)
    with pytest.raises(AccessDeniedError):
        service.verb("search", {"query": "flood", "scopes": "acme/bob"}, access=ALICE)


def test_trace_and_what_if_cite_the_facts_of_each_hop(service):
    trace = service.trace("Heavy rain", session="acme/alice", access=ALICE)
    assert [hop["fact"] for hop in trace["chain"]][:2] == list(ALICE_FACTS[:2])
    assert all(hop["scopes"] == ["acme/alice"] for hop in trace["chain"])
    what_if = service.what_if(ALICE_FACTS[0], session="acme/alice", access=ALICE)
    assert what_if["pruned"] == ALICE_FACTS[0]
    assert {c["fact"] for c in what_if["collapsed"]} <= set(ALICE_FACTS)


def test_a_scoped_trace_does_not_cross_into_another_tenant(service):
    # Bob's fact continues Alice's chain ("the flood in the valley delayed ..."): the
    # unscoped trace reaches it, Alice's does not.
    everything = service.trace("Heavy rain")
    assert BOB_FACTS[2] in {hop["fact"] for hop in everything["chain"]}
    alice = service.trace("Heavy rain", access=ALICE)
    assert BOB_FACTS[2] not in json.dumps(alice)


def test_causal_chain_finds_the_cited_hops(service):
    chain = service.causal_chain(ALICE_FACTS[0], "the road closure", access=ALICE)["chain"]
    assert chain and chain[-1]["fact"] == ALICE_FACTS[1]
    with pytest.raises(NotFoundError):
        service.causal_chain("Heavy rain", "the Zephyr shipment", access=ALICE)


def test_sessions_stats_and_facts_count_only_what_the_key_sees(service):
    service.push("acme/alice/chat-1", "Alice asked about the Atlas budget.", access=ALICE)
    assert service.list_sessions(access=ALICE) == ["acme/alice", "acme/alice/chat-1"]
    assert service.list_sessions() == ["acme/alice", "acme/alice/chat-1", "acme/bob"]
    assert service.stats(access=ALICE)["facts"] == len(ALICE_FACTS) + 1
    assert service.stats()["facts"] == len(ALICE_FACTS) + len(BOB_FACTS) + 1
    looked = service.facts([ALICE_FACTS[0], BOB_FACTS[0]], access=ALICE)["facts"]
    assert [row["stored"] for row in looked] == [True, False]


def test_a_fact_two_tenants_share_shows_only_the_callers_scope(service):
    service.push("acme/alice", BOB_FACTS[0], access=ALICE)
    row = service.facts([BOB_FACTS[0]], access=ALICE)["facts"][0]
    assert row["stored"] and row["sessions"] == ["acme/alice"]
    detailed = service.query("power cut outage", detailed=True, access=ALICE)["facts"]
    assert "acme/bob" not in json.dumps(detailed)


BOB = Access(("acme/bob",), True, "bob")


def test_deleting_a_sentence_another_tenant_holds_answers_as_for_ones_own(service):
    # Before, this was refused ("shared with scopes this key may not write"): the refusal
    # told Alice that another tenant holds the very same sentence.
    service.push("acme/alice", BOB_FACTS[0], access=ALICE)
    service.push("acme/alice", "Alice keeps her own note on the Atlas budget.", access=ALICE)
    shared = service.delete(BOB_FACTS[0], access=ALICE)
    own = service.delete("Alice keeps her own note on the Atlas budget.", access=ALICE)
    assert shared == own == {"deleted": True}
    assert BOB_FACTS[0] not in service.query("power cut outage", top_k=20, access=ALICE)["facts"]
    assert BOB_FACTS[0] in service.query("power cut outage", top_k=20, access=BOB)["facts"]


def test_superseding_a_shared_sentence_leaves_the_other_tenants_fact_valid(service):
    service.push("acme/alice", BOB_FACTS[0], access=ALICE)
    answer = service.supersede("acme/alice", BOB_FACTS[0], "Power is back in Porto.", access=ALICE)
    assert answer == {"superseded": True, "new": "Power is back in Porto."}
    alice = service.query("power Porto", top_k=20, access=ALICE)["facts"]
    assert "Power is back in Porto." in alice and BOB_FACTS[0] not in alice
    bob = service.query("power Porto", top_k=20, access=BOB)["facts"]
    assert BOB_FACTS[0] in bob and "Power is back in Porto." not in bob


def test_deleting_a_session_takes_shared_sentences_out_of_it_only(service):
    service.push("acme/alice/chat-1", BOB_FACTS[0], access=ALICE)
    assert service.delete_session("acme/alice/chat-1", access=ALICE)["deleted"] == 1
    assert "acme/alice/chat-1" not in service.list_sessions(access=ALICE)
    assert BOB_FACTS[0] in service.query("power cut outage", top_k=20, access=BOB)["facts"]


def test_delete_session_removes_the_sessions_own_facts(service):
    service.push("acme/alice/chat-1", "Alice asked about the Atlas budget.", access=ALICE)
    done = service.delete_session("acme/alice/chat-1", access=ALICE)
    assert done["deleted"] == 1
    assert service.list_sessions(access=ALICE) == ["acme/alice"]
    with pytest.raises(AccessDeniedError):
        service.delete_session("acme/bob", access=ALICE)


def test_forget_sweeps_only_the_callers_stale_facts():
    with MemoryService(forget_after=0.0) as service:
        service.push("acme/alice", ALICE_FACTS[0])
        service.push("acme/bob", BOB_FACTS[0])
        assert service.forget(access=ALICE) == {"deleted": 1}
        assert service.list_sessions() == ["acme/bob"]


def test_split_pushes_one_fact_per_sentence(service):
    answer = service.push(
        "acme/alice", "The Atlas demo is on Friday. The Atlas budget is approved.", split=True
    )
    assert answer["count"] == 2 and len(answer["sentences"]) == 2


def test_answer_is_built_from_the_sessions_facts(service):
    text = service.answer("What caused the flood?", session="acme/alice", access=ALICE)
    assert "rain" in text.lower()


def test_the_service_runs_every_table_verb_it_is_given(service):
    hits = service.verb("search", {"query": "flood"}, access=ALICE)
    assert hits and all(hit["content"] in ALICE_FACTS for hit in hits)
    with pytest.raises(AccessDeniedError, match="every scope"):
        service.verb("stats", {}, access=ALICE)
    assert len(service.verb("documents", {}, access=ALICE)) == len(ALICE_FACTS)
    assert len(service.verb("documents", {})) == len(ALICE_FACTS) + len(BOB_FACTS)


def test_closing_a_service_closes_the_graph_it_opened(tmp_path):
    with MemoryService(path=tmp_path / "m.db") as service:
        service.push("a", "Heavy rain caused the flood.")
    with MemoryService(DocumentGraph(tmp_path / "m.db")) as again:
        assert again.stats()["facts"] == 1
        again.graph.close()
