"""Changes heard from other server processes (PostgreSQL, pg_fanout.py): catch the room's table
up from the database (the action log is the truth) and tell this process's connections."""
from __future__ import annotations

from .broadcast import Broadcaster
from .chat import Chat
from .hub import Hub
from .lobby import LobbyFeed
from .tables import RoomGone, Tables


class RemoteChanges:
    """`on_change` is the fan-out's callback (`RemoteChange`)."""

    def __init__(self, hub: Hub, tables: Tables, broadcaster: Broadcaster, lobby: LobbyFeed, chat: Chat | None = None):
        self.hub = hub
        self.chat = chat
        self.tables = tables
        self.broadcaster = broadcaster
        self.lobby = lobby

    async def on_change(self, code: str, kinds: set[str]) -> None:
        """Another process changed room `code` (`kinds` ⊆ {"g", "r", "p", "c"}: game, room,
        presence, chat — a chat message goes to this process's connections: `Chat.on_remote`):
        refresh the lobby on a room change; catch the table up and tell the room's connections
        here (the summary first when the room or presence changed, the game started or ended)."""
        if "r" in kinds or "p" in kinds:  # the lobby lists rooms with people present
            self.lobby.mark_dirty()
        table = self.tables.get(code)
        if table is not None and kinds & {"r", "p"}:
            table.forget_seats()  # a seat may have gone to or come back from a computer player
        if not self.hub.of(code):
            return  # nobody watches it here: the table catches up on its next use
        if "c" in kinds and self.chat is not None:
            await self.chat.on_remote(code)
            if not kinds - {"c"}:
                return
        try:
            async with self.tables.hold(code) as held:
                room = await held.read_room(catch_up=False)
                if room is None:
                    return
                started, caught = await self.broadcaster.sync(held.session, held.table, room)
                if started or "r" in kinds or "p" in kinds or (caught and room.status == "over"):
                    self.broadcaster.send_room(room)
                self.broadcaster.tell(held.table, started, caught)
        except RoomGone:
            return
