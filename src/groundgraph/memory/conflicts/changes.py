"""Changes a new fact announces, read from how it is said: what changed, from what, to what.

Ordinary memory updates rarely restate the old fact's attribute ("I report to Gabriela"
→ "After the reorg my manager is Dev"); they announce a change. ``change_conflict(new,
old)`` reads the new fact for one of these shapes and retires the old fact only when the
thing that changed is what the old fact is about:

- **ended**: "X cancelled / called off / withdrew from / dropped / ditched / left /
  stepped down as / decommissioned T", "T was cancelled", "T churned": at least half the
  words of T are in the old fact ("cancelled the Osaka hotel" leaves "the trip to Kyoto");
- **moved**: a past change verb (moved, switched, migrated, transferred, upgraded, raised,
  cut, pushed back, rebooked, promoted, took over, handed … over …) with a theme and a
  destination: the theme is in the old fact and the destination is not, and a typed
  destination (a date, a number with a unit) differs from the old fact's;
- **instead**: "… instead of X" where X and something else of the new fact are in the old;
- **no longer**: "… anymore / no longer / no more …": every word of that clause is in the
  old fact ("Rachel isn't Yusuf's manager anymore");
- **holder**: under a mark of the present ("now", "going forward", "from now on",
  "instead"), "Y is the <thing> now" where the thing is in the old fact and Y is a new
  name; "Y took over <thing>";
- **value**: under such a mark, a date or a number with a unit of the same kind as the old
  fact's and different, about something both mention ("From next week we meet on
  Thursdays" against "The team meeting is every Monday"), or the same slot filled by
  another name ("our Porto office" against "the Lisbon office").

Never: a plan, wish or hedge ("thinking about selling", "will probably", "trialling"), an
addition ("also", "added", "kept"), a habit in the present tense ("switches to decaf after
3pm", "drops to 17°C at night"), a one-off ("this Monday's meeting moves"), an old fact
that is already history ("used to").
"""

from __future__ import annotations

import functools

from groundgraph.memory.conflicts.appointed import appointed
from groundgraph.memory.conflicts.cues import read_cues
from groundgraph.memory.conflicts.ended import ended, instead, no_longer, resolved
from groundgraph.memory.conflicts.handover import handed_over
from groundgraph.memory.conflicts.holders import (
    confirmed,
    from_to,
    hired,
    holder,
    new_title,
    promoted,
    took_over,
    value,
)
from groundgraph.memory.conflicts.moved import moved, new_home
from groundgraph.memory.conflicts.nonchange import (
    ALSO,
    HEDGE,
    ONE_OFF,
    PAST_EVENT,
    PAST_STATE,
    scope_moved,
    scopes_differ,
)
from groundgraph.memory.conflicts.phrases import MAX_TEXT, Change, clauses
from groundgraph.memory.conflicts.replaced import replaced
from groundgraph.memory.conflicts.words import terms

__all__ = ["Change", "change_conflict"]


@functools.lru_cache(maxsize=4096)
def change_conflict(new: str, old: str, *, prefilter: bool = True) -> Change | None:
    """The change in ``new`` that retires ``old``, or None. Each clause of ``new`` is read
    by the rules it cues (``cues.read_cues``); ``prefilter=False`` reads it by every rule,
    with the same answer, more slowly."""
    new, old = new[:MAX_TEXT], old[:MAX_TEXT]
    cues = read_cues(new, prefilter)
    if prefilter and not cues.may_change:
        return None
    main = (clauses(old) or [old])[0]  # "… on hold until …, which could take weeks": a side hedge
    if HEDGE.search(main) or PAST_STATE.search(old) or PAST_EVENT.match(old):
        return None
    if (
        cues.one_off
        or ONE_OFF.search(old)
        or (scopes_differ(new, old) and not scope_moved(new, old))
    ):
        return None
    old_terms = terms(old)
    extra = ALSO.search(old) is not None
    for sentence in cues.sentences:
        said = sentence.text
        for clause in sentence.clauses:
            if clause.skipped:
                continue  # "thinking about selling", "could take three weeks"
            text, rules = clause.text, clause.rules
            found = no_longer(text, old, new) if "no-longer" in rules else None
            if found is None and clause.negated:
                continue  # "Teo has not left Parcelo"
            if found is None and "ended" in rules:  # not when "kept" (``read_cues``)
                found = ended(text, said, old, new)
            if found is None and "instead" in rules:
                found = instead(text, new, old_terms)
            if found is None and "replaced" in rules:
                found = replaced(text, said, old)
            if found is None and extra:
                continue  # "Marcus is also the mentor": a second role, not the one promoted
            found = found or _moved_or_held(text, said, rules, old, new, old_terms)
            if found is not None:
                return found
        if sentence.plain and cues.marked and not extra and (found := value(said, old)):
            return found
    return None


def _moved_or_held(
    clause: str, sentence: str, rules: frozenset[str], old: str, new: str, old_terms: frozenset[str]
) -> Change | None:
    """The rules after "ended" and "instead", in order, those ``rules`` names only (the
    holder and the new title only under a mark of the present: ``read_cues``)."""
    found = moved(clause, sentence, old, new) if "moved" in rules else None
    if found is None and "took-over" in rules:
        found = took_over(clause, old, new)
    if found is None and "new-home" in rules:
        found = new_home(clause, sentence, old)
    if found is None and "handed-over" in rules:
        found = handed_over(clause, old)
    if found is None and "resolved" in rules:
        found = resolved(clause, old, new)
    if found is None and "from-to" in rules:
        found = from_to(clause, old)
    if found is None and "promoted" in rules:
        found = promoted(clause, old)
    if found is None and "appointed" in rules:
        found = appointed(clause, sentence, old)
    if found is None and "hired" in rules:
        found = hired(clause, old)
    if found is None and "confirmed" in rules:
        found = confirmed(clause, old)
    if found is None and "holder" in rules:
        found = holder(clause, old, old_terms)
    if found is None and "new-title" in rules:
        found = new_title(clause, sentence, old)
    return found
