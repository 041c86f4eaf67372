"""The action path: a client frame to every seat's view (path.py: `Actions`), one submitted
action (attempt.py), a time-out's decision (timeouts.py), the group commit (commits.py)."""
