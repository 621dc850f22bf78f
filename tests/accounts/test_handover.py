"""Guest → account handover keeps the guest's promises (issue 7): what the guest cleared, said
with memory off or in a temporary chat is never a source (nor context) for the account; what the
guest's memory read is not read again; unread guest turns are read exactly once, by the account."""

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from memory.models import Memory
from tests.memory.engine.test_turns_read_once import new_conversation, say, settled
from tests.memory.helpers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-passphrase-42"


def guest_client() -> APIClient:
    client = APIClient()
    token = client.post("/api/v1/auth/guest").json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def sign_up(guest: APIClient, email: str = "anna@example.com") -> tuple[APIClient, User]:
    response = guest.post(
        "/api/v1/auth/signup",
        {"email": email, "password": "a-long-passphrase-42"},
        format="json",
    )
    assert response.status_code == 201
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client, User.objects.get(email=email)


def lines_of(owner) -> list[str]:
    return Memory.objects.get(owner=owner).lines


def test_a_guest_clear_stays_final_after_signup(keeper, worker):
    guest = guest_client()
    conversation_id = new_conversation(guest)
    said = "My name is Zebracorn, remember that"
    assert say(guest, conversation_id, said) == 201
    assert wait_for(lambda: guest.get("/api/v1/memory").json()["lines"] == ["Name is Zebracorn"])
    assert guest.delete("/api/v1/memory").status_code == 204
    assert say(guest, conversation_id, "I like tea") == 201

    account_client, account = sign_up(guest)
    assert say(account_client, conversation_id, "Please remember that I like kites") == 201

    assert wait_for(lambda: settled(account))
    assert lines_of(account) == ["Likes tea", "Likes kites"]
    assert keeper.sources.count(said) == 1
    assert said not in keeper.context


def test_a_guest_off_switch_stays_final_after_signup(keeper, worker):
    guest = guest_client()
    assert guest.patch("/api/v1/memory", {"enabled": False}, format="json").status_code == 200
    conversation_id = new_conversation(guest)
    said = "My name is Offmode, remember that"
    assert say(guest, conversation_id, said) == 201

    account_client, account = sign_up(guest)
    assert say(account_client, conversation_id, "Please remember that I like kites") == 201

    assert wait_for(lambda: settled(account))
    assert lines_of(account) == ["Likes kites"]
    assert said not in keeper.sources
    assert said not in keeper.context


def test_a_guest_temporary_chat_never_feeds_the_account(keeper, worker):
    guest = guest_client()
    temporary = guest.post("/api/v1/conversations", {"temporary": True}, format="json").json()
    said = "My name is Tempo, remember that"
    assert say(guest, temporary["id"], said) == 201

    account_client, account = sign_up(guest)
    assert say(account_client, new_conversation(account_client), "remember that I like tea") == 201

    assert wait_for(lambda: settled(account))
    assert lines_of(account) == ["Likes tea"]
    assert said not in keeper.sources
    assert said not in keeper.context


def test_unread_guest_turns_are_read_exactly_once_by_the_account(keeper, worker):
    guest = guest_client()
    conversation_id = new_conversation(guest)
    assert say(guest, conversation_id, "I like tea") == 201  # no pass due yet

    _, account = sign_up(guest)

    assert wait_for(lambda: settled(account))
    assert lines_of(account) == ["Likes tea"]
    assert keeper.sources.count("I like tea") == 1


def test_guest_turns_already_read_are_not_read_again_by_the_account(keeper, worker):
    guest = guest_client()
    conversation_id = new_conversation(guest)
    said = "My name is Gina, remember that"
    assert say(guest, conversation_id, said) == 201
    assert wait_for(lambda: guest.get("/api/v1/memory").json()["lines"] == ["Name is Gina"])
    assert wait_for(lambda: not Memory.objects.filter(pass_requested=True).exists())

    account_client, account = sign_up(guest)
    assert say(account_client, conversation_id, "Remember that I like kites") == 201

    assert wait_for(lambda: settled(account))
    assert lines_of(account) == ["Name is Gina", "Likes kites"]
    assert keeper.sources.count(said) == 1


def test_a_guest_that_logs_in_keeps_its_promises_too(keeper, worker, account):
    guest = guest_client()
    assert guest.patch("/api/v1/memory", {"enabled": False}, format="json").status_code == 200
    conversation_id = new_conversation(guest)
    said = "My name is Loginoff, remember that"
    assert say(guest, conversation_id, said) == 201

    response = guest.post(
        "/api/v1/auth/login",
        {"email": account.email, "password": "a-long-passphrase-42"},
        format="json",
    )
    assert response.status_code == 200
    account_client = APIClient()
    account_client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert say(account_client, conversation_id, "remember that I like tea") == 201

    assert wait_for(lambda: settled(account))
    assert lines_of(account) == ["Likes tea"]
    assert said not in keeper.sources + keeper.context


def test_a_message_sent_by_a_guest_with_memory_off_as_it_signs_up_is_never_learned(keeper):
    from accounts import services as accounts
    from chat import services as chat
    from memory.engine import passes
    from memory.services import set_enabled

    guest = User.objects.create_guest()
    set_enabled(owner_id=guest.pk, enabled=False)
    conversation = chat.create_conversation(owner_id=guest.pk, model="offline/whizi-chat")
    # The guest's chat request has loaded its conversation; the signup commits first.
    account = accounts.sign_up(
        email="anna@example.com", password="a-long-passphrase-42", guest=guest
    )
    said = "My name is Offmode, remember that"
    chat.send_message(conversation=conversation, content=said)

    passes.run_pass(memory_id=Memory.objects.get(owner=account).pk)

    assert said not in keeper.sources + keeper.context
    assert Memory.objects.get(owner=account).lines == []


def test_a_guests_ended_voice_session_is_owed_by_the_account_after_signup(keeper):
    from accounts import services as accounts
    from chat import services as chat
    from memory.engine import passes

    guest = User.objects.create_guest()
    session, _ = chat.start_voice_session(owner_id=guest.pk, model="offline/whizi-chat")
    chat.end_voice_session(session=session, transcript=[{"role": "user", "content": "I like tea"}])

    account = accounts.sign_up(
        email="anna@example.com", password="a-long-passphrase-42", guest=guest
    )

    memory = Memory.objects.get(owner=account)
    assert memory.pass_requested
    passes.run_pass(memory_id=memory.pk)
    assert Memory.objects.get(owner=account).lines == ["Likes tea"]
