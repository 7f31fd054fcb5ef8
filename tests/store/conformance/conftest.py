"""The backends the store conformance suite runs against, and their fixtures.

A backend is a name and a factory ``(folder) -> store``. Each test module names the
protocols it exercises in ``REQUIRES``; a backend that does not implement them all yet
is skipped there, so a new backend can be added here first and made to pass one
protocol at a time (docs/store.md). ``postgresql`` runs on the real server of
``tests/postgres_server.py`` (skipped without the [postgres] extra, unless
``GROUNDGRAPH_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from store_parts import implements

from groundgraph.store import SQLiteStore
from postgres_server import fresh_schema_url

Factory = Callable[[Path], object]

_files = itertools.count()


def _sqlite_file(folder: Path) -> object:
    return SQLiteStore(folder / f"store-{next(_files)}.db")


def _sqlite_memory(folder: Path) -> object:
    return SQLiteStore(":memory:")


def _postgresql(folder: Path) -> object:
    # A schema of its own per store, on the session's server (tests/postgres_server.py),
    # which skips (or fails, when required) first if the [postgres] extra is missing.
    url = fresh_schema_url()
    from groundgraph.store.postgres import PostgresStore

    return PostgresStore(url, pool_size=2)


BACKENDS: dict[str, Factory] = {
    "sqlite-file": _sqlite_file,
    "sqlite-memory": _sqlite_memory,
    "postgresql": _postgresql,
}


def _check(store: object, request: pytest.FixtureRequest) -> None:
    missing = [
        p.__name__ for p in getattr(request.module, "REQUIRES", ()) if not implements(store, p)
    ]
    if missing:
        close = getattr(store, "close", None)
        if callable(close):
            close()
        pytest.skip(f"backend does not implement {', '.join(missing)} yet")


@pytest.fixture(
    params=[
        pytest.param(name, marks=pytest.mark.postgres) if name == "postgresql" else name
        for name in sorted(BACKENDS)
    ]
)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[object]:
    """A new, empty store of each backend, closed after the test."""
    made = BACKENDS[backend](tmp_path)
    _check(made, request)
    yield made
    made.close()  # type: ignore[attr-defined]


@pytest.fixture
def new_store(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[[], object]]:
    """Makes a new, empty store of the backend per call, for property tests (one test,
    many examples); each call closes the store the previous one made."""
    made: list[object] = []

    def make() -> object:
        while made:
            made.pop().close()  # type: ignore[attr-defined]
        made.append(BACKENDS[backend](tmp_path))
        return made[-1]

    _check(make(), request)
    yield make
    for store in made:
        store.close()  # type: ignore[attr-defined]
