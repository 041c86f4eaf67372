"""One Web Push message: encrypted per RFC 8291 (aes128gcm, RFC 8188), sent per RFC 8030 with
VAPID (RFC 8292), by pywebpush's encryption and py_vapid's signature, over `requests` with
short timeouts and a response size limit. Blocking: run in a worker thread (sender.py)."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from py_vapid import Vapid02
from pywebpush import WebPusher

#: Seconds a push service keeps a message for a browser that is away (RFC 8030 §5.2): a turn
#: notification older than an hour helps nobody.
TTL_S = 3600
#: Bytes of a push service's answer read at most.
MAX_RESPONSE = 65536


@dataclass(frozen=True)
class PushResult:
    """`status` of the push service's answer (0: no answer), `gone`: the subscription is dead
    (404/410: RFC 8030 §7.3), `ok`: accepted (2xx), `reason` for the log and the API."""

    status: int
    ok: bool
    gone: bool
    reason: str


def vapid_headers(private_pem: str, endpoint: str, subject: str) -> dict:
    """The `Authorization: vapid t=…, k=…` header for `endpoint` (RFC 8292 §2-3: a JWT, ES256,
    `aud` = the endpoint's origin, `exp` 12 hours on, `sub` a contact URI)."""
    parts = urlsplit(endpoint)
    claims = {"aud": f"{parts.scheme}://{parts.netloc}", "exp": int(time.time()) + 12 * 3600, "sub": subject}
    return Vapid02.from_pem(private_pem.encode()).sign(claims)


def send(subscription: dict, payload: dict, private_pem: str, subject: str, topic: str, timeout_s: float) -> PushResult:
    """Encrypt `payload` (JSON) for `subscription` ({"endpoint", "keys": {"p256dh", "auth"}})
    and POST it with `Topic: topic` (RFC 8030 §5.4: the push service keeps only the newest of
    one topic), `TTL`, `Urgency: high` and VAPID."""
    try:  # keys are checked when saved (schemas.PushKeys); one that still cannot encrypt is dead
        pusher = WebPusher(subscription)
        body = pusher.encode(json.dumps(payload, ensure_ascii=False).encode("utf-8"), "aes128gcm")["body"]
    except Exception as exc:  # noqa: BLE001 - pywebpush raises what its crypto raises
        return PushResult(0, False, True, f"the subscription's keys cannot encrypt ({type(exc).__name__})")
    headers = {"Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream", "TTL": str(TTL_S),
               "Topic": topic[:32], "Urgency": "high",
               **vapid_headers(private_pem, subscription["endpoint"], subject)}
    try:
        with requests.post(subscription["endpoint"], data=body, headers=headers, timeout=(timeout_s, timeout_s),
                           stream=True, allow_redirects=False) as response:
            response.raw.read(MAX_RESPONSE, decode_content=False)
            status = response.status_code
    except requests.RequestException as exc:
        return PushResult(0, False, False, f"no answer from the push service ({type(exc).__name__})")
    ok = 200 <= status < 300
    return PushResult(status, ok, status in (404, 410), "" if ok else f"push service answered {status}")
