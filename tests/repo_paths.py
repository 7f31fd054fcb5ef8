"""Where the repository's own files are, for tests that read its docs and scripts."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
