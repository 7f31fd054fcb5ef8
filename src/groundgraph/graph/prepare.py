"""The text-only half of adding a document, which a worker process can do.

Adding a document has two halves. One needs nothing but the document's text: parsing, the
term counts of each node, the candidate entity mentions and the stated relations. The
other needs the graph as it stands: document titles, the lexical index, the semantic
postings, the store. ``prepare`` does the first half and returns a ``PreparedDocument``
(plain data, so it crosses process boundaries); ``DocumentGraph`` does the second half in
document order, so a graph built from prepared documents is the graph built one document
at a time. Mentions of document titles belong to the second half: which titles exist
depends on what was added before. A worker that is told the titles the graph will know
(``TitleSnapshot``: a run that expects every title it brings) finds them too, and makes
the document's evidence layer (``graph.evidence``); the writer takes it when its own
titles are still those (``TitleSnapshot.state``), else makes it again itself.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from groundgraph.errors import GroundgraphError
from groundgraph.graph.evidence import evidence_for, has_prose
from groundgraph.index.bm25 import BM25Params, LexicalIndex
from groundgraph.index.term_batch import TermBatch
from groundgraph.ingest.entities import Mention, untitled_mentions
from groundgraph.ingest.folder import PlannedFile, SkippedFile, read_file
from groundgraph.ingest.parsed import ParsedDocument
from groundgraph.ingest.relations import RelationMention, extract_relations
from groundgraph.model import Edge, Node
from groundgraph.model.ids import check_doc_id
from groundgraph.text import Analyzer, sentence_spans, words

if TYPE_CHECKING:
    from groundgraph.ingest.entities.titles import TitleMatcher

#: A node's candidate mentions before titles are added, and the text titles are found in
#: (None: the node's own text).
Untitled = tuple[list[Mention], str | None]


@dataclass(frozen=True)
class PrepareSettings:
    """What the text-only half needs to know of the graph: its analyzer and extractors.

    ``entities`` and ``relations`` say whether the default extractors run here; a graph
    with extractors of its own runs those itself.
    """

    language: str
    title_boost: int
    max_chunk_chars: int
    entities: bool
    relations: bool


@dataclass(frozen=True)
class TitleSnapshot:
    """The titles a graph's matcher looks for (``TitleMatcher.titles``, in order) and its
    ``state`` then: evidence made with them holds while the graph's matcher is in it."""

    state: tuple[int, int]
    titles: tuple[str, ...]


@dataclass(frozen=True)
class PreparedEvidence:
    """A document's entity nodes and evidence edges (``graph.evidence.evidence_for``),
    made with the titles of the matcher in ``state``."""

    state: tuple[int, int]
    entities: list[Node]
    edges: list[Edge]


@dataclass(frozen=True)
class PreparedDocument:
    """A parsed document with the per-node results of the text-only half, in node order.

    ``counts`` are the nodes' term counts; ``words`` each node's ``text.words`` joined by
    spaces (document titles named in it are looked up in them; a word holds no space, and
    one string loads many times faster than a list of them); ``sentences`` the sentence
    spans of each node that has candidate mentions (None for the others). ``mentions``
    and ``relations`` are None when the graph's own extractors must run; a node that is
    blank gets empty results. ``evidence`` is the evidence layer, when a worker was told
    the titles (None otherwise).
    """

    parsed: ParsedDocument
    counts: TermBatch
    words: list[str]
    mentions: list[Untitled] | None
    sentences: list[list[tuple[int, int]] | None] | None
    relations: list[list[RelationMention]] | None
    evidence: PreparedEvidence | None = None


@dataclass(frozen=True)
class PreparedFile:
    """A read file's prepared documents, and its lines that were skipped (JSON Lines)."""

    documents: list[PreparedDocument]
    skipped: list[SkippedFile]


class Preparer:
    """Runs the text-only half with one graph's settings (one per process)."""

    def __init__(self, settings: PrepareSettings, titles: TitleSnapshot | None = None) -> None:
        self.settings = settings
        self._index = LexicalIndex(
            Analyzer(settings.language), BM25Params(title_boost=settings.title_boost)
        )
        self._titles: tuple[tuple[int, int], TitleMatcher] | None = None
        if titles is not None and settings.entities and settings.relations:
            from groundgraph.ingest.entities.titles import TitleMatcher

            self._titles = (titles.state, TitleMatcher(titles.titles))

    def prepare(self, parsed: ParsedDocument) -> PreparedDocument:
        document = parsed.document
        if not document.content_hash:
            digest = hashlib.sha256(parsed.source_text.encode("utf-8", "surrogatepass"))
            parsed = replace(parsed, document=replace(document, content_hash=digest.hexdigest()))
        nodes = parsed.nodes
        node_words = [words(n.content) for n in nodes]
        counts = [
            self._index.counter.counts_of(n.title, w)
            for n, w in zip(nodes, node_words, strict=True)
        ]
        prose = [n.content if has_prose(n) else "" for n in nodes]
        mentions = sentences = None
        if self.settings.entities:
            mentions = [untitled_mentions(text) if text else ([], None) for text in prose]
            sentences = [
                sentence_spans(text) if found else None
                for text, (found, _) in zip(prose, mentions, strict=True)
            ]
        relations = None
        if self.settings.relations:
            relations = [extract_relations(text) if text else [] for text in prose]
        joined = [" ".join(w) for w in node_words]
        evidence = None
        if self._titles is not None and mentions is not None and relations is not None:
            from groundgraph.graph.title_mentions import titled_mentions

            state, matcher = self._titles
            titled = titled_mentions(nodes, mentions, matcher)
            entities, edges = evidence_for(
                nodes, None, None, mentions=titled, stated=relations, sentences=sentences
            )
            evidence = PreparedEvidence(state, entities, edges)
        return PreparedDocument(
            parsed, TermBatch.of(counts), joined, mentions, sentences, relations, evidence
        )

    def prepare_file(self, planned: PlannedFile) -> tuple[PlannedFile, PreparedFile | SkippedFile]:
        """Parse one planned file and prepare its documents; a file that fails is skipped,
        and so is each bad line of a JSON Lines file (the others are kept)."""
        contents = read_file(planned, max_chunk_chars=self.settings.max_chunk_chars)
        if contents.skipped and contents.skipped[0].line is None:  # the whole file
            return planned, contents.skipped[0]
        try:
            for item in contents.documents:
                check_doc_id(item.document.doc_id)
        except GroundgraphError as exc:
            return planned, SkippedFile(str(planned.path), str(exc))
        prepared = [self.prepare(item) for item in contents.documents]
        return planned, PreparedFile(prepared, contents.skipped)
