"""A cause → effect pair read from a text, and the protocol of anything that reads them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from groundgraph.model.record import Record


@dataclass(frozen=True)
class CausalPair(Record):
    """One cause → effect reading: span texts, their offsets in the input, the cue, the
    language (ISO 639-1) of the table that read it."""

    cause: str
    effect: str
    cause_span: tuple[int, int]
    effect_span: tuple[int, int]
    cue: str
    language: str


class CausalExtractor(Protocol):
    """Anything that reads cause → effect pairs from a text: ``extract_causal``, a model,
    or ``llm_causal_extractor(llm)``."""

    def __call__(self, text: str) -> Sequence[CausalPair]: ...
