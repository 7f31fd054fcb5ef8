"""A deterministic fake embedder: a hashed bag of words (each word one of DIM axes).

Texts sharing words point the same way; synonyms do not, so tests that need "meaning"
use :data:`SYNONYMS`, which puts the words of a group on one axis.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

DIM = 64
#: Word groups the fake treats as one meaning.
SYNONYMS = (("car", "automobile", "vehicle", "motor"), ("crash", "failure", "fault", "breakdown"))
_GROUP = {word: group[0] for group in SYNONYMS for word in group}


def axis(word: str) -> int:
    word = _GROUP.get(word, word)
    return int(hashlib.sha256(word.encode()).hexdigest(), 16) % DIM


def hashed_bag(texts: str | list[str]) -> np.ndarray:
    """One row of word counts per text (not normalised)."""
    many = [texts] if isinstance(texts, str) else list(texts)
    out = np.zeros((len(many), DIM))
    for i, text in enumerate(many):
        for word in re.findall(r"\w+", text.lower()):
            out[i, axis(word)] += 1.0
    return out[0] if isinstance(texts, str) else out


class BagEmbedder:
    """The fake as an object with ``encode`` and a name, as sentence-transformers has."""

    name = "hashed-bag"

    def __init__(self) -> None:
        self.calls: list[int] = []

    def encode(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        return hashed_bag(texts).tolist()
