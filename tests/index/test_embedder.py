"""The embedder adapter: every kind of embedder gives the same unit float32 rows."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fake_embedder import DIM, BagEmbedder, hashed_bag
from groundgraph.errors import InputError
from groundgraph.index.embedder import EmbedderMismatchError, TextEmbedder, as_embedder

TEXTS = ["a red car", "the car crashed", "blue sky today", "red red red"]


class FakeTensor:
    """Quacks like a torch tensor: detach, cpu, numpy."""

    def __init__(self, data: np.ndarray) -> None:
        self.data = data

    def detach(self) -> FakeTensor:
        return self

    def cpu(self) -> FakeTensor:
        return self

    def numpy(self) -> np.ndarray:
        return self.data


def unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1
    return rows / norms


@pytest.mark.parametrize(
    "embedder",
    [
        hashed_bag,
        lambda texts: hashed_bag(texts).tolist(),
        lambda texts: [hashed_bag(t) for t in texts],
        lambda texts: FakeTensor(hashed_bag(texts).astype(np.float32)),
        lambda texts: unit(hashed_bag(texts)),
        BagEmbedder(),
    ],
    ids=["numpy", "lists", "list-of-vectors", "tensor", "normalised", "encode-object"],
)
def test_every_kind_of_embedder_gives_the_same_unit_rows(embedder):
    rows = as_embedder(embedder).embed(TEXTS)
    assert rows.dtype == np.float32 and rows.shape == (len(TEXTS), DIM)
    np.testing.assert_allclose(rows, unit(hashed_bag(TEXTS)), atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-6)


def test_texts_go_in_batches_and_a_query_is_one_vector():
    bag = BagEmbedder()
    embedder = as_embedder(bag)
    embedder.batch_size = 3
    rows = embedder.embed([f"text number {i}" for i in range(7)])
    assert bag.calls == [3, 3, 1] and rows.shape == (7, DIM)
    query = embedder.embed_query("text number 2")
    np.testing.assert_allclose(query, rows[2], atol=1e-6)


def test_the_name_comes_from_the_object_or_where_it_is_defined():
    assert as_embedder(BagEmbedder()).name == "hashed-bag"
    assert as_embedder(hashed_bag).name == "fake_embedder.hashed_bag"
    assert as_embedder(hashed_bag, name="mine").name == "mine"


def test_a_zero_vector_stays_zero():
    rows = as_embedder(lambda texts: np.zeros((len(texts), 4))).embed(["x", "y"])
    assert not rows.any()


@pytest.mark.parametrize(
    "bad",
    [
        lambda texts: np.zeros(3),  # one vector for two texts
        lambda texts: np.zeros((len(texts) + 1, 3)),
        lambda texts: "vectors",
        lambda texts: np.full((len(texts), 3), np.nan),
    ],
)
def test_an_embedder_that_does_not_give_one_row_per_text_is_refused(bad):
    with pytest.raises(InputError):
        as_embedder(bad).embed(["one", "two"])


def test_a_changing_dimension_is_a_mismatch():
    sizes = iter([3, 4])
    embedder = TextEmbedder("shifty", lambda texts: np.ones((len(texts), next(sizes))))
    embedder.embed(["a"])
    with pytest.raises(EmbedderMismatchError, match="3"):
        embedder.embed(["b"])


def test_something_that_cannot_embed_is_refused():
    with pytest.raises(InputError, match="callable"):
        as_embedder(1.5)


@given(st.lists(st.text(min_size=0, max_size=30), min_size=1, max_size=20), st.integers(1, 8))
def test_batching_never_changes_the_rows(texts, batch):
    whole = as_embedder(hashed_bag).embed(texts)
    parts = TextEmbedder("bag", hashed_bag, batch_size=batch).embed(texts)
    np.testing.assert_allclose(whole, parts, atol=1e-6)
