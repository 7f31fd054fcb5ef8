"""A PostgreSQL store of an earlier schema version migrates when opened to write: each
version from the first one it was made at (6) to this one's, its rows kept and listed."""

from __future__ import annotations

import pytest

from groundgraph.errors import SchemaVersionError
from groundgraph.model import Document
from groundgraph.model.ids import fact_id
from groundgraph.model.store_records import DocumentQuery
from groundgraph.store.postgres import PostgresStore
from groundgraph.store.postgres.schema import MIGRATIONS, SCHEMA_VERSION, VERSION_TABLE
from postgres_server import admin_connection, fresh_schema_url

FACT = fact_id("an old fact")


def _store_at(version: int) -> str:
    """The URL of a new schema holding a store of ``version``, with three documents."""
    url = fresh_schema_url(f"v{version}_")
    schema = url.rsplit("schema=", 1)[1]
    with admin_connection() as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
        conn.execute(f"CREATE SCHEMA {schema}")
        conn.execute(f"SET search_path = {schema}, public")
        conn.execute(f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL)")
        conn.execute(f"INSERT INTO {VERSION_TABLE} VALUES ({version})")
        for step in sorted(v for v in MIGRATIONS if v <= version):
            for statement in MIGRATIONS[step]:
                conn.execute(statement)
        conn.execute(
            "INSERT INTO documents(doc_id, title, scopes, added_at, seq) VALUES"
            " ('old', 'Old', '[\"team\", \"team/a\"]', 't1', 1),"
            " (%s, '', '[\"team/a\"]', 't2', 2), ('bare', 'Bare', '[]', 't0', 3)",
            (FACT,),
        )
    return url


@pytest.mark.parametrize("version", sorted(v for v in MIGRATIONS if v < SCHEMA_VERSION))
def test_an_earlier_store_migrates_to_indexed_listings(version):
    url = _store_at(version)
    with pytest.raises(SchemaVersionError, match="open it read-write once"):
        PostgresStore(url, read_only=True)
    store = PostgresStore(url, pool_size=1)
    try:
        assert store.schema_version() == SCHEMA_VERSION
        page = store.reads.document_page(DocumentQuery(("team/a",)))
        assert [d.doc_id for d in page.documents] == ["old", FACT] and page.total == 2
        facts = store.reads.document_page(DocumentQuery(facts=True)).documents
        assert [d.doc_id for d in facts] == [FACT]
        assert store.reads.scope_names(DocumentQuery(facts=False)) == ["team", "team/a"]
        new = Document("new", "New", scopes=("team/b",), added_at="t3")
        store.writes.replace_document(new, [], [])
        later = store.reads.document_page(DocumentQuery(("team",), ("team/",)))
        assert [d.doc_id for d in later.documents] == ["old", FACT, "new"]
    finally:
        store.close()
