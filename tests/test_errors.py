"""One error type (issue 13): a ServiceError a service raises is answered once for the API (its
JSON body and status) and once for the web (the page's message), and says nothing of what the
person wrote."""

from __future__ import annotations

import json
import traceback

import pytest
from django.http import Http404, HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts import services as accounts_services
from accounts.models import User
from chat import services as chat_services
from core.api import exception_handler
from core.error_pages import OutageMiddleware
from core.errors import NotFound, ServiceError
from memory import services as memory_services
from tests.web.conftest import remember, text_of

pytestmark = pytest.mark.django_db

CANARY = "Zebracanary"


def _everything_said_of(error: ServiceError) -> str:
    """What a log line or a traceback could show of the error."""
    return " ".join([str(error), repr(error), *traceback.format_exception(error)])


def test_a_service_error_says_nothing_of_the_input(account: User, settings) -> None:
    settings.MESSAGE_MAX_CHARS = 20
    conversation = chat_services.create_conversation(owner_id=account.pk)
    raised = []
    for attempt in (
        lambda: memory_services.add_line(owner_id=account.pk, text=f"{CANARY} is my password"),
        lambda: memory_services.add_line(owner_id=account.pk, text=f"Visit {CANARY}.example"),
        lambda: accounts_services.sign_up(email=f"{CANARY}@", password=CANARY),
        lambda: accounts_services.log_in(email=f"{CANARY}@example.com", password=CANARY),
        lambda: chat_services.send_message(conversation=conversation, content=CANARY * 3),
        lambda: chat_services.switch_model(conversation=conversation, model=CANARY),
    ):
        with pytest.raises(ServiceError) as failure:
            attempt()
        raised.append(failure.value)
    assert [error.code for error in raised] == [
        "line_refused",
        "line_refused",
        "invalid_email",
        "invalid_credentials",
        "message_too_long",
        "unknown_model",
    ]
    for error in raised:
        said = _everything_said_of(error) + str(error.body())
        assert CANARY.lower() not in said.lower()
        assert str(error) == f"{error.code} ({error.status})"


def test_the_api_answers_a_service_error_with_its_body_status_and_headers() -> None:
    error = ServiceError(
        "made_up", "Try later.", status=418, headers={"Retry-After": "3"}, reason="why"
    )
    response = exception_handler(error, {})
    assert response is not None
    assert response.status_code == 418
    assert response.data == {"code": "made_up", "detail": "Try later.", "reason": "why"}
    assert response["Retry-After"] == "3"


def test_a_service_error_from_a_service_reaches_the_app_as_its_body(api, account) -> None:
    remember(account, "Name is Anna")
    response = api.post("/api/v1/memory/lines", {"text": "Visit evil.example"}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "code": "line_refused",
        "detail": "Memory doesn't keep links or web addresses.",
        "reason": "link",
    }


def test_the_page_shows_the_same_error_as_its_message(account: User) -> None:
    remember(account, "Name is Anna")
    client = Client()
    client.force_login(account)
    response = client.post(reverse("memory:add_line"), {"text": "Visit evil.example"}, follow=True)
    assert "Memory doesn't keep links or web addresses." in text_of(response)


def _escaped(error: Exception, **headers: str) -> HttpResponse | None:
    """What the web answers an error no page told (the middleware, as Django calls it)."""
    request = RequestFactory().post("/c/1/model", **headers)
    middleware = OutageMiddleware(lambda request: HttpResponse())
    return middleware.process_exception(request, error)


def test_an_error_no_page_told_is_json_for_the_pages_script_and_a_plain_page_otherwise() -> None:
    error = ServiceError("made_up", "Pick another one.", status=409)
    for accept in ("application/json", "text/event-stream"):
        response = _escaped(error, HTTP_ACCEPT=accept)
        assert response is not None
        assert response.status_code == 409
        assert json.loads(response.content) == {"code": "made_up", "detail": "Pick another one."}
    page = _escaped(error)
    assert page is not None
    assert page.status_code == 409
    assert "Pick another one." in page.content.decode()


def test_a_not_found_on_a_page_is_djangos_404() -> None:
    assert isinstance(NotFound(), Http404)
    assert _escaped(NotFound()) is None  # Django's handler404 answers it
