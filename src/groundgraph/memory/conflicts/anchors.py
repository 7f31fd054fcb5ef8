"""Whether an old fact is about what a new one changed: heads, modifiers, owners, kinds.

``about(theme, old)`` says whether an old fact is about a theme: it names the theme's head
word as a head of its own, and the theme's names, codes, owners and modifiers; a named
old thing ("the Spotify bill") must be named by the new fact. ``same_kind`` says whether
the old fact holds a value of a destination's kind (a code for a code, an org for an
org, an owner for a transfer); ``same_occasion`` and ``service_of`` anchor an ended thing
by its date and host or by its provider.
"""

from __future__ import annotations

import re

from groundgraph.memory.conflicts.nonchange import scope_terms
from groundgraph.memory.conflicts.typed import typed_difference
from groundgraph.memory.conflicts.values import date_parts
from groundgraph.memory.conflicts.words import (
    ANALYZER,
    AUXILIARIES,
    LIGHT,
    OPENERS,
    SPEAKER,
    VERB_LIKE,
    codes,
    has_digit,
    heads,
    ident,
    idents,
    key,
    name_in,
    named,
    names_in,
    terms,
    words_of,
)


def same_occasion(theme: str, sentence: str, old: str) -> bool:
    """An ended thing named by its date and its place or host: "cancelled my Friday slot"
    in a sentence naming "Autohaus Meyer" against "Car service booked at Autohaus Meyer
    for Friday": the date agrees and a name of the sentence is in the old fact."""
    if typed_difference(theme, old) != "same" or not date_parts(theme):
        return False
    old_terms = terms(old)
    words = [w for w, _ in words_of(sentence)][1:]
    return any(named(w) and w[:1].isupper() and terms(w) <= old_terms for w in words if terms(w))


def _modifiers_of(head_key: str, text: str) -> set[str]:
    """The names or codes just before a lowercase ``head_key`` in ``text`` ("Spotify" of
    "the Spotify bill", "v2.0" of "the v2.0 release"): they say which one of its kind it
    is. A capitalised head is a name, and the words before it are the rest of the name."""
    words = words_of(text)
    found: set[str] = set()
    for i, (word, _) in enumerate(words):
        if head_key in terms(word.split("-")[-1]) and not word[:1].isupper():
            for before, boundary in reversed(words[max(0, i - 2) : i]):
                if boundary or not named(before) or (i and before == words[0][0]):
                    break
                found |= {ident(before)} if has_digit(before) else set(terms(before))
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


_ADJUNCT = re.compile(
    r"\b(?:next to|alongside|besides|as well as|along with|together with|on top of|apart from"
    r"|because of|due to|owing to|thanks to)\b",
    re.IGNORECASE,
)


def plain_modifiers(head: frozenset[str], text: str) -> set[str]:
    """The content words just before ``head`` in ``text`` ("talk" of "Our talk slot")."""
    words = [w for w, _ in words_of(text)]
    found: set[str] = set()
    for i, word in enumerate(words):
        if i and terms(word.split("-")[-1]) & head and not word[:1].isupper():
            before = words[i - 1]
            low = before.lower()
            if low in OPENERS or low.endswith(("'s", "’s")) or date_parts(before):
                continue
            if not scope_terms(before):
                found |= set(terms(before) - LIGHT - frozenset(SPEAKER))
    return found


def _coded(head: frozenset[str], text: str) -> set[str]:
    """The codes that follow the word ``head`` in ``text`` ("PAY-812" of "Ticket PAY-812")."""
    words = [w for w, _ in words_of(text)]
    return {
        ident(words[i + 1])
        for i in range(len(words) - 1)
        if terms(words[i].split("-")[-1]) & head
        and has_digit(words[i + 1])
        and not (i and words[i][:1].isupper())  # "Forerunner 245": a model, not one of many
    }


def _noun_phrase(words: list[str]) -> list[str]:
    """The last noun phrase of a theme: the words after its last determiner, preposition
    or possessive ("1:1" of "Thursday's 1:1", "bills" of "paying all the bills")."""
    start = 0
    for i, word in enumerate(words):
        low = word.lower()
        if low in OPENERS or low.endswith(("'s", "’s")):
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
    words = [w for w, _ in words_of(theme)]
    if not words or not about_names(words, old, initial):
        return False  # "Release 2.0", "Thursday's 1:1", "my husband's visa"
    phrase = _noun_phrase(words)
    if has_digit(phrase[-1]):
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
        if named(phrase[at]) and not head & old_heads:
            head = frozenset(k for k in old_heads if any(k.startswith(h) for h in head)) or head
        if head & old_heads:
            if _coded(head, old) - idents(theme):
                return False  # "all tickets" against "Ticket PAY-812": one ticket of many
            if _ADJUNCT.search(old) and not head & terms(_ADJUNCT.split(old)[0]):
                return False  # "… next to Mongo": a side mention, not what the fact is about
            if modifiers:
                return True  # "the search service heap" against "an 8 GB JVM heap"
            owned = set().union(*(_modifiers_of(k, old) for k in head & old_heads))
            return not owned or owned <= terms(new or theme) | idents(new or theme)
        if (
            head & _SERVICE
            and names_in(phrase) & heads(old)
            and not modifies(names_in(phrase), old)
        ):
            return True  # "the Asana seats" against "We use Asana": the service itself
        return len(theme_terms & old_terms) >= 2
    return False


def date_terms(text: str) -> frozenset[str]:
    return frozenset().union(*(terms(w) for w, _ in words_of(text) if date_parts(w)))


def as_in(phrase: frozenset[str], old: frozenset[str]) -> frozenset[str]:
    """``phrase`` with each name key that begins one of ``old`` taken as that one."""
    return frozenset(next((o for o in old if len(k) >= 4 and o.startswith(k)), k) for k in phrase)


def mostly_in(phrase: frozenset[str], old: frozenset[str]) -> bool:
    shared = phrase & old
    return bool(shared) and 2 * len(shared) >= len(phrase)


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
    words = [w for w, _ in words_of(dest)]
    while words and words[0].lower() in OPENERS:
        words = words[1:]
    if words and terms(words[-1]) & heads(old) and names_in(words) - terms(old):
        return True
    named_dest = bool(words) and named(words[0]) and not has_digit(words[0])
    old_words = [w for w, _ in words_of(old)]
    said = [i for i, w in enumerate(old_words) if terms(w) & (terms(theme) - LIGHT)]
    after = old_words[said[0] + 1 :] if said else []
    return named_dest and bool(names_in(after) - terms(new))


def service_of(theme: str, sentence: str, old: str) -> bool:
    """ "closed the account" in a sentence naming "1Password", against "I use 1Password":
    a service one holds, ended, of a provider the old fact names."""
    words = [w for w, _ in words_of(theme)]
    if not words or not terms(words[-1]) & _SERVICE:
        return False
    named = names_in([w for w, _ in words_of(sentence)][1:])
    return bool(named & heads(old)) and not modifies(
        named, old
    )  # "on Flickr", not "the Flickr group"


def anchored_by_word(theme: str, old: str) -> bool:
    """The theme's head word is somewhere in the old fact and nothing specific of the
    theme is missing from it ("Visa approved" against "The visa application is pending")."""
    words = [w for w, _ in words_of(theme)]
    if not words or not about_names(words, old):
        return False
    phrase = _noun_phrase(words)
    head = terms(phrase[-1].split("-")[-1]) - LIGHT
    modifiers = terms(" ".join(w for w in phrase[:-1] if not date_parts(w))) - LIGHT
    return bool(head) and (head | modifiers) <= terms(old)


def about_names(words: list[str], old: str, initial: bool = True) -> bool:
    """Every name, code and owner of ``words`` is in ``old`` (the first word's capital
    aside): "Release 2.0", "Quillpay's review" and "my husband's visa" are specific."""
    old_terms, old_idents = terms(old), idents(old)
    for word in words[:-1]:
        if word.lower().endswith(("'s", "’s")) and not terms(word[:-2]) <= old_terms:
            return False
    for i, word in enumerate(words):
        if not named(word) or (i == 0 and initial and not has_digit(word)):
            continue
        if has_digit(word) and ident(word) not in old_idents:
            return False
        if not has_digit(word) and not name_in(word, old):
            return False
    return True


def modifies(keys: frozenset[str], text: str) -> bool:
    """A word of ``keys`` stands before a noun in ``text`` ("staging" in "Our staging
    server"), not before a verb ("payroll emailed") or at a phrase's end."""
    words = words_of(text)
    for i, (word, boundary) in enumerate(words[:-1]):
        following = words[i + 1][0]
        noun_next = (
            not VERB_LIKE.match(following) and following.lower() not in OPENERS | AUXILIARIES
        )
        if terms(word) & keys and not boundary and terms(following) - SPEAKER and noun_next:
            return True
    return False
