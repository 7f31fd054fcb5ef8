"""The phrases of a change: a fact's clauses, a theme or destination cut at its boundary,
and the ``Change`` record the change rules return."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from groundgraph.text import sentences as _split

MAX_TEXT = 1_000  # characters of each fact that are read for changes (facts are short)
_MAX_CLAUSE = 300
# A person's name as a change rule reads it: up to three capitalised words after an
# optional honorific, capitals required in a pattern that ignores case too.
PERSON = r"(?:(?:Prof|Dr|Mr|Mrs|Ms|Mx)\.?\s+)?(?-i:[A-Z])[\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*){0,2}"
TITLE = re.compile(
    r"^(?P<s>.+?)\s+(?:is|are|works as|serves as|is serving as)\s+(?:a|an|the|our|my|his"
    r"|her|their)\s+",
    re.IGNORECASE,
)
# where a theme or a destination ends: a clause boundary, a reason, a time phrase
STOP = re.compile(
    r"[,;()]|:\s|\s(?:and|but|so|because|since|after|before|while|when|with|for|due|in|on|at"
    r"|by|from|to|over|last|this|next|yesterday|today|as of|starting|until|once|which|who"
    r"|through|via)\s",
    re.IGNORECASE,
)
DEST_STOP = re.compile(
    r"[,;()]|:\s|\s(?:and|but|so|because|since|after|before|while|when|for|due|to save|as of"
    r"|starting|which|who|last|yesterday|today|once|instead)\s",
    re.IGNORECASE,
)
_CLAUSES = re.compile(r"\s*;\s*|:\s+|,?\s+(?:and|but|so|while|whereas|because)\s+|,\s+|\s+[—–]\s+")
FINITE = re.compile(
    r"\b(?:is|are|was|were|have|has|had|do|does|did|can|will|shall|must|need|needs)\b", re.I
)


@dataclass(frozen=True, slots=True)
class Change:
    """What a change says: the rule family, the thing that changed, its old and new value."""

    kind: str  # "ended", "moved", "instead", "no-longer", "holder", "value"
    detail: str


def head(text: str, stop: re.Pattern[str] = STOP, limit: int = 8) -> str:
    """``text`` up to its first boundary, at most ``limit`` words."""
    cut = stop.search(" " + text + " ")
    part = text[: max(cut.start() - 1, 0)] if cut else text
    return " ".join(part.split()[:limit]).strip(" .!?\"'")


_DOWN_TO = re.compile(r"(\w)['’]s\s+((?:now\s+)?(?:down|up|back)\s+to)\b")


@functools.lru_cache(maxsize=8192)
def sentences(text: str) -> tuple[str, ...]:
    """``text``'s sentences (``groundgraph.text.sentences``), kept for the texts read
    again: each new fact is compared with about ten stored ones, each old one with many."""
    return tuple(_split(text))


def clauses(text: str) -> list[str]:
    return list(_clauses(text))


@functools.lru_cache(maxsize=8192)
def _clauses(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for sentence in sentences(_DOWN_TO.sub(r"\1 is \2", text[:MAX_TEXT])):
        out.extend(c.strip(" .!?") for c in _CLAUSES.split(sentence) if c.strip(" .!?"))
    return tuple(c for c in out if len(c) <= _MAX_CLAUSE)


# ---- the rules -------------------------------------------------------------------------


_LEAD_TIME = re.compile(
    r"^(?:starting|from|as of|effective|beginning|since|after)\s+[^,;:]{1,30}?"
    r"(?:,\s*|\s+(?=(?:we|i|the|our|my|they)\b))",
    re.IGNORECASE,
)


def without_lead_time(sentence: str) -> str:
    """The sentence without a leading time of the change ("Starting Monday, …", "From next
    week we …"): when a change takes effect is not the value that changed."""
    return _LEAD_TIME.sub("", sentence.strip(), count=1)


# a change said by its verb or a "new" value: enough of a mark for a value of the old kind
CHANGED = re.compile(
    r"\b(?:new|moved?|moves|changed|changes|switched|retimed|rescheduled|cut|raised|lowered"
    r"|dropped to|down to|up to|rose to|fell to|went up to|went down to|bumped|rotated"
    r"|jumped to|climbed to|grew to|shrank to|soared to|dipped to|settled (?:at|around)|doubled"
    r"|halved|transitioned"
    r"|increased|decreased|reduced|puts? us at|now at)\b|->|→",
    re.IGNORECASE,
)
