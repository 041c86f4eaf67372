"""A Python whose `random.Random.shuffle` orders cards differently, as a future Python may.

Python imports this at start-up (site.py's `sitecustomize` hook) when this directory is on
PYTHONPATH, and changes the shuffle only when OSAKA_FUTURE_PYTHON_MARK names a file: it appends
its process id there, so a test knows the server really runs under the changed shuffle.
tests/app/legacy.py uses `changed` for the same shuffle inside the test process.
"""
import os
import random


def changed(original):
    """A shuffle that orders like `original`, then reversed."""
    def shuffle(self, x):
        original(self, x)
        x.reverse()
    return shuffle


if os.environ.get("OSAKA_FUTURE_PYTHON_MARK"):
    random.Random.shuffle = changed(random.Random.shuffle)
    with open(os.environ["OSAKA_FUTURE_PYTHON_MARK"], "a", encoding="utf-8") as mark:
        mark.write(f"{os.getpid()}\n")
