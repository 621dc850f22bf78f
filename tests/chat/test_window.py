"""A chat request is bounded: the history is windowed to the model's input budget, the oldest
turns dropped first, never the system prompt, the project's instructions or the memory."""

import pytest

from chat import context
from chat.models import Conversation, Message, Project
from memory.rules import budget
from memory.rules.prompts import MEMORY_HEADER
from tests.memory.helpers import memory_with

pytestmark = pytest.mark.django_db


def tokens_of(messages: list[dict[str, str]]) -> int:
    """What a request carries, counted the way the window counts (o200k, per-message framing)."""
    return sum(budget.count_tokens(m["content"]) + context.PER_MESSAGE_TOKENS for m in messages)


def history_of(messages: list[dict[str, str]]) -> list[dict[str, str]]:
    return [m for m in messages if m["role"] != "system"]


def long_conversation(owner, exchanges: int, *, counted: bool = True, **fields) -> Conversation:
    conversation = Conversation.objects.create(
        owner=owner,
        model="scripted/chat-a",
        turns=2 * exchanges,
        turns_at_reply=2 * exchanges,
        **fields,
    )
    turns = []
    for i in range(exchanges):
        turns.append(("user", f"Question {i}: what is the weather like in town number {i}?"))
        turns.append(("assistant", f"Answer {i}: sunny in town number {i}, with a light breeze."))
    Message.objects.bulk_create(
        Message(
            conversation=conversation,
            role=role,
            content=text,
            tokens=budget.count_tokens(text) if counted else None,
            memory_state=Message.MemoryState.READ,
        )
        for role, text in turns
    )
    return conversation


def send(api, scripted, conversation: Conversation, text: str, **headers) -> list[dict[str, str]]:
    scripted.answer("ok")
    response = api.post(
        f"/api/v1/conversations/{conversation.pk}/messages",
        {"content": text},
        format="json",
        **headers,
    )
    if headers:
        assert response.status_code == 200
        assert b"event: done" in b"".join(response.streaming_content)
    else:
        assert response.status_code == 201
    return scripted.calls[-1]["messages"]


def full_list() -> list[str]:
    lines = [f"Fact {i}: enjoys hiking trail number {i} near the lake" for i in range(200)]
    return budget.positional_cut(lines, 2_000)


def test_a_long_conversation_sends_the_newest_turns_that_fit_and_drops_the_oldest(
    api, account, scripted, settings
):
    settings.CHAT_INPUT_TOKENS_DEFAULT = 600
    conversation = long_conversation(account, 100)

    messages = send(api, scripted, conversation, "And tomorrow?")

    assert tokens_of(messages) <= 600
    history = history_of(messages)
    stored = list(conversation.messages.order_by("id").values_list("content", flat=True))[:-1]
    # A tail of the conversation, in order, ending with the new message: only the oldest went.
    assert [m["content"] for m in history] == stored[-len(history) :]
    assert history[-1] == {"role": "user", "content": "And tomorrow?"}
    assert 10 < len(history) < len(stored)


def test_the_system_prompt_instructions_and_memory_always_go_whatever_the_squeeze(
    api, account, scripted, settings
):
    lines = full_list()
    memory_with(account, *lines, owed=False)
    project = Project.objects.create(owner=account, name="P", instructions="Answer in haiku.")
    conversation = long_conversation(account, 50, project=project)
    settings.CHAT_INPUT_TOKENS_DEFAULT = 2_600  # the memory alone takes about 2,050

    messages = send(api, scripted, conversation, "And tomorrow?")

    systems = [m["content"] for m in messages if m["role"] == "system"]
    assert systems[0].startswith("You are Whizi")
    assert "Answer in haiku." in systems[1]
    assert systems[2].startswith(MEMORY_HEADER) and f"- {lines[-1]}" in systems[2]
    assert tokens_of(messages) <= 2_600
    assert history_of(messages)[-1]["content"] == "And tomorrow?"
    assert len(history_of(messages)) < 100


def test_a_thousand_exchange_conversation_fills_the_default_budget_and_no_more(
    api, account, scripted, settings
):
    memory_with(account, *full_list(), owed=False)
    conversation = long_conversation(account, 1_000)

    messages = send(api, scripted, conversation, "And tomorrow?")

    limit = settings.CHAT_INPUT_TOKENS_DEFAULT
    assert limit - 40 < tokens_of(messages) <= limit  # full, short of one more turn at most
    assert len(history_of(messages)) < 2_001


def test_a_streamed_reply_is_windowed_the_same_way(api, account, scripted, settings):
    settings.CHAT_INPUT_TOKENS_DEFAULT = 600
    conversation = long_conversation(account, 100)

    messages = send(api, scripted, conversation, "And tomorrow?", HTTP_ACCEPT="text/event-stream")

    assert tokens_of(messages) <= 600
    assert history_of(messages)[-1]["content"] == "And tomorrow?"


def test_the_newest_message_goes_whole_even_when_it_alone_is_over_the_budget(
    api, account, scripted, settings
):
    settings.CHAT_INPUT_TOKENS_DEFAULT = 100
    conversation = long_conversation(account, 5)
    text = "Please read this carefully. " * 60  # about 300 tokens

    messages = send(api, scripted, conversation, text)

    assert history_of(messages) == [{"role": "user", "content": text}]


def test_a_window_starts_with_the_person_never_with_a_reply(api, account, scripted, settings):
    conversation = long_conversation(account, 40)
    for limit in range(300, 700, 7):  # the cut lands on replies and on questions alike
        settings.CHAT_INPUT_TOKENS_DEFAULT = limit
        messages = send(api, scripted, conversation, "Next?")
        assert history_of(messages)[0]["role"] == "user"
        assert tokens_of(messages) <= limit


def test_messages_stored_before_counting_existed_are_estimated_on_the_safe_side(
    api, account, scripted, settings
):
    settings.CHAT_INPUT_TOKENS_DEFAULT = 600
    conversation = long_conversation(account, 100, counted=False)

    messages = send(api, scripted, conversation, "And tomorrow?")

    assert tokens_of(messages) <= 600
    assert len(history_of(messages)) > 3


def test_every_stored_message_carries_its_token_count(api, account, scripted):
    conversation = Conversation.objects.create(owner=account, model="scripted/chat-a")
    send(api, scripted, conversation, "My name is Anna and I live in Turin")
    counted = {m.content: m.tokens for m in conversation.messages.all()}
    assert counted == {text: budget.count_tokens(text) for text in counted}
    assert len(counted) == 2


def test_a_model_litellm_knows_gets_its_own_window_and_others_the_default(settings):
    settings.CHAT_INPUT_TOKENS_DEFAULT = 16_000
    settings.CHAT_INPUT_TOKENS_MAX = 128_000
    # litellm's local model map (offline): 128,000 input tokens, a fifth kept free.
    assert context.input_budget("openai/gpt-4o-mini") == 102_400
    assert context.input_budget("ollama/llama3") == 6_553  # an 8,192-token model
    assert context.input_budget("offline/whizi-chat") == 16_000  # not in the map
    assert context.input_budget("scripted/chat-a") == 16_000
    # A million-token model is held to the operator's ceiling.
    assert context.input_budget("gemini/gemini-2.5-pro") == 128_000
    settings.CHAT_INPUT_TOKENS_MAX = 50_000
    assert context.input_budget("openai/gpt-4o-mini") == 50_000


# --- A history budget chosen by cost (issue 29) ----------------------------------------------


def test_a_model_with_a_large_window_still_gets_at_most_the_history_budget(account, settings):
    """A 1,000-exchange conversation on gpt-4o-mini sent 102,359 tokens a reply."""
    from chat.services.sending import build_request

    settings.CHAT_HISTORY_TOKENS = 24_000
    memory_with(account, *full_list(), owed=False)
    conversation = long_conversation(account, 1_000)

    messages = build_request(conversation, model="openai/gpt-4o-mini")

    history = tokens_of(history_of(messages))
    assert 24_000 - 60 < history <= 24_000  # full, short of one more turn at most
    assert tokens_of(messages) <= 24_000 + 2_600  # and the rules, the memory


def test_a_thousand_exchanges_cost_what_a_hundred_do(account, settings):
    from chat.services.sending import build_request

    settings.CHAT_HISTORY_TOKENS = 3_000
    costs = [
        tokens_of(build_request(long_conversation(account, n), model="openai/gpt-4o-mini"))
        for n in (100, 1_000)
    ]
    assert abs(costs[0] - costs[1]) <= 2 * 30  # a turn either way


def test_the_stable_prefix_is_marked_for_a_providers_prompt_cache(account):
    """System prompt, project instructions and memory come first, and the last of them carries
    Anthropic's cache mark, so each reply re-reads the prefix from the provider's cache."""
    from chat.services.sending import build_request

    memory_with(account, *full_list(), owed=False)
    project = Project.objects.create(owner=account, name="Poems", instructions="Answer in haiku.")
    conversation = long_conversation(account, 3, project=project)

    marked = build_request(conversation, model="anthropic/claude-3-5-sonnet-20241022")
    plain = build_request(conversation, model="openai/gpt-4o-mini")

    assert [m["role"] for m in marked][:3] == ["system"] * 3
    assert marked[:2] == plain[:2] and marked[3:] == plain[3:]
    assert marked[2]["content"] == [
        {"type": "text", "text": plain[2]["content"], "cache_control": {"type": "ephemeral"}}
    ]
    assert plain[2]["content"].startswith(MEMORY_HEADER)
    assert all(isinstance(m["content"], str) for m in plain)
