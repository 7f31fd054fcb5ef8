"""Values of single-valued attributes, and when two of them disagree.

A claim's value is a place, a person or thing, a status, a date or a number. Two values
disagree only when the rules can tell: "Berlin" and "Berlin, Germany" agree (one names
the other), "Munich" and "Germany" are not compared (a city may lie in a country, and
no gazetteer of cities ships here), "March" and "March 3" agree, "Friday" and "June 2" are
not compared, statuses are grouped ("done" and "resolved" agree), "$1.2 million" and
"1,200,000 dollars" agree, "about 40" and "42" agree (approximate values get 10% slack).
When in doubt the answer is "no conflict": a missed update costs less than a fact wrongly
retired.
"""

from __future__ import annotations

import re
from typing import Literal

from groundgraph.ingest.entities.normalise import normalise_entity

ValueKind = Literal["name", "place", "status", "date", "number"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_DETERMINERS = _words("the a an our my your his her their its this that")


def value_key(text: str) -> str:
    """The comparable form of a name: normalised, leading determiners dropped."""
    words = text.split()
    while len(words) > 1 and words[0].lower() in _DETERMINERS:
        words = words[1:]
    return normalise_entity(" ".join(words))


# ---- places: a country or a continent is never compared with something finer --------

_CONTINENT_NAMES = (
    {"europe", "asia", "africa", "north america", "south america", "latin america"}
    | {"oceania", "antarctica", "australasia", "middle east", "eu", "european union"}
    | {"scandinavia", "southeast asia", "central america", "caribbean", "balkans", "america"}
)
_COUNTRY_NAMES = (
    _words(
        """afghanistan albania algeria argentina armenia australia austria azerbaijan bangladesh
    belarus belgium bolivia bosnia brazil bulgaria cambodia cameroon canada chile china
    colombia croatia cuba cyprus czechia denmark ecuador egypt england estonia ethiopia
    finland france georgia germany ghana greece guatemala hungary iceland india indonesia
    iran iraq ireland israel italy jamaica japan jordan kazakhstan kenya korea kosovo kuwait
    latvia lebanon libya lithuania luxembourg malaysia mali malta mexico moldova monaco
    mongolia montenegro morocco mozambique myanmar namibia nepal netherlands holland nigeria
    norway oman pakistan panama paraguay peru philippines poland portugal qatar romania
    russia rwanda scotland senegal serbia singapore slovakia slovenia somalia spain
    sudan sweden switzerland syria taiwan tanzania thailand tunisia turkey türkiye uganda
    ukraine uruguay uzbekistan venezuela vietnam wales yemen zambia zimbabwe deutschland
    frankreich spanien niederlande italien españa espagne allemagne"""
    )
    | {"united states", "united kingdom", "usa", "us", "uk", "south africa", "new zealand"}
    | {"saudi arabia", "south korea", "north korea", "czech republic", "sri lanka"}
    | {"costa rica", "united arab emirates", "uae", "dominican republic", "el salvador"}
)
# keys as value_key makes them ("United States" → "united state")
_CONTINENTS = frozenset(normalise_entity(name) for name in _CONTINENT_NAMES)
_COUNTRIES = frozenset(normalise_entity(name) for name in _COUNTRY_NAMES)


def place_level(key: str) -> int:
    """2 for a continent or region, 1 for a country, 0 for anything finer or unknown."""
    if key in _CONTINENTS:
        return 2
    return 1 if key in _COUNTRIES else 0


def _names_differ(a: str, b: str) -> bool:
    ka, kb = value_key(a), value_key(b)
    if not ka or not kb or ka == kb:
        return False
    ta, tb = set(ka.split()), set(kb.split())
    return not (ta <= tb or tb <= ta)  # "Berlin" names part of "Berlin Germany"


def _places_differ(a: str, b: str) -> bool:
    if place_level(value_key(a)) != place_level(value_key(b)):
        return False  # a city and a country, or a country and a continent
    return _names_differ(a, b)


# ---- statuses: words grouped by the attribute they set ---------------------------------

_STATUS_GROUPS = {
    "lifecycle/active": "active|ongoing|running|in progress|underway|under way|live|open|"
    "in operation|in use|in production|reopened|resumed|launched|went live",
    "lifecycle/planned": "planned|pending|proposed|upcoming|in planning|draft|in draft",
    "lifecycle/done": "completed|complete|finished|done|closed|ended|over|resolved|fixed|"
    "delivered|shipped",
    "lifecycle/cancelled": "cancelled|canceled|called off|scrapped|abandoned|terminated|"
    "dropped|discontinued|axed",
    "lifecycle/paused": "on hold|paused|suspended|frozen|halted|stalled|on ice|shelved|blocked",
    "lifecycle/retired": "deprecated|archived|retired|decommissioned|sunset|end of life|"
    "obsolete|shut down|closed down|defunct|dissolved|out of business",
    "approval/approved": "approved|accepted|signed off|greenlit|green-lit",
    "approval/rejected": "rejected|denied|declined|refused|turned down",
    "availability/up": "up|online|available|reachable|operational|healthy|back online|"
    "back up|came back online|came back up",
    "availability/down": "down|offline|unavailable|unreachable|out of service|out of order|"
    "broken|degraded|failing|went down|went offline",
    "schedule/late": "delayed|late|behind schedule|overdue|postponed",
    "schedule/on-time": "on track|on schedule|on time|ahead of schedule",
    "switch/on": "enabled|switched on|turned on",
    "switch/off": "off|disabled|switched off|turned off",
    "presence/away": "on leave|on parental leave|on maternity leave|on paternity leave|"
    "on sick leave|on sabbatical|away",
    "presence/back": "back at work|back in the office|back from leave",
    "stock/in": "in stock",
    "stock/out": "out of stock|sold out",
}
STATUS = {word: group for group, words in _STATUS_GROUPS.items() for word in words.split("|")}
# states that end one lifecycle and are often reported together ("completed" and "archived")
_COMPATIBLE = {frozenset({"lifecycle/done", "lifecycle/retired"})}
_COMPATIBLE.add(frozenset({"lifecycle/cancelled", "lifecycle/retired"}))


def statuses_compatible(a: str, b: str) -> bool:
    """True when two canonical statuses of one attribute can hold together."""
    return a == b or frozenset({a, b}) in _COMPATIBLE


# ---- dates: compare only the parts both values name ------------------------------------

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            "january jan januar janvier enero januari ocak",
            "february feb februar février febrero februari şubat",
            "march mar märz mars marzo maart mart",
            "april apr avril abril nisan",
            "may mai mayo mei mayıs",
            "june jun juni juin junio haziran",
            "july jul juli juillet julio temmuz",
            "august aug août agosto augustus ağustos",
            "september sep sept septembre septiembre eylül",
            "october oct oktober octobre octubre ekim",
            "november nov novembre noviembre kasım",
            "december dec dezember décembre diciembre aralık",
        ],
        start=1,
    )
    for name in names.split()
}
_WEEKDAYS = {
    name: number
    for number, names in enumerate(
        [
            "monday montag lundi lunes maandag pazartesi",
            "tuesday dienstag mardi martes dinsdag salı",
            "wednesday mittwoch mercredi miércoles woensdag çarşamba",
            "thursday donnerstag jeudi jueves donderdag perşembe",
            "friday freitag vendredi viernes vrijdag cuma",
            "saturday samstag samedi sábado zaterdag cumartesi",
            "sunday sonntag dimanche domingo zondag pazar",
        ]
    )
    for name in names.split()
}
_RELATIVE = re.compile(
    r"\b(today|tonight|tomorrow|yesterday|noon|midnight|"
    r"(?:next|this|last) (?:week|month|year|quarter|weekend)|end of (?:the )?(?:week|month|year))\b"
)
_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_YEAR = re.compile(r"\b(1[89]\d\d|2[01]\d\d)\b")
_QUARTER = re.compile(r"\bq([1-4])\b")
_TIME = re.compile(r"\b(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|uhr|h)\b|\b(\d{1,2}):(\d{2})\b")
_DAY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th|\.)?\b")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_EDGES = frozenset(["mid", "early", "late", "end"])


def _date_words(low: str) -> list[str]:
    """The words of ``low``; a hyphenated word counts only when all of it is about dates
    ("mid-august", "monday-friday"), so a name such as "mei-ling" holds no month."""
    out: list[str] = []
    for word in _WORD.findall(low):
        parts = word.split("-")
        dated = [p for p in parts if p in _MONTHS or p in _WEEKDAYS or p[:-1] in _WEEKDAYS]
        if len(parts) == 1 or len(dated) == len([p for p in parts if p not in _EDGES]):
            out.extend(p for p in parts if p not in _EDGES or len(parts) == 1)
    return out


def date_parts(text: str) -> dict[str, int | str]:
    """The parts a date names: year, month, day, weekday, quarter, hour, minute, relative."""
    low = text.lower()
    parts: dict[str, int | str] = {}
    iso = _ISO.search(low)
    if iso:
        parts.update(year=int(iso[1]), month=int(iso[2]), day=int(iso[3]))
        low = low.replace(iso[0], " ")
    time = _TIME.search(low)
    if time:
        hour = int(time[1] or time[4])
        minute = int(time[2] or time[5] or 0)
        if time[3] == "pm" and hour < 12:
            hour += 12
        parts.update(hour=hour, minute=minute)
        low = low.replace(time[0], " ")
    words = _date_words(low)
    month = next((_MONTHS[w] for w in words if w in _MONTHS), None)
    if month is not None and "month" not in parts:
        parts.setdefault("month", month)
        day = _DAY.search(_YEAR.sub(" ", low))
        if day and 1 <= int(day[1]) <= 31:
            parts.setdefault("day", int(day[1]))
    weekday = next((_WEEKDAYS[w] for w in words if w in _WEEKDAYS), None)
    if weekday is None:  # "on Thursdays"
        weekday = next((_WEEKDAYS[w[:-1]] for w in words if w[:-1] in _WEEKDAYS), None)
    if weekday is not None:
        parts["weekday"] = weekday
    if (year := _YEAR.search(low)) is not None:
        parts.setdefault("year", int(year[1]))
    if (quarter := _QUARTER.search(low)) is not None:
        parts["quarter"] = int(quarter[1])
    elif isinstance(month_number := parts.get("month"), int):
        parts["quarter"] = (month_number - 1) // 3 + 1
    if (relative := _RELATIVE.search(low)) is not None:
        parts["relative"] = relative[1]
    return parts


def _dates_differ(a: str, b: str) -> bool:
    pa, pb = date_parts(a), date_parts(b)
    shared = (pa.keys() & pb.keys()) - {"relative"}
    if shared:
        return any(pa[k] != pb[k] for k in shared)
    if "relative" in pa and "relative" in pb and len(pa) == len(pb) == 1:
        return pa["relative"] != pb["relative"]
    return False


def looks_like_date(text: str) -> bool:
    """True when ``text`` names a year, month, weekday, quarter, time or relative day."""
    return bool(date_parts(text))


# ---- numbers ---------------------------------------------------------------------------

_DIGIT_WORDS = "zero one two three four five six seven eight nine ten eleven twelve"
_NUMBER_WORDS = {word: value for value, word in enumerate(_DIGIT_WORDS.split())}
_NUMBER_WORDS |= {"no": 0, "none": 0, "a dozen": 12, "twenty": 20, "thirty": 30, "forty": 40}
_NUMBER_WORDS |= {"fifty": 50, "sixty": 60, "a hundred": 100, "hundred": 100}
_SCALE = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "million": 1e6,
    "millions": 1e6,
    "bn": 1e9,
    "b": 1e9,
    "billion": 1e9,
    "trillion": 1e12,
}
_CURRENCY = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy", "usd": "usd", "eur": "eur"}
_CURRENCY |= {"dollar": "usd", "dollars": "usd", "euro": "eur", "euros": "eur"}
_CURRENCY |= {"pound": "gbp", "pounds": "gbp", "gbp": "gbp", "yen": "jpy"}
_CURRENCY |= {"bucks": "usd", "quid": "gbp"}
_APPROX = re.compile(r"^(?:about|around|roughly|approximately|nearly|almost|some|~|circa|ca\.?)\s*")
_INEXACT = re.compile(
    r"^(?:more than|less than|over|under|at least|at most|up to|fewer than|between|"
    r"above|below|over|mehr als|weniger als|plus de|moins de|más de|menos de)\b"
)
_NUMBER = re.compile(
    r"^(?P<cur>[$€£¥])?\s*(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|"
    + "|".join(sorted((re.escape(w) for w in _NUMBER_WORDS), key=len, reverse=True))
    + r")(?:\s*(?P<scale>k|m|mn|bn|b|thousand|million|millions|billion|trillion)\b)?"
    r"\s*(?P<pct>%|percent|per cent)?\s*(?P<curword>[a-z$€£¥]+)?"
)


def parse_number(text: str) -> tuple[float, str, bool] | None:
    """``(value, unit, approximate)`` of a number such as "$1.2 million" or "about 40 %".

    None for text that does not start with a number, and for bounds ("more than 5"),
    which are not exact values to compare.
    """
    low = text.strip().lower()
    if _INEXACT.match(low):
        return None
    approximate = bool(_APPROX.match(low))
    low = _APPROX.sub("", low)
    match = _NUMBER.match(low)
    if match is None:
        return None
    raw = match["n"]
    value = float(_NUMBER_WORDS[raw]) if raw in _NUMBER_WORDS else float(raw.replace(",", ""))
    if match["scale"]:
        value *= _SCALE[match["scale"]]
    unit = "%" if match["pct"] else _CURRENCY.get(match["cur"] or match["curword"] or "", "")
    return value, unit, approximate


def _numbers_differ(a: str, b: str) -> bool:
    na, nb = parse_number(a), parse_number(b)
    if na is None or nb is None:
        return False
    (va, ua, approx_a), (vb, ub, approx_b) = na, nb
    if ua and ub and ua != ub:
        return False  # "$10" and "9 euros" may be the same price
    slack = 0.1 if approx_a or approx_b else 1e-9
    return abs(va - vb) > slack * max(abs(va), abs(vb), 1e-12)


def values_differ(kind: ValueKind, a: str, b: str) -> bool:
    """True when two values of one attribute cannot both hold."""
    if kind == "place":
        return _places_differ(a, b)
    if kind == "date":
        return _dates_differ(a, b)
    if kind == "number":
        return _numbers_differ(a, b)
    if kind == "status":
        return not statuses_compatible(a, b)
    return _names_differ(a, b)
