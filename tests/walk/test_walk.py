"""The bounded walk: exact hop-bounded best paths, checked against brute force."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.model import Edge
from groundgraph.walk.dijkstra import MAX_FAN_IN, WalkParams, arcs_from_edges, walk_from_seeds

TYPES = ["parent-child", "next", "reference", "semantic"]


@st.composite
def graphs(draw):
    n = draw(st.integers(2, 9))
    names = [f"n{i}" for i in range(n)]
    pairs = list(itertools.combinations(names, 2))
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    edges = []
    for a, b in chosen:
        if draw(st.booleans()):
            a, b = b, a
        weight = draw(st.sampled_from([0.3, 0.4, 0.75, 0.8, 0.9]))
        edges.append(Edge(a, b, draw(st.sampled_from(TYPES)), weight))
    seeds = draw(
        st.dictionaries(st.sampled_from(names), st.sampled_from([0.2, 0.5, 1.0]), min_size=1)
    )
    return names, edges, seeds


def brute_force(names, edges, seeds, p):
    """Best score over every simple path of at most max_hops steps from any seed."""
    arcs = arcs_from_edges(edges, names)
    best = {}

    def extend(node, score, hops, path):
        if score > best.get(node, 0.0):
            best[node] = score
        if hops == p.max_hops:
            return
        for arc in arcs[node]:
            if arc.target in path:
                continue
            nxt = score * arc.weight * p.damping * (p.up_factor if arc.upward else 1.0)
            if nxt >= p.min_score:
                extend(arc.target, nxt, hops + 1, (*path, arc.target))

    for seed, score in seeds.items():
        extend(seed, score, 0, (seed,))
    return best


@settings(max_examples=300, deadline=None)
@given(graphs(), st.integers(0, 3))
def test_walk_finds_the_best_hop_bounded_paths(graph, max_hops):
    names, edges, seeds = graph
    params = WalkParams(max_hops=max_hops)
    arcs = arcs_from_edges(edges, names)
    reached = walk_from_seeds(seeds, lambda ids, _: {i: arcs[i] for i in ids}, params)
    want = brute_force(names, edges, seeds, params)
    assert set(reached) == set(want)
    for node, hit in reached.items():
        assert abs(hit.score - want[node]) < 1e-12
        assert hit.hops <= max_hops


@settings(max_examples=200, deadline=None)
@given(graphs(), st.integers(1, 200))
def test_every_path_follows_real_edges_and_scores_add_up(graph, cap):
    names, edges, seeds = graph
    params = WalkParams(max_activated=cap)
    arcs = arcs_from_edges(edges, names)
    reached = walk_from_seeds(seeds, lambda ids, _: {i: arcs[i] for i in ids}, params)
    for hit in reached.values():
        assert hit.path[0] in seeds and hit.path[-1] == hit.node_id
        assert len(hit.path) == hit.hops + 1 == len(hit.edge_types) + 1
        score = seeds[hit.path[0]]
        for a, b, kind in zip(hit.path[:-1], hit.path[1:], hit.edge_types, strict=True):
            options = [x for x in arcs[a] if x.target == b and x.type == kind]
            assert options, f"{a}->{b} ({kind}) is not an edge"
            arc = max(options, key=lambda x: x.weight * (params.up_factor if x.upward else 1))
            score *= arc.weight * params.damping * (params.up_factor if arc.upward else 1.0)
        assert abs(score - hit.score) < 1e-12


def test_child_to_parent_counts_half():
    edges = [Edge("root", "a", "parent-child", 0.8), Edge("root", "b", "parent-child", 0.8)]
    arcs = arcs_from_edges(edges, ["root", "a", "b"])
    reached = walk_from_seeds({"a": 1.0}, lambda ids, _: {i: arcs[i] for i in ids})
    assert abs(reached["root"].score - 0.8 * 0.5 * 0.85) < 1e-12
    assert abs(reached["b"].score - 0.34 * 0.8 * 0.85) < 1e-12
    assert reached["b"].path == ("a", "root", "b")


def test_cap_keeps_the_strongest_nodes():
    edges = [Edge("hub", f"leaf{i:02d}", "semantic", 0.3 + i / 100) for i in range(50)]
    names = ["hub"] + [f"leaf{i:02d}" for i in range(50)]
    arcs = arcs_from_edges(edges, names)
    reached = walk_from_seeds(
        {"hub": 1.0}, lambda ids, _: {i: arcs[i] for i in ids}, WalkParams(max_activated=6)
    )
    assert len(reached) == 6
    assert set(reached) == {"hub"} | {f"leaf{i:02d}" for i in range(45, 50)}


def test_superseded_edges_are_not_walked():
    edges = [Edge("a", "b", "next", 0.4, invalid_at="2026-01-01T00:00:00+00:00")]
    arcs = arcs_from_edges(edges, ["a", "b"])
    assert walk_from_seeds({"a": 1.0}, lambda ids, _: {i: arcs[i] for i in ids}).keys() == {"a"}


def test_entity_hubs_are_damped_and_too_common_ones_silent():
    edges = [Edge(f"s{i:03d}", "entity:harbor", "mentions", 0.7) for i in range(200)]
    arcs = arcs_from_edges(edges[:40], ["entity:harbor", "s000"])
    hub = arcs["entity:harbor"]
    assert len(hub) == 40
    assert all(abs(a.weight - 0.7 * (8 / 40) ** 0.5) < 1e-12 for a in hub)
    assert [a.weight for a in arcs["s000"]] == [0.7]  # a section's own step is not damped
    assert arcs_from_edges(edges, ["entity:harbor"])["entity:harbor"] == []
    few = arcs_from_edges(edges[:8], ["entity:harbor"])["entity:harbor"]
    assert [a.weight for a in few] == [0.7] * 8


def full(arcs):
    return lambda ids, _: {i: arcs[i] for i in ids}


def dropping_light(arcs, asked):
    """A neighbour function that leaves out every arc lighter than the walk allows, and
    records what it was asked."""

    def neighbours(ids, weakest):
        asked.append((tuple(ids), weakest))
        return {i: [a for a in arcs[i] if a.weight >= weakest] for i in ids}

    return neighbours


@settings(max_examples=400, deadline=None)
@given(graphs(), st.integers(1, 3), st.integers(1, 8), st.booleans(), st.data())
def test_the_bound_changes_nothing_but_the_work(graph, max_hops, cap, prefetch, data):
    # The bounded walk, given only the arcs heavier than it asks for, settles the same
    # nodes with the same scores, hops, paths and edge types as the unbounded walk given
    # every arc, whatever the cap (a small cap makes the bound bite early), with targets
    # to stop at or without.
    names, edges, seeds = graph
    targets = data.draw(st.none() | st.sets(st.sampled_from(names), min_size=1))
    params = WalkParams(max_hops=max_hops, max_activated=cap)
    arcs = arcs_from_edges(edges, names)
    unbounded = walk_from_seeds(
        seeds, full(arcs), params, targets=targets, prefetch=prefetch, bounded=False
    )
    asked: list[tuple[tuple[str, ...], float]] = []
    neighbours = dropping_light(arcs, asked)
    bounded = walk_from_seeds(seeds, neighbours, params, targets=targets, prefetch=prefetch)
    assert bounded == unbounded
    loaded = [node for ids, _ in asked for node in ids]
    assert len(loaded) == len(set(loaded))  # no node is asked for twice


@settings(max_examples=200, deadline=None)
@given(graphs(), st.integers(1, 8))
def test_the_bound_keeps_the_strongest_nodes(graph, cap):
    # With a cap, the walk keeps the ``cap`` nodes of best hop-bounded score (brute
    # force): no node left out scores more than one kept.
    names, edges, seeds = graph
    params = WalkParams(max_activated=cap)
    arcs = arcs_from_edges(edges, names)
    reached = walk_from_seeds(seeds, full(arcs), params)
    want = brute_force(names, edges, seeds, params)
    assert len(reached) == min(cap, len(want))
    for node, hit in reached.items():
        assert abs(hit.score - want[node]) < 1e-12
    weakest_kept = min(hit.score for hit in reached.values())
    assert all(score <= weakest_kept + 1e-12 for n, score in want.items() if n not in reached)


def test_nodes_that_cannot_lead_anywhere_kept_are_never_loaded():
    # The seed's arcs already name four nodes, the cap: a, b (0.765), c (0.7225) and
    # d (0.68). Any step from b, c or d scores below d, so the bounded walk asks for the
    # seed's arcs alone; the unbounded one asks for theirs too.
    edges = [
        Edge("a", "b", "semantic", 0.9),
        Edge("a", "c", "semantic", 0.85),
        Edge("a", "d", "semantic", 0.8),
        Edge("b", "e", "semantic", 0.9),
        Edge("c", "f", "semantic", 0.9),
        Edge("d", "g", "semantic", 0.9),
    ]
    arcs = arcs_from_edges(edges, "abcdefg")
    params = WalkParams(max_activated=4)
    for bounded, want in ((True, ["a"]), (False, ["a", "b", "c", "d"])):
        asked: list[tuple[tuple[str, ...], float]] = []
        walk = dropping_light(arcs, asked)
        reached = walk_from_seeds({"a": 1.0}, walk, params, prefetch=False, bounded=bounded)
        assert set(reached) == {"a", "b", "c", "d"}
        assert [node for ids, _ in asked for node in ids] == want


def test_a_page_many_pages_name_gives_no_steps_back_to_them():
    names = [f"s{i:03d}" for i in range(MAX_FAN_IN + 1)]
    edges = [Edge(n, "doc-list", "reference", 0.75) for n in names]
    edges.append(Edge("doc-list", "doc-list#1", "parent-child", 0.8))
    arcs = arcs_from_edges(edges, ["doc-list", "s000"])
    assert [(a.target, a.upward) for a in arcs["doc-list"]] == [("doc-list#1", False)]
    assert [a.target for a in arcs["s000"]] == ["doc-list"]  # the step to it stays
    few = arcs_from_edges(edges[1:], ["doc-list"])["doc-list"]
    assert len(few) == MAX_FAN_IN + 1  # MAX_FAN_IN referrers and its section
