"""The clause barriers of one sentence, and the clauses they bound.

A barrier is a marker (but not a linking adverb that floats inside its clause,
``was therefore cancelled``), sentence-internal punctuation (``,`` ``;`` ``:`` dashes,
brackets) or a ``but``-word of the language. A marker's spans run from the nearest
barrier before it to the nearest one after; ``clause_before`` walks back over relative
clauses, "in turn" asides and pointers (``which``, ``this``) to the clause a connective
points to, and into the previous sentence when the walk reaches the sentence's start.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

from groundgraph.ingest.causal.cues.table import BOUNDARY, CueTable
from groundgraph.ingest.causal.language import TABLES
from groundgraph.ingest.causal.markers import Marker
from groundgraph.ingest.causal.spans import Span, is_pointer, tokens, trim

_STEPS_BACK = 4


@dataclass(frozen=True)
class Barrier:
    start: int
    end: int
    marker: Marker | None  # None for punctuation and "but"-words


class Clauses:
    """The barriers of the sentence ``text[start:end]`` and the clauses between them."""

    def __init__(
        self,
        text: str,
        start: int,
        end: int,
        tables: list[CueTable],
        markers: list[Marker],
        previous: Span | None,
    ) -> None:
        self.text, self.start, self.end = text, start, end
        self.tables, self.previous = tables, previous
        self.barriers = _barriers(text, start, end, tables, markers)
        self._adverbs = [m for m in markers if m.cue.adverb]
        self._ends = [b.end for b in self.barriers]
        self._starts = [b.start for b in self.barriers]

    def before(self, pos: int, skip: Marker | None) -> tuple[int, Barrier | None]:
        """The end of the nearest barrier that ends at or before ``pos``, and that barrier."""
        i = bisect.bisect_right(self._ends, pos)
        while i > 0:
            i -= 1
            candidate = self.barriers[i]
            if skip is None or candidate.marker is not skip:
                return candidate.end, candidate
        return self.start, None

    def after(self, pos: int, skip: Marker | None) -> tuple[int, Barrier | None]:
        """The start of the nearest barrier that starts at or after ``pos``, and that barrier."""
        for i in range(bisect.bisect_left(self._starts, pos), len(self.barriers)):
            candidate = self.barriers[i]
            if skip is None or candidate.marker is not skip:
                return candidate.start, candidate
        return self.end, None

    def last_clause(self) -> Span | None:
        """The sentence's last clause, for a connective that opens the next sentence."""
        table = self.tables[0]
        cut = max((b.end for b in self.barriers if b.marker is None), default=self.start)
        clause = trim(self.text, (cut, self.end), table)
        if clause[0] >= clause[1]:
            clause = trim(self.text, (self.start, self.end), table)
        return clause if clause[0] < clause[1] else None

    def clause_before(self, pos: int, table: CueTable, cross: bool) -> Span | None:
        """The clause before position ``pos`` (relative clauses skipped); at the sentence's
        start, the previous sentence's span if ``cross``."""
        cursor = pos
        for _ in range(_STEPS_BACK):
            if cursor <= self.start:
                return self.previous if cross else None
            _, barrier = self.before(cursor, None)
            if barrier is None:
                return self.previous if cross else None
            clause_from, _ = self.before(barrier.start, None)
            clause = trim(self.text, (clause_from, barrier.start), table)
            for adverb in self._adverbs:  # "; daardoor viel de oogst tegen, wat …"
                if adverb.start == clause[0] and adverb.end < clause[1]:
                    clause = trim(self.text, (adverb.end, clause[1]), table)
            first = tokens(self.text, *clause)[:1]
            relative = bool(first) and (
                self.text[slice(*first[0])].lower() in table.relatives - table.articles
            )
            aside = table.in_turn is not None and table.in_turn.fullmatch(
                self.text[slice(*clause)].strip(" ,")
            )  # ", por sua vez, ": an aside, not the clause
            if not relative and not aside and not is_pointer(self.text, clause, table):
                return clause
            cursor = clause_from
        return None


def _barriers(
    text: str, start: int, end: int, tables: list[CueTable], markers: list[Marker]
) -> list[Barrier]:
    # A linking adverb floats inside its clause ("was therefore cancelled"): it bounds
    # no other marker's span.
    barriers = [Barrier(m.start, m.end, m) for m in markers if not m.cue.adverb]
    sentence = text[start:end]
    for pattern in (BOUNDARY, _breakers(tuple(table.language for table in tables))):
        for match in pattern.finditer(sentence):
            a, b = start + match.start(), start + match.end()
            if a < b and not any(m.start < b and a < m.end for m in markers):
                barriers.append(Barrier(a, b, None))
    return sorted(barriers, key=lambda b: (b.start, b.end))


@functools.cache
def _breakers(languages: tuple[str, ...]) -> re.Pattern[str]:
    found = sorted({w for code in languages for w in TABLES[code].breakers})
    if not found:
        return re.compile(r"(?!x)x")  # matches nothing
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, found))})(?!\w)", re.IGNORECASE)
