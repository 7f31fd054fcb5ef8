"""An indexing worker ends when the process that started it ends, also by ``kill -9``.

A worker busy with a chunk (or still importing) would otherwise go on with it after its
parent died, and with every chunk it still had, before it read the end of its input. The
parent names itself in ``GROUNDGRAPH_PARENT_PID``; the worker, first thing, asks Linux to
send it SIGKILL when its parent dies (``PR_SET_PDEATHSIG``), ends at once if the parent is
gone already, and keeps a thread that watches its parent id (which changes when the parent
dies) where that signal is not to be had.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

__all__ = ["PARENT_ENV", "die_with_parent"]

PARENT_ENV = "GROUNDGRAPH_PARENT_PID"
_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_WATCH_SECONDS = 0.25


def die_with_parent() -> None:
    """End this process when the parent named in ``PARENT_ENV`` ends (see the module)."""
    try:
        parent = int(os.environ[PARENT_ENV])
    except (KeyError, ValueError):
        parent = os.getppid()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL))
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()
