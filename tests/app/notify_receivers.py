"""Real local receivers of notifications for the tests (no mocks):

- `PushService`: an RFC 8030 push service on 127.0.0.1 that accepts `POST /push/{id}` with
  `Content-Encoding: aes128gcm`, checks the VAPID `Authorization` (RFC 8292: `vapid t=<JWT>,
  k=<key>`, the JWT ES256-signed by `k`, `k` the server's served public key, `aud` this
  origin, `exp` in the future), decrypts the body (RFC 8291) with the key pair and auth secret
  a `Browser` made as a browser would, and answers 201 (or what the test sets). The decryption
  is this module's own (`Browser.decrypt`, checked against RFC 8291 Appendix A by
  tests/unit/test_notify_receivers.py), not the library the server encrypts with.
- `HookReceiver`: an HTTP server that records each JSON body POSTed to it (Apprise's json://),
  answering 200 (or what the test sets).
- `MailReceiver`: an aiosmtpd SMTP server recording each message.
"""
from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64d(text: str) -> bytes:
    """base64url, padding optional."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data: bytes) -> str:
    """base64url without padding."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


class Browser:
    """A browser's push subscription keys (RFC 8291 §2): a P-256 pair and a 16-byte auth secret
    (new ones, or the given `key` and `auth`)."""

    def __init__(self, key: ec.EllipticCurvePrivateKey | None = None, auth: bytes | None = None) -> None:
        self.key = key or ec.generate_private_key(ec.SECP256R1())
        self.auth = auth or os.urandom(16)

    @property
    def public_bytes(self) -> bytes:
        """The uncompressed P-256 point (65 bytes), the subscription's `p256dh`."""
        return self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                  serialization.PublicFormat.UncompressedPoint)

    def subscription(self, endpoint: str) -> dict:
        """`PushSubscription.toJSON()` for `endpoint`."""
        return {"endpoint": endpoint, "keys": {"p256dh": b64e(self.public_bytes), "auth": b64e(self.auth)}}

    def decrypt(self, body: bytes) -> bytes:
        """The plaintext of one push message body (RFC 8291 §3.4 keys, RFC 8188 §2 records):
        header salt(16) | rs(4) | idlen(1) | keyid (the application server's public key);
        ValueError (or cryptography's InvalidTag) when it is no aes128gcm message for these keys."""
        if len(body) < 21:
            raise ValueError("too short for an aes128gcm header")
        salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        keyid, data = body[21:21 + idlen], body[21 + idlen:]
        if rs < 18 or idlen != 65:
            raise ValueError(f"rs {rs}, keyid of {idlen} bytes: not RFC 8291")
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), keyid)
        shared = self.key.exchange(ec.ECDH(), sender)
        ikm = _hkdf(self.auth, shared, b"WebPush: info\x00" + self.public_bytes + keyid, 32)
        cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        out, records = b"", [data[i:i + rs] for i in range(0, len(data), rs)]
        for seq, record in enumerate(records):
            iv = (int.from_bytes(nonce, "big") ^ seq).to_bytes(12, "big")
            plain = AESGCM(cek).decrypt(iv, record, None).rstrip(b"\x00")
            last = seq == len(records) - 1
            if not plain or plain[-1] != (2 if last else 1):
                raise ValueError("bad padding delimiter")
            out += plain[:-1]
        return out


def check_vapid(header: str, origin: str, public_key: str) -> dict:
    """The claims of a valid RFC 8292 `Authorization` header; AssertionError otherwise."""
    assert header.startswith("vapid "), header
    params = dict(p.strip().split("=", 1) for p in header[6:].split(","))
    assert params["k"] == public_key, "signed with another key than the one served"
    head, body, sig = params["t"].split(".")
    assert json.loads(b64d(head)) == {"typ": "JWT", "alg": "ES256"} or json.loads(b64d(head))["alg"] == "ES256"
    raw = b64d(sig)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(params["k"]))
    key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
               f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
    claims = json.loads(b64d(body))
    assert claims["aud"] == origin and claims["exp"] > time.time() and claims["sub"]
    return claims


class _Server:
    def __init__(self, handler: type[BaseHTTPRequestHandler]):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.owner = self  # type: ignore[attr-defined]
        self.port = self.httpd.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.status = 201
        self.received: list[dict] = []
        self.lock = threading.Lock()
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        """Stop serving."""
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait(self, count: int, timeout: float = 30) -> list[dict]:
        """The messages once there are at least `count` (AssertionError after `timeout` s)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.05)
        raise AssertionError(f"{len(self.received)} of {count} messages came: {self.received}")


class _PushHandler(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        owner: PushService = self.server.owner  # type: ignore[attr-defined]
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        entry: dict = {"path": self.path, "headers": dict(self.headers), "error": None}
        try:
            assert self.headers["Content-Encoding"] == "aes128gcm"
            assert int(self.headers["TTL"]) > 0
            check_vapid(self.headers["Authorization"], owner.origin, owner.public_key)
            browser = owner.browsers[self.path.rsplit("/", 1)[-1]]
            plain = browser.decrypt(body)
            entry["payload"] = json.loads(plain)
            entry["raw"] = plain.decode()
        except Exception as exc:  # recorded: the test fails on it
            entry["error"] = repr(exc)
        with owner.lock:
            owner.received.append(entry)
        status = owner.status if entry["error"] is None else 400
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()


class PushService(_Server):
    """The RFC 8030 push service (module docstring). `subscribe()` → a `Browser`'s subscription."""

    def __init__(self, public_key: str):
        super().__init__(_PushHandler)
        self.public_key = public_key
        self.browsers: dict[str, Browser] = {}

    def subscribe(self, name: str) -> dict:
        """A new `Browser` named `name` → its subscription to `/push/{name}` here."""
        browser = self.browsers[name] = Browser()
        return browser.subscription(f"{self.origin}/push/{name}")


class _HookHandler(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        owner: HookReceiver = self.server.owner  # type: ignore[attr-defined]
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        with owner.lock:
            owner.received.append({"path": self.path, "raw": raw, "payload": json.loads(raw) if raw else None,
                                   "status": owner.status})
        time.sleep(owner.delay)  # a slow receiver (recorded when it came, answered later)
        self.send_response(owner.status)
        if owner.location:
            self.send_header("Location", owner.location)
        self.send_header("Content-Length", "0")
        self.end_headers()


class HookReceiver(_Server):
    """The HTTP receiver of Apprise's json:// (module docstring)."""

    def __init__(self) -> None:
        super().__init__(_HookHandler)
        self.status = 200
        self.location: str | None = None  # sent with the answer (a redirect)
        self.delay = 0.0  # seconds before each answer

    def url(self, path: str) -> str:
        """The Apprise json:// URL of `path` here."""
        return f"json://127.0.0.1:{self.port}/{path.lstrip('/')}"

    def to(self, path: str) -> list[dict]:
        """The messages POSTed to `path`."""
        with self.lock:
            return [m for m in self.received if m["path"].split("?")[0] == "/" + path.lstrip("/")]


class MailReceiver:
    """An aiosmtpd server on 127.0.0.1 recording each message (`received`: {from, to, text})."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        owner = self
        self.received: list[dict] = []

        class Handler:
            async def handle_DATA(self, server, session, envelope):  # noqa: N802
                owner.received.append({"from": envelope.mail_from, "to": list(envelope.rcpt_tos),
                                       "text": envelope.content.decode("utf-8", "replace")})
                return "250 OK"

        from tests.conftest import free_port
        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def close(self) -> None:
        """Stop the SMTP server."""
        self.controller.stop()

    def wait(self, count: int, timeout: float = 30) -> list[dict]:
        """The messages once there are at least `count` (AssertionError after `timeout` s)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and len(self.received) < count:
            time.sleep(0.05)
        assert len(self.received) >= count, self.received
        return list(self.received)
