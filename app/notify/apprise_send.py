"""One notification through Apprise (https://github.com/caronc/apprise): a player's URL, the
room's webhook, or a plain e-mail address over the host's SMTP settings (urls.mail_url).
Blocking: run in a worker thread (sender.py). Apprise's own timeouts are set to
NOTIFY_TIMEOUT_S (connect and read) and no redirect is followed; what a service answers is read
by the plugin (Apprise has no size limit of its own to set)."""
from __future__ import annotations

import logging

import requests.sessions

from ..config import Settings
from .urls import mail_url

# No redirect is followed: one to an inside address would get past the check made before the
# request (urls.check). Apprise's plugins call `requests.post` etc., each on a new Session,
# whose `max_redirects` is this module global of requests; 0 = the first redirect fails
# (TooManyRedirects). Nothing else of the server uses requests with redirects (webpush.py asks
# for none).
requests.sessions.DEFAULT_REDIRECT_LIMIT = 0


def send(url: str, email: bool, title: str, body: str, settings: Settings) -> tuple[bool, str]:
    """Send `title`/`body` to `url` (`email`: a plain address) → (ok, reason when not)."""
    import apprise

    target = mail_url(url, settings) if email else url
    plugin = apprise.Apprise.instantiate(target, suppress_exceptions=True)
    if plugin is None:
        return False, "the notification URL cannot be read"
    for name in ("socket_connect_timeout", "socket_read_timeout"):
        if hasattr(plugin, name):
            setattr(plugin, name, settings.notify_timeout_s)
    if hasattr(plugin, "timeout"):
        plugin.timeout = settings.notify_timeout_s
    sender = apprise.Apprise()
    sender.add(plugin)
    with apprise.LogCapture(level=logging.WARNING) as captured:
        ok = sender.notify(body=body, title=title)
        text = captured.getvalue().strip().splitlines()
    return bool(ok), "" if ok else (text[-1][:200] if text else "the service refused it")
