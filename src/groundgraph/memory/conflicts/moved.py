"""Changes that move a thing to a new value: a change verb with a theme and a destination.

"We migrated the wiki to BookStack", "The hackathon has been pushed back to March 18",
"Ines got promoted to senior analyst": the theme is in the old fact and the destination
is not, and a typed destination (a date, a number with a unit) differs from the old
fact's; a person's own move needs the old fact to hold a value of the destination's kind.
"my new place in Manchester" moves the owner's home.
"""

from __future__ import annotations

import re

from groundgraph.memory.conflicts.anchors import about, modifies, same_kind
from groundgraph.memory.conflicts.nonchange import CAUSAL, a_modifier
from groundgraph.memory.conflicts.phrases import (
    DEST_STOP,
    FINITE,
    TITLE,
    Change,
    head,
    without_lead_time,
)
from groundgraph.memory.conflicts.typed import bare_number_difference, typed_difference
from groundgraph.memory.conflicts.values import date_parts
from groundgraph.memory.conflicts.words import LIGHT, SPEAKER, terms

_CHANGE_VERB = (
    r"moved|relocated|transferred|migrated|switched|changed|upgraded|downgraded|bumped"
    r"|raised|increased|decreased|reduced|lowered|cut|turned|pushed|postponed|rescheduled"
    r"|re-scheduled|rebooked|delayed|slipped|brought|ported|replaced|swapped|traded in"
    r"|promoted|reassigned|extended|shortened|renamed|converted|shifted|upped|handed"
    r"|signed|passed|rotated|retimed|wheeled|carried|transitioned|re-[a-z]+ed|rehomed|rehoused"
    r"|redeployed|rerouted|rehosted|jumped|climbed|rose|grew|shrank|soared|dipped|settled"
    r"|(?:is|are|was|were|'s)\s+(?:now\s+)?(?:down|up|back)"
)
_PARTICLE = r"(?:\s+(?:back|forward|out|over|up|down))?"
_INTO = r"(?:to|into|onto|over to|with|for|until|till|under|around)"
_MOVED_OBJECT = re.compile(
    rf"\b(?:{_CHANGE_VERB})\s+(?P<theme>(?!(?:{_INTO}|back|forward|out|over|up|down)\b).+?){_PARTICLE}\s+{_INTO}\s+(?P<dest>.+)",
    re.IGNORECASE,
)
_MOVED_SUBJECT = re.compile(
    rf"^(?P<theme>.+?)\s+(?:(?:has|have|had)\s+)?(?:been\s+|was\s+|were\s+|got\s+)?"
    rf"(?:now\s+|just\s+|finally\s+|officially\s+)?(?:{_CHANGE_VERB})(?:\s+\w+ly)?{_PARTICLE}\s+{_INTO}"
    r"\s+(?P<dest>.+)",
    re.IGNORECASE,
)
_CHANGED_ALONE = re.compile(
    r"^(?P<theme>.+?)\s+(?:has\s+|have\s+)?(?:been\s+)?(?:changed|moved|switched|updated)$",
    re.IGNORECASE,
)
# a change said as a noun: "Cluster upgrade to 1.29 is done", "Warehouse cut-over to …"
_MOVED_NOUN = re.compile(
    r"^(?P<theme>(?:the\s+|our\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?)\s+(?:upgrade|migration|move"
    r"|switch|cut-?over|changeover|transition|transfer|relocation)\s+(?:to|into|onto)\s+"
    r"(?P<dest>.+?)(?:\s+(?:is|are|was|were|has|have|had|got|went|completed|finished|done)\b.*)?$",
    re.IGNORECASE,
)
# the patterns the rule needs in the new fact's clause: none matches, the rule cannot fire
MOVED_CUES = (_MOVED_OBJECT, _MOVED_SUBJECT, _CHANGED_ALONE, _MOVED_NOUN)
_ROLE_DEST = re.compile(
    r"\b(?:role|position|job|title|engineer|manager|director|lead|analyst|designer"
    r"|developer|owner|officer|head|chief)\b",
    re.IGNORECASE,
)
_PLACE_OLD = re.compile(
    r"\b(?:in|at|out of|from|near|based|lives?|located)\s+(?:the\s+)?(?-i:[A-Z])", re.IGNORECASE
)


_COPULA_VALUE = re.compile(r"\b(?:is|are|'s|’s)\s+(?P<value>.+)", re.IGNORECASE)


def _dated_value(old: str) -> bool:
    """The old fact's value (what follows its copula) is a date: "is the last Thursday of
    the month", "are on Tuesdays"."""
    m = _COPULA_VALUE.search(old)
    return m is not None and bool(date_parts(m["value"])) and not _PLACE_OLD.search(m["value"])


def _kind_matches(dest: str, old: str) -> bool:
    """The old fact has a value of the destination's kind (date, number, role, place)."""
    if typed_difference(dest, old) in ("date", "number"):
        return True
    if date_parts(dest):
        return False  # a date the old fact does not have
    if _ROLE_DEST.search(dest):
        return TITLE.match(old) is not None
    if re.search(r"(?:^|\s)(?:the\s+|our\s+)?[A-Z]", dest):
        return _PLACE_OLD.search(old) is not None
    return False


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


def _speaks(text: str) -> bool:
    return bool(_SPEAKER_WORD.search(text))


_SPEAKER_WORD = re.compile(r"\b(?:i|i['’]m|i['’]ve|me|my|we|our|us|the user)\b", re.IGNORECASE)
_AGENT = re.compile(r"^(?P<agent>[A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*)*)\s+\w+")


def _same_person(person: str, sentence: str, old: str, old_terms: frozenset[str]) -> bool:
    """The old fact is about the one who moved: the speaker in both, or the same name;
    "he", "she" or "they" stand for a name of the same sentence."""
    if person.lower() in ("he", "she", "they", "him", "them") or person == "her":
        names = {w.strip(".,;:!?'’").removesuffix("'s") for w in sentence.split()[1:]}
        return any(n[:1].isupper() and terms(n) and terms(n) <= old_terms for n in names)
    if person.lower() in SPEAKER or person.lower() in ("me", "us"):
        return _speaks(old)
    named = terms(person)
    return bool(named) and named <= old_terms


def _outside_agent(clause: str, theme: str, old_terms: frozenset[str]) -> bool:
    """ "Stripe moved our account …": a named party changed the speaker's thing, and the
    old fact does not name that party, so it is about another account."""
    m = _AGENT.match(clause)
    if m is None or not re.match(r"(?:my|our|the user['’]s)\b", theme, re.IGNORECASE):
        return False
    agent = terms(m["agent"])
    return bool(agent) and not agent & old_terms


def _elliptic(theme: str, dest: str, old: str, new: str) -> bool:
    """ "We migrated staging to eu-west-1" against "Our staging server is hosted in AWS
    us-east-1": the theme names the old fact's thing by a word of it ("staging" for the
    staging server), and the destination is a value of the same kind as the old one:
    a code for a code, an org for an org, a named provider for a named provider."""
    theme_terms = terms(theme) - LIGHT
    owner = re.match(r"^([A-Z][\w-]*)['’]s\s+\w+$", theme)
    if owner and theme_terms <= terms(old) and re.search(r"\bunder\b", new):
        return same_kind(dest, old, new, theme)  # "Ximena's team was moved under the COO"
    if not theme_terms or not theme_terms <= terms(old) or terms(theme.split()[-1]) <= LIGHT:
        return False  # "the support team" is a thing of its own, not "the support inbox"
    if not modifies(theme_terms, old):
        return False  # "payroll" must name a thing of the old fact, as in "payroll provider"
    return same_kind(dest, old, new, theme)


def moved(clause: str, sentence: str, old: str, new: str) -> Change | None:
    old_terms = terms(old)
    clause = without_lead_time(clause)  # "After six months my heart rate has settled …"
    if CAUSAL.search(clause):
        return None  # "Reduced blood flow leads to ...": a cause, not a change
    for pattern, on_object in ((_MOVED_OBJECT, True), (_MOVED_SUBJECT, False), (_MOVED_NOUN, True)):
        m = pattern.search(clause)
        if m is None or (on_object and a_modifier(clause, m.start())):
            continue
        if not on_object and FINITE.search(m["theme"]):
            continue  # "We've been doing standup … since Cedar got turned into …"
        if on_object and re.match(r"(?:its|his|her|their)\b", m["theme"], re.IGNORECASE):
            agent = terms(clause[: m.start()]) - LIGHT
            if agent and not agent & old_terms:
                continue  # "Kestrel Bank relocated its headquarters" is about Kestrel Bank
        if not on_object and (_PASSIVE.search(m[0]) or not _a_person(m["theme"])):
            on_object = True  # "Mobile was moved into …", "Release 2.0 slipped to …"
        theme, dest = head(m["theme"]), head(m["dest"], DEST_STOP)
        dest_terms = terms(dest)
        typed = typed_difference(dest, old) or bare_number_difference(dest, old)
        if typed not in ("date", "number") and (not dest_terms or dest_terms <= old_terms):
            continue  # nothing new: "moved to Leeds" against "lives in Leeds"
        if typed == "same" or (not typed and (date_parts(dest) or typed_difference(dest, dest))):
            continue  # a date or an amount the old fact has none of: about something else
        if re.search(r"\d", dest) and not re.search(r"\d", old):
            continue  # a date or an amount the old fact has none of: about something else
        if on_object and theme.lower() in ("me", "us", "him", "her", "them"):
            shared = (terms(sentence) - dest_terms) & old_terms - LIGHT
            if not (shared and _same_person(theme, sentence, old, old_terms)):
                continue
            if not _kind_matches(dest, old):
                continue  # "moved me to May 21": the speaker's appointment, by its date
        elif on_object:
            initial = m.start("theme") == 0
            if _dated_value(old) and not date_parts(dest):
                continue  # "Book club relocated to the café" says nothing of when it meets
            if not (about(theme, old, sentence, initial) or _elliptic(theme, dest, old, new)):
                continue  # "moved its headquarters to …" says nothing about "a shop in Delft"
            if _outside_agent(clause, m["theme"], old_terms):
                continue
        elif not (_same_person(theme, sentence, old, old_terms) and _kind_matches(dest, old)):
            continue  # "Tomás moved to Valencia" says nothing of where Priya lives
        return Change("moved", f"{theme!r} changed to {dest!r}")
    m = _CHANGED_ALONE.match(clause)
    if m is not None and about(m["theme"], old, new, True):
        return Change("moved", f"{head(m['theme'])!r} changed")
    return None


_NEW_HOME = re.compile(
    r"\b(?P<owner>my|our|his|her|their|[A-Z]\w+['’]s)\s+new\s+(?:place|home|house|flat"
    r"|apartment|address|headquarters)\s+(?:is\s+)?(?:in|at)\s+(?P<place>[A-Z][\w-]*"
    r"(?:\s+[A-Z][\w-]*)*)"
)
_GOT_HOME = re.compile(
    r"\b(?:bought|buys|rents?|rented|renting|moved into|leased)\s+(?:a|an|the)\s+"
    r"(?:[\w-]+\s+){0,3}?(?:place|home|house|flat|apartment|condo|cottage|bungalow)\s+in\s+"
    r"(?P<place>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)"
)
_SPEAKS = re.compile(r"^(?:i|we|my|our|the user)\b", re.IGNORECASE)
NEW_HOME_CUES = (_NEW_HOME, _GOT_HOME)


def new_home(clause: str, sentence: str, old: str) -> Change | None:
    """ "my new place in Manchester", "Dariusz … rents a place in Kraków these days"
    against where the same owner lives or is based."""
    m = _NEW_HOME.search(clause)
    if m is not None:
        owner = m["owner"].lower()
    elif (m := _GOT_HOME.search(clause)) is not None:
        first = sentence.split()[0].strip(",;:")
        owner = "my" if _speaks(sentence) or not first[:1].isupper() else first + "'s"
    if m is None or m["place"].lower() in old.lower() or not _PLACE_OLD.search(old):
        return None
    speaker_is_subject = _SPEAKS.match(old) and not re.match(
        r"^(?:my|our|the user['’]s)\s+(?!home|place|house|flat|apartment|address)\w+", old, re.I
    )
    same = bool(speaker_is_subject) if owner in ("my", "our") else owner[:-2].lower() in old.lower()
    if same and re.search(r"\b(?:live|lives|living|based|located|flat|house|home)\b", old):
        return Change("moved", f"now in {m['place']!r}")
    return None
