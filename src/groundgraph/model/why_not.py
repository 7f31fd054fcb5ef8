"""What ``why_not`` returns: where a result that did not come fell out of the pipeline,
what each stage recorded about it, and a change of one option, actually run, that would
have brought it in.

A :class:`WhyNot` names one ``stage`` (the values of :data:`STAGES`) and carries the
trace of the stages it got through: :class:`TermTrace` (what analysis kept of the query
and the target), :class:`SeedTrace` (its lexical score and rank against the seeds'),
:class:`WalkTrace` (the best path to it and where that path stopped) and
:class:`RankTrace` (its final score and what ranked above). Its
:class:`Counterfactual` lists every rerun tried (:class:`Trial`).
"""

from __future__ import annotations

from dataclasses import dataclass

from groundgraph.model.record import Record
from groundgraph.model.results import TermScore

FOUND = "found"
MISSING = "missing"
OUTSIDE_SCOPES = "outside-scopes"
RETIRED = "retired"
NOT_YET_VALID = "not-yet-valid"
NO_COMMON_TERM = "no-common-term"
BELOW_SEED_CUTOFF = "below-seed-cutoff"
WALK_STOPPED = "walk-stopped"
OUTRANKED = "outranked"

#: Every diagnosis, in the order the pipeline meets them.
STAGES = (
    MISSING,
    OUTSIDE_SCOPES,
    RETIRED,
    NOT_YET_VALID,
    NO_COMMON_TERM,
    BELOW_SEED_CUTOFF,
    WALK_STOPPED,
    OUTRANKED,
    FOUND,
)

#: Option values a counterfactual may hold.
OptionValue = int | float | str


@dataclass(frozen=True, slots=True)
class TermTrace(Record):
    """What analysis made of the query and the target: the query's terms (stop words
    removed, stemmed in ``language``), the target's terms they share, and the target's
    stems nearest to the query's when they share none."""

    language: str
    query_terms: tuple[str, ...]
    stop_words: tuple[str, ...]
    shared: tuple[str, ...]
    closest: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeedTrace(Record):
    """The target's lexical match against the seeds: its score (divided by the best, as
    the pipeline seeds), its rank, the last seed's score, and the terms that carried it."""

    score: float | None
    rank: int | None
    max_seeds: int
    last_seed: str | None
    last_seed_score: float | None
    terms: tuple[TermScore, ...] = ()


@dataclass(frozen=True, slots=True)
class WalkTrace(Record):
    """The strongest path from a seed to the target the walk allows with its limits lifted,
    the score after each step, and where it stopped: ``limit`` is ``"min_score"`` (the
    score fell under the threshold at ``stopped_at``), ``"max_hops"`` (the path is longer
    than the hop limit), ``"max_activated"`` (the walk settled its quota of stronger
    nodes first), ``"hub"`` (no path: the ``hubs`` named give no steps) or
    ``"unreachable"`` (no path within ``probe_hops`` steps)."""

    limit: str
    path: tuple[str, ...] = ()
    edge_types: tuple[str, ...] = ()
    scores: tuple[float, ...] = ()
    stopped_at: int | None = None
    min_score: float = 0.0
    max_hops: int = 0
    probe_hops: int = 0
    hubs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RankTrace(Record):
    """The target's final score and rank among everything scored, and the results that
    ranked above it."""

    score: float
    rank: int
    lexical_score: float
    graph_score: float
    above: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Trial(Record):
    """One rerun with ``parameter`` changed from ``was`` to ``value``, and the rank the
    target got (None: not in the top k)."""

    parameter: str
    value: OptionValue
    was: OptionValue
    rank: int | None


@dataclass(frozen=True, slots=True)
class Counterfactual(Record):
    """The smallest change of one option, run, that brings the target into the top k
    (``parameter`` None: none within the limits), and every rerun tried."""

    parameter: str | None
    value: OptionValue | None
    was: OptionValue | None
    rank: int | None
    tried: tuple[Trial, ...] = ()

    @property
    def found(self) -> bool:
        return self.parameter is not None

    def describe(self) -> str:
        """The change in words: ``max_seeds 5 → 9: rank 3``."""
        if self.parameter is None:
            return f"none within the limits ({len(self.tried)} reruns tried)"
        return f"{self.parameter} {self.was} → {self.value}: rank {self.rank}"


@dataclass(frozen=True, slots=True)
class WhyNot(Record):
    """Why ``target`` is not among the top ``k`` results for ``query``: the ``stage``
    where it fell out, a sentence saying so, what each stage recorded, and a
    counterfactual that was run."""

    query: str
    target: str
    node_id: str | None
    stage: str
    reason: str
    k: int
    terms: TermTrace | None = None
    seed: SeedTrace | None = None
    walk: WalkTrace | None = None
    ranking: RankTrace | None = None
    nearest: tuple[str, ...] = ()
    counterfactual: Counterfactual | None = None


@dataclass(frozen=True, slots=True)
class TermWeight(Record):
    """An analysed term of a claim and its rare-word weight (idf)."""

    term: str
    weight: float


@dataclass(frozen=True, slots=True)
class GroundingChange(Record):
    """A rerun of the grounding check with one option changed, and its verdict."""

    parameter: str
    value: OptionValue
    was: OptionValue
    supported: bool


@dataclass(frozen=True, slots=True)
class UnsupportedWhy(Record):
    """Why ``sentence`` is not supported by section ``node_id``: ``stage`` is
    ``"supported"`` (it is), ``"missing"`` (no such section), ``"nothing-to-check"``
    (no word of weight), ``"lacks-weight"`` (the section covers ``share`` of the claim's
    rare-word weight, under ``min_support``: ``uncovered`` lists the terms it lacks,
    heaviest first, and ``lacking`` the weight short) or ``"refused-by-rule"``
    (``rules`` name the checks that refused it, with what each found missing). Each
    ``change`` was run: the smallest change that makes the section support the claim."""

    sentence: str
    node_id: str
    stage: str
    reason: str
    share: float
    min_support: float
    mass: float
    lacking: float = 0.0
    uncovered: tuple[TermWeight, ...] = ()
    rules: tuple[str, ...] = ()
    missing_numbers: tuple[str, ...] = ()
    missing_names: tuple[str, ...] = ()
    missing_code: tuple[str, ...] = ()
    changes: tuple[GroundingChange, ...] = ()
