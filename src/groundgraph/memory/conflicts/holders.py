"""Changes that give a slot a new holder or value: who holds a thing now, what it is now.

- **holder**: "Y took over T"; under a mark of the present ("now", "going forward",
  "instead"), "Y is the T now" with Y a new name, or "X is now a <title>";
- **value**: under such a mark, a date or a number with a unit of the old fact's kind and
  different, about something both name ("From next week we meet on Thursdays" against
  "The team meeting is every Monday"), or the same slot filled by another name ("our
  Porto office" against "the Lisbon office").
"""

from __future__ import annotations

import re

from groundgraph.memory.conflicts.anchors import about, date_terms, plain_modifiers
from groundgraph.memory.conflicts.nonchange import scope_terms
from groundgraph.memory.conflicts.phrases import (
    CHANGED,
    DEST_STOP,
    FINITE,
    TITLE,
    Change,
    head,
    without_lead_time,
)
from groundgraph.memory.conflicts.typed import UNIT_WORDS, dated_parts, typed_difference
from groundgraph.memory.conflicts.values import date_parts
from groundgraph.memory.conflicts.words import (
    ANALYZER,
    JOINERS,
    LIGHT,
    SPEAKER,
    code_shapes,
    codes,
    heads,
    key,
    slot_names,
    terms,
)
from groundgraph.text import sentences

_TOOK_OVER = re.compile(
    r"^(?P<holder>.+?)\s+(?:took|takes|has taken|have taken|is taking)\s+over\s+(?:as\s+)?"
    r"(?P<theme>.+)",
    re.IGNORECASE,
)
_COPULA = re.compile(
    r"^(?P<a>.+?)\s+(?:is|are|'s|’s)\s+(?:now\s+)?(?P<b>.+?)(?:\s+now)?$", re.IGNORECASE
)

# the patterns the rule needs in the new fact's clause: none matches, the rule cannot fire
TOOK_OVER_CUES = (_TOOK_OVER,)
HOLDER_CUES = (_COPULA,)


def _names(text: str) -> set[str]:
    return {w.strip(".,;:!?'’()").lower() for w in text.split()[1:] if w[:1].isupper()}


def took_over(clause: str, old: str, new: str) -> Change | None:
    m = _TOOK_OVER.match(clause)
    if m is not None:
        holder, theme = head(m["holder"], limit=4), head(m["theme"])
        if about(theme, old, new) and not terms(holder) & terms(old):
            return Change("holder", f"{theme!r} is now {holder!r}'s")
    return None


_NOW_TITLE = re.compile(
    r"^(?:(?P<s>.+?)(?:\s+(?:is|are|'s)|(?<=\w)['’]s)|(?:is|are))\s+(?:now\s+(?:an?|the)\s+(?P<t1>.+)|(?:an?|the)\s+"
    r"(?P<t2>.+?)\s+now)$",
    re.IGNORECASE,
)

NEW_TITLE_CUES = (_NOW_TITLE,)


def new_title(clause: str, sentence: str, old: str) -> Change | None:
    """ "Olu … is now a data analyst" against "Olu is an intern"."""
    m = _NOW_TITLE.match(clause)
    title = TITLE.match(old)
    if m is None or title is None:
        return None
    subject = terms(m["s"] or sentence.split()[0])
    new_title = terms(m["t1"] or m["t2"] or "")
    if subject and subject <= terms(title["s"]) and new_title and not new_title <= terms(old):
        return Change("holder", f"now {(m['t1'] or m['t2'])!r}")
    return None


_TRAILING_TIME = re.compile(
    r"\s+(?:this|next|from|for|until|starting)\s+(?:\w+\s*){1,2}$|\s+(?:now|for now)$", re.I
)


_SPEAKS = re.compile(r"\b(?:i|me|my|we|our|us|the user)\b", re.IGNORECASE)


def holder(clause: str, old: str, old_terms: frozenset[str]) -> Change | None:
    m = _COPULA.match(clause)
    if m is None:
        return None
    for name, thing in ((m["a"], m["b"]), (m["b"], m["a"])):
        name = _TRAILING_TIME.sub("", name.strip(" .!?"))
        parts = name.split()
        if not 0 < len(parts) <= 3 or not all(p[:1].isupper() for p in parts):
            continue
        thing_terms, name_terms = terms(thing), terms(name)
        if not thing_terms - date_terms(thing):
            continue  # "Demos are on Wednesdays now": a time, not a thing held
        if re.match(r"(?:my|our)\b", thing.strip(), re.IGNORECASE) and not _SPEAKS.search(old):
            continue  # "my new manager is Shirin" says nothing of Catalina's title
        if thing_terms and thing_terms <= old_terms and not name_terms & old_terms:
            if re.search(r"\b[A-Z]", old) and old.split()[0].lower() not in ("i", "we"):
                return Change("holder", f"{head(thing)!r} is now {name!r}")
            if _names(old):
                return Change("holder", f"{head(thing)!r} is now {name!r}")
    return None


_PARTS = re.compile(r"\s*;\s*|,?\s+(?:and|but|so|while|whereas)\s+|,\s+")


def _parts(text: str) -> list[str]:
    """The parts of ``text``; a label and its value ("New weekday hours at the gym: 5am to
    11pm") stay one part."""
    return [p for s in sentences(text) for p in _PARTS.split(s) if p.strip()]


def _clause_of(text: str, typed: str) -> list[str]:
    """The parts of ``text`` that name a value of kind ``typed`` (a date or a number)."""
    return [p for p in _parts(text) if typed_difference(p, p) == "same"]


def _bare(text: str) -> frozenset[str]:
    """Content words without numbers, dates, time frames, marks of a change ("moved",
    "new") or owners ("the bank's CDs": the bank is not what has the value)."""
    text = CHANGED.sub(" ", re.sub(r"[^\s]*\d[^\s]*", " ", text))
    text = " ".join(w for w in text.split() if w.lower().strip(".,;:") not in UNIT_WORDS)
    text = re.sub(r"\b[\w-]+['’]s\b", " ", text)
    plain = re.sub(r"\d[\d:.,]*\s*(?:am|pm|h|uhr)?\b|[$€£¥%°/]", " ", text, flags=re.IGNORECASE)
    kept = [w for w in plain.split() if not date_parts(w) and not scope_terms(w)]
    return terms(" ".join(w for w in kept if w.lower() not in _QUANTIFIERS))


# "every other Friday", "each month": words that count a thing, not the thing
_QUANTIFIERS = frozenset(["every", "each", "other", "all", "any", "some"])


def _same_thing(new_part: str, old_part: str, new: str) -> bool:
    """The value in both parts belongs to one thing: a word both name that is a head of
    the old part ("fee" of "Our daycare fee is …"), with no modifier of the one the other
    lacks ("A monthly pass" against "A day pass")."""
    for k in (_bare(new_part) & _bare(old_part) & (heads(old_part) | heads(new_part))) - LIGHT:
        ks = frozenset([k])
        if k in heads(new_part) and plain_modifiers(ks, new_part) - terms(old_part):
            continue
        return True
    return False


_OWNER = re.compile(r"\b([A-Z][\w-]*)['’]s\b")


def _same_owner(new_part: str, old_part: str, new: str) -> bool:
    """A thing the old part gives an owner ("Zainab's flight") is the new fact's only when
    the new fact names that owner or a date part of theirs agrees ("on the 12th")."""
    owners = [o for o in _OWNER.findall(old_part) if not date_parts(o)]
    if not owners or all(terms(o) <= terms(new) for o in owners):
        return True
    a, b = dated_parts(new_part), dated_parts(old_part)
    if any(a[k] == b[k] for k in a.keys() & b.keys() if k in ("day", "month", "year")):
        return True
    return bool(
        set(re.findall(r"\b\d+(?:st|nd|rd|th)\b", new_part))
        & set(re.findall(r"\b\d+(?:st|nd|rd|th)\b", old_part))
    )


def _valued(part: str) -> bool:
    """A code in a value's place: after a verb or a preposition ("live in ap-northeast-1",
    "to B220"), not naming what the part is about ("PAY-812 status …")."""
    return bool(re.search(r"\b(?:in|at|to|on|into|from|is|are|onto|under|=|->)\s+\S*\d", part))


def _other_names(text: str, slot: str) -> frozenset[str]:
    """The names of ``text`` outside the capitalised run that holds ``slot``: whose it is."""
    words = [w.strip(".,;:!?'’()") for w in text.split()]
    runs: list[list[str]] = []
    for i, word in enumerate(words):
        # the first word too: "Malik transferred to the London team" is about Malik
        if word[:1].isupper() and not date_parts(word):
            if runs and runs[-1][-1] == words[i - 1]:
                runs[-1].append(word)
            else:
                runs.append([word])
    others = [run for run in runs if slot not in {w.lower() for w in run}]
    return frozenset().union(*(terms(w) for run in others for w in run))


def value(sentence: str, old: str) -> Change | None:
    sentence = without_lead_time(sentence)  # "Starting Monday, …": when, not what
    typed = typed_difference(sentence, old)
    if typed in ("date", "number"):
        for new_clause in _clause_of(sentence, typed):
            for old_clause in _clause_of(old, typed):
                if typed_difference(new_clause, old_clause) != typed:
                    continue
                if not _same_owner(new_clause, old_clause, sentence):
                    continue  # "your flight" is not "Zainab's flight" unless its day agrees
                if _same_thing(new_clause, old_clause, sentence):
                    return Change("value", f"a new {typed}")
    for new_part in [p for p in _parts(sentence) if codes(p)]:
        for old_part in [p for p in _parts(old) if codes(p)]:
            if codes(new_part) & codes(old_part):
                continue
            if not code_shapes(codes(new_part)) & code_shapes(codes(old_part)):
                continue  # "ap-south-1" and "B214" are not values of one slot
            if not (_valued(new_part) and _valued(old_part)):
                continue  # "PAY-812" and "OPS-4471" name things; they are not values
            if _same_thing(new_part, old_part, sentence):
                return Change(
                    "value", f"{sorted(codes(old_part))[0]!r} is now {sorted(codes(new_part))[0]!r}"
                )
    new_slots, old_slots = slot_names(sentence), slot_names(old)
    shared = terms(sentence) & terms(old) - LIGHT
    new_lower, old_lower = sentence.lower(), old.lower()
    for name, after, before in new_slots:
        if name in SPEAKER or name.startswith(("i'", "i’")) or after in SPEAKER:
            continue  # "I'm now …": the speaker, not a name in a slot
        for old_name, old_after, old_before in old_slots:
            if name == old_name or name in old_lower or old_name in new_lower:
                continue
            if not shared - terms(after) - terms(before):
                continue  # the slot alone: "our Porto office" and "the Berlin office is open"
            if _other_names(sentence, name) - terms(old) or _other_names(old, old_name) - terms(
                sentence
            ):
                continue  # "Dana … our Porto office" says nothing of Anjali's office
            noun_after = after.isalpha() and not FINITE.match(after) and after not in JOINERS
            noun_after = noun_after and not after.endswith("ed")  # "WEB-3370 transitioned"
            if noun_after and key(ANALYZER.stem(after)) == key(ANALYZER.stem(old_after)):
                return Change("value", f"{old_name!r} {after} is now {name!r}")
            if before.endswith(".") and before == old_before:  # "Prof. Kowalski"
                return Change("value", f"{before} {old_name!r} is now {name!r}")
    return None


_FROM_TO = re.compile(
    r"\b(?:changed|switched|moved|went|changes|switches|updated|transferred|migrated|swapped)"
    r"\s+(?:\w+\s+){0,3}?from\s+(?P<a>.+?)\s+(?:to|->|→|into|for)\s+(?P<b>.+)",
    re.IGNORECASE,
)

FROM_TO_CUES = (_FROM_TO,)


def from_to(clause: str, old: str) -> Change | None:
    """ "your manager has changed from Amara Nwosu to Giorgos Pappas" against "My manager
    is Amara Nwosu": the value left is the old fact's, the new one is not in it, and what
    changed is named in both."""
    m = _FROM_TO.search(clause)
    if m is None:
        return None
    was, now = head(m["a"]), head(m["b"], DEST_STOP)
    old_terms = terms(old)
    what = terms(clause[: m.start()]) - LIGHT
    new_words = terms(now) - terms(was)  # "Dr. Vos" to "Dr. Smit": Smit is what is new
    if (
        terms(was)
        and terms(was) <= old_terms
        and new_words
        and not new_words & old_terms
        and (what & old_terms)
    ):
        return Change("instead", f"{was!r} is now {now!r}")
    return None


_NAME = r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2}"
_PROMOTED = re.compile(rf"^(?P<who>{_NAME})\s+(?:got|was|has been|had been|is being)\s+promoted\b")

PROMOTED_CUES = (_PROMOTED,)


def promoted(clause: str, old: str) -> Change | None:
    """ "Chiamaka got promoted" against "Chiamaka is a senior analyst": the title went."""
    m = _PROMOTED.match(clause)
    title = TITLE.match(old)
    if m is None or title is None or not terms(m["who"]) <= terms(title["s"]):
        return None
    return Change("holder", f"{m['who']!r} has a new title")


_HIRED = re.compile(
    r"\b(?:hired|appointed|recruited|brought in|named|elected|took on|signed)\s+(?:a|an)\s+"
    r"(?:new|permanent|full-time)\s+(?P<role>[\w-]+)",
    re.IGNORECASE,
)

HIRED_CUES = (_HIRED,)


def hired(clause: str, old: str) -> Change | None:
    """ "we hired a new sommelier" against "Rania is our sommelier", "appointed a permanent
    head" against "Olga is acting head of …": the role now has another holder."""
    m = _HIRED.search(clause)
    if m is None:
        return None
    role = terms(m["role"]) - LIGHT
    field = re.match(r"\s+of\s+(\w+)", clause[m.end() :])
    held = re.search(rf"{re.escape(m['role'])}\s+of\s+(?:the\s+)?(\w+)", old, re.IGNORECASE)
    if field and held and not terms(field[1]) & terms(held[1]):
        return None  # a head of maths is not the head of design
    holds = re.match(
        rf"^{_NAME}\s+is\s+(?:(?:our|the|my|their|a|an|acting|interim|temporary)\s+)*"
        rf"(?:[\w-]+\s+){{0,2}}?{re.escape(m['role'])}\b",
        old,
        re.IGNORECASE,
    )
    if role and holds is not None:
        return Change("holder", f"a new {m['role']!r}")
    return None


_ACTING = re.compile(
    r"\b(?:acting|interim|temporary|provisional|stand-in)\s+(?P<role>[\w-]+)", re.I
)
_PERMANENT = re.compile(
    r"\b(?:permanent|full-time|substantive|confirmed as|named permanent)\s+(?:the\s+)?"
    r"(?P<role>[\w-]+)",
    re.IGNORECASE,
)

CONFIRMED_CUES = (_PERMANENT,)


def confirmed(clause: str, old: str) -> Change | None:
    """ "The board confirmed Wei as permanent CFO" against "Wei is serving as acting CFO":
    the same person, the same role, no longer acting."""
    was, now = _ACTING.search(old), _PERMANENT.search(clause)
    if was is None or now is None or was["role"].lower() != now["role"].lower():
        return None
    names = {w.strip(".,;:!?") for w in clause.split()[1:] if w[:1].isupper()}
    if any(terms(n) and terms(n) <= terms(old) for n in names - {now["role"], was["role"]}):
        return Change("holder", f"no longer acting {was['role']!r}")
    return None
