"""A PostgreSQL store's location: a ``postgresql://`` URL, and the schema it lives in.

The URL is libpq's (``postgresql://user:password@host:5432/database?sslmode=require``),
with one parameter of ours: ``schema=NAME`` (default ``public``) keeps a store in a schema
of its own, so one database can hold several. It is taken out before the URL reaches
libpq. The password never appears in a message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg.conninfo import conninfo_to_dict

from groundgraph.errors import InputError

__all__ = ["PostgresLocation", "is_postgres_url"]

_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
_SCHEMES = ("postgresql://", "postgres://")
_EXAMPLE = "postgresql://user:password@localhost:5432/groundgraph"


def is_postgres_url(location: str) -> bool:
    """Whether ``location`` names a PostgreSQL store rather than a SQLite file."""
    return location.startswith(_SCHEMES)


@dataclass(frozen=True)
class PostgresLocation:
    """The libpq connection string, the schema, and how to show the location."""

    conninfo: str
    schema: str
    shown: str

    @classmethod
    def parse(cls, url: str, schema: str | None = None) -> PostgresLocation:
        """Read ``url``; InputError (with an example) for one libpq cannot read."""
        if not is_postgres_url(url):
            raise InputError(f"{url!r} is not a PostgreSQL URL: write it as {_EXAMPLE}")
        try:
            parts = urlsplit(url)
            query = parse_qsl(parts.query, keep_blank_values=True)
        except ValueError as exc:
            raise InputError(
                f"cannot read the PostgreSQL URL ({exc}): write it as {_EXAMPLE}"
            ) from exc
        named = [v for k, v in query if k == "schema"]
        rest = [(k, v) for k, v in query if k != "schema"]
        chosen = schema or (named[-1] if named else "public")
        if not _SCHEMA_NAME.fullmatch(chosen):
            raise InputError(
                f"schema {chosen!r} is not a plain schema name: use lower-case letters, "
                "digits and '_' (at most 63), starting with a letter or '_'"
            )
        conninfo = urlunsplit(parts._replace(query=urlencode(rest)))
        try:
            options = conninfo_to_dict(conninfo)
        except psycopg.ProgrammingError as exc:
            raise InputError(
                f"cannot read the PostgreSQL URL ({str(exc).strip()}): write it as {_EXAMPLE}"
            ) from exc
        host = str(options.get("host") or "localhost")
        port = f":{options['port']}" if options.get("port") else ""
        user = f"{options['user']}@" if options.get("user") else ""
        database = str(options.get("dbname") or "")
        shown = f"postgresql://{user}{host}{port}/{database}"
        if chosen != "public":
            shown += f"?schema={chosen}"
        return cls(conninfo, chosen, shown)
