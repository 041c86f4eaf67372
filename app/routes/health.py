"""Liveness and readiness."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST

from .. import metrics
from ..deps import LiveDep
from ..live.sockets.endpoint import INSTANCE
from ..migrate import current_revisions
from ..refusals import Refusal
from ..schemas import NotReadyOut, StatusOut
from ..security import bearer_is

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


@router.get("/metrics", include_in_schema=False)
async def metrics_text(request: Request, live: LiveDep) -> Response:
    """This process's figures in the Prometheus text format (app/metrics.py), for a scrape with
    `Authorization: Bearer <METRICS_TOKEN>`. 404 `not_found` while METRICS_TOKEN is unset (off);
    401 `unauthorized` without that token (compared in constant time)."""
    token = live.settings.metrics_token
    if not token:
        raise Refusal("not_found")
    if not bearer_is(request.headers.get("authorization", ""), token):
        raise Refusal("unauthorized", "The metrics token is needed (Authorization: Bearer …).")
    return Response(metrics.render(await live.gauges()), media_type=CONTENT_TYPE_LATEST,
                    headers={"Cache-Control": "no-store"})
