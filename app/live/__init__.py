"""The live part: the rooms being watched and played in this process. `Live` (service.py) is its
only way in; its concepts, one per package or module, are listed there and in
docs/architecture.md."""
