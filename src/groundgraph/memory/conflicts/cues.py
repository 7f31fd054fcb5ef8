"""What a new fact could announce: for each of its clauses, the change rules it cues.

Every change rule (``ended``, ``moved``, ``holder`` …) returns None unless the new fact's
clause matches one of the rule's cue patterns (``ENDED_CUES`` and the like, kept next to
each rule and used by it), whatever the old fact says. So a new fact's sentences and
clauses are read once (``read_cues``, cached), each clause with the rules it cues, and
``change_conflict`` compares a clause with an old fact by those rules only; a fact that
cues no rule and holds no mark of the present (which lets the value rule read any
sentence) is compared with no old fact at all. Most facts are plain statements ("The
compiler emits a warning"), so most pairs end here, at no cost per pair.

A cue pattern is searched only in a clause that holds one of its literal words
(``ingest.literals``). ``read_cues(text, prefilter=False)`` cues every rule of every
clause: the reference the prefiltered reading is tested against (``tests/memory/conflicts``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from groundgraph.ingest.literals import LiteralGroup
from groundgraph.memory.conflicts.appointed import APPOINTED_CUES
from groundgraph.memory.conflicts.ended import (
    ENDED_CUES,
    INSTEAD_CUES,
    NO_LONGER_CUES,
    RESOLVED_CUES,
)
from groundgraph.memory.conflicts.handover import HANDED_OVER_CUES
from groundgraph.memory.conflicts.holders import (
    CONFIRMED_CUES,
    FROM_TO_CUES,
    HIRED_CUES,
    HOLDER_CUES,
    NEW_TITLE_CUES,
    PROMOTED_CUES,
    TOOK_OVER_CUES,
)
from groundgraph.memory.conflicts.moved import MOVED_CUES, NEW_HOME_CUES
from groundgraph.memory.conflicts.negation import is_negated
from groundgraph.memory.conflicts.nonchange import ALSO, HEDGE, KEPT, ONE_OFF
from groundgraph.memory.conflicts.phrases import CHANGED, MAX_TEXT, clauses, sentences
from groundgraph.memory.conflicts.replaced import REPLACED_CUES

# the rules of ``change_conflict``, each with the patterns one of which its clause needs
RULE_CUES: dict[str, tuple[re.Pattern[str], ...]] = {
    "no-longer": NO_LONGER_CUES,
    "ended": ENDED_CUES,
    "instead": INSTEAD_CUES,
    "replaced": REPLACED_CUES,
    "moved": MOVED_CUES,
    "took-over": TOOK_OVER_CUES,
    "new-home": NEW_HOME_CUES,
    "handed-over": HANDED_OVER_CUES,
    "resolved": RESOLVED_CUES,
    "from-to": FROM_TO_CUES,
    "promoted": PROMOTED_CUES,
    "appointed": APPOINTED_CUES,
    "hired": HIRED_CUES,
    "confirmed": CONFIRMED_CUES,
    "holder": HOLDER_CUES,
    "new-title": NEW_TITLE_CUES,
}
MARKED_ONLY = frozenset(["holder", "new-title"])  # read only under a mark of the present

# a mark of the present: "now", "going forward", "from next week", "instead" ...
NOW = re.compile(
    r"\b(?:now|from now on|going forward|these days|from next \w+|starting (?:next|this|on|in|from)"
    r"|as of|effective|instead|since \w+|any ?more|no longer)\b|^new\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class ClauseCues:
    """One clause of a new fact: read by no rule (a hedge or an addition), negated, and
    the rules it cues."""

    text: str
    skipped: bool
    negated: bool
    rules: frozenset[str]


@dataclass(frozen=True, slots=True)
class SentenceCues:
    """One sentence of a new fact; ``plain`` (no hedge, no addition): the value rule may
    read it when the fact is marked."""

    text: str
    plain: bool
    clauses: tuple[ClauseCues, ...]


@dataclass(frozen=True, slots=True)
class NewFactCues:
    """A new fact as the change rules read it, whatever the old fact."""

    one_off: bool  # "just this once": no change at all
    marked: bool  # a mark of the present or of a change ("now", "moved", "new")
    sentences: tuple[SentenceCues, ...]

    @property
    def may_change(self) -> bool:
        """False when no rule can fire, against any old fact."""
        if self.one_off:
            return False
        return any(
            (self.marked and s.plain) or any(c.rules and not c.skipped for c in s.clauses)
            for s in self.sentences
        )


# every cue pattern, with the rule it cues, and their literals (``ingest.literals``)
_CUE_PATTERNS = [(rule, p) for rule, patterns in RULE_CUES.items() for p in patterns]
_CUE_LITERALS = LiteralGroup([p for _, p in _CUE_PATTERNS])


def _cued(clause: str, prefilter: bool) -> frozenset[str]:
    if not prefilter:
        return frozenset(RULE_CUES)
    possible = _CUE_LITERALS.candidates(clause)
    return frozenset(
        rule
        for i, (rule, pattern) in enumerate(_CUE_PATTERNS)
        if i in possible and pattern.search(clause)
    )


@functools.lru_cache(maxsize=512)  # a new fact is read against its candidates in a row
def read_cues(text: str, prefilter: bool = True) -> NewFactCues:
    """``text`` (its first ``MAX_TEXT`` characters) read for the change rules it cues."""
    text = text[:MAX_TEXT]
    marked = NOW.search(text) is not None or CHANGED.search(text) is not None
    gated = (set() if marked else set(MARKED_ONLY)) | ({"ended"} if KEPT.search(text) else set())
    read: list[SentenceCues] = []
    for sentence in sentences(text):
        parts = []
        for clause in clauses(sentence):
            skipped = bool(HEDGE.search(clause) or ALSO.search(clause))
            rules = frozenset() if skipped and prefilter else _cued(clause, prefilter) - gated
            parts.append(ClauseCues(clause, skipped, not skipped and is_negated(clause), rules))
        plain = not (HEDGE.search(sentence) or ALSO.search(sentence))
        read.append(SentenceCues(sentence, plain, tuple(parts)))
    one_off = ONE_OFF.search(text) is not None
    return NewFactCues(one_off, marked, tuple(read))
