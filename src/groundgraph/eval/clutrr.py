"""CLUTRR kinship reasoning: solve each story with a composition table, report by hop count.

CLUTRR (Sinha et al., EMNLP 2019) is CC BY-NC 4.0: it is read for evaluation from a path
the user gives; nothing derived from it ships with groundgraph.

A story is solved by the chain its edges form from the query's first person to its
second (else the shortest directed path over them; for a clean chain, the chain itself),
folded with the table leftmost-first; the answer comes with the facts on the path and
each reduction that combined them. With no table given, the built-in kinship table is used.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from groundgraph.eval.clutrr_data import ClutrrRow, load_clutrr
from groundgraph.reason.relations import (
    ChainStep,
    CompositionTable,
    Conflict,
    RuleKey,
    fold_chain,
    kinship_table,
    kinship_word,
    learn_composition,
)
from groundgraph.reason.relations.paths import shortest_path

Fact = tuple[str, str, str]


def story_chains(row: ClutrrRow) -> list[tuple[list[int], list[ChainStep]]]:
    """Candidate chains from the query's first person to its second, in the order tried.

    First, if the story's edges in their given order form a walk between the two (they do
    in every generated story, clean or not), that walk: it is the chain the story was
    written from, while a shorter path may cut through a noise fact whose relation CLUTRR
    did not keep consistent with the label. Then a shortest directed path over the
    story's edges. Each chain is its nodes and its (relation, gender of the person
    reached) steps.
    """
    successors: dict[int, list[int]] = {}
    relation: dict[tuple[int, int], str] = {}
    for edge, kind in zip(row.story_edges, row.edge_types, strict=True):
        successors.setdefault(edge[0], []).append(edge[1])
        relation.setdefault(edge, kind)
    start, goal = row.query_edge
    chains: list[tuple[list[int], list[ChainStep]]] = []
    edges = row.story_edges
    walk: list[int] | None = None
    if (
        edges
        and edges[0][0] == start
        and edges[-1][1] == goal
        and all(a[1] == b[0] for a, b in itertools.pairwise(edges))
    ):
        walk = [start, *(b for _, b in edges)]
        steps = [(kind, row.genders[b]) for (_, b), kind in zip(edges, row.edge_types, strict=True)]
        chains.append((walk, steps))
    path = shortest_path(start, goal, lambda node: successors.get(node, ()))
    if path is not None and path != walk:
        steps = [(relation[a, b], row.genders[b]) for a, b in itertools.pairwise(path)]
        chains.append((path, steps))
    return chains


def story_chain(row: ClutrrRow) -> tuple[list[int], list[ChainStep]] | None:
    """The first candidate chain of a story (see ``story_chains``), or None."""
    chains = story_chains(row)
    return chains[0] if chains else None


@dataclass(frozen=True, slots=True)
class ClutrrAnswer:
    """The relation found for a story (None if the table could not combine the chain).

    ``facts`` are the story facts on the path, ``derivations`` each combination made:
    two facts and the fact they give, in order. A derivation may name the kind of a word
    ("sister-in-law (spouse's sister)"); ``relation`` is the word.
    """

    relation: str | None
    facts: tuple[Fact, ...]
    derivations: tuple[tuple[Fact, Fact, Fact], ...]


def solve_clutrr(row: ClutrrRow, table: CompositionTable) -> ClutrrAnswer:
    """Answer a story's query with a composition table, with the proof.

    Tries each of ``story_chains`` in turn and answers from the first that folds to one
    relation; None (with the first chain's facts) when none does.
    """
    answers = [_answer(row, path, steps, table) for path, steps in story_chains(row)]
    for answer in answers:
        if answer.relation is not None:
            return answer
    return answers[0] if answers else ClutrrAnswer(None, (), ())


def _answer(
    row: ClutrrRow, path: list[int], steps: list[ChainStep], table: CompositionTable
) -> ClutrrAnswer:
    names = [row.names[node] for node in path]
    folded = fold_chain(steps, table)

    def fact(start: int, relation: str, end: int) -> Fact:
        return (names[start], relation, names[end])

    facts = tuple(fact(i, r, i + 1) for i, (r, _) in enumerate(steps))
    derivations = tuple(
        (
            fact(step.left.start, step.left.relation, step.left.end),
            fact(step.right.start, step.right.relation, step.right.end),
            fact(step.result.start, step.result.relation, step.result.end),
        )
        for step in folded.reductions
    )
    relation = kinship_word(folded.relation) if folded.relation is not None else None
    return ClutrrAnswer(relation, facts, derivations)


def learn_clutrr_table(
    rows: Iterable[ClutrrRow], clean_only: bool = True, table: CompositionTable | None = None
) -> tuple[dict[RuleKey, str], list[Conflict], int]:
    """Learn a composition table from labelled stories (by default clean chains only)."""
    chains: list[tuple[list[ChainStep], str]] = []
    for row in rows:
        if clean_only and not row.clean:
            continue
        found = story_chain(row)
        if found is not None:
            chains.append((found[1], row.target))
    return learn_composition(chains, table=table)


@dataclass(frozen=True, slots=True)
class HopStats:
    """Results for the stories of one hop count."""

    hops: int
    n: int
    covered: int
    correct: int

    @property
    def coverage(self) -> float:
        """Share of stories answered."""
        return self.covered / self.n if self.n else 0.0

    @property
    def accuracy(self) -> float:
        """Share of answered stories answered correctly."""
        return self.correct / self.covered if self.covered else 0.0

    @property
    def accuracy_all(self) -> float:
        """Share of all stories answered correctly (an unanswered story counts as wrong)."""
        return self.correct / self.n if self.n else 0.0

    def to_dict(self) -> dict[str, float | int]:
        """The JSON form."""
        return {
            "hops": self.hops,
            "n": self.n,
            "covered": self.covered,
            "correct": self.correct,
            "coverage": self.coverage,
            "accuracy": self.accuracy,
            "accuracyAll": self.accuracy_all,
        }


@dataclass(frozen=True, slots=True)
class Miss:
    """A story answered wrongly (``got`` the answer) or not at all (``got`` None)."""

    row_id: str
    hops: int
    expected: str
    got: str | None


@dataclass(frozen=True, slots=True)
class ClutrrReport:
    """Coverage and accuracy per hop count, and every miss."""

    name: str
    per_hop: tuple[HopStats, ...]
    misses: tuple[Miss, ...]
    table_size: int
    clean_only: bool

    @property
    def total(self) -> HopStats:
        """All hop counts together (``hops`` is 0)."""
        return HopStats(
            0,
            sum(h.n for h in self.per_hop),
            sum(h.covered for h in self.per_hop),
            sum(h.correct for h in self.per_hop),
        )

    def to_table(self) -> str:
        """A markdown table: one row per hop count, then the total."""
        lines = [
            f"{self.name} ({'clean chains' if self.clean_only else 'all stories'}, "
            f"table of {self.table_size} rules)",
            "",
            "| hops | n | covered | correct | coverage | accuracy (covered) | accuracy (all) |",
            "|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for stats in (*self.per_hop, self.total):
            label = str(stats.hops) if stats.hops else "all"
            lines.append(
                f"| {label} | {stats.n} | {stats.covered} | {stats.correct} "
                f"| {stats.coverage:.2%} | {stats.accuracy:.2%} | {stats.accuracy_all:.2%} |"
            )
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        """The JSON form."""
        return {
            "name": self.name,
            "cleanOnly": self.clean_only,
            "tableSize": self.table_size,
            "total": self.total.to_dict(),
            "perHop": [stats.to_dict() for stats in self.per_hop],
            "misses": [
                {"id": m.row_id, "hops": m.hops, "expected": m.expected, "got": m.got}
                for m in self.misses
            ],
        }


def evaluate_rows(
    rows: Iterable[ClutrrRow],
    table: CompositionTable | None = None,
    clean_only: bool = True,
    name: str = "CLUTRR",
) -> ClutrrReport:
    """Solve every story (clean chains only, by default) and count the results per hop."""
    rules = table if table is not None else kinship_table()
    counts: dict[int, list[int]] = {}
    misses: list[Miss] = []
    for row in rows:
        if clean_only and not row.clean:
            continue
        answer = solve_clutrr(row, rules).relation
        tally = counts.setdefault(row.hops, [0, 0, 0])
        tally[0] += 1
        tally[1] += answer is not None
        tally[2] += answer == row.target
        if answer != row.target:
            misses.append(Miss(row.row_id, row.hops, row.target, answer))
    per_hop = tuple(HopStats(h, *counts[h]) for h in sorted(counts))
    return ClutrrReport(name, per_hop, tuple(misses), len(rules), clean_only)


def evaluate_clutrr(
    path: str | Path,
    table: CompositionTable | None = None,
    clean_only: bool = True,
    pattern: str = "*test.csv",
) -> ClutrrReport:
    """Evaluate a CLUTRR test file, folder or zip (see ``load_clutrr``) with a table.

    Without a table the built-in kinship table is used; to learn one from a split, pass
    ``learn_clutrr_table(load_clutrr(validation_path))[0]``.
    """
    return evaluate_rows(load_clutrr(path, pattern), table, clean_only, name=str(path))
