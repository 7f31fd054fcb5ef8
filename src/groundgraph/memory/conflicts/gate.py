"""Whether a new fact could contradict any fact of the memory, before any candidate is read.

Most facts are plain statements ("The compiler emits a warning"): they make no claim about
a single-valued attribute, announce no change and negate nothing, so the rule resolver
finds no contradiction whatever it is compared with. For such a fact the memory need not
look for candidates at all (the facts sharing an entity, the BM25 neighbours) nor read
them. ``ConflictGate.may_contradict`` answers False only when no rule of a
``RuleConflictResolver`` can fire against any fact:

- single-valued: the new fact makes no claim (``parse_claims``);
- changes: it cues no change rule and holds no mark of the present (``read_cues``);
- negation: no sentence of a fact the memory holds, valid or retired, is the negation of
  one of its sentences or negated by one (the propositions are kept by first word, the one
  word the two must share, and length: a negation has at most ``MAX_EXTRA_WORDS`` words
  fewer than what it negates).

Any other resolver (an LLM, an NLI model, a subclass of the rule resolver) is always
asked. ``may_contradict(..., gated=False)`` always answers True: the reference the gate is
tested against (``tests/memory/conflicts``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from groundgraph.memory.conflicts.cues import read_cues
from groundgraph.memory.conflicts.negation import (
    MAX_EXTRA_WORDS,
    Proposition,
    negates,
    proposition,
)
from groundgraph.memory.conflicts.phrases import MAX_TEXT, sentences
from groundgraph.memory.conflicts.resolvers import ConflictResolver, RuleConflictResolver
from groundgraph.memory.conflicts.rules import MAX_CLAIM_TEXT, parse_claims
from groundgraph.memory.timeline import FactState


class ConflictGate:
    """The sentences of the facts seen, negated or not, by first word and length; ``see``
    adds facts."""

    def __init__(self) -> None:
        self._by_head: dict[tuple[bool, str, int], list[Proposition]] = {}
        self._seen: set[str] = set()

    def see(self, states: Mapping[str, FactState], fact_ids: Iterable[str] | None = None) -> None:
        """Read the facts ``fact_ids`` (every fact of ``states`` when None) not seen yet. A
        fact's text never changes (its id is its text's hash), so a fact is read once; a
        removed fact's sentences stay, which only makes the gate ask more often."""
        for fact in states if fact_ids is None else fact_ids:
            state = states.get(fact)
            if state is None or fact in self._seen:
                continue
            self._seen.add(fact)
            for sentence in sentences(state.text[:MAX_CLAIM_TEXT]):
                b = proposition(sentence)
                if b.words:
                    key = (b.negated, b.words[0], len(b.words))
                    self._by_head.setdefault(key, []).append(b)

    def clear(self) -> None:
        self._by_head.clear()
        self._seen.clear()

    def may_contradict(self, resolver: ConflictResolver, new: str, *, gated: bool = True) -> bool:
        """False when ``resolver`` finds no contradiction of ``new`` among any facts this
        gate has seen (a rule resolver with nothing to fire); True otherwise."""
        if not gated or type(resolver) is not RuleConflictResolver or not isinstance(new, str):
            return True
        text = new[:MAX_CLAIM_TEXT]
        if not text.strip():
            return False
        if resolver.changes and read_cues(text[:MAX_TEXT]).may_change:
            return True
        if resolver.negation:
            for sentence in sentences(text):
                if self._negation_of(proposition(sentence)):
                    return True
        return resolver.single_valued and bool(parse_claims(text))

    def _negation_of(self, a: Proposition) -> bool:
        """Whether a sentence seen negates ``a`` or is negated by it (``negates``)."""
        if not a.words:
            return False
        size = len(a.words)
        # a negation is at most MAX_EXTRA_WORDS shorter than the sentence it negates
        sizes = (
            range(size, size + MAX_EXTRA_WORDS + 1)
            if a.negated
            else range(size - MAX_EXTRA_WORDS, size + 1)
        )
        head = a.words[0]
        return any(
            negates(a, b) for n in sizes for b in self._by_head.get((not a.negated, head, n), ())
        )
