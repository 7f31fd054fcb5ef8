"""A worker process for the text-only half of indexing (and for semantic links).

It reads length-prefixed pickles on standard input and answers each on standard output,
in order: first a ``(kind, PrepareSettings, TitleSnapshot | None)`` header, then one list
of items per task (``kind`` "parsed": ParsedDocuments; "files": PlannedFiles; "links":
a ``TermRows`` first, then row ranges to score), then None to stop. An answer is
``("ok", results)`` or ``("error", exception)``. The worker is a fresh interpreter
started by ``graph.pool``: it shares nothing with its parent and never imports the
parent's ``__main__`` (a script that indexes a folder needs no ``if __name__`` guard).
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from groundgraph.graph.collector import collect_less
from groundgraph.graph.prepare import Preparer

if TYPE_CHECKING:
    from groundgraph.index.semantic import TermRows

_LENGTH = struct.Struct("<Q")
#: No answer is this long (a chunk is a few files, each under the reader's size cap): a
#: longer length means the stream is not frames.
MAX_FRAME = 1 << 34


class GarbledFrameError(ValueError):
    """What came down the pipe is not a frame."""


def write_frame(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def read_frame(stream: IO[bytes]) -> Any:
    """The next value on ``stream``; EOFError when it ended."""
    return pickle.loads(read_frame_data(stream))


def read_frame_data(stream: IO[bytes]) -> bytes:
    """The next frame on ``stream``, still pickled; EOFError when it ended."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError("the other side closed the pipe")
    (size,) = _LENGTH.unpack(head)
    if size > MAX_FRAME:
        raise GarbledFrameError(f"the other side sent a garbled frame (a length of {size} bytes)")
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the other side closed the pipe mid-message")
    return data


def serve(source: IO[bytes], sink: IO[bytes]) -> None:
    kind, settings, titles = read_frame(source)
    run: Callable[[Any], Any]
    if kind == "links":
        run = _LinkRows().run
    else:
        preparer = Preparer(settings, titles)
        run = preparer.prepare if kind == "parsed" else preparer.prepare_file
    while True:
        try:
            task = read_frame(source)
        except EOFError:
            return
        if task is None:
            return
        try:
            answer: tuple[str, Any] = ("ok", [run(item) for item in task])
        except Exception as exc:
            answer = ("error", exc)
        try:
            write_frame(sink, answer)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            write_frame(sink, ("error", RuntimeError(f"cannot send the result back: {exc}")))


class _LinkRows:
    """Scores ranges of semantic-link rows: the first item is the ``TermRows``, each
    later one a (first, last) range, answered with its ``Nearest``."""

    def __init__(self) -> None:
        self.rows: TermRows | None = None

    def run(self, item: Any) -> Any:
        if self.rows is None:
            self.rows = item
            return None
        first, last = item
        return self.rows.nearest(first, last)


def main() -> None:
    collect_less()  # this process makes and sends records until it stops
    # The answers get standard output to themselves: anything else the worker writes there
    # (a library's message, a profiler's) goes to standard error instead of into a frame.
    sink = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    serve(sys.stdin.buffer, sink)


if __name__ == "__main__":
    main()
