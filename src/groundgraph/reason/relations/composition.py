"""Composition tables: fold a chain of relations into one, and learn the table from labels.

A chain is a list of steps ``(relation, tag)``: step i leads from entity i to entity i+1,
which is the ``relation`` of entity i, and ``tag`` describes entity i+1 (for kinship, its
gender; "" when nothing is needed). A table maps ``(r1, r2, tag of r2's end)`` to the
relation that the end of r2 has to the start of r1:

    (father, brother, male) -> uncle     x's father's brother is x's uncle

``fold`` reduces the leftmost adjacent pair the table knows, again and again, until one
relation is left (the answer) or no pair reduces (no answer). ``learn_composition`` fills a
table from labelled chains: reduce each chain with the rules known so far; if exactly two
steps remain, the label is what they compose to, which is one new rule; repeat until a
pass learns nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from groundgraph.errors import InputError

RuleKey = tuple[str, str, str]
CompositionTable = Mapping[RuleKey, str]
ChainStep = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Span:
    """A relation between entity ``start`` and entity ``end`` (positions in the chain)."""

    relation: str
    tag: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Reduction:
    """One use of a table rule: ``left`` then ``right`` compose to ``result``."""

    left: Span
    right: Span
    result: Span

    @property
    def key(self) -> RuleKey:
        """The table key this reduction used."""
        return (self.left.relation, self.right.relation, self.right.tag)


@dataclass(frozen=True, slots=True)
class Fold:
    """The outcome of folding a chain: the answer (None if stuck) and the steps taken."""

    relation: str | None
    reductions: tuple[Reduction, ...]
    remaining: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class Conflict:
    """A labelled chain the learned table folds to a different relation than its label."""

    index: int
    label: str
    derived: str
    key: RuleKey | None  # the last rule used, None for a one-step chain


def _spans(chain: Sequence[ChainStep]) -> list[Span]:
    spans: list[Span] = []
    for i, step in enumerate(chain):
        if (
            isinstance(step, str)
            or len(step) != 2
            or not isinstance(step[0], str)
            or not isinstance(step[1], str)
        ):
            raise InputError(f"chain step #{i} must be (relation, tag) strings, got {step!r}")
        spans.append(Span(step[0], step[1], i, i + 1))
    return spans


def _reduce(spans: list[Span], table: CompositionTable) -> tuple[list[Span], list[Reduction]]:
    reductions: list[Reduction] = []
    while len(spans) > 1:
        for i in range(len(spans) - 1):
            left, right = spans[i], spans[i + 1]
            result = table.get((left.relation, right.relation, right.tag))
            if result is not None:
                merged = Span(result, right.tag, left.start, right.end)
                reductions.append(Reduction(left, right, merged))
                spans = [*spans[:i], merged, *spans[i + 2 :]]
                break
        else:
            break
    return spans, reductions


def fold_chain(chain: Sequence[ChainStep], table: CompositionTable) -> Fold:
    """Fold leftmost-first, keeping every reduction as the proof of the answer."""
    spans, reductions = _reduce(_spans(chain), table)
    relation = spans[0].relation if len(spans) == 1 else None
    return Fold(relation, tuple(reductions), tuple(spans))


def fold(chain: Sequence[ChainStep], table: CompositionTable) -> str | None:
    """The one relation the chain composes to, or None if it is empty or gets stuck."""
    return fold_chain(chain, table).relation


def learn_composition(
    chains: Iterable[tuple[Sequence[ChainStep], str]],
    max_iter: int = 1000,
    table: CompositionTable | None = None,
) -> tuple[dict[RuleKey, str], list[Conflict], int]:
    """Learn rules from (chain, label) pairs, starting from ``table`` if given.

    Returns the table, the chains it then folds to something other than their label
    (conflicts; the first label seen for a rule wins), and the number of passes made,
    the last of which learned nothing (or hit ``max_iter``).
    """
    labelled = [(_spans(chain), label) for chain, label in chains]
    learned: dict[RuleKey, str] = dict(table or {})
    passes = 0
    for passes in range(1, max_iter + 1):  # noqa: B007 - the count is returned
        changed = False
        for spans, label in labelled:
            rest, _ = _reduce(spans, learned)
            if len(rest) == 2:
                learned[rest[0].relation, rest[1].relation, rest[1].tag] = label
                changed = True
        if not changed:
            break
    conflicts: list[Conflict] = []
    for index, (spans, label) in enumerate(labelled):
        rest, reductions = _reduce(spans, learned)
        if len(rest) == 1 and rest[0].relation != label:
            key = reductions[-1].key if reductions else None
            conflicts.append(Conflict(index, label, rest[0].relation, key))
    return learned, conflicts, passes
