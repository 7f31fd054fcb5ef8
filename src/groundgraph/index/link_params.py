"""The settings of semantic links: how many top terms a node keeps, how many neighbours it
links to and the similarity floors.

How they are used is in ``index.links`` (term links) and ``index.vector_links`` (cosine
links); a graph's settings hold them (``graph.settings``), so a store opened to read
needs this module and not the linking machinery.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LinkParams"]


@dataclass(frozen=True)
class LinkParams:
    """How semantic edges are found: top terms per node, neighbours per node, floors."""

    top_terms: int = 12
    neighbours: int = 5
    #: The floor of the term similarity (weighted Jaccard of top terms).
    min_similarity: float = 0.08
    max_term_nodes: int = 2000
    #: The floor of the cosine, when an embedder links the nodes too (``vector_links.py``;
    #: Grounded Graph of Thought's 0.3 is ``min_similarity=0.3``).
    min_cosine: float = 0.5
