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
    api, account, scripted, conversation_id, django_capture_on_commit_callbacks
):
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
