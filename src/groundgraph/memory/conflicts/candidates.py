"""Which earlier facts a new fact is checked against, and what the resolver said.

Candidates are the valid facts that share a scope with the new one (or, with no scope,
are unscoped too) and either name an entity or span it names or are among its nearest
BM25 matches. A fact in another tenant's scope is never a candidate, so one tenant's
statement cannot retire another's fact. The resolver's answer is mapped back to fact
ids; a plain string answer becomes a ``Contradiction`` whose rule is the resolver's class
name, and an answer naming no candidate is ignored.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from groundgraph.errors import InputError
from groundgraph.memory.conflicts.resolvers import ConflictResolver, Contradiction
from groundgraph.memory.scopes import share_scope
from groundgraph.memory.timeline import FactState

MAX_CANDIDATES = 20


@dataclass(frozen=True)
class Found:
    """A candidate the new fact contradicts."""

    fact_id: str
    contradiction: Contradiction


def candidates(
    new: str,
    scopes: tuple[str, ...],
    states: Mapping[str, FactState],
    sharing_entities: Iterable[str],
    lexical: Iterable[str],
) -> list[str]:
    """Valid facts in a shared scope: those sharing an entity first, then BM25 neighbours.
    ``lexical`` is read only when the facts sharing an entity are fewer than the most
    taken (it may be lazy: a BM25 search that runs only then)."""
    out: list[str] = []
    for fact in itertools.chain(sharing_entities, lexical):
        state = states.get(fact)
        if state is None or fact == new or fact in out or state.invalid_at is not None:
            continue
        if share_scope(scopes, state.scopes):
            out.append(fact)
        if len(out) >= MAX_CANDIDATES:
            break
    return out


def contradicted(
    resolver: ConflictResolver,
    text: str,
    candidate_ids: Sequence[str],
    states: Mapping[str, FactState],
) -> list[Found]:
    """The candidates ``resolver`` says ``text`` contradicts, in candidate order."""
    if not candidate_ids:
        return []
    texts = [states[f].text for f in candidate_ids]
    answer = resolver.contradictions(text, texts)
    if isinstance(answer, str | bytes) or not isinstance(answer, Iterable):
        raise InputError(
            f"{type(resolver).__name__}.contradictions must return a list, "
            f"not {type(answer).__name__}"
        )
    by_text: dict[str, str] = {}
    for fact, candidate in zip(candidate_ids, texts, strict=True):
        by_text.setdefault(candidate, fact)
    found: dict[str, Found] = {}
    for item in answer:
        if isinstance(item, str):
            item = Contradiction(item, type(resolver).__name__, "")
        if not isinstance(item, Contradiction):
            raise InputError(
                f"{type(resolver).__name__}.contradictions returned a {type(item).__name__}: "
                "return Contradiction records or the candidate texts"
            )
        match = by_text.get(item.candidate)
        if match is not None and match not in found:
            found[match] = Found(match, item)
    return [found[f] for f in candidate_ids if f in found]
