"""Anchors: a claim's numbers and names must be backed where the claim puts them.

The numbers and names rules of :mod:`.claims` ask whether the sections *hold* a number
or a name. A perturbed claim passes them when the number or name is there for another
reason: "formed in 2004" against a section with "formed in 1997" and, further on, an
album "(2004)"; "demons like Gallu and Demon algorithm" against the Lilu section and an
article on the demon algorithm. An anchor (a number, a date's day, a name run) is
*placed* when some sentence of the chosen sections holds it and

- that sentence is the claim's aligned sentence (the one holding most of its weight), or
- the sentence shares a context word with it: one of the ``CONTEXT`` content words
  nearest the anchor on either side in the claim (for a number: within the same reach
  around the number in the sentence);

and, for a number, the sentence does not give it another unit: the word written right
after it ("7 mi" is not "7 km"; "5 December" is not "5 goals"), or the month right
before a day ("June 28" is not "November 28"). An anchor with no context word (a claim
of one name) is placed wherever it is held. Structure only: no word list but the months.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from groundgraph.reason.evidence import SectionCache
from groundgraph.text import ENGLISH_STOPWORDS

CONTEXT = 3  # content words looked at on each side of an anchor
PARTICLE = 5  # the longest lower-case word read as part of a name ("ap", "von", "ferch")

_TOKEN = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[^\W\d_][\w'’-]*")
_CLAUSE = re.compile(r"[,;:()\[\]–—]|\s-\s")
_MONTHS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
    ]
)

Analyse = Callable[[str], list[str]]


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    start: int
    end: int
    term: str | None  # its analysed term; None for a number or a stopword

    @property
    def is_number(self) -> bool:
        return self.text[0].isdigit()


def tokenize(text: str, analyse: Analyse) -> list[Token]:
    """Words and numbers of ``text`` with their analysed term (None for numbers, stopwords)."""
    out = []
    for m in _TOKEN.finditer(text):
        word = m.group()
        terms = [] if word[0].isdigit() else analyse(word)
        out.append(Token(word, m.start(), m.end(), terms[0] if terms else None))
    return out


def _adjacent(text: str, left: Token, right: Token) -> bool:
    return text[left.end : right.start] in (" ", "-", "\u00a0")


def unit_of(text: str, tokens: Sequence[Token], i: int) -> str | None:
    """The unit of the number at ``i``: the content word right after it, else a month
    right before it ("28" in "June 28, 1936"); None when there is neither."""
    if i + 1 < len(tokens) and _adjacent(text, tokens[i], tokens[i + 1]):
        after = tokens[i + 1]
        if after.term is not None:
            return after.term
        if not after.is_number and after.text.lower() not in ENGLISH_STOPWORDS:
            return after.text.lower()  # "9 m": a unit too short for the analyser
    if i > 0 and _adjacent(text, tokens[i - 1], tokens[i]):
        before = tokens[i - 1].text.lower().rstrip(".")
        if before in _MONTHS:
            return before[:3]
    return None


def context_of(tokens: Sequence[Token], i: int, j: int, own: frozenset[str]) -> set[str]:
    """The ``CONTEXT`` nearest content terms on each side of ``tokens[i:j]``, not in ``own``."""
    found: set[str] = set()
    for side in (range(i - 1, -1, -1), range(j, len(tokens))):
        taken = 0
        for k in side:
            term = tokens[k].term
            if term is None or term in own:
                continue
            found.add(term)
            taken += 1
            if taken == CONTEXT:
                break
    return found


def _clause_terms(text: str, tokens: Sequence[Token], i: int, j: int) -> set[str]:
    """The terms of the clause holding ``tokens[i:j]``: punctuation bounds it."""
    left, right = i, j
    while left > 0 and not _CLAUSE.search(text[tokens[left - 1].end : tokens[left].start]):
        left -= 1
    while right < len(tokens) and not _CLAUSE.search(
        text[tokens[right - 1].end : tokens[right].start]
    ):
        right += 1
    return {t.term for t in tokens[left:right] if t.term is not None}


def clause_context(text: str, tokens: Sequence[Token], i: int) -> set[str]:
    """The context terms of the number at ``i`` within its clause (punctuation bounds it:
    "released in 2006" in "Vincent, released in 2006, is ..."), else its plain context."""
    return _clause_terms(text, tokens, i, i + 1) or context_of(tokens, i, i + 1, frozenset())


def _month_key(term: str | None) -> str | None:
    if term is None:
        return None
    return term[:3] if term in _MONTHS or term[:3] in _MONTHS else term


@dataclass(frozen=True)
class _Sentence:
    text: str
    tokens: list[Token]
    terms: frozenset[str]


def _sentences(sections: SectionCache, node_ids: Sequence[str]) -> list[_Sentence]:
    analyse = sections.corpus.terms
    out = []
    for node_id in node_ids:
        content = sections.texts[node_id].content
        for start, end, terms in sections.sentences(node_id):
            text = content[start:end]
            out.append(_Sentence(text, tokenize(text, analyse), terms))
    return out


def _aligned(
    sentences: Sequence[_Sentence], need: Mapping[str, float], own: frozenset[str]
) -> set[int]:
    """The sentences holding most of the claim's weight outside the anchor's own terms."""
    weights = [sum(w for t, w in need.items() if t in s.terms and t not in own) for s in sentences]
    best = max(weights, default=0.0)
    return {k for k, w in enumerate(weights) if w == best and best > 0}


def _number_placed(
    claim: str, tokens: Sequence[Token], i: int, sentences: Sequence[_Sentence], aligned: set[int]
) -> bool:
    value = tokens[i].text.replace(",", "")
    unit = _month_key(unit_of(claim, tokens, i))
    context = clause_context(claim, tokens, i)
    for n, s in enumerate(sentences):
        for k, token in enumerate(s.tokens):
            if not token.is_number or token.text.replace(",", "") != value:
                continue
            other = _month_key(unit_of(s.text, s.tokens, k))
            if unit is not None and other is not None and other != unit:
                continue
            if n in aligned or not context or context & context_of(s.tokens, k, k + 1, frozenset()):
                return True
    return False


def _around(tokens: Sequence[Token], first: str, length: int, own: frozenset[str]) -> set[str]:
    """The context terms around each place ``tokens`` write a run starting with ``first``."""
    found: set[str] = set()
    for k, token in enumerate(tokens):
        if token.term == first:
            found |= context_of(tokens, k, min(len(tokens), k + length), own)
    return found


def _capitalised(token: Token, name_terms: frozenset[str]) -> bool:
    return token.text[0].isupper() and token.term in name_terms


def _name_runs(tokens: Sequence[Token], claim: str, name_terms: frozenset[str]) -> list[range]:
    """Runs of capitalised name tokens, one space apart; a short lower-case particle between
    two of them ("Nest ferch Rhys", "Rhys ap Tewdwr") belongs to the run."""
    runs: list[range] = []
    k = 0
    while k < len(tokens):
        if not _capitalised(tokens[k], name_terms):
            k += 1
            continue
        end = k + 1
        while end < len(tokens) and _adjacent(claim, tokens[end - 1], tokens[end]):
            if _capitalised(tokens[end], name_terms):
                end += 1
            elif (
                end + 1 < len(tokens)
                and tokens[end].term is not None
                and len(tokens[end].text) <= PARTICLE
                and tokens[end].text.islower()
                and _adjacent(claim, tokens[end], tokens[end + 1])
                and _capitalised(tokens[end + 1], name_terms)
            ):
                end += 2
            else:
                break
        runs.append(range(k, end))
        k = end
    return runs


def _parts(
    claim: str, tokens: Sequence[Token], need: Mapping[str, float]
) -> list[dict[str, float]]:
    """For each token, the weights of the statement it belongs to: a sentence joined to
    another by ";" is its own statement, aligned on its own."""
    out: list[dict[str, float]] = []
    start = 0
    for k in range(len(tokens) + 1):
        if k == len(tokens) or (k > 0 and ";" in claim[tokens[k - 1].end : tokens[k].start]):
            terms = {t.term for t in tokens[start:k] if t.term is not None}
            part = {t: w for t, w in need.items() if t in terms} or dict(need)
            out.extend(part for _ in range(start, k))
            start = k
    return out


def _name_placed(
    claim: str,
    tokens: Sequence[Token],
    run: range,
    sentences: Sequence[_Sentence],
    need: Mapping[str, float],
    name_terms: frozenset[str],
) -> bool:
    own = frozenset(t.term for t in tokens[run.start : run.stop] if t.term is not None)
    holding = [n for n, s in enumerate(sentences) if own <= s.terms]
    aligned = _aligned(sentences, need, own)
    if not holding or set(holding) & aligned:
        return True  # held nowhere is the names rule's business
    rest = set().union(*(sentences[n].terms for n in aligned))
    clause = _clause_terms(claim, tokens, run.start, run.stop) - own
    if clause and any(clause <= sentences[n].terms for n in holding):
        return True  # the name's own clause is one sentence's statement: a hop, not a swap
    # a word the sentence stating the rest of the claim also holds links nothing
    context = context_of(tokens, run.start, run.stop, own | name_terms) - rest
    first = next(t.term for t in tokens[run.start : run.stop] if t.term is not None)
    return any(
        context & _around(sentences[n].tokens, first, len(run), own | name_terms) for n in holding
    )


def misplaced_anchors(
    claim: str,
    sections: SectionCache,
    node_ids: Sequence[str],
    need: Mapping[str, float],
    name_terms: frozenset[str],
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(numbers, names) of the claim that its sections hold only out of place, claim order.

    A number or name the sections lack altogether is left to the numbers and names rules.
    """
    if not node_ids:
        return (), ()
    tokens = tokenize(claim, sections.corpus.terms)
    sentences = _sentences(sections, node_ids)
    parts = _parts(claim, tokens, need)
    held = {t.text.replace(",", "") for s in sentences for t in s.tokens if t.is_number}
    numbers: dict[str, None] = {}
    for i, token in enumerate(tokens):
        if not token.is_number or token.text.replace(",", "") not in held:
            continue
        aligned = _aligned(sentences, parts[i], frozenset())
        if not _number_placed(claim, tokens, i, sentences, aligned):
            numbers[token.text] = None
    names: dict[str, None] = {}
    for run in _name_runs(tokens, claim, name_terms):
        own = {t.term for t in tokens[run.start : run.stop] if t.term is not None}
        if own & name_terms and not _name_placed(
            claim, tokens, run, sentences, parts[run.start], name_terms
        ):
            names[claim[tokens[run.start].start : tokens[run.stop - 1].end]] = None
    return tuple(numbers), tuple(names)
