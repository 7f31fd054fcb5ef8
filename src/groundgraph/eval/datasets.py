"""Multi-hop QA sets as passages and questions: MuSiQue, HotpotQA and 2Wiki layouts.

Every passage becomes one document; a question's relevant ids are the documents of its gold
passages. Gold passages are found as HippoRAG's ``get_gold_docs`` finds them: a passage is
the pair (title, text); for MuSiQue the text of each ``is_supporting`` paragraph, for
``supporting_facts`` records the gold title's context sentences joined (``""`` for
HotpotQA, whose sentences keep their leading spaces, ``" "`` for 2WikiMultiHopQA).

Title corpora get ids from their titles (``my-fair-lady-film``, then ``-2``, ``-3`` for
another passage of the same title), so ids are stable, unique and never hold ``#``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groundgraph.errors import FormatError, InputTooLargeError
from groundgraph.eval.questions import Question
from groundgraph.graph import DocumentGraph
from groundgraph.text import slugify

MAX_DATA_BYTES = 1_000_000_000
MAX_SLUG_CHARS = 60


@dataclass(frozen=True, slots=True)
class Passage:
    """One corpus passage, added to a graph as one document."""

    doc_id: str
    title: str
    text: str


@dataclass(frozen=True)
class Dataset:
    """A corpus and the questions asked over it."""

    name: str
    passages: tuple[Passage, ...]
    questions: tuple[Question, ...]

    def summary(self) -> str:
        gold = sum(len(q.relevant) for q in self.questions)
        return (
            f"{self.name}: {len(self.questions)} questions, {len(self.passages):,} passages, "
            f"{gold} relevant pairs"
        )


class PassageIds:
    """Deduplicates passages by (title, text) and gives each a unique slug id."""

    def __init__(self) -> None:
        self._by_key: dict[tuple[str, str], Passage] = {}
        self._used: set[str] = set()

    def add(self, title: str, text: str) -> Passage:
        """The passage for (title, text), made on first sight."""
        found = self._by_key.get((title, text))
        if found is not None:
            return found
        base = slugify(title, MAX_SLUG_CHARS) if title.strip() else "passage"
        doc_id, n = base, 1
        while doc_id in self._used:
            n += 1
            doc_id = f"{base}-{n}"
        self._used.add(doc_id)
        passage = Passage(doc_id, title, text)
        self._by_key[(title, text)] = passage
        return passage

    def find(self, title: str, text: str) -> Passage | None:
        return self._by_key.get((title, text))

    def passages(self) -> tuple[Passage, ...]:
        return tuple(self._by_key.values())


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"{where}: invalid JSON ({exc.msg}, line {exc.lineno})") from None
    except RecursionError:
        raise FormatError(f"{where}: invalid JSON (nested too deeply)") from None


def read_json(path: str | Path, max_bytes: int = MAX_DATA_BYTES) -> Any:
    """A JSON file, or a JSON Lines file (any name not ending ``.json``) as a list of objects."""
    path = Path(path)
    size = path.stat().st_size
    if size > max_bytes:
        raise InputTooLargeError(str(path), size, max_bytes, "raise max_bytes or use a subset")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    if path.suffix == ".json" or text.lstrip()[:1] in ("[", ""):
        return _loads(text, str(path))
    lines = enumerate(text.splitlines(), start=1)
    return [_loads(line, f"{path} line {n}") for n, line in lines if line.strip()]


def _records(data: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise FormatError(f"{where}: expected a list of JSON objects")
    return data


def _field(record: Mapping[str, Any], keys: tuple[str, ...], where: str) -> str:
    for key in keys:
        value = record.get(key)
        if isinstance(value, str):
            return value
    raise FormatError(f"{where}: missing the string field {' or '.join(repr(k) for k in keys)}")


def _sentences(value: Any, joiner: str, where: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(s, str) for s in value):
        return joiner.join(value)
    raise FormatError(f"{where}: a passage text must be a string or a list of sentences")


def iter_title_corpus(
    data: Any, joiner: str = " ", where: str = "corpus"
) -> Iterator[tuple[str, str]]:
    """(title, text) pairs of a list of ``{title, text}`` or a dict title → text or sentences."""
    if isinstance(data, dict):
        for title, value in data.items():
            yield title, _sentences(value, joiner, f"{where} title {title!r}")
        return
    for i, record in enumerate(_records(data, where)):
        spot = f"{where} item {i}"
        yield _field(record, ("title",), spot), _sentences(record.get("text"), joiner, spot)


def load_title_corpus(path: str | Path, joiner: str = " ") -> list[Passage]:
    """Passages of a ``{title, text}`` corpus file, deduplicated by (title, text)."""
    ids = PassageIds()
    for title, text in iter_title_corpus(read_json(path), joiner, str(path)):
        ids.add(title, text)
    return list(ids.passages())


def _paragraphs(record: Mapping[str, Any], where: str) -> list[tuple[str, str, bool]]:
    paragraphs = record.get("paragraphs")
    if not isinstance(paragraphs, list):
        raise FormatError(f'{where}: "paragraphs" must be a list')
    found = []
    for j, p in enumerate(paragraphs):
        spot = f"{where} paragraph {j}"
        if not isinstance(p, dict):
            raise FormatError(f"{spot}: expected an object")
        text = _field(p, ("paragraph_text", "text"), spot)
        found.append((_field(p, ("title",), spot), text, bool(p.get("is_supporting", False))))
    return found


def _gold_from_facts(record: Mapping[str, Any], joiner: str, where: str) -> list[tuple[str, str]]:
    facts, context = record.get("supporting_facts"), record.get("context")
    if not isinstance(facts, list) or not isinstance(context, list):
        raise FormatError(f'{where}: needs "paragraphs", or "supporting_facts" and "context"')
    titles = {f[0] for f in facts if isinstance(f, list) and f and isinstance(f[0], str)}
    gold = []
    for item in context:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            raise FormatError(f'{where}: each "context" item must be [title, [sentences]]')
        if item[0] in titles:
            gold.append((item[0], _sentences(item[1], joiner, f"{where} context {item[0]!r}")))
    return gold


def gold_passages(record: Mapping[str, Any], joiner: str, where: str) -> list[tuple[str, str]]:
    """A question's gold (title, text) pairs, as HippoRAG's ``get_gold_docs`` forms them."""
    if "paragraphs" in record:
        return [(t, x) for t, x, supporting in _paragraphs(record, where) if supporting]
    return _gold_from_facts(record, joiner, where)


def _question(record: Mapping[str, Any], relevant: Iterable[str], where: str) -> Question | None:
    ids = tuple(dict.fromkeys(relevant))
    if not ids:
        return None  # nothing to find: such a question measures nothing
    qid = _field(record, ("id", "_id"), where)
    return Question(qid, _field(record, ("question",), where), ids)


def load_musique(path: str | Path, name: str = "musique") -> Dataset:
    """MuSiQue records searched over the union of their paragraphs (deduplicated).

    The relevant documents of a question are its ``is_supporting`` paragraphs; questions
    without one are left out. JSON (a list) and JSON Lines both read.
    """
    ids = PassageIds()
    questions = []
    for i, record in enumerate(_records(read_json(path), str(path))):
        where = f"{path} record {i}"
        paragraphs = [(ids.add(t, x), sup) for t, x, sup in _paragraphs(record, where)]
        gold = [passage.doc_id for passage, supporting in paragraphs if supporting]
        question = _question(record, gold, where)
        if question is not None:
            questions.append(question)
    return Dataset(name, ids.passages(), tuple(questions))


def load_multihop(
    questions_path: str | Path,
    corpus_path: str | Path,
    *,
    joiner: str = "",
    name: str = "multihop",
) -> Dataset:
    """Questions (MuSiQue paragraphs or HotpotQA/2Wiki ``supporting_facts``) over a corpus.

    The corpus is a list of ``{title, text}`` or a dict title → sentences; ``joiner`` joins
    sentences (``""`` for HotpotQA, ``" "`` for 2WikiMultiHopQA). A gold passage is matched
    by its (title, text); if the text differs, by its title when that title is unique in the
    corpus. A gold passage the corpus lacks raises FormatError.
    """
    ids = PassageIds()
    by_title: dict[str, list[Passage]] = {}
    for title, text in iter_title_corpus(read_json(corpus_path), joiner, str(corpus_path)):
        by_title.setdefault(title, []).append(ids.add(title, text))
    questions = []
    for i, record in enumerate(_records(read_json(questions_path), str(questions_path))):
        where = f"{questions_path} record {i}"
        relevant = []
        for title, text in gold_passages(record, joiner, where):
            found = ids.find(title, text)
            same_title = list(dict.fromkeys(by_title.get(title, [])))
            if found is None and len(same_title) == 1:
                found = same_title[0]
            if found is None:
                raise FormatError(
                    f"{where}: gold passage {title!r} is not in {corpus_path}; "
                    "use the corpus the questions were made with"
                )
            relevant.append(found.doc_id)
        question = _question(record, relevant, where)
        if question is not None:
            questions.append(question)
    return Dataset(name, ids.passages(), tuple(questions))


def passages_to_jsonl(passages: Iterable[Passage]) -> str:
    """Passages in the JSON Lines form that ``groundgraph index`` and ``parse_jsonl`` read."""
    return "".join(
        json.dumps({"id": p.doc_id, "title": p.title, "text": p.text}, ensure_ascii=False) + "\n"
        for p in passages
    )


def add_passages(
    graph: DocumentGraph,
    passages: Sequence[Passage],
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Add each passage as a plain-text document (a passage with no title is titled by its id).

    Returns how many were added; ``progress(done, total)`` is called after each one.
    """
    for done, p in enumerate(passages, start=1):
        graph.add_document(
            p.text, p.title if p.title.strip() else p.doc_id, p.doc_id, format="text"
        )
        if progress is not None:
            progress(done, len(passages))
    return len(passages)
