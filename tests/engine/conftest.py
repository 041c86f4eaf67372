"""Shared fixtures of the engine tests; the helpers live in osaka_builders.py."""

import pytest

from osaka_builders import Pool


@pytest.fixture
def pool() -> Pool:
    """A fresh allocator of distinct card ids for one hand-built position."""
    return Pool()
