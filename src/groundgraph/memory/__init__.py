"""Agent memory: facts, scopes, contradictions and supersession, time travel, datasets.

The verbs live on ``DocumentGraph`` (``graph/memory.py``); the logic lives here, below
the facade, so it imports search, index, walk, store and ingest but never ``graph``.
"""

from __future__ import annotations

# -- contradictions and built-in datasets (conflicts.py, datasets.py) --
from groundgraph.memory.conflicts import (
    Claim,
    ConflictResolver,
    Contradiction,
    LLMConflictResolver,
    NLIConflictResolver,
    ParseFailure,
    RuleConflictResolver,
    parse_claims,
)
from groundgraph.memory.datasets import (
    DatasetFact,
    DatasetQuestion,
    dataset_description,
    dataset_names,
    dataset_questions,
    load_dataset_facts,
)

# -- facts, scopes, recall and answers (facts.py, scopes.py, synthesis.py) --
from groundgraph.memory.scopes import check_scope
from groundgraph.memory.synthesis import (
    FactContext,
    PromptSynthesizer,
    Synthesizer,
    TemplateSynthesizer,
)
from groundgraph.model.ids import fact_id
from groundgraph.model.memory import Fact

__all__ = [
    # -- contradictions and built-in datasets --
    "Claim",
    "ConflictResolver",
    "Contradiction",
    "DatasetFact",
    "DatasetQuestion",
    "LLMConflictResolver",
    "NLIConflictResolver",
    "ParseFailure",
    "RuleConflictResolver",
    "dataset_description",
    "dataset_names",
    "dataset_questions",
    "load_dataset_facts",
    "parse_claims",
]
__all__ += [
    # -- facts, scopes, recall and answers --
    "Fact",
    "FactContext",
    "PromptSynthesizer",
    "Synthesizer",
    "TemplateSynthesizer",
    "check_scope",
    "fact_id",
]
