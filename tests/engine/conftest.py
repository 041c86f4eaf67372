"""Shared fixtures of the engine tests; the helpers live in osaka_builders.py."""

import pytest

from osaka_builders import Pool


@pytest.fixture
def pool() -> Pool:
    """A fresh allocator of distinct card ids for one hand-built position."""
    return Pool()


from hypothesis import Phase, settings  # noqa: E402

# `pytest --hypothesis-profile=noshrink` reports a failing example without shrinking it
# (handy when checking that the suite catches a deliberately broken engine).
settings.register_profile("noshrink", phases=[Phase.explicit, Phase.reuse, Phase.generate])
