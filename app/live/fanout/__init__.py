"""Other server processes: what this process tells them and hears from them (base.py: `Fanout`,
one process; postgres.py: LISTEN/NOTIFY), and catching up with what they changed (remote.py)."""
