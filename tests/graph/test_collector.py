"""The garbage collector's pace during bulk work: raised inside, the caller's after."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from groundgraph import DocumentGraph
from groundgraph.graph.collector import (
    BULK_THRESHOLDS,
    bulk_thresholds,
    collecting_less,
    collects_less,
)
from groundgraph.ingest.folder import plan_folder


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    """The process's thresholds, set to Python's defaults for the test and put back."""
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield gc.get_threshold()
    gc.set_threshold(*saved)


def test_raised_inside_and_restored_after(thresholds: tuple[int, int, int]) -> None:
    with collecting_less():
        assert gc.get_threshold() == BULK_THRESHOLDS
    assert gc.get_threshold() == thresholds


def test_restored_after_an_error(thresholds: tuple[int, int, int]) -> None:
    with pytest.raises(KeyError), collecting_less():
        raise KeyError("x")
    assert gc.get_threshold() == thresholds


def test_nested_blocks_restore_once_the_outer_one_ends(
    thresholds: tuple[int, int, int],
) -> None:
    with collecting_less():
        with collecting_less():
            assert gc.get_threshold() == BULK_THRESHOLDS
        assert gc.get_threshold() == BULK_THRESHOLDS  # the outer block still runs
    assert gc.get_threshold() == thresholds


def test_a_callers_higher_or_disabled_thresholds_are_kept() -> None:
    assert bulk_thresholds((100_000, 5, 500)) == (100_000, 20, 500)
    assert bulk_thresholds((0, 10, 10)) == (0, 10, 10)  # automatic collection off
    assert bulk_thresholds((700, 10, 10)) == BULK_THRESHOLDS


def test_threads_overlapping_restore_when_the_last_leaves(
    thresholds: tuple[int, int, int],
) -> None:
    entered, leave_first, first_left = threading.Event(), threading.Event(), threading.Event()
    seen: list[tuple[int, int, int]] = []

    def first() -> None:
        with collecting_less():
            entered.set()
            leave_first.wait(5)
        first_left.set()

    thread = threading.Thread(target=first)
    thread.start()
    entered.wait(5)
    with collecting_less():
        leave_first.set()
        first_left.wait(5)
        seen.append(gc.get_threshold())  # the other thread left; this block still runs
    thread.join(5)
    assert seen == [BULK_THRESHOLDS]
    assert gc.get_threshold() == thresholds


def test_a_generator_holds_the_block_until_closed(thresholds: tuple[int, int, int]) -> None:
    @collects_less
    def numbers() -> Iterator[int]:
        yield 1
        yield 2

    items = numbers()
    assert gc.get_threshold() == thresholds  # not started yet
    assert next(items) == 1
    assert gc.get_threshold() == BULK_THRESHOLDS
    items.close()
    assert gc.get_threshold() == thresholds
    assert list(numbers()) == [1, 2]
    assert gc.get_threshold() == thresholds


def test_a_plain_function_keeps_its_result_and_name(thresholds: tuple[int, int, int]) -> None:
    @collects_less
    def inside() -> tuple[int, int, int]:
        """Doc."""
        return gc.get_threshold()

    assert inside() == BULK_THRESHOLDS
    assert inside.__name__ == "inside" and inside.__doc__ == "Doc."
    assert gc.get_threshold() == thresholds


def test_indexing_and_facts_leave_the_callers_thresholds(
    tmp_path, thresholds: tuple[int, int, int]
) -> None:
    (tmp_path / "docs").mkdir()
    for n in range(3):
        (tmp_path / "docs" / f"d{n}.md").write_text(f"# Page {n}\n\nText about pumps {n}.\n")
    graph = DocumentGraph(tmp_path / "g.db")
    seen: list[tuple[int, int, int]] = []
    for _ in graph.index_files(plan_folder(tmp_path / "docs").files):
        seen.append(gc.get_threshold())
    assert seen and set(seen) == {BULK_THRESHOLDS}
    graph.add_texts(["The pump runs at night.", "The valve was replaced."])
    assert gc.get_threshold() == thresholds
    graph.close()


def test_an_indexing_worker_collects_less() -> None:
    code = (
        "import gc; from groundgraph.graph.collector import collect_less; "
        "collect_less(); print(gc.get_threshold())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == str(BULK_THRESHOLDS)
