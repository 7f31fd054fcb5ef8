"""Store locations and messages without the passwords they may hold.

A PostgreSQL store is named by a URL that may carry its password
(``postgresql://me:secret@db/notes``, or ``?password=secret``). Whatever groundgraph prints
or answers about a location (the start line of ``serve``, an error, a log line) goes
through :func:`masked_location` or :func:`mask_passwords` first, so the password never
reaches a terminal, a log or an HTTP body. The rest of the URL (user, host, port,
database, other parameters) is kept: it is what an operator needs to tell stores apart.

    masked_location("postgresql://me:secret@db:5432/notes")   # 'postgresql://me:***@db:5432/notes'
    mask_passwords("cannot open postgresql://me:secret@db/notes: refused")
"""

from __future__ import annotations

import re

__all__ = ["MASK", "mask_passwords", "masked_location"]

#: What a password is shown as.
MASK = "***"

# ``scheme://user:password@``: the password is everything after the first ':' of the
# user part, up to the last '@' before the host (a password may hold '@' and ':').
_USERINFO = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@?#]*:)(?P<secret>[^\s/?#]*)@")
# ``password=...`` in a query string or a libpq keyword/value string.
_PARAMETER = re.compile(r"(?P<head>(?:[?&;\s]|^)password=)(?P<secret>[^&\s'\"]*)", re.IGNORECASE)


def _hide(match: re.Match[str], end: str) -> str:
    return f"{match['head']}{MASK if match['secret'] else ''}{end}"


def mask_passwords(text: str) -> str:
    """``text`` with the password of every URL (``scheme://user:password@host``) and every
    ``password=`` parameter in it replaced by ``***``."""
    if "://" not in text and "password=" not in text.lower():
        return text
    text = _USERINFO.sub(lambda m: _hide(m, "@"), text)
    return _PARAMETER.sub(lambda m: _hide(m, ""), text)


def masked_location(location: str) -> str:
    """A store location as it may be shown: a SQLite path unchanged, a URL without its
    password."""
    return mask_passwords(location)
