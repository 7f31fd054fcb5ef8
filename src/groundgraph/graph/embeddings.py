"""The graph's embeddings: which embedder, the vectors of the nodes, and their index.

:class:`NodeEmbeddings` is a derived index of :class:`~groundgraph.graph.indexes.DerivedIndexes`.
It computes a node's vector once, when its document is written (``vectors_for``, one
batched call per document), and the writer stores it with the document in one
transaction. The vector index (``index.vectors``) is read from the store on first use and
kept at the store's generation through its change log, so vectors are reused on reopen
and follow what other processes write.

The store keeps the embedder's name and dimension (settings ``embedder`` and
``embedder_dimension``): opening a store with another embedder is an
:class:`~groundgraph.index.embedder.EmbedderMismatchError`; opening it without one
uses the recorded embedder if it is registered by name (``index.embedders``), loaded
only when a text must be embedded.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from groundgraph.errors import InputError, StoreError
from groundgraph.index.embedder import EmbedderMismatchError, TextEmbedder, as_embedder
from groundgraph.index.embedders import embedder_named, is_registered
from groundgraph.index.vectors import VectorIndex
from groundgraph.model import Node
from groundgraph.model.ids import INDEXED_KINDS
from groundgraph.store import Store

__all__ = ["EMBEDDER_DIMENSION", "EMBEDDER_SETTING", "NodeEmbeddings", "check_embed", "node_text"]

EMBEDDER_SETTING = "embedder"
EMBEDDER_DIMENSION = "embedder_dimension"
#: Changed documents past which the index is read again whole rather than one by one.
_RELOAD_ALL = 200


def check_embed(embed: object | None, embedder: object | None) -> object | None:
    """The one embedder of ``embed=`` (the seed's name) and ``embedder=``."""
    if embed is not None and embedder is not None and embed is not embedder:
        raise InputError("embed= and embedder= name the same option: pass one embedder")
    if embed is not None:
        as_embedder(embed)  # an unusable embedder is refused before anything is read
    return embed if embed is not None else embedder


def embeds(store: Store, embedder: object | None) -> bool:
    """Whether a graph over ``store`` has an embedder: the one given, or the registered
    one whose name the store records (what :class:`NodeEmbeddings` will load)."""
    if embedder is not None:
        return True
    recorded = store.settings.get_setting(EMBEDDER_SETTING)
    return recorded is not None and is_registered(recorded)


def node_text(node: Node) -> str:
    """What is embedded for a node: its title and its content."""
    return f"{node.title}\n{node.content}".strip()


class NodeEmbeddings:
    """The embedder of a graph (or none) and the vector index of its nodes."""

    def __init__(self, store: Store, embedder: object | None) -> None:
        self.store = store
        recorded = store.settings.get_setting(EMBEDDER_SETTING)
        chosen = None if embedder is None else as_embedder(embedder)
        if chosen is not None and recorded is not None and recorded != chosen.name:
            raise EmbedderMismatchError(
                f"this store's vectors were made by the embedder {recorded!r}, not "
                f"{chosen.name!r}: open it with that embedder (or none), or index into a new "
                "store"
            )
        if chosen is None and recorded is not None and is_registered(recorded):
            chosen = embedder_named(recorded)
        self.embedder = chosen
        self.recorded = recorded
        dimension = store.settings.get_setting(EMBEDDER_DIMENSION)
        self.dimension = int(dimension) if dimension else None
        if chosen is not None and self.dimension is not None:
            self._check_dimension(chosen.dimension)
        self._index: VectorIndex | None = None
        self._generation = -1
        self._doc_nodes: dict[str, list[str]] = {}

    @property
    def active(self) -> bool:
        """Whether written nodes get vectors (the graph has an embedder)."""
        return self.embedder is not None

    def _check_dimension(self, dimension: int | None) -> None:
        if dimension is not None and self.dimension is not None and dimension != self.dimension:
            raise EmbedderMismatchError(
                f"this store holds vectors of {self.dimension} dimensions and the embedder "
                f"gives {dimension}: use the store's embedder, or index into a new store"
            )

    def require(self) -> TextEmbedder:
        """The embedder, or an error saying how to get one."""
        if self.embedder is None:
            made = f" (its vectors were made by {self.recorded!r})" if self.recorded else ""
            raise InputError(
                "search_mode 'embedding' and 'hybrid' need an embedder"
                f"{made}: open the graph with embed=..., or index with --embedder minilm"
            )
        return self.embedder

    # ----------------------------------------------------------------- writing
    def vectors_for(self, nodes: Sequence[Node]) -> tuple[list[str], npt.NDArray[np.float32]]:
        """The ids and unit vectors of the nodes search may seed from (one batched call)."""
        embedder = self.require()
        chosen = [n for n in nodes if n.kind in INDEXED_KINDS and node_text(n)]
        vectors = embedder.embed([node_text(n) for n in chosen])
        if chosen:
            self._check_dimension(vectors.shape[1])
        return [n.node_id for n in chosen], vectors

    def record(self) -> None:
        """Keep the embedder's name and dimension in the store (first vectors written)."""
        embedder = self.require()
        if self.recorded is None:
            self.store.settings.set_setting(EMBEDDER_SETTING, embedder.name)
            self.recorded = embedder.name
        if self.dimension is None and embedder.dimension is not None:
            self.store.settings.set_setting(EMBEDDER_DIMENSION, str(embedder.dimension))
            self.dimension = embedder.dimension

    # ----------------------------------------------------------------- reading
    def index(self) -> VectorIndex:
        """The vector index at the store's generation."""
        current = self.store.changes.generation()
        if self._index is None:
            self._load(None)
        elif current != self._generation:
            try:
                changed = self.store.changes.changed_documents(self._generation)
            except StoreError:
                changed = None
            if changed is None or len(changed) > _RELOAD_ALL:
                self._load(None)
            else:
                self._load(changed)
        self._generation = current
        assert self._index is not None
        return self._index

    def _load(self, doc_ids: list[str] | None) -> None:
        if doc_ids is None or self._index is None:
            self._index = VectorIndex(self.dimension or 0)
            self._doc_nodes = {}
            doc_ids = None
        else:
            for doc_id in doc_ids:
                self._index.remove(self._doc_nodes.pop(doc_id, []))
        ids, docs, matrix = self.store.vectors.load_vectors(doc_ids)
        if not ids:
            return
        if self._index.dimension != matrix.shape[1]:
            self._index = VectorIndex(matrix.shape[1])
        self._index.put(ids, matrix)
        for node_id, doc_id in zip(ids, docs, strict=True):
            self._doc_nodes.setdefault(doc_id, []).append(node_id)

    def query_vector(self, query: str) -> npt.NDArray[np.float32]:
        """The unit vector of a query, from the store's embedder."""
        embedder = self.require()
        vector = embedder.embed_query(query)
        self._check_dimension(len(vector))
        return vector

    def reset(self) -> None:
        """Forget the index: read it from the store again on next use."""
        self._index = None
        self._generation = -1
