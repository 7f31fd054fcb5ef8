"""Model-free causal extraction: cue markers give the direction, clauses bound the spans.

``extract_causal`` reads a text sentence by sentence with the cue tables of its language
(``causal.language``). In a sentence, markers are found left to right; where two overlap
the earlier one wins, and at the same place the longer one (``because of`` over
``because``). A marker's left and right spans run to the nearest clause boundary (``,``
``;`` ``:`` dashes, brackets, ``but``-words) or the next marker, so ``X caused Y, which
led to Z`` gives X→Y and Y→Z. Then, by kind of marker:

- cause-first (``X leads to Y``) and effect-first (``Y because X``): left span and right
  span, direction from the cue;
- opening a sentence (``Because X, Y``): X runs to the comma and Y is the clause after;
  with no comma, the noun phrase ends at the clause's verb (``Wegen des Regens | wurde``);
- a connective with nothing before it in its clause (``…, so Y``; ``…; therefore Y``;
  ``Therefore, Y`` at a sentence start; a lone ``this`` or ``which``): its left span is the
  clause before, in the previous sentence if need be (that sentence's last effect, if
  it had one, else its last clause);
- verb-final markers (Turkish ``sele yol açtı``; German ``… kann Schmerzen verursachen``):
  the left side is split into its two spans.

A marker right after a negator (``did not cause``), in a question, with an effect that
denies itself (``caused no damage``) or a cause that is unknown (``the cause of X is
unknown``) gives no pair. Sentences longer than ``MAX_SENTENCE_CHARS`` are not read.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.ingest.causal.cues.table import BOUNDARY, Cue, CueTable, Role
from groundgraph.ingest.causal.language import TABLES, guess_language, tables_for
from groundgraph.ingest.causal.pair import CausalPair
from groundgraph.ingest.causal.spans import (
    Span,
    is_pointer,
    phrase_end,
    split_object,
    tokens,
    trim,
)
from groundgraph.text import sentence_spans

#: Longest text extract_causal reads, in characters.
MAX_TEXT_CHARS = 200_000
#: Longer "sentences" (tables, logs, text without punctuation) are skipped.
MAX_SENTENCE_CHARS = 3_000
_NOT = re.compile(r"n['’]t\s*$", re.IGNORECASE)
_LAST_WORD = re.compile(r"(\w+)\W*$")
_STEPS_BACK = 4
_ROLES: tuple[Role, ...] = ("cause", "effect")


def extract_causal(text: str, language: str | None = None) -> list[CausalPair]:
    """The cause → effect pairs that cue words in ``text`` state (module docstring).

    ``language``: an ISO 639-1 code from ``language_codes()``; None guesses it per
    sentence from function words, falling back on the whole text's guess, else all tables.
    """
    if not isinstance(text, str):
        raise InputError(f"text must be a string, not {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise InputTooLargeError(
            "the text", len(text), MAX_TEXT_CHARS, "extract from each section or paragraph"
        )
    if language is not None and language not in TABLES:
        known = ", ".join(TABLES)
        raise InputError(f"unknown language {language!r}; choose one of: {known}, or None")
    fallback = None if language else guess_language(text)
    pairs: dict[tuple[Span, Span], CausalPair] = {}
    previous: Span | None = None
    for start, end in sentence_spans(text):
        if end - start > MAX_SENTENCE_CHARS:
            previous = None
            continue
        sentence = text[start:end]
        tables = [TABLES[language]] if language else tables_for(sentence, fallback)
        reader = _Sentence(text, start, end, tables, previous)
        found = reader.pairs()
        for pair in found:
            pairs.setdefault((pair.cause_span, pair.effect_span), pair)
        previous = found[-1].effect_span if found else reader.last_clause()
        if reader.question:
            previous = None  # "Why? Because …" has no effect span to point back to
    return list(pairs.values())


@dataclass(frozen=True)
class _Marker:
    start: int
    end: int
    left_end: int  # where the left span stops (the marker proper may start later)
    right_start: int
    cue: Cue
    table: CueTable
    groups: tuple[tuple[Role, Span], ...]


@dataclass(frozen=True)
class _Barrier:
    start: int
    end: int
    marker: _Marker | None  # None for punctuation and "but"-words


class _Sentence:
    """The markers and clause barriers of one sentence, and the pairs they give."""

    def __init__(
        self, text: str, start: int, end: int, tables: list[CueTable], previous: Span | None
    ) -> None:
        self.text, self.start, self.end = text, start, end
        self.tables = tables
        self.previous = previous
        sentence = text[start:end]
        self.question = sentence.rstrip().endswith("?") or sentence.lstrip().startswith("¿")
        self.markers = [] if self.question else self._markers(sentence)
        self.barriers = self._barriers(sentence)
        self._ends = [b.end for b in self.barriers]
        self._starts = [b.start for b in self.barriers]

    def pairs(self) -> list[CausalPair]:
        found = []
        for marker in self.markers:
            pair = self._pair(marker)
            if pair is not None:
                found.append(pair)
        return found

    def last_clause(self) -> Span | None:
        """The sentence's last clause, for a connective that opens the next sentence."""
        table = self.tables[0]
        cut = max((b.end for b in self.barriers if b.marker is None), default=self.start)
        clause = trim(self.text, (cut, self.end), table)
        if clause[0] >= clause[1]:
            clause = trim(self.text, (self.start, self.end), table)
        return clause if clause[0] < clause[1] else None

    # Finding markers and barriers.

    def _markers(self, sentence: str) -> list[_Marker]:
        found: list[tuple[int, int, int, _Marker]] = []
        order = 0
        for table in self.tables:
            for cue in table.cues:
                order += 1
                for match in cue.pattern.finditer(sentence):
                    if match.end() > match.start() and not _rejected(match, cue, table):
                        marker = _marker(match, cue, table, self.start)
                        found.append((marker.start, -(marker.end - marker.start), order, marker))
        # An opening participle ("Exhausted after the shift, …") yields to any other marker
        # inside its phrase: "Prolonged drought resulted in …" opens with an adjective.
        found = [
            item
            for item in found
            if item[3].cue.name != "participle"
            or not any(
                other[3].cue.name != "participle" and item[3].start <= other[3].start < item[3].end
                for other in found
            )
        ]
        found.sort(key=lambda item: item[:3])
        kept: list[_Marker] = []
        for _, _, _, marker in found:
            if not kept or marker.start >= kept[-1].end:
                kept.append(marker)
        return kept

    def _barriers(self, sentence: str) -> list[_Barrier]:
        # A linking adverb floats inside its clause ("was therefore cancelled"): it bounds
        # no other marker's span.
        barriers = [_Barrier(m.start, m.end, m) for m in self.markers if not m.cue.adverb]
        breakers = _breakers(tuple(table.language for table in self.tables))
        for pattern in (BOUNDARY, breakers):
            for match in pattern.finditer(sentence):
                a, b = self.start + match.start(), self.start + match.end()
                if a < b and not any(m.start < b and a < m.end for m in self.markers):
                    barriers.append(_Barrier(a, b, None))
        return sorted(barriers, key=lambda b: (b.start, b.end))

    def _before(self, pos: int, skip: _Marker | None) -> tuple[int, _Barrier | None]:
        """The end of the nearest barrier that ends at or before ``pos``, and that barrier."""
        i = bisect.bisect_right(self._ends, pos)
        while i > 0:
            i -= 1
            candidate = self.barriers[i]
            if skip is None or candidate.marker is not skip:
                return candidate.end, candidate
        return self.start, None

    def _after(self, pos: int, skip: _Marker | None) -> tuple[int, _Barrier | None]:
        """The start of the nearest barrier that starts at or after ``pos``, and that barrier."""
        for i in range(bisect.bisect_left(self._starts, pos), len(self.barriers)):
            candidate = self.barriers[i]
            if skip is None or candidate.marker is not skip:
                return candidate.start, candidate
        return self.end, None

    # Reading one marker.

    def _pair(self, marker: _Marker) -> CausalPair | None:
        cue, table, text = marker.cue, marker.table, self.text
        roles: dict[Role, Span] = dict(marker.groups)
        left_from, _ = self._before(marker.left_end, marker)
        left = trim(text, (left_from, marker.left_end), table, before_marker=True)
        opens = left_from == self.start and is_pointer(text, left, table)
        if cue.lead and opens and not roles:
            return self._lead(marker)
        right_to, barrier = self._after(marker.right_start, marker)
        if (
            barrier is not None
            and barrier.marker is None
            and not text[marker.right_start : right_to].strip()
        ):
            right_to, _ = self._after(barrier.end, None)  # "As a result, Y"
        right = trim(text, (marker.right_start, right_to), table)
        if cue.split is not None:
            subject = self._subject_before(left_from, table)
            if subject is not None:  # "Fabrikadaki yangın, … hasara neden oldu"
                roles[cue.right] = left
                left = subject
            else:
                obj = split_object(text, left, table, cue.split)
                if obj is None:
                    return None
                words_before = tokens(text, left[0], obj[0])
                for i in range(len(words_before) - 1, 0, -1):  # "bu kayıp da … erozyonuna"
                    if text[slice(*words_before[i])].lower() in table.topic:
                        obj = (words_before[i][1], obj[1])
                        obj = trim(text, obj, table)
                        break
                roles[cue.right] = obj
                left = trim(text, (left[0], obj[0]), table, before_marker=True)
        elif cue.right not in roles:
            if right[0] < right[1]:
                cut = phrase_end(text, right, table) if cue.phrase else None
                roles[cue.right] = trim(text, (right[0], cut), table) if cut else right
            elif table.verb_second and cue.left not in roles:
                halves = _split_at_verb(text, left, table)
                if halves is None:
                    return None
                left, roles[cue.right] = halves
            elif (inverted := self._inverted(left_from, marker)) is not None:
                roles[cue.right] = inverted  # "Dışarıda kaldım, anahtarı unuttuğum için."
            else:
                return None
        if cue.left not in roles:
            found = self._left_role(marker, roles, left, left_from)
            if found is None:
                return None
            roles[cue.left] = found
        return self._build(roles, cue, table)

    def _inverted(self, left_from: int, marker: _Marker) -> Span | None:
        """A marker that ends its sentence with nothing after it: the clause before the
        comma is its right-hand role (an afterthought, "I stayed out, having forgotten
        the key"); None when the marker does not end the sentence."""
        if self.text[marker.right_start : self.end].strip(" .!?…\"'”’)"):
            return None
        _, barrier = self._before(left_from, None)
        if barrier is None or barrier.marker is not None or self.text[barrier.start] != ",":
            return None
        clause_from, _ = self._before(barrier.start, None)
        clause = trim(self.text, (clause_from, barrier.start), marker.table)
        return clause if clause[0] < clause[1] else None

    def _subject_before(self, left_from: int, table: CueTable) -> Span | None:
        """For a verb-final marker: the sentence's subject when a comma sets it off from
        the rest of the clause ("Fabrikadaki yangın, … neden oldu"), or a topic ended by
        the particle "da"/"de" ("bu kayıp da … yol açtı"); None otherwise."""
        _, barrier = self._before(left_from, None)
        if barrier is None or barrier.marker is not None or self.text[barrier.start] != ",":
            return None
        clause_from, before = self._before(barrier.start, None)
        if before is not None or clause_from != self.start:
            return None  # the comma closes a clause of its own, not a subject
        subject = trim(self.text, (clause_from, barrier.start), table)
        if subject[0] >= subject[1] or len(tokens(self.text, *subject)) > 6:
            return None
        return subject

    def _left_role(
        self, marker: _Marker, roles: dict[Role, Span], left: Span, left_from: int
    ) -> Span | None:
        """The span of the role left of the marker: the words there, or the clause before
        when they only point back ("which", "this") or the marker is a floating adverb."""
        cue, table, text = marker.cue, marker.table, self.text
        if is_pointer(text, left, table):
            pointed = any(text[a:b].lower() in table.demonstratives for a, b in tokens(text, *left))
            return self._clause_before(left_from, table, cross=cue.link or pointed)
        if cue.adverb and not _ends_in((left_from, marker.left_end), text, table):
            # "The roads were therefore closed.": the whole clause is the effect.
            roles[cue.right] = trim(text, (left[0], roles[cue.right][1]), table)
            return self._clause_before(left_from, table, cross=True)
        return left

    def _lead(self, marker: _Marker) -> CausalPair | None:
        """``Because X, Y``: the right-hand role up to the comma, the left-hand one after."""
        cue, table, text = marker.cue, marker.table, self.text
        first_to, barrier = self._after(marker.right_start, marker)
        first = trim(text, (marker.right_start, first_to), table)
        second: Span | None = None
        cut = phrase_end(text, first, table) if cue.phrase and table.verb_second else None
        if cut is None and barrier is not None and barrier.marker is None:
            second_to, _ = self._after(barrier.end, None)
            second = trim(text, (barrier.end, second_to), table)
        else:
            cut = cut or phrase_end(text, first, table)
            if cut is not None:
                first, second = (
                    trim(text, (first[0], cut), table),
                    trim(text, (cut, first[1]), table),
                )
            else:
                second = self.previous  # "It was cancelled. Because it rained."
        if second is None:
            return None
        if is_pointer(text, first, table):  # "Because of this, Y"
            if self.previous is None:
                return None
            first = self.previous
        return self._build({cue.right: first, cue.left: second}, cue, table)

    def _clause_before(self, pos: int, table: CueTable, cross: bool) -> Span | None:
        """The clause before position ``pos`` (relative clauses skipped); at the sentence's
        start, the previous sentence's span if ``cross``."""
        cursor = pos
        for _ in range(_STEPS_BACK):
            if cursor <= self.start:
                return self.previous if cross else None
            _, barrier = self._before(cursor, None)
            if barrier is None:
                return self.previous if cross else None
            clause_from, _ = self._before(barrier.start, None)
            clause = trim(self.text, (clause_from, barrier.start), table)
            first = tokens(self.text, *clause)[:1]
            relative = bool(first) and (
                self.text[slice(*first[0])].lower() in table.relatives - table.articles
            )
            aside = table.in_turn is not None and table.in_turn.fullmatch(
                self.text[slice(*clause)].strip(" ,")
            )  # ", por sua vez, ": an aside, not the clause
            if not relative and not aside and not is_pointer(self.text, clause, table):
                return clause
            cursor = clause_from
        return None

    def _build(self, roles: dict[Role, Span], cue: Cue, table: CueTable) -> CausalPair | None:
        cause, effect = roles.get("cause"), roles.get("effect")
        if cause is None or effect is None or cause[0] >= cause[1] or effect[0] >= effect[1]:
            return None
        if cause[0] < effect[1] and effect[0] < cause[1]:
            return None
        first = tokens(self.text, *effect)[:1]
        denied = first and self.text[slice(*first[0])].lower() in table.denials
        if denied and cue.left == "cause":  # "caused no damage", not "Owing to X, no trains ran"
            return None
        cause_text, effect_text = self.text[slice(*cause)], self.text[slice(*effect)]
        if table.unknown is not None and table.unknown.search(cause_text):
            return None
        return CausalPair(cause_text, effect_text, cause, effect, cue.name, table.language)


def _marker(match: re.Match[str], cue: Cue, table: CueTable, offset: int) -> _Marker:
    names = cue.pattern.groupindex
    has_cue = "cue" in names and match.group("cue") is not None
    groups = tuple(
        (role, (offset + match.start(role), offset + match.end(role)))
        for role in _ROLES
        if role in names and match.group(role) is not None
    )
    return _Marker(
        start=offset + match.start(),
        end=offset + match.end(),
        left_end=offset + (match.start("cue") if has_cue else match.start()),
        right_start=offset + match.end(),
        cue=cue,
        table=table,
        groups=groups,
    )


def _rejected(match: re.Match[str], cue: Cue, table: CueTable) -> bool:
    sentence = match.string
    before = sentence[: match.start()]
    last = _LAST_WORD.search(before)
    word = last.group(1).lower() if last else ""
    if word in cue.not_before:
        return True
    # "did not cause", "not because": a negator right before the marker denies it; but in
    # verb-second languages "nicht"/"niet" stands before any adverbial ("reed niet vanwege
    # een storing": did not run, because of a fault), so there only cause-first verbs count.
    denies = cue.left == "cause" or not table.verb_second
    if before.rstrip().endswith(","):
        denies = False  # "vertrug es nicht, weshalb …": the negator is the clause before's
    if denies and (word in table.negators or _NOT.search(before)):
        return True
    group_starts = [match.start(g) for g in ("cause", "effect") if g in cue.pattern.groupindex]
    head = sentence[match.start() : min([s for s in group_starts if s >= 0] or [match.end()])]
    if any(w.lower() in table.negators for w in re.findall(r"\w+", head)):
        return True
    return cue.reject is not None and cue.reject.search(sentence) is not None


def _split_at_verb(text: str, span: Span, table: CueTable) -> tuple[Span, Span] | None:
    """``Bewegung kann Schmerzen verursachen``: the two spans around the last finite verb."""
    words_in = tokens(text, *span)
    for i in range(len(words_in) - 2, 0, -1):
        a, b = words_in[i]
        if text[a:b].lower() in table.finite:
            before = trim(text, (span[0], a), table)
            return before, trim(text, (b, span[1]), table)
    return None


def _ends_in(span: Span, text: str, table: CueTable) -> bool:
    """True if ``span`` ends with a conjunction: "X and therefore Y"."""
    words_in = tokens(text, *span)
    return bool(words_in) and text[slice(*words_in[-1])].lower() in table.leading


@functools.cache
def _breakers(languages: tuple[str, ...]) -> re.Pattern[str]:
    found = sorted({w for code in languages for w in TABLES[code].breakers})
    if not found:
        return re.compile(r"(?!x)x")  # matches nothing
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, found))})(?!\w)", re.IGNORECASE)
