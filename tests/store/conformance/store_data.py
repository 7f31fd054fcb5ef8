"""Documents, nodes and edges the store conformance tests write, and hypothesis
strategies for them."""

from __future__ import annotations

from hypothesis import strategies as st

from groundgraph.model import Document, Edge, Node

STAMP = "2025-01-01T00:00:00.000000+00:00"
LATER = "2025-02-01T00:00:00.000000+00:00"


def doc(
    doc_id: str,
    n: int = 2,
    extra_edges: tuple[Edge, ...] = (),
    entities: tuple[str, ...] = (),
) -> tuple[Document, list[Node], list[Edge], list[Node]]:
    """A document root with ``n`` sections under it, its parent-child edges, and a
    ``mentions`` edge from its first section to each of ``entities`` (entity ids)."""
    nodes = [Node(doc_id, doc_id, "document", doc_id.title(), "")]
    nodes += [
        Node(f"{doc_id}#{i}", doc_id, "section", f"S{i}", f"text {i}", 2, doc_id, (i, i + 6))
        for i in range(1, n + 1)
    ]
    edges = [Edge(doc_id, f"{doc_id}#{i}", "parent-child", 0.8) for i in range(1, n + 1)]
    edges += [Edge(f"{doc_id}#1", e, "mentions", 0.5, (f"{doc_id}#1",)) for e in entities]
    edges += extra_edges
    found = [Node(e, "", "entity", e.removeprefix("entity:").title(), "") for e in entities]
    return Document(doc_id, doc_id.title()), nodes, edges, found


def column_edges(columns) -> list[tuple[str, str, str, float, bool]]:
    """The edges of ``GraphReads.edge_columns``'s columns as sorted (source, target, type,
    weight, valid) rows: what two reads of the same edges must agree on."""
    ids, types = columns.node_ids, columns.types
    return sorted(
        (ids[s], ids[t], types[k], w, bool(v))
        for s, t, k, w, v in zip(
            columns.source.tolist(),
            columns.target.tolist(),
            columns.type_code.tolist(),
            columns.weight.tolist(),
            columns.valid.tolist(),
            strict=True,
        )
    )


def write(store, doc_id: str, n: int = 2, **options) -> tuple[int, object]:
    """Write :func:`doc` ``(doc_id, n, ...)``; the store's (generation, removal)."""
    document, nodes, edges, entities = doc(doc_id, n, **options)
    return store.writes.replace_document(document, nodes, edges, entities=entities)


def everything(store) -> dict[str, object]:
    """All a store holds of the graph, as plain values, to compare two states."""
    return {
        "documents": store.reads.documents(),
        "nodes": {d.doc_id: store.reads.document_nodes(d.doc_id) for d in store.reads.documents()},
        "entities": store.reads.entity_nodes(),
        "edges": list(store.reads.iter_edges()),
        "counts": store.reads.counts(),
        "node_counts": store.reads.node_counts(),
    }


texts = st.text(st.characters(codec="utf-8"), max_size=30)
ids = st.text("abcdefgh-_é#", min_size=1, max_size=8)
stamps = st.sampled_from([STAMP, LATER])
scopes = st.lists(texts, max_size=3, unique=True).map(tuple)


@st.composite
def documents(draw: st.DrawFn, doc_id: str) -> tuple[Document, list[Node], list[Edge]]:
    """A document with arbitrary fields, nodes and edges among its own nodes, every
    field set (so what is read back must equal what was written)."""
    document = Document(
        doc_id, draw(texts), draw(texts), draw(texts), draw(texts), draw(scopes), draw(stamps)
    )
    names = [doc_id] + [f"{doc_id}#{x}" for x in draw(st.lists(ids, max_size=5, unique=True))]
    nodes = [
        Node(
            name,
            doc_id,
            draw(st.sampled_from(["document", "section", "fact"])),
            draw(texts),
            draw(texts),
            draw(st.integers(0, 6)),
            draw(st.none() | st.sampled_from(names)),
            (draw(st.integers(0, 10**9)), draw(st.integers(0, 10**9))),
            draw(scopes),
            draw(stamps),
            draw(st.none() | stamps),
        )
        for name in names
    ]
    span = st.tuples(st.sampled_from(names), st.integers(0, 10**6), st.integers(0, 10**6))
    edges = draw(
        st.lists(
            st.builds(
                Edge,
                st.sampled_from(names),
                st.sampled_from(names),
                st.sampled_from(["parent-child", "next", "mentions", "semantic"]),
                st.floats(-1e6, 1e6, allow_nan=False),
                st.lists(st.sampled_from(names), max_size=3).map(tuple),
                st.none() | texts,
                stamps,
                st.none() | stamps,
                st.lists(span, max_size=2).map(tuple),
            ),
            max_size=6,
        )
    )
    return document, nodes, edges
