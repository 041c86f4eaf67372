"""The test push service's decryption (tests/app/notify_receivers.py `Browser.decrypt`, its
own, not the library the server encrypts with) is RFC 8291's: the example of its Appendix A
decrypts to its plaintext, and a changed byte or another subscription's keys fail."""
from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from tests.app.notify_receivers import Browser, b64d, b64e

# RFC 8291 Appendix A
UA_PRIVATE = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
UA_PUBLIC = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
AUTH = "BTBZMqHH6r4Tts7J_aSIgg"
BODY = ("DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK"
        "6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")


def _example() -> Browser:
    key = ec.derive_private_key(int.from_bytes(b64d(UA_PRIVATE), "big"), ec.SECP256R1())
    return Browser(key, b64d(AUTH))


def test_the_rfc_8291_example_decrypts_to_its_plaintext():
    ua = _example()
    assert b64e(ua.public_bytes) == UA_PUBLIC
    assert ua.subscription("https://push.example.net/push/x")["keys"] == {"p256dh": UA_PUBLIC, "auth": AUTH}
    assert ua.decrypt(b64d(BODY)) == b"When I grow up, I want to be a watermelon"


def test_a_changed_byte_or_other_keys_do_not_decrypt():
    body = bytearray(b64d(BODY))
    body[-1] ^= 1
    with pytest.raises(Exception):
        _example().decrypt(bytes(body))
    with pytest.raises(Exception):
        Browser(auth=b64d(AUTH)).decrypt(b64d(BODY))
