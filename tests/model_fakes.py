"""Deterministic stand-ins for the models behind the adapters, with the real call signatures.

``FakeGliner`` answers ``predict_entities(text, labels, flat_ner=True, threshold=0.5,
multi_label=False)`` as ``gliner.GLiNER`` does: a list of ``{"start", "end", "text",
"label", "score"}``. ``FakeCausalTagger`` is called like a ``transformers``
token-classification pipeline with ``aggregation_strategy="simple"``: a list of
``{"entity_group", "score", "word", "start", "end"}``. ``FakeNLI`` answers ``predict(pairs,
apply_softmax=True)`` as a sentence-transformers ``CrossEncoder``: an array with one row of
(contradiction, entailment, neutral) probabilities per pair.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


class FakeGliner:
    """Finds the names it was told about, with the label and score it was told."""

    def __init__(self, known: Mapping[str, tuple[str, float]]) -> None:
        self.known = dict(known)
        self.calls: list[tuple[str, tuple[str, ...], float]] = []

    def predict_entities(
        self,
        text: str,
        labels: Sequence[str],
        flat_ner: bool = True,
        threshold: float = 0.5,
        multi_label: bool = False,
    ) -> list[dict[str, Any]]:
        self.calls.append((text, tuple(labels), threshold))
        out = []
        for name, (label, score) in self.known.items():
            if label not in labels or score < threshold:
                continue
            for match in re.finditer(re.escape(name), text):
                out.append(
                    {
                        "start": match.start(),
                        "end": match.end(),
                        "text": name,
                        "label": label,
                        "score": score,
                    }
                )
        return sorted(out, key=lambda e: e["start"])


_CUES = re.compile(r"\s+(?:caused|causes|leads to|led to)\s+")


class FakeCausalTagger:
    """Tags the words before a cue as cause and after it as effect, one group per word
    (as a model that splits a phrase into pieces would), in UniCausal's C/E groups."""

    def __init__(self, score: float = 0.9) -> None:
        self.score = score
        self.calls: list[str] = []

    def __call__(self, inputs: str) -> list[dict[str, Any]]:
        self.calls.append(inputs)
        cue = _CUES.search(inputs)
        if cue is None:
            return []
        groups = []
        for group, (start, end) in (("C", (0, cue.start())), ("E", (cue.end(), len(inputs)))):
            for word in re.finditer(r"[\w'-]+", inputs[start:end]):
                groups.append(
                    {
                        "entity_group": group,
                        "score": self.score,
                        "word": word.group(),
                        "start": start + word.start(),
                        "end": start + word.end(),
                    }
                )
        return groups


class FakeNLI:
    """Contradiction when premise and hypothesis say "X is in A" and "X is in B" with A ≠ B;
    entailment when they are the same sentence; neutral otherwise."""

    _PLACE = re.compile(r"^(?P<subject>.+?) (?:is|lives|works) in (?P<place>[\w ]+)\.?$")

    def __init__(self) -> None:
        self.calls = 0

    def predict(
        self,
        sentences: Sequence[tuple[str, str]],
        batch_size: int = 32,
        show_progress_bar: bool | None = None,
        activation_fct: Any = None,
        apply_softmax: bool = False,
        convert_to_numpy: bool = True,
    ) -> np.ndarray:
        assert apply_softmax, "the adapter asks for probabilities"
        self.calls += 1
        rows = []
        for premise, hypothesis in sentences:
            a, b = self._PLACE.match(premise), self._PLACE.match(hypothesis)
            if premise == hypothesis:
                rows.append([0.01, 0.98, 0.01])
            elif a and b and a["subject"] == b["subject"] and a["place"] != b["place"]:
                rows.append([0.93, 0.02, 0.05])
            else:
                rows.append([0.04, 0.06, 0.90])
        return np.array(rows, dtype=np.float32)
