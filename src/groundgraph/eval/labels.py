"""The id a hit is judged by: a question's labels may be document, section or chunk ids.

A question labelled with document ids only (no ``#`` in any: document ids cannot hold
one) is judged at document level, each hit by its ``doc_id``, as before. A question with
a section or chunk id among its labels (GraphRack labels chunks) is judged at node level:
a hit counts for the label that contains it (the hit itself, a section it lies in, or its
document, when that is a label), else it stands for its own node id. A hit coarser than
a label (the section around a labelled chunk) does not count for it: it is another unit.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from groundgraph.graph import DocumentGraph
from groundgraph.model import Hit

#: Deepest parent chain followed from a hit (headings nest at most six deep, plus chunks).
MAX_DEPTH = 16

Judge = Callable[[Hit], str]


def node_level(relevant: Collection[str]) -> bool:
    """Whether labels name sections or chunks (``doc#n``), not only documents."""
    return any("#" in label for label in relevant)


class Lineage:
    """Each node's parent chain in one graph, looked up once and kept."""

    def __init__(self, graph: DocumentGraph) -> None:
        self.graph = graph
        self.parents: dict[str, str | None] = {}

    def chain(self, node_id: str) -> list[str]:
        """``node_id``, its parent, the parent's parent... up to the document."""
        chain = [node_id]
        while len(chain) < MAX_DEPTH:
            current = chain[-1]
            if current not in self.parents:
                node = self.graph.store.reads.get_nodes([current]).get(current)
                self.parents[current] = None if node is None else node.parent_id
            parent = self.parents[current]
            if parent is None or parent in chain:
                break
            chain.append(parent)
        return chain


def judge(relevant: Collection[str], lineage: Lineage) -> Judge:
    """The id each hit stands for in a ranking scored against ``relevant``."""
    if not node_level(relevant):
        return lambda hit: hit.doc_id
    labels = frozenset(relevant)

    def unit(hit: Hit) -> str:
        for node_id in lineage.chain(hit.node_id):
            if node_id in labels:
                return node_id
        return hit.doc_id if hit.doc_id in labels else hit.node_id

    return unit
