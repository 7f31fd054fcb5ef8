"""The memory options of ``DocumentGraph(...)``: checked when the graph is made, their
defaults (the rule-based contradiction resolver, the template synthesizer) built only when
the memory is first used, so a graph that only searches documents never loads them
(issue 12, cold start)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from groundgraph.errors import InputError
from groundgraph.index.embedder import as_embedder
from groundgraph.memory.dedup import DEFAULT_DEDUP_THRESHOLD, Embedder, check_threshold
from groundgraph.memory.forget import DEFAULT_FORGET_EVERY, check_days, check_seconds

if TYPE_CHECKING:
    from groundgraph.memory.conflicts import ConflictResolver
    from groundgraph.memory.facts import CausalExtractorLike, CausalPairLike
    from groundgraph.memory.synthesis import Synthesizer

__all__ = ["MemoryOptions", "MemorySettings", "check_memory_options", "memory_settings"]


@dataclass(frozen=True)
class MemorySettings:
    """The memory options of ``DocumentGraph(...)``, checked once.

    ``conflict_resolver`` None means the rule-based default and False none at all;
    ``causal_extractor`` None means the cue extractor of ``ingest.causal`` and False none.
    """

    conflict_resolver: ConflictResolver | None
    isolate_traversal: bool
    forget_after: float | None
    forget_every: float | None
    causal_extractor: CausalExtractorLike | None
    synthesizer: Synthesizer
    embedder: Embedder | None
    dedup_threshold: float | None


@dataclass(frozen=True)
class MemoryOptions:
    """The memory options, checked; :meth:`settings` fills in the defaults."""

    conflict_resolver: ConflictResolver | bool | None
    isolate_traversal: bool
    forget_after: float | None
    forget_every: float | None
    causal_extractor: CausalExtractorLike | None
    synthesizer: Synthesizer | None
    embedder: Embedder | None
    dedup_threshold: float | None

    def settings(self) -> MemorySettings:
        """The settings, with the default resolver and synthesizer built (and imported)."""
        resolver = self.conflict_resolver
        if resolver is None:
            from groundgraph.memory.conflicts import RuleConflictResolver

            resolver = RuleConflictResolver()
        synthesizer = self.synthesizer
        if synthesizer is None:
            from groundgraph.memory.synthesis import TemplateSynthesizer

            synthesizer = TemplateSynthesizer()
        return MemorySettings(
            None if resolver is False or resolver is True else resolver,
            self.isolate_traversal,
            self.forget_after,
            self.forget_every,
            self.causal_extractor,
            synthesizer,
            self.embedder,
            self.dedup_threshold,
        )


def check_memory_options(
    conflict_resolver: object = None,
    isolate_traversal: object = False,
    forget_after: object = None,
    forget_every: object = DEFAULT_FORGET_EVERY,
    causal_extractor: object = None,
    synthesizer: object = None,
    embedder: object = None,
    dedup_threshold: object = DEFAULT_DEDUP_THRESHOLD,
) -> MemoryOptions:
    """Check the memory options of a graph (an :class:`InputError` says what is wrong)."""
    if conflict_resolver is None or conflict_resolver is False:
        resolver: ConflictResolver | bool | None = conflict_resolver  # None: the default
    elif callable(getattr(conflict_resolver, "contradictions", None)):
        resolver = conflict_resolver  # type: ignore[assignment]
    else:
        raise InputError(
            "conflict_resolver must have a contradictions(new, candidates) method, "
            "or be None (the rule-based default) or False (no resolution)"
        )
    if not isinstance(isolate_traversal, bool):
        raise InputError("isolate_traversal must be True or False")
    if causal_extractor is None:
        causal: CausalExtractorLike | None = default_causal
    elif causal_extractor is False:
        causal = None
    elif callable(causal_extractor):
        causal = causal_extractor
    else:
        raise InputError("causal_extractor must be a callable text -> causal pairs, or False")
    if synthesizer is not None and not callable(synthesizer):
        raise InputError("synthesizer must be a callable, or None")
    # Any embedder (index.embedder) compares facts through the one adapter.
    dedup = None if embedder is None else as_embedder(embedder).embed
    return MemoryOptions(
        resolver,
        isolate_traversal,
        None if forget_after is None else check_days(forget_after),
        check_seconds(forget_every),
        causal,
        synthesizer,
        dedup,
        None if dedup_threshold is None else check_threshold(dedup_threshold),
    )


def memory_settings(
    conflict_resolver: object = None,
    isolate_traversal: object = False,
    forget_after: object = None,
    forget_every: object = DEFAULT_FORGET_EVERY,
    causal_extractor: object = None,
    synthesizer: object = None,
    embedder: object = None,
    dedup_threshold: object = DEFAULT_DEDUP_THRESHOLD,
) -> MemorySettings:
    """Check the memory options of a graph and fill in the defaults."""
    return check_memory_options(
        conflict_resolver,
        isolate_traversal,
        forget_after,
        forget_every,
        causal_extractor,
        synthesizer,
        embedder,
        dedup_threshold,
    ).settings()


def default_causal(text: str) -> Sequence[CausalPairLike]:
    """The cue extractor of ``ingest.causal``, every language's cue table (loaded on use)."""
    from groundgraph.ingest.causal import extract_causal

    return extract_causal(text)
