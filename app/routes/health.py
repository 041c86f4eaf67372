"""Liveness and readiness."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..live.sockets.endpoint import INSTANCE
from ..migrate import current_revisions
from ..schemas import NotReadyOut, StatusOut

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=StatusOut, response_model_exclude_none=True)
async def healthz():
    """The process is up: `{"status": "ok", "instance": <host name>}` (which replica answered,
    behind a proxy; the same as the `X-Osaka-Instance` header of room WebSockets)."""
    return {"status": "ok", "instance": INSTANCE}


@router.get("/readyz", response_model=StatusOut, response_model_exclude_none=True, responses={503: {"model": NotReadyOut, "description": "not ready: `reason`"}})
async def readyz(request: Request):
    """200 `{"status": "ready"}` when the database answers and its schema is at the head
    migration; else 503 `{"status": "not_ready", "reason": ...}`."""
    try:
        async with request.app.state.db_engine.connect() as conn:
            current = await conn.run_sync(current_revisions)
    except Exception:
        return JSONResponse({"status": "not_ready", "reason": "database unreachable"}, status_code=503)
    if current != request.app.state.migration_heads:
        return JSONResponse({"status": "not_ready", "reason": "migrations not at head"}, status_code=503)
    return {"status": "ready"}
