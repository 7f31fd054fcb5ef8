"""Substitutions: the claim's closest evidence sentence writes another value in its place.

The numbers, names and anchors rules ask whether a claim's values are *held* by its
sections, and near what. A claim copied from a sentence with one value changed passes them
when the new value is written elsewhere for another reason: "published in September 2017"
against "published in September 2010" and, further on, "In September of 2017 the press
will open ..."; "at the 1976 Tampa Bay Buccaneers season" against "at the University of
Oklahoma" and that season's own article. Here the claim is set word by word against each
statement's closest sentence (the one sharing the most words in order, among those holding
most of its weight), and a *substitution* is a stretch of the claim that sentence replaces
with something else, where

- both sides are short (at most ``SPAN`` tokens) and framed: at least ``FRAME`` equal
  tokens on one side and one on the other, or ``FRAME`` with the sentence's start or end
  on the other side;
- both sides write a value of the same kind: a number against another number ("HD 21"
  for "HD 23", "1958" for "1959"), or a capitalised word against another capitalised word
  ("Lars Ulrich responded" for "James Hetfield responded").

An *exchange* is refused too: two names of the claim that the sentence writes in the other
order around the same content word ("Rui Costa defeated Carla Mendes" for "Carla Mendes
defeated Rui Costa"), unless one side puts ``by`` between them (the passive voice, "A was
defeated by B", says the same as "B defeated A"). Words
added or dropped around the shared text are not ("Christopher Nolan" for "Nolan").
Structure only: no word list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher

from groundgraph.reason.anchors import Token, tokenize
from groundgraph.reason.claims import ordinary_first_word
from groundgraph.reason.evidence import SectionCache

SPAN = 8  # the longest replaced stretch, in tokens, on either side
FRAME = 2  # equal tokens framing a substitution on its firmer side
CLOSE = 0.5  # a sentence is a candidate when it holds this share of the best weight


def key(token: Token) -> str:
    """What two tokens must share to be the same word: the analysed term ("runs", "run"),
    else the lower-cased text (numbers, stopwords)."""
    return token.term or token.text.lower()


def _kinds(tokens: Sequence[Token], whole: Sequence[Token]) -> set[str]:
    """The kinds of value among ``tokens`` (a stretch of ``whole``): "number", "name".

    A capitalised stopword ("The", "It") is no name; nor is the sentence's first word when
    the sentence shows it is capitalised only for starting it (:func:`ordinary_first_word`).
    """
    found = set()
    for t in tokens:
        if t.is_number:
            found.add("number")
        elif t.text[0].isupper() and t.term is not None:
            if t is whole[0] and ordinary_first_word([w.text for w in whole if not w.is_number]):
                continue
            found.add("name")
    return found


def _framed(before: int, after: int, at_start: bool, at_end: bool) -> bool:
    left = before >= FRAME or (at_start and after >= FRAME)
    right = after >= FRAME or (at_end and before >= FRAME)
    return (left and (after >= 1 or at_end)) or (right and (before >= 1 or at_start))


def substitutions(claim: Sequence[Token], sentence: Sequence[Token]) -> list[tuple[int, int]]:
    """(start, end) token ranges of ``claim`` that ``sentence`` writes with another value."""
    a = [key(t) for t in claim]
    b = [key(t) for t in sentence]
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    out = []
    for k, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag != "replace" or i2 - i1 > SPAN or j2 - j1 > SPAN:
            continue
        before = ops[k - 1][2] - ops[k - 1][1] if k > 0 and ops[k - 1][0] == "equal" else 0
        after = (
            ops[k + 1][2] - ops[k + 1][1] if k + 1 < len(ops) and ops[k + 1][0] == "equal" else 0
        )
        if not _framed(before, after, i1 == 0 and j1 == 0, i2 == len(a) and j2 == len(b)):
            continue
        mine = [t for t in claim[i1:i2] if key(t) not in b[j1:j2]]
        theirs = [t for t in sentence[j1:j2] if key(t) not in a[i1:i2]]
        if _kinds(mine, claim) & _kinds(theirs, sentence):
            out.append((i1, i2))
    return out


def _runs(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """(start, end) of each run of name tokens (adjacent capitalised words)."""
    runs: list[tuple[int, int]] = []
    for k, token in enumerate(tokens):
        if "name" not in _kinds([token], tokens):
            continue
        if runs and runs[-1][1] == k:
            runs[-1] = (runs[-1][0], k + 1)
        else:
            runs.append((k, k + 1))
    return runs


def _between(tokens: Sequence[Token], left: tuple[int, int], right: tuple[int, int]) -> list[str]:
    return [key(t) for t in tokens[left[1] : right[0]]]


def exchanges(claim: Sequence[Token], sentence: Sequence[Token]) -> list[tuple[int, int]]:
    """Name runs of ``claim`` that ``sentence`` writes in the other order around the same
    word ("A defeated B" for "B defeated A"), both in the active or both in the passive
    voice (``by`` between them on both sides, or on neither)."""
    theirs: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for run in _runs(sentence):
        theirs.setdefault(tuple(key(t) for t in sentence[run[0] : run[1]]), []).append(run)
    counts: dict[tuple[str, ...], int] = {}
    for run in _runs(claim):
        name = tuple(key(t) for t in claim[run[0] : run[1]])
        counts[name] = counts.get(name, 0) + 1
    # a name written twice on either side has no one place to be exchanged from
    mine = [
        run
        for run in _runs(claim)
        if counts[name := tuple(key(t) for t in claim[run[0] : run[1]])] == 1
        and len(theirs.get(name, ())) == 1
    ]
    out: set[tuple[int, int]] = set()
    for x, a in enumerate(mine):
        for b in mine[x + 1 :]:
            if b[0] - a[1] > SPAN:
                break
            ka = tuple(key(t) for t in claim[a[0] : a[1]])
            kb = tuple(key(t) for t in claim[b[0] : b[1]])
            if ka == kb:
                continue
            words = _between(claim, a, b)
            verbs = {w for w, t in zip(words, claim[a[1] : b[0]], strict=True) if t.term}
            for sb in theirs.get(kb, []):
                for sa in theirs.get(ka, []):
                    if not sb[1] <= sa[0] or sa[0] - sb[1] > SPAN:
                        continue
                    other = _between(sentence, sb, sa)
                    if verbs & set(other) and ("by" in words) == ("by" in other):
                        out.update((a, b))
    return sorted(out)


def statements(tokens: list[Token], claim: str) -> list[list[Token]]:
    """The claim's tokens cut at each ";" outside brackets: each joined sentence is compared
    on its own."""
    parts: list[list[Token]] = [[]]
    depth = 0  # a ";" inside brackets ("Lisbon ( ; Portuguese: ...)") joins nothing
    for k, token in enumerate(tokens):
        gap = claim[tokens[k - 1].end : token.start] if k > 0 else ""
        for char in gap:
            if char in "([":
                depth += 1
            elif char in ")]":
                depth = max(0, depth - 1)
            elif char == ";" and depth == 0 and parts[-1]:
                parts.append([])
        parts[-1].append(token)
    return [p for p in parts if p]


def closest_sentence(
    part: Sequence[Token], sentences: Sequence[list[Token]], need: Mapping[str, float]
) -> list[Token] | None:
    terms = {t.term for t in part if t.term is not None}
    weights = [
        sum(need.get(t, 0.0) for t in terms & {x.term for x in s if x.term}) for s in sentences
    ]
    best = max(weights, default=0.0)
    if best <= 0:
        return None
    words = [key(t) for t in part]
    chosen, matched = None, -1
    for s, w in zip(sentences, weights, strict=True):
        if w < CLOSE * best:
            continue
        matcher = SequenceMatcher(None, words, [key(t) for t in s], autojunk=False)
        size = sum(m.size for m in matcher.get_matching_blocks())
        if size > matched:
            chosen, matched = s, size
    return chosen


def evidence_tokens(sections: SectionCache, node_ids: Sequence[str]) -> list[list[Token]]:
    """The tokens of each sentence of the sections' contents."""
    analyse = sections.corpus.terms
    out = []
    for node_id in node_ids:
        content = sections.texts[node_id].content
        for start, end, _ in sections.sentences(node_id):
            out.append(tokenize(content[start:end], analyse))
    return out


def substituted_values(
    claim: str,
    parts: Sequence[Sequence[Token]],
    sentences: Sequence[list[Token]],
    need: Mapping[str, float],
) -> tuple[str, ...]:
    """The stretches of ``claim`` (cut into ``parts`` by :func:`statements`) that their
    closest evidence sentence writes with another value, in claim order."""
    found: dict[str, None] = {}
    for part in parts:
        sentence = closest_sentence(part, sentences, need)
        if sentence is None:
            continue
        for i, j in sorted({*substitutions(part, sentence), *exchanges(part, sentence)}):
            found[claim[part[i].start : part[j - 1].end]] = None
    return tuple(found)
