"""The pure parts of notifications: the address guard, the words (public information only),
quiet hours, the `visible` frame."""
from __future__ import annotations

import asyncio
from datetime import datetime

import pytest

from app.config import Settings
from app.live.sockets.frames import parse_client_message
from app.notify import texts, urls
from app.notify.outbox import backoff_s
from app.notify.sender import quiet_end
from app.refusals import Refusal


@pytest.mark.parametrize("address", ["127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254",
                                     "169.254.1.1", "100.64.0.1", "0.0.0.0", "224.0.0.1", "240.0.0.1", "::1",
                                     "fe80::1", "fc00::1", "fd00:ec2::254", "::ffff:127.0.0.1", "ff02::1", "::",
                                     "2002:7f00:1::1", "2002:a9fe:a9fe::1", "2001:0:4136:e378:8000:63bf:f5ff:fffe"])
def test_inside_addresses_are_not_public(address):
    assert not urls.is_public(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"])
def test_public_addresses(address):
    assert urls.is_public(address)


def _refused(coro) -> str:
    with pytest.raises(Refusal) as exc:
        asyncio.run(coro)
    return exc.value.code


def test_check_host_refuses_inside_and_metadata_unless_allowed():
    assert _refused(urls.check_host("127.0.0.1", 80, False)) == "notify_private_url"
    assert _refused(urls.check_host("localhost", 80, False)) == "notify_private_url"
    assert _refused(urls.check_host("metadata.google.internal", 80, False)) == "notify_private_url"
    assert _refused(urls.check_host("no-such-host.invalid", 80, True)) == "notify_no_host"
    asyncio.run(urls.check_host("127.0.0.1", 80, True))  # allowed by the host
    asyncio.run(urls.check_host("93.184.216.34", 443, False))


def test_parse_apprise_schemes_and_mail():
    settings = Settings()
    for bad in ("", "http://x", "file:///etc/passwd", "foo://bar", "json:// x", "a" * 3000):
        with pytest.raises(Refusal) as exc:
            urls.parse_apprise(bad, settings)
        assert exc.value.code == "notify_bad_url", bad
    assert urls.parse_apprise("ntfy://topic", settings).host == "ntfy.sh"
    assert urls.parse_apprise("ntfys://ntfy.example.org/t", settings).host == "ntfy.example.org"
    assert urls.parse_apprise("discord://1234/abcd", settings).host is None  # Discord's own host
    with pytest.raises(Refusal) as exc:
        urls.parse_apprise("ann@example.org", settings)
    assert exc.value.code == "notify_no_smtp"
    target = urls.parse_apprise("ann@example.org", Settings(smtp_host="mail.example.org"))
    assert target.email and target.host is None


def test_mail_url_over_the_hosts_smtp():
    s = Settings(smtp_host="mail.example.org", smtp_port=587, smtp_user="u", smtp_password="p w", smtp_from="o@example.org")
    assert urls.mail_url("ann@example.org", s) == (
        "mailtos://u:p%20w@mail.example.org:587/?to=ann@example.org&from=o@example.org&mode=starttls")
    plain = Settings(smtp_host="127.0.0.1", smtp_port=25, smtp_starttls=False, smtp_from="o@example.org")
    assert urls.mail_url("a@b.de", plain) == "mailto://127.0.0.1:25/?to=a@b.de&from=o@example.org"


def test_redact_shows_no_secret():
    assert urls.redact("json://user:secret@host.example:8080/path?token=x") == "json://host.example:8080/…"
    assert "secret" not in urls.redact("gotify://user:secret@g.example/token")
    assert urls.redact("tgram://123:SECRET/456") == "tgram://…"
    assert urls.redact("ntfy://mysecrettopic") == "ntfy://…"
    assert urls.redact("ann@example.org") == "a…@example.org"


def test_the_words_carry_only_public_information():
    names = ["Ann", "Ben"]
    events = [{"type": "buy", "seat": 0, "goods": [3, 17, 21], "payment": [40, 41], "visible_to": None},
              {"type": "drawn", "seat": 0, "cards": [55], "visible_to": 0},
              {"type": "sale", "seat": 0, "color": "red", "cards": [3, 17], "price": 4, "value": 8, "vp": 8,
               "visible_to": None},
              {"type": "vp_total", "seat": 0, "vp": 23, "visible_to": 0}]
    line = texts.move_line(events, names, "en")
    assert line == "Ann bought 3 goods. Ann sold 2 red goods."
    assert "23" not in line and "VP" not in line and "40" not in line
    assert texts.move_line(events, names, "de") == "Ann hat 3 Waren gekauft. Ann hat 2 Waren (rot) verkauft."
    msg = texts.message("turn", "de", "ABCDEFGHJK", "Ben", line, "", "https://x/r/ABCDEFGHJK", "https://x/off", False)
    assert msg["title"] == "Du bist dran in Raum ABCDE-FGHJK" and set(msg) == {
        "title", "body", "url", "off_url", "off_title", "room", "lang"}
    over = [{"type": "game_over", "reason": "x", "winners": [1], "vp": [20, 31], "tokens": [1, 2], "visible_to": None}]
    assert texts.result_line(over, names, "en") == "Ben won. Ann: 20 VP; Ben: 31 VP"
    # German in the table's words: its colours, its Achievement tokens, a shared win in the plural.
    drafted = [{"type": "token_chosen", "seat": 1, "color": "yellow", "visible_to": None}]
    assert texts.move_line(drafted, names, "de") == "Ben hat ein Leistungsplättchen (gelb) gewählt."
    shared = [{**over[0], "winners": [0, 1], "vp": [31, 31]}]
    assert texts.result_line(shared, names, "de") == "Ann, Ben haben gewonnen. Ann: 31 SP; Ben: 31 SP"


def test_quiet_hours_across_midnight_in_the_browsers_zone():
    quiet = {"from": "22:00", "to": "07:00", "tz": "Europe/Berlin"}
    # 23:30 in Berlin (UTC+1 in December) = 22:30 UTC: inside, until 07:00 Berlin = 06:00 UTC next day
    assert quiet_end(quiet, datetime(2026, 12, 3, 22, 30)) == datetime(2026, 12, 4, 6, 0)
    assert quiet_end(quiet, datetime(2026, 12, 3, 5, 0)) == datetime(2026, 12, 3, 6, 0)  # 06:00 Berlin
    assert quiet_end(quiet, datetime(2026, 12, 3, 12, 0)) is None
    assert quiet_end({"from": "09:00", "to": "17:00", "tz": "UTC"}, datetime(2026, 12, 3, 12, 0)) == datetime(2026, 12, 3, 17)
    assert quiet_end(None, datetime(2026, 12, 3, 12, 0)) is None


def test_backoff_doubles():
    assert [backoff_s(n, 2) for n in (1, 2, 3, 4)] == [2, 4, 8, 16]
    assert backoff_s(30, 2) == 3600


def test_the_visible_frame():
    assert parse_client_message('{"type": "visible", "visible": false}') == {"type": "visible", "visible": False}
    with pytest.raises(Refusal):
        parse_client_message('{"type": "visible", "visible": "no"}')


def test_apprise_follows_no_redirect_to_anywhere():
    """A receiver that answers 307 to another address: Apprise's request is not sent on (a
    redirect to an inside address would get past the check made before the request)."""
    from app.notify import apprise_send
    from tests.app.notify_receivers import HookReceiver
    hook, inside = HookReceiver(), HookReceiver()
    try:
        hook.status, hook.location = 307, f"{inside.origin}/metadata"
        ok, reason = apprise_send.send(hook.url("x"), False, "t", "b", Settings(notify_timeout_s=2))
        assert not ok and len(hook.received) == 1 and inside.received == []
        hook.status, hook.location = 200, None
        assert apprise_send.send(hook.url("x"), False, "t", "b", Settings(notify_timeout_s=2)) == (True, "")
        assert hook.received[-1]["payload"]["title"] == "t"
    finally:
        hook.close()
        inside.close()


def test_ntfy_and_gotify_shapes_reach_a_local_receiver():
    """Apprise's ntfy:// (private mode: a self-hosted server) and gotify:// against a real
    local HTTP receiver: the title and the text arrive in each service's JSON shape."""
    from app.notify import apprise_send
    from tests.app.notify_receivers import HookReceiver
    hook = HookReceiver()
    try:
        settings = Settings(notify_timeout_s=2)
        assert apprise_send.send(f"ntfy://127.0.0.1:{hook.port}/osaka", False, "T", "B", settings) == (True, "")
        assert hook.received[-1]["payload"] == {"topic": "osaka", "title": "T", "message": "B"}
        assert apprise_send.send(f"gotify://127.0.0.1:{hook.port}/AbCdEfGhIjKlMnO", False, "T", "B", settings)[0]
        got = hook.received[-1]
        assert got["path"].startswith("/message") and got["payload"]["title"] == "T" and got["payload"]["message"] == "B"
    finally:
        hook.close()


def test_a_subscription_whose_keys_cannot_encrypt_is_dead_not_an_exception():
    """A row whose stored keys are bad (saved before keys were checked, or corrupted) ends as a
    failed, gone subscription (the sender marks the target failed) instead of raising."""
    from app.notify import webpush
    from app.notify.keys import new_pair

    bad = {"endpoint": "https://push.example/abc", "keys": {"p256dh": "BPub", "auth": "c2VjcmV0"}}
    result = webpush.send(bad, {"title": "t"}, new_pair().private_pem, "mailto:a@example.com", "ROOM", 1.0)
    assert (result.ok, result.gone, result.status) == (False, True, 0)
    assert "cannot encrypt" in result.reason
