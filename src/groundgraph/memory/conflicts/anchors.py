"""What two facts share, for the change rules: content words, typed values, name slots.

``terms(text)`` are the content words of a fact, stemmed and cut to six letters so that
word families meet ("allergic" and "allergy", "subscribe" and "subscription"), with the
speaker and pronouns left out and the initials of capitalised runs added ("New York
Times" → "nyt"). ``about(theme, old)`` says whether an old fact is about a theme (its head
word, passing over light nouns such as "team" or "week"). ``typed_difference`` compares
the numbers with units and the dates two facts name; ``slot_names`` lists capitalised
words with the words around them ("the Lisbon office", "Prof. Kowalski").
"""

from __future__ import annotations

import functools
import re

from groundgraph.memory.conflicts.nonchange import scope_terms
from groundgraph.memory.conflicts.values import date_parts
from groundgraph.text import Analyzer

PREFIX = 6  # stems are compared on their first six letters ("allergic" ~ "allergy")
ANALYZER = Analyzer("english")
SPEAKER = frozenset(
    [
        "i",
        "me",
        "my",
        "mine",
        "myself",
        "we",
        "us",
        "our",
        "ours",
        "you",
        "your",
        "user",
        "ve",
        "ll",
        "re",
        "s",
        "d",
        "m",
        "t",
        "he",
        "she",
        "him",
        "his",
        "her",
        "they",
        "them",
        "their",
        "it",
        "its",
        "now",
        "just",
        "finally",
        "still",
        "already",
        "currently",
        "recently",
        "anymore",
        "today",
        "yesterday",
        "new",
    ]
)

# ---- words ---------------------------------------------------------------------------

_CAPS = re.compile(r"\b[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)+")


_TOKEN = re.compile(r"[^\W_]+")


def _an_acronym(word: str) -> bool:
    return len(word) > 1 and word.isupper()  # "IT" is a department, not "it"


def key(stem: str) -> str:
    return stem[:PREFIX]


@functools.lru_cache(maxsize=8192)
def terms(text: str) -> frozenset[str]:
    """Content-word keys of ``text``: stemmed, cut to six letters, pronouns and the
    speaker left out, and the initials of every run of capitalised words ("New York
    Times" → "nyt")."""
    tokens = _TOKEN.findall(text)
    kept = [w.lower() for w in tokens if w.lower() not in SPEAKER]
    found = {key(t) for t in ANALYZER.terms_of(kept)}
    found |= {w.lower() for w in tokens if _an_acronym(w)}
    for run in _CAPS.finditer(text):
        initials = "".join(w[0] for w in run[0].split()).lower()
        if len(initials) >= 3:
            found.add(initials)
    return frozenset(found)


SPEAKER_TERMS = frozenset()
_UNIT_NUMBER = re.compile(
    r"(?P<cur>[$€£¥])\s*(?P<n>\d[\d,]*(?:\.\d+)?)|(?P<m>\d[\d,]*(?:\.\d+)?)\s*-?\s*"
    r"(?P<unit>%|°\s?[cf]?|[a-z]+\b)",
    re.IGNORECASE,
)
_UNITS = {
    "mb": "mb", "gb": "gb", "kb": "kb", "tb": "tb", "kg": "kg", "kgs": "kg", "lb": "lb",
    "lbs": "lb", "mg": "mg", "g": "g", "km": "km", "miles": "mile", "mile": "mile",
    "minutes": "min", "minute": "min", "min": "min", "mins": "min", "hours": "hour",
    "hour": "hour", "days": "day", "day": "day", "week": "week", "weeks": "week",
    "people": "person", "person": "person",
    "employees": "person", "staff": "person", "members": "member", "degrees": "degree",
    "°": "degree", "°c": "degree", "°f": "degree-f", "%": "%", "percent": "%",
    "req": "request", "requests": "request", "users": "user", "seats": "seat",
}  # fmt: skip


# light nouns: they name a part of almost anything, so they anchor nothing on their own
LIGHT = frozenset(
    key(ANALYZER.stem(w))
    for w in [
        "team",
        "group",
        "office",
        "company",
        "day",
        "week",
        "month",
        "year",
        "quarter",
        "time",
        "people",
        "thing",
        "part",
        "side",
        "place",
        "way",
        "lot",
        "end",
        "start",
        "number",
        "kind",
        "type",
    ]
)


_EDGE = ",;:!?()[]\"'“”‘’"
_VERB_LIKE = re.compile(r"^[a-z]+(?:[^s']s|ed)$")  # "costs", "runs", "moved": not a noun's head


def _words_of(text: str) -> list[tuple[str, bool]]:
    """The words of ``text`` with whether a phrase boundary (punctuation) follows each."""
    out = []
    for token in text.split():
        word = token.strip(_EDGE).rstrip(".")
        if word:
            out.append((word, token[-1:] in _EDGE + "."))
    return out


def _named(word: str) -> bool:
    """A name or a number: capitalised, or holding a digit ("Q1", "2.0", "4B", "#2291");
    not a date word ("Friday", "May 3"), which names a time, not a thing."""
    if not (word[:1].isupper() or any(ch.isdigit() for ch in word)):
        return False
    return not date_parts(word) and word.lower() not in SPEAKER


def same_occasion(theme: str, sentence: str, old: str) -> bool:
    """An ended thing named by its date and its place or host: "cancelled my Friday slot"
    in a sentence naming "Autohaus Meyer" against "Car service booked at Autohaus Meyer
    for Friday": the date agrees and a name of the sentence is in the old fact."""
    if typed_difference(theme, old) != "same" or not date_parts(theme):
        return False
    old_terms = terms(old)
    words = [w for w, _ in _words_of(sentence)][1:]
    return any(_named(w) and w[:1].isupper() and terms(w) <= old_terms for w in words if terms(w))


_AUXILIARIES = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "has",
        "have",
        "had",
        "get",
        "gets",
        "got",
    ]
)
_OPENERS = frozenset(
    [
        "the",
        "a",
        "an",
        "my",
        "our",
        "your",
        "his",
        "her",
        "their",
        "its",
        "of",
        "for",
        "to",
        "in",
        "on",
        "at",
        "all",
        "this",
        "that",
        "these",
        "those",
        "every",
        "each",
        "some",
        "any",
        "off",
        "from",
        "into",
        "onto",
        "with",
    ]
)


def _has_digit(word: str) -> bool:
    return any(ch.isdigit() for ch in word)


def _ident(word: str) -> str:
    """A number or code as compared: "v2.0" and "2.0" are one, "#2291" and "2291" too."""
    return re.sub(r"^v(?=\d)", "", word.lower().lstrip("#@"))


def _idents(text: str) -> frozenset[str]:
    return frozenset(_ident(w) for w, _ in _words_of(text) if _has_digit(w))


@functools.lru_cache(maxsize=8192)
def heads(text: str) -> frozenset[str]:
    """Keys of the words that end a noun phrase in ``text``: a word with no content word
    after it (or only a verb-like one, "plan costs", or a light noun, "support team"), any
    word of a name, any number. "project" in "the Atlas project lead" is no head; "lead"
    is, and "Ticket" in "Ticket PAY-812" is none either."""
    words = _words_of(text)
    out: set[str] = set()
    for i, (word, boundary) in enumerate(words):
        following = words[i + 1][0] if i + 1 < len(words) else ""
        last = word.split("-")[-1]
        nxt = following.split("-")[0]
        content = terms(following) - frozenset(SPEAKER)
        modifier = (
            not boundary
            and bool(content - LIGHT)
            and not _VERB_LIKE.match(nxt)
            and nxt.lower() not in _OPENERS | _AUXILIARIES
        )
        previous = words[i - 1][0].lower() if i else ""
        if previous in _AUXILIARIES and re.search(r"(?:ed|en|ing)$", word.lower()):
            continue  # "are managed in": a verb, not a head
        run = following[:1].isupper() and not _has_digit(following)  # "Hendricks Logistics"
        if _has_digit(following) and not _has_digit(word):
            modifier = False  # "plot 14", "room B214": the code names the thing
        if ((i or run) and _named(word)) or not modifier:
            out |= terms(last) | (terms(word) if _named(word) else frozenset())
    return frozenset(out)


def _modifiers_of(head_key: str, text: str) -> set[str]:
    """The names or codes just before a lowercase ``head_key`` in ``text`` ("Spotify" of
    "the Spotify bill", "v2.0" of "the v2.0 release"): they say which one of its kind it
    is. A capitalised head is a name, and the words before it are the rest of the name."""
    words = _words_of(text)
    found: set[str] = set()
    for i, (word, _) in enumerate(words):
        if head_key in terms(word.split("-")[-1]) and not word[:1].isupper():
            for before, boundary in reversed(words[max(0, i - 2) : i]):
                if boundary or not _named(before) or (i and before == words[0][0]):
                    break
                found |= {_ident(before)} if _has_digit(before) else set(terms(before))
    return found


# what one holds with a provider: ending it ends the use of that provider
_SERVICE = frozenset(
    key(ANALYZER.stem(w))
    for w in [
        "account",
        "plan",
        "subscription",
        "contract",
        "seats",
        "licence",
        "license",
        "membership",
        "organisation",
        "organization",
        "org",
        "instance",
        "workspace",
        "tenancy",
        "policy",
    ]
)


def _names_in(words: list[str]) -> frozenset[str]:
    """Keys of the names among ``words``: capitalised, or a brand with a digit ("1Password"),
    not a bare number or code."""
    return frozenset().union(
        *(
            terms(w)
            for w in words
            if _named(w) and (not _has_digit(w) or (re.search(r"[A-Z][a-z]{2,}", w)))
        )
    )


_ADJUNCT = re.compile(
    r"\b(?:next to|alongside|besides|as well as|along with|together with|on top of|apart from)\b",
    re.IGNORECASE,
)


def plain_modifiers(head: frozenset[str], text: str) -> set[str]:
    """The content words just before ``head`` in ``text`` ("talk" of "Our talk slot")."""
    words = [w for w, _ in _words_of(text)]
    found: set[str] = set()
    for i, word in enumerate(words):
        if i and terms(word.split("-")[-1]) & head and not word[:1].isupper():
            before = words[i - 1]
            if before.lower() not in _OPENERS and not before.lower().endswith(("'s", "’s")):
                if not date_parts(before) and not scope_terms(before):
                    found |= set(terms(before) - LIGHT - frozenset(SPEAKER))
    return found


def _coded(head: frozenset[str], text: str) -> set[str]:
    """The codes that follow the word ``head`` in ``text`` ("PAY-812" of "Ticket PAY-812")."""
    words = [w for w, _ in _words_of(text)]
    return {
        _ident(words[i + 1])
        for i in range(len(words) - 1)
        if terms(words[i].split("-")[-1]) & head
        and _has_digit(words[i + 1])
        and not (i and words[i][:1].isupper())  # "Forerunner 245": a model, not one of many
    }


def _noun_phrase(words: list[str]) -> list[str]:
    """The last noun phrase of a theme: the words after its last determiner, preposition
    or possessive ("1:1" of "Thursday's 1:1", "bills" of "paying all the bills")."""
    start = 0
    for i, word in enumerate(words):
        low = word.lower()
        if low in _OPENERS or low.endswith(("'s", "’s")):
            start = i + 1
    return words[start:] or words[-1:]


def about(theme: str, old: str, new: str = "", initial: bool = False) -> bool:
    """The old fact is about ``theme``: it names the theme's head word (the last word of
    its noun phrase: "order" of "the chair order"; "support" of "the support team", a
    light head being passed over) as a head of its own, and every other word of that noun
    phrase, or two of the theme's words. Not when the theme names something specific the
    old fact does not ("Q1 planning", "Release 2.0", "the Slack admin rights", "the swim
    club" against "the chess club"), nor when the old fact's thing is a named one the new
    fact does not name ("the Spotify bill" against "all the bills"). ``initial``: the theme
    opens its clause, so its first capital says nothing."""
    old_terms, old_heads = terms(old), heads(old)
    words = [w for w, _ in _words_of(theme)]
    if not words or not about_names(words, old, initial):
        return False  # "Release 2.0", "Thursday's 1:1", "my husband's visa"
    phrase = _noun_phrase(words)
    if _has_digit(phrase[-1]):
        if len(phrase) == 1:
            return True  # the code itself is in the old fact: "PAY-812"
        phrase = phrase[:-1]  # "Release 2.0": the release
    theme_terms = terms(theme) - LIGHT
    for at in range(len(phrase) - 1, -1, -1):  # the head, or the word before a light one
        head = terms(phrase[at].split("-")[-1]) - LIGHT
        if not head:
            continue
        before = [*phrase[:at], *phrase[at].split("-")[:-1]]
        kept = " ".join(w for w in before if not scope_terms(w) and not date_parts(w))
        modifiers = terms(kept) - LIGHT
        if modifiers - old_terms:
            return False  # "the swim club" against "the chess club", "fire chief"
        if _named(phrase[at]) and not head & old_heads:
            head = frozenset(k for k in old_heads if any(k.startswith(h) for h in head)) or head
        if head & old_heads:
            if _coded(head, old) - _idents(theme):
                return False  # "all tickets" against "Ticket PAY-812": one ticket of many
            if _ADJUNCT.search(old) and not head & terms(_ADJUNCT.split(old)[0]):
                return False  # "… next to Mongo": a side mention, not what the fact is about
            if modifiers:
                return True  # "the search service heap" against "an 8 GB JVM heap"
            named = set().union(*(_modifiers_of(k, old) for k in head & old_heads))
            return not named or named <= terms(new or theme) | _idents(new or theme)
        if head & _SERVICE and _names_in(phrase) & old_terms:
            return True  # "the Asana seats" against "We use Asana": the service itself
        return len(theme_terms & old_terms) >= 2
    return False


def _date_terms(text: str) -> frozenset[str]:
    return frozenset().union(*(terms(w) for w, _ in _words_of(text) if date_parts(w)))


def as_in(phrase: frozenset[str], old: frozenset[str]) -> frozenset[str]:
    """``phrase`` with each name key that begins one of ``old`` taken as that one."""
    return frozenset(next((o for o in old if len(k) >= 4 and o.startswith(k)), k) for k in phrase)


def mostly_in(phrase: frozenset[str], old: frozenset[str]) -> bool:
    shared = phrase & old
    return bool(shared) and 2 * len(shared) >= len(phrase)


_NUMBER_WORDS = {
    w: float(n)
    for n, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
} | {"single": 1.0, "twenty": 20.0, "thirty": 30.0, "forty": 40.0, "fifty": 50.0}
_CURRENCY_WORDS = {"eur": "€", "euro": "€", "euros": "€", "usd": "$", "dollars": "$"} | {
    "gbp": "£", "pounds": "£", "chf": "chf", "jpy": "¥", "yen": "¥"
}  # fmt: skip
UNIT_WORDS = frozenset(_UNITS) | frozenset(_CURRENCY_WORDS)  # what a number counts in
_BOUND = re.compile(
    r"\b(?:over|under|more than|less than|fewer than|at least|above|below|upwards of)\s*$",
    re.IGNORECASE,
)
_COUNT = re.compile(
    r"(?<![\w.,])(?P<n>\d[\d,]*(?:\.\d+)?|"
    + "|".join(_NUMBER_WORDS)
    + r")\s+(?P<unit>[a-z][a-z-]*)",
    re.IGNORECASE,
)


def _numbers(text: str) -> dict[str, set[float]]:
    """Numbers by unit: a unit of measure or a currency, else the thing counted ("9
    engineers", "seven engineers"); a bound ("over 5 MB") is no value."""
    found: dict[str, set[float]] = {}
    for m in _UNIT_NUMBER.finditer(text):
        if _BOUND.search(text[: m.start()]):
            continue
        if m["cur"]:
            unit, raw = m["cur"], m["n"]
        else:
            word = m["unit"].lower().replace(" ", "")
            unit = _UNITS.get(word) or _CURRENCY_WORDS.get(word, "")
            raw = m["m"]
        if unit:
            found.setdefault(unit, set()).add(float(raw.replace(",", "")))
    for m in _COUNT.finditer(text):
        raw, word = m["n"].lower(), m["unit"].lower()
        if word in _UNITS or word in _CURRENCY_WORDS or _BOUND.search(text[: m.start()]):
            continue
        number = _NUMBER_WORDS.get(raw)
        if number is None and raw[:1].isdigit():
            number = float(raw.replace(",", ""))
        counted = terms(word) - SPEAKER_TERMS
        if number is not None and counted and not date_parts(word):
            found.setdefault("count:" + min(counted), set()).add(number)
    return found


_DAYPART = re.compile(r"\b(morning|afternoon|evening|night)s?\b", re.IGNORECASE)


def dated_parts(text: str) -> dict[str, int | str]:
    parts = date_parts(text)
    daypart = _DAYPART.search(text)
    if daypart is not None:
        parts["daypart"] = daypart[1].lower()
    return parts


def typed_difference(new: str, old: str) -> str:
    """ "date" or "number" when ``new`` and ``old`` name a value of that kind and it
    differs; "same" when they name one and it agrees; "" when nothing is comparable."""
    pn, po = _numbers(new), _numbers(old)
    shared_units = pn.keys() & po.keys()
    if shared_units:
        return "number" if any(not (pn[u] & po[u]) for u in shared_units) else "same"
    dn, do = dated_parts(new), dated_parts(old)
    shared = (dn.keys() & do.keys()) - {"relative", "quarter", "year"}
    if shared:
        return "date" if any(dn[k] != do[k] for k in shared) else "same"
    return ""


JOINERS = frozenset(
    ["and", "or", "the", "a", "an", "of", "to", "in", "on", "at", "for", "with", "by", "from"]
)


def slot_names(text: str) -> list[tuple[str, str, str]]:
    """(name, word after, word before) for each capitalised word not opening the text."""
    tokens = [t.strip(",;:!?()\"'“”") for t in text.split()]
    out = []
    for i, token in enumerate(tokens[1:], start=1):
        if token[:1].isupper():
            after = tokens[i + 1].rstrip(".") if i + 1 < len(tokens) else ""
            out.append((token.lower().rstrip("."), after.lower(), tokens[i - 1].lower()))
    return out


def codes(text: str) -> frozenset[str]:
    """Codes of letters and digits ("eu-west-1", "ap-south-1", "B214"), by their shape
    ("ap-south-9": digits as 9) so that only codes of one kind are compared; not
    quarters, amounts or dates ("Q1", "$17.99/month", "12th")."""
    found = set()
    for word, _ in _words_of(text):
        ident = _ident(word)
        if not _has_digit(word) or not re.search(r"[a-z]", ident) or re.search(r"[$€£¥/%]", word):
            continue
        if date_parts(word) or re.fullmatch(r"\d+(?:st|nd|rd|th|am|pm|h|k|s|x)?", ident):
            continue
        found.add(ident)
    return frozenset(found)


def code_shapes(found: frozenset[str]) -> frozenset[str]:
    return frozenset(re.sub(r"[a-z]+", "a", re.sub(r"\d+", "9", c)) for c in found)


_REPORTS = re.compile(
    r"\b(?:reports?|reporting|answers?)\s+(?:directly\s+)?to\b|\b(?:managed|led|run)\s+by\b"
    r"|\bunder\b",
    re.IGNORECASE,
)


_TRANSFER = re.compile(r"\b(?:transferred|passed|handed|signed|given|gave|sold|moved)\b", re.I)
_OWNED = re.compile(
    r"\b(?:belongs? to|owned by|held by|kept by|maintained by|run by|carried by|stewarded by"
    r"|looked after by|registered to)\b",
    re.IGNORECASE,
)


def same_kind(dest: str, old: str, new: str, theme: str = "") -> bool:
    """The old fact holds a value of the destination's kind that the new fact does not
    name: a code for a code, the same head noun with another name ("the Consumer Products
    org" against "the Platform org"), a name for a name, said after the theme ("Our
    payroll provider is Gusto", not "Jon Bell is the Atlas project lead")."""
    if codes(dest) and codes(old) - codes(new):
        return True
    if re.search(r"\bunder\b", new) and _REPORTS.search(old):
        return True  # "moved under the COO" against "reports to the general counsel"
    if _TRANSFER.search(new) and _OWNED.search(old):
        return True  # "transferred to the core facility" against "belongs to the Hartmann group"
    words = [w for w, _ in _words_of(dest)]
    while words and words[0].lower() in _OPENERS:
        words = words[1:]
    if words and terms(words[-1]) & heads(old) and _names_in(words) - terms(old):
        return True
    named_dest = bool(words) and _named(words[0]) and not _has_digit(words[0])
    old_words = [w for w, _ in _words_of(old)]
    said = [i for i, w in enumerate(old_words) if terms(w) & (terms(theme) - LIGHT)]
    after = old_words[said[0] + 1 :] if said else []
    return named_dest and bool(_names_in(after) - terms(new))


def service_of(theme: str, sentence: str, old: str) -> bool:
    """ "closed the account" in a sentence naming "1Password", against "I use 1Password":
    a service one holds, ended, of a provider the old fact names."""
    words = [w for w, _ in _words_of(theme)]
    if not words or not terms(words[-1]) & _SERVICE:
        return False
    named = _names_in([w for w, _ in _words_of(sentence)][1:])
    return bool(named & terms(old))


def anchored_by_word(theme: str, old: str) -> bool:
    """The theme's head word is somewhere in the old fact and nothing specific of the
    theme is missing from it ("Visa approved" against "The visa application is pending")."""
    words = [w for w, _ in _words_of(theme)]
    if not words or not about_names(words, old):
        return False
    phrase = _noun_phrase(words)
    head = terms(phrase[-1].split("-")[-1]) - LIGHT
    modifiers = terms(" ".join(w for w in phrase[:-1] if not date_parts(w))) - LIGHT
    return bool(head) and (head | modifiers) <= terms(old)


def about_names(words: list[str], old: str, initial: bool = True) -> bool:
    """Every name, code and owner of ``words`` is in ``old`` (the first word's capital
    aside): "Release 2.0", "Quillpay's review" and "my husband's visa" are specific."""
    old_terms, old_idents = terms(old), _idents(old)
    for word in words[:-1]:
        if word.lower().endswith(("'s", "’s")) and not terms(word[:-2]) <= old_terms:
            return False
    for i, word in enumerate(words):
        if not _named(word) or (i == 0 and initial and not _has_digit(word)):
            continue
        if _has_digit(word) and _ident(word) not in old_idents:
            return False
        if not _has_digit(word) and not _name_in(word, old):
            return False
    return True


def _name_in(name: str, old: str) -> bool:
    """A name is a word of the old fact, or begins a name of it ("Mongo" and "MongoDB"),
    never a common word ("Reno" is not "renovation", "LaunchDarkly" not "launch")."""
    low = name.lower().removesuffix("'s").removesuffix("’s")
    words = [w for w, _ in _words_of(old)]
    if low in {w.lower().removesuffix("'s").removesuffix("’s") for w in words}:
        return True
    return len(low) >= 4 and any(w[:1].isupper() and w.lower().startswith(low) for w in words)


def modifies(keys: frozenset[str], text: str) -> bool:
    """A word of ``keys`` stands before a noun in ``text`` ("staging" in "Our staging
    server"), not before a verb ("payroll emailed") or at a phrase's end."""
    words = _words_of(text)
    for i, (word, boundary) in enumerate(words[:-1]):
        following = words[i + 1][0]
        if terms(word) & keys and not boundary and terms(following) - frozenset(SPEAKER):
            if not _VERB_LIKE.match(following) and following.lower() not in _OPENERS | _AUXILIARIES:
                return True
    return False
