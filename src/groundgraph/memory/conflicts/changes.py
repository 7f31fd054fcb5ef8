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
import re

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
from groundgraph.memory.conflicts.negation import is_negated
from groundgraph.memory.conflicts.nonchange import (
    ALSO,
    HEDGE,
    KEPT,
    ONE_OFF,
    PAST_EVENT,
    PAST_STATE,
    scope_moved,
    scopes_differ,
)
from groundgraph.memory.conflicts.phrases import CHANGED, MAX_TEXT, Change, clauses, sentences
from groundgraph.memory.conflicts.words import terms

__all__ = ["Change", "change_conflict"]

_NOW = re.compile(
    r"\b(?:now|from now on|going forward|these days|from next \w+|starting (?:next|this|on|in|from)"
    r"|as of|effective|instead|since \w+|any ?more|no longer)\b|^new\b",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=4096)
def change_conflict(new: str, old: str) -> Change | None:
    """The change in ``new`` that retires ``old``, or None."""
    new, old = new[:MAX_TEXT], old[:MAX_TEXT]
    main = (clauses(old) or [old])[0]  # "… on hold until …, which could take weeks": a side hedge
    if HEDGE.search(main) or PAST_STATE.search(old) or PAST_EVENT.match(old):
        return None
    if (
        ONE_OFF.search(new)
        or ONE_OFF.search(old)
        or (scopes_differ(new, old) and not scope_moved(new, old))
    ):
        return None
    old_terms = terms(old)
    marked = _NOW.search(new) is not None or CHANGED.search(new) is not None
    extra = ALSO.search(old) is not None
    for sentence in sentences(new):
        for clause in clauses(sentence):
            if HEDGE.search(clause) or ALSO.search(clause):
                continue  # "thinking about selling", "could take three weeks"
            found = no_longer(clause, old, new)
            if found is None and is_negated(clause):
                continue  # "Teo has not left Parcelo"
            found = found or (None if KEPT.search(new) else ended(clause, sentence, old, new))
            found = found or instead(clause, new, old_terms)
            if found is None and extra:
                continue  # "Marcus is also the mentor": a second role, not the one promoted
            found = found or moved(clause, sentence, old, new)
            found = found or took_over(clause, old, new) or new_home(clause, sentence, old)
            found = found or handed_over(clause, old) or resolved(clause, old, new)
            found = found or from_to(clause, old) or promoted(clause, old) or hired(clause, old)
            found = found or confirmed(clause, old)
            if found is None and marked:
                found = holder(clause, old, old_terms) or new_title(clause, sentence, old)
            if found is not None:
                return found
        if (
            not (HEDGE.search(sentence) or ALSO.search(sentence))
            and marked
            and not extra
            and (found := value(sentence, old))
        ):
            return found
    return None
