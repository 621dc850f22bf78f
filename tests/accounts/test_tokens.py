"""API tokens (issue 16): one per device, hashed, expiring; logout ends one device, logout-all
every one; a guest's token works until it signs up, and the account gets a token of its own."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from accounts.tasks import housekeeping
from chat.models import Conversation

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-passphrase-42"


def log_in(email: str = "anna@example.com", password: str = PASSWORD) -> str:
    response = APIClient().post(
        "/api/v1/auth/login", {"email": email, "password": password}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()["token"]


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def works(token: str) -> bool:
    status = with_token(token).get("/api/v1/models").status_code
    assert status in (200, 401), status
    return status == 200


def token_rows():
    """The stored rows of tokens, as the knox model holds them."""
    from knox.models import AuthToken

    return AuthToken.objects.all()


def test_each_login_gets_a_token_of_its_own_and_both_work(account):
    phone, laptop = log_in(), log_in()
    assert phone != laptop
    assert works(phone) and works(laptop)


def test_logout_ends_only_this_devices_token(account):
    phone, laptop = log_in(), log_in()
    assert with_token(phone).post("/api/v1/auth/logout").status_code == 204
    assert not works(phone)
    assert works(laptop)


@pytest.mark.parametrize("stale", ["ended", "made up"])
def test_an_app_sending_an_ended_token_along_can_still_log_in_and_sign_up(account, stale):
    old = log_in()
    assert with_token(old).post("/api/v1/auth/logout").status_code == 204
    app = with_token(old if stale == "ended" else "0" * 64)
    credentials = {"email": "anna@example.com", "password": PASSWORD}
    response = app.post("/api/v1/auth/login", credentials, format="json")
    assert response.status_code == 200, response.content
    assert works(response.json()["token"])
    new = {"email": "bea@example.com", "password": PASSWORD}
    response = app.post("/api/v1/auth/signup", new, format="json")
    assert response.status_code == 201, response.content
    assert works(response.json()["token"])


def test_logout_all_ends_every_token_of_the_person_and_nobody_elses(account, other_api):
    phone, laptop = log_in(), log_in()
    assert with_token(phone).post("/api/v1/auth/logout-all").status_code == 204
    assert not works(phone)
    assert not works(laptop)
    assert other_api.get("/api/v1/models").status_code == 200
    # Logging in again works: a new token for this device.
    assert works(log_in())


def test_logging_out_needs_a_token():
    for path in ("/api/v1/auth/logout", "/api/v1/auth/logout-all"):
        response = APIClient().post(path)
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"


def test_no_value_the_database_keeps_of_a_token_authenticates(account):
    """A stolen copy of the database is no credential: whatever a token row holds, sent as the
    token, is refused (while the token itself works)."""
    token = log_in()
    assert works(token)
    stored = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            if "token" not in table:
                continue
            columns = [
                c.name for c in connection.introspection.get_table_description(cursor, table)
            ]
            if "user_id" not in columns:
                continue
            cursor.execute(
                f"SELECT * FROM {connection.ops.quote_name(table)} WHERE user_id = %s",  # noqa: S608 - a name the introspection gave, quoted
                [account.pk],
            )
            stored += [
                value for row in cursor.fetchall() for value in row if isinstance(value, str)
            ]
    assert stored, "the token's row is found"
    assert token not in stored
    for value in stored:
        assert not works(value), value


def test_an_expired_token_is_refused_and_deleted(account):
    token = log_in()
    token_rows().update(expiry=timezone.now() - timedelta(seconds=1))
    response = with_token(token).get("/api/v1/models")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert not token_rows().exists()


def test_an_accounts_token_lasts_the_configured_time_after_its_last_use(account, settings):
    token = log_in()
    [row] = token_rows()
    ttl = timedelta(days=settings.API_TOKEN_TTL_DAYS)
    assert abs(row.expiry - (timezone.now() + ttl)) < timedelta(minutes=1)
    # Nearly expired, then used: the expiry slides to a full lifetime from now.
    token_rows().update(expiry=timezone.now() + timedelta(minutes=5))
    assert works(token)
    row.refresh_from_db()
    assert abs(row.expiry - (timezone.now() + ttl)) < timedelta(minutes=1)


def test_the_lifetime_is_a_setting(account, settings):
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": timedelta(hours=2)}
    log_in()
    [row] = token_rows()
    assert abs(row.expiry - (timezone.now() + timedelta(hours=2))) < timedelta(minutes=1)


def test_use_never_extends_a_token_past_its_maximum_lifetime(account, settings):
    token = log_in()
    most = timedelta(days=settings.API_TOKEN_MAX_DAYS)
    issued = timezone.now() - most + timedelta(hours=3)
    token_rows().update(created=issued, expiry=timezone.now() + timedelta(minutes=5))
    assert works(token)
    [row] = token_rows()
    assert row.expiry == issued + most
    # Past that moment, no use brings it back: the device logs in again.
    token_rows().update(created=issued - timedelta(hours=4), expiry=issued - timedelta(hours=1))
    assert not works(token)


def test_a_request_racing_a_logout_of_its_token_is_no_error(account):
    """The sliding expiry is written while the request runs; a logout on another request may
    have deleted the token by then. That request still answers (its token was good when it was
    checked), and the token is gone after it."""
    token = log_in()
    token_rows().update(expiry=timezone.now() + timedelta(minutes=5))  # due for a slide

    def logout_first(execute, sql, params, many, context):
        if sql.startswith('UPDATE "knox_authtoken"'):
            token_rows().delete()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(logout_first):
        response = with_token(token).get("/api/v1/models")
    assert response.status_code == 200
    assert not works(token)


@pytest.mark.parametrize(
    "header",
    [
        "Token é",
        "Token " + "é" * 64,
        "Token abc\x00def",
        "Token " + "0" * 63 + "\x00",
        "Token " + "G" * 64,
        "Token " + "a" * 5_000,
        "Token",
        "Token a b",
    ],
    ids=["latin-1", "64 latin-1", "nul", "64 with nul", "not hex", "long", "no key", "spaces"],
)
def test_a_malformed_token_is_401_never_500(account, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get("/api/v1/models")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_housekeeping_deletes_expired_tokens(account):
    live, expired = log_in(), log_in()
    [expired_row] = [row for row in token_rows() if expired.startswith(row.token_key)]
    token_rows().filter(pk=expired_row.pk).update(expiry=timezone.now() - timedelta(seconds=1))
    housekeeping()
    assert token_rows().count() == 1
    assert works(live)


# --- Guests ------------------------------------------------------------------------------------


def guest_token() -> str:
    response = APIClient().post("/api/v1/auth/guest")
    assert response.status_code == 201
    return response.json()["token"]


def test_a_guests_token_does_not_expire_while_the_guest_lives():
    """A guest has no password to log in again with: its token lasts as long as the guest
    (deleted after GUEST_IDLE_DAYS idle), as it always has."""
    token = guest_token()
    [row] = token_rows()
    assert row.expiry is None
    token_rows().update(created=timezone.now() - timedelta(days=3 * 365))
    assert works(token)


@pytest.mark.parametrize("path", ["/api/v1/auth/signup", "/api/v1/auth/login"])
def test_a_guests_token_works_until_signup_then_the_account_has_its_own(path):
    if path.endswith("login"):
        User.objects.create_user(
            username="bea@example.com", email="bea@example.com", password=PASSWORD
        )
    token = guest_token()
    guest = with_token(token)
    assert guest.post("/api/v1/conversations", {}, format="json").status_code == 201

    response = guest.post(path, {"email": "bea@example.com", "password": PASSWORD}, format="json")

    assert response.status_code in (200, 201)
    account_token = response.json()["token"]
    assert account_token != token
    assert not works(token)
    account = with_token(account_token)
    assert account.get("/api/v1/conversations").status_code == 200
    assert Conversation.objects.filter(owner__email="bea@example.com").count() == 1
    assert not User.objects.filter(is_guest=True).exists()
    [row] = token_rows()
    assert row.user.email == "bea@example.com"
    assert row.expiry is not None  # an account's token expires


def test_tokens_are_not_web_sessions(account):
    """Logging out of the API leaves the web logged in (and the other way round)."""
    browser = Client()
    browser.force_login(account)
    token = log_in()
    with_token(token).post("/api/v1/auth/logout-all")
    page = browser.get(reverse("accounts:settings"))
    assert page.context["user"] == account


# --- Tokens issued before (DRF's plain-text ones) -----------------------------------------------


def test_tokens_issued_before_tokens_were_hashed_keep_working_and_their_plain_copies_go(
    account, settings
):
    """accounts/migrations/0003: each DRF token becomes a hashed knox token (so no device, and
    above all no guest, is logged out) and DRF's table of plain keys is dropped."""
    from django.apps import apps

    migration = importlib.import_module("accounts.migrations.0003_hash_drf_tokens")
    guest = User.objects.create_guest()
    keys = {account.pk: "a1" * 20, guest.pk: "b2" * 20}
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY,"
            " created timestamp with time zone NOT NULL, user_id bigint NOT NULL)"
        )
        for user_id, key in keys.items():
            cursor.execute("INSERT INTO authtoken_token VALUES (%s, now(), %s)", [key, user_id])
    with connection.schema_editor() as editor:
        migration.hash_drf_tokens(apps, editor)

    assert "authtoken_token" not in connection.introspection.table_names()
    assert works(keys[account.pk]) and works(keys[guest.pk])
    rows = {row.user_id: row for row in token_rows()}
    assert keys[account.pk] not in {row.digest for row in rows.values()}
    assert rows[guest.pk].expiry is None
    ttl = timedelta(days=settings.API_TOKEN_TTL_DAYS)
    assert abs(rows[account.pk].expiry - (timezone.now() + ttl)) < timedelta(minutes=1)
    # Logging out of one of them is per device, as for any token.
    with_token(keys[account.pk]).post("/api/v1/auth/logout")
    assert not works(keys[account.pk])
