"""The words the conflict rules know: roles, role verbs, attribute nouns, small word sets.

Written for this project. A role or attribute listed here is single-valued: a subject has
one manager, one CEO, one budget, one deadline at a time. Multi-valued relations (friends,
offices, languages, visits) are deliberately absent.
"""

from __future__ import annotations

from groundgraph.memory.conflicts.values import ValueKind


def word_set(text: str) -> frozenset[str]:
    """The words of a space-separated string."""
    return frozenset(text.split())


def _same(words: str, kind: ValueKind) -> dict[str, tuple[str, ValueKind]]:
    return {w.replace("_", " "): (w.replace("_", " "), kind) for w in words.split()}


def _as(words: str, attribute: str, kind: ValueKind) -> dict[str, tuple[str, ValueKind]]:
    return {w.replace("_", " "): (attribute, kind) for w in words.split()}


def _roles(words: str, role: str) -> dict[str, str]:
    return {w.replace("_", " "): role for w in words.split()}


#: role nouns ("X's manager is Y", "Y is the CEO of X") and their canonical role
ROLES = {
    **_roles("manager line_manager boss supervisor", "manager"),
    **_roles("leader lead team_lead head chief", "leader"),
    **_roles("owner proprietor", "owner"),
    **_roles("ceo chief_executive chief_executive_officer", "ceo"),
    **_roles("chair chairman chairwoman chairperson", "chair"),
    **_roles("wife husband spouse", "spouse"),
    **{
        r: r
        for r in [
            "cto",
            "cfo",
            "coo",
            "president",
            "mayor",
            "principal",
            "captain",
            "coach",
            "director",
        ]
    },
    **{r: r for r in ["landlord", "mother", "father", "editor"]},
}
#: verbs that name a role: "Y manages X", "X is owned by Y", "X reports to Y"
ROLE_VERBS = {
    **_roles("manages manage supervises supervise managing managed supervised", "manager"),
    **_roles("reports report reporting under answers answer answering", "manager"),
    **_roles("leads lead heads head leading heading led headed run", "leader"),
    **_roles("owns own owned acquired bought purchased", "owner"),
    **_roles("chairs chair chaired", "chair"),
    **_roles("coaches coach coached", "coach"),
    "married": "spouse",
}
#: attribute nouns ("X's budget is N", "the deadline for X is D"): attribute and value kind
ATTRIBUTES: dict[str, tuple[str, ValueKind]] = {
    **_same("budget population salary revenue capacity age height weight size rent", "number"),
    **_same("fee valuation debt turnover headcount rating score limit quota margin", "number"),
    **_same("balance interest_rate tax_rate unemployment_rate inflation_rate rate", "number"),
    **_same("market_cap dose dosage", "number"),
    **_as("price cost share_price stock_price", "price", "number"),
    **{w: ("date:" + w, "date") for w in ("deadline", "due date", "release date", "date")},
    **{w: ("date:" + w, "date") for w in ("launch date", "start date", "end date")},
    **_as("birthday date_of_birth", "date:birthday", "date"),
    **_as("location headquarters hq home base", "location", "place"),
    **_same("address phone_number email email_address capital currency version", "name"),
    **_same("name timezone time_zone plan tier blood_type nickname", "name"),
    **_same("hometown home_town birthplace", "place"),
    "status": ("status:lifecycle", "status"),
}
#: "X starts/ends/launches/opens/closes on D": which date it is
DATE_VERBS = {
    **_roles("starts start begins begin will_start will_begin kicks_off", "start"),
    **_roles("ends end will_end finishes finish", "end"),
    **_roles("launches will_launch", "launch"),
    **_roles("opens open", "open"),
    **_roles("closes close", "close"),
}

#: first words that do not open a subject: subordinators, quantifiers, adverbs
NOT_SUBJECT = word_set(
    "if when whether because although though while after before once unless since until"
    " what which who where how why there here some any many several few every each all"
    " most no both either neither another other one two three four five six seven eight"
    " nine ten now also still then later recently currently just finally meanwhile so and"
    " but soon today yesterday"
)
#: last words that show a subject ran into its verb ("The meeting was")
AUX_END = word_set("is are was were has have had will been be being would does do did not")
PRONOUNS = word_set("he she they it we i you him her them er sie il elle ils elles ella él")
INDEFINITE = word_set("a an some any several many another other")
EMPLOYEE_UNITS = word_set("people person staff employee worker")
#: participles that mark a status as an event ("was shut down"), not a past state
EVENT_WORDS = word_set("shut went came sold called signed turned frozen broken")
