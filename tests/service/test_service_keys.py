"""API keys: hashed storage, constant-time lookup, the keys file's checks, scope rules."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.errors import InputError
from groundgraph.memory.scopes import ScopeReader
from groundgraph.service import Access, AccessDeniedError, KeyRing, hash_key, new_key

SEGMENT = st.sampled_from(["acme", "alice", "bob", "s1", "s2"])
SCOPE = st.lists(SEGMENT, min_size=1, max_size=3).map("/".join)


def keys_file(tmp_path, entries):
    path = tmp_path / "keys.json"
    path.write_text(json.dumps({"keys": entries}), encoding="utf-8")
    return path


def test_a_key_is_found_by_its_digest_and_never_stored_in_clear(tmp_path):
    key = new_key()
    path = keys_file(
        tmp_path,
        [{"name": "a", "sha256": hash_key(key), "scopes": ["acme/a"], "access": "read-write"}],
    )
    ring = KeyRing.load(path)
    assert key not in path.read_text(encoding="utf-8")
    access = ring.check(key)
    assert access == Access(("acme/a",), True, "a")
    assert ring.check(key + "x") is None
    assert ring.check("") is None


def test_the_environment_variable_holds_the_same_json(tmp_path):
    key = new_key()
    entry = {"name": "ops", "sha256": hash_key(key), "scopes": ["*"], "access": "read-only"}
    ring = KeyRing.load(None, json.dumps([entry]))
    access = ring.check(key)
    assert access is not None and access.unrestricted and not access.writes


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ({"name": "a", "sha256": "abc", "scopes": ["x"]}, "sha256"),
        ({"name": "a", "sha256": "0" * 64, "scopes": []}, "scopes"),
        ({"name": "a", "sha256": "0" * 64, "scopes": ["*", "x"]}, "alone"),
        ({"name": "a", "sha256": "0" * 64, "scopes": ["bad scope"]}, "bad part"),
        ({"name": "a", "sha256": "0" * 64, "scopes": ["x"], "access": "admin"}, "access"),
        ({"name": "a", "sha256": "0" * 64, "scopes": ["x"], "key": "clear"}, "unknown"),
    ],
)
def test_a_bad_keys_file_says_what_to_fix(tmp_path, entry, says):
    with pytest.raises(InputError, match=says):
        KeyRing.load(keys_file(tmp_path, [entry]))


def test_keys_must_differ():
    digest = hash_key("same")
    entries = [{"name": n, "sha256": digest, "scopes": ["x"], "access": "read-only"} for n in "ab"]
    with pytest.raises(InputError, match="different"):
        KeyRing.load(None, json.dumps(entries))


@given(key_scopes=st.lists(SCOPE, min_size=1, max_size=3), fact_scopes=st.lists(SCOPE, max_size=3))
def test_a_key_sees_a_fact_when_a_scope_it_may_name_reads_it(key_scopes, fact_scopes):
    access = Access(tuple(key_scopes), False)
    # The scopes a key may read as: its own, and every scope below them that the fact has.
    nameable = [*key_scopes, *(s for s in fact_scopes if access.names(s))]
    assert access.sees(fact_scopes) == ScopeReader(tuple(nameable)).reads(fact_scopes)
    assert all(access.sees_scope(s) for s in access.shown(fact_scopes))


@given(key_scopes=st.lists(SCOPE, min_size=1, max_size=3), asked=SCOPE)
def test_a_key_names_only_its_scopes_and_those_below(key_scopes, asked):
    access = Access(tuple(key_scopes), True)
    below = any(asked == k or asked.startswith(k + "/") for k in key_scopes)
    assert access.names(asked) == below
    if not below:
        with pytest.raises(AccessDeniedError):
            access.session(asked)


def test_a_read_only_key_may_not_write():
    with pytest.raises(AccessDeniedError, match="read-only"):
        Access(("a",), False).require_write("a")
    with pytest.raises(AccessDeniedError, match="every scope"):
        Access(("a",), True).require_everything("documents")
