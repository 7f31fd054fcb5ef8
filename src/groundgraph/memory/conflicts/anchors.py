"""What two facts share, for the change rules: content words, typed values, name slots.

``terms(text)`` are the content words of a fact, stemmed and cut to six letters so that
word families meet ("allergic" and "allergy", "subscribe" and "subscription"), with the
speaker and pronouns left out and the initials of capitalised runs added ("New York
Times" → "nyt"). ``about(theme, old)`` says whether an old fact is about a theme (its head
word, passing over light nouns such as "team" or "week"). ``typed_difference`` compares
the numbers with units and the dates two facts name; ``slot_names`` lists capitalised
words with the words around them ("the Lisbon office", "Prof. Kowalski").
"""

from __future__ import annotations

import functools
import re

from groundgraph.memory.conflicts.values import date_parts
from groundgraph.text import Analyzer

PREFIX = 6  # stems are compared on their first six letters ("allergic" ~ "allergy")
ANALYZER = Analyzer("english")
SPEAKER = frozenset(
    [
        "i",
        "me",
        "my",
        "mine",
        "myself",
        "we",
        "us",
        "our",
        "ours",
        "you",
        "your",
        "user",
        "ve",
        "ll",
        "re",
        "s",
        "d",
        "m",
        "t",
        "he",
        "she",
        "him",
        "his",
        "her",
        "they",
        "them",
        "their",
        "it",
        "its",
        "now",
        "just",
        "finally",
        "still",
        "already",
        "currently",
        "recently",
        "anymore",
        "today",
        "yesterday",
        "new",
    ]
)

# ---- words ---------------------------------------------------------------------------

_CAPS = re.compile(r"\b[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)+")


_TOKEN = re.compile(r"[^\W_]+")


def _an_acronym(word: str) -> bool:
    return len(word) > 1 and word.isupper()  # "IT" is a department, not "it"


def key(stem: str) -> str:
    return stem[:PREFIX]


@functools.lru_cache(maxsize=8192)
def terms(text: str) -> frozenset[str]:
    """Content-word keys of ``text``: stemmed, cut to six letters, pronouns and the
    speaker left out, and the initials of every run of capitalised words ("New York
    Times" → "nyt")."""
    tokens = _TOKEN.findall(text)
    kept = [w.lower() for w in tokens if w.lower() not in SPEAKER]
    found = {key(t) for t in ANALYZER.terms_of(kept)}
    found |= {w.lower() for w in tokens if _an_acronym(w)}
    for run in _CAPS.finditer(text):
        initials = "".join(w[0] for w in run[0].split()).lower()
        if len(initials) >= 3:
            found.add(initials)
    return frozenset(found)


_UNIT_NUMBER = re.compile(
    r"(?P<cur>[$€£¥])\s*(?P<n>\d[\d,]*(?:\.\d+)?)|(?P<m>\d[\d,]*(?:\.\d+)?)\s*"
    r"(?P<unit>%|°\s?[cf]?|[a-z]+\b)",
    re.IGNORECASE,
)
_UNITS = {
    "mb": "mb", "gb": "gb", "kb": "kb", "tb": "tb", "kg": "kg", "kgs": "kg", "lb": "lb",
    "lbs": "lb", "mg": "mg", "g": "g", "km": "km", "miles": "mile", "mile": "mile",
    "minutes": "min", "minute": "min", "min": "min", "mins": "min", "hours": "hour",
    "hour": "hour", "days": "day", "weeks": "week", "people": "person", "person": "person",
    "employees": "person", "staff": "person", "members": "member", "degrees": "degree",
    "°": "degree", "°c": "degree", "°f": "degree-f", "%": "%", "percent": "%",
    "req": "request", "requests": "request", "users": "user", "seats": "seat",
}  # fmt: skip


# light nouns: they name a part of almost anything, so they anchor nothing on their own
LIGHT = frozenset(
    key(ANALYZER.stem(w))
    for w in [
        "team",
        "group",
        "office",
        "company",
        "day",
        "week",
        "month",
        "year",
        "quarter",
        "time",
        "people",
        "thing",
        "part",
        "side",
        "place",
        "way",
        "lot",
        "end",
        "start",
        "number",
        "kind",
        "type",
    ]
)


def about(theme: str, old: frozenset[str]) -> bool:
    """The old fact is about ``theme``: it names the theme's head word (its last content
    word: "order" of "the chair order"; "support" of "the support team", a light head
    being passed over) or two of its words."""
    theme_terms = terms(theme) - LIGHT
    for word in reversed(re.split(r"[\s-]+", theme)):  # the head, or the word before a light one
        head = terms(word) - LIGHT
        if head:
            return bool(head & old) or len(theme_terms & old) >= 2
    return False


def mostly_in(phrase: frozenset[str], old: frozenset[str]) -> bool:
    shared = phrase & old
    return bool(shared) and 2 * len(shared) >= len(phrase)


def _numbers(text: str) -> dict[str, set[float]]:
    found: dict[str, set[float]] = {}
    for m in _UNIT_NUMBER.finditer(text):
        if m["cur"]:
            unit, raw = m["cur"], m["n"]
        else:
            unit, raw = _UNITS.get(m["unit"].lower().replace(" ", ""), ""), m["m"]
        if unit:
            found.setdefault(unit, set()).add(float(raw.replace(",", "")))
    return found


_DAYPART = re.compile(r"\b(morning|afternoon|evening|night)s?\b", re.IGNORECASE)


def dated_parts(text: str) -> dict[str, int | str]:
    parts = date_parts(text)
    daypart = _DAYPART.search(text)
    if daypart is not None:
        parts["daypart"] = daypart[1].lower()
    return parts


def typed_difference(new: str, old: str) -> str:
    """ "date" or "number" when ``new`` and ``old`` name a value of that kind and it
    differs; "same" when they name one and it agrees; "" when nothing is comparable."""
    pn, po = _numbers(new), _numbers(old)
    shared_units = pn.keys() & po.keys()
    if shared_units:
        return "number" if any(not (pn[u] & po[u]) for u in shared_units) else "same"
    dn, do = dated_parts(new), dated_parts(old)
    shared = (dn.keys() & do.keys()) - {"relative", "quarter", "year"}
    if shared:
        return "date" if any(dn[k] != do[k] for k in shared) else "same"
    return ""


JOINERS = frozenset(
    ["and", "or", "the", "a", "an", "of", "to", "in", "on", "at", "for", "with", "by", "from"]
)


def slot_names(text: str) -> list[tuple[str, str, str]]:
    """(name, word after, word before) for each capitalised word not opening the text."""
    tokens = [t.strip(",;:!?()\"'“”") for t in text.split()]
    out = []
    for i, token in enumerate(tokens[1:], start=1):
        if token[:1].isupper():
            after = tokens[i + 1].rstrip(".") if i + 1 < len(tokens) else ""
            out.append((token.lower().rstrip("."), after.lower(), tokens[i - 1].lower()))
    return out
