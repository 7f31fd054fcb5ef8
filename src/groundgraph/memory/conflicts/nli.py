"""An NLI cross-encoder as the conflict resolver: ``contradictions(new, candidates)``.

A natural-language-inference model reads a pair (premise, hypothesis) and gives the
probability of each of its labels: contradiction, entailment, neutral. Through
sentence-transformers (``pip install sentence-transformers``), ``CrossEncoder(name)``
loads one (``cross-encoder/nli-deberta-v3-small``, the default, orders its labels
contradiction, entailment, neutral) and ``predict(pairs, apply_softmax=True)`` returns one
row of probabilities per pair. Each candidate (an earlier fact, the premise) is paired with
the new fact (the hypothesis); a candidate whose contradiction probability reaches
``threshold`` is contradicted. The package is imported, and the model loaded, on the first
call; pass ``model=`` (anything with that ``predict``) to use one already loaded.

A model over-flags complements ("works in Munich" against "lives in Berlin" can read as a
contradiction), so the threshold matters; the zero-model ``RuleConflictResolver`` stays the
default.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import Any

from groundgraph.errors import InputError
from groundgraph.ingest.optional import load_optional
from groundgraph.memory.conflicts.resolvers import Contradiction, _checked

DEFAULT_MODEL = "cross-encoder/nli-deberta-v3-small"
DEFAULT_LABELS = ("contradiction", "entailment", "neutral")
MAX_PAIR_CHARS = 2_000  # of each side: NLI models read a few hundred tokens


class NLIConflictResolver:
    """Contradictions judged by an NLI cross-encoder, with no LLM."""

    def __init__(
        self,
        model: object | str = DEFAULT_MODEL,
        threshold: float = 0.5,
        labels: Sequence[str] = DEFAULT_LABELS,
        max_candidates: int = 10,
    ) -> None:
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
            raise InputError("threshold must be a number between 0 and 1")
        if not 0.0 < threshold <= 1.0:
            raise InputError(f"threshold must be above 0 and at most 1, not {threshold}")
        if isinstance(labels, str) or "contradiction" not in list(labels):
            raise InputError('labels must list the model\'s labels in order, one "contradiction"')
        if isinstance(max_candidates, bool) or not isinstance(max_candidates, int):
            raise InputError("max_candidates must be a whole number")
        if not 1 <= max_candidates <= 100:
            raise InputError(f"max_candidates must be between 1 and 100, not {max_candidates}")
        if not isinstance(model, str) and not callable(getattr(model, "predict", None)):
            raise InputError(
                "model must be an NLI cross-encoder name or an object with "
                f"predict(pairs, apply_softmax=True), not {type(model).__name__}"
            )
        self.threshold = float(threshold)
        self.labels = tuple(labels)
        self.max_candidates = max_candidates
        self.calls = 0
        self._model: Any = None if isinstance(model, str) else model
        self._name = model if isinstance(model, str) else type(model).__name__
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        """The cross-encoder, loaded on first use (``CrossEncoder(name)``)."""
        with self._lock:
            if self._model is None:
                module = load_optional(
                    "sentence_transformers", "sentence-transformers", "NLIConflictResolver"
                )
                self._model = module.CrossEncoder(self._name)
            return self._model

    def probabilities(self, new: str, candidates: Sequence[str]) -> list[float]:
        """The contradiction probability of each (candidate, new) pair, in candidate order."""
        pairs = [(c[:MAX_PAIR_CHARS], new[:MAX_PAIR_CHARS]) for c in candidates]
        if not pairs:
            return []
        rows = self.model.predict(pairs, apply_softmax=True)
        with self._lock:
            self.calls += 1
        rows = rows.tolist() if hasattr(rows, "tolist") else rows
        if not isinstance(rows, list) or len(rows) != len(pairs):
            raise InputError(f"the NLI model gave {_count(rows)} rows for {len(pairs)} pairs")
        column = self.labels.index("contradiction")
        return [_probability(row, column, len(self.labels)) for row in rows]

    def contradictions(self, new: str, candidates: Sequence[str]) -> list[Contradiction]:
        """The candidates ``new`` contradicts, in candidate order, each once."""
        new, listed = _checked(new, candidates)
        shown = [c for c in dict.fromkeys(listed) if c.strip() and c != new]
        shown = shown[: self.max_candidates]
        if not new.strip() or not shown:
            return []
        found = []
        for candidate, p in zip(shown, self.probabilities(new, shown), strict=True):
            if p >= self.threshold:
                found.append(Contradiction(candidate, "nli", f"contradiction probability {p:.2f}"))
        return found


def _count(rows: object) -> str:
    return str(len(rows)) if isinstance(rows, list) else f"a {type(rows).__name__}, not"


def _probability(row: object, column: int, width: int) -> float:
    if not isinstance(row, list) or len(row) != width:
        raise InputError(f"each NLI row must hold {width} label probabilities")
    if not all(isinstance(x, (int, float)) and math.isfinite(x) for x in row):
        raise InputError("the NLI model returned a probability that is not a finite number")
    return float(row[column])
