"""Shared fixtures: small documents written for these tests."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# Timing deadlines make property tests flaky on a shared 2-core machine; time caps that
# matter are asserted explicitly where they are promised.
settings.register_profile("groundgraph", deadline=None)
settings.load_profile("groundgraph")

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

GUIDE = """# User Guide
## Installation
Run pip install gpbacay-arcane.
## Configuration
Edit config.json to customize settings.
## Deployment
Push the build to the server.
## Troubleshooting
If config fails, see the Configuration section."""

KITCHEN = """# Kitchen Notes

The kitchen keeps a small pantry and a cold room.

## Bread

Dough rises overnight in the cold room. Bake at 230 degrees for forty minutes.

## Pantry

Flour, salt and yeast live in the pantry. Order flour when two sacks remain.

## Cleaning

Wipe the ovens after the bread is out. The cold room is cleaned on Mondays.
"""

GARDEN = """# Garden Log

Tomatoes went in on the first of May.

## Watering

Water the tomatoes every morning; the greenhouse needs more in July.

## Harvest

Bring tomatoes to the Kitchen Notes pantry shelf; flour sacks stay on the floor.
"""


@pytest.fixture
def guide() -> str:
    return GUIDE


@pytest.fixture
def kitchen() -> str:
    return KITCHEN


@pytest.fixture
def garden() -> str:
    return GARDEN
