"""API keys: stored as SHA-256 digests, each bound to scopes and to read-only or read-write.

A keys file (or the ``GROUNDGRAPH_KEYS`` environment variable) holds JSON, a list of
entries or ``{"keys": [...]}``::

    [{"name": "alice", "sha256": "<64 hex digits>", "scopes": ["acme/alice"],
      "access": "read-write"},
     {"name": "ops", "sha256": "...", "scopes": ["*"], "access": "read-only"}]

Only digests are stored; a key is checked by hashing what the caller sent and comparing
it with every digest in constant time (``hmac.compare_digest``), so neither the key nor
the time taken tells an attacker how close a guess was. Keys are random tokens
(:func:`new_key`, 256 bits), so a plain SHA-256 is enough: there is no password to brute
force.

A request presents its key as ``Authorization: Bearer KEY`` or, when it sends no bearer
key, as ``X-API-Key: KEY`` (:func:`presented_key`, the one rule for the HTTP routes and
``/mcp``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groundgraph.errors import InputError
from groundgraph.memory.scopes import check_scope
from groundgraph.service.access import Access

ALL_SCOPES = "*"
ACCESS_MODES = ("read-only", "read-write")
_HEX = frozenset("0123456789abcdef")


def hash_key(key: str) -> str:
    """The stored form of a key: its SHA-256, hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def presented_key(authorization: str | None, api_key: str | None) -> str | None:
    """The key a request presents, from its ``Authorization`` and ``X-API-Key`` header
    values: a non-empty bearer token first, else the ``X-API-Key`` value (None: no key)."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return api_key or None


def new_key() -> str:
    """A fresh random key (256 bits, URL-safe)."""
    return "gg_" + secrets.token_urlsafe(32)


@dataclass(frozen=True)
class ApiKey:
    """One key as stored: its name, digest, scopes (None: every scope) and rights."""

    name: str
    sha256: str
    scopes: tuple[str, ...] | None
    writes: bool

    def access(self) -> Access:
        return Access(self.scopes, self.writes, self.name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sha256": self.sha256,
            "scopes": list(self.scopes) if self.scopes is not None else [ALL_SCOPES],
            "access": "read-write" if self.writes else "read-only",
        }


def _entry(item: object, where: str) -> ApiKey:
    if not isinstance(item, Mapping):
        raise InputError(f"{where}: each key is an object with name, sha256, scopes, access")
    unknown = set(item) - {"name", "sha256", "scopes", "access"}
    if unknown:
        raise InputError(f"{where}: unknown fields {sorted(unknown)}")
    name, digest = item.get("name"), item.get("sha256")
    scopes, access = item.get("scopes"), item.get("access", "read-only")
    if not isinstance(name, str) or not name:
        raise InputError(f"{where}: 'name' must be a non-empty text")
    if not isinstance(digest, str) or len(digest) != 64 or not set(digest) <= _HEX:
        raise InputError(
            f"{where} ({name}): 'sha256' must be 64 lower-case hex digits, the SHA-256 of the "
            "key (groundgraph serve --new-key makes one)"
        )
    if not isinstance(scopes, list) or not scopes:
        raise InputError(f"{where} ({name}): 'scopes' must be a list of scope names, or ['*']")
    if access not in ACCESS_MODES:
        raise InputError(f"{where} ({name}): 'access' must be one of {', '.join(ACCESS_MODES)}")
    if ALL_SCOPES in scopes:
        if len(scopes) != 1:
            raise InputError(f"{where} ({name}): '*' stands alone in 'scopes'")
        bound = None
    else:
        bound = tuple(sorted({check_scope(s) for s in scopes}))
    return ApiKey(name, digest, bound, access == "read-write")


def parse_keys(text: str, where: str) -> list[ApiKey]:
    """The keys of a keys file's (or variable's) JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"{where} is not JSON: {error.msg} at line {error.lineno}") from None
    if isinstance(data, Mapping):
        data = data.get("keys")
    if not isinstance(data, list):
        raise InputError(f'{where} must hold a list of keys, or {{"keys": [...]}}')
    return [_entry(item, f"{where}, key {i + 1}") for i, item in enumerate(data)]


class KeyRing:
    """The configured keys; :meth:`check` turns a presented key into its :class:`Access`."""

    def __init__(self, keys: Iterable[ApiKey] = ()) -> None:
        self.keys = tuple(keys)
        names = [k.name for k in self.keys]
        if len(set(names)) != len(names):
            raise InputError("two keys have the same name: give each key its own name")
        digests = [k.sha256 for k in self.keys]
        if len(set(digests)) != len(digests):
            raise InputError("two keys have the same sha256: each key must be different")

    @classmethod
    def load(cls, path: str | Path | None = None, env_value: str | None = None) -> KeyRing:
        """Keys from a keys file and/or the JSON of the ``GROUNDGRAPH_KEYS`` variable."""
        keys: list[ApiKey] = []
        if path is not None:
            try:
                text = Path(path).read_text(encoding="utf-8")
            except OSError as error:
                raise InputError(f"cannot read the keys file {path}: {error.strerror}") from None
            keys += parse_keys(text, f"keys file {path}")
        if env_value:
            keys += parse_keys(env_value, "GROUNDGRAPH_KEYS")
        return cls(keys)

    def __bool__(self) -> bool:
        return bool(self.keys)

    def check(self, presented: str) -> Access | None:
        """The access of the key presented, or None when it matches no key."""
        digest = hash_key(presented)
        found: ApiKey | None = None
        for key in self.keys:  # every digest is compared: the time does not tell which
            if hmac.compare_digest(digest, key.sha256):
                found = key
        return found.access() if found is not None else None
