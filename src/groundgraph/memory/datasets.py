"""Small built-in datasets of facts, written for groundgraph, to try the memory on.

Each is a JSON file in ``memory/datasets/``: ``{"name", "description", "domain",
"language", "facts": [{"text", "scopes"?}], "questions"?: [{"question", "chain"}]}``, one
sentence per fact. Seven are causal (``infra``, ``health``, ``economy``, ``climate``,
``causal``, ``financial``, ``medical``): every fact names a cause and an effect with an
explicit cue ("leads to", "causes", "results in", "because of", "is caused by"), and the
effect of one fact is worded exactly as the cause of the next, so the causal extractor
links them into chains; ``infra`` also spreads its facts over three agents' scopes.
``taxonomy`` is an is-a tree, ``syllogisms`` seven premise-premise-conclusion triples and
``analysis_patterns`` chains from what data looks like to the technique and its tool.

The six named after ReasonGraph's domains (``causal``, ``taxonomy``, ``syllogisms``,
``financial``, ``medical``, ``analysis_patterns``) carry questions, each with the facts of
its expected chain in order (``dataset_questions``; ``benchmarks/datasets.py`` scores them).

``graph.load_dataset(name)`` adds a dataset's facts with their scopes.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from groundgraph.errors import FormatError, InputError, NotFoundError

__all__ = [
    "DatasetFact",
    "DatasetQuestion",
    "dataset_description",
    "dataset_names",
    "dataset_questions",
    "load_dataset_facts",
]

_PACKAGE = "groundgraph.memory"
_FOLDER = "datasets"
_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
_MAX_FILE_BYTES = 1_000_000
_MAX_FACT_CHARS = 2_000


@dataclass(frozen=True, slots=True)
class DatasetFact:
    """One fact of a dataset and the scopes it is added with (none: visible to all)."""

    text: str
    scopes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DatasetQuestion:
    """A question over a dataset and the facts of the chain that answers it, in order."""

    question: str
    chain: tuple[str, ...]


def dataset_names() -> list[str]:
    """The names of the built-in datasets, sorted."""
    folder = resources.files(_PACKAGE).joinpath(_FOLDER)
    return sorted(
        entry.name[: -len(".json")]
        for entry in folder.iterdir()
        if entry.name.endswith(".json") and _NAME.match(entry.name[: -len(".json")])
    )


def _checked_name(name: object) -> str:
    if not isinstance(name, str):
        raise InputError(f"a dataset name is a string, not {type(name).__name__}")
    names = dataset_names()
    if name not in names:
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise NotFoundError(f"no built-in dataset {shown!r}; choose one of: {', '.join(names)}")
    return name


@functools.lru_cache(maxsize=32)
def _load(name: str) -> dict[str, Any]:
    raw = resources.files(_PACKAGE).joinpath(_FOLDER, f"{name}.json").read_bytes()
    if len(raw) > _MAX_FILE_BYTES:
        raise FormatError(f"dataset {name!r} is over {_MAX_FILE_BYTES:,} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise FormatError(f"dataset {name!r} is not UTF-8 JSON: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("facts"), list):
        raise FormatError(f'dataset {name!r} is not an object with a "facts" list')
    return data


def _fact(name: str, index: int, row: object) -> DatasetFact:
    where = f"dataset {name!r}, fact {index}"
    if not isinstance(row, dict) or not isinstance(row.get("text"), str):
        raise FormatError(f'{where}: not an object with a "text" string')
    text, scopes = row["text"].strip(), row.get("scopes", [])
    if not text or len(text) > _MAX_FACT_CHARS:
        raise FormatError(f"{where}: the text is empty or over {_MAX_FACT_CHARS:,} characters")
    if not isinstance(scopes, list) or not all(isinstance(s, str) and s for s in scopes):
        raise FormatError(f'{where}: "scopes" is not a list of non-empty strings')
    return DatasetFact(text, tuple(scopes))


def load_dataset_facts(name: str) -> list[DatasetFact]:
    """The facts of the built-in dataset ``name``, in file order.

    NotFoundError (listing the names) for a name that is not a built-in dataset.
    """
    name = _checked_name(name)
    return [_fact(name, i, row) for i, row in enumerate(_load(name)["facts"])]


def dataset_description(name: str) -> str:
    """One sentence on what the dataset ``name`` holds."""
    description = _load(_checked_name(name)).get("description", "")
    return description if isinstance(description, str) else ""


def dataset_questions(name: str) -> list[DatasetQuestion]:
    """The questions of the built-in dataset ``name`` (none for a dataset without them).

    Every fact of a chain is a fact of the dataset, word for word (FormatError if not).
    """
    name = _checked_name(name)
    texts = {f.text for f in load_dataset_facts(name)}
    rows = _load(name).get("questions", [])
    if not isinstance(rows, list):
        raise FormatError(f'dataset {name!r}: "questions" is not a list')
    return [_question(name, i, row, texts) for i, row in enumerate(rows)]


def _question(name: str, index: int, row: object, texts: set[str]) -> DatasetQuestion:
    where = f"dataset {name!r}, question {index}"
    if not isinstance(row, dict) or not isinstance(row.get("question"), str):
        raise FormatError(f'{where}: not an object with a "question" string')
    chain = row.get("chain")
    if not isinstance(chain, list) or not chain or not all(isinstance(c, str) for c in chain):
        raise FormatError(f'{where}: "chain" is not a non-empty list of fact texts')
    unknown = [c for c in chain if c not in texts]
    if unknown:
        raise FormatError(f"{where}: the chain names a fact the dataset lacks: {unknown[0]!r}")
    return DatasetQuestion(row["question"].strip(), tuple(chain))
