"""Bridge ends that are plain words, as GraphRack bridges keywords (``bridge aurora atlas``).

A bridge end that names no node and no entity may be a word of the index: it becomes a
word end, ``#word:<word>`` (no node id starts with ``#``: document ids may not hold one),
joined by a ``contains`` edge to each of the nodes that hold the word, the best
``MAX_FANOUT`` by BM25. Each such edge is cited like any other: its span is the word's
first occurrence in the node, so the hop's support is the sentence that holds it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from groundgraph.index.bm25 import LexicalIndex
from groundgraph.index.ranking import FloatArray, IntArray, top_positions
from groundgraph.model import Edge
from groundgraph.store.base import Store
from groundgraph.walk.dijkstra import MAX_FANOUT

WORD_PREFIX = "#word:"
CONTAINS = "contains"
_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class WordEnd:
    """A word as a bridge end: its id and its edges to the nodes that hold it."""

    node_id: str
    word: str
    edges: tuple[Edge, ...]


def is_word_end(node_id: str) -> bool:
    return node_id.startswith(WORD_PREFIX)


def word_of(node_id: str) -> str:
    """The word of a word end's id."""
    return node_id.removeprefix(WORD_PREFIX)


def word_end(
    store: Store, index: LexicalIndex, word: str, holds: Callable[[str], bool] | None = None
) -> WordEnd | None:
    """``word`` as a bridge end, or None when it is not one indexed word; ``holds`` says
    which nodes may hold it (a scoped read's), others are left out before ranking."""
    terms = index.query_terms(word)
    if len(terms) != 1:
        return None
    matches = index.match(word)
    ids = index.node_ids
    positions, scores = matches.positions, matches.scores
    rows = _best_held(positions, scores, ids.__getitem__, holds)
    if not rows:
        return None
    best = float(scores[rows[0]])
    chosen = [(ids[int(positions[i])], float(scores[i]) / best) for i in rows]
    nodes = store.reads.get_nodes([node_id for node_id, _ in chosen])
    end = WORD_PREFIX + word.strip().lower()
    edges = []
    for node_id, weight in chosen:
        node = nodes.get(node_id)
        if node is None:
            continue
        span = _occurrence(index, node.content, terms[0])
        spans = () if span is None else ((node_id, *span),)
        edges.append(Edge(node_id, end, CONTAINS, weight, (node_id,), spans=spans))
    return WordEnd(end, word, tuple(edges)) if edges else None


def _best_held(
    positions: IntArray,
    scores: FloatArray,
    name_of: Callable[[int], str],
    holds: Callable[[str], bool] | None,
) -> list[int]:
    """The ``MAX_FANOUT`` best matches (indices) whose node ``holds`` allows, best first:
    the ranking is read down, a longer stretch each time, until enough are held."""
    k = MAX_FANOUT
    while True:
        ranked = top_positions(positions, scores, k, name_of)
        if holds is None:
            return ranked
        rows = [i for i in ranked if holds(name_of(int(positions[i])))][:MAX_FANOUT]
        if len(rows) == MAX_FANOUT or len(ranked) < k:
            return rows
        k *= 4


def _occurrence(index: LexicalIndex, text: str, term: str) -> tuple[int, int] | None:
    """Where the first word of ``text`` that analyses to ``term`` stands."""
    for match in _WORD.finditer(text):
        if term in index.analyzer.terms(match.group()):
            return match.span()
    return None
