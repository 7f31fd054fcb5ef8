"""The triple store behind the verifier: entities, relations, weights and sources.

Facts are ``(subject, relation, object)`` triples read as "object is the relation of
subject". Entities pass through an optional ``normalize`` function before they become
keys, and each key remembers the spelling it was first seen with. Everything is kept in
insertion order, so searches over the store are deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from groundgraph.errors import InputError

Normalizer = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class Triple:
    """A stored (subject, relation, object) triple, by entity key."""

    subject: str
    relation: str
    object: str


class TripleStore:
    """Triples with per-relation and any-relation adjacency, edge weights and sources."""

    def __init__(self, normalize: Normalizer | None = None) -> None:
        self._normalize = normalize
        self._display: dict[str, str] = {}
        self._facts: dict[Triple, dict[str, None]] = {}  # fact -> ordered set of sources
        self._by_relation: dict[str, dict[str, dict[str, None]]] = {}
        self._any: dict[str, dict[str, str]] = {}  # subject -> object -> first relation
        self._weights: dict[tuple[str, str], float] = {}
        self.version = 0  # bumped on every change, so derived caches know they are stale

    def key(self, name: str) -> str:
        """The key an entity name is stored under."""
        if self._normalize is None:
            return name
        key = self._normalize(name)
        if not isinstance(key, str) or not key:
            raise InputError(
                f"normalize({name!r}) returned {key!r}; it must return a non-empty string"
            )
        return key

    def add(self, subject: str, relation: str, obj: str, source: str | None = None) -> Triple:
        """Store one fact; adding it again adds weight to its edge and merges the source."""
        s_key, o_key = self.key(subject), self.key(obj)
        self._display.setdefault(s_key, subject)
        self._display.setdefault(o_key, obj)
        fact = Triple(s_key, relation, o_key)
        sources = self._facts.setdefault(fact, {})
        if source is not None:
            sources[source] = None
        self._by_relation.setdefault(relation, {}).setdefault(s_key, {})[o_key] = None
        self._any.setdefault(s_key, {}).setdefault(o_key, relation)
        self._weights[s_key, o_key] = self._weights.get((s_key, o_key), 0.0) + 1.0
        self.version += 1
        return fact

    def display(self, key: str) -> str:
        """The first spelling seen for an entity key."""
        return self._display.get(key, key)

    def knows(self, key: str) -> bool:
        """Whether any fact mentions this entity key."""
        return key in self._display

    def entities(self) -> list[str]:
        """Entity keys in first-seen order."""
        return list(self._display)

    def relations(self) -> list[str]:
        """Relation names in first-seen order."""
        return list(self._by_relation)

    def facts(self) -> Iterator[Triple]:
        """Distinct facts in insertion order."""
        return iter(self._facts)

    def __len__(self) -> int:
        return len(self._facts)

    def successors(self, key: str, relation: str | None = None) -> list[str]:
        """Objects reachable in one step, by one relation or (None) by any relation."""
        if relation is None:
            return list(self._any.get(key, ()))
        return list(self._by_relation.get(relation, {}).get(key, ()))

    def first_relation(self, subject_key: str, object_key: str) -> str:
        """The first relation added between two entity keys (they must be linked)."""
        return self._any[subject_key][object_key]

    def sources(self, subject_key: str, relation: str, object_key: str) -> tuple[str, ...]:
        """The sources that assert a fact, in the order they were added."""
        return tuple(self._facts.get(Triple(subject_key, relation, object_key), ()))

    def weights(self) -> dict[tuple[str, str], float]:
        """Edge weights of the any-relation graph: how many times each pair was asserted."""
        return dict(self._weights)
