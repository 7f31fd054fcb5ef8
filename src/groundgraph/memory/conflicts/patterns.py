"""The anchored patterns behind ``memory.conflicts.rules``: one per way of stating a claim.

``claim_rules()`` lists (rule, pattern) in the order they are tried on a clause. Each
pattern is anchored at the clause start and may trail a time or reason phrase ("this
week", "since March", "because ..."); ``subj`` is the subject's group and ``val`` the
value's, whatever the word order; other groups (``attr``, ``role``, ``verb``, ``status``,
``unit``) say which attribute. ``rules._claims_for`` turns a match into claims.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from groundgraph.memory.conflicts.lexicon import ATTRIBUTES, DATE_VERBS, ROLES
from groundgraph.memory.conflicts.values import STATUS


def _alternation(words: Iterable[str]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


# ---- pattern pieces --------------------------------------------------------------------

_S = r"(?P<subj>[^,;:]+?)"
_V = r"(?P<val>[^;:]+?)"
_NOW = r"(?:(?:now|still|currently|recently|just|finally|officially|already|also)\s+)*"
_IS = r"(?:is|are|has been|have been|will be|remains?|stays?)"
_MODS = r"(?:(?:new|current|acting|interim|latest|updated|revised)\s+)?"
_POSS = r"(?:'s|’s|s'|s’)"
_TIMES = "week|month|year|quarter|spring|summer|autumn|fall|winter|weekend"
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
# What may follow a value and is not part of it: "since May", "now", "last week", "in 2024".
_TRAIL = (
    r"(?P<trail>(?:,?\s+(?:since|as of|from|until|till|starting|effective|following|after"
    r"|because|due to|according to)\b.*|,?\s+(?:now|again|today|yesterday|currently"
    r"|indefinitely|permanently|temporarily|for now|for good|until further notice|anymore"
    rf"|already|too|as well|instead|(?:this|last|next|earlier this) (?:{_TIMES}))"
    rf"|\s+(?:in|on|during|by)\s+(?:early |late |mid-)?(?:{_MONTHS}|\d{{4}})\b.*)*)"
    r"\s*[.!]?\s*$"
)
_CHANGE = r"(?:rose|fell|increased|decreased|dropped|grew|climbed|jumped|went up|went down)"
_SET = r"(?:raised|cut|increased|reduced|lowered|set|changed|moved|updated)"
_ATTR_VERB = (
    rf"(?:{_IS}(?:\s+now)?|is now|stands at|{_CHANGE} to|(?:was|has been|have been) {_SET} to"
    r"|became|has become)"
)
_ROLE_WORDS = _alternation(ROLES)
_ATTR_WORDS = _alternation([*ATTRIBUTES, *ROLES])
_STATUS_WORDS = _alternation(STATUS)
_MOVED = (
    r"(?:(?:has|have|was|were|has been|have been|will be)\s+)?(?:moved|relocated)"
    r"(?:\s+(?:its|their|his|her)\s+(?:headquarters|offices?|base|home|operations))?"
    r"(?:\s+from\s+[^,;]+?)?\s+to"
)
_LOCATION_VERBS = (
    rf"(?:{_IS}\s+{_NOW}(?:based|located|headquartered|situated|registered|stationed|settled)"
    rf"\s+(?:in|at|out of)|(?:lives?|resides?)\s+in|(?:is|are)\s+(?:living|residing)\s+in"
    rf"|{_MOVED}|(?:is|are|will be)\s+(?:moving|relocating)\s+to|(?:is|are)\s+now\s+(?:in|at)"
    # German, French, Spanish, Dutch
    r"|(?:wohnt|wohnen|lebt|leben|sitzt)(?:\s+(?:jetzt|nun|inzwischen|mittlerweile))?\s+in"
    r"|zog\s+nach|(?:habite|habitent|vit|vivent|réside)(?:\s+(?:maintenant|désormais"
    r"|actuellement))?\s+(?:à|en|au)|(?:a|ont)\s+(?:déménagé|emménagé)\s+(?:à|en|au)"
    r"|s'est\s+installée?\s+(?:à|en|au)|(?:est|sont)\s+(?:basée?s?|située?s?)\s+(?:à|en|au)"
    r"|(?:vive|viven|reside|residen)(?:\s+(?:ahora|actualmente))?\s+en|se\s+mud(?:ó|aron)\s+a"
    r"|(?:tiene|tienen)\s+su\s+sede\s+en|(?:woont|wonen)(?:\s+(?:nu|inmiddels))?\s+in"
    r"|(?:is|zijn)\s+verhuisd\s+naar|verhuisde\s+naar|(?:is|zijn)\s+gevestigd\s+in)"
)
_ROLE_VERB = (
    r"(?P<verb>manages|manage|supervises|supervise|leads|lead|heads|head|owns|own|chairs"
    r"|chair|coaches|coach|managing|leading|heading)"
)
# "leads to", "heads for": a cause or a direction, not a role
_OBJECT = r"(?!(?:to|for|into|towards|toward|up|off|out|back|home)\b)(?P<subj>[^,;:]+?)"
_PASSIVE = (
    rf"(?:(?:is|are|has been|have been|will be)\s+{_NOW}(?P<verb>managed|led|headed|owned"
    r"|supervised|chaired|coached|run)|(?:is|are|was|were|has been|have been)\s+"
    rf"{_NOW}(?P<event>acquired|bought|purchased))"
)
_APPOINTED = (
    rf"(?:{_IS}|became|has become|is now|(?:was|has been|is)\s+(?:named|appointed|elected"
    r"|made|promoted to))"
)
_EMPLOYED = (
    r"(?:(?:works|work|is working|are working)\s+(?:at|for)|(?:is|are)\s+(?:now\s+)?"
    r"(?:employed|hired)\s+(?:by|at)|(?:is|are)\s+(?:now\s+)?(?:an?|the)\s+[\w-]+"
    r"(?:\s+[\w-]+)?\s+at)"
)
_SCHEDULED = (
    r"(?P<how>scheduled|planned|set|slated|booked|expected|due|moved|rescheduled|postponed"
    r"|delayed|pushed back|pushed|brought forward|fixed|confirmed)"
)
_HAPPENS = (
    r"(?:takes place|take place|will take place|happens|will happen|occurs|is held|are held"
    r"|will be held|falls)"
)
_COUNT = (
    r"(?P<val>(?:(?:about|around|roughly|approximately|nearly|almost) )?[$€£]?[\d.,]+"
    r"(?:\s+(?:thousand|million|billion))?|no|zero|one|two|three|four|five|six|seven|eight"
    r"|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|a dozen|a hundred)"
)


def _p(pattern: str) -> re.Pattern[str]:
    return re.compile("^" + pattern + _TRAIL, re.IGNORECASE)


# (rule, pattern) in the order they are tried; ``_claims_for`` reads each rule's groups.
# ``subj`` is the subject of the attribute and ``val`` its value, whatever the word order.
@cache
def claim_rules() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(rule, pattern) in the order they are tried, compiled on first use: the 28 patterns
    take tens of milliseconds to compile, which a process that never checks a claim (a
    cold ``groundgraph search``) should not pay."""
    return (
        ("possessive", _p(rf"{_S}{_POSS}\s+{_MODS}(?P<attr>{_ATTR_WORDS})\s+{_ATTR_VERB}\s+{_V}")),
        (
            "possessive",
            _p(rf"the\s+{_MODS}(?P<attr>{_ATTR_WORDS})\s+(?:of|for)\s+{_S}\s+{_ATTR_VERB}\s+{_V}"),
        ),
        (
            "possessive",
            _p(rf"{_S}\s+(?:has|have)\s+an?\s+{_MODS}(?P<attr>{_ATTR_WORDS})\s+of\s+{_V}"),
        ),
        ("measure", _p(rf"{_S}\s+{_ATTR_VERB}\s+{_V}")),
        (
            "role-of",
            _p(
                rf"(?P<val>[^,;:]+?)\s+{_APPOINTED}\s+(?:now\s+)?(?:as\s+)?(?:the\s+)?{_MODS}"
                rf"(?P<role>{_ROLE_WORDS})\s+(?:of|for|at)\s+(?P<subj>[^,;:]+?)"
            ),
        ),
        (
            "role-verb",
            _p(rf"(?P<val>[^,;:]+?)\s+{_NOW}(?:is\s+|are\s+)?{_ROLE_VERB}\s+{_OBJECT}"),
        ),
        ("role-passive", _p(rf"{_S}\s+{_PASSIVE}\s+by\s+{_V}")),
        (
            "role-verb",
            _p(
                rf"{_S}(?:\s+{_NOW}(?:is|are|am)|['’](?:s|m|re))?\s+{_NOW}"
                rf"(?P<verb>reports|report|reporting|answers|answer|answering)\s+"
                rf"(?:directly\s+)?(?:up\s+)?(?:to|into|through)\s+{_V}"
            ),
        ),
        ("role-verb", _p(rf"{_S}\s+{_NOW}works\s+(?P<verb>under)\s+{_V}")),
        (
            "role-verb",
            _p(rf"{_S}\s+(?:(?:is|are|got)\s+{_NOW})?(?P<verb>married)\s+(?:to\s+)?{_V}"),
        ),
        (
            "date",
            _p(
                rf"{_S}\s+(?:{_IS}|was|were|got)\s+{_NOW}{_SCHEDULED}\s+(?:for|on|to|until|till|at|in|by)\s+{_V}"
            ),
        ),
        ("date", _p(rf"{_S}\s+(?:is|are)\s+{_NOW}(?P<how>due)\s+{_V}")),
        ("date", _p(rf"{_S}\s+{_NOW}{_HAPPENS}\s+(?:on|in|at)?\s*{_V}")),
        ("date", _p(rf"{_S}\s+{_NOW}(?P<which>{_alternation(DATE_VERBS)})\s+(?:on|in|at)?\s*{_V}")),
        ("location", _p(rf"{_S}\s+{_NOW}{_LOCATION_VERBS}\s+{_V}")),
        ("location", _p(rf"{_S}\s+{_NOW}(?:calls?)\s+(?P<val>[A-Z][^;:,]*?)\s+home")),
        (
            "location",
            _p(rf"{_S}\s+(?:ist|sind)\s+(?:jetzt\s+|nun\s+)?nach\s+{_V}\s+(?:um)?gezogen"),
        ),
        ("location", _p(rf"{_S}\s+(?:is|zijn)\s+(?:nu\s+)?naar\s+{_V}\s+verhuisd")),
        ("left", _p(rf"{_S}\s+{_NOW}(?:has\s+|have\s+)?(?:left|quit|resigned from)\s+{_V}")),
        ("employer", _p(rf"{_S}\s+{_NOW}{_EMPLOYED}\s+{_V}")),
        ("joined", _p(rf"{_S}\s+{_NOW}(?:has\s+|have\s+)?joined\s+{_V}")),
        ("works-in", _p(rf"{_S}\s+{_NOW}(?:works|work|is working|are working)\s+in\s+{_V}")),
        (
            "status",
            _p(
                rf"{_S}\s+(?P<aux>is|are|was|were|has been|have been|will be|got|remains?|stays?"
                rf"|has|have)?\s*{_NOW}(?P<status>{_STATUS_WORDS})"
                r"(?:\s+(?:for|in|across)\s+[^,;]{1,60}?)?"
            ),
        ),
        (
            "price",
            _p(rf"{_S}\s+{_NOW}(?:costs?|(?:is|are) priced at|sells? for|retails? for)\s+{_V}"),
        ),
        (
            "count",
            _p(
                rf"{_S}\s+{_NOW}(?P<verb>has|have|employs|employ)\s+{_COUNT}\s+(?P<unit>[^\W\d_][\w-]*)"
            ),
        ),
        (
            "age",
            _p(
                rf"{_S}\s+(?:is|turned|has turned|will turn)\s+{_NOW}(?P<val>\d{{1,3}})"
                r"(?P<old>\s+years?\s+old|-year-old)?"
            ),
        ),
        ("weight", _p(rf"{_S}\s+{_NOW}(?:weighs|weigh)\s+{_V}")),
        (
            "value",
            _p(
                rf"{_S}\s+(?:(?:has|have)\s+)?{_NOW}(?:{_CHANGE}|risen|fallen|stands|is)\s+(?:at|to)\s+{_V}"
            ),
        ),
        ("presence", _p(rf"{_S}\s+(?:is|are|will be)\s+{_NOW}(?P<prep>in|at|on)\s+{_V}")),
    )
