"""Worker processes for the text-only half of indexing, results kept in input order.

A batch of documents is prepared (``graph.prepare``) in worker processes while this
process links and stores the ones already prepared, in the order they came. Small batches
never start a process: the first ``warm`` items are prepared here, and the workers start
only if more follow. A worker is a fresh interpreter (``graph.worker``) fed through its
standard input: it shares no locks or files with this process and never imports this
process's ``__main__``; it ends when this process ends (``graph.parent_watch``). Chunks go
to the least busy worker and their answers are read in input order; while the answer due
next has not come, this process prepares the next chunk itself rather than wait (work
stealing). A thread per worker reads its answers off the pipe as soon as they are written
(still pickled), so a worker that is ahead goes on with its next chunk instead of waiting
for this process to take the answer; this process then prepares a chunk itself only when
the workers are truly behind. Fewer than ``IN_FLIGHT`` chunks wait per worker
and at most ``MAX_DUE`` per worker are held back for order, so memory stays bounded
however long the input.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

from groundgraph.errors import InputError
from groundgraph.graph.parent_watch import PARENT_ENV
from groundgraph.graph.prepare import PrepareSettings, TitleSnapshot
from groundgraph.graph.worker import GarbledFrameError, read_frame_data, write_frame

In = TypeVar("In")
Out = TypeVar("Out")

WORKERS_ENV = "GROUNDGRAPH_WORKERS"
DEFAULT_WARM = 32
DEFAULT_CHUNK = 4
IN_FLIGHT = 4
#: Chunks, per worker, that may be sent or prepared here and not yet given out.
MAX_DUE = 2 * IN_FLIGHT
# The parent watch comes first, before the imports that take a while.
_WORKER_CODE = (
    "from groundgraph.graph.parent_watch import die_with_parent; die_with_parent(); "
    "from groundgraph.graph.worker import main; main()"
)
_THREAD_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def default_workers() -> int:
    """Worker processes to use: ``GROUNDGRAPH_WORKERS`` if set, else one per usable core
    but one (the writing process keeps a core busy itself)."""
    raw = os.environ.get(WORKERS_ENV, "").strip()
    if raw:
        try:
            value = int(raw)
        except ValueError:
            raise InputError(f"{WORKERS_ENV} must be a whole number, not {raw!r}") from None
        return check_workers(value)
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return cores - 1


def check_workers(workers: int) -> int:
    if isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= 64:
        raise InputError(f"workers must be a whole number from 0 to 64, not {workers!r}")
    return workers


class WorkerError(RuntimeError):
    """A worker process stopped without answering."""


class Worker:
    """One worker process, a thread feeding it tasks, and its answers read in order; at
    most ``in_flight`` tasks wait to be sent. ``kind`` says what it runs ("parsed",
    "files": a ``Preparer``'s; "links": ``index.semantic.TermRows.nearest``)."""

    def __init__(
        self,
        kind: str,
        settings: PrepareSettings | None,
        titles: TitleSnapshot | None,
        in_flight: int = IN_FLIGHT,
    ) -> None:
        env = {**os.environ, **_THREAD_ENV, "PYTHONPATH": _python_path()}
        env[PARENT_ENV] = str(os.getpid())
        self.process = subprocess.Popen(
            [sys.executable, "-c", _WORKER_CODE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self.tasks: queue.Queue[Any] = queue.Queue(maxsize=in_flight)
        # The answers read so far, pickled, or why reading stopped (an exception to raise).
        self.answers: queue.Queue[bytes | WorkerError] = queue.Queue()
        self.waiting = 0
        self.tasks.put((kind, settings, titles))
        self._feeder = threading.Thread(target=self._feed, daemon=True)
        self._feeder.start()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _feed(self) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            while (task := self.tasks.get()) is not None:
                write_frame(stdin, task)
            write_frame(stdin, None)
        except (OSError, ValueError):
            pass  # the worker is gone; reading its answer reports it
        finally:
            with contextlib.suppress(OSError, ValueError):
                stdin.close()

    def _read(self) -> None:
        """Take each answer off the pipe as it comes, until the worker stops or garbles."""
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                self.answers.put(read_frame_data(stdout))
        except (EOFError, OSError, ValueError) as exc:
            if isinstance(exc, GarbledFrameError):
                self.process.kill()
                message = f"an indexing worker answered with something else: {exc}"
            else:
                message = f"an indexing worker stopped (exit code {self.process.wait()})"
            self.answers.put(WorkerError(message))

    def submit(self, items: list[Any]) -> None:
        self.tasks.put(items)
        self.waiting += 1

    def ready(self) -> bool:
        """Whether the next answer (or why there is none) has been read off the pipe."""
        return not self.answers.empty()

    def answer(self) -> list[Any]:
        data = self.answers.get()
        if isinstance(data, WorkerError):
            self.answers.put(data)  # every later answer fails the same way
            raise data
        status, value = pickle.loads(data)
        self.waiting -= 1
        if status == "error":
            raise value
        return cast(list[Any], value)

    def stop(self) -> None:
        """Ask the worker to finish; kill it if it is still busy with unread work."""
        try:
            self.tasks.put_nowait(None)
            self.process.wait(timeout=5 if self.waiting == 0 else 0.01)
        except (queue.Full, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        self._reader.join(timeout=5)  # the pipe has ended: the worker is gone
        if self.process.stdout is not None:
            self.process.stdout.close()


def prepared_in_order(
    items: Iterable[In],
    local: Callable[[In], Out],
    kind: str,
    settings: PrepareSettings,
    workers: int,
    *,
    warm: int | None = None,
    chunk: int | None = None,
    titles: TitleSnapshot | None = None,
) -> Iterator[Out]:
    """``local(item)`` for each item, in order; past the first ``warm`` items, chunks of
    them go to ``workers`` worker processes (``kind`` "parsed" or "files" says which
    ``Preparer`` method they run), which give what ``local`` would, and with ``titles``
    the documents' evidence layer too (``graph.prepare``).

    While the answer due next is not ready, this process prepares the next chunk itself
    instead of waiting, so both halves of the work keep every core busy whichever half
    is the slower one at the moment.
    """
    warm = DEFAULT_WARM if warm is None else warm
    chunk = DEFAULT_CHUNK if chunk is None else chunk
    source = iter(items)
    head = list(itertools.islice(source, warm))
    following = list(itertools.islice(source, 1)) if workers > 0 else []
    if not following:
        yield from map(local, head)
        yield from map(local, source)
        return
    pool = [Worker(kind, settings, titles) for _ in range(workers)]
    try:
        chunks = _chunks(itertools.chain(following, source), chunk)
        # Chunks in input order: the worker that prepares each, or what it gave here.
        due: collections.deque[Worker | list[Out]] = collections.deque()

        def send() -> bool:
            worker = min(pool, key=lambda w: w.waiting)
            part = next(chunks, None)
            if part is None:
                return False
            worker.submit(part)
            due.append(worker)
            return True

        for _ in range((IN_FLIGHT - 1) * workers):
            if not send():
                break
        # The workers start up while the first items are prepared here.
        yield from map(local, head)
        while due:
            first = due[0]
            if isinstance(first, list):
                due.popleft()
                yield from first
                continue
            if len(due) < MAX_DUE * workers and not first.ready():
                part = next(chunks, None)
                if part is not None:
                    due.append(list(map(local, part)))
                    continue
            due.popleft()
            done = cast(list[Out], first.answer())
            send()
            yield from done
    finally:
        for worker in pool:
            worker.stop()


def _python_path() -> str:
    """The worker's PYTHONPATH: where this groundgraph was imported from, then the rest.

    A worker must import the same groundgraph as this process, even when this process
    found it through a ``sys.path`` entry made at run time."""
    package = Path(__file__).resolve().parents[2]  # .../src or site-packages
    inherited = os.environ.get("PYTHONPATH", "")
    return os.pathsep.join(p for p in (str(package), inherited) if p)


def _chunks(items: Iterator[In], size: int) -> Iterator[list[In]]:
    while part := list(itertools.islice(items, size)):
        yield part
