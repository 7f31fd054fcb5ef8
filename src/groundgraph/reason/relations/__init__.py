"""The relation verifier: proofs for multi-hop relation claims, and how far to trust them.

    from groundgraph.reason.relations import GroundedReasoner
    gr = GroundedReasoner()
    gr.add_facts([("alice", "parent", "bob"), ("bob", "parent", "carol")])
    gr.verify("alice", "carol", via="parent").proof   # ('alice', 'bob', 'carol')

Around it: Katz confidence (``katz``), Clopper–Pearson calibration (``calibrate``),
conformal thresholds for noisy graphs (``conformal``), edge pruning from held-out labels
(``pruning``), the relation spectrum (``spectrum``: spectral radius, nilpotency,
cycles), Horn rules (``horn``), composition tables (``composition``), the built-in
kinship table derived from parent, child, spouse and sibling links (``kinship``, over
``kinship_paths``; checked against ``kinship_model``) and the agent tool (``tool``).
"""

from __future__ import annotations

from groundgraph.reason.relations.calibrate import (
    Calibration,
    calibrate_grounding,
    calibrate_normalization,
    clopper_pearson_lower,
    precision_bound,
)
from groundgraph.reason.relations.composition import (
    ChainStep,
    CompositionTable,
    Conflict,
    Fold,
    Reduction,
    RuleKey,
    Span,
    fold,
    fold_chain,
    learn_composition,
)
from groundgraph.reason.relations.conformal import (
    AdaptiveConformalReasoner,
    ConformalReasoner,
    PairScorer,
    conformal_threshold,
    redundancy_group,
    redundancy_grouping,
)
from groundgraph.reason.relations.horn import Rule, derive, entails, explain, forward_chain
from groundgraph.reason.relations.katz import KatzScorer, katz_bound, katz_resolvent
from groundgraph.reason.relations.kinship import (
    KINSHIP_RELATIONS,
    KINSHIP_TERMS,
    KinshipAlgebra,
    LeftOut,
    derive_kinship_algebra,
    derive_kinship_table,
    inverse_relation,
    kinship_algebra,
    kinship_table,
    kinship_word,
)
from groundgraph.reason.relations.pruning import (
    PruneResult,
    identify_and_prune_edges,
    identify_suspect_edges,
    masked_infer,
    prune_edges,
)
from groundgraph.reason.relations.spectrum import (
    Spectrum,
    cycle_members,
    diffusion_sum,
    is_acyclic,
    is_nilpotent,
    row_stochastic,
    spectral_radius,
)
from groundgraph.reason.relations.tool import (
    MAX_FACTS,
    MAX_STRING_LENGTH,
    TOOL_SPEC,
    openai_tool_spec,
    run_tool,
    verify_relation,
)
from groundgraph.reason.relations.verdict import Hop, Verdict
from groundgraph.reason.relations.verifier import Claim, GroundedReasoner

__all__ = [
    "KINSHIP_RELATIONS",
    "KINSHIP_TERMS",
    "MAX_FACTS",
    "MAX_STRING_LENGTH",
    "TOOL_SPEC",
    "AdaptiveConformalReasoner",
    "Calibration",
    "ChainStep",
    "Claim",
    "CompositionTable",
    "Conflict",
    "ConformalReasoner",
    "Fold",
    "GroundedReasoner",
    "Hop",
    "KatzScorer",
    "KinshipAlgebra",
    "LeftOut",
    "PairScorer",
    "PruneResult",
    "Reduction",
    "Rule",
    "RuleKey",
    "Span",
    "Spectrum",
    "Verdict",
    "calibrate_grounding",
    "calibrate_normalization",
    "clopper_pearson_lower",
    "conformal_threshold",
    "cycle_members",
    "derive",
    "derive_kinship_algebra",
    "derive_kinship_table",
    "diffusion_sum",
    "entails",
    "explain",
    "fold",
    "fold_chain",
    "forward_chain",
    "identify_and_prune_edges",
    "identify_suspect_edges",
    "inverse_relation",
    "is_acyclic",
    "is_nilpotent",
    "katz_bound",
    "katz_resolvent",
    "kinship_algebra",
    "kinship_table",
    "kinship_word",
    "learn_composition",
    "masked_infer",
    "openai_tool_spec",
    "precision_bound",
    "prune_edges",
    "redundancy_group",
    "redundancy_grouping",
    "row_stochastic",
    "run_tool",
    "spectral_radius",
    "verify_relation",
]
