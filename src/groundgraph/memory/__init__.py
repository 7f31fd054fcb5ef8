"""Agent memory: facts, scopes, contradictions and supersession, time travel, datasets.

The verbs live on ``DocumentGraph`` (``graph/memory.py``); the logic lives here, below
the facade, so it imports search, index, walk, store and ingest but never ``graph``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundgraph.lazy_names import lazy_names

if TYPE_CHECKING:  # type checkers see the names; the interpreter loads them on first use
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

# Imported on first use, so importing one submodule does not load them all.
_LAZY = {
    "Claim": "groundgraph.memory.conflicts",
    "ConflictResolver": "groundgraph.memory.conflicts",
    "Contradiction": "groundgraph.memory.conflicts",
    "LLMConflictResolver": "groundgraph.memory.conflicts",
    "NLIConflictResolver": "groundgraph.memory.conflicts",
    "ParseFailure": "groundgraph.memory.conflicts",
    "RuleConflictResolver": "groundgraph.memory.conflicts",
    "parse_claims": "groundgraph.memory.conflicts",
    "DatasetFact": "groundgraph.memory.datasets",
    "DatasetQuestion": "groundgraph.memory.datasets",
    "dataset_description": "groundgraph.memory.datasets",
    "dataset_names": "groundgraph.memory.datasets",
    "dataset_questions": "groundgraph.memory.datasets",
    "load_dataset_facts": "groundgraph.memory.datasets",
    "check_scope": "groundgraph.memory.scopes",
    "FactContext": "groundgraph.memory.synthesis",
    "PromptSynthesizer": "groundgraph.memory.synthesis",
    "Synthesizer": "groundgraph.memory.synthesis",
    "TemplateSynthesizer": "groundgraph.memory.synthesis",
    "fact_id": "groundgraph.model.ids",
    "Fact": "groundgraph.model.memory",
}


__getattr__ = lazy_names(__name__, _LAZY, globals())


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
