"""BEIR test collections: ``corpus.jsonl``, ``queries.jsonl`` and ``qrels/{split}.tsv``.

Documents keep their BEIR ``_id`` as their document id; a query is a question whose
relevant documents are those its qrels grade above 0 (relevance is binary here). A qrel
may name a document the corpus lacks: it stays gold, as it does in BEIR's own scoring.
"""

from __future__ import annotations

from pathlib import Path

from groundgraph.errors import FormatError, InputError, InputTooLargeError
from groundgraph.eval.datasets import MAX_DATA_BYTES, Dataset, Passage, read_json
from groundgraph.eval.questions import MAX_QUESTION_CHARS, Question
from groundgraph.model.ids import is_entity_id

MAX_DOC_ID_CHARS = 512


def check_beir_id(doc_id: str, where: str) -> str:
    """A BEIR ``_id`` usable as a document id: no '#', not starting with 'entity:'."""
    if not doc_id or "#" in doc_id or is_entity_id(doc_id) or len(doc_id) > MAX_DOC_ID_CHARS:
        raise FormatError(
            f"{where}: document id {doc_id[:80]!r} cannot name a document (it needs 1 to "
            f"{MAX_DOC_ID_CHARS} characters, no '#', and must not start with 'entity:')"
        )
    return doc_id


def load_beir_corpus(path: str | Path) -> list[Passage]:
    """``corpus.jsonl``: ``{"_id", "title", "text"}`` per line; ids must be unique."""
    passages: list[Passage] = []
    seen: set[str] = set()
    for i, record in enumerate(read_json(path)):
        where = f"{path} record {i}"
        if not isinstance(record, dict):
            raise FormatError(f"{where}: expected an object with _id, title and text")
        doc_id, title, text = (record.get(k) for k in ("_id", "title", "text"))
        if not isinstance(doc_id, str) or not isinstance(text, str):
            raise FormatError(f'{where}: "_id" and "text" must be strings')
        check_beir_id(doc_id, where)
        if doc_id in seen:
            raise FormatError(f"{where}: document id {doc_id!r} appears twice")
        seen.add(doc_id)
        passages.append(Passage(doc_id, title if isinstance(title, str) else "", text))
    return passages


def load_beir_queries(path: str | Path) -> dict[str, str]:
    """``queries.jsonl``: query id → text."""
    queries: dict[str, str] = {}
    for i, record in enumerate(read_json(path)):
        where = f"{path} record {i}"
        qid = record.get("_id") if isinstance(record, dict) else None
        text = record.get("text") if isinstance(record, dict) else None
        if not isinstance(qid, str) or not isinstance(text, str):
            raise FormatError(f'{where}: expected {{"_id": str, "text": str}}')
        if len(text) > MAX_QUESTION_CHARS:
            raise InputTooLargeError(f"{where}: the query", len(text), MAX_QUESTION_CHARS)
        queries[qid] = text
    return queries


def load_qrels(path: str | Path) -> dict[str, dict[str, int]]:
    """A qrels TSV (``query-id  corpus-id  score``, header optional): query → doc → grade."""
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_DATA_BYTES:
        raise InputTooLargeError(str(path), size, MAX_DATA_BYTES)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    qrels: dict[str, dict[str, int]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        row = line.split("\t") if line.strip() else []
        if not row or (number == 1 and row[:2] == ["query-id", "corpus-id"]):
            continue
        if len(row) != 3:
            raise FormatError(f"{path} line {number}: expected query-id, corpus-id, score")
        try:
            grade = int(row[2])
        except ValueError:
            raise FormatError(f"{path} line {number}: score {row[2]!r} is not an integer") from None
        qrels.setdefault(row[0], {})[row[1]] = grade
    return qrels


def load_beir(folder: str | Path, split: str = "test", name: str | None = None) -> Dataset:
    """A BEIR folder as a Dataset: the queries with a qrel graded above 0 in ``split``.

    Questions come in the order of ``queries.jsonl``.
    """
    folder = Path(folder)
    qrels_path = folder / "qrels" / f"{split}.tsv"
    for needed in (folder / "corpus.jsonl", folder / "queries.jsonl", qrels_path):
        if not needed.is_file():
            raise InputError(
                f"{needed} is missing: a BEIR folder holds corpus.jsonl, "
                "queries.jsonl and qrels/<split>.tsv"
            )
    passages = load_beir_corpus(folder / "corpus.jsonl")
    queries = load_beir_queries(folder / "queries.jsonl")
    qrels = load_qrels(qrels_path)
    unknown = sorted(set(qrels) - set(queries))
    if unknown:
        raise FormatError(f"{qrels_path}: query ids {unknown[:5]} are not in queries.jsonl")
    questions = []
    for qid, text in queries.items():
        relevant = tuple(d for d, grade in qrels.get(qid, {}).items() if grade > 0)
        if relevant:
            questions.append(Question(qid, text, relevant))
    return Dataset(name or folder.name, tuple(passages), tuple(questions))
