"""A holder leaves: the facts that name them as the holder of something no longer hold.

"Hiroshi left the company; my one-on-ones are with Dilnoza now" against "I report to
Hiroshi Mori"; "Prof. Lindahl retired, so Dr. Brennan-Hart is my main supervisor now"
against "My doctoral supervisor is Prof. Lindahl"; "Emeka handed the billing dashboard
off" against "The Looker billing dashboard is maintained by Emeka". The one who left is
the subject of a departure (left the company, retired, resigned, stepped down, was let
go, handed … off, passed … to, rotated off), and the old fact names them in a holder's
place: after "by", "to", "from", "under", "with", as the value of "is", set off by a comma
("the charge nurse, Agnes"), or as the subject of a role ("Søren manages …", "Pradeep is
release captain"). A thing handed over must be the old fact's thing.
"""

from __future__ import annotations

import re

from groundgraph.memory.conflicts.lexicon import ROLES
from groundgraph.memory.conflicts.phrases import PERSON, Change, head
from groundgraph.memory.conflicts.words import LIGHT, terms

_HOLDER_NOUNS = frozenset(
    [
        "captain",
        "commander",
        "maintainer",
        "admin",
        "administrator",
        "contact",
        "coordinator",
        "supervisor",
        "mentor",
        "doctor",
        "dentist",
        "steward",
        "treasurer",
        "secretary",
        "organiser",
        "organizer",
        "host",
    ]
)
_NAME = PERSON  # its patterns are case-sensitive: the same names
_PLACE_LEFT = (
    r"(?:the\s+)?(?:company|firm|team|org\w*|business|school|practice|job|role|board|club"
    r"|group|department|lab|project|agency|band)\b|[A-Z]\w*|for\b|to join\b|$"
)
_DEPARTED = re.compile(
    rf"^(?:\w+\s+)?(?P<who>{_NAME})\s+(?:has\s+|have\s+|had\s+|just\s+|finally\s+)*"
    rf"(?:(?:left|quit)\s+(?={_PLACE_LEFT})|left$|quit$|retired\b|resigned\b|stepped\s+(?:down|back|aside)\b"
    r"|was\s+let\s+go\b|went\s+on\s+(?:leave|sabbatical)\b|moved\s+(?:on\b|over\b|to\s+(?![A-Z]))"
    r"|(?P<verb>handed|passed|gave|rotated)\s+(?P<thing>.{0,60}?)\s*(?:\b(?:off|over|on|out)\b|\bto\b))"
)
_LET_GO = re.compile(rf"\blet\s+(?P<who>{_NAME})(?:['’]s\s+\w+)?\s+go\b")
# a successor named: "Brightline took over from Harriet", "Stripe replaced Adyen"
_SUCCEEDED = re.compile(
    rf"\b(?:took|take|takes|taking|has taken|have taken)\s+over\s+from\s+(?P<who>{_NAME})"
    rf"|\b(?:replaced|replacing|replaces|succeeded|succeeding|succeeds)\s+(?P<was>{_NAME})"
    r"(?:\s+as\s+(?P<role>(?:the\s+|our\s+)?[\w-]+(?:\s+[\w-]+)?))?"
)
_HOLDER_BEFORE = re.compile(
    r"(?:\b(?:by|to|from|under|with|is|are|was)\s+(?:the\s+|our\s+|my\s+)?|,\s*)$", re.IGNORECASE
)
_HOLDER_AFTER = re.compile(
    r"^\s+(?:manages|leads|heads|runs|owns|chairs|coaches|supervises|maintains|looks after"
    r"|handles|covers|oversees|(?:is|are)\s+(?:the\s+|our\s+|an?\s+)?(?:[\w-]+\s+){0,3}?"
    rf"(?:{'|'.join(sorted(set(ROLES) | _HOLDER_NOUNS, key=len, reverse=True))})\b)"
)

# the patterns the rule needs in the new fact's clause: none matches, the rule cannot fire
HANDED_OVER_CUES = (_DEPARTED, _LET_GO, _SUCCEEDED)


def _departed(clause: str) -> tuple[str, str] | None:
    """The one a clause says left, and what they handed over (or "")."""
    m = _DEPARTED.match(clause)
    if m is not None:
        who = m["who"]
        if who.split()[0].lower() in ("the", "our", "my", "we", "i", "they", "it"):
            return None
        lead = clause[: m.start("who")].split()
        if lead and lead[-1][:1].isupper() and lead[-1].isalpha():
            who = f"{lead[-1]} {who}"  # "Daniel Brooks left": the whole name, not "Brooks"
        return who, head(m["thing"] or "")
    let = _LET_GO.search(clause)
    if let is not None:
        return let["who"], ""
    after = _SUCCEEDED.search(clause)
    if after is None:
        return None
    return after["who"] or after["was"], after["role"] or ""


def holds(who: str, old: str) -> bool:
    """``old`` names ``who`` in a holder's place (see the module docstring)."""
    names = [re.escape(who)]
    bare = re.sub(r"^(?:Prof|Dr|Mr|Mrs|Ms|Mx)\.?\s+", "", who)
    names += [re.escape(bare.split()[0])] if bare.split() else []
    for name in names:
        for m in re.finditer(rf"\b{name}\b", old):
            before, after = old[: m.start()], old[m.end() :]
            if _HOLDER_BEFORE.search(before) or (not before.strip() and _HOLDER_AFTER.match(after)):
                return True
            if (
                re.match(r"^(?:\s+[A-Z][\w'’-]*)*\s+(?:is|manages|leads)\b", after)
                and not before.strip()
            ):
                return True
    return False


def handed_over(clause: str, old: str) -> Change | None:
    """The change when ``clause`` says the holder named in ``old`` left, or None."""
    found = _departed(clause)
    if found is None:
        return None
    who, thing = found
    if not holds(who, old):
        return None
    if thing and not (terms(thing) - LIGHT) & terms(old):
        return None  # "Emeka handed the keys over" says nothing of the dashboard he keeps
    return Change("holder", f"{who!r} no longer holds it")
