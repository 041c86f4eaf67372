"""The error shape of the HTTP API: ``{"error": {"code", "message"}}`` with a 4xx status (503
`unavailable` while the database cannot be reached)."""
from __future__ import annotations

import re

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .db import RETRY_AFTER_S, UNAVAILABLE_ERRORS, database_unavailable

#: The refusal when the database cannot be reached (HTTP 503, WebSocket `error`).
UNAVAILABLE = ("unavailable", "The game's database cannot be reached right now; try again shortly.")


class ApiError(Exception):
    """A refused request: HTTP `status`, stable snake_case `code`, human `message` (English,
    for logs and developers), and `fields`: the refusal's parameters as JSON values (e.g.
    `retry_after_s=12`), sent next to the code so a client words it in its own language."""

    def __init__(self, status: int, code: str, message: str, **fields: int | str):
        super().__init__(message)
        self.status, self.code, self.message, self.fields = status, code, message, fields


def error_body(code: str, message: str, **fields: int | str) -> dict:
    """The JSON body of an error answer: `{"error": {"code", "message", **fields}}`."""
    return {"error": {"code": code, "message": message, **fields}}


# Which body field's validation failure gets which specific code (else bad_request).
FIELD_CODES = {"name": "bad_name", "level": "bad_level", "public": "bad_request"}

_HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 413: "too_large", 415: "unsupported_media_type",
               429: "rate_limited"}
_HTTP_MESSAGES = {404: "Not found.", 405: "Method not allowed.", 413: "The body is too large."}
_CODE_RE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)+")  # snake_case with at least one "_"


def install_error_handlers(app: FastAPI) -> None:
    """Make ApiError, validation errors and Starlette HTTP errors answer in the error shape;
    a database that cannot be reached answers 503 `unavailable` with `Retry-After`
    (app/db.py `database_unavailable`; any other error stays a 500)."""

    async def _unavailable(_req: Request, exc: Exception) -> JSONResponse:
        if not database_unavailable(exc):
            raise exc
        return JSONResponse(error_body(*UNAVAILABLE), status_code=503,
                            headers={"Retry-After": str(RETRY_AFTER_S)})

    for kind in UNAVAILABLE_ERRORS:
        app.add_exception_handler(kind, _unavailable)

    @app.exception_handler(ApiError)
    async def _api_error(_req: Request, exc: ApiError) -> JSONResponse:
        headers = None
        if "retry_after_s" in exc.fields and exc.status == 429:  # app/ratelimit.py
            headers = {"Retry-After": str(exc.fields["retry_after_s"])}
        return JSONResponse(error_body(exc.code, exc.message, **exc.fields), status_code=exc.status,
                            headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_req: Request, exc: RequestValidationError) -> JSONResponse:
        code, message = "bad_request", "The request is not valid."
        for err in exc.errors():
            loc = [str(p) for p in err.get("loc", ())]
            field = loc[-1] if loc else ""
            if err.get("type") == "json_invalid":
                code, message = "bad_request", "The body is not valid JSON."
                break
            if field in FIELD_CODES:
                code = FIELD_CODES[field]
                message = f"{field}: {str(err.get('msg', 'invalid')).removeprefix('Value error, ')}"
                break
            message = f"{'.'.join(loc[1:]) or 'body'}: {err.get('msg', 'invalid')}"
        return JSONResponse(error_body(code, message), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else "Request refused."
        if isinstance(exc.detail, str) and _CODE_RE.fullmatch(exc.detail):
            # `HTTPException(404, "room_not_found")`: the detail is a code, not a message.
            code, message = exc.detail, _HTTP_MESSAGES.get(exc.status_code, "Request refused.")
        return JSONResponse(error_body(code, message), status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))
