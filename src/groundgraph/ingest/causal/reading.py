"""Reading one sentence's markers into cause → effect pairs, by kind of cue.

- cause-first (``X leads to Y``) and effect-first (``Y because X``): the span left of
  the marker and the span right of it, direction from the cue;
- opening a sentence (``Because X, Y``): X runs to the comma and Y is the clause after;
  with no comma, the noun phrase ends at the clause's verb (``Wegen des Regens | wurde``);
- a connective with nothing before it in its clause (``…, so Y``; ``…; therefore Y``;
  ``Therefore, Y`` at a sentence start; a lone ``this`` or ``which``): its left span is the
  clause before, in the previous sentence if need be;
- verb-final markers (Turkish ``sele yol açtı``; German ``… kann Schmerzen verursachen``):
  the left side is split into its two spans.

A pair whose effect denies itself (``caused no damage``), whose cause is unknown or whose
spans overlap is dropped.
"""

from __future__ import annotations

import re

from groundgraph.ingest.causal.clauses import Barrier, Clauses
from groundgraph.ingest.causal.cues.table import Cue, CueTable, Role
from groundgraph.ingest.causal.markers import Marker, find_markers
from groundgraph.ingest.causal.pair import CausalPair
from groundgraph.ingest.causal.spans import (
    Span,
    is_pointer,
    phrase_end,
    split_object,
    tokens,
    trim,
)

_MAX_LIST_ITEMS = 6
_MAX_ITEM_WORDS = 4
_COMPLEMENTIZERS = frozenset({"that", "dass", "dat", "que", "qu'", "che", "ki"})
_MAX_SUBJECT_WORDS = 8  # a subject set off by a comma, Turkish apostrophes split
_UNKNOWN_AFTER = 3  # words that may stand before "unknown" in a cause


class SentenceReader:
    """The markers and clauses of one sentence, and the pairs they give."""

    def __init__(
        self, text: str, start: int, end: int, tables: list[CueTable], previous: Span | None
    ) -> None:
        self.text, self.start, self.end = text, start, end
        self.previous = previous
        sentence = text[start:end]
        self.question = sentence.rstrip().endswith("?") or sentence.lstrip().startswith("¿")
        self.markers = [] if self.question else find_markers(sentence, start, tables)
        self.clauses = Clauses(text, start, end, tables, self.markers, previous)
        self._last: CausalPair | None = None  # the pair the previous marker gave

    def pairs(self) -> list[CausalPair]:
        found: list[CausalPair] = []
        self._last = None
        for marker in self.markers:
            pair = self._pair(marker)
            if pair is not None:
                found.append(pair)
                self._last = pair
        return found

    def _chained(self, left_from: int) -> Span | None:
        """In a chain ("A because of B, itself caused by C"; "B, causata a sua volta da C";
        "B, die het gevolg was van C"), a pointer right after the comma that closes the
        previous pair's right-hand span stands for that span (B), not for the clause."""
        if self._last is None:
            return None
        later = max(self._last.cause_span, self._last.effect_span)
        between = self.text[later[1] : left_from]
        return None if between.strip(" ,") or "," not in between else later

    def last_clause(self) -> Span | None:
        """The sentence's last clause, for a connective that opens the next sentence."""
        return self.clauses.last_clause()

    def _pair(self, marker: Marker) -> CausalPair | None:
        cue, table, text = marker.cue, marker.table, self.text
        roles: dict[Role, Span] = dict(marker.groups)
        left_from, _ = self.clauses.before(marker.left_end, marker)
        left = trim(text, (left_from, marker.left_end), table, before_marker=True)
        opens = left_from == self.start and is_pointer(text, left, table)
        if cue.lead and opens and not roles:
            return self._lead(marker)
        right_to, barrier = self.clauses.after(marker.right_start, marker)
        if (
            barrier is not None
            and barrier.marker is None
            and not text[marker.right_start : right_to].strip()
        ):
            right_to, _ = self.clauses.after(barrier.end, None)  # "As a result, Y"
        right = trim(text, (marker.right_start, right_to), table)
        if barrier is not None and barrier.marker is None and text[barrier.start] == ",":
            right = self._list_rest(right, barrier, table)
        if cue.split is not None:
            split = self._split(marker, left, left_from)
            if split is None:
                return None
            left, roles[cue.right] = split
        elif cue.right not in roles:
            if right[0] < right[1]:
                cut = phrase_end(text, right, table) if cue.phrase else None
                roles[cue.right] = trim(text, (right[0], cut), table) if cut else right
                light = [text[a:b].lower() for a, b in tokens(text, *right)]
                if cue.left == "cause" and light and set(light) <= table.light:
                    # "X, Y sayesinde mümkün oldu": the effect is the subject before the comma
                    subject = self._subject_before(left_from, table)
                    if subject is None:
                        return None
                    roles[cue.right] = subject
            elif cue.adverb and cue.left not in roles and left[0] < left[1]:
                # "…, and their output dropped as a result.": the adverb closes its clause,
                # which is the right-hand role; the clause before is the left-hand one.
                before = self.clauses.clause_before(left_from, table, cross=True)
                if before is None:
                    return None
                roles[cue.right], roles[cue.left] = left, before
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

    def _list_rest(self, span: Span, comma: Barrier, table: CueTable) -> Span:
        """``span``, cut at ``comma``, with the rest of the list the comma opens: "floods,
        landslides and outages" (the last item joined by a coordinator), "gele, slappe
        bladeren" (a one-word span and a short last item). Items are short and hold no
        known finite verb; the first opens with no conjunction, relative or subject word
        (", and the school closed" and ", the roads closed" are clauses of their own)."""
        text = self.text
        one_word = len(tokens(text, *span)) == 1
        current: Barrier | None = comma
        for position in range(_MAX_LIST_ITEMS):
            if current is None or current.marker is not None or text[current.start] != ",":
                return span
            item_from = current.end
            item_to, current = self.clauses.after(item_from, None)
            item = tokens(text, item_from, item_to)
            lowered = [text[a:b].lower() for a, b in item]
            if not item or table.finite & set(lowered):
                return span
            opener = lowered[0] in table.leading | table.relatives | table.subject
            if position == 0 and opener:
                return span
            joints = [
                i for i, w in enumerate(lowered) if w in table.coordinators and (i or position)
            ]
            parts = [len(lowered)] if not joints else [joints[0], len(lowered) - joints[0] - 1]
            if max(parts) > _MAX_ITEM_WORDS:
                return span
            if joints:  # the last item: "… and road closures"
                return span[0], item[-1][1]
            last = current is None or current.marker is not None or text[current.start] != ","
            if position == 0 and one_word and last and len(item) <= _MAX_ITEM_WORDS - 1:
                return span[0], item[-1][1]
        return span

    def _split(self, marker: Marker, left: Span, left_from: int) -> tuple[Span, Span] | None:
        """A verb-final marker's two spans, both left of it: (left role, right role)."""
        table, text = marker.table, self.text
        assert marker.cue.split is not None
        subject = self._subject_before(left_from, table)
        if subject is not None:  # "Fabrikadaki yangın, … hasara neden oldu"
            if _case_marked(text, subject, marker.cue.split) and not _case_marked(
                text, left, marker.cue.split
            ):  # the case-marked phrase first: "Konserin kesilmesine, … alması neden oldu"
                return left, subject
            return subject, left
        obj = split_object(text, left, table, marker.cue.split)
        if obj is None:
            return None
        words_before = tokens(text, left[0], obj[0])
        for i in range(len(words_before) - 1, 0, -1):  # "bu kayıp da … erozyonuna"
            if text[slice(*words_before[i])].lower() in table.topic:
                obj = trim(text, (words_before[i][1], obj[1]), table)
                break
        return trim(text, (left[0], obj[0]), table, before_marker=True), obj

    def _inverted(self, left_from: int, marker: Marker) -> Span | None:
        """A marker that ends its sentence with nothing after it: the clause before the
        comma is its right-hand role (an afterthought, "I stayed out, having forgotten
        the key"); None when the marker does not end the sentence."""
        if self.text[marker.right_start : self.end].strip(" .!?…\"'”’)"):
            return None
        _, barrier = self.clauses.before(left_from, None)
        if barrier is None or barrier.marker is not None or self.text[barrier.start] != ",":
            return None
        clause_from, _ = self.clauses.before(barrier.start, None)
        clause = trim(self.text, (clause_from, barrier.start), marker.table)
        return clause if clause[0] < clause[1] else None

    def _subject_before(self, left_from: int, table: CueTable) -> Span | None:
        """For a verb-final marker: the sentence's subject when a comma sets it off from
        the rest of the clause ("Fabrikadaki yangın, … neden oldu"), or a topic ended by
        the particle "da"/"de" ("bu kayıp da … yol açtı"); None otherwise."""
        _, barrier = self.clauses.before(left_from, None)
        if barrier is None or barrier.marker is not None or self.text[barrier.start] != ",":
            return None
        clause_from, before = self.clauses.before(barrier.start, None)
        if before is not None or clause_from != self.start:
            return None  # the comma closes a clause of its own, not a subject
        subject = trim(self.text, (clause_from, barrier.start), table)
        if subject[0] >= subject[1] or len(tokens(self.text, *subject)) > _MAX_SUBJECT_WORDS:
            return None
        return subject

    def _left_role(
        self, marker: Marker, roles: dict[Role, Span], left: Span, left_from: int
    ) -> Span | None:
        """The span of the role left of the marker: the words there, or the clause before
        when they only point back ("which", "this") or the marker is a floating adverb."""
        cue, table, text = marker.cue, marker.table, self.text
        if is_pointer(text, left, table):
            chained = self._chained(left_from)
            if chained is not None:
                return chained
            pointed = any(text[a:b].lower() in table.demonstratives for a, b in tokens(text, *left))
            return self.clauses.clause_before(left_from, table, cross=cue.link or pointed)
        if cue.adverb and not _ends_in((left_from, marker.left_end), text, table):
            # "The roads were therefore closed.": the whole clause is the effect.
            roles[cue.right] = trim(text, (left[0], roles[cue.right][1]), table)
            return self.clauses.clause_before(left_from, table, cross=True)
        return left

    def _lead(self, marker: Marker) -> CausalPair | None:
        """``Because X, Y``: the right-hand role up to the comma, the left-hand one after."""
        cue, table, text = marker.cue, marker.table, self.text
        first_to, barrier = self.clauses.after(marker.right_start, marker)
        first = trim(text, (marker.right_start, first_to), table)
        if barrier is not None and barrier.marker is None and text[barrier.start] == ",":
            listed = self._list_rest(first, barrier, table)
            after_list = self.clauses.after(listed[1], marker)[1]
            if listed != first and after_list is not None and text[after_list.start] == ",":
                first, barrier = listed, after_list  # "Because of rain, wind and hail, Y"
        second: Span | None = None
        if cue.phrase and table.verb_second and barrier is not None and barrier.marker is None:
            # "Wegen Regen, Wind und Hagel wurde …": the list's last item runs to the verb
            rest_to, _ = self.clauses.after(barrier.end, None)
            rest = trim(text, (barrier.end, rest_to), table)
            verb = phrase_end(text, rest, table)
            items = [text[a:b].lower() for a, b in tokens(text, rest[0], verb or rest[0])]
            if verb is not None and table.coordinators & set(items[1:]) and len(items) <= 6:
                first = trim(text, (first[0], verb), table)
                return self._build({cue.right: first, cue.left: (verb, rest[1])}, cue, table)
        cut = phrase_end(text, first, table) if cue.phrase and table.verb_second else None
        if cut is None and barrier is not None and barrier.marker is None:
            second_to, after = self.clauses.after(barrier.end, None)
            second = trim(text, (barrier.end, second_to), table)
            opener = tokens(text, *second)[:1]
            if (
                opener
                and text[slice(*opener[0])].lower() in table.relatives
                and after is not None
                and after.marker is None
                and text[after.start] == ","
            ):  # "Because of the rain, which fell for days, the match …": skip the relative
                second_to, _ = self.clauses.after(after.end, None)
                second = trim(text, (after.end, second_to), table)
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

    def _build(self, roles: dict[Role, Span], cue: Cue, table: CueTable) -> CausalPair | None:
        cause, effect = roles.get("cause"), roles.get("effect")
        if cause is None or effect is None or cause[0] >= cause[1] or effect[0] >= effect[1]:
            return None
        if cause[0] < effect[1] and effect[0] < cause[1]:
            return None
        effect_words = [self.text[a:b].lower() for a, b in tokens(self.text, *effect)]
        denied = bool(effect_words) and effect_words[0] in table.denials
        # "meant that none … could land": a clause whose subject is "none" denies nothing
        marker_end = self.text[: effect[0]].rstrip().rsplit(None, 1)[-1:]
        clause = bool(table.finite & set(effect_words)) or (
            bool(marker_end) and marker_end[0].lower() in _COMPLEMENTIZERS
        )
        if denied and cue.left == "cause" and not clause:
            return None  # "caused no damage", not "Owing to X, no trains ran"
        cause_text, effect_text = self.text[slice(*cause)], self.text[slice(*effect)]
        if table.unknown is not None and any(
            table.unknown.search(self.text[a : cause[1]])
            for a, _ in tokens(self.text, *cause)[: _UNKNOWN_AFTER + 1]
        ):  # "is still unknown", "ist laut Polizei noch unklar"
            return None
        return CausalPair(cause_text, effect_text, cause, effect, cue.name, table.language)


def _split_at_verb(text: str, span: Span, table: CueTable) -> tuple[Span, Span] | None:
    """``Bewegung kann Schmerzen verursachen``: the two spans around the last finite verb."""
    words_in = tokens(text, *span)
    for i in range(len(words_in) - 2, 0, -1):
        a, b = words_in[i]
        if text[a:b].lower() in table.finite:
            before = trim(text, (span[0], a), table)
            return before, trim(text, (b, span[1]), table)
    return None


def _case_marked(text: str, span: Span, case: re.Pattern[str]) -> bool:
    """Whether the last word of ``span`` carries the case ending ``case`` matches."""
    words_in = tokens(text, *span)
    return bool(words_in) and case.fullmatch(text[slice(*words_in[-1])]) is not None


def _ends_in(span: Span, text: str, table: CueTable) -> bool:
    """True if ``span`` ends with a conjunction: "X and therefore Y"."""
    words_in = tokens(text, *span)
    return bool(words_in) and text[slice(*words_in[-1])].lower() in table.leading
