"""Every turn is read, whatever its length (issue 16 point 5): a turn longer than the transcript
cap is read in parts over as many rounds as it takes, each part sent to the model once and in
order, and the turn is marked read only once its last part has been sent and that pass stored.
Nothing is marked read that was not sent to the model."""

import pytest
from django.db import connection
from litellm.exceptions import RateLimitError

from chat.models import Message
from memory.engine import passes
from memory.models import Memory, MemoryEvent
from memory.rules.budget import count_tokens
from tests.memory.helpers import answer, conversation_with, later, memory_with, payload

pytestmark = pytest.mark.django_db

# Emoji cost about three o200k tokens each: the reported shape, 7,500 characters of them.
EMOJI = "🦩🧅🫑🥒🪿🦭🫐🧄"
# A turn of about 250 tokens, read under a cap of 60 (``small_cap``): five parts or so.
WORDS = " ".join(f"Word{i} is here." for i in range(60))
UNREAD, READ = Message.MemoryState.UNREAD, Message.MemoryState.READ


def emoji(chars: int) -> str:
    return (EMOJI * (chars // len(EMOJI) + 1))[:chars]


def say(api, text: str) -> dict:
    conversation = api.post("/api/v1/conversations", {}, format="json").json()
    response = api.post(
        f"/api/v1/conversations/{conversation['id']}/messages", {"content": text}, format="json"
    )
    assert response.status_code == 201
    return response.json()


@pytest.fixture
def patient_chat(settings):
    """The offline chat model reads a long message for a second or so: on a busy machine that
    can pass the tests' 2 s bound, and a reply that fails fires no pass."""
    settings.CHAT_MODEL_TIMEOUT = 30


@pytest.fixture
def small_cap(settings):
    settings.MEMORY_TRANSCRIPT_TOKEN_LIMIT = 60
    return 60


def transcripts(calls) -> list[list[dict]]:
    return [payload(call["messages"])["transcript"] for call in calls]


def keeping(messages):
    """A memory model answer that keeps the list as it is."""
    return answer(*payload(messages)["memory"])(messages)


def test_a_remember_after_a_message_longer_than_the_transcript_cap_is_kept(
    api, account, settings, patient_chat
):
    # The report: 7,531 characters of about 22,000 tokens, then "Remember that I like zucchini".
    text = emoji(7_500) + "\n\nRemember that I like zucchini"
    assert len(text) == 7_531
    assert count_tokens(text) > settings.MEMORY_TRANSCRIPT_TOKEN_LIMIT
    sent = say(api, text)
    memory = Memory.objects.get(owner=account)
    assert memory.pass_requested  # the remember at the end fired a pass

    passes.run_pass(memory_id=memory.pk)

    memory.refresh_from_db()
    assert "Likes zucchini" in memory.lines
    message = Message.objects.get(pk=sent["user_message"]["id"])
    assert message.content == text  # stored whole
    assert message.memory_state == READ
    assert not memory.pass_requested


def test_each_part_of_a_long_turn_is_sent_once_in_order_and_within_the_cap(
    account, memory_model, small_cap
):
    conversation = conversation_with(account, WORDS, "Noted.", "I like zucchini")
    memory = memory_with(account)
    memory_model.answer(*[keeping] * 20)

    passes.run_pass(memory_id=memory.pk)

    rounds = transcripts(memory_model.calls)
    sent = [turn["content"] for transcript in rounds for turn in transcript]
    parts, rest = sent[:-2], sent[-2:]
    assert len(parts) >= 3
    # Its parts, in order, are the turn exactly: no character read twice, none left out.
    assert "".join(parts) == WORDS
    assert all(sum(count_tokens(t["content"]) + 4 for t in r) <= small_cap for r in rounds)
    # A part ends on a whole word.
    assert all(part.endswith(" ") for part in parts[:-1])
    # The turns after it come once it is read through.
    assert rest == ["Noted.", "I like zucchini"]
    assert list(
        Message.objects.filter(conversation=conversation).values_list("memory_state", flat=True)
    ) == [READ, READ, READ]


@pytest.mark.django_db(transaction=True)
def test_a_long_turn_is_marked_read_only_after_its_last_part(account, memory_model, small_cap):
    conversation = conversation_with(account, WORDS)
    message = Message.objects.get(conversation=conversation)
    memory = memory_with(account)
    seen = []

    def look_then_add(messages):
        # What another connection sees while the model reads the part (committed state).
        try:
            row = Message.objects.filter(pk=message.pk).values_list(
                "memory_state", "memory_read_to"
            )
            seen.append(row.get())
        finally:
            connection.close()  # this runs in the model call's thread
        known = payload(messages)["memory"]
        return answer(*known, f"Fact {len(known) + 1}")(messages)

    memory_model.answer(*[look_then_add] * 20)

    passes.run_pass(memory_id=memory.pk)

    parts = [r[0]["content"] for r in transcripts(memory_model.calls)]
    ends = [sum(len(p) for p in parts[:i]) for i in range(len(parts))]
    assert len(parts) >= 3
    assert seen == [(UNREAD, end) for end in ends]
    message.refresh_from_db()
    assert (message.memory_state, message.memory_read_to) == (READ, len(WORDS))
    # Every part's pass changed the list: the turn names the last version made.
    memory.refresh_from_db()
    assert memory.lines == [f"Fact {i + 1}" for i in range(len(parts))]
    assert message.memory_changed is True
    assert message.memory_version.version == memory.version


def test_a_failed_middle_round_marks_nothing_and_the_retry_sends_only_what_was_not_read(
    account, memory_model, small_cap
):
    conversation = conversation_with(account, WORDS)
    message = Message.objects.get(conversation=conversation)
    memory = memory_with(account)
    limited = RateLimitError(message="slow down", llm_provider="scripted", model="memory")
    memory_model.answer(keeping, limited)

    result = passes.run_pass(memory_id=memory.pk)

    assert result.retry
    first, failed = (r[0]["content"] for r in transcripts(memory_model.calls))
    message.refresh_from_db()
    # Only the part whose pass stored is read; the one whose call failed is still unread.
    assert (message.memory_state, message.memory_read_to) == (UNREAD, len(first))
    assert WORDS.startswith(first + failed)

    memory_model.calls.clear()
    memory_model.answer(*[keeping] * 20)
    later(memory, 3_600)  # the back-off is over
    passes.run_pass(memory_id=memory.pk)

    retried = [r[0]["content"] for r in transcripts(memory_model.calls)]
    assert retried[0] == failed
    assert first + "".join(retried) == WORDS
    message.refresh_from_db()
    assert message.memory_state == READ


def test_the_next_part_comes_with_the_end_of_what_was_read_as_context(
    account, memory_model, small_cap
):
    conversation_with(account, WORDS)
    memory = memory_with(account)
    memory_model.answer(*[keeping] * 20)

    passes.run_pass(memory_id=memory.pk)

    calls = [payload(call["messages"]) for call in memory_model.calls]
    assert len(calls) >= 3
    read = ""
    for call in calls:
        if read:
            assert call["context"][-1]["content"] == read[-1_000:]
            assert call["context"][-1]["role"] == "user"
        read += call["transcript"][0]["content"]


def test_a_line_from_a_later_part_names_its_turn_and_its_request_to_remember(
    api, account, memory_model, small_cap
):
    text = "I like zucchini. " + WORDS + " Please remember all that."
    say(api, text)
    conversation_id = Message.objects.get(role="user").conversation_id
    memory = Memory.objects.get(owner=account)

    def learn_from_the_part(messages):
        said = payload(messages)["transcript"]
        known = payload(messages)["memory"]
        found = any("zucchini" in t["content"] for t in said if t["role"] == "user")
        return answer(*known, *(["Likes zucchini"] if found else []))(messages)

    memory_model.answer(*[learn_from_the_part] * 20)
    passes.run_pass(memory_id=memory.pk)

    items = api.get("/api/v1/memory").json()["items"]
    # Asked to remember in the turn's last part, said in its first: a remembered line.
    assert [(i["text"], i["conversation"], i["kind"]) for i in items] == [
        ("Likes zucchini", conversation_id, "remembered")
    ]


def test_a_clear_between_two_parts_leaves_the_rest_of_the_turn_unread_for_good(
    account, memory_model, small_cap
):
    from memory.services import clear_memory

    conversation = conversation_with(account, WORDS)
    memory = memory_with(account)
    limited = RateLimitError(message="slow down", llm_provider="scripted", model="memory")
    memory_model.answer(answer("Fact 1"), limited)
    passes.run_pass(memory_id=memory.pk)
    memory.refresh_from_db()
    assert memory.lines == ["Fact 1"]

    clear_memory(owner_id=account.pk)
    memory_model.calls.clear()
    later(memory, 3_600)
    passes.run_pass(memory_id=memory.pk)

    assert memory_model.calls == []
    memory.refresh_from_db()
    assert memory.lines == []
    state = Message.objects.get(conversation=conversation).memory_state
    assert state == Message.MemoryState.SKIPPED


def test_a_guests_half_read_turn_is_read_on_by_the_account_from_where_it_stopped(
    memory_model, small_cap
):
    from accounts.services import merge_guest
    from tests.conftest import make_account
    from tests.memory.engine.test_merge import guest_client

    account = make_account()
    _, guest = guest_client()
    conversation = conversation_with(guest, WORDS)
    guest_memory = memory_with(guest)
    limited = RateLimitError(message="slow down", llm_provider="scripted", model="memory")
    memory_model.answer(answer("Fact 1"), limited)
    passes.run_pass(memory_id=guest_memory.pk)
    first = transcripts(memory_model.calls)[0][0]["content"]

    merge_guest(guest=guest, account=account)
    memory_model.calls.clear()
    memory_model.answer(*[keeping] * 20)
    passes.run_pass(memory_id=Memory.objects.get(owner=account).pk)

    rest = "".join(r[0]["content"] for r in transcripts(memory_model.calls))
    assert first + rest == WORDS
    assert Memory.objects.get(owner=account).lines == ["Fact 1"]  # the guest's, merged
    assert Message.objects.get(conversation=conversation).memory_state == READ


def test_a_long_voice_turn_is_read_in_parts_with_the_turns_after_it(account, keeper, small_cap):
    from chat import services as chat
    from chat.models import VoiceSession

    session, _ = chat.start_voice_session(owner_id=account.pk, model="offline/whizi-chat")
    spoken = WORDS + " I like zucchini"
    transcript = [
        {"role": "user", "content": spoken},
        {"role": "assistant", "content": "Lovely."},
        {"role": "user", "content": "I like thyme"},
    ]
    chat.end_voice_session(session=session, transcript=transcript)

    passes.run_pass(memory_id=Memory.objects.get(owner=account).pk)

    assert len(keeper.sources) >= 4
    assert "".join(keeper.sources[:-1]) == spoken
    assert keeper.sources[-1] == "I like thyme"
    assert Memory.objects.get(owner=account).lines == ["Likes zucchini", "Likes thyme"]
    assert VoiceSession.objects.get(pk=session.pk).memory_pass_done_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_remember_at_the_very_end_of_the_longest_message_is_kept_through_the_worker(
    account, worker, patient_chat
):
    """End to end as it runs: the API, a real Celery worker on Redis, the offline writer."""
    from tests.conftest import client_for
    from tests.memory.helpers import wait_for

    tail = "\n\nRemember that I like zucchini"
    text = emoji(20_000 - len(tail)) + tail  # the longest message there is, ~58,000 tokens
    sent = say(client_for(account), text)
    message = Message.objects.get(pk=sent["user_message"]["id"])

    def settled():
        message.refresh_from_db()
        memory = Memory.objects.get(owner=account)
        return message.memory_state == READ and not memory.pass_requested

    assert wait_for(settled, seconds=120)
    assert message.content == text
    assert message.memory_read_to == len(text)
    assert Memory.objects.get(owner=account).lines == ["Likes zucchini"]
    # Read in three parts of at most 20,000 tokens, a pass each.
    passes_run = MemoryEvent.objects.filter(owner_id=account.pk, kind=MemoryEvent.Kind.PASS)
    assert passes_run.count() == 3


def test_a_long_reply_alone_is_read_through_without_asking_the_model(
    account, memory_model, small_cap
):
    # The assistant's words are never a source: its parts are consumed with no model call.
    conversation = conversation_with(account, "I like zucchini", WORDS)
    Message.objects.filter(conversation=conversation, role="user").update(
        memory_state=Message.MemoryState.READ
    )
    memory = memory_with(account)

    passes.run_pass(memory_id=memory.pk)

    assert memory_model.calls == []
    reply = Message.objects.get(conversation=conversation, role="assistant")
    assert (reply.memory_state, reply.memory_read_to) == (READ, len(WORDS))
