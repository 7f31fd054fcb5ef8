"""Records of the views of a graph: one node with its links, a document in the list, counts."""

from __future__ import annotations

from dataclasses import dataclass, field

from groundgraph.model.record import Record


@dataclass(frozen=True, slots=True)
class NodeRef(Record):
    """A node named by id, with its title."""

    node_id: str
    title: str


@dataclass(frozen=True, slots=True)
class NodeLink(Record):
    """A link of a node other than parent-child: the node at the other end and the edge."""

    node_id: str
    title: str
    type: str
    direction: str  # "out" | "in"
    weight: float


@dataclass(frozen=True, slots=True)
class NodeView(Record):
    """A node with its parent, children and other links (``show``)."""

    node_id: str
    doc_id: str
    title: str
    type: str
    level: int
    content: str
    span: tuple[int, int]
    parent_id: str | None
    parent_title: str | None
    children: tuple[NodeRef, ...] = ()
    links: tuple[NodeLink, ...] = ()


@dataclass(frozen=True, slots=True)
class DocumentInfo(Record):
    """A document in the graph's list (``documents``)."""

    doc_id: str
    title: str
    description: str
    source: str
    added_at: str
    nodes: int


@dataclass(frozen=True, slots=True)
class SkippedFile(Record):
    """A file or folder that was not read, or one line of a JSON Lines file, and why.

    ``line`` is the line number (from 1) of a skipped JSON Lines line, None for a whole
    file. ``ignored`` is True for a file left out by rule (hidden, not a kind that is read,
    a symlink leading out of the folder, listed twice), False for one that could not be
    read: only those make ``groundgraph index`` exit with the "skipped" code.
    """

    path: str
    reason: str
    line: int | None = None
    ignored: bool = False


@dataclass(frozen=True, slots=True)
class ReplacedText(Record):
    """A document stored with ``replaced`` code points of its input that were not valid
    Unicode (lone surrogates, e.g. a JSON ``"\\ud800"`` escape) turned into U+FFFD."""

    path: str
    doc_id: str
    replaced: int


@dataclass(frozen=True, slots=True)
class PlannedChange(Record):
    """What indexing would do to one document: ``added``, ``changed`` or ``unchanged``."""

    doc_id: str
    path: str
    change: str


@dataclass(frozen=True, slots=True)
class IndexPlan(Record):
    """What indexing a list of files would do (``plan_index``), without writing.

    ``skipped`` holds the files that would not be read and why; ``removed`` the ids of
    documents whose files are gone (with ``prune``).
    """

    changes: tuple[PlannedChange, ...] = ()
    skipped: tuple[SkippedFile, ...] = ()
    removed: tuple[str, ...] = ()

    def ids(self, change: str) -> list[str]:
        """The ids of the documents with this change."""
        return [c.doc_id for c in self.changes if c.change == change]


@dataclass(frozen=True)
class GraphStats(Record):
    """Counts of a graph (``stats``)."""

    documents: int
    nodes: int
    edges: int
    edge_types: dict[str, int] = field(default_factory=dict)
    terms: int = 0
    language: str = ""
    generation: int = 0
