"""Changes a new fact announces, read from how it is said: what changed, from what, to what.

Ordinary memory updates rarely restate the old fact's attribute ("I report to Gabriela"
→ "After the reorg my manager is Dev"); they announce a change. ``change_conflict(new,
old)`` reads the new fact for one of these shapes and retires the old fact only when the
thing that changed is what the old fact is about:

- **ended**: "X cancelled / called off / withdrew from / dropped / ditched / left /
  stepped down as / decommissioned T", "T was cancelled", "T churned": at least half the
  words of T are in the old fact ("cancelled the Osaka hotel" leaves "the trip to Kyoto");
- **moved**: a past change verb (moved, switched, migrated, transferred, upgraded, raised,
  cut, pushed back, rebooked, promoted, took over, handed … over …) with a theme and a
  destination: the theme is in the old fact and the destination is not, and a typed
  destination (a date, a number with a unit) differs from the old fact's;
- **instead**: "… instead of X" where X and something else of the new fact are in the old;
- **no longer**: "… anymore / no longer / no more …": every word of that clause is in the
  old fact ("Rachel isn't Yusuf's manager anymore");
- **holder**: under a mark of the present ("now", "going forward", "from now on",
  "instead"), "Y is the <thing> now" where the thing is in the old fact and Y is a new
  name; "Y took over <thing>";
- **value**: under such a mark, a date or a number with a unit of the same kind as the old
  fact's and different, about something both mention ("From next week we meet on
  Thursdays" against "The team meeting is every Monday"), or the same slot filled by
  another name ("our Porto office" against "the Lisbon office").

Never: a plan, wish or hedge ("thinking about selling", "will probably", "trialling"), an
addition ("also", "added", "kept"), a habit in the present tense ("switches to decaf after
3pm", "drops to 17°C at night"), a one-off ("this Monday's meeting moves"), an old fact
that is already history ("used to").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from groundgraph.memory.conflicts.anchors import (
    ANALYZER,
    JOINERS,
    LIGHT,
    SPEAKER,
    about,
    key,
    mostly_in,
    slot_names,
    terms,
    typed_difference,
)
from groundgraph.memory.conflicts.negation import is_negated
from groundgraph.memory.conflicts.values import date_parts
from groundgraph.text import sentences

_MAX_TEXT = 1_000  # characters of each fact that are read for changes (facts are short)
_MAX_CLAUSE = 300
# ---- what blocks a change --------------------------------------------------------------

_HEDGE = re.compile(
    r"\b(?:thinking (?:about|of)|considering|consider|hoping|hopes? to|(?:plans|planning) to"
    r"|might|could|would|probably|possibly|possible|maybe|perhaps|trialling|trialing"
    r"|piloting|evaluating|testing|offered|offers|proposed|suggested|wants? to|wish"
    r"|if|unless|whether|should|likely)\b",
    re.IGNORECASE,
)
_KEPT = re.compile(r"\b(?:kept|keep|keeps|keeping)\b", re.IGNORECASE)
_PAST_STATE = re.compile(r"\b(?:used to|formerly|previously|once was)\b", re.IGNORECASE)
_ONE_OFF = re.compile(
    r"\b(?:this|next|tomorrow's|today's)\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day)['’]s\b"
    r"|\bjust (?:this|once)\b|\bfor once\b|\bone[- ]off\b|\bthis time\b",
    re.IGNORECASE,
)

# ---- the shapes of a change -------------------------------------------------------------

_END = (
    r"cancel(?:l)?ed|called off|call off|withdrew from|withdrawn from|dropped out of"
    r"|pulled out of|dropped|ditched|quit|left|stepped down (?:as|from)|stepped back from"
    r"|rotated off|decommissioned|scrapped|shut down|ended|terminated|ripped out|removed"
    r"|got rid of|gave up|stopped|sold|retired|discontinued"
)
_ENDED = re.compile(rf"\b(?:{_END})\s+(?P<theme>.+)", re.IGNORECASE)
_PULLED = re.compile(r"\bpulled\s+.{1,60}?\s+out of\s+(?P<theme>.+)", re.IGNORECASE)
_ENDED_PASSIVE = re.compile(
    r"^(?P<theme>.+?)\s+(?:was|were|has been|have been|got|is|are)\s+(?:now\s+|just\s+"
    r"|officially\s+|finally\s+)?(?:cancel(?:l)?ed|called off|decommissioned|scrapped"
    r"|shut down|terminated|dropped|removed|retired|discontinued)\b",
    re.IGNORECASE,
)
_ENDED_ALONE = re.compile(
    r"^(?P<theme>[^,]+?)\s+(?:has\s+|have\s+)?(?:churned|folded|closed down|shut down)\b",
    re.IGNORECASE,
)
_CHANGE_VERB = (
    r"moved|relocated|transferred|migrated|switched|changed|upgraded|downgraded|bumped"
    r"|raised|increased|decreased|reduced|lowered|cut|turned|pushed|postponed|rescheduled"
    r"|re-scheduled|rebooked|delayed|slipped|brought|ported|replaced|swapped|traded in"
    r"|promoted|reassigned|extended|shortened|renamed|converted|shifted|upped|handed"
    r"|(?:is|are|was|were|'s)\s+(?:now\s+)?(?:down|up|back)"
)
_PARTICLE = r"(?:\s+(?:back|forward|out|over|up|down))?"
_INTO = r"(?:to|into|onto|over to|with|for|until|till)"
_MOVED_OBJECT = re.compile(
    rf"\b(?:{_CHANGE_VERB})\s+(?P<theme>(?!(?:{_INTO}|back|forward|out|over|up|down)\b).+?){_PARTICLE}\s+{_INTO}\s+(?P<dest>.+)",
    re.IGNORECASE,
)
_MOVED_SUBJECT = re.compile(
    rf"^(?P<theme>.+?)\s+(?:(?:has|have|had)\s+)?(?:been\s+|was\s+|were\s+|got\s+)?"
    rf"(?:now\s+|just\s+|finally\s+|officially\s+)?(?:{_CHANGE_VERB}){_PARTICLE}\s+{_INTO}"
    r"\s+(?P<dest>.+)",
    re.IGNORECASE,
)
_CHANGED_ALONE = re.compile(
    r"^(?P<theme>.+?)\s+(?:has\s+|have\s+)?(?:been\s+)?(?:changed|moved|switched|updated)$",
    re.IGNORECASE,
)
_TOOK_OVER = re.compile(
    r"^(?P<holder>.+?)\s+(?:took|takes|has taken|have taken|is taking)\s+over\s+(?:as\s+)?"
    r"(?P<theme>.+)",
    re.IGNORECASE,
)
_INSTEAD_OF = re.compile(r"\binstead of\s+(?P<old>.+)", re.IGNORECASE)
_NEGATIVE_FOR = re.compile(r"\bnegative for\s+(?P<old>.+)", re.IGNORECASE)
_NO_LONGER = re.compile(r"\b(?:any ?more|no longer|no more|not any longer)\b", re.IGNORECASE)
_NEGATORS = re.compile(
    r"\b(?:any ?more|no longer|no more|not any longer|not|isn['’]t|aren['’]t|doesn['’]t"
    r"|don['’]t|won['’]t|wasn['’]t|so|for me)\b",
    re.IGNORECASE,
)
_NOW = re.compile(
    r"\b(?:now|from now on|going forward|these days|from next \w+|starting (?:next|this|on|in|from)"
    r"|as of|effective|instead|since \w+|any ?more|no longer)\b|^new\b",
    re.IGNORECASE,
)
_COPULA = re.compile(
    r"^(?P<a>.+?)\s+(?:is|are|'s|’s)\s+(?:now\s+)?(?P<b>.+?)(?:\s+now)?$", re.IGNORECASE
)
_TITLE = re.compile(
    r"^(?P<s>.+?)\s+(?:is|are|works as|serves as|is serving as)\s+(?:a|an|the|our|my|his"
    r"|her|their)\s+",
    re.IGNORECASE,
)
_ROLE_DEST = re.compile(
    r"\b(?:role|position|job|title|engineer|manager|director|lead|analyst|designer"
    r"|developer|owner|officer|head|chief)\b",
    re.IGNORECASE,
)
_PLACE_OLD = re.compile(
    r"\b(?:in|at|out of|from|near|based|lives?|located)\s+(?:the\s+)?(?-i:[A-Z])", re.IGNORECASE
)
# where a theme or a destination ends: a clause boundary, a reason, a time phrase
_STOP = re.compile(
    r"[,;()]|:\s|\s(?:and|but|so|because|since|after|before|while|when|with|for|due|in|on|at"
    r"|by|from|to|over|last|this|next|yesterday|today|as of|starting|until|once|which|who)\s",
    re.IGNORECASE,
)
_DEST_STOP = re.compile(
    r"[,;()]|:\s|\s(?:and|but|so|because|since|after|before|while|when|for|due|to save|as of"
    r"|starting|which|who|last|yesterday|today|once|instead)\s",
    re.IGNORECASE,
)
_CLAUSES = re.compile(r"\s*;\s*|:\s+|,?\s+(?:and|but|so|while|whereas)\s+|,\s+")
_ALSO = re.compile(
    r"\b(?:also|as well|in addition|additionally|another|a second|added|adding|adds)\b"
    r"|\btoo[.!]?$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Change:
    """What a change says: the rule family, the thing that changed, its old and new value."""

    kind: str  # "ended", "moved", "instead", "no-longer", "holder", "value"
    detail: str


def _head(text: str, stop: re.Pattern[str] = _STOP, limit: int = 8) -> str:
    """``text`` up to its first boundary, at most ``limit`` words."""
    cut = stop.search(" " + text + " ")
    part = text[: max(cut.start() - 1, 0)] if cut else text
    return " ".join(part.split()[:limit]).strip(" .!?\"'")


def _kind_matches(dest: str, old: str) -> bool:
    """The old fact has a value of the destination's kind (date, number, role, place)."""
    if typed_difference(dest, old) in ("date", "number"):
        return True
    if date_parts(dest):
        return False  # a date the old fact does not have
    if _ROLE_DEST.search(dest):
        return _TITLE.match(old) is not None
    if re.search(r"(?:^|\s)(?:the\s+|our\s+)?[A-Z]", dest):
        return _PLACE_OLD.search(old) is not None
    return False


_DOWN_TO = re.compile(r"(\w)['’]s\s+((?:now\s+)?(?:down|up|back)\s+to)\b")


def _clauses(text: str) -> list[str]:
    out: list[str] = []
    for sentence in sentences(_DOWN_TO.sub(r"\1 is \2", text[:_MAX_TEXT])):
        out.extend(c.strip(" .!?") for c in _CLAUSES.split(sentence) if c.strip(" .!?"))
    return [c for c in out if len(c) <= _MAX_CLAUSE]


# ---- the rules -------------------------------------------------------------------------


def _ended(clause: str, old_terms: frozenset[str]) -> Change | None:
    for pattern in (_PULLED, _ENDED, _ENDED_PASSIVE, _ENDED_ALONE):
        m = pattern.search(clause)
        if m is None or _CAUSAL.search(clause) or _a_modifier(clause, m.start()):
            continue
        theme = _head(m["theme"])
        if mostly_in(terms(theme), old_terms) and about(theme, old_terms):
            return Change("ended", f"{theme!r} ended")
    return None


_PASSIVE = re.compile(r"\b(?:was|were|been|got)\s+(?:\w+\s+)?\w+ed\b", re.IGNORECASE)


def _a_person(subject: str) -> bool:
    """A speaker or one to three capitalised words with no digit: whose attribute moved
    is not said, so the old fact must hold a value of the destination's kind."""
    parts = subject.split()
    if subject.lower() in SPEAKER or not 0 < len(parts) <= 3:
        return subject.lower() in SPEAKER
    return all(p[:1].isupper() and not any(ch.isdigit() for ch in p) for p in parts) and (
        parts[0].lower() not in ("the", "our", "my", "this")
    )


_CAUSAL = re.compile(
    r"\b(?:causes?|caused|leads? to|led to|results? in|resulted in|triggers?|contributes? to)\b",
    re.IGNORECASE,
)
_MODIFIER_BEFORE = frozenset(
    ["a", "an", "the", "cause", "causes", "caused", "of", "with", "by", "from", "in", "for"]
)


def _a_modifier(clause: str, start: int) -> bool:
    """True when the change word at ``start`` describes a noun ("cause reduced blood
    flow", "a raised bed") instead of reporting a change."""
    before = clause[:start].split()[-1:]
    return bool(before) and before[0].lower() in _MODIFIER_BEFORE


def _moved(clause: str, sentence: str, old: str, old_terms: frozenset[str]) -> Change | None:
    if _CAUSAL.search(clause):
        return None  # "Reduced blood flow leads to ...": a cause, not a change
    for pattern, on_object in ((_MOVED_OBJECT, True), (_MOVED_SUBJECT, False)):
        m = pattern.search(clause)
        if m is None or (on_object and _a_modifier(clause, m.start())):
            continue
        if not on_object and (_PASSIVE.search(m[0]) or not _a_person(m["theme"])):
            on_object = True  # "Mobile was moved into …", "Release 2.0 slipped to …"
        theme, dest = _head(m["theme"]), _head(m["dest"], _DEST_STOP)
        dest_terms = terms(dest)
        if not dest_terms or dest_terms <= old_terms:
            continue  # nothing new: "moved to Leeds" against "lives in Leeds"
        typed = typed_difference(dest, old)
        if typed == "same":
            continue
        anchored = on_object and about(theme, old_terms)
        if on_object and not anchored and terms(theme) - LIGHT:
            continue  # "moved its headquarters to …" says nothing about "a shop in Delft"
        if not anchored:
            rest = terms(sentence) - dest_terms
            if not ((rest | dest_terms) & old_terms - LIGHT and _kind_matches(dest, old)):
                continue
        return Change("moved", f"{theme!r} changed to {dest!r}")
    m = _CHANGED_ALONE.match(clause)
    if m is not None and mostly_in(terms(m["theme"]), old_terms):
        return Change("moved", f"{_head(m['theme'])!r} changed")
    return None


def _instead(clause: str, new: str, old_terms: frozenset[str]) -> Change | None:
    for pattern in (_INSTEAD_OF, _NEGATIVE_FOR):
        m = pattern.search(clause)
        if m is None:
            continue
        replaced = _head(m["old"])
        named = terms(replaced)
        if named and named <= old_terms and (terms(new) - named) & old_terms:
            return Change("instead", f"no longer {replaced!r}")
    return None


_FINITE = re.compile(
    r"\b(?:is|are|was|were|have|has|had|do|does|did|can|will|shall|must|need|needs)\b", re.I
)
_NO_THING = re.compile(r"^no\s+(?!one\b|longer\b|more\b|body\b|way\b|idea\b)(?P<theme>.+)", re.I)


def _no_longer(clause: str, old_terms: frozenset[str]) -> Change | None:
    m = _NO_THING.match(clause)  # "No team lunch this Friday": a notice with no verb
    theme = _head(m["theme"]) if m is not None else ""
    if (
        m
        and not _FINITE.search(clause)
        and mostly_in(terms(theme), old_terms)
        and about(theme, old_terms)
    ):
        return Change("ended", f"no {_head(m['theme'])!r}")
    if _NO_LONGER.search(clause) is None:
        return None
    said = terms(_NEGATORS.sub(" ", clause))
    if said and said <= old_terms:
        return Change("no-longer", f"no longer {clause!r}")
    return None


def _names(text: str) -> set[str]:
    return {w.strip(".,;:!?'’()").lower() for w in text.split()[1:] if w[:1].isupper()}


def _took_over(clause: str, old_terms: frozenset[str]) -> Change | None:
    m = _TOOK_OVER.match(clause)
    if m is not None:
        holder, theme = _head(m["holder"], limit=4), _head(m["theme"])
        if about(theme, old_terms) and not terms(holder) & old_terms:
            return Change("holder", f"{theme!r} is now {holder!r}'s")
    return None


_NEW_HOME = re.compile(
    r"\b(?P<owner>my|our|his|her|their|[A-Z]\w+['’]s)\s+new\s+(?:place|home|house|flat"
    r"|apartment|address|headquarters)\s+(?:is\s+)?(?:in|at)\s+(?P<place>[A-Z][\w-]*"
    r"(?:\s+[A-Z][\w-]*)*)"
)
_SPEAKS = re.compile(r"^(?:i|we|my|our|the user)\b", re.IGNORECASE)


def _new_home(clause: str, old: str) -> Change | None:
    """ "my new place in Manchester" against where the same owner lives or is based."""
    m = _NEW_HOME.search(clause)
    if m is None or m["place"].lower() in old.lower() or not _PLACE_OLD.search(old):
        return None
    owner = m["owner"].lower()
    same = bool(_SPEAKS.match(old)) if owner in ("my", "our") else owner[:-2] in old.lower()
    if same and re.search(r"\b(?:live|lives|living|based|located|flat|house|home)\b", old):
        return Change("moved", f"now in {m['place']!r}")
    return None


_NOW_TITLE = re.compile(
    r"^(?:(?P<s>.+?)\s+)?(?:is|are|'s)\s+(?:now\s+(?:an?|the)\s+(?P<t1>.+)|(?:an?|the)\s+"
    r"(?P<t2>.+?)\s+now)$",
    re.IGNORECASE,
)


def _new_title(clause: str, sentence: str, old: str) -> Change | None:
    """ "Olu … is now a data analyst" against "Olu is an intern"."""
    m = _NOW_TITLE.match(clause)
    title = _TITLE.match(old)
    if m is None or title is None:
        return None
    subject = terms(m["s"] or sentence.split()[0])
    new_title = terms(m["t1"] or m["t2"] or "")
    if subject and subject <= terms(title["s"]) and new_title and not new_title <= terms(old):
        return Change("holder", f"now {(m['t1'] or m['t2'])!r}")
    return None


def _holder(clause: str, old: str, old_terms: frozenset[str]) -> Change | None:
    m = _COPULA.match(clause)
    if m is None:
        return None
    for name, thing in ((m["a"], m["b"]), (m["b"], m["a"])):
        name = name.strip(" .!?")
        parts = name.split()
        if not 0 < len(parts) <= 3 or not all(p[:1].isupper() for p in parts):
            continue
        thing_terms, name_terms = terms(thing), terms(name)
        if thing_terms and thing_terms <= old_terms and not name_terms & old_terms:
            if re.search(r"\b[A-Z]", old) and old.split()[0].lower() not in ("i", "we"):
                return Change("holder", f"{_head(thing)!r} is now {name!r}")
            if _names(old):
                return Change("holder", f"{_head(thing)!r} is now {name!r}")
    return None


def _value(sentence: str, old: str) -> Change | None:
    typed = typed_difference(sentence, old)
    if typed in ("date", "number"):
        plain = re.sub(r"[\d$€£¥%°:.,]+", " ", sentence)
        if terms(plain) & terms(re.sub(r"[\d$€£¥%°:.,]+", " ", old)):
            return Change("value", f"a new {typed}")
    new_slots, old_slots = slot_names(sentence), slot_names(old)
    shared = terms(sentence) & terms(old) - LIGHT
    new_lower, old_lower = sentence.lower(), old.lower()
    for name, after, before in new_slots:
        for old_name, old_after, old_before in old_slots:
            if name == old_name or name in old_lower or old_name in new_lower:
                continue
            if not shared - terms(after) - terms(before):
                continue  # the slot alone: "our Porto office" and "the Berlin office is open"
            noun_after = after.isalpha() and not _FINITE.match(after) and after not in JOINERS
            if noun_after and key(ANALYZER.stem(after)) == key(ANALYZER.stem(old_after)):
                return Change("value", f"{old_name!r} {after} is now {name!r}")
            if before.endswith(".") and before == old_before:  # "Prof. Kowalski"
                return Change("value", f"{before} {old_name!r} is now {name!r}")
    return None


@functools.lru_cache(maxsize=4096)
def change_conflict(new: str, old: str) -> Change | None:
    """The change in ``new`` that retires ``old``, or None."""
    new, old = new[:_MAX_TEXT], old[:_MAX_TEXT]
    if _HEDGE.search(old) or _PAST_STATE.search(old):
        return None
    if _ONE_OFF.search(new):
        return None
    old_terms = terms(old)
    marked = _NOW.search(new) is not None
    for sentence in sentences(new):
        for clause in _clauses(sentence):
            if _HEDGE.search(clause) or _ALSO.search(clause):
                continue  # "thinking about selling", "could take three weeks"
            found = _no_longer(clause, old_terms)
            if found is None and is_negated(clause):
                continue  # "Teo has not left Parcelo"
            found = found or (None if _KEPT.search(new) else _ended(clause, old_terms))
            found = found or _moved(clause, sentence, old, old_terms)
            found = found or _instead(clause, new, old_terms)
            found = found or _took_over(clause, old_terms) or _new_home(clause, old)
            if found is None and marked:
                found = _holder(clause, old, old_terms) or _new_title(clause, sentence, old)
            if found is not None:
                return found
        if (
            not (_HEDGE.search(sentence) or _ALSO.search(sentence))
            and marked
            and (found := _value(sentence, old))
        ):
            return found
    return None
