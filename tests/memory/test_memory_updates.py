"""Updates to memory: contradictions and the ledger, supersede, revival, delete, forgetting."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from groundgraph import DocumentGraph, InputError, NotFoundError
from groundgraph.memory import Contradiction, LLMConflictResolver

MUNICH = "Acme is based in Munich."
HAMBURG = "Acme is based in Hamburg."


def test_a_contradiction_retires_the_old_fact_and_is_ledgered():
    graph = DocumentGraph()  # the rule-based resolver is the default
    old = graph.add_text(MUNICH, scopes=["acme"], source="crm-sync")
    new = graph.add_text(HAMBURG, scopes=["acme"], source="agent-2")
    assert new.superseded == (old.fact_id,)
    assert graph.fact(old.fact_id).invalid_at is not None
    assert graph.query("Where is Acme based?") == [HAMBURG]
    (line,) = graph.conflicts()
    assert line["rule"].startswith("single-valued") and line["resolver"] == "RuleConflictResolver"
    assert line["new"] == {
        "factId": new.fact_id,
        "content": HAMBURG,
        "scopes": ["acme"],
        "createdAt": new.created_at,
        "source": "agent-2",
    }
    assert line["old"]["source"] == "crm-sync" and line["old"]["content"] == MUNICH
    assert line["at"] >= new.created_at
    # The old fact is kept, linked and searchable on request: nothing is lost.
    edges = [e for e in graph.store.reads.edges_touching([old.fact_id]) if e.type == "supersedes"]
    assert [(e.source, e.target) for e in edges] == [(new.fact_id, old.fact_id)]
    assert MUNICH in graph.query("Acme based", include_superseded=True)


def test_complements_do_not_conflict():
    graph = DocumentGraph()
    graph.add_text("Acme has an office in Munich.", scopes=["acme"])
    added = graph.add_text("Acme also has an office in Paris.", scopes=["acme"])
    assert added.superseded == () and graph.conflicts() == []


def test_facts_in_other_scopes_are_never_candidates():
    graph = DocumentGraph()
    graph.add_text(MUNICH, scopes=["tenant-a"])
    added = graph.add_text(HAMBURG, scopes=["tenant-b"])
    assert added.superseded == ()
    assert graph.fact(MUNICH).invalid_at is None


def test_reasserting_revives_and_retires_the_newer_claim():
    graph = DocumentGraph()
    first = graph.add_text(MUNICH, scopes=["acme"])
    second = graph.add_text(HAMBURG, scopes=["acme"])
    again = graph.add_text(MUNICH, scopes=["acme"])
    assert again.fact_id == first.fact_id and again.status == "revived"
    assert again.superseded == (second.fact_id,)
    assert graph.fact(second.fact_id).invalid_at is not None
    history = graph.supersession_history(MUNICH)
    assert [e["kind"] for e in history["events"]] == ["invalidated", "revived"]
    assert history["supersededBy"][0]["factId"] == second.fact_id
    assert history["supersedes"][0]["factId"] == second.fact_id
    assert len(graph.conflicts()) == 2


def test_resolution_can_be_turned_off_per_call_or_per_graph():
    graph = DocumentGraph()
    graph.add_text(MUNICH, scopes=["acme"])
    assert graph.add_text(HAMBURG, scopes=["acme"], resolve_conflicts=False).superseded == ()
    off = DocumentGraph(conflict_resolver=False)
    off.add_text(MUNICH)
    assert off.add_text(HAMBURG).superseded == ()
    with pytest.raises(InputError, match="conflict_resolver=False"):
        off.add_text("Acme is based in Bonn.", resolve_conflicts=True)
    with pytest.raises(InputError):
        graph.add_text("Acme is based in Bonn.", resolve_conflicts="yes")  # type: ignore[arg-type]


def test_any_resolver_plugs_in():
    class Strings:
        def contradictions(self, new, candidates):
            return [c for c in candidates if "lunch" in c and "lunch" in new]

    graph = DocumentGraph(conflict_resolver=Strings())
    graph.add_text("Team lunch is on Tuesday.", scopes=["t"])
    graph.add_text("Team lunch moved to Thursday.", scopes=["t"])
    (line,) = graph.conflicts()
    assert line["rule"] == "Strings" and line["resolver"] == "Strings"

    class Broken:
        def contradictions(self, new, candidates):
            return [{"candidate": candidates[0]}] if candidates else []

    broken = DocumentGraph(conflict_resolver=Broken())
    broken.add_text("Team lunch is on Tuesday.", scopes=["t"])
    with pytest.raises(InputError, match="Contradiction"):
        broken.add_text("Team lunch moved to Thursday.", scopes=["t"])


def test_an_llm_resolver_over_a_fake_model():
    prompts = []

    def llm(prompt: str) -> str:
        prompts.append(prompt)
        return json.dumps({"contradicted": [1], "reason": "the meeting moved"})

    graph = DocumentGraph(conflict_resolver=LLMConflictResolver(llm))
    graph.add_text("The board meets in room 4.", scopes=["board"])
    new = graph.add_text("The board meets in room 9 from now on.", scopes=["board"])
    assert len(new.superseded) == 1 and prompts
    assert graph.conflicts()[0]["resolver"] == "LLMConflictResolver"
    assert isinstance(Contradiction("x", "r", "d").to_dict(), dict)


def test_supersede_replaces_and_keeps_history():
    graph = DocumentGraph(conflict_resolver=False)
    old = graph.add_text("The API rate limit is 100 requests per minute.", scopes=["api"])
    new = graph.supersede(old.fact_id, "The API rate limit is 250 requests per minute.")
    assert new.scopes == ("api",) and old.fact_id in new.superseded
    assert graph.query("API rate limit", scopes=["api"]) == [new.text]
    history = graph.supersession_history(new.fact_id)
    assert history["supersedes"][0]["factId"] == old.fact_id
    assert history["supersedes"][0]["rule"] == "supersede"
    assert graph.conflicts()[0]["detail"] == "replaced by supersede()"
    with pytest.raises(InputError):
        graph.supersede(new.fact_id, "the api rate limit is 250 requests per minute")
    with pytest.raises(NotFoundError):
        graph.supersede("fact:ffffffffffffffff", "Anything.")


def test_history_and_ledger_respect_scopes():
    graph = DocumentGraph()
    graph.add_text(MUNICH, scopes=["acme"])
    graph.add_text(HAMBURG, scopes=["acme"])
    assert graph.conflicts(scopes=["other"]) == []
    assert len(graph.conflicts(scopes=["acme/x"])) == 1
    with pytest.raises(NotFoundError):
        graph.supersession_history(MUNICH, scopes=["other"])
    with pytest.raises(NotFoundError):
        graph.supersession_history("never stored")


def test_the_ledger_persists(tmp_path):
    path = tmp_path / "ledger.db"
    with DocumentGraph(path) as graph:
        graph.add_text(MUNICH, scopes=["acme"])
        graph.add_text(HAMBURG, scopes=["acme"])
    with DocumentGraph(path) as again:
        assert [line["old"]["content"] for line in again.conflicts()] == [MUNICH]
        assert again.query("Acme based") == [HAMBURG]


def test_delete_reports_everything_it_removed():
    graph = DocumentGraph(conflict_resolver=False)
    keep = graph.add_text("Marie Curie studied in Paris.")
    gone = graph.add_text("Pierre Curie taught in Paris because the Sorbonne hired him.")
    report = graph.delete(gone.text)
    assert report["docId"] == gone.fact_id and report["fact"] is True
    assert report["nodes"] == [gone.fact_id]
    assert "entity:paris" not in report["entities"]  # Marie's fact still names Paris
    assert "entity:pierre curie" in report["entities"]
    assert {e["type"] for e in report["edges"]} >= {"mentions", "causes"}
    assert all(
        gone.fact_id in (e["from"], e["to"]) or e["type"] != "mentions" for e in report["edges"]
    )
    assert graph.query("Pierre taught") == [keep.text]  # only as a fill: nothing matches
    assert graph.query_detailed("Pierre taught")[0].explanation.seeding.mode == "fill"
    assert keep.text in graph.query("Paris")
    with pytest.raises(NotFoundError):
        graph.delete(gone.fact_id)
    with pytest.raises(NotFoundError):
        graph.delete("")


def test_delete_also_removes_documents():
    graph = DocumentGraph()
    graph.add_document("# Notes\n\nThe boiler is serviced in October.", "Notes")
    report = graph.delete("notes")
    assert report["fact"] is False and report["nodes"] == ["notes"]


def test_purge_also_erases_the_ledger_and_the_vocabulary():
    graph = DocumentGraph()
    old = graph.add_text("Zebulon is based in Munich.", scopes=["z"])
    graph.add_text("Zebulon is based in Hamburg.", scopes=["z"])
    kept = graph.delete(old.fact_id)
    assert kept["ledgerEntries"] == 0 and len(graph.conflicts()) == 1  # audit kept
    newer = graph.fact("Zebulon is based in Hamburg.")
    report = graph.delete(newer.fact_id, purge_orphans=True)
    assert report["purged"] is True and report["ledgerEntries"] == 1
    assert graph.conflicts() == []
    assert "zebulon" not in graph.index.vocab and graph.index.node_ids == []
    with pytest.raises(InputError):
        graph.delete("anything", purge_orphans="yes")  # type: ignore[arg-type]


def test_stale_facts_are_forgotten():
    graph = DocumentGraph(conflict_resolver=False, forget_after=30)
    used = graph.add_text("The espresso machine is descaled on Fridays.")
    unused = graph.add_text("The old printer lives in the basement.")
    graph.query("espresso machine")  # a read: the espresso fact is used now
    later = datetime.now(UTC) + timedelta(days=20)
    assert graph.delete_stale(now=later) == []
    assert graph.delete_stale(now=later + timedelta(days=11))  # both 31 days unread
    assert graph.query("printer basement") == [] and graph.query("espresso") == []
    assert used.fact_id != unused.fact_id


def test_reading_refreshes_a_fact():
    graph = DocumentGraph(conflict_resolver=False, forget_after=1)
    tape = graph.add_text("The backup tape rotates weekly.")
    coffee = graph.add_text("The coffee budget is 40 euros.")
    stamp = datetime.now(UTC) + timedelta(days=2)
    graph.store.ledger.touch([tape.fact_id], stamp.isoformat())  # as a read two days on would
    removed = graph.delete_stale(now=stamp + timedelta(hours=12))
    assert [r["docId"] for r in removed] == [coffee.fact_id]
    assert graph.query("backup tape") == ["The backup tape rotates weekly."]


def test_maybe_forget_is_throttled_across_processes(tmp_path):
    path = tmp_path / "forget.db"
    first = DocumentGraph(path, forget_after=0, forget_every=3600)
    first.add_text("A fact that nobody reads.")
    assert len(first.maybe_forget()) == 1
    first.add_text("Another fact that nobody reads.")
    second = DocumentGraph(path, forget_after=0, forget_every=3600)
    assert second.maybe_forget() == [] and first.maybe_forget() == []
    assert DocumentGraph(path).maybe_forget() == []  # forgetting off
    eager = DocumentGraph(path, forget_after=0, forget_every=0)
    assert len(eager.maybe_forget()) == 1
    for graph in (first, second, eager):
        graph.close()


def test_the_same_supersede_twice_changes_nothing_the_second_time():
    # A retry, or a re-run after a crash (benchmarks/reliability.py found the second
    # supersedes edge): the replacement is already there.
    graph = DocumentGraph()
    graph.add_text("The pump was checked in week 1.")
    first = graph.supersede("The pump was checked in week 1.", "The pump was checked in week 2.")
    edges = sorted((e.source, e.target, e.type) for e in graph.store.reads.iter_edges())
    history = graph.supersession_history(first.fact_id).to_dict()
    again = graph.supersede("The pump was checked in week 1.", "The pump was checked in week 2.")
    assert (first.status, again.status) == ("added", "existing")
    assert again.fact_id == first.fact_id
    assert sorted((e.source, e.target, e.type) for e in graph.store.reads.iter_edges()) == edges
    assert graph.supersession_history(first.fact_id).to_dict() == history
