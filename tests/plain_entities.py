"""The entity extractor as it was before its fast paths: the oracle ``test_entities_fast`` holds
the fast one to, mention for mention.

A verbatim copy of ``ingest.masking``, ``names``, ``titles`` and ``entities`` at that
time, docstrings dropped (the normaliser and the word lists are shared). When the rules
change on purpose, change this copy with them, or drop it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from groundgraph.ingest.entities import Mention, MentionKind
from groundgraph.ingest.normalise import normalise_entity, singular
from groundgraph.ingest.wordlists import (
    ABBREVIATIONS,
    CONNECTOR_PAIRS,
    CONNECTORS,
    ENGLISH_HINTS,
    GENERIC_WORDS,
    GERMAN_CONNECTORS,
    GERMAN_HINTS,
    NAME_ARTICLES,
    NAME_PREFIXES,
    NOT_ACRONYMS,
    SUBJECT_VERBS,
    is_common,
)

_PRECEDENCE = {
    kind: rank
    for rank, kind in enumerate(("title", "code", "name", "acronym", "quoted", "keyphrase"))
}


# --- ingest/masking.py, as it was
BLANK = "\x00"
# Possessive: a line of a thousand backticks and no newline must not be retried each way.
_FENCE = re.compile(
    r"^[ \t]{0,3}+(`{3,}+|~{3,}+)[^\n]*+\n.*?(?:^[ \t]{0,3}+\1[ \t]*+$|\Z)", re.M | re.S
)
# Patterns that start with a literal are searched fast; the rest is checked in Python.
_ADDRESS = re.compile(r"(?:https?|ftp|file)://\S+|www\.\S+|mailto:\S+", re.IGNORECASE)
_EMAIL_DOMAIN = re.compile(r"@[\w\-]+(?:\.[\w\-]+)+")
_EMAIL_LOCAL = 64
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>\n]{0,200}>")
_LINK_TARGET = re.compile(r"\]\((?:[^()]++|\([^()]*+\))*+\)")
_BACKTICKS = re.compile(r"`([^`\n]+)`")


def mask(text: str) -> tuple[str, list[tuple[int, int]]]:

    def blank(match: re.Match[str]) -> str:
        return BLANK * len(match.group())

    masked = _FENCE.sub(blank, text)
    masked = _ADDRESS.sub(blank, masked)
    masked = _HTML_TAG.sub(blank, masked)
    masked = _LINK_TARGET.sub(lambda m: "]" + BLANK * (len(m.group()) - 1), masked)
    masked = _blank_emails(masked)
    code: list[tuple[int, int]] = []
    for match in _BACKTICKS.finditer(masked):
        start, end = match.span(1)
        inner = match.group(1)
        if BLANK not in inner and inner.strip():
            lead, trail = len(inner) - len(inner.lstrip()), len(inner) - len(inner.rstrip())
            code.append((start + lead, end - trail))
    return _BACKTICKS.sub(blank, masked), code


def blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    pieces: list[str] = []
    done = 0
    for start, end in sorted(spans):
        start = max(start, done)
        if start < end:
            pieces += [text[done:start], BLANK * (end - start)]
            done = end
    return "".join([*pieces, text[done:]]) if pieces else text


def _blank_emails(masked: str) -> str:
    pieces: list[str] = []
    done = 0
    for match in _EMAIL_DOMAIN.finditer(masked):
        start = match.start()
        while start > max(done, match.start() - _EMAIL_LOCAL) and _is_local(masked[start - 1]):
            start -= 1
        if start < match.start():
            pieces += [masked[done:start], BLANK * (match.end() - start)]
            done = match.end()
    return "".join([*pieces, masked[done:]]) if pieces else masked


def _is_local(char: str) -> bool:
    return char.isalnum() or char in "_.+-"


# --- ingest/names.py, as it was


#: Han and kana: scripts written without spaces, where each character counts as a word.
CJK = (
    "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0002ffff"
)


# A word: letters and digits, with inner apostrophes and hyphens ("O'Brien", "Jean-Luc");
# a CJK character alone.
_WORD = rf"[{CJK}]|[^\W_{CJK}][^\W{CJK}]*(?:['’\-][^\W_{CJK}][^\W{CJK}]*)*"
_WORD_OR_GAP = re.compile(f"({_WORD})")


# What between two words makes the second one start a sentence (or a line, a table cell, a
# quote, a link text).
_STARTS_SENTENCE = re.compile(r"[\n\t.!?:;…。！？|•#¿¡\"“«„「『\[]")
_SAME_LINE = re.compile(r"[ \u00a0]{1,3}|[ \u00a0]?&[ \u00a0]?")
_INITIAL_GAP = re.compile(r"\.[ \u00a0]{0,2}")
MAX_NAME_WORDS = 6


class Words:
    __slots__ = (
        "cap",
        "capitalised_mid",
        "end",
        "initial",
        "lower",
        "lower_seen",
        "possessive",
        "start",
        "text",
        "words",
    )

    def __init__(self, text: str) -> None:
        self.text = text
        # Runs once per word of every text, so in bulk and in C where it can: split gives
        # [gap, word, gap, word, …, gap] and the running sum of lengths gives every span.
        parts = _WORD_OR_GAP.split(text)
        bounds = list(itertools.accumulate(map(len, parts)))
        gaps = parts[0:-1:2]  # gaps[i] is the text before word i
        self.start: list[int] = bounds[0:-1:2]
        self.end: list[int] = bounds[1::2]
        self.words: list[str] = parts[1::2]
        self.possessive: set[int] = set()  # words written with a possessive 's
        for i, word in enumerate(self.words):
            if word[-1] == "s" and len(word) > 2 and word[-2] in "'’":
                self.words[i] = word[:-2]
                self.end[i] -= 2
                self.possessive.add(i)
        self.lower: list[str] = [word.lower() for word in self.words]
        self.cap: list[bool] = [word[0].istitle() for word in self.words]
        follows = zip(gaps[1:], self.words, strict=False)
        self.initial: list[bool] = [True] * bool(self.words) + [
            gap != " " and _starts_sentence(gap, before) for gap, before in follows
        ]
        #: Words the text writes in lower case, and words it capitalises mid-sentence.
        self.lower_seen: set[str] = {
            lower for word, lower in zip(self.words, self.lower, strict=True) if word[0].islower()
        }
        self.capitalised_mid: set[str] = {
            lower
            for cap, initial, lower in zip(self.cap, self.initial, self.lower, strict=True)
            if cap and not initial
        }

    def __len__(self) -> int:
        return len(self.start)

    def looks_german(self) -> bool:
        german = english = 0
        for lower in self.lower:
            if lower in GERMAN_HINTS:
                german += 1
            elif lower in ENGLISH_HINTS:
                english += 1
        return german > english


def _starts_sentence(gap: str, prev_word: str) -> bool:
    if not _STARTS_SENTENCE.search(gap):
        return False
    if "\n" in gap or gap.strip(" \u00a0.") != "":
        return True
    # Only a full stop: not after an abbreviation or an initial ("Dr. Curie", "J. Smith").
    return not (len(prev_word) == 1 or prev_word.lower() in ABBREVIATIONS)


def is_all_caps(word: str) -> bool:
    return word.isupper() or (len(word) > 2 and word[-1] == "s" and word[:-1].isupper())


def has_inner_capital(word: str) -> bool:
    for k in range(1, len(word)):
        if word[k].isupper():
            before = word[k - 1]
            if before.islower() or (before == "-" and k >= 3):
                return True
    return False


@dataclass(frozen=True, slots=True)
class NameRun:
    first: int
    last: int
    start: int
    end: int
    capitals: int  # capitalised words in it, connectors not counted


def capitalised_runs(words: Words, german: bool) -> Iterator[NameRun]:
    text, cap = words.text, words.cap
    connectors = GERMAN_CONNECTORS if german else CONNECTORS
    n = len(words)
    i = 0
    while i < n:
        if not cap[i]:
            i += 1
            continue
        run = [i]
        j = i
        while j + 1 < n:
            gap = text[words.end[j] : words.start[j + 1]]
            if _SAME_LINE.fullmatch(gap):
                if cap[j + 1]:
                    run.append(j + 1)
                    j += 1
                    continue
                joined = _connectors(words, j + 1, connectors)
                if joined:
                    run.extend(range(j + 1, joined + 1))
                    j = joined
                    continue
            elif _INITIAL_GAP.fullmatch(gap) and cap[j + 1] and _joins_by_full_stop(words, j):
                run.append(j + 1)
                j += 1
                continue
            break
        i = j + 1
        trimmed = _trim(words, run, german)
        if trimmed:
            first, last = trimmed[0], trimmed[-1]
            capitals = sum(1 for k in trimmed if cap[k])
            if capitals <= MAX_NAME_WORDS:
                yield NameRun(first, last, words.start[first], words.end[last], capitals)


def _connectors(words: Words, k: int, connectors: frozenset[str]) -> int:
    text, lower, n = words.text, words.lower, len(words)
    if lower[k] not in connectors:
        return 0
    after = k + 1
    if (
        after < n
        and (lower[k], lower[after]) in CONNECTOR_PAIRS
        and _SAME_LINE.fullmatch(text[words.end[k] : words.start[after]])
    ):
        after += 1
    if (
        after < n
        and words.cap[after]
        and _SAME_LINE.fullmatch(text[words.end[after - 1] : words.start[after]])
    ):
        return after
    return 0


def _joins_by_full_stop(words: Words, j: int) -> bool:
    word = words.words[j]
    return words.lower[j] in NAME_PREFIXES or (len(word) == 1 and word.isupper())


def _trim(words: Words, run: list[int], german: bool) -> list[int]:
    lower, cap = words.lower, words.cap
    lo, hi = 0, len(run) - 1
    while lo <= hi:
        k = run[lo]
        if cap[k]:
            at_start = words.initial[k]
            if is_common(lower[k]):
                if not (german or at_start):
                    break  # "visited The Hague": mid-sentence, the capital is the name's
                if not german and hi > lo and lower[k] in NAME_ARTICLES:
                    break  # "The Hague is…", "Los Angeles is…"
            elif not (at_start and hi > lo and lower[k] in words.lower_seen):
                break
        lo += 1
    while hi >= lo and (not cap[run[hi]] or is_common(lower[run[hi]])):
        hi -= 1
    return run[lo : hi + 1]


def name_spans(words: Words, german: bool, relaxed: bool = False) -> Iterator[NameRun]:
    for run in capitalised_runs(words, german):
        if run.capitals >= 2:
            members = range(run.first, run.last + 1)
            caps = [k for k in members if words.cap[k]]
            if all(is_common(words.lower[k]) for k in caps):
                continue
            if all(is_all_caps(words.words[k]) for k in caps):
                continue  # a shouted phrase; its acronyms are found on their own
            yield run
        elif _single_is_name(words, run.first, german, relaxed):
            yield run


def _single_is_name(words: Words, k: int, german: bool, relaxed: bool) -> bool:
    word, lower = words.words[k], words.lower[k]
    if len(word) < 2 or is_all_caps(word) or is_common(lower):
        return False
    if relaxed or has_inner_capital(word):
        return True
    if german or lower in words.lower_seen:
        return False
    if not words.initial[k] or lower in words.capitalised_mid or k in words.possessive:
        return True
    after = k + 1
    return (
        after < len(words)
        and words.lower[after] in SUBJECT_VERBS
        and words.text[words.end[k] : words.start[after]] == " "
    )


# --- ingest/titles.py, as it was
# A CJK character is a word of its own, so a title in Japanese is found inside a sentence.
_TITLE_WORD = re.compile(rf"[{CJK}]|[^\W{CJK}]+")
MAX_TITLE_WORDS = 16


class _TitleNode:
    __slots__ = ("children", "key")

    def __init__(self) -> None:
        self.children: dict[tuple[str, str], _TitleNode] = {}
        self.key: str | None = None


class TitleMatcher:
    def __init__(self, titles: Iterable[str] = ()) -> None:
        self._root = _TitleNode()
        self.size = 0
        for title in titles:
            self.add(title)

    def add(self, title: str) -> bool:
        tokens = [(m.start(), m.end(), m.group().casefold()) for m in _TITLE_WORD.finditer(title)]
        if not tokens or len(tokens) > MAX_TITLE_WORDS:
            return False
        if len(tokens) == 1 and (len(tokens[0][2]) < 3 or is_common(tokens[0][2])):
            return False
        key = normalise_entity(title)
        if not key:
            return False
        gaps = [""] + [_title_gap(title[a[1] : b[0]]) for a, b in itertools.pairwise(tokens)]
        node = self._root
        for gap, (_, _, word) in zip(gaps, tokens, strict=True):
            if gap is None:
                return False  # a title across a blank line is not a title
            node = node.children.setdefault((gap, word), _TitleNode())
        if node.key is None:
            node.key = key
            self.size += 1
        return True

    def find(self, text: str, masked: str | None = None) -> list[tuple[int, int, str]]:
        if self.size == 0:
            return []
        scan = text if masked is None else masked
        tokens = [(m.start(), m.end(), m.group().casefold()) for m in _TITLE_WORD.finditer(scan)]
        found: list[tuple[int, int, str]] = []
        i = 0
        while i < len(tokens):
            node = self._root.children.get(("", tokens[i][2]))
            best, key = -1, ""
            j = i
            while node is not None:
                if node.key is not None:
                    best, key = j, node.key
                if j + 1 == len(tokens) or j - i + 1 == MAX_TITLE_WORDS:
                    break
                gap = _title_gap(scan[tokens[j][1] : tokens[j + 1][0]])
                if gap is None:
                    break
                j += 1
                node = node.children.get((gap, tokens[j][2]))
            if best < 0:
                i += 1
                continue
            start, end = tokens[i][0], tokens[best][1]
            found.append((start, end, key))
            i = best + 1
        return found


def _title_gap(gap: str) -> str | None:
    if BLANK in gap or gap.count("\n") > 1:
        return None
    return "".join(gap.split())


# --- ingest/entities.py, as it was
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


def _mention(text: str, start: int, end: int, kind: MentionKind) -> Mention | None:
    surface = text[start:end]
    key = normalise_entity(surface)
    return Mention(start, end, surface, key, kind) if key else None


def _maybe(text: str, start: int, end: int, kind: MentionKind) -> Iterator[Mention]:
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
