"""Accounts through the mobile API: guests, signup, login, logout, tokens."""

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from chat.models import Conversation
from memory.models import Memory
from tests.conftest import owner_of_token

pytestmark = pytest.mark.django_db


def test_a_guest_gets_a_token_that_works():
    response = APIClient().post("/api/v1/auth/guest")
    assert response.status_code == 201
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get("/api/v1/models").status_code == 200
    assert User.objects.get().is_guest


def test_signup_returns_a_token_for_the_new_account():
    response = APIClient().post(
        "/api/v1/auth/signup",
        {"email": "Bea@Example.com", "password": "correct horse 42"},
        format="json",
    )
    assert response.status_code == 201
    account = User.objects.get(email="bea@example.com")
    assert not account.is_guest
    assert owner_of_token(response.json()["token"]) == account


def test_signup_refuses_a_taken_email_and_a_weak_password(account):
    taken = APIClient().post(
        "/api/v1/auth/signup",
        {"email": account.email, "password": "correct horse 42"},
        format="json",
    )
    assert taken.status_code == 400
    assert taken.json()["code"] == "email_taken"
    weak = APIClient().post(
        "/api/v1/auth/signup", {"email": "c@example.com", "password": "123"}, format="json"
    )
    assert weak.status_code == 400
    assert weak.json()["code"] == "weak_password"


def test_login_with_the_right_password_returns_a_token(account):
    response = APIClient().post(
        "/api/v1/auth/login",
        {"email": account.email, "password": "a-long-passphrase-42"},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["token"]


def test_login_with_a_wrong_password_is_refused(account):
    response = APIClient().post(
        "/api/v1/auth/login", {"email": account.email, "password": "nope"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_credentials"


def test_logout_invalidates_the_token(api):
    assert api.post("/api/v1/auth/logout").status_code == 204
    assert api.get("/api/v1/models").status_code == 401


@pytest.mark.parametrize("header", [None, "Token not-a-real-token", "Bearer x"])
def test_missing_or_wrong_token_is_401(header):
    client = APIClient()
    if header:
        client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get("/api/v1/conversations")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_malformed_json_is_400(api):
    response = api.post("/api/v1/conversations", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


def test_signing_up_with_a_guest_token_moves_the_guest_in():
    guest_token = APIClient().post("/api/v1/auth/guest").json()["token"]
    guest_client = APIClient()
    guest_client.credentials(HTTP_AUTHORIZATION=f"Token {guest_token}")
    conversation_id = guest_client.post("/api/v1/conversations", {}, format="json").json()["id"]
    guest = User.objects.get(is_guest=True)
    Memory.objects.create(owner=guest, lines=["Name is Anna"], tokens=4)

    response = guest_client.post(
        "/api/v1/auth/signup",
        {"email": "anna@example.com", "password": "correct horse 42"},
        format="json",
    )

    assert response.status_code == 201
    account = User.objects.get(email="anna@example.com")
    assert Conversation.objects.get(pk=conversation_id).owner == account
    assert account.memory.lines == ["Name is Anna"]
    assert not User.objects.filter(is_guest=True).exists()


def test_an_api_request_keeps_a_guest_alive(settings):
    from datetime import timedelta

    from django.utils import timezone

    token = APIClient().post("/api/v1/auth/guest").json()["token"]
    User.objects.update(last_seen_at=timezone.now() - timedelta(days=settings.GUEST_IDLE_DAYS - 1))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    client.get("/api/v1/models")
    assert User.objects.get().last_seen_at > timezone.now() - timedelta(minutes=1)


# --- Deleting the account asks for its password (as the web form does) --------------------------


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (None, 400, "password_required"),
        ({}, 400, "password_required"),
        ({"password": ""}, 400, "password_required"),
        ({"password": "not-it"}, 403, "wrong_password"),
        ({"password": "A-LONG-PASSPHRASE-42"}, 403, "wrong_password"),
        ({"password": " a-long-passphrase-42"}, 403, "wrong_password"),
        ({"password": ["a-long-passphrase-42"]}, 400, "invalid"),
        ({"password": 42}, 403, "wrong_password"),
    ],
    ids=["no body", "empty", "blank", "wrong", "wrong case", "leading space", "a list", "number"],
)
def test_deleting_an_account_without_its_password_deletes_nothing(api, account, body, status, code):
    response = api.delete("/api/v1/account", body, format="json")
    assert response.status_code == status
    assert response.json()["code"] == code
    assert User.objects.filter(pk=account.pk).exists()
    assert api.get("/api/v1/models").status_code == 200


def test_deleting_an_account_with_its_password_deletes_it(api, account):
    response = api.delete("/api/v1/account", {"password": "a-long-passphrase-42"}, format="json")
    assert response.status_code == 204
    assert not User.objects.filter(pk=account.pk).exists()
    assert api.get("/api/v1/models").status_code == 401


def test_a_guest_deletes_its_data_without_a_password():
    token = APIClient().post("/api/v1/auth/guest").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    client.post("/api/v1/conversations", {}, format="json")
    assert client.delete("/api/v1/account").status_code == 204
    assert not User.objects.exists()
    assert not Conversation.objects.exists()


def test_the_wrong_password_answer_is_translated(api):
    response = api.delete(
        "/api/v1/account", {"password": "not-it"}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert response.json()["detail"] == "Password errata. Non è stato eliminato nulla."
