"""The mobile memory API (SPEC §10), export and account deletion."""

import pytest
from django.db import DatabaseError, connection
from rest_framework.test import APIClient

from accounts.models import User
from chat.models import Conversation, Project
from memory.models import Memory, MemoryEvent
from tests.memory.helpers import memory_with

pytestmark = pytest.mark.django_db


def test_get_memory_returns_the_list_with_an_etag(api, account):
    memory_with(account, "Name is Anna", "Lives in Turin", owed=False)
    response = api.get("/api/v1/memory")
    assert response.status_code == 200
    body = response.json()
    assert body["lines"] == ["Name is Anna", "Lives in Turin"]
    assert body["count"] == 2
    assert body["token_limit"] == 2000
    assert body["tokens"] > 0
    assert body["enabled"] is True
    assert response["ETag"] == f'"{body["version"]}"'
    assert set(body) == {
        "lines",
        "items",
        "count",
        "tokens",
        "token_limit",
        "enabled",
        "version",
        "updated_at",
        "screened",
        "screened_at",
    }


def test_a_new_person_has_an_empty_memory(api):
    body = api.get("/api/v1/memory").json()
    assert (body["lines"], body["count"], body["tokens"]) == ([], 0, 0)


def test_clearing_memory_deletes_every_line(api, account):
    memory_with(account, "Name is Anna", owed=False)
    assert api.delete("/api/v1/memory").status_code == 204
    assert api.get("/api/v1/memory").json()["lines"] == []
    assert MemoryEvent.objects.filter(kind="clear").count() == 1


def test_deleting_one_line_needs_the_current_version(api, account):
    memory_with(account, "Name is Anna", "Lives in Turin", "Likes jazz", owed=False)
    etag = api.get("/api/v1/memory")["ETag"]
    response = api.delete("/api/v1/memory/lines/1", HTTP_IF_MATCH=etag)
    assert response.status_code == 200
    assert response.json()["lines"] == ["Name is Anna", "Likes jazz"]
    stale = api.delete("/api/v1/memory/lines/0", HTTP_IF_MATCH=etag)
    assert stale.status_code == 412
    assert stale.json()["code"] == "stale_version"
    assert Memory.objects.get().lines == ["Name is Anna", "Likes jazz"]


def test_deleting_a_line_without_if_match_is_428(api, account):
    memory_with(account, "Name is Anna", owed=False)
    response = api.delete("/api/v1/memory/lines/0")
    assert response.status_code == 428
    assert response.json()["code"] == "version_required"


def test_deleting_a_line_out_of_range_is_404(api, account):
    memory_with(account, "Name is Anna", owed=False)
    etag = api.get("/api/v1/memory")["ETag"]
    assert api.delete("/api/v1/memory/lines/5", HTTP_IF_MATCH=etag).status_code == 404
    assert Memory.objects.get().lines == ["Name is Anna"]


def test_a_garbled_if_match_is_412(api, account):
    memory_with(account, "Name is Anna", owed=False)
    assert api.delete("/api/v1/memory/lines/0", HTTP_IF_MATCH="banana").status_code == 412


def test_memory_can_be_switched_off_and_on_and_keeps_its_list(api, account):
    memory_with(account, "Name is Anna", owed=False)
    off = api.patch("/api/v1/memory", {"enabled": False}, format="json")
    assert off.json()["enabled"] is False
    assert off.json()["lines"] == ["Name is Anna"]
    assert api.patch("/api/v1/memory", {"enabled": True}, format="json").json()["enabled"] is True


def test_switching_needs_a_boolean(api):
    response = api.patch("/api/v1/memory", {"enabled": "maybe"}, format="json")
    assert response.status_code == 400


def test_one_persons_memory_is_never_anothers(api, other_api, account):
    memory_with(account, "Name is Anna", owed=False)
    assert other_api.get("/api/v1/memory").json()["lines"] == []
    other_api.delete("/api/v1/memory")
    etag = other_api.get("/api/v1/memory")["ETag"]
    assert other_api.delete("/api/v1/memory/lines/0", HTTP_IF_MATCH=etag).status_code == 404
    assert Memory.objects.get(owner=account).lines == ["Name is Anna"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/memory"),
        ("delete", "/api/v1/memory"),
        ("patch", "/api/v1/memory"),
        ("delete", "/api/v1/memory/lines/0"),
        ("get", "/api/v1/account/export"),
        ("delete", "/api/v1/account"),
    ],
)
def test_memory_export_and_deletion_need_a_token(method, path):
    assert getattr(APIClient(), method)(path).status_code == 401


def test_the_export_has_profile_conversations_projects_and_memory(api, account, scripted):
    memory_with(account, "Name is Anna", owed=False)
    project = api.post(
        "/api/v1/projects", {"name": "P", "instructions": "Be brief."}, format="json"
    ).json()
    c = api.post(
        "/api/v1/conversations",
        {"model": "scripted/chat-a", "project": project["id"]},
        format="json",
    ).json()
    scripted.answer("pong")
    api.post(f"/api/v1/conversations/{c['id']}/messages", {"content": "ping"}, format="json")

    response = api.get("/api/v1/account/export")

    assert response.status_code == 200
    export = response.json()
    assert export["profile"]["email"] == account.email
    assert export["memory"]["lines"] == ["Name is Anna"]
    assert export["projects"] == [{"id": project["id"], "name": "P", "instructions": "Be brief."}]
    assert export["voice_sessions"] == []
    [conversation] = export["conversations"]
    assert conversation["model"] == "scripted/chat-a"
    assert [(m["role"], m["content"]) for m in conversation["messages"]] == [
        ("user", "ping"),
        ("assistant", "pong"),
    ]


def test_deleting_the_account_deletes_everything_of_it(api, account, other_api, scripted):
    memory_with(account, "Name is Anna", owed=False)
    api.post("/api/v1/projects", {"name": "P"}, format="json")
    c = api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json").json()
    api.post(f"/api/v1/conversations/{c['id']}/messages", {"content": "ping"}, format="json")
    other_api.post("/api/v1/projects", {"name": "Theirs"}, format="json")

    deleted = api.delete("/api/v1/account", {"password": "a-long-passphrase-42"}, format="json")
    assert deleted.status_code == 204

    assert not User.objects.filter(pk=account.pk).exists()
    assert not Memory.objects.filter(owner_id=account.pk).exists()
    assert not Conversation.objects.exists()
    assert list(Project.objects.values_list("name", flat=True)) == ["Theirs"]
    assert api.get("/api/v1/memory").status_code == 401
    event = MemoryEvent.objects.get(kind="account_deleted")
    assert event.lines_before == 1


def failing(statement: str):
    """A database that refuses one kind of statement on the memory table (Django's own hook)."""

    def wrapper(execute, sql, params, many, context):
        if f'{statement} "memory_memory"' in sql.upper() or (
            "memory_memory" in sql and sql.lstrip().upper().startswith(statement)
        ):
            raise DatabaseError("the memory table is unavailable")
        return execute(sql, params, many, context)

    return connection.execute_wrapper(wrapper)


def test_a_failed_read_says_memory_is_unavailable(api, account):
    memory_with(account, "Name is Anna", owed=False)
    with failing("SELECT"):
        response = api.get("/api/v1/memory")
    assert response.status_code == 503
    assert response.json() == {
        "code": "memory_unavailable",
        "detail": "Memory isn't available right now. Try again later.",
    }
    assert Memory.objects.get().lines == ["Name is Anna"]


def test_a_failed_clear_says_so_and_deletes_nothing(api, account):
    memory_with(account, "Name is Anna", owed=False)
    with failing("UPDATE"):
        response = api.delete("/api/v1/memory")
    assert response.status_code == 503
    assert response.json() == {
        "code": "clear_failed",
        "detail": "Couldn't clear memory. Try again.",
    }
    assert Memory.objects.get().lines == ["Name is Anna"]
    assert not MemoryEvent.objects.filter(kind="clear").exists()


def test_if_match_star_deletes_whatever_the_version(api, account):
    memory_with(account, "Name is Anna", "Likes jazz", owed=False)
    response = api.delete("/api/v1/memory/lines/0", HTTP_IF_MATCH="*")
    assert response.status_code == 200
    assert response.json()["lines"] == ["Likes jazz"]
