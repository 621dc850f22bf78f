"""The pages in Italian and French: from the browser's language or the Preferences choice."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat import services as chat_services
from tests.web.conftest import events_of, remember, text_of

NBSP = "\u00a0"


def settings_in(client: Client, language: str) -> str:
    return text_of(client.get(reverse("accounts:settings"), HTTP_ACCEPT_LANGUAGE=language))


def test_the_memory_section_speaks_italian(account_client: Client, account: User) -> None:
    remember(account, "Name is Anna", "Lives in Turin")
    page = settings_in(account_client, "it")
    assert '<html lang="it">' in page
    assert "Cosa ricorda Whizi" in page
    assert "2 fatti" in page
    assert "Cancella memoria" in page
    assert "Cancellare la memoria di Whizi?" in page
    assert (
        "Questo elimina definitivamente tutto ciò che Whizi ricorda di te, su web e mobile. "
        "Non è possibile annullare l'operazione."
    ) in page
    assert "/ 2.000 token" in page
    # The saved lines are shown exactly as the model receives them, untranslated.
    assert "Lives in Turin" in page


def test_the_italian_empty_state_and_errors_are_the_products(
    account_client: Client,
) -> None:
    page = settings_in(account_client, "it")
    assert "Nessun ricordo ancora. I fatti che condividi nelle chat compariranno qui." in page


def test_the_memory_section_speaks_french(account_client: Client, account: User) -> None:
    remember(account, "Name is Anna")
    page = settings_in(account_client, "fr")
    assert '<html lang="fr">' in page
    assert "Ce dont Whizi se souvient" in page
    assert "1 fait" in page
    assert "Effacer la mémoire" in page
    assert f"Effacer la mémoire de Whizi{NBSP}?" in page
    assert "Cette action supprime définitivement tout ce dont Whizi se souvient" in page
    assert f"/ 2{NBSP}000 jetons" in page


def test_the_chat_page_speaks_the_browsers_language(guest_client: Client) -> None:
    page = text_of(guest_client.get(reverse("chat:home"), HTTP_ACCEPT_LANGUAGE="it"))
    assert "Nuova chat" in page and "Chat temporanea" in page


def test_the_preferences_language_overrides_the_browser(account_client: Client) -> None:
    response = account_client.post(
        reverse("accounts:set_language"), {"language": "fr", "next": reverse("accounts:settings")}
    )
    assert response["Location"] == reverse("accounts:settings")
    page = settings_in(account_client, "it")
    assert "Préférences" in page
    assert 'value="fr" lang="fr" selected' in page


def test_error_texts_from_the_services_are_translated(
    account_client: Client, account: User
) -> None:
    conversation = chat_services.create_conversation(owner_id=account.pk)
    response = account_client.post(
        reverse("chat:send", args=[conversation.pk]),
        {"content": ""},
        HTTP_ACCEPT="text/event-stream",
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert response.json() == {"code": "empty_message", "detail": "Scrivi prima un messaggio."}


def test_a_streamed_model_error_is_told_in_the_pages_language(
    account_client: Client, account: User, scripted: Any, settings: Any
) -> None:
    settings.CHAT_MODEL_TIMEOUT = 0.5
    conversation = chat_services.create_conversation(owner_id=account.pk, model="scripted/chat-a")
    scripted.answer(("sleep", 5, "late"))
    response = account_client.post(
        reverse("chat:send", args=[conversation.pk]),
        {"content": "Ci sei?"},
        HTTP_ACCEPT="text/event-stream",
        HTTP_ACCEPT_LANGUAGE="it",
    )
    kind, data = events_of(response)[-1]
    assert kind == "error" and data["code"] == "model_timeout"
    assert data["detail"] == (
        "Il modello ha impiegato troppo tempo a rispondere. Riprova o scegli un altro modello."
    )


def test_the_not_found_page_is_translated_too(account_client: Client) -> None:
    response = account_client.get("/c/999999/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 404
    assert "Page introuvable" in text_of(response)
