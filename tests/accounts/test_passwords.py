"""Passwords (issue 16): changing one ends every other session and token and gives this device a
fresh token; a reset by e-mail answers the same for every address, mails a link only to an
account, works once, and is rate-limited."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest
import redis
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts import passwords
from accounts.models import User
from accounts.tasks import send_password_reset
from tests.conftest import make_account

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-passphrase-42"
NEW_PASSWORD = "another fine passphrase 7"


def log_in(email: str = "anna@example.com", password: str = PASSWORD) -> APIClient:
    response = APIClient().post(
        "/api/v1/auth/login", {"email": email, "password": password}, format="json"
    )
    assert response.status_code == 200, response.content
    return with_token(response.json()["token"])


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def works(client: APIClient) -> bool:
    status = client.get("/api/v1/models").status_code
    assert status in (200, 401), status
    return status == 200


def logged_in_on_the_web(browser: Client) -> bool:
    return browser.get(reverse("accounts:settings")).context["user"].is_authenticated


def web_session(account: User) -> Client:
    browser = Client()
    assert browser.login(username=account.username, password=PASSWORD)
    return browser


def can_log_in_with(password: str) -> bool:
    response = APIClient().post(
        "/api/v1/auth/login", {"email": "anna@example.com", "password": password}, format="json"
    )
    return response.status_code == 200


# --- Changing the password through the API ---------------------------------------------------


def test_a_password_change_ends_every_other_token_and_session_and_returns_a_fresh_token(account):
    phone, laptop = log_in(), log_in()
    browser = web_session(account)

    response = phone.post(
        "/api/v1/auth/password",
        {"old_password": PASSWORD, "new_password": NEW_PASSWORD},
        format="json",
    )

    assert response.status_code == 200
    fresh = with_token(response.json()["token"])
    assert works(fresh)
    assert not works(phone)
    assert not works(laptop)
    assert not logged_in_on_the_web(browser)
    assert can_log_in_with(NEW_PASSWORD)
    assert not can_log_in_with(PASSWORD)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"old_password": "not-it", "new_password": NEW_PASSWORD}, "wrong_old_password"),
        ({"old_password": PASSWORD, "new_password": "123"}, "weak_password"),
        ({"old_password": PASSWORD, "new_password": "anna@example.com"}, "weak_password"),
        ({"old_password": PASSWORD}, "invalid"),
        ({"old_password": PASSWORD, "new_password": ["x"]}, "invalid"),
    ],
    ids=["wrong old", "too short", "like the address", "no new", "a list"],
)
def test_a_refused_password_change_changes_nothing(account, body, code):
    phone = log_in()
    browser = web_session(account)
    response = phone.post("/api/v1/auth/password", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert works(phone)
    assert logged_in_on_the_web(browser)
    assert can_log_in_with(PASSWORD)


def test_the_wrong_old_password_answer_is_translated(account):
    response = log_in().post(
        "/api/v1/auth/password",
        {"old_password": "not-it", "new_password": NEW_PASSWORD},
        format="json",
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert response.json() == {
        "code": "wrong_old_password",
        "detail": "La password attuale non è questa.",
    }


def test_a_guest_has_no_password_to_change():
    token = APIClient().post("/api/v1/auth/guest").json()["token"]
    guest = with_token(token)
    response = guest.post(
        "/api/v1/auth/password", {"old_password": "", "new_password": NEW_PASSWORD}, format="json"
    )
    assert response.status_code == 400  # a blank old password is refused by its field
    response = guest.post(
        "/api/v1/auth/password", {"old_password": "x", "new_password": NEW_PASSWORD}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "not_an_account"
    assert works(guest)


def test_changing_the_password_needs_a_token():
    response = APIClient().post(
        "/api/v1/auth/password", {"old_password": PASSWORD, "new_password": NEW_PASSWORD}
    )
    assert response.status_code == 401


def test_guessing_the_old_password_is_rate_limited(api, throttling):
    body = {"old_password": "guess", "new_password": NEW_PASSWORD}
    statuses = [
        api.post("/api/v1/auth/password", body, format="json").status_code for _ in range(3)
    ]
    assert statuses == [400, 400, 400]
    response = api.post("/api/v1/auth/password", body, format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "rate_limited"


# --- Changing it on the web ------------------------------------------------------------------


def change_on_the_web(browser: Client, old: str, new: str, again: str | None = None) -> Any:
    return browser.post(
        reverse("accounts:password_change"),
        {"old_password": old, "new_password1": new, "new_password2": again or new},
    )


def test_the_web_page_keeps_this_session_and_ends_the_others_and_every_token(account):
    browser, other_browser = web_session(account), web_session(account)
    phone = log_in()

    response = change_on_the_web(browser, PASSWORD, NEW_PASSWORD)

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:settings")
    page = browser.get(reverse("accounts:settings")).content.decode()
    assert "Password changed. Your other devices are logged out." in page
    assert logged_in_on_the_web(browser)
    assert not logged_in_on_the_web(other_browser)
    assert not works(phone)
    assert can_log_in_with(NEW_PASSWORD)


@pytest.mark.parametrize(
    ("old", "new", "again", "says"),
    [
        ("not-it", NEW_PASSWORD, NEW_PASSWORD, "Your current password is not that one."),
        (PASSWORD, "123", "123", "This password is too short."),
        (PASSWORD, NEW_PASSWORD, NEW_PASSWORD + "!", "The two passwords differ."),
    ],
    ids=["wrong old", "weak", "differ"],
)
def test_the_web_page_says_what_is_wrong_and_changes_nothing(account, old, new, again, says):
    browser = web_session(account)
    phone = log_in()
    response = change_on_the_web(browser, old, new, again)
    assert response.status_code == 400
    assert says in response.content.decode()
    assert works(phone)
    assert can_log_in_with(PASSWORD)


def test_the_settings_page_offers_a_password_change_to_accounts_only(account):
    page = web_session(account).get(reverse("accounts:settings")).content.decode()
    assert reverse("accounts:password_change") in page
    guest = Client()
    guest.force_login(User.objects.create_guest())
    assert (
        reverse("accounts:password_change")
        not in guest.get(reverse("accounts:settings")).content.decode()
    )
    assert guest.get(reverse("accounts:password_change")).status_code == 302


# --- Resetting it by e-mail ------------------------------------------------------------------


@pytest.fixture
def mails(settings, django_capture_on_commit_callbacks):
    """Tasks run inline once the request commits; the mail lands in ``mail.outbox``."""
    settings.CELERY_TASK_ALWAYS_EAGER = True

    def ask(email: str, **headers: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return APIClient().post(
                "/api/v1/auth/password-reset", {"email": email}, format="json", **headers
            )

    return ask


def link_in(message: mail.EmailMessage) -> str:
    [link] = re.findall(r"https?://\S+", message.body)
    return link


def key_in(message: mail.EmailMessage) -> str:
    return link_in(message).rstrip("/").rsplit("/", 1)[1]


def test_a_reset_answers_the_same_for_every_address_and_mails_only_an_account(account, mails):
    User.objects.create_guest()
    known = mails("Anna@Example.com ")
    unknown = mails("nobody@example.com")
    assert known.status_code == unknown.status_code == 202
    assert known.json() == unknown.json()
    assert known.json()["detail"]
    assert set(known.headers) == set(unknown.headers)
    [message] = mail.outbox
    assert message.to == ["anna@example.com"]
    assert message.subject == "Reset your Whizi password"
    assert link_in(message).startswith("http://127.0.0.1:8000/password-reset/")


def test_the_request_sends_the_same_task_whoever_asks_with_an_id_never_the_address(
    account, settings, django_capture_on_commit_callbacks
):
    """Known or not, the request does the same work: one lookup, then one task on the broker
    (the account's id, or None), and the worker does the rest."""
    broker = redis.Redis.from_url(settings.REDIS_URL)
    for email, expected in (("anna@example.com", account.pk), ("nobody@example.com", None)):
        broker.delete("default")
        with django_capture_on_commit_callbacks(execute=True):
            APIClient().post("/api/v1/auth/password-reset", {"email": email}, format="json")
        [raw] = broker.lrange("default", 0, -1)
        message = json.loads(raw)
        assert message["headers"]["task"] == passwords.SEND_RESET_TASK
        args, _, _ = json.loads(base64.b64decode(message["body"]))
        assert args == [expected, "en"]
        assert "example.com" not in raw.decode()
    broker.delete("default")


def test_the_mail_is_in_the_askers_language(account, mails):
    mails("anna@example.com", HTTP_ACCEPT_LANGUAGE="it")
    [message] = mail.outbox
    assert message.subject == "Reimposta la password di Whizi"
    assert "Il link funziona una sola volta, entro 2 ore." in message.body


def test_the_reset_link_sets_the_password_once_and_ends_every_token_and_session(account, mails):
    phone = log_in()
    browser = web_session(account)
    mails("anna@example.com")
    key = key_in(mail.outbox[0])

    confirm = APIClient().post(
        "/api/v1/auth/password-reset/confirm",
        {"token": key, "password": NEW_PASSWORD},
        format="json",
    )

    assert confirm.status_code == 204
    assert can_log_in_with(NEW_PASSWORD)
    assert not works(phone)
    assert not logged_in_on_the_web(browser)
    again = APIClient().post(
        "/api/v1/auth/password-reset/confirm",
        {"token": key, "password": "yet another passphrase 9"},
        format="json",
    )
    assert again.status_code == 400
    assert again.json()["code"] == "invalid_reset_token"
    assert can_log_in_with(NEW_PASSWORD)


def test_a_new_password_from_a_link_must_pass_the_validators(account, mails):
    mails("anna@example.com")
    key = key_in(mail.outbox[0])
    response = APIClient().post(
        "/api/v1/auth/password-reset/confirm", {"token": key, "password": "123"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "weak_password"
    # The link is not spent by a refused password.
    response = APIClient().post(
        "/api/v1/auth/password-reset/confirm",
        {"token": key, "password": NEW_PASSWORD},
        format="json",
    )
    assert response.status_code == 204


def test_a_link_expires(account, mails, settings):
    mails("anna@example.com")
    key = key_in(mail.outbox[0])
    settings.PASSWORD_RESET_TIMEOUT = -1  # as if the link's hours had passed
    response = APIClient().post(
        "/api/v1/auth/password-reset/confirm",
        {"token": key, "password": NEW_PASSWORD},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_reset_token"


@pytest.mark.parametrize(
    "token",
    [
        "",
        "nonsense",
        "MQ",
        "MQ.",
        ".abc",
        "!!!.abc",
        "OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5.abc",
        "LTE.x",
    ],
    ids=["empty", "word", "uid only", "no token", "no uid", "not base64", "huge id", "negative"],
)
def test_a_made_up_reset_token_is_400(account, token):
    response = APIClient().post(
        "/api/v1/auth/password-reset/confirm",
        {"token": token, "password": NEW_PASSWORD},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] in ("invalid_reset_token", "invalid")
    assert can_log_in_with(PASSWORD)


def test_a_reset_of_a_malformed_address_is_400_and_mails_nothing(mails):
    response = mails("not an address")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_email"
    assert mail.outbox == []


def test_resets_are_rate_limited_per_address_and_per_email_alike_for_known_and_unknown(
    account, mails, throttling
):
    throttling.update({"password_reset": "100/hour", "password_reset_email": "2/hour"})
    for email in ("anna@example.com", "nobody@example.com"):
        assert [mails(email).status_code for _ in range(2)] == [202, 202]
        refused = mails(email)
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert int(refused["Retry-After"]) > 0
    assert len(mail.outbox) == 2

    # Per address, whatever the e-mail: the six above counted (each passed this limit).
    throttling.update({"password_reset": "7/hour", "password_reset_email": "100/hour"})
    assert mails("someone@example.com").status_code == 202
    assert mails("someone-else@example.com").status_code == 429


def test_a_reset_mail_that_fails_is_retried_without_naming_the_address(account, settings, caplog):
    """The mail server's error may name the recipient; what the task records (its retry, its
    traceback, the log) carries only a fixed, content-free error."""
    settings.EMAIL_BACKEND = "tests.accounts.test_passwords.RefusingBackend"
    settings.CELERY_TASK_ALWAYS_EAGER = True
    result = send_password_reset.apply(args=(account.pk, "en"))
    assert result.state in ("RETRY", "FAILURE")
    assert "MailNotSent" in result.traceback
    recorded = [result.traceback, repr(result.result), *(r.getMessage() for r in caplog.records)]
    assert caplog.records
    for text in recorded:
        assert "anna" not in text and "SMTPRecipientsRefused" not in text, text
    assert mail.outbox == []


class RefusingBackend:
    """A mail server that refuses the recipient, naming it, as smtplib does."""

    def __init__(self, **kwargs: Any) -> None:
        pass

    def send_messages(self, messages: list[Any]) -> int:
        import smtplib

        raise smtplib.SMTPRecipientsRefused({messages[0].to[0]: (550, b"no such user")})


# --- The reset pages --------------------------------------------------------------------------


def test_the_login_page_leads_to_a_reset(db):
    page = Client().get(reverse("accounts:login")).content.decode()
    assert reverse("accounts:password_reset") in page


def test_the_reset_pages_mail_a_link_that_sets_the_password_once(
    account, settings, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    browser = Client()
    with django_capture_on_commit_callbacks(execute=True):
        response = browser.post(reverse("accounts:password_reset"), {"email": "anna@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:login")
    said = browser.get(response["Location"]).content.decode()
    assert "If an account has this address, a link to reset its password is on its way." in said
    link = link_in(mail.outbox[0]).removeprefix(settings.SITE_URL)

    form = browser.get(link)
    assert form.status_code == 200
    assert 'name="new_password1"' in form.content.decode()
    done = browser.post(link, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert done["Location"] == reverse("accounts:login")
    assert can_log_in_with(NEW_PASSWORD)

    spent = browser.get(link)
    assert spent.status_code == 400
    assert "This reset link is invalid or has been used." in spent.content.decode()
    assert 'name="new_password1"' not in spent.content.decode()


def test_the_reset_page_answers_the_same_for_an_unknown_address(
    db, django_capture_on_commit_callbacks
):
    browser = Client()
    with django_capture_on_commit_callbacks(execute=True):
        response = browser.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    said = browser.get(response["Location"]).content.decode()
    assert "If an account has this address, a link to reset its password is on its way." in said
    assert mail.outbox == []


def test_the_reset_confirm_page_speaks_italian_and_french(account):
    link = reverse("accounts:password_reset_confirm", args=[passwords.reset_key(account)])
    italian = Client().get(link, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Imposta una nuova password" in italian
    french = Client().get(link, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Choisir un nouveau mot de passe" in french


def test_another_accounts_link_resets_only_that_account(account):
    other = make_account("bea@example.com")
    key = passwords.reset_key(other)
    APIClient().post(
        "/api/v1/auth/password-reset/confirm",
        {"token": key, "password": NEW_PASSWORD},
        format="json",
    )
    assert can_log_in_with(PASSWORD)
    assert log_in("bea@example.com", NEW_PASSWORD)
