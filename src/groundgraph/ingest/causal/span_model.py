"""A cause/effect span model in the causal-extractor slot: its tagged spans as ``CausalPair``s.

A causal span model tags the words of a sentence as cause or effect (UniCausal-style
``B-C``/``I-C``/``B-E``/``I-E`` tags, for example). Through ``transformers``
(``pip install transformers``), ``pipeline("token-classification", model=name,
aggregation_strategy="simple")`` returns one dict per tagged span, ``{"entity_group",
"score", "word", "start", "end"}``, with character offsets into the text it was given.
The adapter runs the model sentence by sentence, keeps the spans whose group is a cause or
an effect label and whose score reaches ``threshold``, and pairs every cause of a sentence
with every effect of the same sentence (a sentence with only one of them gives nothing).
The cue of such a pair is ``"model"``. ``transformers`` is imported, and the model loaded,
on the first call only; pass ``pipeline=`` (any callable text -> list of such dicts) to use
one already built.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from groundgraph.errors import InputError
from groundgraph.ingest.causal.language import guess_language
from groundgraph.ingest.causal.pair import CausalPair
from groundgraph.ingest.optional import load_optional
from groundgraph.text import sentence_spans

MODEL_CUE = "model"
UNKNOWN_LANGUAGE = "und"  # as for a pair an LLM gave, when the language is unsure
DEFAULT_CAUSE_LABELS = ("C", "CAUSE", "Cause", "cause")
DEFAULT_EFFECT_LABELS = ("E", "EFFECT", "Effect", "effect")
MAX_PAIRS_PER_SENTENCE = 16
MAX_SENTENCE_CHARS = 2_000

Span = tuple[int, int]


class CausalSpanExtractor:
    """Cause → effect pairs from a token-classification model, for
    ``DocumentGraph(causal_extractor=...)`` and ``add_text(causal=...)``."""

    def __init__(
        self,
        model: str | None = None,
        *,
        pipeline: Callable[[str], Any] | None = None,
        cause_labels: Sequence[str] = DEFAULT_CAUSE_LABELS,
        effect_labels: Sequence[str] = DEFAULT_EFFECT_LABELS,
        threshold: float = 0.5,
    ) -> None:
        if (model is None) == (pipeline is None):
            raise InputError("pass one of model= (a model name) or pipeline= (a callable)")
        if model is not None and (not isinstance(model, str) or not model.strip()):
            raise InputError("model must be the name or path of a token-classification model")
        if pipeline is not None and not callable(pipeline):
            raise InputError(f"pipeline must be callable, not {type(pipeline).__name__}")
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
            raise InputError("threshold must be a number between 0 and 1")
        if not 0.0 <= threshold <= 1.0:
            raise InputError(f"threshold must be between 0 and 1, not {threshold}")
        for name, labels in (("cause_labels", cause_labels), ("effect_labels", effect_labels)):
            if isinstance(labels, str) or not labels or not all(isinstance(x, str) for x in labels):
                raise InputError(f"{name} must be a non-empty list of tag names")
        if set(cause_labels) & set(effect_labels):
            raise InputError("a tag cannot be both a cause and an effect label")
        self.cause_labels = frozenset(cause_labels)
        self.effect_labels = frozenset(effect_labels)
        self.threshold = float(threshold)
        self._name = model
        self._pipeline = pipeline
        self._lock = threading.Lock()

    @property
    def pipeline(self) -> Callable[[str], Any]:
        """The token-classification pipeline, built on first use."""
        with self._lock:
            if self._pipeline is None:
                transformers = load_optional("transformers", "transformers", "CausalSpanExtractor")
                self._pipeline = transformers.pipeline(
                    "token-classification", model=self._name, aggregation_strategy="simple"
                )
            return self._pipeline

    def __call__(self, text: str) -> list[CausalPair]:
        """The cause → effect pairs the model tags in ``text``, in text order."""
        if not isinstance(text, str):
            raise InputError(f"the text must be a string, not {type(text).__name__}")
        language = guess_language(text) or UNKNOWN_LANGUAGE
        pairs: list[CausalPair] = []
        for start, end in sentence_spans(text):
            end = min(end, start + MAX_SENTENCE_CHARS)
            causes, effects = self._spans(text, start, end)
            found = [(c, e) for c in causes for e in effects if c[1] <= e[0] or e[1] <= c[0]]
            for cause, effect in found[:MAX_PAIRS_PER_SENTENCE]:
                pairs.append(
                    CausalPair(
                        text[cause[0] : cause[1]],
                        text[effect[0] : effect[1]],
                        cause,
                        effect,
                        MODEL_CUE,
                        language,
                    )
                )
        return pairs

    def _spans(self, text: str, start: int, end: int) -> tuple[list[Span], list[Span]]:
        sentence = text[start:end]
        tagged = self.pipeline(sentence)
        if isinstance(tagged, dict) or not isinstance(tagged, Sequence):
            raise InputError("the causal span model must return a list of tagged spans")
        causes: list[Span] = []
        effects: list[Span] = []
        for group in tagged:
            if not isinstance(group, dict):
                raise InputError(f"the causal span model returned a {type(group).__name__}")
            label = group.get("entity_group", group.get("entity"))
            score = group.get("score", 1.0)
            span = _span(sentence, group.get("start"), group.get("end"))
            if span is None or not isinstance(score, (int, float)) or score < self.threshold:
                continue
            placed = (start + span[0], start + span[1])
            if label in self.cause_labels:
                causes.append(placed)
            elif label in self.effect_labels:
                effects.append(placed)
        return _merged(causes), _merged(effects)


def _span(sentence: str, start: object, end: object) -> Span | None:
    """The span trimmed of spaces and punctuation, or None when it holds no word."""
    if not isinstance(start, int) or not isinstance(end, int):
        return None
    start, end = max(0, start), min(len(sentence), end)
    while start < end and not sentence[start].isalnum():
        start += 1
    while end > start and not sentence[end - 1].isalnum():
        end -= 1
    return (start, end) if start < end else None


def _merged(spans: list[Span]) -> list[Span]:
    """Touching or overlapping spans of one kind joined (a model may split one phrase)."""
    out: list[Span] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out
