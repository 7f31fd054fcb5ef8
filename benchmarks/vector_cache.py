"""A benchmark-only on-disk cache of embeddings, so that a rerun embeds nothing it has seen.

    from vector_cache import cached_embedder
    embedder, cache = cached_embedder(embedder_named("minilm"), path)
    graph = DocumentGraph(embed=embedder)

Vectors are kept in one SQLite file, keyed by the embedder's name and the SHA-256 of the
exact text it was given (query and passage prefixes included), as the float32 rows the
model returned. The wrapped embedder keeps the name and dimension of the real one, so a
store cannot tell the two apart. Texts not in the cache are embedded in one call per batch
and written at once. This lives in ``benchmarks/`` on purpose: the package computes every
vector itself, and a cache keyed by a name is only as good as the name (delete the file
after changing a model under the same name).
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from groundgraph.index.embedder import TextEmbedder, _as_matrix

__all__ = ["VectorCache", "cached_embedder"]


class VectorCache:
    """Rows by (embedder name, text hash) in a SQLite file."""

    def __init__(self, path: Path, name: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.db = sqlite3.connect(path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (embedder TEXT, sha TEXT, dim INTEGER, "
            "vector BLOB, PRIMARY KEY (embedder, sha))"
        )
        self.hits = 0
        self.misses = 0

    def get(self, shas: list[str]) -> dict[str, npt.NDArray[np.float32]]:
        found: dict[str, npt.NDArray[np.float32]] = {}
        for start in range(0, len(shas), 500):
            part = shas[start : start + 500]
            marks = ",".join("?" * len(part))
            rows = self.db.execute(
                f"SELECT sha, vector FROM vectors WHERE embedder = ? AND sha IN ({marks})",
                [self.name, *part],
            )
            for sha, blob in rows:
                found[sha] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put(self, items: dict[str, npt.NDArray[np.float32]]) -> None:
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)",
                [
                    (self.name, sha, len(v), np.asarray(v, np.float32).tobytes())
                    for sha, v in items.items()
                ],
            )


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cached_embedder(embedder: TextEmbedder, path: Path) -> tuple[TextEmbedder, VectorCache]:
    """``embedder`` with its vectors read from, and written to, the cache at ``path``
    (and the cache, which counts its hits and misses)."""
    cache = VectorCache(path, embedder.name)
    encode = embedder.encode

    def cached_encode(texts: list[str]) -> Any:
        shas = [_sha(t) for t in texts]
        found = cache.get(list(dict.fromkeys(shas)))
        missing = list(dict.fromkeys(t for t, s in zip(texts, shas, strict=True) if s not in found))
        cache.hits += len(texts) - sum(1 for s in shas if s not in found)
        if missing:
            cache.misses += len(missing)
            rows = _as_matrix(encode(missing), len(missing), embedder.name).astype(np.float32)
            fresh = {_sha(t): rows[i] for i, t in enumerate(missing)}
            cache.put(fresh)
            found.update(fresh)
        return np.vstack([found[s] for s in shas])

    wrapped = TextEmbedder(
        embedder.name,
        cached_encode,
        embedder.dimension,
        embedder.batch_size,
        embedder.query_prefix,
        embedder.passage_prefix,
    )
    return wrapped, cache
