"""The sign-up page (issue 17, point 5): the password's rules up front, an error under the
field it is about, the cursor there, and every word in the reader's language."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

RULES = {
    "en": "Your password must contain at least 8 characters.",
    "it": "La tua password deve contenere almeno 8 caratteri.",
    "fr": "Votre mot de passe doit contenir au minimum 8 caractères.",
}
TOO_SHORT = {
    "en": "This password is too short. It must contain at least 8 characters.",
    "it": "Questa password è troppo corta: deve contenere almeno 8 caratteri.",
    "fr": "Ce mot de passe est trop court. Il doit contenir au minimum 8 caractères.",
}


def page(response) -> str:
    return html.unescape(response.content.decode()).replace("\u00a0", " ")


@pytest.mark.parametrize("language", ["en", "it", "fr"])
def test_the_rules_are_shown_before_anything_is_typed(client: Client, language: str) -> None:
    shown = page(client.get(reverse("accounts:signup"), HTTP_ACCEPT_LANGUAGE=language))
    assert RULES[language] in shown
    # The field points at them, for screen readers.
    assert re.search(
        r'<input[^>]*name="password"[^>]*aria-describedby="id_password_helptext"', shown
    )


@pytest.mark.parametrize("language", ["en", "it", "fr"])
def test_a_short_password_is_said_under_its_field_in_the_readers_language(
    client: Client, language: str
) -> None:
    response = client.post(
        reverse("accounts:signup"),
        {"email": "new@example.com", "password": "abc"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    shown = page(response)
    errors = '<div class="field-errors" id="id_password_error"><p class="field-error">'
    assert errors + TOO_SHORT[language] in shown
    assert "too short" not in shown or language == "en"
    password = re.search(r'<input[^>]*name="password"[^>]*>', shown)
    assert password is not None
    assert "autofocus" in password.group(0) and 'aria-invalid="true"' in password.group(0)
    assert 'aria-describedby="id_password_helptext id_password_error"' in password.group(0)
    email = re.search(r'<input[^>]*name="email"[^>]*>', shown)
    assert email is not None and "autofocus" not in email.group(0)
    assert not User.objects.filter(email="new@example.com").exists()


def test_a_bad_address_takes_the_cursor_first(client: Client) -> None:
    response = client.post(reverse("accounts:signup"), {"email": "nope", "password": "abc"})
    shown = page(response)
    email = re.search(r'<input[^>]*name="email"[^>]*>', shown)
    password = re.search(r'<input[^>]*name="password"[^>]*>', shown)
    assert email is not None and "autofocus" in email.group(0)
    assert password is not None and "autofocus" not in password.group(0)


def test_an_address_already_taken_puts_the_cursor_in_the_address(client: Client) -> None:
    User.objects.create_user(username="anna@example.com", email="anna@example.com", password="x")
    response = client.post(
        reverse("accounts:signup"),
        {"email": "anna@example.com", "password": "a fine long passphrase 9"},
    )
    shown = page(response)
    assert "An account with this email already exists." in shown
    email = re.search(r'<input[^>]*name="email"[^>]*>', shown)
    assert email is not None and "autofocus" in email.group(0)
