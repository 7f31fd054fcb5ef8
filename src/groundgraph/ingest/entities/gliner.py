"""A GLiNER model in the entity-extractor slot: its predicted spans as our ``Mention`` records.

GLiNER (``pip install gliner``) is a zero-shot span model: ``model.predict_entities(text,
labels, threshold=...)`` returns one dict per entity, ``{"start", "end", "text", "label",
"score"}``, with character offsets into the text it was given. The adapter runs it sentence
by sentence (the model reads a few hundred tokens at most, so a long text is never cut
off silently), moves the offsets back into the whole text, keeps a span only where the
text bears it out, and gives each its key (``normalise_entity``). The ``gliner`` package is
imported, and the model loaded, on the first call only; without the package that call is
an ``InputError`` naming it. Pass ``model=`` (anything with ``predict_entities``) to use a
model already loaded.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from groundgraph.errors import InputError
from groundgraph.ingest.entities.extract import Mention
from groundgraph.ingest.entities.normalise import normalise_entity
from groundgraph.ingest.optional import load_optional
from groundgraph.text import sentence_spans

DEFAULT_MODEL = "urchade/gliner_small-v2.1"
DEFAULT_LABELS = ("person", "organization", "location", "product", "event")
#: A sentence longer than this goes to the model in pieces of this size.
MAX_PIECE_CHARS = 1_500
MAX_LABELS = 50


def _pieces(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for start, end in sentence_spans(text):
        for piece in range(start, end, MAX_PIECE_CHARS):
            spans.append((piece, min(end, piece + MAX_PIECE_CHARS)))
    return spans


class GlinerEntityExtractor:
    """Entities found by a GLiNER model, for ``DocumentGraph(entities=...)`` and
    ``add_text(extractor=...)``."""

    def __init__(
        self,
        model: object | str = DEFAULT_MODEL,
        labels: Sequence[str] = DEFAULT_LABELS,
        threshold: float = 0.5,
    ) -> None:
        if isinstance(labels, str) or not labels or len(labels) > MAX_LABELS:
            raise InputError(f"labels must be a list of 1 to {MAX_LABELS} entity types")
        if not all(isinstance(label, str) and label.strip() for label in labels):
            raise InputError("every label must be a non-empty string, such as 'person'")
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
            raise InputError("threshold must be a number between 0 and 1")
        if not 0.0 <= threshold <= 1.0:
            raise InputError(f"threshold must be between 0 and 1, not {threshold}")
        if not isinstance(model, str) and not callable(getattr(model, "predict_entities", None)):
            raise InputError(
                "model must be a GLiNER model name or an object with predict_entities(text, "
                f"labels, threshold=...), not {type(model).__name__}"
            )
        self.labels = [label.strip() for label in labels]
        self.threshold = float(threshold)
        self._model: Any = None if isinstance(model, str) else model
        self._name = model if isinstance(model, str) else type(model).__name__
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        """The GLiNER model, loaded on first use (``GLiNER.from_pretrained(name)``)."""
        with self._lock:
            if self._model is None:
                gliner = load_optional("gliner", "gliner", "GlinerEntityExtractor")
                self._model = gliner.GLiNER.from_pretrained(self._name)
            return self._model

    def __call__(self, text: str) -> list[Mention]:
        """The entities of ``text``, in text order, one per span."""
        if not isinstance(text, str):
            raise InputError(f"the text must be a string, not {type(text).__name__}")
        found: dict[tuple[int, int], Mention] = {}
        for start, end in _pieces(text):
            piece = text[start:end]
            predicted = self.model.predict_entities(piece, self.labels, threshold=self.threshold)
            for entity in predicted or ():
                mention = _mention(text, piece, start, entity)
                if mention is not None:
                    found.setdefault((mention.start, mention.end), mention)
        return sorted(found.values(), key=lambda m: (m.start, m.end))


def _mention(text: str, piece: str, offset: int, entity: object) -> Mention | None:
    """Our record of one GLiNER dict, or None when its span is not in the text."""
    if not isinstance(entity, dict):
        raise InputError(f"the GLiNER model returned a {type(entity).__name__}, not a dict")
    start, end, said = entity.get("start"), entity.get("end"), entity.get("text")
    if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start < end:
        return None
    if end > len(piece) or (isinstance(said, str) and piece[start:end] != said):
        # Offsets that do not match the span's text: find the text itself instead.
        if not isinstance(said, str) or not said.strip() or said not in piece:
            return None
        start = piece.index(said)
        end = start + len(said)
    surface = text[offset + start : offset + end]
    key = normalise_entity(surface)
    if not key:
        return None
    return Mention(offset + start, offset + end, surface, key, "name")
