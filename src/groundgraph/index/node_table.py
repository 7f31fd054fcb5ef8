"""The nodes of a lexical index: each position's node id and document, and the reverse map.

A snapshot (``snapshot.py``) writes node ids relative to their document (most are
``doc#n``): ``""`` for the document's own node, ``"#n"`` for ``doc#n``, and any other id
as it is, behind ``=`` when it could be read as one of those. Making every id whole and
mapping each to its position costs a new process more than the rest of its first search
at 100k sections, and a search looks at a few hundred of them. So a table read from a
snapshot keeps the written form (:class:`RelativeIds`) and answers ``id_at``, ``doc_at``
and ``find`` from it; the plain list, document list and dict are made on the first write
or the first use of :attr:`NodeTable.ids`, :attr:`NodeTable.docs` or
:attr:`NodeTable.position`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

import numpy as np
import numpy.typing as npt

__all__ = ["DocColumn", "NodeTable", "RelativeIds", "absolute_id", "relative_id"]


def relative_id(node_id: str, doc_id: str) -> str:
    """``node_id`` as written relative to its document ``doc_id``."""
    if node_id == doc_id:
        return ""
    if node_id.startswith(doc_id) and node_id[len(doc_id) : len(doc_id) + 1] == "#":
        return node_id[len(doc_id) :]
    if node_id[:1] in ("", "#", "="):
        return "=" + node_id
    return node_id


def absolute_id(written: str, doc_id: str) -> str:
    """The node id that :func:`relative_id` wrote as ``written`` for document ``doc_id``."""
    if written == "":
        return doc_id
    if written[0] == "#":
        return doc_id + written
    return written[1:] if written[0] == "=" else written


class DocColumn(Sequence[str]):
    """Each position's document id, as an index into the list of documents."""

    def __init__(self, doc_index: npt.NDArray[np.int32], docs: Sequence[str]) -> None:
        self.doc_index = doc_index
        self.docs = docs

    def __len__(self) -> int:
        return len(self.doc_index)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self.docs[d] for d in self.doc_index[i].tolist()]
        return self.docs[int(self.doc_index[i])]


class RelativeIds(Sequence[str]):
    """Each position's node id in its written form, made whole when read; ``whole``: the
    positions of the ids written whole (not relative to their document), when known."""

    def __init__(
        self, written: Sequence[str], docs: DocColumn, whole: Sequence[int] | None = None
    ) -> None:
        if len(written) != len(docs):
            raise ValueError("the node ids and their documents differ in number")
        self.written = written
        self.docs = docs
        self.whole = whole

    def __len__(self) -> int:
        return len(self.written)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return absolute_id(self.written[i], self.docs[i])

    def many(self, positions: Sequence[int]) -> list[str]:
        """The ids at ``positions``, their documents read in one array lookup."""
        written, names = self.written, self.docs.docs
        numbers = self.docs.doc_index[np.asarray(positions, dtype=np.int64)].tolist()
        return [absolute_id(written[p], names[d]) for p, d in zip(positions, numbers, strict=True)]


class NodeTable:
    """Node ids by position, their documents, and the positions of the live ones by id."""

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._docs: list[str] = []
        self._position: dict[str, int] = {}
        self._lazy: _LazyNodes | None = None

    @classmethod
    def of(cls, ids: Sequence[str], docs: Sequence[str], alive: npt.NDArray[np.bool_]) -> NodeTable:
        """The table of these columns (``alive``: which positions the reverse map holds);
        read lazily when they are a snapshot's written form."""
        table = cls()
        if isinstance(ids, RelativeIds):
            table._lazy = _LazyNodes(ids, np.array(alive, dtype=bool))
            return table
        table._ids, table._docs = list(ids), list(docs)
        live = np.flatnonzero(alive).tolist()
        table._position = {table._ids[p]: p for p in live}
        return table

    # ----------------------------------------------------------------- reads
    def __len__(self) -> int:
        return len(self._ids) if self._lazy is None else len(self._lazy.ids)

    def id_at(self, pos: int) -> str:
        return self._ids[pos] if self._lazy is None else self._lazy.ids[pos]

    def ids_at(self, positions: Sequence[int]) -> list[str]:
        """The node ids at ``positions`` (``id_at`` of each, at once)."""
        if self._lazy is None:
            ids = self._ids
            return [ids[p] for p in positions]
        return self._lazy.ids.many(positions)

    def doc_at(self, pos: int) -> str:
        return self._docs[pos] if self._lazy is None else self._lazy.ids.docs[pos]

    def find(self, node_id: str) -> int | None:
        """The position of the live node ``node_id``, or None."""
        return self._position.get(node_id) if self._lazy is None else self._lazy.find(node_id)

    # ----------------------------------------------------------------- whole columns
    @property
    def ids(self) -> list[str]:
        self._materialise()
        return self._ids

    @property
    def docs(self) -> list[str]:
        self._materialise()
        return self._docs

    @property
    def position(self) -> dict[str, int]:
        self._materialise()
        return self._position

    def _materialise(self) -> None:
        lazy = self._lazy
        if lazy is None:
            return
        written, docs = lazy.ids.written, lazy.ids.docs
        names = docs.docs
        self._docs = [names[d] for d in docs.doc_index.tolist()]
        self._ids = [absolute_id(w, d) for w, d in zip(written, self._docs, strict=True)]
        self._position = {self._ids[p]: p for p in np.flatnonzero(lazy.alive).tolist()}
        self._lazy = None


class _LazyNodes:
    """What ``find`` needs from a written table: the live positions of each document, by
    written id, made for a document when it is first asked of, and the live ids written
    whole (not relative to their document)."""

    def __init__(self, ids: RelativeIds, alive: npt.NDArray[np.bool_]) -> None:
        self.ids = ids
        self.alive = alive
        self._doc_number: dict[str, int] | None = None
        self._order: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self._starts: list[int] = []
        self._whole: dict[str, int] = {}
        self._of_doc: dict[int, dict[str, int]] = {}

    def _prepare(self) -> dict[str, int]:
        if self._doc_number is None:
            docs, written = self.ids.docs, self.ids.written
            live = np.flatnonzero(self.alive[: len(written)])
            index = docs.doc_index[live]
            # Kept an array: a search reads the positions of a few documents only.
            self._order = live[np.argsort(index, kind="stable")]
            counts = np.bincount(index, minlength=len(docs.docs))
            self._starts = [0, *np.cumsum(counts).tolist()]
            alive = self.alive
            whole = self.ids.whole
            if whole is None:  # an older snapshot: found by reading every id
                whole = [p for p, w in enumerate(written) if w[:1] not in ("", "#")]
            self._whole = {absolute_id(written[p], docs[p]): p for p in whole if alive[p]}
            self._doc_number = {name: i for i, name in enumerate(docs.docs)}
        return self._doc_number

    def find(self, node_id: str) -> int | None:
        doc_number = self._prepare()
        found = self._whole.get(node_id)
        return found if found is not None else self._relative(node_id, doc_number)

    def _relative(self, node_id: str, doc_number: dict[str, int]) -> int | None:
        # ``doc`` + ``written`` for every split of the id at a "#" (and the whole id as a
        # document's own node): a document id may hold "#" itself.
        cut = len(node_id)
        while cut >= 0:
            number = doc_number.get(node_id[:cut])
            if number is not None:
                found = self._positions_of(number).get(node_id[cut:])
                if found is not None:
                    return found
            cut = node_id.rfind("#", 0, cut)
        return None

    def _positions_of(self, number: int) -> dict[str, int]:
        held = self._of_doc.get(number)
        if held is None:
            written = self.ids.written
            positions = self._order[self._starts[number] : self._starts[number + 1]].tolist()
            held = self._of_doc[number] = {written[p]: p for p in positions}
        return held
