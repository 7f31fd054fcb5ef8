"""why_not: each diagnosis on a small guide, and its promises on random corpora."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.model import Hit
from groundgraph.model.why_not import (
    BELOW_SEED_CUTOFF,
    FOUND,
    MISSING,
    NO_COMMON_TERM,
    OUTRANKED,
    OUTSIDE_SCOPES,
    STAGES,
    WALK_STOPPED,
    WhyNot,
)

GUIDE = """# Kiln Manual
## Loading
Stack the greenware on the lower shelf with a finger's gap.
## Firing
Raise the heat slowly; a cracked pot means the firing was rushed.
## Cooling
Leave the lid shut until the kiln reads below one hundred degrees.
## Glazing
Dip bisque ware in glaze; see the Firing section for the second firing."""

BREAD = """# Bread Notes
## Starter
Feed the starter flour and water every morning.
## Proofing
Proof the dough overnight in a cool larder."""


@pytest.fixture
def graph() -> DocumentGraph:
    g = DocumentGraph()
    g.add_document(GUIDE, "Kiln Manual")
    g.add_document(BREAD, "Bread Notes")
    return g


def rank_of(hits: list[Hit], target: str) -> int | None:
    return next(
        (i for i, h in enumerate(hits, 1) if target in (h.node_id, h.doc_id)),
        None,
    )


def test_a_hit_that_came_is_found_with_its_rank(graph: DocumentGraph) -> None:
    hits = graph.search("cracked pot firing")
    found = graph.why_not("cracked pot firing", hits[1].node_id)
    assert found.stage == FOUND
    assert found.ranking is not None and found.ranking.rank == 2
    assert found.ranking.above == (hits[0].node_id,)


def test_outranked_says_its_rank_and_raising_k_brings_it(graph: DocumentGraph) -> None:
    hits = graph.search("firing glaze", max_results=50)
    target = hits[-1].node_id
    result = graph.why_not("firing glaze", target, max_results=1)
    assert result.stage == OUTRANKED and result.ranking is not None
    assert result.ranking.above == (hits[0].node_id,)
    assert result.ranking.rank == len(hits)
    cf = result.counterfactual
    assert cf is not None and cf.parameter == "max_results" and cf.rank == len(hits)


def test_a_node_past_the_hop_limit_is_walk_stopped_with_its_path(graph: DocumentGraph) -> None:
    hits = graph.search("cracked pot")
    reached = [h for h in hits if h.hops >= 1]
    assert reached, "the guide's structure edges give the walk somewhere to go"
    target = reached[-1].node_id
    result = graph.why_not("cracked pot", target, max_hops=0)
    assert result.stage == WALK_STOPPED and result.walk is not None
    walk = result.walk
    assert walk.limit == "max_hops" and walk.path[-1] == target
    assert len(walk.scores) == len(walk.path) and list(walk.scores) == sorted(walk.scores)[::-1]
    assert result.counterfactual is not None and result.counterfactual.parameter == "max_hops"


def test_a_path_under_the_threshold_says_where_it_fell(graph: DocumentGraph) -> None:
    hits = graph.search("cracked pot", min_score=0.0, max_results=50)
    weak = [h for h in hits if h.hops >= 1 and h.lexical_score == 0]
    target = min(weak, key=lambda h: h.score)
    cut = target.score + 1e-6
    result = graph.why_not("cracked pot", target.node_id, min_score=cut, max_results=50)
    assert result.stage == WALK_STOPPED and result.walk is not None
    walk = result.walk
    assert walk.limit == "min_score" and walk.stopped_at is not None
    assert walk.scores[walk.stopped_at] < cut
    assert all(s >= cut for s in walk.scores[: walk.stopped_at])


def test_no_term_in_common_lists_query_terms_and_stop_words(graph: DocumentGraph) -> None:
    result = graph.why_not("why is the pot cracked", "bread-notes#1", max_hops=0)
    assert result.stage == NO_COMMON_TERM and result.terms is not None
    assert set(result.terms.query_terms) == set(graph.terms("why is the pot cracked"))
    assert {"why", "is", "the"} <= set(result.terms.stop_words)
    assert result.terms.shared == () and result.terms.language == "english"


def test_below_the_seed_cut_off_gives_scores_and_terms() -> None:
    g = DocumentGraph(semantic_neighbors=0)
    for n in range(6):
        g.add_document(f"# Note {n}\n" + "ember " * (6 - n) + "ash " * (10 * n), f"Note {n}")
    hits = g.search("ember", max_results=50, max_seeds=1, max_hops=0)
    target = hits[-1].node_id
    result = g.why_not("ember", target, max_results=1, max_seeds=1, max_hops=0)
    assert result.stage == BELOW_SEED_CUTOFF and result.seed is not None
    seed = result.seed
    assert seed.rank is not None and seed.rank > 1
    assert seed.score is not None and seed.last_seed_score is not None
    assert seed.score < seed.last_seed_score
    assert [t.term for t in seed.terms] == ["ember"]
    # Seeding does not raise a node's own score, and nothing links the notes: more seeds
    # do not help, a longer list does.
    cf = result.counterfactual
    assert cf is not None and cf.tried[0].parameter == "max_seeds"
    assert cf.parameter == "max_results" and cf.rank == rank_of(hits, target)


def test_outside_the_documents_asked_for(graph: DocumentGraph) -> None:
    result = graph.why_not("starter flour", "bread-notes#1", doc_ids=["kiln-manual"])
    assert result.stage == OUTSIDE_SCOPES
    cf = result.counterfactual
    assert cf is not None and cf.parameter == "doc_ids" and cf.rank is not None


def test_outside_the_scopes_is_missing_as_if_never_stored() -> None:
    g = DocumentGraph()
    secret = g.add_text("The kiln plan is to fire on Friday.", scopes=["team-b"])
    open_plan = g.add_text("The open kiln plan is posted.", scopes=["team-a"])
    result = g.why_not("kiln plan", secret.fact_id, scopes=["team-a"])
    alone = DocumentGraph()
    alone.add_text("The open kiln plan is posted.", scopes=["team-a"])
    assert result == alone.why_not("kiln plan", secret.fact_id, scopes=["team-a"])
    assert result.stage == MISSING and secret.fact_id not in result.nearest
    assert result.counterfactual is not None and result.counterfactual.tried == ()
    # a target the scopes read, left out by doc_ids: outside, with no rerun past the scopes
    narrowed = g.why_not("kiln plan", open_plan.fact_id, scopes=["team-a"], doc_ids=["other"])
    assert narrowed.stage == OUTSIDE_SCOPES and "doc_ids" in narrowed.reason
    assert narrowed.counterfactual is not None and narrowed.counterfactual.tried == ()


def test_outside_the_scopes_is_as_if_it_did_not_exist() -> None:
    g = DocumentGraph()
    secret = g.add_text("The kiln plan is to fire on Friday.", scopes=["team-b"])
    shared = g.add_text("The open kiln plan is posted.", scopes=["team-a"])
    retired = g.add_text("An old kiln plan.", scopes=["team-b"]).fact_id
    g.supersede(retired, "A new kiln plan.", scopes=["team-b"])
    for hidden in (secret.fact_id, retired, "entity:friday"):
        never = hidden[:-3] + "zzz"
        result = g.why_not("kiln plan", hidden, scopes=["team-a"])
        other = g.why_not("kiln plan", never, scopes=["team-a"])
        assert result.stage == MISSING and result.node_id is None, hidden
        assert result.reason == other.reason.replace(never, hidden)
        assert set(result.nearest) | set(other.nearest) <= {shared.fact_id}
    # The scopes that hold it get the diagnosis.
    assert g.why_not("kiln plan", secret.fact_id, scopes=["team-b"]).stage != MISSING


def test_a_near_miss_id_suggests_only_what_the_scopes_read() -> None:
    g = DocumentGraph()
    secret = g.add_text("The kiln plan is to fire on Friday.", scopes=["team-b"])
    g.add_text("The open kiln plan is posted.", scopes=["team-a"])
    near_miss = secret.fact_id[:-1] + ("0" if secret.fact_id[-1] != "0" else "1")
    assert secret.fact_id in g.why_not("kiln plan", near_miss).nearest  # unscoped: all ids
    assert secret.fact_id not in g.why_not("kiln plan", near_miss, scopes=["team-a"]).nearest


def test_an_unknown_id_names_the_nearest(graph: DocumentGraph) -> None:
    result = graph.why_not("firing", "kiln-manual#22")
    assert result.stage == MISSING and result.node_id is None
    assert result.nearest and all(n.startswith("kiln-manual") for n in result.nearest)


def test_an_entity_is_not_a_search_result(graph: DocumentGraph) -> None:
    graph.add_document("# Potters\n## Bernard Leach\nBernard Leach built a kiln.", "Potters")
    edges = graph.store.reads.edges_touching(["potters#1"])
    entity = next(e.target for e in edges if e.target.startswith("entity:"))
    result = graph.why_not("kiln", entity)
    assert result.stage == MISSING and "entity" in result.reason


def test_bad_input_is_refused(graph: DocumentGraph) -> None:
    with pytest.raises(InputError):
        graph.why_not("firing", "")
    with pytest.raises(InputError):
        graph.why_not("firing", "x" * 5000)
    with pytest.raises(InputTooLargeError):
        graph.why_not("firing " * 3000, "kiln-manual#1")
    with pytest.raises(InputError):
        graph.why_not("firing", "kiln-manual#1", max_results=0)


def test_the_json_form_round_trips_through_json(graph: DocumentGraph) -> None:
    import json

    result = graph.why_not("cracked pot", "bread-notes#2", max_hops=0)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["stage"] == result.stage and data["counterfactual"]["tried"] is not None


# ----------------------------------------------------------------- promises
_WORDS = ["kiln", "glaze", "clay", "ember", "flour", "yeast", "shelf", "lid", "pot", "ash"]
_SECTIONS = st.lists(
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=6).map(" ".join),
    min_size=1,
    max_size=4,
)
_CORPUS = st.lists(_SECTIONS, min_size=1, max_size=4)
_QUERY = st.lists(st.sampled_from([*_WORDS, "the", "why", "zebra"]), min_size=1, max_size=3)
_OPTIONS = st.fixed_dictionaries(
    {
        "max_results": st.integers(1, 4),
        "max_seeds": st.integers(0, 3),
        "max_hops": st.integers(0, 2),
        "min_score": st.sampled_from([0.1, 0.3, 0.6]),
    }
)


def _build(corpus: list[list[str]]) -> DocumentGraph:
    g = DocumentGraph()
    for d, sections in enumerate(corpus):
        body = "\n".join(f"## Part {d}{s}\n{text}" for s, text in enumerate(sections))
        g.add_document(f"# Doc {d}\n{body}", f"Doc {d}")
    return g


def _check(g: DocumentGraph, query: str, target: str, options: dict[str, Any]) -> WhyNot:
    result = g.why_not(query, target, **options)
    assert result.stage in STAGES
    hits = g.search(query, **options)
    assert (result.stage == FOUND) == (rank_of(hits, target) is not None)
    if result.stage == OUTRANKED:
        assert result.ranking is not None
        raised = {**options, "max_results": result.ranking.rank}
        assert rank_of(g.search(query, **raised), target) == result.ranking.rank
    if result.stage == NO_COMMON_TERM:
        node = g.node(target)
        assert not set(g.terms(query)) & set(g.terms(f"{node.title} {node.content}"))
    if result.stage == WALK_STOPPED and result.walk is not None and result.walk.path:
        walk = result.walk
        assert walk.path[-1] == result.node_id and len(walk.scores) == len(walk.path)
        assert all(a >= b for a, b in zip(walk.scores, walk.scores[1:], strict=False))
        if walk.limit == "min_score":
            assert walk.stopped_at is not None and walk.scores[walk.stopped_at] < walk.min_score
        if walk.limit == "max_hops":
            assert len(walk.path) - 1 > options["max_hops"]
    if result.stage == BELOW_SEED_CUTOFF and result.seed and result.seed.rank is not None:
        assert result.seed.rank > options["max_seeds"]
    cf = result.counterfactual
    if cf is not None and cf.parameter is not None:
        assert cf.parameter in options or cf.parameter in ("max_activated", "search_mode")
        changed = {**options, cf.parameter: cf.value}
        assert rank_of(g.search(query, **changed), target) == cf.rank
        assert cf.rank is not None and cf.rank <= changed["max_results"]
    if cf is not None:
        for trial in cf.tried[:-1] if cf.parameter is not None else cf.tried:
            assert trial.rank is None
    return result


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_CORPUS, _QUERY, st.data(), _OPTIONS)
def test_every_diagnosis_keeps_its_promises(
    corpus: list[list[str]], query: list[str], data: st.DataObject, options: dict[str, Any]
) -> None:
    g = _build(corpus)
    nodes = sorted(n for n in g.index.position if not g.index.is_blank(g.index.position[n]))
    target = data.draw(st.sampled_from(nodes))
    _check(g, " ".join(query), target, options)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_CORPUS, _QUERY, _OPTIONS)
def test_a_document_target_counts_any_of_its_nodes(
    corpus: list[list[str]], query: list[str], options: dict[str, Any]
) -> None:
    g = _build(corpus)
    _check(g, " ".join(query), "doc-0", options)
