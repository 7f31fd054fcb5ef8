"""Grounding on DocumentGraph: ``support`` and ``ground``, over the graph's own BM25 idf.

:class:`Grounder` gives the graph the four methods of
:class:`~groundgraph.reason.ground.GroundingCorpus` (so a graph can be handed to
:func:`~groundgraph.reason.ground.ground` as it is) and the two verbs, which check node
ids and read the index once per call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph.document_scope import DocumentScope, document_scope
from groundgraph.graph.indexes import DerivedIndexes
from groundgraph.graph.reader import GraphReader
from groundgraph.memory.scopes import query_scopes
from groundgraph.model import Node
from groundgraph.model.ids import held_ids, is_entity_id
from groundgraph.model.why_not import UnsupportedWhy
from groundgraph.reason.ground import (
    DEFAULT_MIN_SUPPORT,
    Grounding,
    SectionText,
    Support,
    Verifier,
    ground,
    support,
)
from groundgraph.reason.support import check_node_ids
from groundgraph.reason.why_not import why_unsupported
from groundgraph.search import MAX_QUERY_CHARS
from groundgraph.store import Store

#: The longest node id ``why_unsupported`` takes.
MAX_NODE_ID_CHARS = 1000


def _section(node: Node) -> SectionText:
    # A node's span locates its content in the source only when it covers it exactly.
    exact = node.span[1] - node.span[0] == len(node.content)
    return SectionText(node.title, node.content, node.span[0] if exact else None)


class _SyncedCorpus:
    """The graph as a GroundingCorpus, brought up to date once and read without re-checking;
    with ``scopes``, only the sections those scopes may read are evidence."""

    def __init__(
        self,
        indexes: DerivedIndexes,
        reader: GraphReader,
        scopes: tuple[str, ...] | None = None,
        scope: DocumentScope | None = None,
    ) -> None:
        indexes.sync()
        self.indexes = indexes
        self.reader = reader
        self.scopes = scopes
        self.scope = scope
        self._idf: Callable[[str], float] | None = None

    def node_texts(self, node_ids: Sequence[str]) -> dict[str, str]:
        return {i: f"{s.title}\n{s.content}" for i, s in self.sections(node_ids).items()}

    def sections(self, node_ids: Sequence[str]) -> dict[str, SectionText]:
        # A node no longer valid (a superseded fact) is not evidence.
        nodes = self.indexes.store.reads.get_nodes(held_ids(node_ids))
        seen = self.scope.node if self.scope is not None else None
        return {
            i: _section(nodes[i])
            for i in node_ids
            if i in nodes and nodes[i].invalid_at is None and (seen is None or seen(i))
        }

    def idf(self, term: str) -> float:
        if self._idf is None:  # a scoped read weighs words by what it reads alone
            self._idf = self.reader.scoped_idf(self.scopes)
        return self._idf(term)

    def terms(self, text: str) -> list[str]:
        return self.indexes.analyzer.terms(text)

    def candidate_nodes(self, text: str, limit: int) -> list[str]:
        if not text.strip():
            return []
        hits = self.reader.search(text[:MAX_QUERY_CHARS], max_results=limit, scopes=self.scopes)
        return [h.node_id for h in hits if not is_entity_id(h.node_id)]


def _known(
    store: Store, node_ids: Sequence[str] | None, scope: DocumentScope | None = None
) -> list[str] | None:
    """The node ids, checked; one not held (or not seen by ``scope``) is a NotFoundError."""
    if node_ids is None:
        return None
    ids = check_node_ids(node_ids)
    found = store.reads.get_nodes(held_ids(ids))
    missing = [i for i in ids if i not in found or (scope is not None and not scope.node(i))]
    if missing:
        shown = ", ".join(repr(i) for i in missing[:5])
        raise NotFoundError(f"unknown node ids {shown}: use search or outline to find node ids")
    return ids


class Grounder:
    """``support``, ``ground`` and the GroundingCorpus methods."""

    def __init__(self, indexes: DerivedIndexes, reader: GraphReader) -> None:
        self.indexes = indexes
        self.reader = reader

    def _corpus(self) -> _SyncedCorpus:
        return _SyncedCorpus(self.indexes, self.reader)

    def node_texts(self, node_ids: Sequence[str]) -> dict[str, str]:
        """``title + "\\n" + content`` of each node the graph holds (others left out)."""
        return self._corpus().node_texts(node_ids)

    def sections(self, node_ids: Sequence[str]) -> dict[str, SectionText]:
        """Title, content and where the content starts in the source, per node held."""
        return self._corpus().sections(node_ids)

    def idf(self, term: str) -> float:
        """The BM25 idf of an analysed term: ln(1 + (N − df + 0.5) / (df + 0.5))."""
        self.indexes.sync()
        return self.indexes.index.idf(term)

    def terms(self, text: str) -> list[str]:
        """The analysed terms of ``text``, as the index sees them."""
        return self.indexes.analyzer.terms(text)

    def candidate_nodes(self, text: str, limit: int) -> list[str]:
        """Ids of the top ``limit`` search hits for ``text`` (entities left out)."""
        return self._corpus().candidate_nodes(text, limit)

    def support(self, claim: str, node_ids: Sequence[str], max_nodes: int = 2) -> Support:
        """How much of ``claim``'s rare-word weight up to ``max_nodes`` of the nodes cover."""
        ids = _known(self.indexes.store, node_ids)
        return support(self._corpus(), claim, ids or [], max_nodes)

    def ground(
        self,
        answer: str,
        node_ids: Sequence[str] | None = None,
        query: str | None = None,
        min_support: float = DEFAULT_MIN_SUPPORT,
        verify: Verifier | None = None,
        max_nodes: int = 2,
        *,
        check_numbers: bool = True,
        check_names: bool = True,
        check_links: bool = True,
        check_code: bool = True,
        check_anchors: bool = True,
        check_substitutions: bool = True,
        check_negation: bool = True,
        max_candidates: int = 8,
        scopes: str | Iterable[str] | None = None,
    ) -> Grounding:
        """Each sentence of ``answer`` with its support and the sentences that back it;
        with ``scopes``, only sections those scopes may read are evidence (another's
        node id is unknown)."""
        scope = document_scope(self.indexes.store, scopes)
        read_as = None if scope is None else query_scopes(scopes)
        return ground(
            _SyncedCorpus(self.indexes, self.reader, read_as, scope),
            answer,
            _known(self.indexes.store, node_ids, scope),
            query,
            min_support,
            verify,
            max_nodes,
            check_numbers=check_numbers,
            check_names=check_names,
            check_links=check_links,
            check_code=check_code,
            check_anchors=check_anchors,
            check_substitutions=check_substitutions,
            check_negation=check_negation,
            max_candidates=max_candidates,
        )

    def why_unsupported(
        self,
        sentence: str,
        node_id: str,
        min_support: float = DEFAULT_MIN_SUPPORT,
        *,
        check_numbers: bool = True,
        check_names: bool = True,
        check_links: bool = True,
        check_code: bool = True,
        check_anchors: bool = True,
        check_substitutions: bool = True,
        check_negation: bool = True,
    ) -> UnsupportedWhy:
        """Why section ``node_id`` does not support ``sentence``: the rare-word weight it
        lacks or the rule that refused it, and the one change, rerun, that lets it pass."""
        if not isinstance(node_id, str) or not node_id or len(node_id) > MAX_NODE_ID_CHARS:
            raise InputError(f"node_id must be a node id of 1 to {MAX_NODE_ID_CHARS} characters")
        return why_unsupported(
            self._corpus(),
            sentence,
            node_id,
            min_support,
            check_numbers=check_numbers,
            check_names=check_names,
            check_links=check_links,
            check_code=check_code,
            check_anchors=check_anchors,
            check_substitutions=check_substitutions,
            check_negation=check_negation,
        )
