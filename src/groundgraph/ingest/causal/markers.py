"""Finding the cue markers of one sentence, and turning away the negated and the misread.

Every cue of the sentence's tables is matched; a match right after a negator (``did not
cause``; in verb-second languages only before cause-first verbs, since ``nicht``/``niet``
stands before any adverbial), with a negator inside a split marker, after one of the
cue's ``not_before`` words (``the cause``) or in a sentence its ``reject`` pattern finds
is dropped. Where two markers overlap the earlier one wins, and at the same place the
longer one (``because of`` over ``because``); an opening participle yields to any other
marker inside its phrase.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundgraph.ingest.causal.cues.table import Cue, CueTable, Role
from groundgraph.ingest.causal.spans import Span
from groundgraph.ingest.literals import LiteralGroup

_NOT = re.compile(r"n['’]t\s*$", re.IGNORECASE)
_LAST_WORD = re.compile(r"(\w+)\W*$")
_ROLES: tuple[Role, ...] = ("cause", "effect")


@dataclass(frozen=True)
class Marker:
    """One cue found in a text: where it is, where its two spans start and stop, and the
    spans its pattern itself read (``groups``, for split markers)."""

    start: int
    end: int
    left_end: int  # where the left span stops (the marker proper may start later)
    right_start: int
    cue: Cue
    table: CueTable
    groups: tuple[tuple[Role, Span], ...]


def find_markers(
    sentence: str, offset: int, tables: list[CueTable], prefilter: bool = True
) -> list[Marker]:
    """The markers of ``sentence`` (which starts at ``offset`` in its text), left to right,
    none overlapping (module docstring). ``prefilter``: a cue's pattern is searched only
    when the sentence holds one of its literal words (``ingest.literals``); False searches
    every one, with the same markers."""
    found: list[tuple[int, int, int, Marker]] = []
    order = 0
    for table in tables:
        possible = _literals(table).candidates(sentence) if prefilter else None
        for index, cue in enumerate(table.cues):
            order += 1
            if possible is not None and index not in possible:
                continue
            for match in cue.pattern.finditer(sentence):
                if match.end() > match.start() and not _rejected(match, cue, table):
                    marker = _marker(match, cue, table, offset)
                    found.append((marker.start, -(marker.end - marker.start), order, marker))
    # An opening participle ("Exhausted after the shift, …") yields to any other marker
    # inside its phrase: "Prolonged drought resulted in …" opens with an adjective.
    found = [
        item
        for item in found
        if item[3].cue.name != "participle"
        or not any(
            other[3].cue.name != "participle" and item[3].start <= other[3].start < item[3].end
            for other in found
        )
    ]
    found.sort(key=lambda item: item[:3])
    kept: list[Marker] = []
    for _, _, _, marker in found:
        if not kept or marker.start >= kept[-1].end:
            kept.append(marker)
    return kept


# Each cue table's literals, by the table's id (the table itself kept with them).
_LITERALS: dict[int, tuple[CueTable, LiteralGroup]] = {}


def _literals(table: CueTable) -> LiteralGroup:
    known = _LITERALS.get(id(table))
    if known is None or known[0] is not table:
        known = _LITERALS[id(table)] = (table, LiteralGroup([c.pattern for c in table.cues]))
    return known[1]


def _marker(match: re.Match[str], cue: Cue, table: CueTable, offset: int) -> Marker:
    names = cue.pattern.groupindex
    proper = [n for n in names if n.rstrip("0123456789") == "cue" and match.group(n) is not None]
    groups = tuple(
        (role, (offset + match.start(name), offset + match.end(name)))
        for name, role in _role_groups(cue)
        if match.group(name) is not None
    )
    return Marker(
        start=offset + match.start(),
        end=offset + match.end(),
        left_end=offset + (match.start(proper[0]) if proper else match.start()),
        right_start=offset + match.end(),
        cue=cue,
        table=table,
        groups=groups,
    )


def _role_groups(cue: Cue) -> list[tuple[str, Role]]:
    """The pattern's groups that hold a span, with their role: ``cause``, ``effect``, and
    numbered ones (``effect2``) for the branches of one pattern."""
    return [
        (name, role)
        for name in cue.pattern.groupindex
        for role in _ROLES
        if name.rstrip("0123456789") == role
    ]


def _rejected(match: re.Match[str], cue: Cue, table: CueTable) -> bool:
    sentence = match.string
    before = sentence[: match.start()]
    last = _LAST_WORD.search(before)
    word = last.group(1).lower() if last else ""
    if word in cue.not_before:
        return True
    # "did not cause", "not because": a negator right before the marker denies it; but in
    # verb-second languages "nicht"/"niet" stands before any adverbial ("reed niet vanwege
    # een storing": did not run, because of a fault), so there only cause-first verbs count.
    denies = cue.left == "cause" or not table.verb_second
    if before.rstrip().endswith(","):
        denies = False  # "vertrug es nicht, weshalb …": the negator is the clause before's
    if denies and (word in table.negators or _NOT.search(before)):
        return True
    group_starts = [match.start(name) for name, _ in _role_groups(cue)]
    head = sentence[match.start() : min([s for s in group_starts if s >= 0] or [match.end()])]
    if any(w.lower() in table.negators for w in re.findall(r"\w+", head)):
        return True
    return cue.reject is not None and cue.reject.search(sentence) is not None
