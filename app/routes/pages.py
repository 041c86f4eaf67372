"""HTML pages (home, room/table, how to play). Owned by the browser-client work."""
from fastapi import APIRouter

router = APIRouter()
