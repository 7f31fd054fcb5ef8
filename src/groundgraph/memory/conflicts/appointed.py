"""A new title by appointment: someone named, made or started as something else.

"Ms. Ortega was named principal" against "Ms. Ortega is the vice principal"; "the firm
made her a senior associate" against "Lena is a junior associate"; "Congrats to Femi, our
new Head of Sales!" against "Femi is a sales manager"; "The user started as a data
analyst" against "The user is a graduate student". The one appointed is the old fact's
subject (a pronoun stands for a name of the same sentence), the old fact gives them a
title ("X is a …", "X works as a …"), and the new title is a job (an agent noun such as
"manager", "accountant", "director", or a title word such as "chef", "partner", "head")
that is not the old one. An award ("named employee of the month") is no job.
"""

from __future__ import annotations

import re

from groundgraph.memory.conflicts.lexicon import ROLES
from groundgraph.memory.conflicts.phrases import PERSON, STOP, TITLE, Change, head
from groundgraph.memory.conflicts.words import SPEAKER, terms

_NAME = PERSON
_WHO = rf"(?P<who>the user|i|{_NAME})"
_THE = r"(?:(?:the|our|their|its|a|an|as)\s+)?"
_APPOINTED = re.compile(
    rf"^(?:\w+\s+)??{_WHO}\s+(?:was|has been|had been|got|is being|have been|were)\s+"
    rf"(?:officially\s+|finally\s+|just\s+)?(?:named|appointed|elected|made|promoted to"
    rf"|confirmed as|hired as|taken on as)\s+{_THE}(?P<title>.+)",
    re.IGNORECASE,
)
_MADE = re.compile(
    rf"\b(?:made|named|appointed|elected)\s+(?P<who>{_NAME}|him|her|them|me)\s+(?:a|an|the|our"
    rf"|their|its)\s+(?P<title>.+)",
    re.IGNORECASE,
)
_OUR_NEW = re.compile(
    rf"(?:^|\bto\s+|,\s*)(?P<who>{_NAME}),\s+(?:our|the|my|their)\s+new\s+(?P<title>[^,;!.]+)",
    re.IGNORECASE,
)
_NEW_APPOSITION = re.compile(r"^(?:our|the|my|their)\s+new\s+\w", re.IGNORECASE)  # its clause
_STARTED_AS = re.compile(
    rf"^(?:(?:\w+\s+)??{_WHO}\s+)?(?:has\s+)?(?:started|starts|began|begins|joined\s+\S+(?:\s+\S+)?)"
    rf"\s+(?:work\s+|working\s+)?as\s+(?:a|an|the)\s+(?P<title>.+)",
    re.IGNORECASE,
)

# the patterns the rule needs in the new fact's clause: none matches, the rule cannot fire
APPOINTED_CUES = (_APPOINTED, _MADE, _NEW_APPOSITION, _STARTED_AS)
_SENTENCE_SUBJECT = re.compile(rf"^{_WHO}\b", re.IGNORECASE)

# title words that are no agent noun; an agent noun ends in -er, -or, -ist, -yst, -ian,
# -ant or -ent ("manager", "director", "dentist", "analyst", "librarian", "accountant")
_TITLE_WORDS = frozenset(ROLES) | frozenset(
    [
        "chef",
        "cook",
        "partner",
        "associate",
        "intern",
        "nurse",
        "sre",
        "vp",
        "dean",
        "head",
        "principal",
        "fellow",
        "postdoc",
        "apprentice",
        "clerk",
        "staff",
        "chief",
    ]
)
_AGENT_NOUN = re.compile(r"^[a-z-]{3,}(?:er|or|ist|yst|ian|ant|ent)s?$")


def _a_job(title: str) -> bool:
    """``title`` names a job: a title word or an agent noun among its words."""
    words = [w.strip(".,;:!?()'’").lower() for w in title.split()]
    return any(w in _TITLE_WORDS or _AGENT_NOUN.match(w) for w in words)


def _title_of(old: str) -> tuple[str, str] | None:
    """(subject, title) of an old fact that gives someone a title: "Nia is a junior
    accountant at …" → ("Nia", "junior accountant")."""
    m = TITLE.match(old)
    if m is None:
        return None
    return m["s"], head(old[m.end() :], STOP, limit=5)


def _same_one(who: str, sentence: str, subject: str) -> bool:
    """The one appointed is the old fact's subject; a pronoun stands for a name of the
    same sentence, the speaker for "the user" or "I"."""
    low = who.lower()
    if low in ("him", "her", "them"):
        names = {w.strip(".,;:!?'’").removesuffix("'s") for w in sentence.split()}
        return any(n[:1].isupper() and terms(n) and terms(n) <= terms(subject) for n in names)
    if low in SPEAKER or low in ("i", "me", "the user"):
        return subject.lower() in SPEAKER or subject.lower() in ("i", "the user")
    said = {w.strip(".,'’").lower() for w in subject.split()}
    return all(w.strip(".,'’").lower() in said for w in who.split())  # "Belle" is not "Bell"


def appointed(clause: str, sentence: str, old: str) -> Change | None:
    """The change when ``clause`` gives the old fact's subject a new title, or None."""
    held = _title_of(old)
    if held is None:
        return None
    subject, was = held
    for pattern in (_APPOINTED, _MADE, _OUR_NEW, _STARTED_AS):
        # "Congrats to Femi, our new Head of Sales": the apposition spans clauses
        m = pattern.search(sentence if pattern is _OUR_NEW else clause)
        if m is None or (pattern is _OUR_NEW and not _NEW_APPOSITION.search(clause)):
            continue
        who = m["who"]
        if who is None:  # "… and started as a data analyst": the sentence's subject
            first = _SENTENCE_SUBJECT.match(sentence)
            who = first["who"] if first is not None else ""
        title = head(m["title"], STOP, limit=5)
        if not title or not who or not _a_job(title) or not _same_one(who, sentence, subject):
            continue
        if terms(title) == terms(was):
            continue  # the same title said again
        return Change("holder", f"{who!r} is now {title!r}, not {was!r}")
    return None
