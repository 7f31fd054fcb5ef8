"""The words two facts are compared by: content-word keys, heads of noun phrases, names.

``terms(text)`` are the content words of a fact, stemmed and cut to six letters so that
word families meet ("allergic" and "allergy", "subscribe" and "subscription"), with the
speaker and pronouns left out and the initials of capitalised runs added ("New York
Times" → "nyt"). ``heads(text)`` are the words that end a noun phrase ("lead", not
"project", in "the Atlas project lead"); ``codes`` are identifiers of letters and digits
("eu-west-1", "B214"); ``slot_names`` lists capitalised words with the words around them.
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


EDGE = ",;:!?()[]\"'“”‘’"


VERB_LIKE = re.compile(r"^[a-z]+(?:[^s']s|ed)$")  # "costs", "runs", "moved": not a noun's head


def words_of(text: str) -> list[tuple[str, bool]]:
    """The words of ``text`` with whether a phrase boundary (punctuation) follows each."""
    out = []
    for token in text.split():
        word = token.strip(EDGE).rstrip(".")
        if word:
            out.append((word, token[-1:] in EDGE + "."))
    return out


def named(word: str) -> bool:
    """A name or a number: capitalised, or holding a digit ("Q1", "2.0", "4B", "#2291");
    not a date word ("Friday", "May 3"), which names a time, not a thing."""
    if not (word[:1].isupper() or any(ch.isdigit() for ch in word)):
        return False
    return not date_parts(word) and word.lower() not in SPEAKER


AUXILIARIES = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "has",
        "have",
        "had",
        "get",
        "gets",
        "got",
    ]
)


OPENERS = frozenset(
    [
        "the",
        "a",
        "an",
        "my",
        "our",
        "your",
        "his",
        "her",
        "their",
        "its",
        "of",
        "for",
        "to",
        "in",
        "on",
        "at",
        "all",
        "this",
        "that",
        "these",
        "those",
        "every",
        "each",
        "some",
        "any",
        "off",
        "from",
        "into",
        "onto",
        "with",
    ]
)


def has_digit(word: str) -> bool:
    return any(ch.isdigit() for ch in word)


def ident(word: str) -> str:
    """A number or code as compared: "v2.0" and "2.0" are one, "#2291" and "2291" too."""
    return re.sub(r"^v(?=\d)", "", word.lower().lstrip("#@"))


def idents(text: str) -> frozenset[str]:
    return frozenset(ident(w) for w, _ in words_of(text) if has_digit(w))


@functools.lru_cache(maxsize=8192)
def heads(text: str) -> frozenset[str]:
    """Keys of the words that end a noun phrase in ``text``: a word with no content word
    after it (or only a verb-like one, "plan costs", or a light noun, "support team"), any
    word of a name, any number. "project" in "the Atlas project lead" is no head; "lead"
    is, and "Ticket" in "Ticket PAY-812" is none either."""
    words = words_of(text)
    out: set[str] = set()
    for i, (word, boundary) in enumerate(words):
        following = words[i + 1][0] if i + 1 < len(words) else ""
        last = word.split("-")[-1]
        nxt = following.split("-")[0]
        content = terms(following) - frozenset(SPEAKER)
        modifier = (
            not boundary
            and bool(content - LIGHT)
            and not VERB_LIKE.match(nxt)
            and nxt.lower() not in OPENERS | AUXILIARIES
        )
        previous = words[i - 1][0].lower() if i else ""
        if previous in AUXILIARIES and re.search(r"(?:ed|en|ing)$", word.lower()):
            continue  # "are managed in": a verb, not a head
        run = following[:1].isupper() and not has_digit(following)  # "Hendricks Logistics"
        if has_digit(following) and not has_digit(word):
            modifier = False  # "plot 14", "room B214": the code names the thing
        if ((i or run) and named(word)) or not modifier:
            out |= terms(last) | (terms(word) if named(word) else frozenset())
    return frozenset(out)


def names_in(words: list[str]) -> frozenset[str]:
    """Keys of the names among ``words``: capitalised, or a brand with a digit ("1Password"),
    not a bare number or code."""
    return frozenset().union(
        *(
            terms(w)
            for w in words
            if named(w) and (not has_digit(w) or (re.search(r"[A-Z][a-z]{2,}", w)))
        )
    )


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


def codes(text: str) -> frozenset[str]:
    """Codes of letters and digits ("eu-west-1", "ap-south-1", "B214"), by their shape
    ("ap-south-9": digits as 9) so that only codes of one kind are compared; not
    quarters, amounts or dates ("Q1", "$17.99/month", "12th")."""
    found = set()
    for word, _ in words_of(text):
        code = ident(word)
        if not has_digit(word) or not re.search(r"[a-z]", code) or re.search(r"[$€£¥/%]", word):
            continue
        if date_parts(word) or re.fullmatch(r"\d+(?:st|nd|rd|th|am|pm|h|k|s|x)?", code):
            continue
        found.add(code)
    return frozenset(found)


def code_shapes(found: frozenset[str]) -> frozenset[str]:
    return frozenset(re.sub(r"[a-z]+", "a", re.sub(r"\d+", "9", c)) for c in found)


def name_in(name: str, old: str) -> bool:
    """A name is a word of the old fact, or begins a name of it ("Mongo" and "MongoDB"),
    never a common word ("Reno" is not "renovation", "LaunchDarkly" not "launch")."""
    low = name.lower().removesuffix("'s").removesuffix("’s")
    words = [w for w, _ in words_of(old)]
    if low in {w.lower().removesuffix("'s").removesuffix("’s") for w in words}:
        return True
    return len(low) >= 4 and any(w[:1].isupper() and w.lower().startswith(low) for w in words)
