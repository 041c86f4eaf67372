"""The room: its game in memory (table.py), its lock (lock.py: `Tables.hold`, the only way in),
the room under its lock with the one sync (held.py: `Held.sync`), the one publish to its seats
(publish.py: `Publisher.publish`), who is connected (presence.py) and the upkeep (cleanup.py)."""
