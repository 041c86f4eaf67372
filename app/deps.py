"""Typed FastAPI dependencies: the live service, a DB session, the caller's token."""
from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from .live.service import Live
from .security import cookie_name, normalize_code


def get_live(request: Request) -> Live:
    """The app's `Live` service."""
    return request.app.state.live


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    """One DB session per request."""
    async with request.app.state.live.sessions() as session:
        yield session


def get_token(request: Request) -> str | None:
    """The caller's seat token: `Authorization: Bearer ...`, else the room's `osaka_<code>` cookie."""
    auth = request.headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    code = normalize_code(request.path_params.get("code", ""))
    if code is not None:
        return request.cookies.get(cookie_name(code)) or None
    return None


LiveDep = Annotated[Live, Depends(get_live)]
SessionDep = Annotated[AsyncSession, Depends(get_session)]
TokenDep = Annotated[str | None, Depends(get_token)]
