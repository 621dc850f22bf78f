"""A Python client generated from our OpenAPI document by openapi-python-client, as an app
developer would make one, drives the whole flow against the running server (issue 27, point 4):
guest → chat, whole and streamed → remember → edit with If-Match → history, undo, restore →
clear → sign up and merge → export → deletion. Nothing is patched into the generated code."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from httpx_sse import connect_sse

from memory.engine import passes
from memory.models import Memory
from tests.conftest import Streamed
from tests.memory.helpers import answer

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long enough passphrase 9"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The client package, generated from the schema the server serves."""
    where = tmp_path_factory.mktemp("client")
    schema = where / "schema.json"
    schema.write_text(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))
    config = where / "config.yml"
    config.write_text("post_hooks: []\npackage_name_override: whizi_client\n")
    tool = Path(sys.executable).with_name("openapi-python-client")
    out = where / "whizi_client"
    made = subprocess.run(
        [
            tool,
            "generate",
            "--path",
            schema,
            "--config",
            config,
            "--meta",
            "none",
            "--output-path",
            out,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Warning" not in made.stdout + made.stderr, made.stdout + made.stderr
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module("whizi_client")
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name.startswith("whizi_client")]:
            del sys.modules[name]


def call(module: str, **kwargs: Any) -> Any:
    """``sync_detailed`` of an endpoint module of the generated client."""
    return importlib.import_module(f"whizi_client.api.{module}").sync_detailed(**kwargs)


def test_a_generated_client_drives_the_whole_flow(generated, live_server, memory_model, scripted):
    from whizi_client import AuthenticatedClient, Client
    from whizi_client import models as m

    base = f"{live_server.url}"
    guest = call("auth.auth_guest_create", client=Client(base_url=base))
    assert guest.status_code == 201
    assert guest.parsed.expires_at is None
    api = AuthenticatedClient(base_url=base, token=guest.parsed.token)  # its default: Bearer

    # Chat: whole, then streamed.
    chat = call(
        "conversations.conversations_create",
        client=api,
        body=m.ConversationCreateRequest(model="scripted/chat-a"),
        idempotency_key="chat-1",
    )
    assert chat.status_code == 201
    memory_model.answer("Noted: Turin.", answer("Lives in Turin"))
    sent = call(
        "conversations.conversations_messages_create",
        id=chat.parsed.id,
        client=api,
        body=m.MessageCreateRequest(content="Remember that I live in Turin"),
    )
    assert sent.status_code == 201
    assert sent.parsed.assistant_message.content == "Noted: Turin."
    passes.run_pass(memory_id=Memory.objects.get().pk)  # the pass reads the turn
    scripted.answer(Streamed("Sunny ", "today."))
    http = api.get_httpx_client()
    url = f"/api/v1/conversations/{chat.parsed.id}/messages"
    with connect_sse(http, "POST", url, json={"content": "And the weather?"}) as source:
        events = [(event.event, event.id) for event in source.iter_sse()]
    assert [kind for kind, _ in events] == ["start", "delta", "delta", "done"]
    assert all(event_id for _, event_id in events)

    memory = call("memory.memory_retrieve", client=api)
    assert memory.parsed.lines == ["Lives in Turin"]
    etag = memory.headers["ETag"]

    # Edit with If-Match; a stale version is refused.
    def edit(text: str, version: str) -> Any:
        body = m.PatchedLineRequest(text=text)
        return call(
            "memory.memory_lines_partial_update", index=0, client=api, body=body, if_match=version
        )

    edited = edit("Lives in Milan", etag)
    assert edited.status_code == 200
    assert edited.parsed.lines == ["Lives in Milan"]
    stale = edit("Lives in Rome", etag)
    assert stale.status_code == 412
    assert stale.parsed.code == "stale_version"

    # History, undo, restore, and the receipts by version.
    history = call("memory.memory_history_list", client=api)
    newest = history.parsed[0].version
    undone = call(
        "memory.memory_undo_create",
        client=api,
        body=m.VersionRequestRequest(version=newest),
        if_match=edited.headers["ETag"],
        idempotency_key="undo-1",
    )
    assert undone.parsed.lines == ["Lives in Turin"]
    restored = call(
        "memory.memory_restore_create",
        client=api,
        body=m.VersionRequestRequest(version=newest),
        if_match=undone.headers["ETag"],
    )
    assert restored.parsed.lines == ["Lives in Milan"]
    changes = call("memory.memory_changes_retrieve", client=api, since=0)
    assert [c.kind for c in changes.parsed.changes][-3:] == ["edit_line", "undo", "restore"]
    assert changes.parsed.changes[-3].undone is True

    # Clear.
    assert call("memory.memory_destroy", client=api).status_code == 204
    assert call("memory.memory_retrieve", client=api).parsed.lines == []

    # Sign up with the guest's token: the chat comes along.
    account = call(
        "auth.auth_signup_create",
        client=api,
        body=m.CredentialsRequest(email="ada@example.com", password=PASSWORD),
    )
    assert account.status_code == 201
    assert account.parsed.expires_at is not None
    api = AuthenticatedClient(base_url=base, token=account.parsed.token)
    listed = call("conversations.conversations_list", client=api)
    assert [c.id for c in listed.parsed.results] == [chat.parsed.id]

    # Export, then deletion with the password.
    export = call("account.account_export_retrieve", client=api)
    assert export.status_code == 200
    gone = call("account.account_destroy", client=api, body=m.PasswordRequest(password=PASSWORD))
    assert gone.status_code == 204
    assert call("memory.memory_retrieve", client=api).status_code == 401
