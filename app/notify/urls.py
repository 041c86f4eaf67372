"""The user-given notification URL, parsed and checked: the guard against requests for strangers
(server-side request forgery).

A player pastes an Apprise URL (https://github.com/caronc/apprise/wiki) or an e-mail address;
a browser gives a Web Push endpoint (RFC 8030). The server then makes requests there, so:

- Only the schemes of `HOST_SCHEMES` (the URL names the host the request goes to) and
  `SERVICE_SCHEMES` (a public service at a host of its own, e.g. Discord's, Telegram's) are
  taken; anything else is `notify_bad_url`. A Web Push endpoint is https.
- The host of a URL that names one is resolved (getaddrinfo, in a worker thread) and every
  address it resolves to must be a public one: no loopback, private (RFC 1918, RFC 4193),
  link-local, multicast, reserved, unspecified, shared (RFC 6598) or cloud metadata address
  (169.254.169.254, fd00:ec2::254, metadata.google.internal) -- else `notify_private_url` --
  unless the host allows it (`NOTIFY_ALLOW_PRIVATE`, e.g. a LAN's own ntfy). `check_host` runs
  again right before EACH request (app/notify/sender.py), so a name that later resolves to an
  inside address is refused then; between that check and the library's own lookup a few
  milliseconds remain (a DNS answer changed in that moment is not caught).
- A plain e-mail address goes out over the host's SMTP settings (`mail_url`); none set:
  `notify_no_smtp`. The host's own SMTP server is trusted (it is the host's setting).

`redact` is what the API shows of a saved URL: scheme://host/… (never a token or password;
only scheme://… for a service's URL, whose secrets stand where a host would).
"""
from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from ..config import Settings
from ..refusals import Refusal

#: Schemes whose URL names the host the request goes to (checked: `check_host`).
HOST_SCHEMES = {"json", "jsons", "xml", "xmls", "form", "forms", "ntfy", "ntfys", "gotify", "gotifys",
                "matrix", "matrixs", "mailto", "mailtos", "mmost", "mmosts", "rocket", "rockets"}
#: Schemes of public services that always go to the service's own host.
SERVICE_SCHEMES = {"discord", "tgram", "slack", "msteams", "pover", "pbul"}
METADATA_HOSTS = {"metadata.google.internal", "metadata.goog", "metadata"}
METADATA_ADDRESSES = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254"),
                      ipaddress.ip_address("100.100.100.200")}
SHARED = ipaddress.ip_network("100.64.0.0/10")  # RFC 6598 carrier-grade NAT
MAX_URL = 2048
EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")


@dataclass(frozen=True)
class Target:
    """A checked target: `url` as stored (the Apprise URL, the e-mail address, the endpoint),
    `host` the host to check before each request (None: a service's own host or the host's
    SMTP server), `email`: a plain e-mail address (sent through SMTP_*)."""

    url: str
    host: str | None
    email: bool = False


def is_public(address: str) -> bool:
    """True for an address a notification may go to: not loopback, private, link-local,
    multicast, reserved, unspecified, shared (100.64/10) or a metadata address. An IPv6
    address that carries an IPv4 one (IPv4-mapped ::ffff:0:0/96, 6to4 2002::/16 RFC 3056,
    Teredo 2001::/32 RFC 4380: its client) counts as that IPv4 address."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if inner is not None:
            ip = inner
    if ip in METADATA_ADDRESSES or (ip.version == 4 and ip in SHARED):
        return False
    return not (ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_multicast or ip.is_reserved
                or ip.is_unspecified or not ip.is_global)


def _resolve(host: str, port: int | None) -> list[str]:
    infos = socket.getaddrinfo(host, port or 443, type=socket.SOCK_STREAM)
    return sorted({info[4][0] for info in infos})


async def check_host(host: str, port: int | None, allow_private: bool) -> None:
    """Resolve `host` (in a worker thread) and refuse it unless every address is public:
    422 `notify_private_url` (also for a metadata host name), `notify_bad_url` when it does
    not resolve. Nothing is refused with `allow_private` but a name that does not resolve."""
    name = host.strip("[]").rstrip(".").lower()
    if not allow_private and name in METADATA_HOSTS:
        raise Refusal("notify_private_url")
    try:
        addresses = await asyncio.to_thread(_resolve, name, port)
    except (OSError, UnicodeError):
        raise Refusal("notify_no_host", host=name) from None
    if not addresses:
        raise Refusal("notify_no_host", host=name)
    if not allow_private and not all(is_public(a) for a in addresses):
        raise Refusal("notify_private_url")


def parse_apprise(raw: str, settings: Settings) -> Target:
    """A player's or host's text → the `Target` to store, without resolving (`check` does):
    a plain e-mail address (422 `notify_no_smtp` without SMTP_HOST), else an Apprise URL of an
    accepted scheme that Apprise can read (422 `notify_bad_url` otherwise)."""
    import apprise  # a second or so to import its plugins: only when a URL is checked

    text = raw.strip()
    if not text or len(text) > MAX_URL or any(c.isspace() or ord(c) < 32 for c in text):
        raise Refusal("notify_bad_url")
    if "://" not in text and EMAIL.match(text):
        if not settings.smtp_host:
            raise Refusal("notify_no_smtp")
        return Target(text, None, email=True)
    scheme = text.split("://", 1)[0].lower()
    if scheme not in HOST_SCHEMES | SERVICE_SCHEMES:
        raise Refusal("notify_bad_url")
    plugin = apprise.Apprise.instantiate(text, suppress_exceptions=True)
    if plugin is None:
        raise Refusal("notify_bad_url")
    host = None
    if scheme in HOST_SCHEMES:
        host = getattr(plugin, "smtp_host", None) or plugin.host
        if scheme.startswith("ntfy") and getattr(plugin, "mode", "") == "cloud":
            host = "ntfy.sh"
        if not host:
            raise Refusal("notify_bad_url")
    return Target(text, host)


def parse_push_endpoint(endpoint: str) -> Target:
    """A PushSubscription's endpoint (RFC 8030: an https URL of the push service) → its
    `Target`; 422 `notify_bad_url` for anything else. (`NOTIFY_ALLOW_PRIVATE` also lets an
    http endpoint through: a push service on the host's own network, or a test's.)"""
    if not isinstance(endpoint, str) or len(endpoint) > MAX_URL:
        raise Refusal("notify_bad_url")
    parts = urlsplit(endpoint)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise Refusal("notify_bad_url")
    return Target(endpoint, parts.hostname)


def port_of(target: Target) -> int | None:
    """The port of `target`'s URL, when it names one."""
    try:
        return urlsplit(target.url).port
    except ValueError:
        return None


async def check(target: Target, settings: Settings) -> None:
    """Before saving and before each request: `check_host` of the target's host (none for a
    service's own or the SMTP server); an http (not https) Web Push endpoint only with
    NOTIFY_ALLOW_PRIVATE (422 `notify_bad_url`)."""
    if target.url.startswith("http://") and not settings.notify_allow_private:
        raise Refusal("notify_bad_url")
    if target.host is not None:
        await check_host(target.host, port_of(target), settings.notify_allow_private)


def mail_url(address: str, settings: Settings) -> str:
    """The Apprise mailto:// URL that sends to `address` through the host's SMTP settings:
    mailtos:// with TLS from the start on port 465, STARTTLS with SMTP_STARTTLS (default),
    else plain SMTP (a local relay)."""
    user = quote(settings.smtp_user, safe="") if settings.smtp_user else ""
    cred = f"{user}:{quote(settings.smtp_password, safe='')}@" if user else ""
    if settings.smtp_port == 465:
        scheme, mode = "mailtos", "ssl"
    elif settings.smtp_starttls:
        scheme, mode = "mailtos", "starttls"
    else:
        scheme, mode = "mailto", None
    sender = settings.smtp_from or (settings.smtp_user if "@" in settings.smtp_user else f"osaka@{settings.smtp_host}")
    query = f"to={quote(address, safe='@')}&from={quote(sender, safe='@')}" + (f"&mode={mode}" if mode else "")
    return f"{scheme}://{cred}{settings.smtp_host}:{settings.smtp_port}/?{query}"


def redact(url: str | None) -> str | None:
    """What the API shows of a stored URL: ``scheme://host/…`` (an e-mail address as
    ``a…@host``); never a path, token or password."""
    if url is None:
        return None
    if "://" not in url and "@" in url:
        local, _, host = url.rpartition("@")
        return f"{local[:1]}…@{host}"
    scheme, _, rest = url.partition("://")
    host = rest.split("/", 1)[0].split("?", 1)[0].rsplit("@", 1)[-1]
    # A service's own URL holds its secrets where a host would be (a Telegram bot token, a
    # Discord webhook id, a ntfy.sh topic): only a name with a dot (or an IP) is shown.
    if scheme.lower() in SERVICE_SCHEMES or "." not in host.split(":", 1)[0] and not host.startswith("["):
        return f"{scheme}://…"
    return f"{scheme}://{host}/…"
