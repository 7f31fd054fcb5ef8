"""GroundedReasoner: accept a relation claim only when the facts give a proof path.

Facts are ``(subject, relation, object)``: "object is the relation of subject". A claim
"b is the r of a" is grounded when a path of facts leads from a to b: by the relation r
repeated (``verify``, which assumes r composes with itself), or by an exact chain of
relations (``verify_path``). When every fact is true and the relations used really
compose, every grounded verdict is true: precision 1.0. The calibration methods measure
how far those two conditions hold on held-out labels.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Sequence

from groundgraph.errors import InputError
from groundgraph.reason.relations.calibrate import (
    Calibration,
    calibrate_grounding,
    calibrate_normalization,
)
from groundgraph.reason.relations.katz import KatzScorer, check_katz_parameters
from groundgraph.reason.relations.paths import chain_path, find_cycle, shortest_path
from groundgraph.reason.relations.spectrum import Spectrum, spectrum_of
from groundgraph.reason.relations.triples import Normalizer, TripleStore
from groundgraph.reason.relations.verdict import Hop, Verdict, refusal

#: A claim for ``filter_claims``: (subject, object), (subject, object, relation) or
#: (subject, object, [relation, …]).
Claim = tuple[str, str] | tuple[str, str, str | Sequence[str] | None]


MAX_SPECTRUM_NODES = 2_000  # entities in one spectrum(): a dense eigenvalue problem


class GroundedReasoner:
    """Verify multi-hop relation claims against a set of facts, with a proof for each yes.

    ``walk_len`` and ``alpha`` set the Katz confidence (see ``katz``); ``normalize`` maps
    entity spellings to keys (proofs still show the first spelling seen);
    ``transitive_relations``, when given, lists the relations ``verify`` may compose
    with themselves: any other raises InputError instead of silently assuming it.
    """

    def __init__(
        self,
        walk_len: int = 8,
        alpha: float = 0.6,
        normalize: Normalizer | None = None,
        transitive_relations: Collection[str] | None = None,
    ) -> None:
        check_katz_parameters(alpha, walk_len)
        self.walk_len = walk_len
        self.alpha = alpha
        self.normalize = normalize
        self.transitive_relations = (
            frozenset(transitive_relations) if transitive_relations is not None else None
        )
        self._store = TripleStore(normalize)
        self._scorer: KatzScorer | None = None
        self._scorer_version = -1

    # -- facts -------------------------------------------------------------------------

    def add_fact(self, subject: str, relation: str, obj: str, source: str | None = None) -> None:
        """Add "obj is the relation of subject"; ``source`` names what asserts it."""
        problem = _fact_problem((subject, relation, obj, source))
        if problem:
            raise InputError(f"bad fact ({subject!r}, {relation!r}, {obj!r}): {problem}")
        self._store.add(subject, relation, obj, source)

    def add_facts(self, facts: Iterable[Sequence[str | None]]) -> None:
        """Add (subject, relation, object[, source]) facts; all are checked before any is added."""
        checked: list[tuple[str, str, str, str | None]] = []
        for i, fact in enumerate(facts):
            problem = _fact_problem(fact)
            if problem:
                raise InputError(f"fact #{i} {fact!r}: {problem}")
            s, r, o = str(fact[0]), str(fact[1]), str(fact[2])
            checked.append((s, r, o, fact[3] if len(fact) == 4 else None))
        for s, r, o, source in checked:
            self._store.add(s, r, o, source)

    @property
    def facts(self) -> list[tuple[str, str, str]]:
        """The distinct facts, in first-seen spellings and insertion order."""
        show = self._store.display
        return [(show(f.subject), f.relation, show(f.object)) for f in self._store.facts()]

    def __len__(self) -> int:
        return len(self._store)

    # -- verdicts ----------------------------------------------------------------------

    def verify(self, subject: str, obj: str, via: str | None = None) -> Verdict:
        """Is obj the ``via`` of subject, by a chain of ``via`` facts (any relation if None)?

        The proof is a shortest path of at least one fact; subject == obj needs a cycle.
        """
        allowed = self.transitive_relations
        if via is not None and allowed is not None and via not in allowed:
            raise InputError(
                f"relation {via!r} is not declared transitive "
                f"(transitive_relations={sorted(allowed)}); declare it, measure it with "
                "calibrate_transitivity, or check a fixed chain with verify_path"
            )
        return self._verify_closure(subject, obj, via)

    def verify_path(self, subject: str, obj: str, via: Sequence[str]) -> Verdict:
        """Is obj reached from subject by exactly the relations ``via``, in that order?"""
        if isinstance(via, str) or not via or not all(isinstance(r, str) for r in via):
            raise InputError(
                f"via must be a non-empty list of relation names, got {via!r}; "
                "for one relation use verify(subject, obj, via=relation)"
            )
        relation = "->".join(via)
        s_key, o_key = self._store.key(subject), self._store.key(obj)
        if not self._store.knows(s_key):
            return refusal(relation)
        path = chain_path(s_key, o_key, list(via), self._store.successors)
        return self._verdict(path, list(via), relation)

    def _verify_closure(self, subject: str, obj: str, via: str | None) -> Verdict:
        s_key, o_key = self._store.key(subject), self._store.key(obj)
        if not (self._store.knows(s_key) and self._store.knows(o_key)):
            return refusal(via)
        path = shortest_path(s_key, o_key, lambda node: self._store.successors(node, via))
        if path is None:
            return refusal(via)
        relations = [
            via if via is not None else self._store.first_relation(a, b)
            for a, b in itertools.pairwise(path)
        ]
        return self._verdict(path, relations, via)

    def _verdict(self, path: list[str] | None, relations: list[str], label: str | None) -> Verdict:
        if path is None:
            return refusal(label)
        show = self._store.display
        hops = tuple(
            Hop(show(a), r, show(b), self._store.sources(a, r, b))
            for a, r, b in zip(path[:-1], relations, path[1:], strict=True)
        )
        scorer = self._katz()
        return Verdict(
            grounded=True,
            proof=tuple(show(node) for node in path),
            confidence=scorer.confidence(path[0], path[-1]),
            relation=label,
            confidence_normalized=scorer.normalized_confidence(path[0], path[-1]),
            hops=hops,
        )

    def filter_claims(self, claims: Iterable[Claim]) -> list[tuple[Claim, Verdict]]:
        """Each claim with its verdict; a list of relations is checked with verify_path."""
        results: list[tuple[Claim, Verdict]] = []
        for i, claim in enumerate(claims):
            if isinstance(claim, str) or len(claim) not in (2, 3):
                raise InputError(
                    f"claim #{i} must be (subject, object) or (subject, object, via), got {claim!r}"
                )
            via = claim[2] if len(claim) == 3 else None
            if via is None or isinstance(via, str):
                verdict = self.verify(claim[0], claim[1], via)
            else:
                verdict = self.verify_path(claim[0], claim[1], via)
            results.append((claim, verdict))
        return results

    def contradictions(self, relation: str) -> list[list[str]]:
        """A cycle of ``relation`` facts as [a, b, …, a] (one, in a list), or [] if none.

        For an order-like relation (parent, is_a, part_of) a cycle means some fact is wrong.
        """
        cycle = find_cycle(
            self._store.entities(), lambda node: self._store.successors(node, relation)
        )
        return [[self._store.display(node) for node in cycle]] if cycle else []

    def spectrum(self, relation: str | None = None) -> Spectrum:
        """The spectrum of one relation (None: all of them) over the entities it links.

        ``nilpotent`` (spectral radius 0) means a hierarchy with no cycle; otherwise
        ``cycle_members`` names the entities on a cycle. Dense: at most
        ``MAX_SPECTRUM_NODES`` entities.
        """
        edges = [
            (s, o) for s in self._store.entities() for o in self._store.successors(s, relation)
        ]
        nodes = list(dict.fromkeys(name for edge in edges for name in edge))
        if len(nodes) > MAX_SPECTRUM_NODES:
            raise InputError(
                f"the spectrum is computed densely, for at most {MAX_SPECTRUM_NODES:,} "
                f"entities, and this relation links {len(nodes):,}: ask about one "
                "relation, or use contradictions() to find a cycle"
            )
        names = [self._store.display(node) for node in nodes]
        return spectrum_of(relation, nodes, edges, names)

    # -- scores ------------------------------------------------------------------------

    def _katz(self) -> KatzScorer:
        if self._scorer is None or self._scorer_version != self._store.version:
            self._scorer = KatzScorer(self._store.weights(), self.alpha, self.walk_len)
            self._scorer_version = self._store.version
        return self._scorer

    def confidence(self, subject: str, obj: str, normalized: bool = False) -> float:
        """The Katz sum over all relations from subject to obj (normalised: in [0, 1])."""
        s_key, o_key = self._store.key(subject), self._store.key(obj)
        scorer = self._katz()
        if normalized:
            return scorer.normalized_confidence(s_key, o_key)
        return scorer.confidence(s_key, o_key)

    def path_multiplicity(
        self, subject: str, obj: str, max_len: int | None = None, cap: int = 5
    ) -> int:
        """Walks of 1..max_len steps (default walk_len) from subject to obj, up to cap."""
        s_key, o_key = self._store.key(subject), self._store.key(obj)
        return self._katz().path_multiplicity(s_key, o_key, max_len, cap)

    # -- calibration -------------------------------------------------------------------

    def calibrate_transitivity(
        self, relation: str, labeled_pairs: Iterable[Sequence[object]], alpha: float = 0.1
    ) -> Calibration:
        """How often ``verify(a, b, via=relation)`` is right on held-out (a, b, label) pairs."""
        return calibrate_grounding(
            lambda a, b: self._verify_closure(a, b, relation).grounded, labeled_pairs, alpha
        )

    def calibrate_path(
        self, via: Sequence[str], labeled_pairs: Iterable[Sequence[object]], alpha: float = 0.1
    ) -> Calibration:
        """How often ``verify_path(a, b, via)`` is right on held-out (a, b, label) pairs."""
        chain = list(via)
        return calibrate_grounding(
            lambda a, b: self.verify_path(a, b, chain).grounded, labeled_pairs, alpha
        )

    def calibrate_normalization(
        self, labeled_pairs: Iterable[Sequence[object]], alpha: float = 0.1
    ) -> Calibration:
        """How often two spellings the normaliser merges are really one entity."""
        return calibrate_normalization(self.normalize, labeled_pairs, alpha)


def _fact_problem(fact: object) -> str:
    """What is wrong with a fact, or "" if nothing is."""
    if isinstance(fact, str) or not isinstance(fact, Sequence):
        return "a fact must be a (subject, relation, object) tuple or list"
    if len(fact) not in (3, 4):
        return f"a fact must have 3 items (subject, relation, object), not {len(fact)}"
    for name, value in zip(("subject", "relation", "object"), fact, strict=False):
        if not isinstance(value, str):
            return f"the {name} must be a string, not {type(value).__name__}"
        if not value.strip():
            return f"the {name} is empty"
    if len(fact) == 4 and fact[3] is not None and not isinstance(fact[3], str):
        return f"the source must be a string or None, not {type(fact[3]).__name__}"
    return ""
