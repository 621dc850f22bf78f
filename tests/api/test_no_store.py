"""Small points of issue 16: memory and export responses are never kept by a cache, and a line
is text, never a number turned into one."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from memory.models import Memory
from tests.web.conftest import remember

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    ["/api/v1/memory", "/api/v1/memory/history", "/api/v1/account/export"],
)
def test_the_persons_own_data_is_never_cached(api: APIClient, account, path: str) -> None:
    remember(account, "Name is Anna")
    response = api.get(path)
    assert response.status_code == 200, path
    assert "no-store" in response["Cache-Control"]
    assert "private" in response["Cache-Control"]


@pytest.mark.parametrize("value", [12345, 1.5, True, ["Name is Anna"], {"a": 1}])
def test_a_line_that_is_not_text_is_a_400_and_stores_nothing(api: APIClient, value) -> None:
    response = api.post("/api/v1/memory/lines", {"text": value}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert all(memory.lines == [] for memory in Memory.objects.all())


def test_the_web_download_of_my_data_is_never_cached(account) -> None:
    from django.test import Client

    client = Client()
    client.force_login(account)
    response = client.get("/settings/export")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
