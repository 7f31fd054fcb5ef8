"""A worker process for the text-only half of indexing.

It reads length-prefixed pickles on standard input and answers each on standard output,
in order: first a ``(kind, PrepareSettings)`` header, then one list of items per task
(``kind`` "parsed": ParsedDocuments; "files": PlannedFiles), then None to stop. An answer
is ``("ok", results)`` or ``("error", exception)``. The worker is a fresh interpreter
started by ``graph.pool``: it shares nothing with its parent and never imports the
parent's ``__main__`` (a script that indexes a folder needs no ``if __name__`` guard).
"""

from __future__ import annotations

import pickle
import struct
import sys
from typing import IO, Any

from groundgraph.graph.prepare import Preparer

_LENGTH = struct.Struct("<Q")


def write_frame(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def read_frame(stream: IO[bytes]) -> Any:
    """The next value on ``stream``; EOFError when it ended."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError("the other side closed the pipe")
    (size,) = _LENGTH.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the other side closed the pipe mid-message")
    return pickle.loads(data)


def serve(source: IO[bytes], sink: IO[bytes]) -> None:
    kind, settings = read_frame(source)
    preparer = Preparer(settings)
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


def main() -> None:
    serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    main()
