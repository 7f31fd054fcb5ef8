"""A fact that lives in several scopes leaves one of them without changing the others.

One sentence pushed in two scopes is one fact. Deleting it in one scope
(``delete(fact, scopes=...)``) or contradicting it there takes that scope away and keeps
the fact valid where it also lives; ``as_of`` replays the withdrawal, and the other scope's
history shows no trace of it.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from groundgraph import DocumentGraph, NotFoundError
from groundgraph.memory.timeline import SCOPED, WITHDRAWN, FactEvent, FactState

SHARED = "The Atlas rollout runs in Lisbon."
CHANGE = "The Atlas rollout moved to Porto."


def _graph() -> DocumentGraph:
    graph = DocumentGraph(":memory:")
    graph.add_text(SHARED, scopes=["a"])
    graph.add_text(SHARED, scopes=["b"])
    return graph


def test_a_contradiction_in_one_scope_leaves_the_shared_sentence_valid_in_the_other():
    graph = _graph()
    before = graph.fact(SHARED).created_at
    new = graph.add_text(CHANGE, scopes=["a"], resolve_conflicts=True)
    old = graph.fact(SHARED)
    assert old.invalid_at is None and old.scopes == ("b",)
    assert new.superseded == (old.fact_id,)
    assert graph.query("Atlas rollout", scopes=["b"], isolate=True) == [SHARED]
    assert SHARED not in graph.query("Atlas rollout", scopes=["a"], isolate=True)
    assert SHARED in graph.query("Atlas rollout", scopes=["a"], isolate=True, as_of=before)


def test_a_contradiction_retires_a_fact_that_lives_only_in_the_new_facts_scopes():
    graph = DocumentGraph(":memory:")
    graph.add_text(SHARED, scopes=["a"])
    graph.add_text(CHANGE, scopes=["a"], resolve_conflicts=True)
    assert graph.fact(SHARED).invalid_at is not None


def test_delete_in_some_scopes_withdraws_then_deletes_in_the_last():
    graph = _graph()
    report = graph.delete(SHARED, scopes=["a"])
    assert report.withdrawn == ("a",) and report.nodes == ()
    assert graph.fact(SHARED).scopes == ("b",)
    try:
        graph.delete(SHARED, scopes=["a"])
    except NotFoundError as error:
        assert "not in the scopes" in str(error)
    else:
        raise AssertionError("a second withdrawal from the same scope must say it is not there")
    gone = graph.delete(SHARED, scopes=["b"])
    assert gone.nodes and gone.withdrawn == ()
    assert graph.query("Atlas rollout") == []


def test_a_scopes_history_shows_only_its_own_scope_changes():
    graph = DocumentGraph(":memory:")
    graph.add_text(SHARED, scopes=["b"])
    graph.add_text(SHARED, scopes=["a"])
    graph.delete(SHARED, scopes=["a"])
    assert graph.supersession_history(SHARED, scopes=["b"]).events == ()
    everything = [(e.kind, e.scopes) for e in graph.supersession_history(SHARED).events]
    assert everything == [(SCOPED, ("a",)), (WITHDRAWN, ("a",))]


_SCOPE = st.sampled_from(["a", "b", "c", "d"])
_STEP = st.tuples(st.booleans(), st.frozensets(_SCOPE, min_size=1, max_size=2))


@given(st.frozensets(_SCOPE, min_size=1), st.lists(_STEP, max_size=8), st.integers(0, 8))
def test_as_of_replays_any_run_of_additions_and_withdrawals(first, steps, cut):
    # Forward: the scopes after each step; backward: FactState.at from the final state.
    scopes = set(first)
    seen = [set(scopes)]
    events = []
    for i, (adds, names) in enumerate(steps):
        change = names - scopes if adds else names & scopes
        if adds:
            scopes |= change
        else:
            scopes -= change
        if change:
            kind = SCOPED if adds else WITHDRAWN
            events.append(FactEvent("fact:x", kind, f"t{i + 1:02d}", tuple(sorted(change))))
        seen.append(set(scopes))
    state = FactState("fact:x", "x", "t00", tuple(sorted(scopes)), None, events=events)
    moment = f"t{min(cut, len(steps)):02d}"
    at = state.at(moment)
    assert at is not None
    assert set(at[0]) == seen[min(cut, len(steps))]


def test_a_scope_that_pushed_a_sentence_later_sees_its_own_push_time():
    graph = DocumentGraph(":memory:")
    graph.add_text(SHARED, scopes=["a"])
    first = graph.fact(SHARED).created_at
    graph.add_text(SHARED, scopes=["b"])
    (joined,) = [e.at for e in graph.supersession_history(SHARED).events if e.kind == SCOPED]
    for scope, when in (("a", first), ("b", joined)):
        (hit,) = graph.query_detailed("Atlas rollout", scopes=[scope], isolate=True)
        assert hit.created_at == when
        history = graph.supersession_history(SHARED, scopes=[scope])
        assert history.fact.created_at == when and history.events == ()
    (everyone,) = graph.query_detailed("Atlas rollout")
    assert everyone.created_at == first
