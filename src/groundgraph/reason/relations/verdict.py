"""The answer to "is this relation claim grounded?": a verdict and the hops of its proof."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Hop:
    """One step of a proof: ``object`` is the ``relation`` of ``subject``.

    ``sources`` are the ids of whatever asserts the fact (for facts taken from documents,
    the sections that state it), in the order they were added; empty for bare facts.
    """

    subject: str
    relation: str
    object: str
    sources: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "subject": self.subject,
            "relation": self.relation,
            "object": self.object,
            "sources": list(self.sources),
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a claim is grounded, and the proof if it is.

    ``proof`` lists the entities of the path (first-seen spellings), ``hops`` the facts
    that connect them. ``confidence`` is the Katz sum Σₖ αᵏ(Pᵏ)[a, b] over the graph of
    all relations: a path-strength score that grows with shorter and more numerous paths,
    **not a probability** (it can exceed 1). ``confidence_normalized`` divides it by its
    largest possible value Σₖ αᵏ, so it lies in [0, 1]; it is still not a probability.
    Both are 0.0 for an ungrounded claim. ``relation`` is the relation asked about
    (``"r1->r2"`` for a chain, None for "any relation").
    """

    grounded: bool
    proof: tuple[str, ...] | None
    confidence: float
    relation: str | None
    confidence_normalized: float = 0.0
    hops: tuple[Hop, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The JSON form; scores rounded to 6 decimal places."""
        return {
            "grounded": self.grounded,
            "proof": list(self.proof) if self.proof is not None else None,
            "confidence": round(self.confidence, 6),
            "confidenceNormalized": round(self.confidence_normalized, 6),
            "relation": self.relation,
            "hops": [hop.as_dict() for hop in self.hops],
        }


def refusal(relation: str | None) -> Verdict:
    """The verdict for a claim with no proof."""
    return Verdict(grounded=False, proof=None, confidence=0.0, relation=relation)
