"""Stands in for uvloop while bench/wakeups/ is on the PYTHONPATH: uvicorn's `loop="auto"` then
runs asyncio's own event loop, whose callbacks the probe (sitecustomize.py here) can count."""
raise ImportError("bench/wakeups: the probe needs asyncio's own event loop")
