"""Relation facts from explicit statements: "Bo is the father of Ann" → (Ann, father, Bo).

A fact ``(subject, relation, object)`` reads "object is the relation of subject", as in the
verifier (``reason.relations``). ``extract_relations`` reads one sentence at a time and
knows five English patterns, where X and Y are names, acronyms, quoted terms or code (the
mentions of ``extract_entities``, with a lone capitalised word at a sentence start
accepted too, as the pattern vouches for it):

    X is the father of Y        → (Y, father, X)      also "was", and "a"/"an" for "the"
    X, the father of Y,         → (Y, father, X)
    Y's father is X             → (Y, father, X)
    X is Y's father             → (Y, father, X)
    X is a physicist            → (X, is_a, physicist)  also "X is a kind of Y"

The relation is one lower-case word, hyphens allowed ("mother-in-law"), folded and with
spaces as "_". Precision comes before recall: a sentence that asks, negates or hedges
("is not", "might be", "if", "reportedly") gives nothing; X must open its clause (so "the
friend of Ann is the mother of Bo" does not make Ann anyone's mother); Y must close the
statement (not "Y and Z", not "Y's sister"); plural statements ("X and Y are …") are not
read. For text no pattern reads, the LLM hook (``ingest.relations.llm``) does, and
``ground_triples`` keeps the model's triples that the text really names.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass

from groundgraph.ingest.entities import Mention, extract_entities
from groundgraph.ingest.relations.llm import (
    Triple,
)
from groundgraph.text import ENGLISH_STOPWORDS, sentence_spans

IS_A = "is_a"


@dataclass(frozen=True, slots=True)
class RelationMention:
    """A fact stated in a text: ``text[start:end]`` states it, inside ``sentence_span``."""

    subject: str
    relation: str
    object: str
    start: int
    end: int
    sentence_span: tuple[int, int]

    def triple(self) -> Triple:
        return (self.subject, self.relation, self.object)


_PHRASE_KINDS = frozenset({"name", "acronym", "quoted", "code", "title"})
_WORD = r"[^\W\d_]+(?:-[^\W\d_]+)*"
# Markup or quotes may close X and open Y: "**Ivy** is …", "“Blue Lantern” is …".
_CLOSE = r"[`\"”’'*_]*"
_OPEN = r"[`\"“‘'*_]*"
_IS = rf"{_CLOSE}\s+(?:is|was)\s+"
_OF = rf"\s+of\s+(?:the\s+)?{_OPEN}"
_REL_OF = re.compile(rf"{_IS}(the|an?)\s+({_WORD}){_OF}", re.IGNORECASE)
_APPOSITIVE = re.compile(rf"{_CLOSE}\s*,\s*(the|an?)\s+({_WORD}){_OF}", re.IGNORECASE)
_POSSESSIVE_IS = re.compile(rf"{_CLOSE}['’]s\s+({_WORD}){_IS}{_OPEN}", re.IGNORECASE)
_ONLY_IS = re.compile(rf"{_IS}{_OPEN}", re.IGNORECASE)
_POSSESSIVE_AFTER = re.compile(rf"{_CLOSE}['’]s\s+({_WORD})")
_IS_A = re.compile(rf"{_IS}an?\s+", re.IGNORECASE)
_KIND_OF = re.compile(r"\s+of\s+", re.IGNORECASE)
_CLASS_WORDS = frozenset({"kind", "type", "sort", "form", "instance", "example"})
# Words that are not relations even where one would stand ("X is the first of Y").
_NOT_RELATIONS = (
    frozenset(
        {"best", "worst", "first", "second", "third", "last", "next", "most", "least", "rest"}
        | {"same", "whole", "end", "start", "beginning", "middle", "top", "bottom", "side"}
        | {"one", "lot", "number", "many", "few", "all", "some", "none", "half", "majority"}
    )
    | ENGLISH_STOPWORDS
)
# A sentence with one of these asks, negates, hedges or reports: no fact is read from it.
_UNSURE = re.compile(
    r"\?|n['’]t\b|\b(?:not|never|no|neither|nor|nobody|none|cannot|without"
    r"|might|may|could|would|should|possibly|probably|perhaps|maybe|likely|unlikely"
    r"|allegedly|reportedly|supposedly|apparently|rumou?red|seem(?:s|ed)?|appear(?:s|ed)?"
    r"|believed?|believes|thinks?|thought|suspect(?:s|ed)?|claim(?:s|ed)?|said|says"
    r"|if|whether|unless|doubt|wonder(?:s|ed)?|assume[sd]?|suppose[sd]?|former|formerly)\b",
    re.IGNORECASE,
)
# What may stand before X: a clause boundary, or the sentence start, then maybe an article.
_CLAUSE_TAIL = re.compile(
    r"(?:[,;:(]|\b(?:and|but|that|so|while|because|since|whereas|also|then))"
    r"[\s*_>\"“'‘`]*(?:(?:the|a|an)\s+)?$",
    re.IGNORECASE,
)
_SENTENCE_LEAD = re.compile(r"[\s*_#>\-+\"“'‘`\d.)]*(?:(?:the|a|an)\s+)?", re.IGNORECASE)
_LOOK_BACK = 40
# What may follow Y: the end, punctuation, or a word that does not add a second object.
_STATEMENT_END = re.compile(r"\s*(?:$|[.,;:!)\]*_\"”’'])|\s+(?!and\b|or\b|&)[^\W\d_]", re.I)
_CLASS_END = re.compile(r"\s*(?:$|[.,;:!)\]*_\"”’'](?!s\b))")
_OBJECT_WORDS = re.compile(rf"({_WORD})(?:\s+({_WORD}))?(?:\s+({_WORD}))?(?:\s+({_WORD}))?")
_OBJECT_STOPS = frozenset(
    {"of", "in", "at", "on", "for", "from", "by", "with", "that", "which", "who", "whose"}
    | {"and", "or", "but", "to", "as", "than", "like", "since", "when", "where", "while"}
    | {"because", "about", "into", "over", "under", "after", "before", "during"}
)
MAX_IS_A_WORDS = 4
# Every pattern has one of these (the last for the appositive): no cue, nothing to read.
_CUE = re.compile(r"\s(?:is|was)\s|['’]s\s|,\s*(?:the|an?)\s", re.IGNORECASE)


# What every pattern needs somewhere in the text (a text with none states nothing, and
# finding its phrases, the costly part, is skipped): "is/was the|a|an", "'s R is/was",
# ", the|a|an R of", or "is/was" with a possessive ("X is Y's R").
_NEEDED = re.compile(
    rf"\s(?:is|was)\s+{_OPEN}(?:the|an?)\s|['’]s\s+{_WORD}\s+(?:is|was)\s"
    rf"|,\s*(?:the|an?)\s+{_WORD}\s+of\s",
    re.IGNORECASE,
)
_IS_ANYWHERE = re.compile(r"\s(?:is|was)\s", re.IGNORECASE)
_POSSESSIVE_ANYWHERE = re.compile(r"['’]s\s")


def may_state_relations(text: str) -> bool:
    """False when no pattern of ``extract_relations`` can match anywhere in ``text``."""
    if _NEEDED.search(text):
        return True
    return bool(_IS_ANYWHERE.search(text)) and bool(_POSSESSIVE_ANYWHERE.search(text))


def extract_relations(text: str) -> list[RelationMention]:
    """The facts ``text`` states explicitly, in order (see the module docstring)."""
    if not may_state_relations(text):
        return []  # no pattern can match: skip finding the phrases
    return _extract(text)


def _extract(text: str) -> list[RelationMention]:
    phrases = _phrases(text)
    found: list[RelationMention] = []
    at = 0
    for sentence in sentence_spans(text):
        start, end = sentence
        if not _CUE.search(text, start, end):
            continue
        while at < len(phrases) and phrases[at].start < start:
            at += 1
        inside: list[Mention] = []
        k = at
        while k < len(phrases) and phrases[k].end <= end:
            inside.append(phrases[k])
            k += 1
        if not inside or _UNSURE.search(text, start, end):
            continue
        seen: set[tuple[str, str, str]] = set()
        for fact in _sentence_facts(text, sentence, inside):
            if fact.triple() not in seen and fact.subject != fact.object:
                seen.add(fact.triple())
                found.append(fact)
    return found


def ground_triples(text: str, triples: Iterable[Triple]) -> list[RelationMention]:
    """The triples (a model's, say) whose subject and object ``text`` names, placed in it.

    Names are found ignoring case, on whole words, white space between words free. A
    triple sits in the first sentence that names both; failing that, it spans from the
    first mention of one to the first of the other. A triple naming something the text
    does not is dropped: that is the model's invention, not the text's statement.
    """
    spans = sentence_spans(text)
    starts = [start for start, _ in spans]

    def sentence_at(at: int) -> int:
        return max(0, bisect.bisect_right(starts, at) - 1)

    placed: list[RelationMention] = []
    for subject, relation, obj in triples:
        subjects, objects = _occurrences(text, subject), _occurrences(text, obj)
        if not subjects or not objects:
            continue
        object_in: dict[int, tuple[int, int]] = {}
        for span in objects:
            object_in.setdefault(sentence_at(span[0]), span)
        s_span, o_span = next(
            ((span, object_in[k]) for span in subjects if (k := sentence_at(span[0])) in object_in),
            (subjects[0], objects[0]),
        )
        start, end = min(s_span[0], o_span[0]), max(s_span[1], o_span[1])
        sentence = (spans[sentence_at(start)][0], spans[sentence_at(end - 1)][1])
        placed.append(RelationMention(subject, relation, obj, start, end, sentence))
    return placed


def _occurrences(text: str, name: str) -> list[tuple[int, int]]:
    words = name.split()
    if not words:
        return []
    pattern = r"\s+".join(re.escape(word) for word in words)
    found = re.finditer(rf"(?<!\w){pattern}(?!\w)", text, re.IGNORECASE)
    return [match.span() for match in found]


def relation_name(words: str) -> str:
    """The relation name for a word or words: folded, white space as "_"."""
    return "_".join(words.casefold().split())


def _phrases(text: str) -> list[Mention]:
    """Mentions that can be X or Y, longest first where they overlap, in text order."""
    found = [m for m in extract_entities(text, relaxed_names=True) if m.kind in _PHRASE_KINDS]
    found.sort(key=lambda m: (m.start, -m.end))
    kept: list[Mention] = []
    for mention in found:
        if not kept or mention.start >= kept[-1].end:
            kept.append(mention)
    return kept


def _sentence_facts(
    text: str, sentence: tuple[int, int], phrases: list[Mention]
) -> list[RelationMention]:
    start = sentence[0]
    facts: list[RelationMention] = []
    for i, x in enumerate(phrases):
        if not _opens_clause(text, start, x.start):
            continue
        y = phrases[i + 1] if i + 1 < len(phrases) else None
        if y is not None:
            fact = _between(text, sentence, x, y)
            if fact is not None:
                facts.append(fact)
                continue
        fact = _is_a(text, sentence, x)
        if fact is not None:
            facts.append(fact)
    return facts


def _between(
    text: str, sentence: tuple[int, int], x: Mention, y: Mention
) -> RelationMention | None:
    """The facts whose pattern joins two neighbouring phrases x and y."""
    end = sentence[1]
    for pattern in (_REL_OF, _APPOSITIVE):
        match = pattern.fullmatch(text, x.end, y.start)
        if match and _ends_statement(text, y.end, end):
            article, word = match.group(1).lower(), match.group(2)
            if word.lower() in _CLASS_WORDS and article != "the":
                return _fact(x.text, IS_A, y.text, x.start, y.end, sentence)
            if _is_relation(word):
                return _fact(y.text, relation_name(word), x.text, x.start, y.end, sentence)
            return None
    match = _POSSESSIVE_IS.fullmatch(text, x.end, y.start)
    if match and _is_relation(match.group(1)) and _ends_statement(text, y.end, end):
        return _fact(x.text, relation_name(match.group(1)), y.text, x.start, y.end, sentence)
    if _ONLY_IS.fullmatch(text, x.end, y.start):
        after = _POSSESSIVE_AFTER.match(text, y.end, end)
        if after and _is_relation(after.group(1)) and _ends_statement(text, after.end(), end):
            relation = relation_name(after.group(1))
            return _fact(y.text, relation, x.text, x.start, after.end(), sentence)
    return None


def _is_a(text: str, sentence: tuple[int, int], x: Mention) -> RelationMention | None:
    """'X is a physicist', 'X is a kind of bird': the class is the words after the article."""
    end = sentence[1]
    match = _IS_A.match(text, x.end, end)
    found = _class_phrase(text, match.end(), end) if match else None
    if found is None:
        return None
    words, stop, stopped_by = found
    if stopped_by == "of":
        if len(words) != 1 or words[0].lower() not in _CLASS_WORDS:
            return None  # "a member of …" is a relation, read by the other patterns
        of = _KIND_OF.match(text, stop, end)
        found = _class_phrase(text, of.end(), end) if of else None  # "a kind of bird"
        if found is None or found[2] == "of":
            return None
        words, stop, _ = found
    first = words[0].lower()
    if first in _NOT_RELATIONS or first in _CLASS_WORDS:
        return None
    return _fact(x.text, IS_A, " ".join(words), x.start, stop, sentence)


def _class_phrase(text: str, at: int, end: int) -> tuple[list[str], int, str] | None:
    """Up to four words from ``at``, where they end and the stop word that ended them.

    The words must end the clause (punctuation or the end) or stop at a stop word (or a
    past participle: "a language created by …"); more words than that give None.
    """
    match = _OBJECT_WORDS.match(text, at, end)
    if not match:
        return None
    words: list[str] = []
    for g in range(1, MAX_IS_A_WORDS + 1):
        word = match.group(g)
        if word is None:
            break
        lower = word.lower()
        if lower in _OBJECT_STOPS or (words and len(lower) > 4 and lower.endswith("ed")):
            return (words, match.end(g - 1), lower) if words else None
        words.append(word)
    stop = match.end(len(words))
    if not _CLASS_END.match(text, stop, end):
        return None
    return words, stop, ""


def _opens_clause(text: str, start: int, at: int) -> bool:
    """Whether a phrase at ``at`` opens its sentence (``start``) or a clause in it."""
    window = max(start, at - _LOOK_BACK)
    before = text[window:at]
    if _CLAUSE_TAIL.search(before):
        return True
    return window == start and _SENTENCE_LEAD.fullmatch(before) is not None


def _ends_statement(text: str, at: int, end: int) -> bool:
    if text.startswith(("'s", "’s"), at):
        return False
    return _STATEMENT_END.match(text, at, end) is not None


def _is_relation(word: str) -> bool:
    return (
        word.islower() and len(word) > 1 and word not in _NOT_RELATIONS and word not in _CLASS_WORDS
    )


def _fact(
    subject: str, relation: str, obj: str, start: int, end: int, sentence: tuple[int, int]
) -> RelationMention:
    return RelationMention(subject, relation, obj, start, end, sentence)
