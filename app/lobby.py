"""The lobby: open public rooms where a person is waiting, ranked so that nobody can drown it.

Listed (docs/protocol.md "The lobby"): public, waiting, a seat free, and at least one seated
person connected now (to this process or, on PostgreSQL, to another one). A room created and
left alone never shows up, however many there are.

Ranked: people connected (more first), then the latest join (newer first), then the code.
Fair to every address: each creator's rooms are ranked among themselves, and the list takes
every creator's best room first, then every creator's second, and so on, at most
`per_creator` of one address (LOBBY_ROOMS_PER_ADDRESS) and LOBBY_LIMIT in all.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from .models import Room
from .rooms import MAX_SEATS, iso, room_url

LOBBY_LIMIT = 200  # rooms listed in the lobby at most
_IN_CHUNK = 500    # room codes per IN (…) list


def _entry(room: Room, present: int) -> dict:
    seats = sorted(room.seats, key=lambda s: s.seat)
    return {"code": room.code, "url": room_url(room.code),
            "players": [s.name for s in seats],
            "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot_level is not None,
                       "bot_level": s.bot_level} for s in seats],
            "present": present, "seats_free": MAX_SEATS - len(seats), "status": room.status,
            "created_at": iso(room.created_at), "pace": room.pace or "live", "turn_limit_s": room.turn_limit_s,
            "hints": bool(room.hints)}


def rank(rooms: list[Room], present: dict[str, int], per_creator: int,
         limit: int = LOBBY_LIMIT) -> list[Room]:
    """Order open rooms for the lobby (module docstring); `per_creator` 0 = no cap."""
    def score(room: Room) -> tuple:
        last_join = max((s.created_at for s in room.seats), default=room.created_at)
        return (-present.get(room.code, 0), -last_join.timestamp(), room.code)

    places: dict[str, int] = defaultdict(int)  # creator → how many of its rooms are placed
    keyed: list[tuple[int, int, Room]] = []
    for i, room in enumerate(sorted(rooms, key=score)):
        creator = room.creator_hash or room.code
        place = places[creator]
        places[creator] += 1
        if not per_creator or place < per_creator:
            keyed.append((place, i, room))
    keyed.sort(key=lambda item: item[:2])  # every creator's best, then every creator's second, …
    return [room for _, _, room in keyed[:limit]]


async def lobby_rooms(session: AsyncSession, present: dict[str, int], per_creator: int) -> list[dict]:
    """The lobby list (`GET /api/rooms`, the `/ws/lobby` feed). `present`: room code → seated
    people connected now (`present_people`)."""
    codes = sorted(present)
    rooms: list[Room] = []
    for i in range(0, len(codes), _IN_CHUNK):
        rooms += (await session.scalars(
            select(Room).where(Room.code.in_(codes[i:i + _IN_CHUNK]), Room.public.is_(True),
                               Room.status == "waiting")
            .options(selectinload(Room.seats)))).all()
    rooms = [r for r in rooms if len(r.seats) < MAX_SEATS]
    return [_entry(r, present[r.code]) for r in rank(rooms, present, per_creator)]


def with_root(entries: list[dict], root: str) -> list[dict]:
    """Lobby entries (`lobby_rooms`) with each `url` under the URL prefix `root` (`/osaka`;
    app/prefix.py); the same list when `root` is empty."""
    if not root:
        return entries
    return [{**e, "url": room_url(e["code"], root)} for e in entries]


def present_people(codes: Iterable[str], connected_seats: Callable[[str], set[int]]) -> dict[str, int]:
    """Room code → seats with a live connection (`connected_seats`: this process's and the
    others', app/live/room/publish.py), for the rooms `codes` (those with a connection here or
    heard of elsewhere). Rooms with nobody seated connected are left out."""
    counts = {code: len(connected_seats(code)) for code in set(codes)}
    return {code: n for code, n in counts.items() if n}
