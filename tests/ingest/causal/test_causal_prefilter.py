"""The causal cue prefilter: searching a cue's pattern only in sentences that hold one of
its literal words finds the same markers as searching every pattern."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from groundgraph.ingest.causal.language import TABLES
from groundgraph.ingest.causal.markers import find_markers
from groundgraph.ingest.literals import literals

CUE_WORDS = sorted(
    {w for t in TABLES.values() for c in t.cues for w in literals(c.pattern).words or ()}
)
FILLER = ["the", "storm", "flooded", "roads", "Regen", "la", "pluie", ",", ".", "we", "closed"]
words = st.sampled_from(CUE_WORDS + FILLER)


@given(st.lists(words, min_size=1, max_size=14), st.sampled_from(sorted(TABLES)))
def test_prefiltered_markers_are_the_markers(parts: list[str], language: str) -> None:
    sentence = " ".join(parts)
    tables = [TABLES[language]]
    assert find_markers(sentence, 0, tables) == find_markers(sentence, 0, tables, prefilter=False)
