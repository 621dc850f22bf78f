"""When a pass is asked for: the sixth turn, remember and forget requests (SPEC §4)."""

import pytest

from memory.models import Memory

pytestmark = pytest.mark.django_db


def send(api, conversation_id, text, capture):
    with capture(execute=False) as callbacks:
        response = api.post(
            f"/api/v1/conversations/{conversation_id}/messages", {"content": text}, format="json"
        )
    assert response.status_code == 201
    return callbacks


def owed(account) -> bool:
    return Memory.objects.filter(owner=account, pass_requested=True).exists()


@pytest.fixture
def conversation_id(api):
    return api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json").json()[
        "id"
    ]


def test_a_pass_is_owed_when_the_turn_count_crosses_six(
    api, account, scripted, conversation_id, django_capture_on_commit_callbacks
):
    for text in ["hello", "how are you"]:
        assert send(api, conversation_id, text, django_capture_on_commit_callbacks) == []
        assert not owed(account)
    callbacks = send(api, conversation_id, "what a day", django_capture_on_commit_callbacks)
    assert owed(account)
    assert len(callbacks) == 1  # the enqueue waits for the commit


@pytest.mark.parametrize(
    "text",
    [
        "My name is Anna, remember that",
        "Ricorda che mi chiamo Anna",
        "Retiens que je m'appelle Anna",
        "Recuerda que me llamo Anna",
        "Merk dir, dass ich Anna heiße",
        "Lembre-se que meu nome é Anna",
        "Please forget that I live in Turin",
        "Dimentica che vivo a Torino",
        "Oublie que j'habite à Lyon",
    ],
)
def test_a_remember_or_forget_request_asks_for_a_pass_at_once(
    api, account, scripted, conversation_id, text, django_capture_on_commit_callbacks
):
    send(api, conversation_id, text, django_capture_on_commit_callbacks)
    assert owed(account)


@pytest.mark.parametrize(
    "text",
    ["Do you remember what I said?", "Ti ricordi cosa ti ho detto?", "Tu te souviens de mon nom ?"],
)
def test_a_question_about_remembering_is_not_a_request(
    api, account, scripted, conversation_id, text, django_capture_on_commit_callbacks
):
    send(api, conversation_id, text, django_capture_on_commit_callbacks)
    assert not owed(account)


def test_a_temporary_conversation_never_asks_for_a_pass(
    api, account, scripted, django_capture_on_commit_callbacks
):
    conversation = api.post(
        "/api/v1/conversations", {"model": "scripted/chat-a", "temporary": True}, format="json"
    ).json()
    for text in ["remember that I love jazz", "a", "b"]:
        send(api, conversation["id"], text, django_capture_on_commit_callbacks)
    assert not owed(account)


def test_a_remember_request_with_memory_off_is_not_kept(
    api, account, scripted, conversation_id, django_capture_on_commit_callbacks
):
    api.patch("/api/v1/memory", {"enabled": False}, format="json")
    callbacks = send(
        api, conversation_id, "Remember that I love jazz", django_capture_on_commit_callbacks
    )
    assert not owed(account)
    assert callbacks == []


def test_a_failed_reply_asks_for_no_pass(
    api, account, scripted, conversation_id, django_capture_on_commit_callbacks, settings
):
    settings.CHAT_MODEL_TIMEOUT = 0.5
    scripted.answer(("sleep", 3, "late"))
    send(api, conversation_id, "Remember that I love jazz", django_capture_on_commit_callbacks)
    assert not owed(account)


def test_passes_are_owed_at_every_multiple_of_six(
    api, account, scripted, conversation_id, django_capture_on_commit_callbacks
):
    owed_after = []
    for i in range(6):
        send(api, conversation_id, f"message {i}", django_capture_on_commit_callbacks)
        owed_after.append(owed(account))
        Memory.objects.update(pass_requested=False)
    # Replies make the count 2, 4, 6, 8, 10, 12: a pass at 6 and at 12.
    assert owed_after == [False, False, True, False, False, True]


def test_a_failed_reply_does_not_make_the_next_boundary_skip(
    api, account, scripted, conversation_id, django_capture_on_commit_callbacks
):
    for i in range(2):
        send(api, conversation_id, f"message {i}", django_capture_on_commit_callbacks)  # 4 turns
    scripted.answer(RuntimeError("down"), RuntimeError("down"))
    send(api, conversation_id, "this reply fails", django_capture_on_commit_callbacks)  # 5 turns
    send(api, conversation_id, "this one too", django_capture_on_commit_callbacks)  # 6 turns
    assert not owed(account)
    send(api, conversation_id, "and this one works", django_capture_on_commit_callbacks)  # 8 turns
    assert owed(account)  # the sixth turn came with no reply; the next reply owes its pass


def test_the_trigger_is_decided_without_counting_the_messages(
    api, account, scripted, conversation_id, django_capture_on_commit_callbacks
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        for text in ["hello", "how are you", "what a day"]:
            send(api, conversation_id, text, django_capture_on_commit_callbacks)
    assert owed(account)  # the sixth turn asked for its pass
    statements = [q["sql"].upper() for q in queries.captured_queries]
    assert not [sql for sql in statements if "COUNT(" in sql]
    assert not [sql for sql in statements if 'FROM "CHAT_MESSAGE"' in sql and "MAX(" in sql]


def test_the_turn_counts_live_on_the_conversation_row(
    api, account, scripted, conversation_id, django_capture_on_commit_callbacks
):
    from chat.models import Conversation, Message

    send(api, conversation_id, "hello", django_capture_on_commit_callbacks)
    scripted.answer(RuntimeError("down"))
    send(api, conversation_id, "this reply fails", django_capture_on_commit_callbacks)
    send(api, conversation_id, "and this one works", django_capture_on_commit_callbacks)

    conversation = Conversation.objects.get(pk=conversation_id)
    assert conversation.turns == Message.objects.filter(conversation=conversation).count() == 5
    assert conversation.turns_at_reply == 5


def test_upgrading_counts_the_turns_of_existing_conversations(account):
    """The migration that added the counters starts them from the real counts, so the cadence
    of passes carries on across the upgrade."""
    import importlib

    from django.apps import apps

    from chat.models import Conversation, Message
    from tests.memory.helpers import conversation_with

    migration = importlib.import_module("chat.migrations.0003_conversation_turns_message_tokens")
    replied = conversation_with(account, "a", "b", "c", "d", "e")  # the last reply is turn 4
    empty = conversation_with(account)
    Conversation.objects.update(turns=0, turns_at_reply=0)
    Message.objects.create(conversation=replied, role="user", content="f")

    migration.count_turns(apps, None)

    replied.refresh_from_db()
    empty.refresh_from_db()
    assert (replied.turns, replied.turns_at_reply) == (6, 4)
    assert (empty.turns, empty.turns_at_reply) == (0, 0)
