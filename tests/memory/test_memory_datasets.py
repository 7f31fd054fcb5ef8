"""The built-in datasets: present, well formed, consistent, and causal where they say so."""

from __future__ import annotations

import itertools
import re
from importlib import resources

import pytest

from groundgraph.errors import InputError, NotFoundError
from groundgraph.memory import (
    DatasetFact,
    DatasetQuestion,
    RuleConflictResolver,
    dataset_description,
    dataset_names,
    dataset_questions,
    load_dataset_facts,
)
from groundgraph.text import sentences

CAUSAL = ["causal", "climate", "economy", "financial", "health", "infra", "medical"]
#: ReasonGraph's six domains, each with questions and their expected chains.
REASONGRAPH = ["analysis_patterns", "causal", "financial", "medical", "syllogisms", "taxonomy"]
CUE = re.compile(
    r"\b(?:leads? to|led to|causes?|caused|results? in|because of|caused by|can lead to)\b",
    re.IGNORECASE,
)


def test_the_promised_datasets_are_there() -> None:
    names = dataset_names()
    assert set(CAUSAL) | set(REASONGRAPH) <= set(names)
    assert names == sorted(names)


@pytest.mark.parametrize("name", dataset_names())
def test_each_dataset_is_well_formed(name: str) -> None:
    facts = load_dataset_facts(name)
    assert len(facts) >= 12
    assert all(isinstance(f, DatasetFact) for f in facts)
    texts = [f.text for f in facts]
    assert len(set(texts)) == len(texts), "a dataset repeats a fact"
    for fact in facts:
        assert len(sentences(fact.text)) == 1, fact.text
        assert fact.text.endswith(".") and fact.text[0].isupper()
        assert all(isinstance(s, str) and s for s in fact.scopes)
    assert len(dataset_description(name)) > 20


@pytest.mark.parametrize("name", dataset_names())
def test_no_dataset_contradicts_itself(name: str) -> None:
    """Loading a dataset with the default resolver must not retire any of its facts."""
    texts = [f.text for f in load_dataset_facts(name)]
    resolver = RuleConflictResolver()
    clashes = [(a, b) for a, b in itertools.permutations(texts, 2) if resolver.explain(a, b)]
    assert clashes == []


@pytest.mark.parametrize("name", CAUSAL)
def test_causal_datasets_use_explicit_cues(name: str) -> None:
    facts = load_dataset_facts(name)
    with_cue = [f for f in facts if CUE.search(f.text)]
    assert len(with_cue) >= 0.85 * len(facts)


def test_infra_spreads_its_chains_over_agents() -> None:
    scopes = {s for f in load_dataset_facts("infra") for s in f.scopes}
    assert scopes == {"monitoring", "oncall", "dba"}


def _longest_chain(links: dict[int, set[int]]) -> int:
    best = 0

    def walk(node: int, seen: frozenset[int]) -> None:
        nonlocal best
        best = max(best, len(seen))
        for nxt in links.get(node, ()):
            if nxt not in seen:
                walk(nxt, seen | {nxt})

    for start in links:
        walk(start, frozenset({start}))
    return best


@pytest.mark.parametrize("name", CAUSAL)
def test_the_causal_extractor_chains_the_facts(name: str) -> None:
    causal = pytest.importorskip("groundgraph.ingest.causal")
    facts = load_dataset_facts(name)
    pairs = [causal.extract_causal(f.text) for f in facts]
    assert sum(bool(p) for p in pairs) >= 0.85 * len(facts)
    links: dict[int, set[int]] = {}
    for (i, a), (j, b) in itertools.permutations(enumerate(pairs), 2):
        if any(causal.same_span(x.effect, y.cause) for x in a for y in b):
            links.setdefault(i, set()).add(j)
    assert _longest_chain(links) >= 4  # a cause reaches an effect three facts away


def test_an_unknown_name_lists_the_names() -> None:
    with pytest.raises(NotFoundError, match="climate, economy") as error:
        load_dataset_facts("weather")
    assert "'weather'" in str(error.value)


@pytest.mark.parametrize(
    "name", ["", "../pyproject", "climate.json", "CLIMATE", "x" * 10_000, "climate\x00", "\ud800"]
)
def test_names_that_are_not_datasets_are_not_found(name: str) -> None:
    with pytest.raises(NotFoundError) as error:
        load_dataset_facts(name)
    assert len(str(error.value)) < 300


@pytest.mark.parametrize("name", [None, 3, b"climate", ["climate"]])
def test_a_name_that_is_not_text_is_refused(name: object) -> None:
    with pytest.raises(InputError, match="dataset name is a string"):
        load_dataset_facts(name)  # type: ignore[arg-type]


def test_the_files_are_package_data() -> None:
    folder = resources.files("groundgraph.memory").joinpath("datasets")
    files = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".json"))
    assert files == [f"{name}.json" for name in dataset_names()]


def test_facts_come_back_fresh_each_time() -> None:
    first = load_dataset_facts("taxonomy")
    first.clear()
    assert len(load_dataset_facts("taxonomy")) >= 12


@pytest.mark.parametrize("name", REASONGRAPH)
def test_reasongraph_domains_have_questions_with_chains_from_the_dataset(name: str) -> None:
    questions = dataset_questions(name)
    assert len(questions) >= 3
    texts = [f.text for f in load_dataset_facts(name)]
    for question in questions:
        assert isinstance(question, DatasetQuestion)
        assert question.question.endswith("?")
        assert 2 <= len(question.chain) <= 6
        assert set(question.chain) <= set(texts)
        assert len(set(question.chain)) == len(question.chain)
    assert len({q.question for q in questions}) == len(questions)


@pytest.mark.parametrize("name", ["causal", "financial", "medical"])
def test_causal_question_chains_follow_the_extracted_links(name: str) -> None:
    """Consecutive facts of an expected chain meet: an effect of one is a cause of the next."""
    causal = pytest.importorskip("groundgraph.ingest.causal")
    for question in dataset_questions(name):
        pairs = [causal.extract_causal(text) for text in question.chain]
        for earlier, later in itertools.pairwise(pairs):
            assert any(causal.same_span(x.effect, y.cause) for x in earlier for y in later), (
                question.question
            )


def test_a_dataset_without_questions_has_none() -> None:
    assert dataset_questions("infra") == []


def test_a_chain_naming_a_missing_fact_is_a_format_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from groundgraph.errors import FormatError
    from groundgraph.memory import datasets

    data = dict(datasets._load("causal"))
    data["questions"] = [{"question": "Why?", "chain": ["Not a fact of the dataset."]}]
    monkeypatch.setattr(datasets, "_load", lambda name: data)
    with pytest.raises(FormatError, match="lacks"):
        dataset_questions("causal")
    data["questions"] = [{"question": "Why?", "chain": []}]
    with pytest.raises(FormatError, match="non-empty list"):
        dataset_questions("causal")
