"""Model-free causal extraction: cause → effect pairs read from cue words, per language.

``extract_causal`` (``extract``) reads a text sentence by sentence with the cue tables of
its language: ``cues`` holds what a cue is (``cues.table``) and one table per language
(``cues.english``, ``cues.german``, ``cues.dutch``, ``cues.french`` …), ``language``
collects them and guesses a text's language, ``markers`` finds a sentence's cues,
``clauses`` the boundaries of their spans, ``reading`` turns each into a pair, ``spans``
trims and compares the spans, ``pair`` is the record and the extractor protocol, ``llm``
is the hook for a language model instead and ``span_model`` the one for a cause/effect
tagging model (``pip install transformers``).
"""

from groundgraph.ingest.causal.extract import (
    MAX_SENTENCE_CHARS,
    MAX_TEXT_CHARS,
    extract_causal,
)
from groundgraph.ingest.causal.language import TABLES, guess_language, language_codes
from groundgraph.ingest.causal.llm import llm_causal_extractor, read_llm_causal
from groundgraph.ingest.causal.pair import CausalExtractor, CausalPair
from groundgraph.ingest.causal.span_model import CausalSpanExtractor
from groundgraph.ingest.causal.spans import same_span, span_key

__all__ = [
    "MAX_SENTENCE_CHARS",
    "MAX_TEXT_CHARS",
    "TABLES",
    "CausalExtractor",
    "CausalPair",
    "CausalSpanExtractor",
    "extract_causal",
    "guess_language",
    "language_codes",
    "llm_causal_extractor",
    "read_llm_causal",
    "same_span",
    "span_key",
]
