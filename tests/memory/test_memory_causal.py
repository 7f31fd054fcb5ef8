"""Causal reasoning over memory: traces, root causes, chains and what-if, each hop cited."""

from __future__ import annotations

import pytest

from groundgraph import DocumentGraph, InputError, NotFoundError

RAIN = "Heavy rainfall caused flooding."
FLOOD = "Flooding caused power outages."
OUTAGE = "Power outages caused hospital disruptions."
SURGE = "A storm surge caused flooding."
ROADS = "Flooding led to road closures."
SLIDES = "Flooding caused landslides."
SLIDE_OUTAGE = "Landslides caused power outages."


@pytest.fixture
def memory() -> DocumentGraph:
    graph = DocumentGraph(conflict_resolver=False)
    for text, scope in ((RAIN, "weather"), (FLOOD, "grid"), (OUTAGE, "health"), (SURGE, "coast")):
        graph.add_text(text, scopes=[scope])
    graph.add_text(ROADS, scopes=["roads"])
    return graph


def _pairs(chain):
    return [(h["cause"], h["effect"], h["fact"], h["depth"]) for h in chain]


def test_trace_effects_follows_chains_across_facts_and_scopes(memory):
    found = memory.trace_effects(RAIN, scopes=["weather"])
    assert found["origin"] == RAIN and found["direction"] == "effects"
    assert _pairs(found["chain"]) == [
        ("Heavy rainfall", "flooding", RAIN, 0),
        ("Flooding", "power outages", FLOOD, 1),
        ("Flooding", "road closures", ROADS, 1),
        ("Power outages", "hospital disruptions", OUTAGE, 2),
    ]
    assert [h["crossScope"] for h in found["chain"]] == [False, True, True, True]
    # A hop reached in another scope names none of that scope: scope names are data too.
    assert [h["scopes"] for h in found["chain"]] == [["weather"], [], [], []]
    assert memory.trace_effects(RAIN)["chain"][1]["scopes"] == ["grid"]  # an unscoped read
    assert found["terminals"] == ["road closures", "hospital disruptions"]
    assert found["truncated"] is False
    assert found["chain"][1]["factId"] == memory.fact(FLOOD).fact_id


def test_trace_causes_and_root_causes(memory):
    found = memory.trace_causes(OUTAGE)
    assert {h["fact"] for h in found["chain"]} == {OUTAGE, FLOOD, RAIN, SURGE}
    assert sorted(found["terminals"]) == ["A storm surge", "Heavy rainfall"]
    assert sorted(memory.root_causes(OUTAGE)) == ["A storm surge", "Heavy rainfall"]
    # A cause or effect phrase works as the origin too.
    assert sorted(memory.root_causes("hospital disruptions")) == ["A storm surge", "Heavy rainfall"]


def test_max_depth_cuts_and_says_so(memory):
    found = memory.trace_effects(RAIN, max_depth=2)
    assert max(h["depth"] for h in found["chain"]) == 1 and found["truncated"] is True
    assert "hospital disruptions" not in found["terminals"]
    assert memory.trace_effects(RAIN, max_visited=1)["truncated"] is True


def test_isolation_confines_traces(memory):
    found = memory.trace_effects(RAIN, scopes=["weather"], isolate=True)
    assert _pairs(found["chain"]) == [("Heavy rainfall", "flooding", RAIN, 0)]
    assert found["terminals"] == ["flooding"]
    with pytest.raises(NotFoundError):
        memory.trace_effects(FLOOD, scopes=["weather"], isolate=True)
    with pytest.raises(NotFoundError):  # not a seed of the weather scope either
        memory.trace_effects(FLOOD, scopes=["weather"])


def test_causal_chain_orders_hops_and_cites_them(memory):
    hops = memory.causal_chain(RAIN, OUTAGE)
    assert _pairs(hops) == [
        ("Heavy rainfall", "flooding", RAIN, 0),
        ("Flooding", "power outages", FLOOD, 1),
        ("Power outages", "hospital disruptions", OUTAGE, 2),
    ]
    assert memory.causal_chain(OUTAGE, RAIN) is None  # causes run one way
    assert memory.causal_chain(RAIN, OUTAGE, max_depth=2) is None
    assert memory.causal_chain(RAIN, "hospital disruptions")[-1]["fact"] == OUTAGE
    with pytest.raises(NotFoundError):
        memory.causal_chain(RAIN, OUTAGE, scopes=["weather"], isolate=True)


def test_what_if_collapses_what_only_the_pruned_fact_supports(memory):
    result = memory.what_if(FLOOD)
    assert result["pruned"] == FLOOD and result["origin"] == FLOOD
    assert result["prunedEdges"] == [
        {"cause": "Flooding", "effect": "power outages", "factId": memory.fact(FLOOD).fact_id}
    ]
    assert [(c["span"], c["fact"], c["depth"]) for c in result["collapsed"]] == [
        ("power outages", FLOOD, 0),
        ("hospital disruptions", OUTAGE, 1),
    ]
    assert result["survived"] == []


def test_what_if_keeps_what_another_path_or_fact_supports(memory):
    memory.add_text(SLIDES, scopes=["roads"])
    memory.add_text(SLIDE_OUTAGE, scopes=["grid"])
    result = memory.what_if(FLOOD, origin=RAIN)
    assert result["origin"] == RAIN
    assert [c["span"] for c in result["collapsed"]] == []
    survived = {s["span"]: s for s in result["survived"]}
    assert set(survived) == {"power outages", "hospital disruptions"}
    assert survived["power outages"]["fact"] == SLIDE_OUTAGE


def test_a_pair_two_facts_assert_survives_pruning_one(memory):
    other = memory.add_text("Power outages were caused by flooding.", scopes=["grid"])
    assert other.causes == (("flooding", "Power outages"),)
    result = memory.what_if(FLOOD, origin=RAIN)
    assert result["prunedEdges"] == [] and result["collapsed"] == []
    assert memory.what_if(other.fact_id, origin=RAIN)["collapsed"] == []


def test_what_if_upstream(memory):
    result = memory.what_if(FLOOD, direction="causes", origin=OUTAGE)
    assert [c["span"] for c in result["collapsed"]] == [
        "Flooding",
        "A storm surge",
        "Heavy rainfall",
    ]
    with pytest.raises(InputError):
        memory.what_if(FLOOD, direction="sideways")


def test_what_if_never_writes(memory):
    before = memory.store.changes.generation()
    dump = [list(memory.store.reads.iter_edges()), memory.store.ledger.access_times()]
    memory.what_if(RAIN)
    memory.what_if(FLOOD, origin=RAIN, direction="effects")
    assert memory.store.changes.generation() == before
    assert [list(memory.store.reads.iter_edges()), memory.store.ledger.access_times()] == dump


def test_retired_facts_leave_traces_unless_asked_for():
    graph = DocumentGraph(conflict_resolver=False)
    graph.add_text(RAIN)
    graph.add_text(FLOOD)
    graph.supersede(FLOOD, "Flooding caused brief power dips.")
    effects = [h["effect"] for h in graph.trace_effects(RAIN)["chain"]]
    assert effects == ["flooding", "brief power dips"]
    everything = graph.trace_effects(RAIN, include_superseded=True)
    assert {h["effect"] for h in everything["chain"]} == {
        "flooding",
        "power outages",
        "brief power dips",
    }


@pytest.mark.parametrize(
    "call",
    [
        lambda g: g.trace_effects("nothing like this is stored"),
        lambda g: g.trace_causes("fact:0000000000000000"),
        lambda g: g.what_if("not a fact at all"),
        lambda g: g.what_if(RAIN, origin="no such origin"),
        lambda g: g.causal_chain(RAIN, "no such end"),
    ],
)
def test_unknown_origins_are_not_found(memory, call):
    with pytest.raises(NotFoundError):
        call(memory)


@pytest.mark.parametrize("kwargs", [{"max_depth": 0}, {"max_depth": "6"}, {"max_visited": 0}])
def test_bad_causal_options(memory, kwargs):
    with pytest.raises(InputError):
        memory.trace_effects(RAIN, **kwargs)


def test_causal_extraction_can_be_turned_off():
    graph = DocumentGraph(causal_extractor=False)
    assert graph.add_text(RAIN).causes == ()
    with pytest.raises(InputError, match="causal_extractor=False"):
        graph.add_text(FLOOD, causal=True)
    on = DocumentGraph()
    assert on.add_text(RAIN, causal=False).causes == ()
    with pytest.raises(InputError, match="CausalPair"):
        on.add_text(FLOOD, causal=lambda text: [("flooding", "outages")])


def test_spans_in_other_words_still_chain():
    graph = DocumentGraph(conflict_resolver=False)
    graph.add_texts([RAIN, FLOOD, "Long power outages led to heavy crop losses."])
    graph.add_text("Crop losses caused price rises.")
    chain = graph.trace_effects(RAIN)["chain"]
    assert [(h["cause"], h["effect"]) for h in chain] == [
        ("Heavy rainfall", "flooding"),
        ("Flooding", "power outages"),
        ("Long power outages", "heavy crop losses"),
        ("Crop losses", "price rises"),
    ]
    third = graph.query_detailed("heavy rainfall", top_k=4)[2]
    assert "same-span" in third["explanation"]["edgeTypes"]
    assert graph.causal_chain(RAIN, "Crop losses caused price rises.")[-1]["depth"] == 3
