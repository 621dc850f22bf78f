"""Replies on the chat page render as Markdown, safely: in the history, in the stream and on the
no-JavaScript path alike; the mobile API keeps the raw Markdown text."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from chat import markdown
from chat import services as chat_services
from chat.models import Conversation, Message
from tests.chat.test_markdown import HOSTILE, assert_inert
from tests.web.conftest import events_of, stream_headers

MARKDOWN_ANSWER = (
    "Three ideas:\n\n- **Walk** in the park\n- Read a *book*\n\n"
    "| City | Days |\n|---|---|\n| Turin | 3 |\n\n```python\nprint('hi')\n```"
)


def page_of(client: Client, conversation: Conversation) -> str:
    return client.get(reverse("chat:conversation", args=[conversation.pk])).content.decode()


def reply_bubbles(page: str) -> list[str]:
    """The inside of each assistant bubble on the page."""
    return re.findall(r'<div class="bubble markdown"[^>]*>(.*?)</div>', page, re.S)


def test_a_reply_in_the_history_shows_its_list_table_and_code_rendered(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    scripted.answer(MARKDOWN_ANSWER)
    chat_services.send_message(conversation=conversation, content="Ideas for Turin?")
    page = page_of(account_client, conversation)
    (bubble,) = reply_bubbles(page)
    assert "<li><strong>Walk</strong> in the park</li>" in bubble
    assert "<td>Turin</td>" in bubble
    assert "<pre><code class=\"language-python\">print('hi')" in bubble
    assert "- **Walk**" not in bubble
    # The person's own message stays as typed.
    assert '<div class="bubble">Ideas for Turin?</div>' in page


def test_a_reply_keeps_its_markdown_source_for_the_copy_button(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    scripted.answer('Use **"quotes"** & <angle> brackets')
    chat_services.send_message(conversation=conversation, content="Hi")
    page = page_of(account_client, conversation)
    assert 'data-source="Use **&quot;quotes&quot;** &amp; &lt;angle&gt; brackets"' in page


def test_hostile_replies_in_the_history_are_inert(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    for answer in HOSTILE:
        scripted.answer(answer)
        chat_services.send_message(conversation=conversation, content="Tell me")
    page = page_of(account_client, conversation)
    bubbles = reply_bubbles(page)
    assert len(bubbles) == len(HOSTILE)
    for bubble in bubbles:
        assert_inert(bubble)
    # The page's own policy is untouched.
    response = account_client.get(reverse("chat:conversation", args=[conversation.pk]))
    assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY


def test_a_streamed_reply_carries_its_rendered_html_and_ends_as_the_page_shows_it(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    scripted.answer(MARKDOWN_ANSWER)
    events = events_of(
        account_client.post(
            reverse("chat:send", args=[conversation.pk]), {"content": "Ideas?"}, **stream_headers()
        )
    )
    deltas = [data for kind, data in events if kind == "delta"]
    assert "".join(data["content"] for data in deltas) == MARKDOWN_ANSWER
    previews = [data for data in deltas if "live" in data]
    assert previews and previews[0] is deltas[0]  # the first piece shows at once
    for data in previews:
        assert_inert(data["settled"])
        assert_inert(data["live"])
    kind, done = events[-1]
    assert kind == "done"
    assert done["html"] == markdown.render(MARKDOWN_ANSWER)
    (bubble,) = reply_bubbles(page_of(account_client, conversation))
    assert bubble == done["html"]


def test_a_hostile_streamed_reply_is_inert_in_every_event(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    hostile = "\n\n".join(HOSTILE)
    scripted.answer(hostile)
    events = events_of(
        account_client.post(
            reverse("chat:send", args=[conversation.pk]), {"content": "Go"}, **stream_headers()
        )
    )
    for _kind, data in events:
        for key in ("settled", "live", "html"):
            if key in data:
                assert_inert(str(data[key]))
    kind, done = events[-1]
    assert kind == "done", done
    assert done["html"] == markdown.render(Message.objects.get(role="assistant").content)


def test_without_javascript_the_reply_renders_after_the_redirect(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    scripted.answer("- one\n- two")
    response = account_client.post(
        reverse("chat:send", args=[conversation.pk]), {"content": "List?"}, follow=True
    )
    assert "<ul>\n<li>one</li>\n<li>two</li>\n</ul>" in response.content.decode()


def test_the_api_keeps_the_raw_markdown_in_its_content_and_its_stream(
    api: Any, scripted: Any
) -> None:
    conversation = api.post(
        "/api/v1/conversations", {"model": "scripted/chat-a"}, format="json"
    ).json()
    scripted.answer("- one\n- **two**")
    stream = api.post(
        f"/api/v1/conversations/{conversation['id']}/messages",
        {"content": "List?"},
        format="json",
        HTTP_ACCEPT="text/event-stream",
    )
    events = events_of(stream)
    for kind, data in events:
        assert not {"html", "live", "settled"} & set(data), (kind, data)
    assert "".join(d["content"] for k, d in events if k == "delta") == "- one\n- **two**"
    scripted.answer("1. *three*")
    sent = api.post(
        f"/api/v1/conversations/{conversation['id']}/messages", {"content": "More"}, format="json"
    ).json()
    assert sent["assistant_message"]["content"] == "1. *three*"
    history = api.get(f"/api/v1/conversations/{conversation['id']}").json()
    contents = [message["content"] for message in history["messages"]]
    assert contents == ["List?", "- one\n- **two**", "More", "1. *three*"]
    assert not any("<" in content for content in contents)


COPY_LABELS = {
    "it": ("Copia", "Copiato", "Impossibile copiare", "Copia la risposta", "Copia il codice"),
    "fr": ("Copier", "Copié", "Impossible de copier", "Copier la réponse", "Copier le code"),
}


@pytest.mark.parametrize("language", ["it", "fr"])
def test_the_copy_buttons_speak_italian_and_french(
    account_client: Client, conversation: Conversation, scripted: Any, language: str
) -> None:
    scripted.answer("Ciao!")
    chat_services.send_message(conversation=conversation, content="Ciao")
    url = reverse("chat:conversation", args=[conversation.pk])
    page = account_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    names = ("copy-text", "copied", "copy-failed", "copy-reply", "copy-code")
    for name, label in zip(names, COPY_LABELS[language], strict=True):
        assert f'data-{name}="{label}"' in page
