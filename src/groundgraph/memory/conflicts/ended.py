"""Changes that end what the old fact says: the thing ended, or its value replaced.

- **ended**: "X cancelled / called off / withdrew from / dropped / left / stepped down as /
  decommissioned T", "T was cancelled", "T churned", "No T this Friday": at least half the
  words of T are in the old fact ("cancelled the Osaka hotel" leaves "the trip to Kyoto");
- **instead**: "… instead of X", "negative for X", where X and something else of the new
  fact are in the old one;
- **no longer**: "… anymore / no longer / no more …": every word of that clause is in the
  old fact ("Rachel isn't Yusuf's manager anymore").
"""

from __future__ import annotations

import re

from groundgraph.memory.conflicts.anchors import (
    about,
    anchored_by_word,
    as_in,
    mostly_in,
    same_occasion,
    service_of,
)
from groundgraph.memory.conflicts.handover import holds
from groundgraph.memory.conflicts.nonchange import CAUSAL, a_modifier
from groundgraph.memory.conflicts.phrases import FINITE, Change, head
from groundgraph.memory.conflicts.typed import typed_difference
from groundgraph.memory.conflicts.words import SPEAKER, terms

_END = (
    r"cancel(?:l)?ed|called off|call off|withdrew from|withdrawn from|dropped out of"
    r"|pulled out of|dropped|ditched|quit|left|stepped down (?:as|from)|stepped back from"
    r"|stood down (?:as|from)"
    r"|rotated off|decommissioned|scrapped|shut down|ended|terminated|ripped out|removed"
    r"|got rid of|gave up|stopped|sold|retired|discontinued|killed|axed|canned|deleted"
    r"|withdrew|withdrawn|closed|wound down|moved off|migrated off|migrating off|switched off"
    r"|came off|got off"
)
_ENDED = re.compile(rf"\b(?:{_END})\s+(?P<theme>.+)", re.IGNORECASE)
_PULLED = re.compile(r"\bpulled\s+.{1,60}?\s+out of\s+(?P<theme>.+)", re.IGNORECASE)
_ENDED_PASSIVE = re.compile(
    r"^(?P<theme>.+?)\s+(?:was|were|has been|have been|got|is|are)\s+(?:now\s+|just\s+"
    r"|officially\s+|finally\s+)?(?:cancel(?:l)?ed|called off|decommissioned|scrapped"
    r"|shut down|terminated|dropped|removed|retired|discontinued|killed|axed|deleted"
    r"|withdrawn|off)\b",
    re.IGNORECASE,
)
_LET_LAPSE = re.compile(
    r"\blet\s+(?P<theme>.+?)\s+(?:lapse|go|expire|run out|die)\b", re.IGNORECASE
)
_ENDED_ALONE = re.compile(
    r"^(?P<theme>[^,]+?)\s+(?:has\s+|have\s+)?(?:churned|folded|closed down|shut down|ended"
    r"|lapsed|expired|died|broke down|gave out|closed (?:for good|permanently|in|last))\b",
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

# the patterns each rule needs in the new fact's clause: none matches, the rule cannot fire
ENDED_CUES = (_PULLED, _LET_LAPSE, _ENDED, _ENDED_PASSIVE, _ENDED_ALONE)
INSTEAD_CUES = (_INSTEAD_OF, _NEGATIVE_FOR)


_A_NAME = re.compile(r"^(?-i:[A-Z])[\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*)?$")
_LEAVING = re.compile(
    r"(?:withdrew from|withdrawn from|dropped out of|pulled out of|quit|left|stepped down"
    r"|stepped back|stood down|rotated off|gave up)\b",
    re.IGNORECASE,
)


def _agent_in(agent: list[str], old: str) -> bool:
    if agent[0].lower() in ("i", "we") or agent[0].lower() in SPEAKER:
        return _SPEAKS_IN.search(old) is not None
    return bool(terms(" ".join(agent)) & terms(old))


_SPEAKS_IN = re.compile(r"\b(?:i|me|my|we|our|us|the user)\b", re.IGNORECASE)


def ended(clause: str, sentence: str, old: str, new: str) -> Change | None:
    old_terms = terms(old)
    if (
        _ENDED.search(old)
        or _ENDED_PASSIVE.search(old)
        or any(_ENDED_ALONE.search(part) for part in re.split(r"[;,]\s*", old))
    ):
        return None  # the old fact is itself an ending: history, nothing left to end
    for pattern in ENDED_CUES:
        m = pattern.search(clause)
        if m is None or CAUSAL.search(clause) or a_modifier(clause, m.start()):
            continue
        theme = head(m["theme"])
        initial = m.start("theme") == 0
        off = pattern is _ENDED_PASSIVE and m[0].lower().endswith(" off")
        if off and _A_NAME.match(theme) and holds(theme, old):
            continue  # "Mehmet is off this week": the one I report to is away
        if typed_difference(theme, old) == "date":
            continue  # "my Friday slot" is not the slot on May 13
        leaving = _LEAVING.match(m[0]) is not None  # "I left the choir": I did, not the choir
        if (leaving or re.fullmatch(r"[a-z][\w-]*", theme)) and pattern is _ENDED:
            agent = clause[: m.start()].split()
            if agent and not _agent_in(agent, old):
                continue  # "I left nursing" says nothing of "Benedikt is a nurse"
        anaphoric = re.fullmatch(r"(?:the|that|this|our|my)\s+\w+", theme, re.IGNORECASE)
        if anaphoric and service_of(theme, sentence, new):
            if service_of(theme, sentence, old):
                return Change("ended", f"{theme!r} ended")
            continue  # "… 1Password … and closed the account": 1Password's account
        if mostly_in(as_in(terms(theme), old_terms), old_terms) and about(theme, old, new, initial):
            return Change("ended", f"{theme!r} ended")
        if same_occasion(theme, sentence, old) or service_of(theme, sentence, old):
            return Change("ended", f"{theme!r} ended")
    return None


_RESOLVE = (
    r"fixed|repaired|sorted(?: out)?|resolved|approved|signed off(?: on)?|submitted|merged"
    r"|launched|renewed|discharged|shipped|completed|finished|cleared|paid(?: off)?|granted"
    r"|accepted|delivered|got engaged|engaged|married|recovered|came through|went live"
    r"|finali[sz]ed|done"
    # a decision on what was pending, a return to service
    r"|declined|rejected|denied|refused|turned down|passed|filled|reopened|resumed"
    r"|back (?:up|online|open|in service|to normal)"
    r"|(?:working|running|open|up|online|green|operational|healthy|normal|fine) again"
)
_RESOLVED_OBJECT = re.compile(rf"\b(?:{_RESOLVE})\s+(?P<theme>.+)", re.IGNORECASE)
_CODE_CLOSED = re.compile(
    r"^(?P<theme>(?:[\w-]+\s+)?#?[A-Za-z]*-?\d[\w-]*)\s+(?:(?:is|was|has been|got)\s+)?closed\b",
    re.IGNORECASE,
)
_RESOLVED_SUBJECT = re.compile(
    rf"^(?P<theme>.+?)(?:['’]s|\s+(?:is|are|was|were|has been|have been|got|finally|now))*"
    rf"\s*\b(?:{_RESOLVE})\b",
    re.IGNORECASE,
)
# a state that lasts until something resolves it: broken, pending, in draft, expired ...
_OPEN_STATE = re.compile(
    r"\b(?:is|are|'s|’s|remains?|still|currently|status)\s+(?:still\s+|currently\s+|now\s+)?"
    r"(?:broken|leaking|pending|outstanding|open|in draft|a draft|in (?:closed |private |open )?"
    r"beta|in progress|under review|awaiting|waiting|single|in hospital|on hold|blocked"
    r"|expired|overdue|unpaid|unresolved|missing|delayed|down|failing|faulty|out of order"
    r"|not working|unassigned|on the market|for sale|engaged|being \w+|closed|offline|vacant"
    r"|in (?:the )?hospital)\b|\bexpired\b|\bawaiting\b"
    r"|[#\w]*\d[\w-]*\s+(?:open|pending|in progress)\b",
    re.IGNORECASE,
)

RESOLVED_CUES = (_RESOLVED_OBJECT, _RESOLVED_SUBJECT, _CODE_CLOSED)


def resolved(clause: str, old: str, new: str) -> Change | None:
    """ "The plumber sorted the 4B leak" against "The kitchen tap in unit 4B is leaking":
    an event that resolves the state the old fact holds (broken, pending, in draft,
    expired, single), about the same thing or person."""
    if _OPEN_STATE.search(old) is None:
        return None
    for pattern in RESOLVED_CUES:
        m = pattern.search(clause)
        if m is None or a_modifier(clause, m.start()):
            continue
        theme = head(m["theme"])
        if pattern is _RESOLVED_OBJECT:
            theme = re.sub(r"\s+\w+ed$", "", theme)  # "My renewed passport arrived": the passport
        if not theme:
            continue
        if theme.lower() in ("the user", "i", "we") or theme.lower() in SPEAKER:
            after = clause[m.end() :].split()[:1]
            own = _OWN_STATE.match(old)
            if pattern is _RESOLVED_SUBJECT and own and (not after or after[0] in _NOT_OBJECT):
                return Change("ended", f"no longer {own['state']!r}")
            continue  # "We submitted the proposal" says nothing of the user's passport
        if about(theme, old, new, m.start("theme") == 0) or anchored_by_word(theme, old):
            return Change("ended", f"{theme!r} resolved")
    return None


_OWN_STATE = re.compile(
    r"^(?:i|we|the user)\s+(?:is|am|are|['’]m|['’]re)\s+(?:still\s+|currently\s+)?(?P<state>.+)",
    re.IGNORECASE,
)
_NOT_OBJECT = frozenset(
    ["to", "over", "on", "in", "at", "last", "this", "yesterday", "today", "with", "after"]
)


def instead(clause: str, new: str, old_terms: frozenset[str]) -> Change | None:
    for pattern in INSTEAD_CUES:
        m = pattern.search(clause)
        if m is None:
            continue
        replaced = head(m["old"])
        named = terms(replaced)
        if named and named <= old_terms and (terms(new) - named) & old_terms:
            return Change("instead", f"no longer {replaced!r}")
    return None


_NO_THING = re.compile(r"^no\s+(?!one\b|longer\b|more\b|body\b|way\b|idea\b)(?P<theme>.+)", re.I)

NO_LONGER_CUES = (_NO_THING, _NO_LONGER)


_PRONOUN_SUBJECT = re.compile(r"^(?:he|she|they|it)\b", re.IGNORECASE)


def _named_in(new: str, old_terms: frozenset[str]) -> bool:
    """A name of ``new`` (a capitalised word past the first) is in the old fact: what a
    pronoun of ``new`` stands for."""
    names = [w.strip(".,;:!?'’()").removesuffix("'s") for w in new.split()]
    return any(
        n[:1].isupper() and n.lower() not in SPEAKER and terms(n) and terms(n) <= old_terms
        for n in names
    )


def no_longer(clause: str, old: str, new: str) -> Change | None:
    old_terms = terms(old)
    m = _NO_THING.match(clause)  # "No team lunch this Friday": a notice with no verb
    theme = head(m["theme"]) if m is not None else ""
    if (
        m
        and not FINITE.search(clause)
        and mostly_in(terms(theme), old_terms)
        and about(theme, old, new)
    ):
        return Change("ended", f"no {head(m['theme'])!r}")
    if _NO_LONGER.search(clause) is None:
        return None
    said = terms(_NEGATORS.sub(" ", clause))
    if _PRONOUN_SUBJECT.match(clause) and not _named_in(new, old_terms):
        return None  # "Malik transferred …, so he's not my report anymore": Malik's, not mine
    if said and said <= old_terms:
        return Change("no-longer", f"no longer {clause!r}")
    return None
