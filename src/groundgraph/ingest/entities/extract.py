"""Entities with zero models: names, acronyms, quoted terms, code, key phrases and titles.

``extract_entities(text)`` is the default ``EntityExtractor``: a plain callable from text
to ``Mention`` spans, so a GLiNER or LLM extractor with the same shape drops into the same
slot. Every mention keeps its character span (``text[m.start:m.end] == m.text``) and the
key of ``normalise_entity`` (the node id is ``"entity:" + key``).

What counts, and what does not:

- **name**: capitalised words ("Marie Curie", "Bank of England", "New York City"); the
  rules for sentence starts and German nouns are in ``ingest.entities.names``.
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
  on whole words (``ingest.entities.titles``); a title of one short or common word is not
  looked for.

Not entities: URLs, e-mail addresses, markdown link targets, HTML tags and fenced code
blocks, which are blanked out before anything else is looked for (``ingest.entities.masking``;
spans stay exact).
When mentions with the same key overlap, one is kept: title, code, name, acronym, quoted,
key phrase, in that order. The work is linear in the text.

``untitled_mentions`` and ``with_titles`` are ``extract_entities`` in two steps: all but
the titles (in a worker process, say), then the titles and the de-duplication (where the
titles are kept).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from groundgraph.ingest.entities.keyphrases import keyphrase_spans
from groundgraph.ingest.entities.masking import BLANK, blank_spans, mask
from groundgraph.ingest.entities.names import name_spans
from groundgraph.ingest.entities.normalise import normalise_entity
from groundgraph.ingest.entities.titles import TitleMatcher
from groundgraph.ingest.entities.wordlists import NOT_ACRONYMS
from groundgraph.ingest.entities.words import Words
from groundgraph.text import sentence_spans

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

    def __reduce__(self) -> tuple[type[Mention], tuple[int, int, str, str, MentionKind]]:
        # By value: mentions cross from indexing workers in bulk, and this loads fastest.
        return Mention, (self.start, self.end, self.text, self.key, self.kind)


#: What an entity extractor is: text in, mentions out.
EntityExtractor = Callable[[str], list[Mention]]

MAX_CODE_CHARS = 80
_FLAG = re.compile(r"--[^\W_][\w\-]*")  # a command-line flag
_CODE_ANCHOR = re.compile(r"_(?=[^\W_])|\.(?=[^\W\d])|(?<=[a-z])[A-Z]")
_DOT_ANCHOR = re.compile(r"\.(?=[^\W\d])")  # the second part of _CODE_ANCHOR
_CAMEL_ANCHOR = re.compile(r"[A-Z](?<=[a-z][A-Z])")  # the third, searched by its capital
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
    found, masked = untitled_mentions(text, language, relaxed_names)
    return with_titles(text, found, masked, titles)


def untitled_mentions(
    text: str, language: str | None = None, relaxed_names: bool = False
) -> tuple[list[Mention], str | None]:
    """Every candidate mention except titles, before de-duplication, and the masked text
    that titles are looked for in (None when it equals ``text``).

    With ``with_titles`` this is ``extract_entities`` in two steps, so the work that needs
    no titles can run elsewhere (a worker process: mentions pickle) and the titles be
    looked for where they are kept.
    """
    masked, inline_code = mask(text)
    found = _mentions(text, [(a, b) for a, b in inline_code if b - a <= MAX_CODE_CHARS], "code")
    code = _code(text, masked)
    if code:
        found += code
        # Words inside identifiers ("index" of "index.json") are not names or key phrases.
        masked = blank_spans(masked, [(m.start, m.end) for m in code])
    words = Words(masked)
    german = words.looks_german() if language is None else language.lower() == "german"
    found += _acronyms(text, masked, words)
    found += _quoted(text, masked)
    found += _names(text, words, german, relaxed_names)
    found += _keyphrases(text, words)
    return found, (None if masked == text else masked)


def with_titles(
    text: str,
    found: Iterable[Mention],
    masked: str | None,
    titles: Iterable[str] | TitleMatcher,
) -> list[Mention]:
    """``extract_entities``'s result from ``untitled_mentions``'s output and the titles
    (a ``TitleMatcher`` or an iterable of titles)."""
    if not isinstance(titles, TitleMatcher):
        titles = TitleMatcher(titles)
    mentions = list(found)
    mentions += [Mention(a, b, text[a:b], key, "title") for a, b, key in titles.find(text, masked)]
    return _deduplicate(mentions)


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


def _mentions(text: str, spans: Iterable[tuple[int, int]], kind: MentionKind) -> list[Mention]:
    """The mentions of those spans of ``text`` that have a key."""
    found: list[Mention] = []
    for start, end in spans:
        surface = text[start:end]
        key = normalise_entity(surface)
        if key:
            found.append(Mention(start, end, surface, key, kind))
    return found


def _code(text: str, masked: str) -> list[Mention]:
    return _mentions(text, _code_spans(masked), "code")


def _code_spans(masked: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    if "--" in masked:
        for match in _FLAG.finditer(masked):
            before = masked[match.start() - 1] if match.start() else " "
            if not (before.isalnum() or before in "_-"):
                spans.append(match.span())
    if not _may_hold_code_anchor(masked):
        return spans
    covered = 0
    backwards = masked[::-1]  # the run of [\w.] before an anchor is one match in reverse
    for anchor in _CODE_ANCHOR.finditer(masked):
        if anchor.start() < covered:
            continue
        back = _CODE_TAIL.match(backwards, len(masked) - anchor.start())
        start = max(covered, len(masked) - back.end()) if back else anchor.start()
        tail = _CODE_TAIL.match(masked, anchor.start())
        end = tail.end() if tail else anchor.end()
        covered = end
        token = masked[start:end].strip(".")
        start += masked[start:end].index(token) if token else 0
        if token and _is_code(token):
            spans.append((start, start + len(token)))
    return spans


def _may_hold_code_anchor(masked: str) -> bool:
    """False only if ``_CODE_ANCHOR`` finds nothing; its three parts are quicker alone."""
    return "_" in masked or bool(_DOT_ANCHOR.search(masked) or _CAMEL_ANCHOR.search(masked))


def _is_code(token: str) -> bool:
    if _DOTTED.fullmatch(token):
        parts = token.split(".")
        if all(len(part) == 1 for part in parts):
            return False  # an abbreviation such as "e.g"
        first, second = parts[0], parts[-1]
        # "ended.Then": a full stop without its space
        return not (len(parts) == 2 and first.isalpha() and first.islower() and second.istitle())
    return bool(_SNAKE.fullmatch(token) or _CAMEL.fullmatch(token))


def _acronyms(text: str, masked: str, words: Words) -> list[Mention]:
    spans: list[tuple[int, int]] = []
    loud = _all_capitals(words)
    if loud:
        shouted = _shouted(words, loud)
        for i in loud:
            word = words.words[i]
            if i in shouted or "'" in word or "’" in word:
                continue
            if word in NOT_ACRONYMS or _ROMAN.fullmatch(word):
                continue
            spans.append((words.start[i], words.end[i]))
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
                spans.append((start, match.end()))
    return _mentions(text, spans, "acronym")


def _all_capitals(words: Words) -> list[int]:
    """Indices of words of 2 to 6 capitals, digits allowed, maybe with a plural "s"."""
    found: list[int] = []
    all_words = words.words
    for i in words.capitals:
        word = all_words[i]
        if len(word) < 2 or word[1].islower():
            continue
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


def _quoted(text: str, masked: str) -> list[Mention]:
    spans: list[tuple[int, int]] = []
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
        spans.append((start, end))
    return _mentions(text, spans, "quoted")


def _names(text: str, words: Words, german: bool, relaxed: bool) -> list[Mention]:
    runs = name_spans(words, german, relaxed)
    return _mentions(text, ((run.start, run.end) for run in runs), "name")


def _keyphrases(text: str, words: Words) -> list[Mention]:
    """Repeated pairs of adjacent lower-case content words (module docstring)."""
    return _mentions(text, keyphrase_spans(words), "keyphrase")


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
