"""Entities with zero models: names, acronyms, quoted terms, code, key phrases and titles.

``extract_entities(text)`` is the default ``EntityExtractor``: a plain callable from text
to ``Mention`` spans, so a GLiNER or LLM extractor with the same shape drops into the same
slot. Every mention keeps its character span (``text[m.start:m.end] == m.text``) and the
key of ``normalise_entity`` (the node id is ``"entity:" + key``).

What counts, and what does not:

- **name**: capitalised words ("Marie Curie", "Bank of England", "New York City"); the
  rules for sentence starts and German nouns are in ``ingest.names``.
- **acronym**: 2 to 6 capitals, digits allowed ("NASA", "GDPR", "H2O", "COVID-19"), their
  plural ("APIs"), dotted initialisms ("U.S."); not inside a shouted line of three or more
  capitalised words, not Roman numerals, not "OK" or "TODO".
- **quoted**: a term of at most five words in "…", “…”, „…“, «…», ‘…’, '…', 「…」 or 『…』,
  unless it reads like a sentence (a verb such as "is", a pronoun, a final ? or !).
- **code**: ``snake_case``, ``camelCase``, ``dotted.names``, CLI flags ``--db`` and
  anything in backticks (up to 80 characters).
- **keyphrase**: deliberately conservative: a pair of adjacent lower-case words, each of at
  least three letters and neither a common, generic or -ly word, that occurs at least
  twice in the text ("cold room" … "cold rooms"). Only pairs, only repeats.
- **title**: the ``titles`` given (other documents' titles), matched exactly, ignoring case,
  on whole words (``ingest.titles``); a title of one short or common word is not looked for.

Not entities: URLs, e-mail addresses, markdown link targets, HTML tags and fenced code
blocks, which are blanked out before anything else is looked for (``ingest.masking``;
spans stay exact).
When mentions with the same key overlap, one is kept: title, code, name, acronym, quoted,
key phrase, in that order. The work is linear in the text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from groundgraph.ingest.masking import BLANK, blank_spans, mask
from groundgraph.ingest.names import Words, name_spans
from groundgraph.ingest.normalise import MAX_KEY_CHARS, normalise_entity, singular
from groundgraph.ingest.titles import TitleMatcher
from groundgraph.ingest.wordlists import GENERIC_WORDS, NOT_ACRONYMS, is_common
from groundgraph.text import sentence_spans

__all__ = [
    "KINDS",
    "MAX_KEY_CHARS",
    "EntityExtractor",
    "Mention",
    "MentionKind",
    "TitleMatcher",
    "extract_entities",
    "normalise_entity",
    "sentence_mentions",
]

MentionKind = Literal["title", "code", "name", "acronym", "quoted", "keyphrase"]
#: The kinds of mention, in the order of precedence when two with one key overlap.
KINDS: tuple[str, ...] = ("title", "code", "name", "acronym", "quoted", "keyphrase")
_PRECEDENCE = {kind: rank for rank, kind in enumerate(KINDS)}


@dataclass(frozen=True, slots=True)
class Mention:
    """An entity named in a text: ``text == source[start:end]``, ``key`` its normal form."""

    start: int
    end: int
    text: str
    key: str
    kind: MentionKind


#: What an entity extractor is: text in, mentions out.
EntityExtractor = Callable[[str], list[Mention]]

MAX_CODE_CHARS = 80
_FLAG = re.compile(r"--[^\W_][\w\-]*")  # a command-line flag
_CODE_ANCHOR = re.compile(r"_(?=[^\W_])|\.(?=[^\W\d])|(?<=[a-z])[A-Z]")
_CODE_TAIL = re.compile(r"[\w.]*")
_DOTTED = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)+")
_SNAKE = re.compile(r"\w*[^\W_]_[^\W_]\w*")
_CAMEL = re.compile(r"[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*")
_INITIALISM_DOT = re.compile(r"\.(?=[^\W\d_]\.)")
_INITIALISM = re.compile(r"(?:[^\W\d_]\.){2,}(?!\w)")
_ROMAN = re.compile(r"[IVXLCDM]+")
_QUOTED = re.compile(
    r'"(?=[^\s"])([^"\n]{1,60}?)(?<=\S)"'
    r"|“([^“”\n]{1,60})”"
    r"|„([^„“”\n]{1,60})[“”]"
    r"|«([^«»\n]{1,60})»"
    r"|「([^「」\n]{1,40})」"
    r"|『([^『』\n]{1,40})』"
    r"|‘((?:[^‘’\n]|’(?=\w)){1,60})’(?!\w)"
    r"|'(?<![\w']')(?=[^\s'])([^'\n]{1,60}?)(?<=\S)'(?!\w)"
)
MAX_QUOTED_WORDS = 5
# Words that make a quoted stretch a sentence or a remark rather than a term.
_SENTENCE_WORDS = frozenset(
    {"is", "are", "was", "were", "be", "been", "has", "have", "had", "will", "would"}
    | {"can", "could", "should", "do", "does", "did", "i", "you", "we", "he", "she", "they"}
    | {"it", "this", "that"}
)
_TRAILING = " \t\u00a0.,;:"
_MAX_RUN_OF_CAPITALS = 2  # a longer run of all-capital words is shouting


def extract_entities(
    text: str,
    titles: Iterable[str] | TitleMatcher = (),
    language: str | None = None,
    relaxed_names: bool = False,
) -> list[Mention]:
    """The entity mentions in ``text``, ordered by position (see the module docstring).

    ``titles`` are other documents' titles to look for (pass a ``TitleMatcher`` when there
    are many, to build it once); ``language`` "german" (or any other name) overrides the
    guess of whether the text capitalises every noun; ``relaxed_names`` takes any single
    capitalised word that is not a common word for a name, for callers whose syntax
    already vouches for one ("X is the father of Y").
    """
    masked, inline_code = mask(text)
    found = [
        m for a, b in inline_code if b - a <= MAX_CODE_CHARS for m in _maybe(text, a, b, "code")
    ]
    code = list(_code(text, masked))
    found.extend(code)
    # Words inside identifiers ("index" of "index.json") are not names or key phrases.
    masked = blank_spans(masked, [(m.start, m.end) for m in code])
    words = Words(masked)
    german = words.looks_german() if language is None else language.lower() == "german"
    found.extend(_acronyms(text, masked, words))
    found.extend(_quoted(text, masked))
    found.extend(_names(text, words, german, relaxed_names))
    found.extend(_keyphrases(text, words))
    if not isinstance(titles, TitleMatcher):
        titles = TitleMatcher(titles)
    found.extend(Mention(a, b, text[a:b], key, "title") for a, b, key in titles.find(text, masked))
    return _deduplicate(found)


def sentence_mentions(
    text: str, extractor: EntityExtractor = extract_entities
) -> list[tuple[tuple[int, int], list[Mention]]]:
    """Each sentence (``text.sentence_spans``) that has mentions, with them, in order.

    The extractor runs once over the whole text (names use evidence from all of it); a
    mention belongs to the sentence it starts in.
    """
    spans = sentence_spans(text)
    starts = [start for start, _ in spans]
    buckets: list[list[Mention]] = [[] for _ in spans]
    for mention in extractor(text):
        at = bisect.bisect_right(starts, mention.start) - 1
        if at >= 0 and mention.start < spans[at][1]:
            buckets[at].append(mention)
    return [(span, bucket) for span, bucket in zip(spans, buckets, strict=True) if bucket]


def _mention(text: str, start: int, end: int, kind: MentionKind) -> Mention | None:
    surface = text[start:end]
    key = normalise_entity(surface)
    return Mention(start, end, surface, key, kind) if key else None


def _maybe(text: str, start: int, end: int, kind: MentionKind) -> Iterator[Mention]:
    """The mention of ``text[start:end]``, if it has a key."""
    mention = _mention(text, start, end, kind)
    if mention is not None:
        yield mention


def _code(text: str, masked: str) -> Iterator[Mention]:
    for match in _FLAG.finditer(masked):
        before = masked[match.start() - 1] if match.start() else " "
        if not (before.isalnum() or before in "_-"):
            yield from _maybe(text, match.start(), match.end(), "code")
    covered = 0
    for anchor in _CODE_ANCHOR.finditer(masked):
        if anchor.start() < covered:
            continue
        start = anchor.start()
        while start > covered and (masked[start - 1].isalnum() or masked[start - 1] in "_."):
            start -= 1
        tail = _CODE_TAIL.match(masked, anchor.start())
        end = tail.end() if tail else anchor.end()
        covered = end
        token = masked[start:end].strip(".")
        start += masked[start:end].index(token) if token else 0
        if token and _is_code(token):
            yield from _maybe(text, start, start + len(token), "code")


def _is_code(token: str) -> bool:
    if _DOTTED.fullmatch(token):
        parts = token.split(".")
        if all(len(part) == 1 for part in parts):
            return False  # an abbreviation such as "e.g"
        first, second = parts[0], parts[-1]
        # "ended.Then": a full stop without its space
        return not (len(parts) == 2 and first.isalpha() and first.islower() and second.istitle())
    return bool(_SNAKE.fullmatch(token) or _CAMEL.fullmatch(token))


def _acronyms(text: str, masked: str, words: Words) -> Iterator[Mention]:
    loud = _all_capitals(words)
    shouted = _shouted(words, loud)
    for i in loud:
        word = words.words[i]
        if i in shouted or "'" in word or "’" in word:
            continue
        if word in NOT_ACRONYMS or _ROMAN.fullmatch(word):
            continue
        yield from _maybe(text, words.start[i], words.end[i], "acronym")
    covered = 0
    for dot in _INITIALISM_DOT.finditer(masked):
        start = dot.start() - 1
        if start < covered or (
            start and (masked[start - 1].isalnum() or masked[start - 1] in "_.")
        ):
            continue
        match = _INITIALISM.match(masked, start)
        if match:
            covered = match.end()
            if match.group().replace(".", "").isupper():
                yield from _maybe(text, start, match.end(), "acronym")


def _all_capitals(words: Words) -> list[int]:
    """Indices of words of 2 to 6 capitals, digits allowed, maybe with a plural "s"."""
    found: list[int] = []
    cap = words.cap
    maybe = [i for i, w in enumerate(words.words) if len(w) > 1 and cap[i] and not w[1].islower()]
    for i in maybe:
        word = words.words[i]
        stem = word[:-1] if word[-1] == "s" else word
        if stem.isupper() and len(stem) <= 10 and 2 <= sum(c.isalpha() for c in stem) <= 6:
            found.append(i)
    return found


def _shouted(words: Words, loud: list[int]) -> set[int]:
    """Those of ``loud`` in runs of three or more all-capital words on one line."""
    shouted: set[int] = set()
    run: list[int] = []
    text = words.text
    for i in [*loud, -1]:
        same_line = i > 0 and text[words.end[i - 1] : words.start[i]].strip(" \t") == ""
        if run and run[-1] == i - 1 and same_line:
            run.append(i)
            continue
        if len(run) > _MAX_RUN_OF_CAPITALS:
            shouted.update(run)
        run = [i]
    return shouted


def _quoted(text: str, masked: str) -> Iterator[Mention]:
    for match in _QUOTED.finditer(masked):
        group = next(g for g in range(1, 9) if match.group(g) is not None)
        start, end = match.span(group)
        inner = text[start:end]
        if inner.rstrip().endswith(("?", "!")) or BLANK in match.group(group):
            continue
        start += len(inner) - len(inner.lstrip(" \t\u00a0"))
        end = start + len(text[start:end].rstrip(_TRAILING))
        content = text[start:end]
        spaced = content.split()
        if len(spaced) > MAX_QUOTED_WORDS or len(content) < 2:
            continue
        if any(w.lower().strip(",;:") in _SENTENCE_WORDS for w in spaced):
            continue
        yield from _maybe(text, start, end, "quoted")


def _names(text: str, words: Words, german: bool, relaxed: bool) -> Iterator[Mention]:
    for run in name_spans(words, german, relaxed):
        yield from _maybe(text, run.start, run.end, "name")


def _keyphrases(text: str, words: Words) -> Iterator[Mention]:
    """Repeated pairs of adjacent lower-case content words (module docstring)."""
    lower, start, end = words.lower, words.start, words.end
    verdicts: dict[str, bool] = {}  # content word or not, by spelling
    pairs: list[tuple[int, tuple[str, str]]] = []
    counts: dict[tuple[str, str], int] = {}
    gaps = zip(end, start[1:], strict=False)
    for i in [i for i, (e, s) in enumerate(gaps) if s == e + 1 and text[e] == " "]:
        a, b = words.words[i], words.words[i + 1]
        if a not in verdicts:
            verdicts[a] = _content_word(a)
        if b not in verdicts:
            verdicts[b] = _content_word(b)
        if verdicts[a] and verdicts[b]:
            pair = (lower[i], singular(lower[i + 1]))
            counts[pair] = counts.get(pair, 0) + 1
            pairs.append((i, pair))
    for i, pair in pairs:
        if counts[pair] >= 2:
            yield from _maybe(text, start[i], end[i + 1], "keyphrase")


def _content_word(word: str) -> bool:
    return (
        len(word) >= 3
        and word.isalpha()
        and word.islower()
        and not word.endswith("ly")
        and word not in GENERIC_WORDS
        and not is_common(word)
    )


def _deduplicate(found: list[Mention]) -> list[Mention]:
    found.sort(key=lambda m: (m.start, -m.end, _PRECEDENCE[m.kind]))
    kept: list[Mention] = []
    reach: dict[str, int] = {}  # key -> end of the last kept mention with that key
    for mention in found:
        if mention.start < reach.get(mention.key, -1):
            continue
        kept.append(mention)
        reach[mention.key] = max(reach.get(mention.key, -1), mention.end)
    kept.sort(key=lambda m: (m.start, m.end, _PRECEDENCE[m.kind]))
    return kept
