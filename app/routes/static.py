"""The static files under `/static/` (app/assets.py: minified, compressed, versioned URLs)."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

router = APIRouter(include_in_schema=False)


@router.get("/static/{path:path}")
async def static_file(request: Request, path: str) -> Response:
    """A file of static/: `?v=<version>` (as pages name it) makes it cacheable for a year
    (immutable); brotli or gzip as the browser accepts. 404 for no such file."""
    return await request.app.state.assets.respond(request, path)
