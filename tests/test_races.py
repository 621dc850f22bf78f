"""Races between a chat message and signup, login or account deletion, two signups with one
guest token, and line deletes against passes — with real commits (issue 7): every request gets a
clear JSON answer, never a 500, and nothing is half done."""

import pytest

from accounts.models import User
from chat.models import Conversation, Message
from memory.models import Memory, MemoryEvent
from tests.conftest import client_for, make_account
from tests.races import (
    PASSWORD,
    Held,
    at_once,
    chat_with,
    guest,
    in_another_thread,
    in_background,
    is_json_answer,
    lock_waiters,
    send,
    signup,
    wait_until,
)

pytestmark = pytest.mark.django_db(transaction=True)


def send_while_the_account_is_deleted(scripted, account, text: str, **headers: str):
    """Send a message whose account is deleted (and committed) during the model call."""
    client = client_for(account)
    conversation_id = chat_with(client)

    def reply_while_deleting(messages):
        in_another_thread(
            lambda: client_for(account).delete(
                "/api/v1/account", {"password": PASSWORD}, format="json"
            )
        )
        return "Got it."

    scripted.answer(reply_while_deleting)
    return send(client, conversation_id, text, **headers)


def test_a_message_whose_guest_signs_up_mid_reply_lands_in_the_account_with_its_trigger(
    scripted,
):
    client = guest()
    conversation_id = chat_with(client)
    signed_up = []

    def reply_while_signing_up(messages):
        signed_up.append(in_another_thread(lambda: signup(client).status_code))
        return "Got it, Anna."

    scripted.answer(reply_while_signing_up)
    response = send(client, conversation_id, "My name is Anna, remember that")

    assert signed_up == [201]
    assert response.status_code == 201
    assert response.json()["assistant_message"]["content"] == "Got it, Anna."
    account = User.objects.get(email="anna@example.com")
    assert Conversation.objects.get(pk=conversation_id).owner == account
    assert Message.objects.filter(conversation_id=conversation_id).count() == 2
    # The remember request's pass is owed by the account, not by the vanished guest.
    assert Memory.objects.get(owner=account).pass_requested
    assert not User.objects.filter(is_guest=True).exists()


def test_a_message_whose_account_is_deleted_mid_reply_answers_404_and_leaves_nothing(
    scripted, account
):
    response = send_while_the_account_is_deleted(scripted, account, "Remember that I like tea")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert not User.objects.filter(pk=account.pk).exists()
    assert not Message.objects.exists()
    assert not Memory.objects.exists()
    deleted = MemoryEvent.objects.filter(kind=MemoryEvent.Kind.ACCOUNT_DELETED)
    assert list(deleted.values_list("owner_id", flat=True)) == [account.pk]


def test_a_streamed_message_whose_account_is_deleted_mid_reply_ends_with_an_error_event(
    scripted, account
):
    response = send_while_the_account_is_deleted(
        scripted, account, "hello", HTTP_ACCEPT="text/event-stream"
    )
    body = b"".join(response.streaming_content).decode()

    assert response.status_code == 200
    assert "event: error" in body
    assert '"code": "not_found"' in body
    assert not Message.objects.exists()


@pytest.mark.parametrize("run", range(8))
def test_chat_racing_signup_with_the_same_guest_token_never_answers_a_500(run):
    client = guest()
    conversation_id = chat_with(client, model="offline/whizi-chat")

    message, signed_up = at_once(
        lambda: send(client, conversation_id, "My name is Anna, remember that"),
        lambda: signup(client),
    )

    assert is_json_answer(message, 201, 401, 404)
    assert signed_up.status_code == 201
    account = User.objects.get(email="anna@example.com")
    assert not User.objects.filter(is_guest=True).exists()
    assert Conversation.objects.get(pk=conversation_id).owner == account
    stored = Message.objects.filter(conversation_id=conversation_id).count()
    if message.status_code == 201:
        assert stored == 2
        assert Memory.objects.get(owner=account).pass_requested  # the reply's trigger
    else:
        assert stored == 0


@pytest.mark.parametrize("run", range(8))
def test_chat_racing_account_deletion_never_answers_a_500(run):
    account = make_account(f"race{run}@example.com")
    client = client_for(account)
    conversation_id = chat_with(client, model="offline/whizi-chat")

    message, deleted = at_once(
        lambda: send(client, conversation_id, "Remember that I like tea"),
        lambda: client_for(account).delete(
            "/api/v1/account", {"password": PASSWORD}, format="json"
        ),
    )

    assert is_json_answer(message, 201, 401, 404)
    assert deleted.status_code == 204
    assert not User.objects.filter(pk=account.pk).exists()
    assert not Message.objects.exists()
    assert MemoryEvent.objects.filter(kind=MemoryEvent.Kind.ACCOUNT_DELETED).count() == 1


@pytest.mark.parametrize("run", range(4))
def test_two_signups_with_one_guest_token_merge_the_guest_once(run):
    client = guest()
    conversation_id = chat_with(client, model="offline/whizi-chat")
    assert send(client, conversation_id, "hello").status_code == 201

    first, second = at_once(
        lambda: signup(client, "first@example.com"), lambda: signup(client, "second@example.com")
    )

    assert is_json_answer(first, 201, 401)
    assert is_json_answer(second, 201, 401)
    assert not User.objects.filter(is_guest=True).exists()
    owner = Conversation.objects.get(pk=conversation_id).owner
    assert owner.email in {"first@example.com", "second@example.com"}
    assert Message.objects.filter(conversation_id=conversation_id).count() == 2


def test_a_line_deleted_while_a_pass_is_running_stays_deleted(account, memory_model):
    from memory.engine import passes
    from tests.memory.helpers import answer, conversation_with, memory_with, payload

    conversation_with(account, "I like kites", "Nice")
    memory = memory_with(account, "Name is Quentin", "Likes tea")
    deleted = []

    def rewrite_while_deleting(messages):
        # Runs in the model call's own thread: database work goes to a thread that closes its
        # connection, so nothing stays open after the test.
        if not deleted:
            deleted.append(
                in_another_thread(
                    lambda: (
                        client_for(account)
                        .delete("/api/v1/memory/lines/0", HTTP_IF_MATCH="*")
                        .status_code
                    )
                )
            )
        return answer(*payload(messages)["memory"], "Likes kites")

    memory_model.answer(rewrite_while_deleting, rewrite_while_deleting)
    assert passes.run_pass(memory_id=memory.pk).outcome == "ok"

    assert deleted == [200]
    assert Memory.objects.get(pk=memory.pk).lines == ["Likes tea", "Likes kites"]


def test_an_account_deleted_while_a_pass_stores_its_list_is_deleted_without_a_deadlock(account):
    from memory.engine import passes
    from memory.engine.reading import next_work
    from memory.engine.rewriting import Rewrite
    from memory.services import lock_memory
    from tests.memory.helpers import conversation_with, memory_with

    conversation_with(account, "I like tea", "Nice")
    memory = memory_with(account, "Name is Anna")
    memory.voice_pending = False
    work = next_work(memory)
    rewrite = Rewrite(["Name is Anna", "Likes tea"], 8, 0, 0, 0, 0, False, False)
    client = client_for(account)
    held = Held(lambda: lock_memory(owner_id=account.pk))

    store, stored = in_background(
        lambda: passes._store(memory, work, rewrite, kind="pass", outcome="ok")
    )
    wait_until(lambda: lock_waiters() >= 1)  # the pass waits for the memory row
    delete, deleted = in_background(
        lambda: client.delete("/api/v1/account", {"password": PASSWORD}, format="json").status_code
    )
    wait_until(lambda: lock_waiters() >= 2)  # and so does the deletion
    held.release()
    store.join()
    delete.join()

    assert deleted == [204]
    assert stored in ([True], [False])
    assert not User.objects.filter(pk=account.pk).exists()


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/v1/conversations", {}),
        ("post", "/api/v1/projects", {"name": "Thesis"}),
        ("post", "/api/v1/voice/sessions", {}),
        ("patch", "/api/v1/memory", {"enabled": False}),
    ],
)
def test_creating_something_while_the_account_is_being_deleted_answers_404(
    account, method, path, body
):
    from tests.memory.helpers import conversation_with

    conversation = conversation_with(account, "hello", "hi")
    first = Message.objects.filter(conversation=conversation).first()
    client = client_for(account)
    held = Held(lambda: list(Message.objects.select_for_update().filter(pk=first.pk)))

    delete, deleted = in_background(
        lambda: client.delete("/api/v1/account", {"password": PASSWORD}, format="json").status_code
    )
    wait_until(lambda: lock_waiters() >= 1)  # the deletion holds the account, waits on a message
    create, created = in_background(lambda: getattr(client, method)(path, body, format="json"))
    wait_until(lambda: lock_waiters() >= 2)  # the creation waits on the account
    held.release()
    delete.join()
    create.join()

    assert deleted == [204]
    assert created[0].status_code == 404
    assert created[0].json()["code"] == "not_found"


def test_a_message_whose_project_is_deleted_mid_reply_answers_404_not_500(scripted, account):
    client = client_for(account)
    project = client.post(
        "/api/v1/projects", {"name": "Thesis", "instructions": "Be brief."}, format="json"
    )
    conversation_id = client.post(
        "/api/v1/conversations",
        {"model": "scripted/chat-a", "project": project.json()["id"]},
        format="json",
    ).json()["id"]

    def reply_while_deleting_the_project(messages):
        in_another_thread(
            lambda: client_for(account).delete(f"/api/v1/projects/{project.json()['id']}")
        )
        return "Sure."

    scripted.answer(reply_while_deleting_the_project)
    response = send(client, conversation_id, "hello")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert not Message.objects.exists()
