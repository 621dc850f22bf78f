"""Chat through the mobile API: models, conversations, messages (plain and streamed), projects."""

import pytest

from chat.models import Conversation, Message, Project
from tests import sse

pytestmark = pytest.mark.django_db


def read_events(response) -> list[tuple[str, dict]]:
    return sse.pairs(response.streaming_content)


def new_conversation(api, **fields) -> dict:
    response = api.post("/api/v1/conversations", fields, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_models_lists_the_configured_chat_models(api):
    ids = [m["id"] for m in api.get("/api/v1/models").json()]
    assert ids == ["offline/whizi-chat", "scripted/chat-a", "scripted/chat-b"]


def test_a_message_gets_a_reply_from_the_offline_model(api):
    conversation = new_conversation(api)
    response = api.post(
        f"/api/v1/conversations/{conversation['id']}/messages",
        {"content": "Hello there"},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["user_message"]["content"] == "Hello there"
    assert body["assistant_message"]["role"] == "assistant"
    assert body["assistant_message"]["content"]
    assert body["assistant_message"]["model"] == "offline/whizi-chat"


def test_a_streamed_reply_arrives_as_events_and_is_stored(api, scripted):
    conversation = new_conversation(api, model="scripted/chat-a")
    scripted.answer("Nice to meet you, Anna.")
    response = api.post(
        f"/api/v1/conversations/{conversation['id']}/messages",
        {"content": "I'm Anna"},
        format="json",
        HTTP_ACCEPT="text/event-stream",
    )
    assert response["Content-Type"] == "text/event-stream"
    events = read_events(response)
    assert events[0][0] == "start"
    assert "".join(d["content"] for k, d in events if k == "delta") == "Nice to meet you, Anna."
    assert events[-1][0] == "done"
    assert Message.objects.get(role="assistant").content == "Nice to meet you, Anna."


def test_switching_model_mid_conversation_keeps_the_history(api, scripted):
    conversation = new_conversation(api, model="scripted/chat-a")
    url = f"/api/v1/conversations/{conversation['id']}"
    scripted.answer("first answer")
    api.post(f"{url}/messages", {"content": "first question"}, format="json")

    assert (
        api.patch(url, {"model": "scripted/chat-b"}, format="json").json()["model"]
        == "scripted/chat-b"
    )
    scripted.answer("second answer")
    api.post(f"{url}/messages", {"content": "second question"}, format="json")

    last_call = scripted.calls[-1]
    assert last_call["model"] == "chat-b"
    contents = [m["content"] for m in last_call["messages"] if m["role"] != "system"]
    assert contents == ["first question", "first answer", "second question"]


def test_a_conversation_comes_back_with_its_messages(api, scripted):
    conversation = new_conversation(api, model="scripted/chat-a")
    scripted.answer("pong")
    api.post(
        f"/api/v1/conversations/{conversation['id']}/messages", {"content": "ping"}, format="json"
    )
    detail = api.get(f"/api/v1/conversations/{conversation['id']}").json()
    assert [m["content"] for m in detail["messages"]] == ["ping", "pong"]
    assert detail["title"] == "Ping"
    listed = api.get("/api/v1/conversations").json()
    assert [c["id"] for c in listed["results"]] == [conversation["id"]]


@pytest.mark.parametrize("content", ["", "   \n\t "])
def test_an_empty_message_is_400_and_nothing_is_stored(api, content):
    conversation = new_conversation(api)
    response = api.post(
        f"/api/v1/conversations/{conversation['id']}/messages", {"content": content}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "empty_message"
    assert not Message.objects.exists()


def test_a_message_over_the_size_limit_is_400_and_nothing_is_stored(api, settings):
    conversation = new_conversation(api)
    response = api.post(
        f"/api/v1/conversations/{conversation['id']}/messages",
        {"content": "x" * (settings.MESSAGE_MAX_CHARS + 1)},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "message_too_long"
    assert not Message.objects.exists()


def test_an_unknown_model_is_400(api):
    assert (
        api.post("/api/v1/conversations", {"model": "gpt-nope"}, format="json").json()["code"]
        == "unknown_model"
    )
    conversation = new_conversation(api)
    response = api.patch(
        f"/api/v1/conversations/{conversation['id']}", {"model": "gpt-nope"}, format="json"
    )
    assert response.status_code == 400
    assert Conversation.objects.get().model == "offline/whizi-chat"


def test_a_model_timeout_keeps_the_message_and_the_conversation_usable(api, scripted, settings):
    settings.CHAT_MODEL_TIMEOUT = 0.5
    conversation = new_conversation(api, model="scripted/chat-a")
    url = f"/api/v1/conversations/{conversation['id']}/messages"
    scripted.answer(("sleep", 3, "too late"), "on time")

    failed = api.post(url, {"content": "are you there?"}, format="json")

    assert failed.status_code == 201
    assert failed.json()["assistant_message"] is None
    assert failed.json()["error"]["code"] == "model_timeout"
    assert "took too long" in failed.json()["error"]["detail"]
    assert list(Message.objects.values_list("role", flat=True)) == ["user"]
    retried = api.post(url, {"content": "still there?"}, format="json")
    assert retried.json()["assistant_message"]["content"] == "on time"


def test_a_model_error_while_streaming_stores_no_half_reply(api, scripted):
    from litellm.exceptions import ServiceUnavailableError

    conversation = new_conversation(api, model="scripted/chat-a")
    scripted.answer(
        ServiceUnavailableError(message="down", llm_provider="scripted", model="chat-a")
    )
    response = api.post(
        f"/api/v1/conversations/{conversation['id']}/messages",
        {"content": "hello"},
        format="json",
        HTTP_ACCEPT="text/event-stream",
    )
    events = read_events(response)
    assert events[-1][0] == "error"
    assert events[-1][1]["code"] == "model_unavailable"
    assert list(Message.objects.values_list("role", flat=True)) == ["user"]


PROVIDER_ERRORS = [
    ("Timeout", "model_timeout"),
    ("APIConnectionError", "model_unavailable"),
    ("ServiceUnavailableError", "model_unavailable"),
    ("BadGatewayError", "model_unavailable"),
    ("InternalServerError", "model_unavailable"),
    ("AuthenticationError", "model_error"),
    ("RateLimitError", "model_rate_limited"),
]
# litellm's stream wrapper reports a provider's 429 mid-stream as a connection error.
STREAM_CODES = {"model_rate_limited": "model_unavailable"}


def provider_error(name: str) -> Exception:
    from litellm import exceptions

    error_type = getattr(exceptions, name)
    return error_type(message="boom", llm_provider="scripted", model="chat-a")


@pytest.mark.parametrize("streamed", [False, True], ids=["json", "sse"])
@pytest.mark.parametrize(("error", "code"), PROVIDER_ERRORS)
def test_a_provider_error_blames_the_model_never_the_storage(api, scripted, error, code, streamed):
    from chat.services import REPLY_NOT_STORED_TEXT

    conversation = new_conversation(api, model="scripted/chat-a")
    scripted.answer(provider_error(error))
    headers = {"HTTP_ACCEPT": "text/event-stream"} if streamed else {}
    response = api.post(
        f"/api/v1/conversations/{conversation['id']}/messages",
        {"content": "hello"},
        format="json",
        **headers,
    )
    failure = read_events(response)[-1][1] if streamed else response.json()["error"]
    assert failure["code"] == (STREAM_CODES.get(code, code) if streamed else code)
    assert failure["detail"] != str(REPLY_NOT_STORED_TEXT)
    assert "pick another model" in failure["detail"]


def test_project_instructions_reach_the_model_as_their_own_system_message(api, scripted):
    project = api.post(
        "/api/v1/projects",
        {"name": "Thesis", "instructions": "Answer in British English."},
        format="json",
    ).json()
    conversation = new_conversation(api, model="scripted/chat-a", project=project["id"])
    scripted.answer("ok")
    api.post(
        f"/api/v1/conversations/{conversation['id']}/messages", {"content": "hi"}, format="json"
    )
    systems = [m["content"] for m in scripted.calls[-1]["messages"] if m["role"] == "system"]
    assert any("Answer in British English." in s for s in systems)
    assert not any("Answer in British English." in s for s in systems[:1])


def test_projects_can_be_listed_renamed_and_deleted(api):
    project = api.post("/api/v1/projects", {"name": "A", "instructions": ""}, format="json").json()
    url = f"/api/v1/projects/{project['id']}"
    assert api.patch(url, {"name": "B"}, format="json").json()["name"] == "B"
    assert [p["name"] for p in api.get("/api/v1/projects").json()] == ["B"]
    assert api.delete(url).status_code == 204
    assert not Project.objects.exists()


def test_someone_elses_conversation_is_404_for_every_verb(api, other_api):
    conversation = new_conversation(api)
    url = f"/api/v1/conversations/{conversation['id']}"
    assert other_api.get(url).status_code == 404
    assert other_api.patch(url, {"model": "scripted/chat-a"}, format="json").status_code == 404
    assert other_api.post(f"{url}/messages", {"content": "hi"}, format="json").status_code == 404
    assert other_api.delete(url).status_code == 404
    assert Conversation.objects.filter(pk=conversation["id"]).exists()
    assert not Message.objects.exists()


def test_someone_elses_project_is_404_for_every_verb(api, other_api):
    project = api.post("/api/v1/projects", {"name": "Mine"}, format="json").json()
    url = f"/api/v1/projects/{project['id']}"
    assert other_api.get(url).status_code == 404
    assert other_api.patch(url, {"name": "Theirs"}, format="json").status_code == 404
    assert other_api.delete(url).status_code == 404
    assert (
        other_api.post(
            "/api/v1/conversations", {"project": project["id"]}, format="json"
        ).status_code
        == 404
    )
    assert Project.objects.get().name == "Mine"


def test_the_openapi_document_is_served(api):
    response = api.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert b"/api/v1/conversations/{id}/messages" in response.content


@pytest.mark.django_db(transaction=True)
def test_healthz_reports_the_database_the_broker_and_the_worker(client, worker):
    response = client.get("/healthz")
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "broker": "ok",
        "worker": "ok",
        "memory_model": "ok",
    }
    assert response.status_code == 200


def test_nul_bytes_surrogates_and_bidi_controls_are_stripped_before_storage(api, scripted):
    conversation = new_conversation(api, model="scripted/chat-a")
    scripted.answer("fine\x00 answer")
    # JSON escapes, as a client would send them: a lone surrogate cannot travel as UTF-8.
    response = api.post(
        f"/api/v1/conversations/{conversation['id']}/messages",
        data='{"content": "My name\\u0000 is \\ud800Anna\\u202e"}',
        content_type="application/json",
    )
    assert response.status_code == 201
    assert response.json()["user_message"]["content"] == "My name is Anna"
    assert list(Message.objects.values_list("content", flat=True)) == [
        "My name is Anna",
        "fine answer",
    ]


def test_not_found_has_its_stable_code_everywhere_in_the_api(api):
    for response in (
        api.get("/api/v1/conversations/999"),
        api.post("/api/v1/conversations/999/messages", {"content": "hi"}, format="json"),
        api.post("/api/v1/conversations", {"project": 999}, format="json"),
        api.get("/api/v1/no-such-endpoint"),
        api.get("/api/v1/conversations/abc"),
    ):
        assert response.status_code == 404
        assert response.json() == {"code": "not_found", "detail": "Not found."}


def test_a_message_that_is_not_text_is_400(api):
    conversation = new_conversation(api)
    for content in (5, ["hi"], None):
        response = api.post(
            f"/api/v1/conversations/{conversation['id']}/messages",
            {"content": content},
            format="json",
        )
        assert response.status_code == 400
    assert not Message.objects.exists()


def test_project_instructions_are_cleaned_on_update_too(api):
    project = api.post("/api/v1/projects", {"name": "P"}, format="json").json()
    api.patch(
        f"/api/v1/projects/{project['id']}",
        {"instructions": "Be \u202ebrief\u200b."},
        format="json",
    )
    assert Project.objects.get().instructions == "Be brief."
