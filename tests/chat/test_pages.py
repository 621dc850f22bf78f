"""Lists come in cursor pages (issue 27, point 3): every chat and every message reachable,
each once, in order, whatever is added meanwhile; empty chats never crowd out the rest."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from chat.models import Conversation, Message

API = "/api/v1/conversations"


def chat_with_messages(owner: Any, count: int = 1, title: str = "") -> Conversation:
    conversation = Conversation.objects.create(owner=owner, title=title, model="scripted/chat-a")
    Message.objects.bulk_create(
        Message(
            conversation=conversation,
            role="user" if i % 2 == 0 else "assistant",
            content=f"message {i}",
        )
        for i in range(count)
    )
    return conversation


def path_of(link: str) -> str:
    parts = urlsplit(link)
    return f"{parts.path}?{parts.query}"


def follow(api: Any, first: str, direction: str) -> list[list[dict[str, Any]]]:
    pages, link = [], first
    while link:
        response = api.get(link)
        assert response.status_code == 200, response.content
        body = response.json()
        assert set(body) == {"results", "next", "previous"}
        pages.append(body["results"])
        link = body[direction] and path_of(body[direction])
    return pages


def test_empty_chats_never_crowd_out_the_rest(api, account):
    said = [chat_with_messages(account, 2, title=f"real {i}") for i in range(3)]
    Conversation.objects.bulk_create(
        Conversation(owner=account, model="scripted/chat-a") for _ in range(205)
    )
    listed = [c["id"] for page in follow(api, f"{API}?limit=200", "next") for c in page]
    assert sorted(listed) == sorted(c.pk for c in said)


def test_chats_come_newest_first_a_page_at_a_time_each_once(api, account):
    chats = [chat_with_messages(account) for _ in range(7)]
    pages = follow(api, f"{API}?limit=3", "next")
    assert [len(page) for page in pages] == [3, 3, 1]
    assert [c["id"] for page in pages for c in page] == [c.pk for c in reversed(chats)]


def test_a_new_chat_while_paging_moves_nothing(api, account):
    chats = [chat_with_messages(account) for _ in range(6)]
    first = api.get(f"{API}?limit=3").json()
    chat_with_messages(account)  # a new chat: on top, before this cursor
    second = api.get(path_of(first["next"])).json()
    seen = [c["id"] for c in first["results"] + second["results"]]
    assert seen == [c.pk for c in reversed(chats)]
    assert second["next"] is None


def test_the_previous_link_goes_back(api, account):
    for _ in range(5):
        chat_with_messages(account)
    first = api.get(f"{API}?limit=2").json()
    second = api.get(path_of(first["next"])).json()
    back = api.get(path_of(second["previous"])).json()
    assert back["results"] == first["results"]
    assert first["previous"] is None


def test_messages_come_in_order_newest_page_first_and_all_are_reachable(api, account):
    conversation = chat_with_messages(account, 300)
    pages = follow(api, f"{API}/{conversation.pk}/messages", "previous")
    assert [len(page) for page in pages] == [50] * 6
    assert pages[0][-1]["content"] == "message 299"  # the newest page first...
    ordered = [m["content"] for page in reversed(pages) for m in page]
    assert ordered == [f"message {i}" for i in range(300)]  # ...each page in order


def test_the_next_link_of_messages_goes_to_newer_ones(api, account):
    conversation = chat_with_messages(account, 10)
    newest = api.get(f"{API}/{conversation.pk}/messages?limit=4").json()
    assert newest["next"] is None
    older = api.get(path_of(newest["previous"])).json()
    assert [m["content"] for m in older["results"]] == [f"message {i}" for i in range(2, 6)]
    again = api.get(path_of(older["next"])).json()
    assert again["results"] == newest["results"]


def test_the_link_to_older_messages_keeps_the_page_size(api, account):
    conversation = chat_with_messages(account, 10)
    detail = api.get(f"{API}/{conversation.pk}", {"limit": 3}).json()
    older = api.get(path_of(detail["messages_previous"])).json()
    assert [m["content"] for m in older["results"]] == ["message 4", "message 5", "message 6"]


def test_a_chat_comes_with_its_newest_messages_and_a_link_to_the_rest(api, account):
    conversation = chat_with_messages(account, 120)
    detail = api.get(f"{API}/{conversation.pk}").json()
    assert [m["content"] for m in detail["messages"]] == [f"message {i}" for i in range(70, 120)]
    older = api.get(path_of(detail["messages_previous"])).json()
    assert older["results"][-1]["content"] == "message 69"
    short = chat_with_messages(account, 3)
    assert api.get(f"{API}/{short.pk}").json()["messages_previous"] is None


@pytest.mark.parametrize("limit", ["0", "201", "abc", "-1", "1.5", "٣", ""])
def test_a_limit_out_of_range_is_400(api, account, limit):
    conversation = chat_with_messages(account, 3)
    for url in (API, f"{API}/{conversation.pk}/messages", f"{API}/{conversation.pk}"):
        response = api.get(url, {"limit": limit})
        assert response.status_code == 400, url
        assert response.json()["code"] == "invalid_limit"


def _cursor(query: str) -> str:
    import base64

    return base64.b64encode(query.encode()).decode()


@pytest.mark.parametrize(
    "cursor",
    [
        "nonsense",
        "x" * 500,
        "bz0tMQ==",
        "%%%",
        "",
        _cursor("p=abc"),
        _cursor("p=2026-13-45"),
        _cursor("p=\x00"),
        _cursor("p=2026-12-06T10:00:00+99:00"),
        _cursor("o=999999999&p=abc"),
        _cursor("o=99999999999999999999&p=x"),
    ],
)
def test_a_cursor_from_no_page_is_400(api, account, cursor):
    conversation = chat_with_messages(account, 3)
    for url in (API, f"{API}/{conversation.pk}/messages"):
        response = api.get(url, {"cursor": cursor})
        assert response.status_code == 400, url
        assert response.json()["code"] == "invalid_cursor"


def test_someone_elses_messages_are_404(api, other_api, account):
    conversation = chat_with_messages(account, 3)
    assert other_api.get(f"{API}/{conversation.pk}/messages").status_code == 404
