"""Every exception groundgraph raises on purpose.

    GroundgraphError                 base of the tree; catch this to catch them all
    ├── InputError (ValueError)      the caller's input is wrong; the message says how to fix it
    │   ├── InputTooLargeError       a file, text, query or body is over its size cap
    │   ├── FormatError              a saved graph or data file is not in a format we read
    │   └── NotFoundError (KeyError) a document or node id that the graph does not hold
    ├── StoreError                   the store cannot do what was asked
    │   ├── NoStoreError             no store where one must exist (nothing was created)
    │   ├── SchemaVersionError       the store was written by a newer groundgraph
    │   └── StoreBusyError           another writer held the store for too long
    └── LLMError                     a language-model call failed
        ├── LLMConnectionError       the server could not be reached after every retry
        ├── LLMResponseError         an error status, or a reply we cannot read
        └── BudgetExhaustedError     a call or token budget is used up (raised before sending)

A claim that the documents do not support is a result, never an exception.
"""

from __future__ import annotations


class GroundgraphError(Exception):
    """Base class of every error groundgraph raises on purpose."""


class InputError(GroundgraphError, ValueError):
    """The input is wrong; the message names the problem and the fix."""


class InputTooLargeError(InputError):
    """An input is larger than its cap."""

    def __init__(self, what: str, size: int, limit: int, hint: str = "") -> None:
        self.what = what
        self.size = size
        self.limit = limit
        fix = hint or f"split it into parts of at most {limit:,}"
        super().__init__(f"{what} is {size:,} long, over the limit of {limit:,}: {fix}")


class FormatError(InputError):
    """Data in a format groundgraph does not read."""


class NotFoundError(InputError, KeyError):
    """A document or node id the graph does not hold."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class StoreError(GroundgraphError):
    """The store failed to do what was asked."""


class NoStoreError(StoreError):
    """No store at the location named, and the call may not make one."""


class SchemaVersionError(StoreError):
    """The store's schema is newer than this version of groundgraph understands."""


class StoreBusyError(StoreError):
    """A write could not get the store's lock in time."""


class LLMError(GroundgraphError):
    """A language-model call failed; the message says what to change."""


class LLMConnectionError(LLMError):
    """The LLM server could not be reached, or did not answer in time, after every retry."""


class LLMResponseError(LLMError):
    """The LLM server answered with an error status or a reply we cannot read."""

    def __init__(self, message: str, status_code: int | None = None) -> None:
        self.status_code = status_code
        super().__init__(message)


class BudgetExhaustedError(LLMError):
    """An LLM budget (calls or tokens) is used up; raised before the call is sent."""

    def __init__(
        self, message: str, kind: str | None = None, limit: int | None = None, used: int = 0
    ) -> None:
        self.kind = kind  # "calls" or "tokens" when raised by an LLMBudget
        self.limit = limit
        self.used = used
        super().__init__(message)
