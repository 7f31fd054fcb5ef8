"""Near-duplicate facts: word-shingle similarity, or cosine when an embedder is given.

Shingles are the overlapping word pairs of the normalised text (a one-word fact is its
own shingle); similarity is their Jaccard overlap, 1.0 for the same words in the same
order. With an embedder (any ``list[str] -> array`` callable, one row per text) it is
the cosine of the two vectors instead. Candidates come from BM25, so a paraphrase that
shares no word with a fact is never compared with it.
"""

from __future__ import annotations

import functools
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


@functools.lru_cache(maxsize=1024)  # a new fact is compared with up to ten others
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


class ShingleIndex:
    """Which facts hold each shingle, to tell cheaply that a text has no near-duplicate.

    A fact within ``threshold`` (Jaccard) of a text shares at least ``threshold`` of the
    text's shingles, so it holds one of any ``len - ⌈threshold·len⌉ + 1`` of them (the
    prefix filter of set-similarity joins): a text none of whose rarest shingles of that
    many is held by a fact that near is compared with nothing (``may_have_near``). Facts
    are only added (a fact's text never changes); one no longer in the memory costs a
    comparison, never a verdict. Shingles are kept by their hash, facts by their number
    (a fact or a list of them per shingle): two shingles of one hash only cost comparisons.
    """

    def __init__(self) -> None:
        self._holding: dict[int, int | list[int]] = {}
        self._number: dict[str, int] = {}
        self._texts: list[str] = []

    def add(self, fact: str, text: str) -> None:
        if fact in self._number:
            return
        number = self._number[fact] = len(self._texts)
        self._texts.append(text)
        holding = self._holding
        for key in {hash(s) for s in shingles(text)}:
            held = holding.get(key)
            if held is None:
                holding[key] = number
            elif isinstance(held, int):
                holding[key] = [held, number]
            else:
                held.append(number)

    def _held(self, shingle: str) -> list[int]:
        held = self._holding.get(hash(shingle))
        return [] if held is None else [held] if isinstance(held, int) else held

    def may_have_near(self, text: str, threshold: float) -> bool:
        """False only when no fact added is within ``threshold`` of ``text`` by
        ``shingle_similarity``; True when one may be (or ``text`` has no words)."""
        own = shingles(text)
        if not own:
            return True  # compared by its normalised text: leave it to the full check
        # overlap ≥ threshold·len is needed; counting one shingle fewer keeps float-safe
        need = max(int(threshold * len(own) - 1e-9), 0)
        held = sorted((len(h), s, h) for s in own for h in [self._held(s)])
        seen: set[int] = set()
        for _, _, numbers in held[: len(own) - need + 1]:
            for number in numbers:
                if number not in seen:
                    seen.add(number)
                    if shingle_similarity(text, self._texts[number]) >= threshold:
                        return True
        return False
