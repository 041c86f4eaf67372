"""Real local receivers of the turn notifications, for the tests (no mocks): a push service as RFC
8030 describes it, whose subscriptions carry a P-256 key pair and an auth secret made here so
that what the server sends can be decrypted (RFC 8291, aes128gcm of RFC 8188), and an HTTP hook
that keeps every JSON body POSTed to it (what Apprise's `json://host:port/path` sends).

Both listen on 127.0.0.1 in a thread of their own: use them as context managers
(`with PushService() as push: ...`). Used by tests/e2e/test_notify_panel.py."""
from __future__ import annotations

import base64
import json
import os
import secrets
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64url(data: bytes) -> str:
    """Unpadded base64url (RFC 4648 §5), as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of unpadded (or padded) base64url text."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


@dataclass
class Subscription:
    """A browser's push subscription as the push service and the browser know it: `endpoint`
    (this service's URL), the user agent's P-256 `private_key` and its 16-byte `auth` secret.
    `json()` is PushSubscription.toJSON(): {"endpoint", "expirationTime", "keys": {"p256dh", "auth"}}."""
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def public_bytes(self) -> bytes:
        """The uncompressed P-256 point (65 bytes), the subscription's `p256dh`."""
        return self.private_key.public_key().public_bytes(serialization.Encoding.X962,
                                                          serialization.PublicFormat.UncompressedPoint)

    def json(self) -> dict:
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(self.public_bytes), "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> bytes:
        """The plaintext of one push message body (RFC 8291 §3.4 keys, RFC 8188 §2 records):
        header salt(16) | rs(4) | idlen(1) | keyid (the application server's public key);
        ValueError when it is no aes128gcm message for this subscription."""
        if len(body) < 21:
            raise ValueError("too short for an aes128gcm header")
        salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        keyid, data = body[21:21 + idlen], body[21 + idlen:]
        if rs < 18 or idlen != 65:
            raise ValueError(f"rs {rs}, keyid of {idlen} bytes: not RFC 8291")
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), keyid)
        shared = self.private_key.exchange(ec.ECDH(), sender)
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


@dataclass
class Push:
    """One message the push service received: `path`, `headers` (lower-case names), `body`."""
    path: str
    headers: dict[str, str]
    body: bytes


class _Server:
    """An HTTP server on 127.0.0.1 (a free port) in a daemon thread; `handle(method, path,
    headers, body) -> (status, headers)` answers each request."""

    def __init__(self):
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def _any(self):
                n = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(n) if n else b""
                status, headers = outer.handle(self.command, self.path,
                                               {k.lower(): v for k, v in self.headers.items()}, body)
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_POST = do_GET = do_PUT = _any

            def log_message(self, *args):  # quiet
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def handle(self, method, path, headers, body):  # pragma: no cover - overridden
        return 404, {}

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


class PushService(_Server):
    """A push service (RFC 8030 §5): POST /push/<id> with a message body is answered
    `201 Created` with a `Location`; every message is kept in `received` (a list of Push,
    guarded by `lock`). `subscribe()` makes a Subscription whose endpoint is here."""

    def __init__(self):
        super().__init__()
        self.received: list[Push] = []
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)

    def subscribe(self) -> Subscription:
        return Subscription(f"{self.base}/push/{secrets.token_urlsafe(12)}",
                            ec.generate_private_key(ec.SECP256R1()), os.urandom(16))

    def handle(self, method, path, headers, body):
        if method != "POST" or not path.startswith("/push/"):
            return 404, {}
        with self.arrived:
            self.received.append(Push(path, headers, body))
            self.arrived.notify_all()
        return 201, {"Location": f"{self.base}/message/{secrets.token_urlsafe(8)}"}

    def wait(self, count: int = 1, timeout: float = 20.0) -> list[Push]:
        """The messages once at least `count` came (AssertionError after `timeout` s)."""
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(f"{len(self.received)} push messages, wanted {count}")
            return list(self.received)


@dataclass
class HookReceiver(_Server):
    """An HTTP endpoint that keeps every JSON body POSTed to it (`bodies`: (path, object));
    answers 200. Apprise's `json://127.0.0.1:PORT/path` posts {"version", "title", "message",
    "type", …} here."""
    bodies: list = field(default_factory=list)

    def __post_init__(self):
        super().__init__()
        self.arrived = threading.Condition()

    def handle(self, method, path, headers, body):
        with self.arrived:
            try:
                self.bodies.append((path, json.loads(body or b"null")))
            except ValueError:
                self.bodies.append((path, body))
            self.arrived.notify_all()
        return 200, {}

    def wait(self, count: int = 1, timeout: float = 20.0) -> list:
        """The bodies once at least `count` came (AssertionError after `timeout` s)."""
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.bodies) >= count, timeout):
                raise AssertionError(f"{len(self.bodies)} hook calls, wanted {count}")
            return list(self.bodies)
