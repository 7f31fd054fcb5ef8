"""ReasonGraph's options on the memory verbs: answer(use_discover, max_results),
supersede(extractor, purge_orphans), add_text(causal_extractor) and forget_every=None."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from groundgraph import DocumentGraph, InputError, NotFoundError
from groundgraph.ingest.causal import CausalPair
from groundgraph.memory import FactContext

# The query matches the first fact only; the second shares "Arizona" with it, the third
# shares "Phoenix" with the second: a discover walk reaches both through those entities.
WATER = "Officials in Arizona declared a water emergency after Lake Mead dropped."
FAB = "TSMC is building a chip fab in Phoenix, Arizona."
CUTS = "Regulators in Phoenix ordered industrial cuts."


class Recording:
    """A synthesizer that writes the facts it was given, and keeps them."""

    def __init__(self) -> None:
        self.facts: list[FactContext] = []

    def __call__(self, question: str, facts: Sequence[FactContext]) -> str:
        self.facts = list(facts)
        return " ".join(f.text for f in facts)


@pytest.fixture
def memory() -> DocumentGraph:
    graph = DocumentGraph(conflict_resolver=False)
    graph.add_texts([WATER, FAB, CUTS], scopes=["agents"])
    return graph


# ----------------------------------------------------------------------------- answer
def test_answer_uses_discover_by_default_with_the_bridging_entities(memory):
    told = Recording()
    result = memory.answer("water emergency", top_k=1, synthesizer=told)
    texts = [f.text for f in told.facts]
    assert texts[0] == WATER and set(texts) == {WATER, FAB, CUTS}
    by_text = {f.text: f for f in told.facts}
    assert by_text[WATER].bridges == ()  # the seed itself
    assert "Arizona" in by_text[FAB].bridges
    assert {"Phoenix"} <= set(by_text[CUTS].bridges)
    assert result.status == "answered" and all(s.supported for s in result.sentences)


def test_answer_without_discover_is_the_top_k_of_query(memory):
    told = Recording()
    memory.answer("water emergency", top_k=1, use_discover=False, synthesizer=told)
    assert [f.text for f in told.facts] == memory.query("water emergency", top_k=1) == [WATER]
    assert told.facts[0].bridges == ()


def test_max_results_caps_what_discover_hands_over(memory):
    told = Recording()
    memory.answer("water emergency", top_k=1, max_results=2, synthesizer=told)
    found = [c.content for c in memory.discover("water emergency", top_k=1, max_results=2)]
    assert [f.text for f in told.facts] == found and len(found) == 2


def test_answer_takes_scopes_and_search_mode(memory):
    assert memory.answer("water emergency", scopes=["someone-else"]).status == "no_facts"
    told = Recording()
    memory.answer(
        "water emergency", top_k=1, search_mode="keyword", scopes=["agents"], synthesizer=told
    )
    assert told.facts and told.facts[0].text == WATER


def test_the_prompt_names_the_entities_that_link_a_fact(memory):
    from groundgraph.memory import PromptSynthesizer

    prompts: list[str] = []
    memory.answer(
        "water emergency",
        top_k=1,
        synthesizer=PromptSynthesizer(lambda p: prompts.append(p) or "Arizona is dry."),
    )
    assert "linked through" in prompts[0] and "Arizona" in prompts[0]


def test_use_discover_given_in_top_k_s_place_says_to_name_it(memory):
    with pytest.raises(InputError, match="use_discover=False"):
        memory.answer("water emergency", False)  # ReasonGraph's positional order
    with pytest.raises(InputError, match="use_discover"):
        memory.answer("water emergency", use_discover="yes")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="max_results"):
        memory.answer("water emergency", max_results=0)


# ----------------------------------------------------------------------------- supersede
def test_supersede_with_an_extractor_names_the_new_facts_entities(memory):
    new = memory.supersede(
        FAB, "TSMC moved the fab plan to Zeeland.", extractor=lambda t: ["Zeeland"]
    )
    assert new.entities == ("Zeeland",)
    assert memory.fact(FAB).invalid_at is not None  # retired, kept


def test_supersede_with_purge_orphans_erases_the_old_fact(memory):
    old = memory.fact(FAB)
    before = {n.node_id for n in memory.store.reads.entity_nodes()}
    assert {"entity:tsmc", "entity:phoenix"} <= before
    new = memory.supersede(FAB, "A chip fab is being built in Phoenix.", purge_orphans=True)
    with pytest.raises(NotFoundError):
        memory.fact(old.fact_id)
    assert memory.fact(new.fact_id).invalid_at is None and new.superseded == ()
    assert memory.supersession_history(new.fact_id).supersedes == ()
    after = {n.node_id for n in memory.store.reads.entity_nodes()}
    assert "entity:tsmc" not in after  # only the old fact named it
    assert "entity:phoenix" in after  # the new fact and another name it
    # the old text is gone from recall, retired facts included
    assert FAB not in memory.query("chip fab Arizona TSMC", include_superseded=True)
    assert memory.conflicts() == []  # no ledger line keeps its text


def test_supersede_without_purge_keeps_the_old_fact_retired(memory):
    memory.supersede(FAB, "TSMC is building a chip fab in Phoenix.")
    assert FAB in memory.query("chip fab Arizona", include_superseded=True)
    with pytest.raises(InputError, match="purge_orphans"):
        memory.supersede(WATER, "Arizona is dry.", purge_orphans="yes")  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- causal_extractor
def first_half_causes_second(text: str) -> list[CausalPair]:
    """A deterministic causal extractor: the text's first word causes its last word."""
    words = text.rstrip(".").split()
    first, last = words[0], words[-1]
    start = text.rindex(last)
    return [CausalPair(first, last, (0, len(first)), (start, start + len(last)), "fake", "en")]


def test_add_text_takes_a_causal_extractor_per_call():
    graph = DocumentGraph(causal_extractor=False, conflict_resolver=False)
    plain = graph.add_text("Drought shrank the harvest.")
    assert plain.causes == ()
    fact = graph.add_text("Rain flooded the valley.", causal_extractor=first_half_causes_second)
    assert fact.causes == (("Rain", "valley"),)
    off = graph.add_text(
        "Snow closed roads.", causal=False, causal_extractor=first_half_causes_second
    )
    assert off.causes == ()
    batch = graph.add_texts(
        ["Heat dried fields.", "Wind felled trees."], causal_extractor=first_half_causes_second
    )
    assert [f.causes for f in batch] == [(("Heat", "fields"),), (("Wind", "trees"),)]
    assert graph.trace_effects("Rain")["terminals"] == ["valley"]


def test_a_causal_extractor_is_given_once_and_must_be_callable():
    graph = DocumentGraph(conflict_resolver=False)
    with pytest.raises(InputError, match="once"):
        graph.add_text(
            "Rain flooded the valley.",
            causal=lambda t: [],
            causal_extractor=first_half_causes_second,
        )
    with pytest.raises(InputError, match="causal_extractor"):
        graph.add_text("Rain flooded the valley.", causal_extractor="cue")  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- forget_every
def test_forget_every_none_never_sweeps(tmp_path):
    path = tmp_path / "never.db"
    never = DocumentGraph(path, forget_after=0, forget_every=None)
    never.add_text("A fact that nobody reads.")
    assert never.memory_settings.forget_every is None
    assert never.maybe_forget() == [] and never.maybe_forget() == []
    assert len(never.delete_stale()) == 1  # a sweep asked for by name still runs
    never.close()
    eager = DocumentGraph(path, forget_after=0, forget_every=0)
    eager.add_text("Another fact that nobody reads.")
    assert len(eager.maybe_forget()) == 1
    eager.close()


@pytest.mark.parametrize("bad", [-1, "soon", True, float("nan")])
def test_forget_every_is_checked(bad):
    with pytest.raises(InputError, match="forget_every"):
        DocumentGraph(forget_every=bad)


def test_an_extractor_in_scopes_place_says_to_name_it():
    graph = DocumentGraph(conflict_resolver=False)
    with pytest.raises(InputError, match="extractor="):
        graph.add_text("Apple released the iPhone.", lambda t: ["Apple"])  # type: ignore[arg-type]
    assert graph.add_text("Apple released the iPhone.", extractor=lambda t: ["Apple"]).entities == (
        "Apple",
    )
