"""HTTP refusals: every error answer is a `Refusal` (app/refusals.py) turned into a response
here, in `refusal_response`: `{"error": {"code", "message", **fields}}` with the code's
status (docs/protocol.md "HTTP error codes"). Validation errors, Starlette's own HTTP errors
(no such route, a method the path does not take) and a database that cannot be reached are
first turned into refusals."""
from __future__ import annotations

import email.message

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from .db import RETRY_AFTER_S, UNAVAILABLE_ERRORS, database_unavailable
from .refusals import Refusal

# Which body field's validation failure gets which specific code (else bad_request).
FIELD_CODES = {"name": "bad_name", "level": "bad_level", "public": "bad_request"}

# Starlette's and FastAPI's own HTTP errors → the refusal code of their status.
_HTTP_CODES = {401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
               413: "too_large", 415: "unsupported_media_type", 429: "rate_limited"}


def refusal_response(refusal: Refusal, headers: dict[str, str] | None = None) -> JSONResponse:
    """The HTTP answer to `refusal`: its body and status; `Retry-After` for a 429 (its
    `retry_after_s`, app/ratelimit.py) and for `unavailable` (RETRY_AFTER_S)."""
    headers = dict(headers or {})
    if refusal.status == 429 and "retry_after_s" in refusal.fields:
        headers["Retry-After"] = str(refusal.fields["retry_after_s"])
    elif refusal.code == "unavailable":
        headers["Retry-After"] = str(RETRY_AFTER_S)
    return JSONResponse(refusal.body(), status_code=refusal.status, headers=headers or None)


#: The methods a 405's `Allow` may name (RFC 9110 §9).
_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def _allowed_methods(request: Request) -> str:
    """The `Allow` header of a 405 (RFC 9110 §15.5.6): every method some route fully matches
    for this path. Starlette names only the first matching route's methods, but the GET and
    POST of one path are two routes; asking the routes per method also works through
    FastAPI's included routers."""
    routes = request.app.router.routes
    allowed = [m for m in _METHODS
               if any(route.matches({**request.scope, "method": m})[0] is Match.FULL for route in routes)]
    return ", ".join(allowed)


def _is_json_type(content_type: str | None) -> bool:
    """Whether a Content-Type names JSON: `application/json` or `application/…+json`, with any
    parameters (the bodies FastAPI reads as JSON)."""
    if not content_type:
        return False
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))


def _validation_refusal(request: Request, exc: RequestValidationError) -> Refusal:
    """415 `unsupported_media_type` for a body whose Content-Type is not JSON (or missing):
    FastAPI does not read it as JSON and hands its bytes to the validation; else
    `_body_refusal`."""
    if isinstance(exc.body, bytes) and exc.body and not _is_json_type(request.headers.get("content-type")):
        return Refusal("unsupported_media_type", "The body must be JSON (Content-Type: application/json).")
    return _body_refusal(exc)


def _body_refusal(exc: RequestValidationError) -> Refusal:
    """422 `bad_name` / `bad_level` for those fields, else `bad_request`, with the reason."""
    code, message = "bad_request", "The request is not valid."
    for err in exc.errors():
        loc = [str(p) for p in err.get("loc", ())]
        field = loc[-1] if loc else ""
        if err.get("type") == "json_invalid":
            return Refusal("bad_request", "The body is not valid JSON.")
        if field in FIELD_CODES:
            return Refusal(FIELD_CODES[field],
                           f"{field}: {str(err.get('msg', 'invalid')).removeprefix('Value error, ')}")
        message = f"{'.'.join(loc[1:]) or 'body'}: {err.get('msg', 'invalid')}"
    return Refusal(code, message)


def _http_refusal(exc: StarletteHTTPException) -> Refusal:
    """Starlette's or FastAPI's own HTTP error as a refusal. FastAPI's 400 is a body it could
    not decode (not UTF-8): not JSON, as a body that does not parse (422 `bad_request`)."""
    if exc.status_code == 400:
        return Refusal("bad_request", "The body is not valid JSON.")
    code = _HTTP_CODES.get(exc.status_code, "bad_request")
    message = exc.detail if isinstance(exc.detail, str) else None
    return Refusal(code, message, status=exc.status_code)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every `Refusal`, validation error and Starlette HTTP error through
    `refusal_response`; a database that cannot be reached answers 503 `unavailable` with
    `Retry-After` (app/db.py `database_unavailable`; any other error stays a 500)."""

    async def _unavailable(_req: Request, exc: Exception) -> JSONResponse:
        if not database_unavailable(exc):
            raise exc
        return refusal_response(Refusal("unavailable"))

    for kind in UNAVAILABLE_ERRORS:
        app.add_exception_handler(kind, _unavailable)

    @app.exception_handler(Refusal)
    async def _refusal(_req: Request, exc: Refusal) -> JSONResponse:
        return refusal_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(req: Request, exc: RequestValidationError) -> JSONResponse:
        return refusal_response(_validation_refusal(req, exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == 405:
            headers["Allow"] = _allowed_methods(request)
        return refusal_response(_http_refusal(exc), headers)
