"""The walk's arcs in memory (walk.adjacency) against the store's walk_arcs: the same arcs
for every node and bound, and so the same walks, on generated graphs with hubs, pages many
pages point to, retired edges, self-loops and parallel edges."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph.model import Document, Edge, Node
from groundgraph.store import SQLiteStore
from groundgraph.walk.adjacency import WalkAdjacency
from groundgraph.walk.dijkstra import HUB_PREFIX, WalkParams, arcs_from_steps, walk_from_seeds

TYPES = ["parent-child", "next", "reference", "semantic", "mentions", "co-occurs"]
WEIGHTS = [0.15, 0.3, 0.4, 0.5, 0.75, 0.8, 0.9, 1.0]
STAMP = "2026-01-01T00:00:00+00:00"


@st.composite
def stored_graphs(draw: st.DrawFn) -> tuple[SQLiteStore, list[str]]:
    """A store holding one document whose nodes are sections and (by their ids) entities,
    with edges drawn between them: some retired, some self-loops, some parallel."""
    sections = [f"g#{i}" for i in range(draw(st.integers(1, 10)))]
    entities = [f"{HUB_PREFIX}e{i}" for i in range(draw(st.integers(0, 3)))]
    names = ["g", *sections, *entities]
    edge = st.builds(
        lambda a, b, kind, weight, retired: Edge(
            a, b, kind, weight, invalid_at=STAMP if retired else None
        ),
        st.sampled_from(names),
        st.sampled_from(names),
        st.sampled_from(TYPES),
        st.sampled_from(WEIGHTS),
        st.booleans() if draw(st.booleans()) else st.just(False),
    )
    edges = draw(st.lists(edge, max_size=40))
    # A hub: an entity named by many sections (more than HUB_DEGREE steps: damped).
    if entities and draw(st.booleans()):
        edges += [Edge(s, entities[0], "mentions", 0.5) for s in sections]
        edges += [Edge(entities[0], s, "co-occurs", 0.4) for s in sections[:5]]
    store = SQLiteStore(":memory:")
    nodes = [Node("g", "g", "document", "G", "")]
    nodes += [Node(n, "g", "section", n, "") for n in names[1:]]
    store.writes.replace_document(Document("g", "G"), nodes, edges)
    return store, names


def store_arcs(store, names, weakest, max_fanout, max_fan_in):
    steps = store.reads.walk_arcs(names, max_fanout, HUB_PREFIX, weakest, max_fan_in)
    return arcs_from_steps(steps, names)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    stored_graphs(),
    st.sampled_from([0.0, 0.2, 0.35, 0.5, 0.8, 1.0]),
    st.integers(1, 20),
    st.none() | st.integers(0, 6),
)
def test_the_adjacency_gives_the_stores_arcs(graph, weakest, max_fanout, max_fan_in):
    # Every arc that weighs ``weakest`` or more (a hub's after damping), for every node,
    # whatever the caps; a node the store does not hold has none.
    store, names = graph
    adjacency = WalkAdjacency.build(store.reads.edge_columns(), max_fanout, HUB_PREFIX, max_fan_in)
    assert adjacency.generation == store.changes.generation()
    want = store_arcs(store, names, weakest, max_fanout, max_fan_in)
    got = adjacency.arcs([*names, "missing"], weakest)
    assert got.pop("missing") == []
    for name in names:
        assert sorted(got[name]) == sorted(a for a in want[name] if a.weight >= weakest)
        weights = [a.weight for a in got[name]]
        assert weights == sorted(weights, reverse=True)  # heaviest first


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stored_graphs(), st.integers(0, 3), st.integers(1, 12), st.data())
def test_a_walk_over_the_adjacency_is_the_walk_over_the_store(graph, max_hops, cap, data):
    # Same nodes, scores, hops, paths and edge types, whatever the seeds, hops and cap;
    # the store walk fetches in batches, the memory walk one node at a time.
    store, names = graph
    seeds = data.draw(
        st.dictionaries(st.sampled_from(names), st.sampled_from([0.2, 0.5, 1.0]), min_size=1)
    )
    params = WalkParams(max_hops=max_hops, max_activated=cap)
    adjacency = WalkAdjacency.build(store.reads.edge_columns())

    def from_store(ids, weakest):
        return store_arcs(store, ids, weakest, 64, 256)

    through_store = walk_from_seeds(seeds, from_store, params)
    in_memory = walk_from_seeds(seeds, adjacency.arcs, params, prefetch=False)
    assert in_memory == through_store


def test_a_hubs_steps_are_damped_and_a_common_ones_silent():
    store = SQLiteStore(":memory:")
    sections = [f"g#{i}" for i in range(70)]
    nodes = [Node("g", "g", "document", "G", ""), Node("entity:x", "g", "section", "x", "")]
    nodes += [Node(s, "g", "section", s, "") for s in sections]
    edges = [Edge(s, "entity:x", "mentions", 0.7) for s in sections[:16]]
    store.writes.replace_document(Document("g", "G"), nodes, edges)
    hub = WalkAdjacency.build(store.reads.edge_columns()).arcs(["entity:x"], 0.0)["entity:x"]
    assert len(hub) == 16 and {a.weight for a in hub} == {0.7 * (8 / 16) ** 0.5}
    edges = [Edge(s, "entity:x", "mentions", 0.7) for s in sections]  # 70 > 64 edges
    store.writes.replace_document(Document("g", "G"), nodes, edges)
    silent = WalkAdjacency.build(store.reads.edge_columns()).arcs(["entity:x", "g#0"], 0.0)
    assert silent["entity:x"] == [] and [a.target for a in silent["g#0"]] == ["entity:x"]
