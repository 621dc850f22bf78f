"""The OpenAPI document (issue 13): every 4xx and 5xx of every operation has the error body,
401 is declared wherever a token is read and 429 wherever a rate limit applies."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.urls import resolve

ERROR = "#/components/schemas/Error"
RATE_LIMITED = "#/components/schemas/RateLimited"


@pytest.fixture
def schema(api) -> dict[str, Any]:
    response = api.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def _operations(schema: dict[str, Any]):
    for path, operations in schema["paths"].items():
        view_class = resolve(re.sub(r"\{\w+\}", "1", path)).func.view_class
        for method, operation in operations.items():
            view = view_class()
            view.request = SimpleNamespace(method=method.upper())  # throttles may be per method
            yield f"{method.upper()} {path}", view, operation["responses"]


def test_every_error_response_has_the_error_body(schema) -> None:
    errors = 0
    for name, _view, responses in _operations(schema):
        for status, response in responses.items():
            if status[0] not in "45":
                continue
            errors += 1
            body = response.get("content", {}).get("application/json", {}).get("schema", {})
            expected = RATE_LIMITED if status == "429" else ERROR
            assert body.get("$ref") == expected, f"{name} {status}"
            assert response["description"].startswith("Codes: `"), f"{name} {status}"
    assert errors > 100


def test_401_is_declared_wherever_a_token_is_read_and_429_wherever_a_limit_applies(
    schema,
) -> None:
    for name, view, responses in _operations(schema):
        reads_token = bool(view.authentication_classes)
        throttled = bool(view.get_throttles())
        assert ("401" in responses) == reads_token, name
        assert ("429" in responses) == throttled, name
        assert "503" in responses, name
        if throttled:
            assert "Retry-After" in responses["429"]["headers"], name


def test_the_error_bodies_name_code_detail_and_retry_after(schema) -> None:
    components = schema["components"]["schemas"]
    assert components["Error"]["required"] == ["code", "detail"]
    assert set(components["Error"]["properties"]) == {"code", "detail", "fields", "reason"}
    assert components["RateLimited"]["required"] == ["code", "detail", "retry_after"]


def test_a_views_own_codes_are_declared_with_the_common_ones(schema) -> None:
    line = schema["paths"]["/api/v1/memory/lines/{index}"]["patch"]["responses"]
    assert "`stale_version`" in line["412"]["description"]
    assert "`version_required`" in line["428"]["description"]
    assert "`line_refused`" in line["400"]["description"]
    assert "`malformed_json`" in line["400"]["description"]
    memory = schema["paths"]["/api/v1/memory"]["get"]["responses"]
    assert "`memory_unavailable`" in memory["503"]["description"]


def test_the_memory_documents_where_every_line_came_from(schema) -> None:
    components = schema["components"]["schemas"]
    memory = components["Memory"]["properties"]
    assert memory["items"]["type"] == "array"
    assert memory["items"]["description"]
    item = components["LineItem"]
    assert set(item["required"]) == {
        "text",
        "kind",
        "conversation",
        "title",
        "learned_at",
        "changed_at",
        "pinned",
        "product",
    }
    for name, field in item["properties"].items():
        assert field.get("description"), name
    kinds = components[item["properties"]["kind"]["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert kinds["enum"] == [
        "learned",
        "remembered",
        "voice",
        "added",
        "edited",
        "merged",
        "imported",
    ]
    assert "null" in item["properties"]["conversation"]["type"]  # OpenAPI 3.1


def test_the_token_and_password_endpoints_are_documented_with_their_codes(schema) -> None:
    paths = schema["paths"]
    for path in ("/api/v1/auth/logout", "/api/v1/auth/logout-all"):
        assert set(paths[path]["post"]["responses"]) >= {"204", "401"}, path
    change = paths["/api/v1/auth/password"]["post"]
    body = change["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    required = schema["components"]["schemas"][body.rsplit("/", 1)[1]]["required"]
    assert set(required) == {"old_password", "new_password"}
    responses = change["responses"]
    assert "`wrong_old_password`" in responses["400"]["description"]
    assert "`weak_password`" in responses["400"]["description"]
    assert "`not_an_account`" in responses["403"]["description"]
    assert {"200", "401", "429"} <= set(responses)
    reset = paths["/api/v1/auth/password-reset"]["post"]["responses"]
    assert {"202", "429"} <= set(reset) and "401" not in reset
    assert "`invalid_email`" in reset["400"]["description"]
    confirm = paths["/api/v1/auth/password-reset/confirm"]["post"]["responses"]
    assert "204" in confirm and "401" not in confirm
    assert "`invalid_reset_token`" in confirm["400"]["description"]


def test_what_can_be_null_says_so_in_openapi_3_1(schema) -> None:
    assert schema["openapi"].startswith("3.1")
    components = schema["components"]["schemas"]
    reply = components["Exchange"]["properties"]["assistant_message"]
    assert {"type": "null"} in reply["oneOf"]
    change = components["Message"]["properties"]["memory_change"]
    assert {"type": "null"} in change["oneOf"]


def test_streams_are_declared_as_events_and_their_errors_as_json(schema) -> None:
    send = schema["paths"]["/api/v1/conversations/{id}/messages"]["post"]["responses"]
    assert set(send["200"]["content"]) == {"text/event-stream"}
    assert "Last-Event-ID" in send["200"]["description"]
    assert set(send["201"]["content"]) == {"application/json"}
    for status, response in send.items():
        if status[0] in "45":
            assert set(response["content"]) == {"application/json"}, status


def test_every_answer_declares_its_headers(schema) -> None:
    memory = schema["paths"]["/api/v1/memory"]["get"]["responses"]["200"]["headers"]
    assert memory["ETag"]["required"] is True
    assert memory["X-Request-Id"]["required"] is True
    sending = schema["paths"]["/api/v1/conversations/{id}/messages"]["post"]["responses"]
    assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= set(
        sending["201"]["headers"]
    )
    assert "Retry-After" in sending["429"]["headers"]


def test_account_deletion_declares_its_password_body(schema) -> None:
    deletion = schema["paths"]["/api/v1/account"]["delete"]
    assert deletion["requestBody"]["required"] is False
    body = deletion["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/PasswordRequest")


def test_the_token_scheme_is_declared(schema) -> None:
    scheme = schema["components"]["securitySchemes"]["tokenAuth"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert schema["paths"]["/api/v1/memory"]["get"]["security"] == [{"tokenAuth": []}]


def _table_codes() -> dict[str, set[str]]:
    """docs/API.md's "Error codes, by status" table: status → codes."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "API.md").read_text()
    table = text.split("Error codes, by status:", 1)[1].split("\n\n", 2)[1]
    found: dict[str, set[str]] = {}
    for row in table.splitlines()[2:]:
        statuses, codes = row.strip("|").split("|", 1)
        names = set(re.findall(r"`([a-z_]+)`", codes)) - {"reason", "fields", "retry_after"}
        for status in re.findall(r"\d{3}", statuses):
            found[status] = names
    return found


def test_the_error_code_list_in_the_docs_matches_the_schema(schema) -> None:
    declared: dict[str, set[str]] = {}
    for _name, _view, responses in _operations(schema):
        for status, response in responses.items():
            if status[0] in "4" or status == "503":
                codes = re.findall(r"`([a-z_]+)`", response.get("description", ""))
                declared.setdefault(status, set()).update(codes)
    documented = _table_codes()
    assert len(set().union(*declared.values())) > 30  # the schema's codes were all read
    for status, codes in declared.items():
        missing = codes - documented.get(status, set())
        assert not missing, f"{status}: {sorted(missing)} are in the schema, not in docs/API.md"
