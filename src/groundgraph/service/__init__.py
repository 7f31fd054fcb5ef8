"""The service: agent memory and the verb table over HTTP, scoped by API key.

- :class:`MemoryService` (``service.memory_service``): ReasonGraph's memory verbs over one
  DocumentGraph, sessions as scopes, one sync core;
- :class:`Access` and :class:`KeyRing` (``service.access``, ``service.keys``): what a key
  may read and write, keys stored as SHA-256 digests;
- ``create_app`` (``service.http_app``, needs the ``[service]`` extra): the FastAPI app;
  ``service.serve``: configuration from flags and environment, and uvicorn.

``create_app`` is imported from ``groundgraph.service.http_app`` so that the memory
service itself needs neither FastAPI nor uvicorn.
"""

from groundgraph.service.access import Access, AccessDeniedError
from groundgraph.service.keys import ApiKey, KeyRing, hash_key, new_key
from groundgraph.service.limits import Limits
from groundgraph.service.memory_service import MemoryService

__all__ = [
    "Access",
    "AccessDeniedError",
    "ApiKey",
    "KeyRing",
    "Limits",
    "MemoryService",
    "hash_key",
    "new_key",
]
