"""Why a sentence is not supported by a given section: the grounding check (``ground``)
run on that sentence against that section alone, read stage by stage.

A claim is supported when its section covers at least ``min_support`` of its rare-word
weight (the idf of its analysed terms) and no switched-on rule (numbers, names, links,
code, anchors, substitutions, negation) or verifier refuses it. The diagnosis names which
of those failed, the terms whose weight the section lacks, and reruns the check with the
one change that would let it pass: ``min_support`` lowered to the share the section
reaches, or the refusing rule turned off.
"""

from __future__ import annotations

from typing import Any

from groundgraph.model.valid_text import has_surrogates, valid_text
from groundgraph.model.why_not import GroundingChange, TermWeight, UnsupportedWhy
from groundgraph.reason.ground import DEFAULT_MIN_SUPPORT, ClaimCheck, Verifier, ground
from groundgraph.reason.support import GroundingCorpus, check_text, claim_weights

MAX_SENTENCE_CHARS = 10_000
_RULE_OPTION = {
    "numbers": "check_numbers",
    "names": "check_names",
    "links": "check_links",
    "code": "check_code",
    "anchors": "check_anchors",
    "substitutions": "check_substitutions",
    "negation": "check_negation",
}


def why_unsupported(
    corpus: GroundingCorpus,
    sentence: str,
    node_id: str,
    min_support: float = DEFAULT_MIN_SUPPORT,
    verify: Verifier | None = None,
    **rules: bool,
) -> UnsupportedWhy:
    """Why ``node_id`` does not support ``sentence`` (checked as ``ground`` checks it)."""
    sentence = check_text(sentence, "the sentence", MAX_SENTENCE_CHARS)
    options: dict[str, Any] = {"min_support": min_support, "verify": verify, **rules}

    def check(**changed: Any) -> ClaimCheck | None:
        result = ground(corpus, sentence, [node_id], max_nodes=1, **{**options, **changed})
        return result.claims[0] if result.claims else None

    def why(stage: str, reason: str, **parts: Any) -> UnsupportedWhy:
        shown = valid_text(node_id).text  # an id with a lone surrogate is echoed valid
        return UnsupportedWhy(sentence, shown, stage, reason, min_support=min_support,
                              **parts)  # fmt: skip

    # No stored id holds a lone surrogate (model/valid_text.py): such an id is missing.
    if has_surrogates(node_id) or not corpus.node_texts([node_id]):
        return why("missing", f"no section {node_id!r}", share=0.0, mass=0.0)
    claim = check()
    if claim is None:
        return why("nothing-to-check", "the sentence has no word of weight", share=1.0, mass=0.0)
    need = claim_weights(corpus, sentence)
    held = set(corpus.terms(corpus.node_texts([node_id])[node_id]))
    uncovered = sorted(
        (TermWeight(t, w) for t, w in need.items() if t not in held), key=lambda t: -t.weight
    )
    parts: dict[str, Any] = {
        "share": claim.share,
        "mass": claim.mass,
        "uncovered": tuple(uncovered),
        "rules": tuple(r for r in claim.rejected_by if r != "share"),
        "missing_numbers": claim.missing_numbers,
        "missing_names": claim.missing_names,
        "missing_code": claim.missing_code,
    }
    if claim.supported:
        return why("supported", f"{node_id} supports it ({claim.share:.2f} of its weight)",
                   **parts)  # fmt: skip
    changes = []
    if "share" in claim.rejected_by:
        again = check(min_support=claim.share)
        changes.append(
            GroundingChange(
                "min_support", claim.share, min_support, bool(again and again.supported)
            )
        )
    for rule in parts["rules"]:
        option = _RULE_OPTION.get(rule)
        if option is not None:
            again = check(**{option: False})
            changes.append(GroundingChange(option, False, True, bool(again and again.supported)))
        elif rule == "verify":
            again = check(verify=None)
            changes.append(
                GroundingChange("verify", "none", "given", bool(again and again.supported))
            )
    if "share" in claim.rejected_by:
        lacking = max(0.0, claim.mass * (min_support - claim.share))
        words = ", ".join(t.term for t in uncovered[:5])
        reason = (
            f"{node_id} covers {claim.share:.2f} of the claim's rare-word weight, under "
            f"min_support {min_support}; it lacks {words}"
        )
        return why("lacks-weight", reason, lacking=lacking, changes=tuple(changes), **parts)
    reason = f"the {', '.join(parts['rules'])} check refused it"
    return why("refused-by-rule", reason, changes=tuple(changes), **parts)
