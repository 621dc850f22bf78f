"""Rate limits (SPEC §10): a 429 ``rate_limited`` with Retry-After on the API, a friendly page on
the web, per scope, reset when the window passes, and all off with THROTTLE_ENABLED=false.

Every test here turns the limits on through the ``throttling`` fixture (small rates, a cache
namespace of its own); no test sleeps: a window passing is the cache's history aged by hand.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from chat.models import Message, VoiceSession
from tests import sse
from tests.conftest import client_for
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-passphrase-42"
WRONG = "not-the-password"


def login(email: str = "anna@example.com", password: str = WRONG, **extra: Any):
    return APIClient().post(
        "/api/v1/auth/login", {"email": email, "password": password}, format="json", **extra
    )


def assert_rate_limited(response, *, within: int) -> None:
    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "rate_limited"
    assert body["detail"].startswith("Too many attempts. Try again in ")
    assert 1 <= body["retry_after"] <= within
    assert response["Retry-After"] == str(body["retry_after"])


def age_window(scope: str, ident: str, seconds: float) -> None:
    """Move every request counted for ``scope`` and ``ident`` ``seconds`` into the past
    (DRF keeps them as a list of timestamps under this key)."""
    key = f"throttle_{scope}_{ident}"
    history = cache.get(key)
    assert history, key
    cache.set(key, [moment - seconds for moment in history], 3600)


# --- The API ------------------------------------------------------------------------------------


def test_wrong_logins_meet_a_429_with_retry_after(throttling, account):
    for _ in range(3):
        assert login().status_code == 400
    # Refused per address (3/min) first, before the body is read: its wait.
    assert_rate_limited(login(), within=60)
    # The right password does not get through either while the window lasts.
    assert_rate_limited(login(password=PASSWORD), within=60)
    # Once the address's minute is over, the e-mail's hour still refuses (3/hour).
    age_window("login", "127.0.0.1", 61)
    assert_rate_limited(login(password=PASSWORD), within=3600)
    assert int(login()["Retry-After"]) > 60


@pytest.mark.parametrize(
    "body",
    [b"{not json", b"[" * 5000, b'{"email": "' + b'\\"' * 20000, b"\xff\xfe"],
)
def test_over_the_limit_a_login_is_refused_before_its_body_is_read(throttling, account, body):
    """A 429, never the 400 of a body that does not parse: it is not even read."""
    for _ in range(3):
        assert login().status_code == 400
    response = APIClient().post("/api/v1/auth/login", body, content_type="application/json")
    assert_rate_limited(response, within=60)


def test_brute_force_meets_a_429_within_ten_wrong_tries_at_the_default_rates(
    throttling, settings, account
):
    from config import settings as defaults

    settings.THROTTLE_RATES = defaults.THROTTLE_RATES
    statuses = [login().status_code for _ in range(11)]
    assert 429 in statuses
    assert statuses.index(429) <= 10


def test_the_limit_resets_when_the_window_has_passed(throttling, account):
    for _ in range(3):
        login()
    assert login().status_code == 429
    age_window("login", "127.0.0.1", 59)
    age_window("login_email", email_ident("anna@example.com"), 59)
    assert login(password=PASSWORD).status_code == 429  # not yet a minute
    age_window("login", "127.0.0.1", 2)
    assert login(password=PASSWORD).status_code == 429  # the hourly count per e-mail holds
    age_window("login_email", email_ident("anna@example.com"), 3600)
    assert login(password=PASSWORD).status_code == 200


def email_ident(email: str) -> str:
    return hashlib.sha256(email.casefold().encode()).hexdigest()[:32]


def test_logins_are_counted_per_email_across_addresses(throttling, settings, account):
    settings.THROTTLE_RATES = {**throttling, "login": "100/min"}
    for n in range(3):
        assert login(REMOTE_ADDR=f"10.0.0.{n}").status_code == 400
    # The same address in another case and with spaces is the same address.
    assert_rate_limited(login(email="  ANNA@example.com ", REMOTE_ADDR="10.0.0.9"), within=3600)
    assert login(email="bea@example.com", REMOTE_ADDR="10.0.0.9").status_code == 400


def test_logins_are_counted_per_address_across_emails(throttling):
    for n in range(3):
        assert login(email=f"user{n}@example.com").status_code == 400
    assert_rate_limited(login(email="user9@example.com"), within=60)
    assert login(email="user9@example.com", REMOTE_ADDR="10.0.0.1").status_code == 400


def test_a_forged_forwarded_for_header_does_not_make_a_new_address(throttling):
    for n in range(3):
        login(email=f"user{n}@example.com", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
    response = login(email="user9@example.com", HTTP_X_FORWARDED_FOR="203.0.113.77")
    assert response.status_code == 429


def test_behind_a_proxy_the_address_it_forwards_is_counted(throttling, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    for n in range(3):
        login(email=f"user{n}@example.com", HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert login(email="x@example.com", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 429
    assert login(email="x@example.com", HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 400


def test_a_very_long_forwarded_address_is_counted_like_any_other(throttling, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    forwarded = "x" * 5_000
    statuses = [
        login(email=f"u{n}@example.com", HTTP_X_FORWARDED_FOR=forwarded).status_code
        for n in range(4)
    ]
    assert statuses == [400, 400, 400, 429]


def test_signups_are_limited_per_email_and_per_address(throttling):
    def signup(email: str, address: str):
        return APIClient().post(
            "/api/v1/auth/signup",
            {"email": email, "password": "123"},
            format="json",
            REMOTE_ADDR=address,
        )

    assert signup("anna@example.com", "10.0.0.1").status_code == 400
    assert signup("anna@example.com", "10.0.0.2").status_code == 400
    assert_rate_limited(signup("anna@example.com", "10.0.0.3"), within=3600)
    assert signup("bea@example.com", "10.0.0.1").status_code == 400
    assert signup("cleo@example.com", "10.0.0.1").status_code == 400
    assert_rate_limited(signup("dan@example.com", "10.0.0.1"), within=3600)


def test_guest_creation_is_limited_per_address(throttling):
    for _ in range(3):
        assert APIClient().post("/api/v1/auth/guest").status_code == 201
    assert_rate_limited(APIClient().post("/api/v1/auth/guest"), within=3600)
    assert User.objects.count() == 3
    other = APIClient().post("/api/v1/auth/guest", REMOTE_ADDR="10.0.0.5")
    assert other.status_code == 201


def test_chat_messages_are_limited_per_person(throttling, api, other_api):
    def send(client: APIClient, conversation: int):
        return client.post(
            f"/api/v1/conversations/{conversation}/messages", {"content": "hi"}, format="json"
        )

    mine = api.post("/api/v1/conversations", {}, format="json").json()["id"]
    theirs = other_api.post("/api/v1/conversations", {}, format="json").json()["id"]
    for _ in range(3):
        assert send(api, mine).status_code == 201
    assert_rate_limited(send(api, mine), within=60)
    assert_rate_limited(
        api.post(
            f"/api/v1/conversations/{mine}/messages",
            {"content": "hi"},
            format="json",
            HTTP_ACCEPT="text/event-stream",
        ),
        within=60,
    )
    # Nothing of the refused messages was stored, and someone else is not affected.
    assert Message.objects.filter(conversation_id=mine, role="user").count() == 3
    assert send(other_api, theirs).status_code == 201


def test_voice_sessions_are_limited_per_person(throttling, api):
    for _ in range(2):
        assert api.post("/api/v1/voice/sessions", {}, format="json").status_code == 201
    assert_rate_limited(api.post("/api/v1/voice/sessions", {}, format="json"), within=3600)
    assert VoiceSession.objects.count() == 2


def test_the_429_detail_follows_the_language(throttling):
    for _ in range(3):
        login()
    italian = login(HTTP_ACCEPT_LANGUAGE="it").json()["detail"]
    french = login(HTTP_ACCEPT_LANGUAGE="fr").json()["detail"]
    assert italian.startswith("Troppi tentativi.")
    assert french.startswith("Trop de tentatives.")


def test_throttle_enabled_false_turns_every_limit_off(throttling, settings, account):
    settings.THROTTLE_ENABLED = False
    assert all(login().status_code == 400 for _ in range(10))
    assert all(APIClient().post("/api/v1/auth/guest").status_code == 201 for _ in range(10))


def test_a_cache_that_cannot_be_reached_lets_requests_through(throttling, settings, account):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    assert [login().status_code for _ in range(5)] == [400] * 5
    assert login(password=PASSWORD).status_code == 200


def test_a_body_that_does_not_parse_is_a_400_before_any_count(throttling):
    response = APIClient().post(
        "/api/v1/auth/login", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


def test_deleting_the_account_by_guessing_its_password_is_limited(throttling, account):
    client = client_for(account)
    for _ in range(3):
        response = client.delete("/api/v1/account", {"password": "guess"}, format="json")
        assert response.status_code == 403
    assert_rate_limited(
        client.delete("/api/v1/account", {"password": PASSWORD}, format="json"), within=60
    )
    assert User.objects.filter(pk=account.pk).exists()


# --- The web ------------------------------------------------------------------------------------


def web_login(client: Client, password: str = WRONG, **extra: Any):
    return client.post(
        reverse("accounts:login"), {"email": "anna@example.com", "password": password}, **extra
    )


def test_wrong_web_logins_meet_a_friendly_429_page(throttling, account):
    client = Client()
    for _ in range(3):
        assert web_login(client).status_code == 400
    response = web_login(client, PASSWORD)
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 3600
    page = text_of(response)
    assert "Slow down a little" in page
    assert "Too many attempts. Try again in " in page
    assert "_auth_user_id" not in client.session


def test_the_429_page_is_translated(throttling, account):
    client = Client()
    for _ in range(3):
        web_login(client)
    page = text_of(web_login(client, HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Trop de tentatives." in page
    page = text_of(web_login(client, HTTP_ACCEPT_LANGUAGE="it"))
    assert "Troppi tentativi." in page


def test_web_and_api_logins_share_one_count(throttling, account):
    client = Client()
    web_login(client)
    login()
    web_login(client)
    assert login().status_code == 429


def test_web_signups_are_limited(throttling):
    client = Client()
    for n in range(3):
        client.post(reverse("accounts:signup"), {"email": f"u{n}@example.com", "password": "1"})
    response = client.post(reverse("accounts:signup"), {"email": "x@example.com", "password": "1"})
    assert response.status_code == 429


def test_web_chat_messages_are_limited_per_person(throttling, scripted, account_client_and_chat):
    client, conversation = account_client_and_chat
    url = reverse("chat:send", args=[conversation.pk])
    for _ in range(3):
        assert client.post(url, {"content": "hi"}).status_code == 302
    streamed = client.post(url, {"content": "hi"}, HTTP_ACCEPT="text/event-stream")
    assert_rate_limited(streamed, within=60)
    plain = client.post(url, {"content": "hi"})
    assert plain.status_code == 429
    assert "Too many attempts." in text_of(plain)
    assert conversation.messages.filter(role="user").count() == 3


def test_a_first_message_on_the_new_chat_page_counts_too(throttling, scripted, account):
    client = Client()
    client.force_login(account)
    for _ in range(3):
        client.post(reverse("chat:new"), {"model": "scripted/chat-a", "content": "hi"})
    response = client.post(reverse("chat:new"), {"model": "scripted/chat-a", "content": "hi"})
    assert response.status_code == 429
    # Starting a chat without a message is not a message.
    empty = client.post(reverse("chat:new"), {"model": "scripted/chat-a", "content": ""})
    assert empty.status_code == 302


def test_web_guests_are_limited_per_address(throttling, scripted):
    for _ in range(3):
        response = Client().post(reverse("chat:projects"), {"name": "Thesis"})
        assert response.status_code == 302
    response = Client().post(reverse("chat:projects"), {"name": "Thesis"})
    assert response.status_code == 429
    assert User.objects.count() == 3


@pytest.fixture
def account_client_and_chat(account: User):
    from chat import services as chat_services

    client = Client()
    client.force_login(account)
    conversation = chat_services.create_conversation(owner_id=account.pk, model="scripted/chat-a")
    return client, conversation


def test_every_scope_has_a_rate(settings):
    assert set(settings.THROTTLE_RATES) == {
        "login",
        "login_email",
        "signup",
        "signup_email",
        "guest",
        "message",
        "voice",
        "resume",
        "memory_import",
        "password_check",
        "password_reset",
        "password_reset_email",
    }


def test_a_bad_rate_in_the_environment_stops_the_start():
    from django.conf import settings as live

    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=live.BASE_DIR,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PRODUCTION": "false",
            "THROTTLE_LOGIN": "ten per minute",
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "THROTTLE_LOGIN" in result.stderr


ADDRESS_PROBE = """
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory
from core.throttling import LoginThrottle
request = APIRequestFactory().post(
    "/api/v1/auth/login", REMOTE_ADDR="192.0.2.10", HTTP_X_FORWARDED_FOR="203.0.113.7"
)
print("counted as", LoginThrottle().get_ident(Request(request)))
"""


def test_in_production_a_forged_forwarded_for_is_ignored_unless_a_proxy_is_configured(tmp_path):
    """No proxy is assumed: a client talking straight to the web server cannot pick the address
    it is counted under. Behind one proxy, NUM_PROXIES=1 counts the address it forwards."""
    from tests.test_startup import in_production

    assert "counted as 192.0.2.10" in in_production(ADDRESS_PROBE, tmp_path)
    behind_a_proxy = in_production(ADDRESS_PROBE, tmp_path, NUM_PROXIES="1")
    assert "counted as 203.0.113.7" in behind_a_proxy


def test_resumes_have_their_own_limit_and_never_use_up_the_message_one(api, throttling, scripted):
    conversation = api.post("/api/v1/conversations", {}, format="json").json()["id"]
    events = list(sse.parse(sse.send(api, conversation, "hi").streaming_content))
    question, done = events[0].data["user_message"]["id"], events[-1]
    url = f"/api/v1/conversations/{conversation}/messages/{question}/stream"
    seen = [api.get(url, HTTP_LAST_EVENT_ID=done.id) for _ in range(11)]
    assert [r.status_code for r in seen] == [200] * 10 + [429]  # 10 a minute in these tests
    assert seen[0]["RateLimit-Limit"] == "10"
    again = api.post(
        f"/api/v1/conversations/{conversation}/messages", {"content": "more"}, format="json"
    )
    assert again["RateLimit-Remaining"] == "1"  # 3 a minute: "hi" and "more" only
