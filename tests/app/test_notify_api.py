"""The notification API against a real server (docs/protocol.md "Notifications"): the VAPID
key, a seat's settings and their refusals, the host's webhook, turning off by the token."""
from __future__ import annotations

import base64

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from tests.app.helpers import auth, create_room, join_room

def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


#: A browser's subscription: a real P-256 point (RFC 8291 §3.1) and a 16-byte auth secret.
UA_POINT = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
    serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
SUB = {"endpoint": "https://93.184.216.34/push/abc", "keys": {"p256dh": _b64(UA_POINT), "auth": _b64(b"s" * 16)}}


def _error(r: httpx.Response) -> str:
    return r.json()["error"]["code"]


def test_the_vapid_key_is_a_p256_point_kept_across_requests(server):
    first = httpx.get(server.base_url + "/api/push/key").json()["public_key"]
    point = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4))
    assert len(point) == 65 and point[0] == 4
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)  # a point on the curve
    assert httpx.get(server.base_url + "/api/push/key").json()["public_key"] == first


def test_refusals_of_bad_private_and_mail_targets(server):
    host = create_room(server.base_url, "Ann")
    url = f"{server.base_url}/api/rooms/{host['code']}/notify"
    assert httpx.get(url).status_code == 401
    for text, code in (("foo://bar", "notify_bad_url"), ("not a url", "notify_bad_url"),
                       ("json://127.0.0.1:9/x", "notify_private_url"), ("ntfy://10.1.2.3/topic", "notify_private_url"),
                       ("json://169.254.169.254/latest", "notify_private_url"), ("json://[::1]:80/x", "notify_private_url"),
                       ("gotify://metadata.google.internal/t", "notify_private_url"),
                       ("alice@example.com", "notify_no_smtp")):
        r = httpx.put(url, json={"apprise": text}, headers=auth(host["token"]))
        assert r.status_code == 422 and _error(r) == code, (text, r.text)
    r = httpx.put(url, json={"webpush": {**SUB, "endpoint": "http://93.184.216.34/push"}}, headers=auth(host["token"]))
    assert r.status_code == 422 and _error(r) == "notify_bad_url"
    # Keys that cannot encrypt a message are refused when saved, never found out by the sender.
    not_on_curve = b"\x04" + b"\x01" * 64
    for keys in ({"p256dh": "BPub", "auth": SUB["keys"]["auth"]}, {"p256dh": _b64(not_on_curve), "auth": SUB["keys"]["auth"]},
                 {"p256dh": _b64(UA_POINT[:33]), "auth": SUB["keys"]["auth"]}, {"p256dh": "not base64!", "auth": "x"},
                 {"p256dh": SUB["keys"]["p256dh"], "auth": _b64(b"short")}):
        r = httpx.put(url, json={"webpush": {**SUB, "keys": keys}}, headers=auth(host["token"]))
        assert r.status_code == 422 and _error(r) == "bad_request", (keys, r.text)
    r = httpx.put(f"{server.base_url}/api/rooms/{host['code']}/webhook", json={"url": "json://127.0.0.1/x"},
                  headers=auth(host["token"]))
    assert r.status_code == 422 and _error(r) == "notify_private_url"
    assert httpx.get(url, headers=auth(host["token"])).json()["apprise"] is None, "nothing saved"


def test_settings_saved_shown_redacted_and_turned_off(server):
    host = create_room(server.base_url, "Ann")
    guest = join_room(server.base_url, host["code"], "Ben")
    url = f"{server.base_url}/api/rooms/{host['code']}/notify"
    quiet = {"from": "22:00", "to": "07:00", "tz": "Europe/Berlin"}
    r = httpx.put(url, json={"webpush": SUB, "apprise": "json://user:secret@93.184.216.34/hook?token=x",
                             "quiet": quiet, "lang": "de"}, headers=auth(guest["token"]))
    assert r.status_code == 200, r.text
    assert r.json() == {"webpush": True, "apprise": "json://93.184.216.34/…", "quiet": quiet, "lang": "de",
                        "failed": None}
    assert "secret" not in r.text and "webhook" not in r.json(), "redacted; the webhook only for the host"
    assert httpx.get(url, headers=auth(guest["token"])).json() == r.json()
    r = httpx.put(url, json={"apprise": None}, headers=auth(guest["token"]))  # only that part off
    assert r.json()["webpush"] is True and r.json()["apprise"] is None and r.json()["lang"] == "de"
    assert httpx.get(url, headers=auth(host["token"])).json() == {
        "webpush": False, "apprise": None, "quiet": None, "lang": "en", "failed": None, "webhook": None}
    r = httpx.put(url, json={"quiet": {"from": "25:00", "to": "07:00", "tz": "Europe/Berlin"}}, headers=auth(guest["token"]))
    assert r.status_code == 422 and _error(r) == "bad_request"
    for bad in ({"from": "22:00", "to": "07:00", "tz": "Mars/Olympus"}, {"from": "22:00", "to": "07:00", "tz": "localtime"},
                {"from": "22:00", "to": "07:00", "tz": "Factory"}, {"from": "22:00", "to": "07:00", "tz": "posix/Europe/Berlin"},
                {"from": "22:00", "to": "22:00", "tz": "Europe/Berlin"}):
        r = httpx.put(url, json={"quiet": bad}, headers=auth(guest["token"]))
        assert r.status_code == 422 and _error(r) == "bad_request", bad
    assert httpx.delete(url, headers=auth(guest["token"])).status_code == 204
    assert httpx.get(url, headers=auth(guest["token"])).json()["webpush"] is False


def test_only_the_host_sets_the_webhook(server):
    host = create_room(server.base_url, "Ann")
    guest = join_room(server.base_url, host["code"], "Ben")
    hook = f"{server.base_url}/api/rooms/{host['code']}/webhook"
    r = httpx.put(hook, json={"url": "discord://1234/abcdefgh"}, headers=auth(guest["token"]))
    assert r.status_code == 403 and _error(r) == "not_host"
    r = httpx.put(hook, json={"url": "discord://1234/abcdefgh"}, headers=auth(host["token"]))
    assert r.status_code == 200 and r.json() == {"webhook": "discord://…"}
    got = httpx.get(f"{server.base_url}/api/rooms/{host['code']}/notify", headers=auth(host["token"])).json()
    assert got["webhook"] == "discord://…"
    assert httpx.put(hook, json={"url": None}, headers=auth(host["token"])).json() == {"webhook": None}


def test_the_off_page_changes_nothing_on_get(server):
    r = httpx.get(server.base_url + "/n/off/" + "x" * 43, headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert r.status_code == 200 and "Ausschalten" in r.text and 'method="post"' in r.text
    assert "Turn off" in httpx.get(server.base_url + "/n/off/" + "x" * 43).text
    assert httpx.post(server.base_url + "/api/notify/off/" + "y" * 43).status_code == 204
    assert httpx.post(server.base_url + "/api/notify/off/short").status_code == 404


@pytest.mark.parametrize("n", [1])
def test_changes_are_rate_limited(server_factory, n):
    srv = server_factory(NOTIFY_CHANGE_LIMIT="3/minute")
    host = create_room(srv.base_url, "Ann")
    url = f"{srv.base_url}/api/rooms/{host['code']}/notify"
    codes = [httpx.put(url, json={"lang": "de"}, headers=auth(host["token"])).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
