"""Bodies and answers of the notification routes (app/routes/notify.py; docs/protocol.md
"Notifications")."""
from __future__ import annotations

import base64
import binascii
import re
from typing import Literal
from zoneinfo import ZoneInfo, available_timezones

from cryptography.hazmat.primitives.asymmetric import ec
from pydantic import BaseModel, ConfigDict, Field, field_validator

Lang = Literal["en", "de"]
_HHMM = re.compile(r"^([01][0-9]|2[0-3]):[0-5][0-9]$")


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Quiet(_Body):
    """Quiet hours: from `from` to `to` (HH:MM, 24 h; across midnight when `to` < `from`) in
    the IANA time zone `tz` (the browser's: Intl.DateTimeFormat().resolvedOptions().timeZone)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    start: str = Field(alias="from", pattern=_HHMM.pattern)
    end: str = Field(alias="to", pattern=_HHMM.pattern)
    tz: str = Field(min_length=1, max_length=64, json_schema_extra={"format": "time-zone"})

    @field_validator("tz")
    @classmethod
    def _tz(cls, value: str) -> str:
        if not zone_ok(value):
            raise ValueError("an IANA time zone such as Europe/Berlin")
        ZoneInfo(value)
        return value


def zone_ok(value: str) -> bool:
    """A zone of the IANA database (the `time-zone` format of `Quiet.tz`): not the machine's
    own ("localtime") nor tzdata's placeholder ("Factory") nor its posix/ and right/ copies."""
    return ((value in available_timezones() or value == "UTC") and value not in ("localtime", "Factory")
            and not value.startswith(("posix/", "right/")))


class PushKeys(_Body):
    """`PushSubscription.toJSON().keys`: the browser's P-256 public key and auth secret (RFC 8291)."""

    p256dh: str = Field(min_length=1, max_length=200)
    auth: str = Field(min_length=1, max_length=64)


def push_keys_ok(keys: PushKeys) -> bool:
    """RFC 8291 §3: `p256dh` an uncompressed point on P-256 (65 bytes), `auth` 16 bytes, both
    base64url. Checked by the handler after the seat (targets.save), not by the schema."""
    try:
        raw = _b64url(keys.p256dh)
        if len(raw) != 65 or len(_b64url(keys.auth)) != 16:
            return False
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        return False
    return True


def _b64url(value: str) -> bytes:
    """base64url with or without padding (RFC 4648 §5) → bytes; ValueError when it is not."""
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("base64url") from None


class PushSubscription(_Body):
    """`PushSubscription.toJSON()` (https://www.w3.org/TR/push-api/): the push service's
    endpoint (RFC 8030) and the keys."""

    endpoint: str = Field(min_length=1, max_length=2048)
    keys: PushKeys


class NotifyIn(_Body):
    """Body of PUT /api/rooms/{code}/notify: a member left out stays as it is; null turns that
    part off."""

    webpush: PushSubscription | None = None
    apprise: str | None = Field(default=None, max_length=2048)
    quiet: Quiet | None = None
    lang: Lang | None = None


class Failed(BaseModel):
    """A target whose notifications failed `NOTIFY_MAX_FAILURES` times in a row: off until saved again."""

    target: Literal["webpush", "apprise"]
    reason: str
    at: str


class NotifyOut(BaseModel):
    """A seat's notification settings (GET/PUT /api/rooms/{code}/notify); `apprise` and
    `webhook` redacted (scheme://host/…); `webhook` only for the host."""

    webpush: bool
    apprise: str | None
    quiet: dict | None
    lang: Lang
    failed: Failed | None
    webhook: str | None = None


class WebhookIn(_Body):
    """Body of PUT /api/rooms/{code}/webhook (host): an Apprise URL, or null for none."""

    url: str | None = Field(default=None, max_length=2048)
    lang: Lang = "en"


class WebhookOut(BaseModel):
    """The room's webhook, redacted."""

    webhook: str | None


class PushKeyOut(BaseModel):
    """GET /api/push/key: the VAPID public key (base64url of the uncompressed P-256 point)."""

    public_key: str
