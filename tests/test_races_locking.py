"""Races that used to answer 500 or a false 503 on PostgreSQL (issue 16): a conversation or a
project deleted while a message is stored in it, a reply's store losing a deadlock mid-stream,
a voice session ending while its guest deletes itself or signs up, and "Clear memory" racing a
sign-up.
Each interleaving is forced with a row lock held by another connection (``tests.races.Held``),
so the order under test is the one that happens, and each answers 2xx or 4xx, never a 5xx nor
an outage.
"""

import threading

import pytest
from django.db import connection, transaction

from accounts.models import User
from chat.models import Conversation, Message, Project, VoiceSession
from core import db
from memory import tombstones
from memory.models import Memory
from memory.services import has_unread_work, lock_memory
from tests.conftest import client_for, owner_of_token
from tests.memory.helpers import memory_with, wait_for
from tests.races import Held, chat_with, guest, in_background, lock_waiters, send, signup
from tests.races import wait_until as wait_for_it

pytestmark = pytest.mark.django_db(transaction=True)

STREAMED = {"HTTP_ACCEPT": "text/event-stream"}


@pytest.fixture(autouse=True)
def _patient_chat_model(settings):
    """The scripted chat model answers at once; a loaded machine must not make it time out."""
    settings.CHAT_MODEL_TIMEOUT = 30.0


def answered(response) -> tuple[int, str]:
    """The status and, for a stream, its whole body (read here, in the request's thread)."""
    if response.streaming:
        return response.status_code, b"".join(response.streaming_content).decode()
    return response.status_code, ""


def owner_of(client) -> User:
    return owner_of_token(client._credentials["HTTP_AUTHORIZATION"][6:])


# --- Deletes racing sends -----------------------------------------------------------------------


def race_a_delete_with_a_send(
    scripted, *, delete_path: str, conversation_id: int, client, order, headers
):
    """Send "Remember that …" (its reply owes a pass) while ``delete_path`` is deleted.

    ``send_first``: the reply is stored and its trigger waits for the memory row (held), so the
    send holds the conversation when the deletion starts. ``delete_first``: the deletion waits
    for a message row (held) after it began, and the send arrives meanwhile.
    """
    owner = Conversation.objects.get(pk=conversation_id).owner
    scripted.answer("Noted.")
    if order == "send_first":
        memory_with(owner, owed=False)
        held = Held(lambda: lock_memory(owner_id=owner.pk))
        sending, sent = in_background(
            lambda: answered(send(client, conversation_id, "Remember that I like tea", **headers))
        )
        wait_for_it(lambda: lock_waiters() >= 1)
        deleting, deleted = in_background(lambda: client.delete(delete_path))
        wait_for_it(lambda: lock_waiters() >= 2 or not deleting.is_alive())
    else:
        Message.objects.create(conversation_id=conversation_id, role="user", content="hello")
        first = Message.objects.filter(conversation_id=conversation_id).first()
        held = Held(lambda: list(Message.objects.select_for_update().filter(pk=first.pk)))
        deleting, deleted = in_background(lambda: client.delete(delete_path))
        wait_for_it(lambda: lock_waiters() >= 1)
        sending, sent = in_background(
            lambda: answered(send(client, conversation_id, "Remember that I like tea", **headers))
        )
        wait_for_it(lambda: lock_waiters() >= 2 or not sending.is_alive())
    held.release()
    sending.join()
    deleting.join()
    return sent[0], deleted[0]


def assert_deleted_cleanly(sent, deleted, conversation_id: int, *, order, streamed) -> None:
    """Deleted (204) whatever came first; the message stored before it (201, or a stream that
    ends "done") or refused as the conversation is gone (404, before any stream starts)."""
    assert not isinstance(deleted, Exception), deleted
    assert deleted.status_code == 204
    assert not isinstance(sent, Exception), sent
    status, body = sent
    if order == "delete_first":
        assert status == 404
    elif streamed:
        assert status == 200
        assert "event: done" in body
    else:
        assert status == 201
    assert not Conversation.objects.filter(pk=conversation_id).exists()
    assert not Message.objects.filter(conversation_id=conversation_id).exists()


def a_chat_to_delete(client, what: str) -> tuple[int, str]:
    """A conversation, and the path that deletes it: its own, or its project's."""
    if what == "conversation":
        conversation_id = chat_with(client)
        return conversation_id, f"/api/v1/conversations/{conversation_id}"
    project_id = client.post("/api/v1/projects", {"name": "Thesis"}, format="json").json()["id"]
    return chat_with(client, project=project_id), f"/api/v1/projects/{project_id}"


@pytest.mark.parametrize("streamed", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("order", ["send_first", "delete_first"])
@pytest.mark.parametrize("what", ["conversation", "project"])
def test_a_chat_deleted_while_a_message_is_stored_in_it_answers_204_and_201_or_404(
    scripted, account, what, order, streamed
):
    client = client_for(account)
    conversation_id, delete_path = a_chat_to_delete(client, what)

    sent, deleted = race_a_delete_with_a_send(
        scripted,
        delete_path=delete_path,
        conversation_id=conversation_id,
        client=client,
        order=order,
        headers=STREAMED if streamed else {},
    )

    assert_deleted_cleanly(sent, deleted, conversation_id, order=order, streamed=streamed)
    assert not Project.objects.exists()  # nor the project, when it was the project


def test_a_streamed_reply_that_loses_a_deadlock_is_stored_on_the_retry(scripted, account):
    client = client_for(account)
    conversation_id = chat_with(client)
    memory_with(account, owed=False)
    holding = threading.Event()

    def cross():
        # The memory row, then the conversation the reply's store holds: the order no use-case
        # takes, so the store loses a deadlock for real. This side waits a minute before it
        # would look for one, so the store is the side PostgreSQL rolls back.
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL deadlock_timeout = '60s'")
            lock_memory(owner_id=account.pk)
            holding.set()
            wait_for_it(lambda: lock_waiters() >= 1)  # the store waits for memory
            db.lock(Conversation.objects.filter(pk=conversation_id))  # until it is rolled back
            # Its retry waits for this side, unless the reply's trigger, unable to take the
            # memory row at once, left the turn pending instead: either way a short wait.
            wait_for(lambda: lock_waiters() >= 1, seconds=5)
        return "crossed"

    crossing, crossed = in_background(cross)
    assert holding.wait(10)
    scripted.answer("Noted.")
    status, body = answered(send(client, conversation_id, "Remember that I like tea", **STREAMED))
    crossing.join()

    assert crossed == ["crossed"]
    assert status == 200
    assert "event: done" in body
    assert Message.objects.filter(conversation_id=conversation_id).count() == 2
    # The remember is owed: the reply's trigger asked for the pass, or (memory still locked when
    # it asked) left the turn pending for the sweeper, which asks for it then.
    memory = Memory.objects.get(owner=account)
    pending = Message.objects.filter(conversation_id=conversation_id, memory_state=3).exists()
    assert memory.pass_requested or pending


# --- A voice session ending while its guest goes -------------------------------------------------

TRANSCRIPT = {"transcript": [{"role": "user", "content": "My name is Anna"}]}


def voice_guest():
    """A guest with a memory row and a voice session under way."""
    client = guest()
    person = owner_of(client)
    memory_with(person, "Likes tea", owed=False)
    session_id = client.post("/api/v1/voice/sessions", {}, format="json").json()["id"]
    return client, person, session_id


def race_in_line(first, second, *, memory_of: int):
    """``first`` then ``second`` queue for the memory row of ``memory_of`` (held), in that
    order; then it is let go. Both results, as answered or raised."""
    held = Held(lambda: lock_memory(owner_id=memory_of))
    one, first_result = in_background(first)
    wait_for_it(lambda: lock_waiters() >= 1)
    two, second_result = in_background(second)
    wait_for_it(lambda: lock_waiters() >= 2)
    held.release()
    one.join()
    two.join()
    return first_result[0], second_result[0]


def end(client, session_id: int):
    return lambda: client.post(
        f"/api/v1/voice/sessions/{session_id}/end", TRANSCRIPT, format="json"
    )


def status_of(result) -> int:
    assert not isinstance(result, Exception), result
    return result.status_code


@pytest.mark.parametrize("order", ["deletion_first", "end_first"])
def test_a_voice_session_ending_while_its_guest_deletes_itself_never_answers_a_5xx(order):
    client, person, session_id = voice_guest()
    deletion = lambda: client.delete("/api/v1/account", {}, format="json")  # noqa: E731

    if order == "deletion_first":
        deleted, ended = race_in_line(deletion, end(client, session_id), memory_of=person.pk)
    else:
        ended, deleted = race_in_line(end(client, session_id), deletion, memory_of=person.pk)

    assert status_of(deleted) == 204
    assert status_of(ended) == (404 if order == "deletion_first" else 202)
    if order == "deletion_first":
        assert ended.json()["code"] == "not_found"
    assert not User.objects.filter(pk=person.pk).exists()
    assert not VoiceSession.objects.exists()


@pytest.mark.parametrize("order", ["signup_first", "end_first"])
def test_a_voice_session_ending_while_its_guest_signs_up_ends_in_the_account(order):
    client, person, session_id = voice_guest()

    if order == "signup_first":
        signed_up, ended = race_in_line(
            lambda: signup(client), end(client, session_id), memory_of=person.pk
        )
    else:
        ended, signed_up = race_in_line(
            end(client, session_id), lambda: signup(client), memory_of=person.pk
        )

    assert status_of(signed_up) == 201
    assert status_of(ended) == 202
    account = User.objects.get(email="anna@example.com")
    session = VoiceSession.objects.get(pk=session_id)
    assert session.owner == account
    assert session.ended_at is not None
    # The transcript is owed to the account's memory, once.
    assert Memory.objects.get(owner=account).pass_requested
    assert not User.objects.filter(pk=person.pk).exists()


# --- "Clear memory" racing a sign-up ------------------------------------------------------------


@pytest.mark.parametrize("order", ["signup_first", "clear_first"])
def test_a_clear_racing_a_signup_is_final_in_the_account_or_refused(order):
    client = guest()
    person = owner_of(client)
    conversation_id = chat_with(client, model="offline/whizi-chat")
    assert send(client, conversation_id, "I live in Turin").status_code == 201
    guest_memory = memory_with(person, "Name is Anna", "Lives in Turin", owed=False)
    clear = lambda: client.delete("/api/v1/memory")  # noqa: E731

    if order == "signup_first":
        signed_up, cleared = race_in_line(lambda: signup(client), clear, memory_of=person.pk)
    else:
        cleared, signed_up = race_in_line(clear, lambda: signup(client), memory_of=person.pk)

    assert status_of(signed_up) == 201
    account = User.objects.get(email="anna@example.com")
    memory = Memory.objects.get(owner=account)
    if order == "signup_first":
        # The guest had gone into the account before the clear could run: refused, and the
        # facts are where the merge put them (nothing was cleared, nothing claims it was).
        assert status_of(cleared) == 404
        assert cleared.json()["code"] == "not_found"
        assert memory.lines == ["Name is Anna", "Lives in Turin"]
    else:
        # Cleared first: the account gets the empty list, what was cleared stays forgotten,
        # and the turns said before the clear are never read.
        assert status_of(cleared) == 204
        assert memory.lines == []
        forgotten = tombstones.buried(memory.pk)
        assert tombstones.is_buried("Name is Anna", forgotten)
        assert tombstones.is_buried("Lives in Turin", forgotten)
        assert not has_unread_work(account.pk)
    assert not Memory.objects.filter(pk=guest_memory.pk).exists()
    assert not User.objects.filter(pk=person.pk).exists()
