"""Near-duplicate facts: word-shingle similarity, or cosine when an embedder is given.

Shingles are the overlapping word pairs of the normalised text (a one-word fact is its
own shingle); similarity is their Jaccard overlap, 1.0 for the same words in the same
order. With an embedder (any ``list[str] -> array`` callable, one row per text) it is
the cosine of the two vectors instead. Candidates come from BM25, so a paraphrase that
shares no word with a fact is never compared with it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from groundgraph.errors import InputError
from groundgraph.model.ids import normalise_fact
from groundgraph.text import words

Embedder = Callable[[list[str]], Any]
DEFAULT_DEDUP_THRESHOLD = 0.9


def check_threshold(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 1:
        raise InputError(f"dedup_threshold must be a number in (0, 1], not {value!r}")
    return float(value)


def shingles(text: str) -> frozenset[str]:
    found = words(normalise_fact(text))
    if len(found) < 2:
        return frozenset(found)
    return frozenset(f"{a} {b}" for a, b in itertools.pairwise(found))


def shingle_similarity(a: str, b: str) -> float:
    sa, sb = shingles(a), shingles(b)
    if not sa or not sb:
        return 1.0 if normalise_fact(a) == normalise_fact(b) else 0.0
    return len(sa & sb) / len(sa | sb)


def similarities(text: str, others: Sequence[str], embedder: Embedder | None) -> list[float]:
    """How near ``text`` is to each of ``others``, in [0, 1] (cosine may go below 0)."""
    if not others:
        return []
    if embedder is None:
        return [shingle_similarity(text, other) for other in others]
    vectors = np.asarray(embedder([text, *others]), dtype=np.float64)
    if vectors.ndim != 2 or vectors.shape[0] != len(others) + 1:
        raise InputError(
            f"the embedder returned an array of shape {vectors.shape} for {len(others) + 1} "
            "texts: it must return one row per text"
        )
    norms = np.linalg.norm(vectors, axis=1)
    norms[norms == 0] = 1.0
    unit = vectors / norms[:, None]
    return [float(x) for x in unit[1:] @ unit[0]]


def nearest(
    text: str,
    candidates: Sequence[tuple[str, str]],
    threshold: float,
    embedder: Embedder | None = None,
) -> tuple[str, float] | None:
    """The most similar (id, text) candidate at or above ``threshold``, if any."""
    scores = similarities(text, [t for _, t in candidates], embedder)
    best: tuple[str, float] | None = None
    for (fact, _), score in zip(candidates, scores, strict=True):
        if score >= threshold and (best is None or (score, fact) > (best[1], best[0])):
            best = (fact, score)
    return best
