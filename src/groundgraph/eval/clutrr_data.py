"""CLUTRR data: read the CSVs of both published layouts into ClutrrRow records.

CLUTRR (Sinha et al., EMNLP 2019) is CC BY-NC 4.0: read it for evaluation from a path the
user gives; nothing derived from it ships with groundgraph.

Both published layouts are read: the Hugging Face CSV mirror (``target`` a number,
``target_text`` the relation) and the EMNLP release (``target`` the relation). In each row
``story_edges`` lists the edges (i, j) of the story graph, ``edge_types`` their relations
(edge (i, j) with type r: person j is the r of person i), ``query_edge`` the pair (a, b)
asked about, and ``genders`` gives "Name:gender" for each person in node order. The three
list columns are Python literals, read with ``ast.literal_eval`` only.
"""

from __future__ import annotations

import ast
import csv
import fnmatch
import io
import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from groundgraph.errors import FormatError, InputError

_TASK = re.compile(r"task_\d+\.(\d+)$")
_MAX_LITERAL = 20_000  # characters in one list column; real rows use well under 1,000


@dataclass(frozen=True, slots=True)
class ClutrrRow:
    """One CLUTRR story, reduced to its graph, its query and the gold relation."""

    row_id: str
    story_edges: tuple[tuple[int, int], ...]
    edge_types: tuple[str, ...]
    query_edge: tuple[int, int]
    names: tuple[str, ...]
    genders: tuple[str, ...]
    target: str
    hops: int

    @property
    def clean(self) -> bool:
        """A clean chain: edges (0,1), (1,2), …, (k−1,k) and the query (0, k)."""
        k = len(self.story_edges)
        return self.story_edges == tuple((i, i + 1) for i in range(k)) and self.query_edge == (
            0,
            k,
        )


def _literal(text: str, column: str, where: str) -> Any:
    if len(text) > _MAX_LITERAL:
        raise FormatError(f"{where}: column {column} is over {_MAX_LITERAL:,} characters")
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError) as error:
        raise FormatError(f"{where}: column {column} is not a Python literal: {error}") from None


def _pair(value: Any) -> tuple[int, int] | None:
    if (
        isinstance(value, (tuple, list))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        return (value[0], value[1])
    return None


def parse_clutrr_row(record: Mapping[str, str], where: str = "row") -> ClutrrRow:
    """One CSV record as a ClutrrRow; FormatError says what is wrong and where."""
    missing = [c for c in ("story_edges", "edge_types", "query_edge", "genders") if c not in record]
    target_column = "target_text" if "target_text" in record else "target"
    if missing or target_column not in record:
        raise FormatError(f"{where}: missing CLUTRR column(s) {missing or [target_column]}")
    raw_edges = _literal(record["story_edges"], "story_edges", where)
    edges = [_pair(e) for e in raw_edges] if isinstance(raw_edges, (list, tuple)) else [None]
    types = _literal(record["edge_types"], "edge_types", where)
    query = _pair(_literal(record["query_edge"], "query_edge", where))
    if any(e is None for e in edges) or query is None:
        raise FormatError(f"{where}: story_edges and query_edge must hold (int, int) pairs")
    if not isinstance(types, (list, tuple)) or not all(isinstance(t, str) for t in types):
        raise FormatError(f"{where}: edge_types must be a list of strings")
    if len(types) != len(edges):
        raise FormatError(f"{where}: {len(edges)} story_edges but {len(types)} edge_types")
    people = [item.rsplit(":", 1) for item in record["genders"].split(",") if item]
    if any(len(p) != 2 for p in people):
        raise FormatError(f"{where}: genders must read 'Name:gender,Name:gender,…'")
    nodes = [n for e in edges if e is not None for n in e] + list(query)
    if nodes and max(nodes) >= len(people):
        raise FormatError(f"{where}: node {max(nodes)} has no entry in genders")
    task = _TASK.search(record.get("task_name", "") or "")
    return ClutrrRow(
        row_id=record.get("id", "") or where,
        story_edges=tuple(e for e in edges if e is not None),
        edge_types=tuple(types),
        query_edge=query,
        names=tuple(p[0].strip() for p in people),
        genders=tuple(p[1].strip() for p in people),
        target=record[target_column].strip(),
        hops=int(task.group(1)) if task else len(types),
    )


def read_clutrr_csv(stream: TextIO, name: str = "csv") -> list[ClutrrRow]:
    """Every row of one CLUTRR CSV."""
    return [
        parse_clutrr_row(record, f"{name} row {i}")
        for i, record in enumerate(csv.DictReader(stream))
    ]


def load_clutrr(path: str | Path, pattern: str = "*test.csv") -> list[ClutrrRow]:
    """Rows from a CSV file, or from every file matching ``pattern`` in a folder or a zip.

    Files are read in order of hop count where the name gives one (``1.10_test.csv``
    after ``1.9_test.csv``), else by name.
    """
    path = Path(path)
    if path.is_file() and path.suffix != ".zip":
        with path.open(encoding="utf-8-sig", newline="") as stream:
            return read_clutrr_csv(stream, str(path))
    rows: list[ClutrrRow] = []
    if path.is_dir():
        for file in sorted(path.glob(pattern), key=_file_order):
            rows += load_clutrr(file)
    elif path.suffix == ".zip" and path.is_file():
        with zipfile.ZipFile(path) as archive:
            for member in sorted(fnmatch.filter(archive.namelist(), pattern), key=_file_order):
                with archive.open(member) as raw:
                    text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
                    rows += read_clutrr_csv(text, f"{path}:{member}")
    else:
        raise InputError(f"{path} is not a CLUTRR CSV file, a folder of them or a zip")
    if not rows:
        raise InputError(f"no rows in files matching {pattern!r} under {path}")
    return rows


def _file_order(name: str | Path) -> tuple[str, int, str]:
    text = str(name)
    found = re.search(r"(\d+)\.(\d+)_[^/]*$", text)
    return (text[: found.start()] if found else text, int(found.group(2)) if found else 0, text)
